"""The facts a move states are remembered by the identity of the move and of what it
answers (referee/engine/core.py, ``Engine.facts``), or else by its value: a remembered
list is given back only for the same players and the same ask."""

from __future__ import annotations

from pathlib import Path

from referee.engine.core import Engine
from referee.engine.moves import Ask, Move, Refuse
from referee.engine.state import GameState
from referee.language.cards import Card, Rank
from referee.language.loader import load_spec

TINY = Path(__file__).parent / "rules_support" / "tiny.rules"


def ask(rank: str, card: str) -> Ask:
    return Ask(0, 1, Rank(rank), Card(card))


def started(engine: Engine, names: tuple[str, ...]) -> GameState:
    hands = [[Card(c) for c in hand.split()]
             for hand in ("AS AH 2S 3S", "AD 2H 2D 3H", "AC 2C 3D 3C")]
    return engine.start(names, 2, hands, [])


def reasons(engine: Engine, state: GameState, move: Move) -> list[str]:
    return [fact.reason for fact in engine.facts(state, move)]


def test_the_same_move_at_a_table_of_other_players_states_their_names() -> None:
    engine = Engine(load_spec(TINY))
    asked = ask("A", "AD")
    first = reasons(engine, started(engine, ("Ann", "Bob", "Cy")), asked)
    other = reasons(engine, started(engine, ("Xia", "Yul", "Zed")), asked)
    assert first and all("Ann" in reason for reason in first)
    assert other and all("Xia" in reason and "Ann" not in reason for reason in other)
    assert reasons(engine, started(engine, ("Ann", "Bob", "Cy")), asked) == first


def test_an_answer_states_what_it_answers_whatever_was_remembered() -> None:
    engine = Engine(load_spec(TINY))
    state = started(engine, ("Ann", "Bob", "Cy"))
    refuse = Refuse(1)
    for asked in (ask("A", "AD"), ask("3", "3H"), ask("A", "AD")):
        state.asking = asked
        said = reasons(engine, state, refuse)
        assert said == [f"Bob said no to an ask for {asked.card}, so Bob held no {asked.card}"]


def test_equal_moves_built_apart_state_equal_facts() -> None:
    engine = Engine(load_spec(TINY))
    state = started(engine, ("Ann", "Bob", "Cy"))
    made = [reasons(engine, state, ask("2", "2H")) for _ in range(3)]
    assert made[0] and made == [made[0]] * 3


def test_moves_made_afresh_find_their_facts_by_value_and_keep_nothing_more() -> None:
    """An answer the referee fills in is a new object each time: its facts are found by
    value, and the memo does not grow with every such object (terse transcripts)."""
    engine = Engine(load_spec(TINY))
    state = started(engine, ("Ann", "Bob", "Cy"))
    state.asking = ask("A", "AD")
    first = engine.facts(state, Refuse(1))
    kept = len(engine._facts_seen), len(engine._facts_by_value)
    for _ in range(500):
        assert engine.facts(state, Refuse(1)) is first
    assert (len(engine._facts_seen), len(engine._facts_by_value)) == kept
