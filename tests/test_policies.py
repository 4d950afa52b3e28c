"""Self-play's policies: counting and mixed self-play of every rule file checks legal
with the same outcome; the counting player chooses from its seat's knowledge alone
(the same choice whatever the other hands hold); --policy by seat."""

from __future__ import annotations

import itertools
import random
from typing import Any, cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.authoring import policies
from referee.authoring.policies import (
    CardCounter,
    CountingPolicy,
    make_policies,
    parse_policies,
)
from referee.authoring.simulate import PLAYER_NAMES, play_one
from referee.engine.core import Engine
from referee.engine.moves import Ask, Give, Move
from referee.engine.state import PHASE_ASK, PHASE_OVER, GameState
from referee.errors import RefereeError
from referee.language.loader import load_spec
from referee.language.rulefiles import bundled_rule_names, find_rule_file
from referee.language.spec import GameSpec
from referee.transcript.check import check_text

RULES = bundled_rule_names()
SETTINGS = settings(max_examples=6, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def engine_for(name: str) -> Engine:
    path = find_rule_file(name)
    assert path is not None
    return Engine(load_spec(path))


@pytest.mark.parametrize("name", RULES)
@SETTINGS
@given(data=st.data())
def test_counting_self_play_checks_legal_with_the_same_outcome(
        name: str, data: st.DataObject) -> None:
    engine = engine_for(name)
    players = data.draw(st.sampled_from(sorted(engine.spec.player_counts)), label="players")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    policy = data.draw(st.sampled_from(["counting", "counting,random", "random,counting"]),
                       label="policy")
    hidden = data.draw(st.booleans(), label="hidden")
    played = play_one(engine, players, seed, transcript=True, hidden=hidden,
                      policies=parse_policies(policy, players))
    verdict = check_text("\n".join(played.lines))
    assert verdict.ok, verdict.report()
    assert verdict.state is not None
    assert verdict.state["over"] == played.result.over
    if not hidden:
        assert tuple(verdict.state["scores"].values()) == played.result.scores
        teams = engine.spec.teams
        sides = [str(t + 1) for t in range(teams)] if teams else PLAYER_NAMES[:players]
        assert verdict.state["winners"] == [sides[s] for s in played.result.winners]


def _swapped(state: GameState, seat: int, rng: random.Random) -> GameState | None:
    """A copy of ``state`` with one card of two other hands swapped (the same counts)."""
    others = [s for s in range(len(state.players)) if s != seat and state.hands[s]]
    if len(others) < 2:
        return None
    first, second = rng.sample(others, 2)
    a, b = rng.choice(sorted(state.hands[first])), rng.choice(sorted(state.hands[second]))
    copy = state.copy()
    copy.hands[first] = (copy.hands[first] - {a}) | {b}
    copy.hands[second] = (copy.hands[second] - {b}) | {a}
    return copy


@pytest.mark.parametrize("name", RULES)
def test_the_counting_player_never_reads_another_hand(name: str) -> None:
    """At every ask, moving cards between the other hands changes nothing it chooses."""
    engine = engine_for(name)
    players = min(engine.spec.player_counts, key=lambda n: abs(n - 4))
    rng = random.Random(7)
    for seed in range(3):
        names = PLAYER_NAMES[:players]
        hands, rest = engine.shuffled_deal(players, players - 1, seed)
        stock, centre = engine.split_rest(players, rest)
        state = engine.start(names, players - 1, hands, stock, centre=centre)
        seats = make_policies(engine, ["counting"] * players)
        moves = 0
        while state.phase is not PHASE_OVER and moves < 400:
            chooser = seats[state.turn]
            if state.phase is PHASE_ASK and isinstance(chooser, CountingPolicy):
                other = _swapped(state, state.turn, rng)
                if other is not None:
                    choice = chooser.choose(engine, other, random.Random(moves))
                    assert chooser.choose(engine, state, random.Random(moves)) == choice
            move = chooser.choose(engine, state, random.Random(moves))
            if move is None:
                break
            seen = engine.as_seen(state, move)
            for seat in seats:
                seat.observe(engine, state, move, seen)
            engine.apply(state, move)
            moves += 1


def _as_its_seat_saw(move: Move, seen: list[Move], seat: int) -> Move:
    """``move`` as ``seat`` saw it: whole when its own, else as the table saw it."""
    return move if move.player == seat or len(seen) != 1 else seen[0]


def _memory(policy: object) -> tuple[object, ...]:
    counter = cast(CountingPolicy, policy).counter
    return (counter.holder, counter.absent, counter.gone, counter.asked)


@pytest.mark.parametrize("name", RULES)
def test_the_counting_players_memory_comes_from_what_its_seat_saw(name: str) -> None:
    """A second counting player per seat, shown every other hand's cards shuffled
    between those hands and every move of another seat only as the table saw it,
    remembers the same of every card and chooses the same moves."""
    engine = engine_for(name)
    players = min(engine.spec.player_counts, key=lambda n: abs(n - 4))
    rng = random.Random(11)
    for seed in range(2):
        hands, rest = engine.shuffled_deal(players, players - 1, seed)
        stock, centre = engine.split_rest(players, rest)
        state = engine.start(PLAYER_NAMES[:players], players - 1, hands, stock, centre=centre)
        seats = make_policies(engine, ["counting"] * players)
        shadows = make_policies(engine, ["counting"] * players)
        for moves in range(300):
            if state.phase is PHASE_OVER:
                break
            chooser = seats[state.turn]
            move = chooser.choose(engine, state, random.Random(moves))
            if move is None:
                break
            if state.phase is PHASE_ASK and isinstance(chooser, CountingPolicy):
                other = _swapped(state, state.turn, rng) or state
                assert shadows[state.turn].choose(engine, other, random.Random(moves)) == move
            seen = engine.as_seen(state, move)
            for seat, (policy, shadow) in enumerate(zip(seats, shadows, strict=True)):
                policy.observe(engine, state, move, seen)
                other = _swapped(state, seat, rng) or state
                shadow.observe(engine, other, _as_its_seat_saw(move, seen, seat), seen)
                assert _memory(shadow) == _memory(policy), (seat, move)
            engine.apply(state, move)


@pytest.mark.parametrize(("text", "players", "expected"), [
    ("counting", 3, ("counting",) * 3),
    ("counting,random", 4, ("counting", "random", "counting", "random")),
    (" Random , COUNTING ", 2, ("random", "counting")),
])
def test_policies_by_seat(text: str, players: int, expected: tuple[str, ...]) -> None:
    assert parse_policies(text, players) == expected


@pytest.mark.parametrize("text", ["", "clever", "counting,", "random,random,random",
                                  "counting:3", "ismcts:x", "ismcts:", "ismcts:0",
                                  "ismcts:1", "ismcts:-2", "ismcts:10000000"])
def test_a_policy_it_does_not_know_is_a_usage_error(text: str) -> None:
    with pytest.raises(RefereeError, match="--policy takes"):
        parse_policies(text, 2)


def test_ismcts_without_the_bridge_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(policies, "_has_openspiel_bridge", lambda: False)
    with pytest.raises(RefereeError, match="ismcts needs the openspiel extra"):
        parse_policies("counting,ismcts:50", 2)


@pytest.mark.parametrize(("name", "players", "seats"), [
    ("go-fish", 4, "counting,random"),
    ("authors", 4, "counting,random"), ("literature", 6, "counting,random"),
])
def test_counting_beats_random(name: str, players: int, seats: str) -> None:
    """Fixed seeds: the counting seats (or team 1) win more than their fair share."""
    engine = engine_for(name)
    policy = parse_policies(seats, players)
    wins = [0.0] * engine.sides(players)
    games = 60 if name == "literature" else 150
    for seed in range(games):
        result = play_one(engine, players, seed, policies=policy).result
        for side in result.winners:
            wins[side] += 1 / len(result.winners)
    counting = (wins[0] if engine.spec.teams else
                sum(w for s, w in enumerate(wins) if policy[s] == "counting"))
    share = sum(p == "counting" for p in policy) / players
    assert counting / games > share + 0.1


@pytest.mark.parametrize(("name", "others_absent"), [("go-fish-pairs", False),
                                                     ("go-fish", True)])
def test_a_give_rules_out_the_rest_of_the_rank_only_when_all_are_given(
        name: str, others_absent: bool) -> None:
    """Handing over one card of the rank (the giver's choice) leaves the others open."""
    engine = engine_for(name)
    hands, rest = engine.shuffled_deal(3, 2, 1)
    stock, centre = engine.split_rest(3, rest)
    state = engine.start(PLAYER_NAMES[:3], 2, hands, stock, centre=centre)
    counter = CardCounter(engine, 2)
    card = sorted(state.hands[1])[0]
    rank = engine.lookups.rank[card]
    state.asking = Ask(0, 1, rank)
    counter.observe(state, Give(1, (card,)), [Give(1, (card,))])
    assert counter.holder[card] == 0
    others = [c for c in engine.lookups.cards_of_rank[rank] if c != card]
    assert all((1 in counter.absent.get(c, ())) is others_absent for c in others)


class _Scored:
    """An engine that notes every side's score after each move (a wrapper: the engine
    may be compiled, and compiled classes take no subclasses)."""

    def __init__(self, spec: GameSpec) -> None:
        self.engine = Engine(spec)
        self.trail: list[tuple[int, ...]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def apply(self, state: GameState, move: Move) -> None:
        self.engine.apply(state, move)
        self.trail.append(self.engine.outcome(state).scores)


@pytest.mark.parametrize("name", RULES)
def test_lead_changes_and_the_half_way_leader_follow_the_scores(name: str) -> None:
    """Against the engine's outcome after every move: the lead passes when another
    side comes to lead alone; the half-way leader leads alone after half the moves."""
    spec = engine_for(name).spec
    players = min(spec.player_counts, key=lambda n: abs(n - 4))
    for seed in range(4):
        engine = _Scored(spec)
        played = play_one(cast(Engine, engine), players, seed, policies=parse_policies(
            "counting" if seed % 2 else "random", players))
        if spec.match_target is not None:
            assert played.lead is None
            continue
        leaders: list[int | None] = [None]
        for scores in engine.trail:
            best = [side for side, score in enumerate(scores) if score == max(scores)]
            leaders.append(best[0] if len(best) == 1 else None)
        alone = [leader for leader in leaders if leader is not None]
        changes = sum(1 for a, b in itertools.pairwise(alone) if a != b)
        assert played.lead is not None
        assert (played.lead.changes, played.lead.halfway) == (
            changes, leaders[played.moves // 2])
