"""The OpenSpiel bridge's information-state tensor, its kept information-state strings,
how resampling falls back, and the ISMCTS player's engine rollouts.

Skipped when OpenSpiel is not installed (the ``openspiel`` extra).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import referee.openspiel  # noqa: E402, F401  (registers the game)
from referee.engine.moves import Ask, Question  # noqa: E402
from referee.openspiel import resample as resampling  # noqa: E402
from referee.openspiel.observe import info_tensor_size, item_count, tensor_size  # noqa: E402
from referee.openspiel.rollout import EngineRolloutEvaluator  # noqa: E402

CASES = [("go-fish", 3), ("authors", 4), ("literature", 6), ("diplomat", 4)]


def dealt(game: Any, seed: int) -> Any:
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    return state


def states_along(name: str, players: int, seed: int, steps: int = 60) -> Any:
    """The states of a random game, one a decision."""
    game = pyspiel.load_game(f"referee(rules={name},players={players})")
    state = dealt(game, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            return
        yield state
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(("name", "players"), CASES)
def test_the_information_state_tensor_remembers_the_deal_and_every_ask(
        name: str, players: int) -> None:
    for state in states_along(name, players, seed=3):
        game = state.referee_game
        cards, items = game.spec.cards, item_count(game)
        moves = state.p.moves
        asks = [m for m in moves if isinstance(m, Ask | Question)]
        unanswered = int(bool(asks) and moves[-1] is asks[-1])
        history = []
        for seat in range(players):
            recall = np.array(state.information_state_tensor(seat))
            view = np.array(state.observation_tensor(seat))
            assert len(recall) == info_tensor_size(game) == game.information_state_tensor_size()
            assert len(view) == tensor_size(game) < len(recall)
            assert (recall[:len(view)] == view).all()
            hand = recall[len(view):len(view) + len(cards)]
            assert {cards[i] for i in np.flatnonzero(hand)} == set(state.p.dealt[0][seat])
            counts = recall[len(view) + len(cards):].reshape(players, players, items, 2)
            assert (counts >= 0).all() and (counts == np.round(counts)).all()
            assert counts.sum() == len(asks) - unanswered
            for ask in asks[:len(asks) - unanswered]:
                assert counts[ask.player, ask.target].sum() > 0
            history.append(counts)
        for counts in history[1:]:  # asks and answers are public: every seat has them
            assert (counts == history[0]).all()


@pytest.mark.parametrize(("name", "players"), CASES[:3])
def test_a_resampled_state_has_the_seats_information_state_and_tensor(
        name: str, players: int) -> None:
    rng = random.Random(1)
    for number, state in enumerate(states_along(name, players, seed=8, steps=30)):
        if number % 5:
            continue
        seat = state.current_player()
        sample = state.resample_from_infostate(seat, rng.random)
        assert sample.information_state_string(seat) == state.information_state_string(seat)
        assert (np.array(sample.information_state_tensor(seat))
                == np.array(state.information_state_tensor(seat))).all()


def test_kept_information_states_are_the_story_written_afresh() -> None:
    for state in states_along("authors", 4, seed=4, steps=80):
        for seat in range(4):
            lines = [line for each in state.p.seen for line in each[seat]]
            dealt_line = " ".join(state.referee_game.engine.lookups.in_deck_order(
                state.p.dealt[0][seat]))
            text = state.information_state_string(seat)
            assert text.splitlines()[:-1] == [f"dealt {dealt_line}", *lines]
            assert state.p.infostates[seat] == text  # kept by the state
            copy = state.clone()
            assert copy.information_state_string(seat) == text


def test_resampling_falls_back_to_its_last_sample_before_the_true_deal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = pyspiel.load_game("referee(rules=go-fish,players=3)")
    state = next(s for n, s in enumerate(states_along("go-fish", 3, seed=2)) if n == 6)
    counts = game.resample_counts = state.referee_game.resample_counts
    seat = state.current_player()
    rng = random.Random(0)
    first = state.resample_from_infostate(seat, rng.random)
    assert (counts.calls, counts.fallbacks) == (1, 0)
    monkeypatch.setattr(resampling, "replay", lambda state, deck: None)
    again = state.resample_from_infostate(seat, rng.random)
    assert counts.repeated == 1 and counts.rejected == resampling.ATTEMPTS
    assert again.p.dealt == first.p.dealt  # the last sample, not the true deal
    fresh = state.clone()  # a state with no sample yet: the true deal is all there is
    fresh.resample_from_infostate(seat, rng.random)
    assert counts.true_state == 1 and counts.fallbacks == 2


@pytest.mark.parametrize(("name", "players"), CASES)
def test_engine_rollouts_end_games_and_share_the_win(name: str, players: int) -> None:
    evaluator = EngineRolloutEvaluator(random.Random(0))
    for number, state in enumerate(states_along(name, players, seed=6)):
        if number % 10:
            continue
        before = state.information_state_string(0)
        shares = evaluator.evaluate(state)
        assert len(shares) == players and all(0 <= s <= 1 for s in shares)
        by_side = {state.p.state.side(seat): share for seat, share in enumerate(shares)}
        assert all(by_side[state.p.state.side(s)] == share for s, share in enumerate(shares))
        assert sum(by_side.values()) == pytest.approx(1.0) or sum(by_side.values()) == 0
        assert state.information_state_string(0) == before  # the state itself is untouched
        prior = evaluator.prior(state)
        assert sorted(a for a, _ in prior) == state.legal_actions()
