"""The Session interface the live prompt uses: a refused event changes nothing, undo
takes an event back, and a contradiction the table accepts is set aside."""

from __future__ import annotations

from referee.engine.state import Phase
from referee.errors import Kind
from referee.transcript.events import Event
from referee.transcript.notation import read_transcript
from referee.transcript.session import Session
from referee.transcript.setup import set_up

HEADER = """game: go-fish
players: Ann Bob Cy
deal: hidden
"""


def session_and_events(lines: str) -> tuple[Session, list[Event]]:
    transcript = read_transcript(HEADER + lines, "live.txt")
    game = set_up(transcript.headers, transcript.headers[0].span, None)
    return Session(game), list(transcript.events)


def snapshot(session: Session) -> tuple[object, ...]:
    knowledge = session.knowledge
    return (session.describe(), tuple(session.record.lines()), tuple(session.notes),
            knowledge.depth if knowledge else 0, knowledge.consistent if knowledge else True)


def test_a_refused_event_changes_nothing() -> None:
    session, events = session_and_events(
        "Ann asks Bob for 7\nBob says no\nAnn draws\nBob asks Cy for 7\n")
    for event in events[:3]:
        assert session.attempt(event) is None
    before = snapshot(session)
    error = session.attempt(events[3])
    assert error is not None and error.kind is Kind.CONTRADICTION
    assert [line for line, _ in error.because] == [5]
    assert snapshot(session) == before


def test_undo_takes_back_the_last_event_with_what_it_filled_in() -> None:
    session, events = session_and_events("Ann asks Bob for 7\nBob gives 3\nAnn books 7\n")
    assert session.attempt(events[0]) is None
    after_ask = snapshot(session)
    assert session.attempt(events[1]) is None
    assert session.attempt(events[2]) is None
    assert session.describe()["sets"]["Ann"] == ["7"]
    assert session.undo() and session.undo()
    assert snapshot(session) == after_ask
    assert session.undo() and not session.undo()


def test_a_contradiction_the_table_accepts_is_set_aside() -> None:
    session, events = session_and_events(
        "Ann asks Bob for 7\nBob says no\nAnn draws\nBob asks Cy for 7\nCy says no\nBob draws\n"
        "Cy asks Ann for 5\n")
    for event in events[:3]:
        assert session.attempt(event) is None
    assert session.attempt(events[3]) is not None
    assert session.attempt(events[3], trust=True) is None
    for event in events[4:]:
        assert session.attempt(event) is None
    assert session.knowledge is not None and session.knowledge.consistent
    assert session.describe()["turn"] == "Cy"
    assert session.engine.current_player(session.state) == 0  # Ann answers Cy


def test_one_place_of_the_knowledge_is_a_column_of_every_place() -> None:
    session, events = session_and_events(
        "Ann asks Bob for 7\nBob says no\nAnn draws\nBob asks Cy for 5\nCy gives 1\n")
    for event in events:
        assert session.attempt(event) is None
    model = session.knowledge
    assert model is not None
    places = model.possible_places()
    for seat in range(3):
        column = {card for card, where in places.items() if seat in where}
        assert model.possible_at(seat) == column
        assert model.possible_at(seat, 0.0) >= column  # out of time: nothing is ruled out
    assert not any(card.startswith("7") for card in model.possible_at(1))


def test_settle_plays_what_the_cards_force_and_undo_takes_it_back() -> None:
    session, events = session_and_events("Ann asks Bob for 7\nBob gives 1\n")
    for event in events:
        assert session.attempt(event) is None
    laying = snapshot(session)
    assert session.state.phase is Phase.LAY
    assert session.settle() is None
    assert session.state.phase is Phase.ASK and session.describe()["turn"] == "Ann"
    assert session.undo()
    assert snapshot(session) == laying
