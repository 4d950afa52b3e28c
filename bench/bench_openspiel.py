"""Print the figures of the OpenSpiel bridge (issue 21): games per second of random
and ISMCTS self-play through ``pyspiel.load_game("referee(...)")``, and
``resample_from_infostate`` calls per second.

Usage: python bench/bench_openspiel.py [--games 5] [--seed 2026] [--simulations 2 8]
                                       [--rules go-fish:2 authors:4 ...]

Needs the ``openspiel`` extra. ISMCTS uses OpenSpiel's random-rollout evaluator (one
rollout per simulation, a random token at a time through the bridge), so one
simulation costs about one random game from that point; ``ismcts-engine`` uses the
ISMCTS player's own evaluator instead (referee/openspiel/rollout.py: the rollout
played by the engine, as ``simulate --policy ismcts:N`` does). Times are CPU times of
this process; resampling is timed at the decisions of random games, once for each decision
of the player to move (the first call at a decision builds the seat's knowledge
model; the rest reuse it, as a search does). After each rule file it prints how the
resampling of all its runs went: calls, deals rejected on replay per call, and the
calls that fell back (no new deal fitted within its walks).
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import referee.openspiel  # noqa: F401  (registers the game)
from referee.openspiel.rollout import EngineRolloutEvaluator

CASES = (("go-fish", 2), ("go-fish", 4), ("authors", 4), ("literature", 6))


def play(game: Any, rng: random.Random, choose: Any = None) -> int:
    """One game to the end; its number of decisions."""
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        decisions += 1
        state.apply_action(rng.choice(state.legal_actions()) if choose is None
                           else choose(state))
    return decisions


def resamples_per_second(game: Any, rng: random.Random, calls: int = 200) -> float:
    """Resample calls per second along a random game, ``calls`` at most."""
    state = game.new_initial_state()
    done, spent = 0, 0.0
    while not state.is_terminal() and done < calls:
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        seat = state.current_player()
        start = time.process_time()
        for _ in range(4):
            state.resample_from_infostate(seat, rng.random)
        spent += time.process_time() - start
        done += 4
        state.apply_action(rng.choice(state.legal_actions()))
    return done / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--simulations", type=int, nargs="*", default=[2, 8])
    parser.add_argument("--rules", nargs="*", metavar="NAME:PLAYERS",
                        default=[f"{name}:{players}" for name, players in CASES])
    args = parser.parse_args()
    print(f"{'rules':12} {'players':>7} {'policy':>16} {'games/s':>9} {'decisions':>9}"
          f" {'decisions/s':>11}")
    for case in args.rules:
        name, _, players_text = case.partition(":")
        players = int(players_text)
        game = pyspiel.load_game(f"referee(rules={name},players={players})")
        rng = random.Random(args.seed)
        start = time.process_time()
        decisions = sum(play(game, rng) for _ in range(args.games))
        spent = time.process_time() - start
        print(f"{name:12} {players:>7} {'random':>16} {args.games / spent:>9.2f} "
              f"{decisions / args.games:>9.0f} {decisions / spent:>11.0f}")
        for simulations in args.simulations:
            for kind in ("ismcts", "ismcts-engine"):
                evaluator = (mcts.RandomRolloutEvaluator(
                    n_rollouts=1, random_state=np.random.RandomState(args.seed))
                    if kind == "ismcts" else EngineRolloutEvaluator(random.Random(args.seed)))
                bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0,
                                       max_simulations=simulations,
                                       random_state=np.random.RandomState(args.seed))
                games = max(1, args.games // 5)
                start = time.process_time()
                decisions = sum(play(game, rng, bot.step) for _ in range(games))
                spent = time.process_time() - start
                print(f"{name:12} {players:>7} {f'{kind}:{simulations}':>16} "
                      f"{games / spent:>9.3f} {decisions / games:>9.0f} "
                      f"{decisions / spent:>11.1f}")
        print(f"{name:12} {players:>7} {'resample':>16} "
              f"{resamples_per_second(game, rng):>9.1f} calls/s")
        counts = game.resample_counts
        print(f"{name:12} {players:>7} {'fallbacks':>16} {counts.fallbacks} of {counts.calls}"
              f" calls ({counts.repeated} repeated a sample, {counts.true_state} the true"
              f" state); {counts.rejected / max(1, counts.calls):.2f} deals rejected a call")


if __name__ == "__main__":
    main()
