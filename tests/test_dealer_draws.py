"""A hidden dealer's draw while a set laid from the deal waits for its replacements.

Under ``replaced from the stock, unless the deal's last card completed it`` a hidden
table sees the dealer draw the replacements in the open, or draw none. A dealer whose
hand the unreplaced set emptied, and who plays first, then draws in turn: the same
line. The referee reads a draw as a replacement until a later event (or the end) says
it was not one, and then reads the draws again as moves in turn. The checker's side is
in tests/transcripts/dealer-draws/; here the live session's: a refused event and undo
leave everything as it was, the draws read either way.
"""

from __future__ import annotations

from pathlib import Path

from referee.errors import Kind
from referee.transcript.events import Event
from referee.transcript.notation import read_transcript
from referee.transcript.session import Session
from referee.transcript.setup import set_up

RULES = (Path(__file__).parent / "rules_support" / "composition"
         / "dealer-draws-in-turn-after-an-unreplaced-book.rules")
HEADER = f"game: {RULES}\nplayers: Ann Bob\ndealer: Bob\ndeal: hidden\n"
IN_TURN = "Bob books 3S 3H\nBob draws\nBob asks Ann for 4\nAnn says no\n"
REPLACED = "Bob books 3S 3H\nBob draws\nBob draws\nBob asks Ann for 4\nAnn says no\n"


def session_and_events(lines: str) -> tuple[Session, list[Event]]:
    transcript = read_transcript(HEADER + lines, "live.txt")
    game = set_up(transcript.headers, transcript.headers[0].span, None)
    return Session(game), list(transcript.events)


def snapshot(session: Session) -> tuple[object, ...]:
    knowledge = session.knowledge
    return (session.describe(), tuple(session.record.lines()) if session.record else (),
            tuple(session.notes), knowledge.depth if knowledge else 0,
            knowledge.consistent if knowledge else True)


def checked(lines: str) -> tuple[object, ...]:
    """What a check of the lines leaves: the state and the record."""
    session, events = session_and_events(lines)
    for event in events:
        session.play(event)
    session.finish()
    return session.describe(), tuple(session.kept.lines())


def test_a_draw_in_turn_is_read_again_at_the_next_event() -> None:
    session, events = session_and_events(IN_TURN)
    for event in events:
        assert session.attempt(event) is None
    described = session.describe()
    assert described["hands"] == {"Ann": 2, "Bob": 1} and described["turn"] == "Ann"
    assert (described, tuple(session.kept.lines())) == checked(IN_TURN)


def test_undo_goes_back_through_either_reading() -> None:
    for lines in (IN_TURN, REPLACED):
        session, events = session_and_events(lines)
        seen = [snapshot(session)]
        for event in events:
            assert session.attempt(event) is None
            seen.append(snapshot(session))
        while session.undo():
            seen.pop()
            assert snapshot(session) == seen[-1]
        assert len(seen) == 1


def test_an_event_neither_reading_allows_changes_nothing() -> None:
    session, events = session_and_events("Bob books 3S 3H\nBob draws\nAnn asks Bob for 4\n"
                                         "Bob asks Ann for 4\n")
    for event in events[:2]:
        assert session.attempt(event) is None
    before = snapshot(session)
    error = session.attempt(events[2])
    assert error is not None and error.kind is Kind.ILLEGAL, error
    assert "Bob laid 3 from the deal" in error.message  # the first reading's error
    assert snapshot(session) == before
    assert session.attempt(events[3]) is None  # the draw is still open to either reading
    assert session.describe()["hands"] == {"Ann": 2, "Bob": 1}


def test_done_after_the_draw_reads_it_in_turn_and_undo_reads_it_back() -> None:
    session, events = session_and_events("Bob books 3S 3H\nBob draws\nBob asks Ann for 4\n")
    for event in events[:2]:
        assert session.attempt(event) is None
    after_draw = snapshot(session)
    assert session.settle() is None  # 'done': nobody lays more; the draw was in turn
    assert session.describe()["turn"] == "Bob" and session.state.phase.value == "ask"
    assert session.undo()
    assert snapshot(session) == after_draw
    assert session.attempt(events[2]) is None
    assert session.describe()["hands"] == {"Ann": 2, "Bob": 1}
