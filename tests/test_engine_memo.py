"""The facts a move states are remembered by the identity of the move and of what it
answers (referee/engine/core.py, ``Engine.facts``), or else by its value: a remembered
list is given back only for the same players and the same ask."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from referee.engine.core import Engine
from referee.engine.moves import Answer, Ask, Draw, EndLaying, Give, LayDown, Move, Pass, Refuse
from referee.engine.state import PHASE_ANSWER, GameState
from referee.language.cards import Card, Rank
from referee.language.loader import load_spec
from referee.values import field_values

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


def test_a_filled_in_answer_is_the_object_a_written_one_resolves_to() -> None:
    """The facts of an answer are found by identity only when every answer of the same
    value is one object: the referee's filled-in answers (``forced_move``) and the
    answers and asks written in any words (``same_move``) share them (issue 22)."""
    engine = Engine(load_spec(TINY))
    state = started(engine, ("Ann", "Bob", "Cy"))
    state.asking, state.phase = ask("2", "2S"), PHASE_ANSWER  # Bob holds no 2S: a no
    written = engine.same_move(Refuse(1))
    assert engine.forced_move(state) is written
    assert engine.forced_move(state) is engine.forced_move(state)
    assert engine.same_move(ask("2", "2S")) is engine.same_move(ask("2", "2S"))


def test_facts_of_filled_in_answers_are_found_by_identity() -> None:
    """Checking a game whose answers are left to the referee looks up no fact by value
    once every answer was met (a Python hash of two records an event, compiled or not)."""
    engine = Engine(load_spec(TINY))
    state = started(engine, ("Ann", "Bob", "Cy"))
    state.asking, state.phase = engine.same_move(ask("2", "2S")), PHASE_ANSWER
    answer = engine.forced_move(state)
    assert answer is not None
    engine.facts(state, answer)

    class Counting(dict[tuple[object, ...], list[object]]):
        looked_up = 0

        def get(self, key: object, default: object = None) -> object:
            Counting.looked_up += 1
            return super().get(key, default)

    engine._facts_by_value = Counting(engine._facts_by_value)  # type: ignore[assignment]
    for _ in range(50):
        engine.facts(state, engine.forced_move(state))  # type: ignore[arg-type]
    assert Counting.looked_up == 0


def test_the_moves_remembered_by_their_words_are_bounded(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Words typed in ever new ways (terse asks, claims naming cards as they like) do
    not grow the resolver's memo without bound in a long-running process."""
    from referee.transcript import resolve
    from referee.transcript.check import check_text

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    from terse import write_corpora

    monkeypatch.setattr(resolve, "MAX_REMEMBERED_MOVES", 7)
    resolve._TABLES.clear()
    write_corpora(tmp_path, 3, 5)
    for file in sorted((tmp_path / "literature-terse").glob("*.txt")):
        assert check_text(file.read_text(), str(file)).ok
    assert resolve._TABLES and all(
        len(moves.by_words) <= 7 and len(moves.answers) <= 7 and len(moves.items) <= 7
        for moves in resolve._TABLES.values())
    resolve._TABLES.clear()


