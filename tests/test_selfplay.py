"""Property tests: random self-play transcripts of every rule file re-validate,
and one changed answer or one wrong asker is caught at its line."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.authoring.selfplay import random_move
from referee.authoring.simulate import PLAYER_NAMES, PlayedGame, play_match, play_one
from referee.engine.core import Engine
from referee.engine.moves import Ask
from referee.engine.state import GameState, Phase
from referee.errors import RefereeError
from referee.language.cards import parse_card, rank_of
from referee.language.loader import load_spec
from referee.language.rulefiles import bundled_rule_names, find_rule_file
from referee.transcript.check import check_text

RULES = bundled_rule_names()
SMALL_TABLE = 6
SETTINGS = settings(max_examples=12, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def engine_for(name: str) -> Engine:
    path = find_rule_file(name)
    assert path is not None
    return Engine(load_spec(path))


def random_game(name: str, data: st.DataObject) -> tuple[PlayedGame, tuple[str, ...]]:
    """A random self-played game of ``name`` and its players' names."""
    engine = engine_for(name)
    players = data.draw(st.sampled_from(sorted(engine.spec.player_counts)), label="players")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    return play_one(engine, players, seed, transcript=True), PLAYER_NAMES[:players]


@pytest.mark.parametrize("name", RULES)
@SETTINGS
@given(data=st.data())
def test_self_play_transcripts_revalidate(name: str, data: st.DataObject) -> None:
    played, names = random_game(name, data)
    verdict = check_text("\n".join(played.lines))
    assert verdict.ok, verdict.report()
    assert verdict.state is not None
    assert verdict.state["over"] == played.result.over
    assert tuple(verdict.state["scores"].values()) == played.result.scores
    teams = engine_for(name).spec.teams
    sides = [str(team + 1) for team in range(teams)] if teams else names
    assert verdict.state["winners"] == [sides[side] for side in played.result.winners]


@pytest.mark.parametrize("name", RULES)
@SETTINGS
@given(data=st.data())
def test_a_give_turned_into_a_refusal_is_caught(name: str, data: st.DataObject) -> None:
    played, _ = random_game(name, data)
    lines = list(played.lines)
    gives = [i for i, line in enumerate(lines) if " gives " in line]
    if not gives:
        return
    index = data.draw(st.sampled_from(gives), label="give line")
    lines[index] = lines[index].split(" gives ")[0] + " says no"
    verdict = check_text("\n".join(lines))
    assert not verdict.ok and verdict.error is not None and verdict.error.span is not None
    assert verdict.error.kind.value == "contradiction"
    assert verdict.error.span.line == index + 1


@pytest.mark.parametrize("name", RULES)
@SETTINGS
@given(data=st.data())
def test_an_ask_or_play_by_the_wrong_player_is_caught(name: str, data: st.DataObject) -> None:
    played, names = random_game(name, data)
    lines = list(played.lines)
    asks = [i for i, line in enumerate(lines) if " asks " in line or " plays " in line]
    index = data.draw(st.sampled_from(asks), label="ask or play line")
    asker = lines[index].split()[0]
    other = names[(names.index(asker) + 1) % len(names)]
    lines[index] = other + lines[index][len(asker):]
    verdict = check_text("\n".join(lines))
    assert not verdict.ok and verdict.error is not None and verdict.error.span is not None
    assert verdict.error.kind.value in ("turn", "illegal")
    assert verdict.error.span.line == index + 1


@pytest.mark.parametrize("name", [pytest.param(name, marks=pytest.mark.slow)
                                  if name == "canadian-fish" else name for name in RULES])
@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_random_moves_are_legal_moves(name: str, seed: int) -> None:
    engine = engine_for(name)
    rng = random.Random(seed)
    players = rng.choice(sorted(engine.spec.player_counts))
    hands, rest = engine.shuffled_deal(players, players - 1, seed)
    stock, centre = engine.split_rest(players, rest)
    state = engine.start(PLAYER_NAMES[:players], players - 1, hands, stock, centre=centre)
    step = 0
    while not state.over:
        move = random_move(engine, state, rng)
        assert move is not None and engine.is_legal(state, move)
        if step % 7 == 0 and players <= SMALL_TABLE:  # claims make big tables' lists long
            legal = engine.legal_moves(state)
            assert move in legal
            assert all(engine.is_legal(state, m) for m in legal)
            if state.phase is Phase.ASK:
                asks = {m for m in legal if isinstance(m, Ask)}
                assert {a for a in every_ask(engine, state) if engine.is_legal(state, a)} == asks
        engine.apply(state, move)
        step += 1


