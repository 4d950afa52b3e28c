"""Hidden deals at scale: what the knowledge model and the live table keep per event.

A fact stated again and again is one constraint; the constraints in force, the witness's
watch lists and the solver stay the same size however long a game repeats itself; a
check keeps nothing per event to undo; the live table's undo keeps a few fields an event
and no knowledge model of a hand that is over, yet takes every event back exactly. No
figure here is a time: bench/bench_hidden_scale.py measures those.
"""

from __future__ import annotations

import gc
import shutil
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from referee.authoring.simulate import play_match_record, play_one
from referee.engine.core import Engine
from referee.engine.state import GameState
from referee.errors import Kind, RefereeError
from referee.knowledge.model import Knowledge
from referee.language.loader import load_spec
from referee.live.start import resume
from referee.transcript import undo
from referee.transcript.events import Event
from referee.transcript.notation import read_transcript
from referee.transcript.session import Session
from referee.transcript.setup import set_up

RULES = Path(__file__).parent.parent / "rules"
AUTHORS = ("game: authors\nplayers: Ann Bob Cy Dee\ndealer: Dee\ndeal: hidden\n",
           ("Ann asks Bob for 2D", "Bob says no", "Bob asks Cy for 2C", "Cy says no",
            "Cy asks Dee for 2S", "Dee says no", "Dee asks Ann for 2H", "Ann says no"))
LITERATURE = ("game: literature\nplayers: Ann Bob Cy Dee Eve Fay\ndeal: hidden\n",
              ("Ann asks Bob for 3H", "Bob gives 3H", "Ann asks Bob for 4H", "Bob says no",
               "Bob asks Ann for 3H", "Ann gives 3H", "Bob asks Ann for 5H", "Ann says no"))
CYCLES = {"authors": AUTHORS, "literature": LITERATURE}


def cycle(name: str, events: int) -> str:
    """A hidden transcript in which the same events go round ``events`` times."""
    header, round_ = CYCLES[name]
    return header + "".join(round_[n % len(round_)] + "\n" for n in range(events))


def session_for(text: str) -> tuple[Session, list[Event]]:
    transcript = read_transcript(text, "long.txt")
    assert transcript.error is None
    game = set_up(transcript.headers, transcript.headers[0].span, None)
    return Session(game), list(transcript.events)


def model_size(model: Knowledge) -> tuple[int, int, int]:
    """The constraints in force, the longest watch list, the index of forms."""
    return (len(model.active), max(len(watched) for watched in model.witness.of_card.values()),
            len(model._bounds))


@pytest.mark.parametrize("name", sorted(CYCLES))
def test_a_game_that_repeats_itself_keeps_as_many_constraints_at_4000_events_as_at_400(
        name: str) -> None:
    session, events = session_for(cycle(name, 4_000))
    sizes = {}
    for number, event in enumerate(events, start=1):
        session.play(event)
        if number in (400, 4_000):
            model = session.knowledge
            assert model is not None and model.consistent
            sizes[number] = model_size(model)
            assert model.depth >= number and not model._steps  # a check keeps no undo
    assert sizes[4_000] == sizes[400]


@pytest.mark.parametrize("name", sorted(CYCLES))
def test_asking_where_the_cards_are_again_and_again_does_not_grow_the_solver(
        name: str) -> None:
    session, events = session_for(cycle(name, 80))
    for event in events:
        session.play(event)
    model = session.knowledge
    assert model is not None
    first = model.possible_places()
    solver = model._sat
    assert solver is not None
    size = solver.size
    for _ in range(12):  # 'known' typed again and again
        assert model.possible_places() == first
    questions = sum(len(places) for places in model.where.values())  # (card, place) pairs
    assert solver.size - size <= questions


def test_a_fact_stated_again_is_proved_by_a_line_that_states_it() -> None:
    text = cycle("authors", 400) + "Ann asks Cy for 2C\nCy gives 2C\n"  # Cy said no to 2C
    session, events = session_for(text)
    lines = text.splitlines()
    for event in events[:-1]:
        session.play(event)
    with pytest.raises(RefereeError) as caught:
        session.play(events[-1])
    because = caught.value.because
    assert caught.value.kind is Kind.CONTRADICTION and because, caught.value
    for line, reason in because:
        assert lines[line - 1] == "Cy says no" and lines[line - 2].endswith("for 2C"), reason


def undo_snapshot(session: Session) -> tuple[Any, ...]:
    """Everything undo must give back: the state, the record, the notes, and the
    knowledge model (its constraints in force, where each card's starts are, the deal
    its witness keeps)."""
    model = session.knowledge
    known: tuple[Any, ...] = ()
    if model is not None:
        active = sorted((c.line, c.least, c.most,
                         sorted((card, sorted(places)) for card, places in c.members.items()))
                        for c in model.active)
        where = {card: {place: list(starts) for place, starts in places.items()}
                 for card, places in model.where.items()}
        known = (model.depth, model.consistent, active, where, dict(model.witness.start))
    return (session.state.copy(), tuple(session.kept.lines()), tuple(session.notes),
            session.hand, list(session.banked), known)


def matches_and_games() -> list[tuple[str, str]]:
    """Hidden self-played matches (a knowledge model a hand) and long hidden hands."""
    texts = []
    for rules, players in (("go-fish", 4), ("literature", 6), ("authors", 3)):
        engine = Engine(load_spec(RULES / f"{rules}.rules"))
        match = play_match_record(engine, players, 7, 100_000, max_hands=3, hidden=True)
        texts.append((f"{rules} match", "\n".join(match.lines)))
    engine = Engine(load_spec(RULES / "literature.rules"))
    texts.append(("literature game",
                  "\n".join(play_one(engine, 6, 11, transcript=True, hidden=True).lines)))
    texts.append(("authors cycle", cycle("authors", 60)))
    return texts