def test_facts_are_found_by_identity_after_the_kept_moves_are_forgotten(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """When ``same_move`` forgets its moves (a bound reached), the moves it hands out
    next are new objects: their facts are then remembered by those, not looked up by
    value on every event from then on."""
    from referee.engine import core

    monkeypatch.setattr(core, "MAX_KEPT_MOVES", 3)
    engine = Engine(load_spec(TINY))
    state = started(engine, ("Ann", "Bob", "Cy"))
    engine.facts(state, engine.same_move(ask("A", "AD")))
    for rank, card in (("2", "2H"), ("3", "3H"), ("2", "2D"), ("3", "3D")):
        engine.facts(state, engine.same_move(ask(rank, card)))  # past the bound
    looked_up: list[object] = []

    class Counting(dict[tuple[object, ...], list[object]]):
        def get(self, key: object, default: object = None) -> object:
            looked_up.append(key)
            return super().get(key, default)

    engine._facts_by_value = Counting(engine._facts_by_value)  # type: ignore[assignment]
    for _ in range(5):
        engine.facts(state, engine.same_move(ask("A", "AD")))
    assert len(looked_up) <= 1


@pytest.mark.parametrize("move", [
    Ask(0, 1, Rank("7"), Card("7S")), Refuse(1), Give(1, (Card("7S"), Card("7H")), 2),
    Draw(0, Card("7D")), Answer(1, True), LayDown(0, "7", (Card("7S"),)),
    Pass(0, 2), EndLaying(1)])
def test_a_moves_key_is_its_type_and_every_field(move: Move) -> None:
    """``same_move`` keys the moves of most events by fields it reads natively: a field
    added to a move and left out of its key would make unequal moves one object."""
    from referee.engine.core import _plain_key

    assert _plain_key(move) == (type(move), *field_values(move))


def test_a_refusal_filled_in_is_the_kept_one_after_the_kept_moves_are_forgotten(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """When ``same_move`` forgets its moves, a no the referee fills in is still the
    object a written one resolves to (``Engine.forced_move``)."""
    from referee.engine import core

    monkeypatch.setattr(core, "MAX_KEPT_MOVES", 2)
    engine = Engine(load_spec(TINY))
    state = started(engine, ("Ann", "Bob", "Cy"))
    state.asking, state.phase = ask("2", "2S"), PHASE_ANSWER  # Bob holds no 2S: a no
    before = engine.forced_move(state)
    assert before is engine.forced_move(state) is engine.same_move(Refuse(1))
    for seat in (0, 2, 0, 2):  # fills the kept moves: they are forgotten
        engine.same_move(Draw(seat, Card("AS")))
    after = engine.forced_move(state)
    assert after == before and after is engine.same_move(Refuse(1))


def reseated(text: str) -> str:
    """The transcript with its players seated in reverse order: the same words name
    other seats (the game may then break a rule: the verdict says which)."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if line.startswith("players:"):
            lines[index] = "players: " + " ".join(reversed(line.split()[1:]))
    return "\n".join(lines) + "\n"


def test_words_resolved_at_one_table_are_resolved_afresh_at_another(tmp_path: Path) -> None:
    """The move an event's words were resolved to is kept with them (``events.Words``)
    for the rules and table it was made at. At a table seated otherwise, or of other
    rules, the same words resolve afresh: every verdict, and the moves it records, are
    those of a process that checks the transcript alone."""
    from referee.caches import clear_caches
    from referee.transcript.check import check_text

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    from terse import write_corpora

    write_corpora(tmp_path, 3, 11)
    texts = []
    for folder in ("literature-terse", "literature", "go-fish-terse", "go-fish"):
        for file in sorted((tmp_path / folder).glob("*.txt")):
            texts += [file.read_text(), reseated(file.read_text())]
    texts += texts[:4]  # and back at the first tables
    clear_caches()
    shared = [check_text(text, "x.txt", record=True) for text in texts]
    assert sum(verdict.ok for verdict in shared) >= len(texts) // 2
    for text, verdict in zip(texts, shared, strict=True):
        clear_caches()
        alone = check_text(text, "x.txt", record=True)
        assert alone.to_json() == verdict.to_json() and alone.canonical == verdict.canonical
    clear_caches()


def test_what_an_asks_item_names_is_remembered_for_its_rules_alone() -> None:
    """What an ask's item words name (``K♦``, ``kd``, ``kings``) is remembered with the
    rules (``Remembered.items``), read once however the rest of the ask is written;
    under other rules the same words are read afresh, and a card not of their deck is
    refused, as a process checking that transcript alone refuses it."""
    from referee.caches import clear_caches
    from referee.transcript import resolve
    from referee.transcript.check import check_text

    authors = ("game: authors\nplayers: Ann Bob Cy\n"
               "Ann: Bob, K♦?\nBob: no\nBob asks Cy for Q♥\nno\nCy > Ann kh\n")
    tiny = "game: tiny.rules\nplayers: Ann Bob Cy\nAnn: Bob, K♦?\n"
    clear_caches()
    shared = [check_text(text, "x.txt", TINY.parent) for text in (authors, tiny)]
    assert shared[0].ok and shared[0].events == 5
    refused = shared[1].error
    assert refused is not None and "KD is not in the deck of Tiny" in refused.message
    items = {remembered.spec.name: remembered.items for remembered in resolve._TABLES.values()}
    assert items["authors"] == {"K♦": ("K", "KD"), "Q♥": ("Q", "QH"), "kh": ("K", "KH")}
    assert items["tiny"] == {}
    for text, verdict in zip((authors, tiny), shared, strict=True):
        clear_caches()
        assert check_text(text, "x.txt", TINY.parent).to_json() == verdict.to_json()
    clear_caches()
