"""``referee check`` reads a game a few events ahead of playing it
(``Session.play_all``), so that reading and playing each keep the processor's
instruction cache for a while; what is played, and which error is reported, stay as
when each event was read just before it was played."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import repeat
from pathlib import Path

import pytest

from referee.errors import Kind, RefereeError
from referee.transcript.check import check_text
from referee.transcript.events import Event
from referee.transcript.notation import read_transcript
from referee.transcript.session import READ_AHEAD, Session
from referee.transcript.setup import set_up

GAME = Path(__file__).parent / "transcripts" / "go-fish" / "whole-game.txt"


def session_and_events(text: str) -> tuple[Session, list[Event]]:
    transcript = read_transcript(text, "game.txt")
    game = set_up(transcript.headers, transcript.headers[0].span, None)
    return Session(game), list(transcript.events)


def counted(events: Iterable[Event], pulled: list[int]) -> Iterator[Event]:
    """``events``, counting in ``pulled[0]`` those taken so far."""
    for event in events:
        pulled[0] += 1
        yield event


def test_events_are_read_a_bounded_batch_ahead_of_play() -> None:
    session, events = session_and_events(GAME.read_text(encoding="utf-8"))
    assert len(events) > READ_AHEAD  # so that a second batch is read
    pulled = [0]
    taken_before_each: list[int] = []
    session.play_all(counted(events, pulled), lambda _: taken_before_each.append(pulled[0]))
    assert session.events_played == len(events) and session.playing is None
    assert taken_before_each == [min(len(events), (index // READ_AHEAD + 1) * READ_AHEAD)
                                 for index in range(len(events))]


def test_a_refused_event_stops_reading_after_its_batch() -> None:
    session, events = session_and_events(GAME.read_text(encoding="utf-8"))
    out_of_turn = events[1]  # Bob's answer, before Ann has asked
    pulled = [0]
    with pytest.raises(RefereeError):
        session.play_all(counted(repeat(out_of_turn), pulled))  # no end of events
    assert pulled[0] == READ_AHEAD
    assert session.events_played == 0 and session.playing == out_of_turn.span.line


def lines_with(changes: dict[int, str]) -> tuple[str, list[int]]:
    """The whole game with the event lines at the given indexes (counted from its
    first event line) replaced; and the line numbers of those event lines."""
    lines = GAME.read_text(encoding="utf-8").splitlines()
    first = next(n for n, line in enumerate(lines) if line.startswith(("Ann ", "Bob ", "Cy ")))
    numbers = []
    for index, text in changes.items():
        lines[first + index] = text
        numbers.append(first + index + 1)
    return "\n".join(lines) + "\n", numbers


@pytest.mark.parametrize("refused_first", [True, False])
def test_the_error_reported_is_the_first_met_in_play(refused_first: bool) -> None:
    refused, unreadable = "Cy asks Ann for 7", "Cy flies off the handle"
    first, later = (refused, unreadable) if refused_first else (unreadable, refused)
    text, (first_line, later_line) = lines_with({2: first, 9: later})  # one batch
    assert later_line - first_line < READ_AHEAD
    verdict = check_text(text, "game.txt")
    assert not verdict.ok and verdict.error is not None
    assert verdict.error.span is not None and verdict.error.span.line == first_line
    assert (verdict.error.kind is Kind.SYNTAX) is not refused_first
    alone = check_text(lines_with({2: first})[0], "game.txt")  # no later error at all
    assert (verdict.error.message, verdict.events, verdict.stopped_at) == (
        alone.error.message if alone.error else None, alone.events, alone.stopped_at)