@pytest.mark.parametrize(("label", "text"), matches_and_games(),
                         ids=[label for label, _ in matches_and_games()])
def test_undo_takes_every_event_back_exactly_across_hands(label: str, text: str) -> None:
    session, events = session_for(text)
    seen = [undo_snapshot(session)]
    for event in events:
        assert session.attempt(event) is None, label
        seen.append(undo_snapshot(session))
    if label.endswith("match"):
        assert session.hand == 3  # undo below goes back through two new hands
    while len(seen) > 1:
        seen.pop()
        assert session.undo()
        assert undo_snapshot(session) == seen[-1], (label, len(seen))
    assert not session.undo()


def test_a_hand_replayed_from_the_record_sets_aside_what_the_table_accepted() -> None:
    session, events = session_for(
        "game: go-fish\nplayers: Ann Bob Cy\ndealer: Cy\ndeal: hidden\n"
        "Ann asks Bob for 7\nBob says no\nAnn draws\nBob asks Cy for 7\nCy says no\n")
    for event in events[:3]:
        assert session.attempt(event) is None
    assert session.attempt(events[3]) is not None  # Bob said no to 7: he held none
    assert session.attempt(events[3], trust=True) is None
    assert session.attempt(events[4]) is None
    model = session.knowledge
    assert model is not None
    replayed = undo.replayed(session, len(session.kept.played))  # as undo of a new hand does
    assert replayed is not None and replayed.consistent
    assert replayed.depth == model.depth
    assert ({(c.line, c.least, c.most) for c in replayed.active}
            == {(c.line, c.least, c.most) for c in model.active})


def resumed_bytes(tmp_path: Path, text: str) -> int:
    """The memory a resumed table holds, traced, its imports and caches warmed first."""
    path = tmp_path / "game.txt"
    path.write_text(text)
    resume(shutil.copyfile(path, tmp_path / "warm.txt"), lambda _: None).journal.close()
    tracemalloc.start()
    table = resume(path, lambda _: None)
    held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    table.journal.close()
    return held


def go_fish_match(events: int) -> str:
    """A hidden match of Go Fish of about ``events`` events."""
    engine = Engine(load_spec(RULES / "go-fish.rules"))
    hands = max(1, events // 130)
    return "\n".join(play_match_record(engine, 4, 3, 100_000, max_hands=hands,
                                       hidden=True).lines) + "\n"


@pytest.mark.parametrize("kind", ["authors cycle", "literature cycle", "go-fish match"])
def test_a_resumed_table_keeps_little_per_event(tmp_path: Path, kind: str) -> None:
    def text(events: int) -> str:
        if kind == "go-fish match":
            return go_fish_match(events)
        return cycle(kind.split()[0], events)

    small, large = text(1_000), text(4_000)
    count = [len(read_transcript(t, "x").events) for t in (small, large)]
    per_event = ((resumed_bytes(tmp_path, large) - resumed_bytes(tmp_path, small))
                 / (count[1] - count[0]))
    assert per_event < 2_500, per_event  # it was 8,800 bytes (Authors), 20,000 (Go Fish)



def test_what_play_resume_replayed_is_out_of_the_collectors_reach(tmp_path: Path) -> None:
    """After a long ``play --resume``, no collection at the table walks the replayed game
    again (a full one took about a second after 100,000 events): that process serves
    one table, and freezes what the replay built."""
    import io

    from referee.live.prompt import PlayArguments, play

    path = tmp_path / "match.txt"
    path.write_text(go_fish_match(400))
    gc.collect()
    frozen = gc.get_freeze_count()
    try:
        status = play(PlayArguments(None, None, resume=path), io.StringIO("quit\n"),
                      io.StringIO(), io.StringIO())
        assert status == 0
        assert gc.get_freeze_count() > frozen
    finally:
        gc.unfreeze()


def test_resume_itself_freezes_nothing(tmp_path: Path) -> None:
    """A process that resumes table after table (a server, a fuzz, a program using the
    library) keeps no garbage of theirs for good: resume() leaves the collector as it
    was (a freeze there had kept every resume's garbage: the fuzz grew to 5.6 GB)."""
    path = tmp_path / "match.txt"
    path.write_text(go_fish_match(100))
    gc.collect()
    frozen = gc.get_freeze_count()
    for _ in range(3):
        resume(path, lambda _: None).journal.close()
    assert gc.get_freeze_count() == frozen


def test_a_copy_of_a_state_holds_every_field_in_its_place() -> None:
    """``GameState.copy`` passes the fields by position: each lands in its own."""
    state = GameState(("Ann", "Bob"), 1, [{"2S"}, {"3S"}], [2, 3], [None, "4S"], [["a"], []],
                      centre=["5S"], piles=[["6S"], []], unplaced={"7S"}, laying={0: frozenset()},
                      revealed={"8S": 1}, finished={"d"})
    for number, name in enumerate(undo.STATE_FIELDS):  # a value of its own in each field
        value = getattr(state, name)
        if isinstance(value, list | set | dict):
            continue  # copied as new containers: told apart by their contents below
        setattr(state, name, ("field", number))
    state.unknown, state.void, state.completed = [1, 2, 3, 4], ["a"], ["b"]
    state.moved, state.laid_order = ["moved"], [(0, "c")]  # type: ignore[list-item]
    copy = state.copy()
    for name in undo.STATE_FIELDS:
        assert getattr(copy, name) == getattr(state, name), name
        if isinstance(getattr(state, name), list | set | dict):
            assert getattr(copy, name) is not getattr(state, name), name