def every_ask(engine: Engine, state: GameState) -> list[Ask]:
    """Every ask the player in turn could utter, legal or not."""
    spec, seat = engine.spec, state.turn
    items = [(rank_of(c), c) for c in spec.cards] + [(r, None) for r in spec.ranks]
    return [Ask(seat, target, rank, card)
            for target in range(len(state.players)) for rank, card in items]


HOUSE_RULES = [(name, option) for name in RULES
               for option in sorted(load_spec(find_rule_file(name) or Path(name)).options)
               if name.startswith("literature") or name == "canadian-fish"]


@pytest.mark.parametrize(("name", "option"), HOUSE_RULES)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_self_play_with_a_house_rule_revalidates(name: str, option: str, seed: int) -> None:
    path = find_rule_file(name)
    assert path is not None
    try:
        spec = load_spec(path, {option: "yes"})
    except RefereeError:
        assert (name, option) == ("literature-ranks", "high-double")  # it has no high sets
        return
    engine = Engine(spec)
    players = sorted(spec.player_counts)[seed % len(spec.player_counts)]
    played = play_one(engine, players, seed, transcript=True)
    assert f"option {option}: yes" in played.lines
    verdict = check_text("\n".join(played.lines))
    assert verdict.ok, verdict.report()
    assert tuple(verdict.state["scores"].values()) == played.result.scores


@pytest.mark.parametrize("name", ["authors", "go-fish", "literature", "go-fish-to-the-end"])
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_a_self_played_match_revalidates_with_its_totals(name: str, seed: int) -> None:
    engine = engine_for(name)
    players = min(engine.spec.player_counts)
    totals, lines = play_match(engine, players, seed, target=len(engine.spec.sets))
    verdict = check_text("\n".join(lines))
    assert verdict.ok, verdict.report()
    assert verdict.state is not None and list(verdict.state["scores"].values()) == totals
    assert verdict.state["over"] and max(totals) >= len(engine.spec.sets)


def hidden_game(name: str, data: st.DataObject) -> PlayedGame:
    """A random self-played game of ``name``, written as a hidden table sees it."""
    engine = engine_for(name)
    players = data.draw(st.sampled_from(sorted(engine.spec.player_counts)), label="players")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    return play_one(engine, players, seed, transcript=True, hidden=True)


@pytest.mark.parametrize("name", RULES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_hidden_self_play_revalidates_with_the_same_scores(
        name: str, data: st.DataObject) -> None:
    played = hidden_game(name, data)
    assert "deal: hidden" in played.lines
    verdict = check_text("\n".join(played.lines))
    assert verdict.ok, verdict.report()
    assert verdict.state is not None
    assert verdict.state["over"] == played.result.over
    assert tuple(verdict.state["scores"].values()) == played.result.scores


def flipped(line: str, asked: str) -> str:
    """An answer turned into its opposite: a give into a no, a no into a give."""
    who, verb = line.split()[:2]
    if verb in ("gives", "lays"):
        return f"{who} says no"
    if line.endswith("says yes"):
        return f"{who} says no"
    if line.endswith("says no") and asked.split()[1] == "asks" and ":" in asked:
        return f"{who} says yes"
    card = asked.split()[-1]
    return f"{who} gives {card}" if parse_card(card) else f"{who} gives 1"


@pytest.mark.parametrize("name", RULES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_flipped_answer_is_caught_at_or_after_its_line(
        name: str, data: st.DataObject) -> None:
    played = hidden_game(name, data)
    lines = list(played.lines)
    answers = [i for i, line in enumerate(lines) if line.split()[1:2] == ["gives"]
               or line.split()[1:3] == ["lays", "out"] or line.endswith((" says no", " says yes"))]
    if not answers:
        return
    index = data.draw(st.sampled_from(answers), label="answer line")
    lines[index] = flipped(lines[index], lines[index - 1])
    verdict = check_text("\n".join(lines))
    if verdict.ok:
        assert not name.startswith("authors"), "every lie is provable in Authors"
        return
    assert verdict.error is not None and verdict.error.span is not None
    assert verdict.error.span.line >= index + 1, verdict.report()
