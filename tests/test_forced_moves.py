"""The moves the referee fills in at an open table (an answer, a draw, a set laid, a
yes or no: ``Session.fill_forced``) are played without being judged again, since the
engine made them from the cards it knows. Here every one the engine makes, in
self-played games of every bundled rule file, their terse twins (answers, draws and
books left out) and mutated copies, is held to the engine's own judgement: legal, and
stating nothing the known cards deny (issue 22)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from referee.authoring.simulate import play_one
from referee.engine.core import Engine
from referee.engine.moves import Move
from referee.engine.state import GameState
from referee.language.loader import load_spec
from referee.language.rulefiles import bundled_rule_names, find_rule_file
from referee.language.spec import LAY_DOWN_AT_ONCE
from referee.transcript.check import check_text
from referee.transcript.session import MADE_FROM_KNOWN_CARDS

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from fuzz_mutations import mutate
from terse import sets_in_any_order, stands_alone, terse


def texts_of(name: str) -> list[str]:
    """Open self-played games of the rule file ``name``, terse and mutated."""
    engine = Engine(load_spec(find_rule_file(name)))
    counts = sorted(engine.spec.player_counts)
    rng = random.Random(22)
    texts = []
    for seed in range(3):
        lines = play_one(engine, counts[seed % len(counts)], seed, transcript=True).lines
        texts += ["\n".join(lines), "\n".join(terse(lines, seed))]
        texts += [mutate(texts[-1], rng) for _ in range(2)]
    return texts


@pytest.mark.parametrize("name", bundled_rule_names())
def test_every_move_filled_in_at_an_open_table_is_one_the_engine_allows(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    made = []
    forced_move = Engine.forced_move

    def judged(self: Engine, state: GameState) -> Move | None:
        move = forced_move(self, state)
        if move is not None and type(move) in MADE_FROM_KNOWN_CARDS and not state.unplaced:
            assert self.violation(state, move) is None, (move, state.phase)
            made.append(type(move).__name__)
        return move

    monkeypatch.setattr(Engine, "forced_move", judged)
    for text in texts_of(name):
        check_text(text)
    assert made, "no move was filled in"


def left_out(lines: tuple[str, ...], at_once: bool, rng: random.Random) -> list[str]:
    """A canonical open game with some of the events the referee fills in left out
    (answers, draws, turn-ups, and books where the rules lay them at once), each with
    a chance drawn for the game: a few, most, or all of them."""
    share = rng.choice((0.3, 0.6, 0.9, 1.0))
    kept = []
    for line in lines:
        verb = line.split()[1:2]
        filled = (verb in (["gives"], ["says"], ["draws"], ["turns"])
                  or (verb == ["books"] and at_once))
        if stands_alone(line) or not filled or rng.random() >= share:
            kept.append(line)
    return kept


def check_left_out(name: str, seeds: range) -> None:
    """Open self-played games of ``name``, each with events the referee fills in left
    out: each checks legal, to the state of the whole game (sets completed together
    laid in any order). A written event after ones left out is checked where it is
    due, however many moves the referee fills in before it."""
    engine = Engine(load_spec(find_rule_file(name)))
    at_once = engine.spec.lay_down is LAY_DOWN_AT_ONCE
    counts = sorted(engine.spec.player_counts)
    for seed in seeds:
        lines = play_one(engine, counts[seed % len(counts)], seed, transcript=True).lines
        whole = check_text("\n".join(lines))
        short = left_out(lines, at_once, random.Random(seed))
        found = check_text("\n".join(short))
        assert whole.ok, whole.report()
        assert found.ok, f"seed {seed}:\n{found.report()}"
        assert sets_in_any_order(found.state) == sets_in_any_order(whole.state), seed


@pytest.mark.parametrize("name", bundled_rule_names())
def test_events_the_referee_fills_in_may_be_left_out(name: str) -> None:
    check_left_out(name, range(1, 4))


@pytest.mark.slow
@pytest.mark.parametrize("name", bundled_rule_names())
def test_events_the_referee_fills_in_may_be_left_out_of_many_games(name: str) -> None:
    check_left_out(name, range(4, 61))
