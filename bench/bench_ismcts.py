"""Print how the ISMCTS player (``--policy ismcts:N``, the OpenSpiel bridge's) fares
against the counting player: its share of the wins with a 95% Wilson interval, for
Go Fish (2 and 4 players), Authors (4) and Literature (6, teams), and what its games
cost.

Usage: python bench/bench_ismcts.py [--games 20] [--simulations 4] [--rules go-fish:4]...

Each seed is played twice, ISMCTS in the odd seats (team 1) and then in the even ones,
so that the seat's own edge cancels; a shared win counts 1/k to each of its k winners.
Needs the ``openspiel`` extra.
"""

from __future__ import annotations

import argparse
import time

from referee.authoring.balance import wilson
from referee.authoring.policies import parse_policies
from referee.authoring.simulate import play_one
from referee.engine.core import Engine
from referee.language.loader import load_spec
from referee.language.rulefiles import find_rule_file

CASES = ("go-fish:2", "go-fish:4", "authors:4", "literature:6")


def share(name: str, players: int, games: int, ismcts: str) -> str:
    """One table row: ISMCTS's share of the wins against counting, and its cost."""
    path = find_rule_file(name)
    assert path is not None
    spec = load_spec(path)
    engine = Engine(spec)
    won = fair = 0.0
    moves = 0
    start = time.process_time()
    for order in (f"{ismcts},counting", f"counting,{ismcts}"):
        policies = parse_policies(order, players)
        sides = ({spec.alternate_teams(players)[s] for s in range(players)
                  if policies[s] == ismcts} if spec.teams else
                 {s for s in range(players) if policies[s] == ismcts})
        fair += len(sides) / engine.sides(players) / 2
        for seed in range(games):
            played = play_one(engine, players, seed, policies=policies)
            moves += played.moves
            won += sum(1 / len(played.result.winners) for side in played.result.winners
                       if side in sides)
    spent = time.process_time() - start
    low, high = wilson(won, 2 * games)
    return (f"| {name} | {players} | {ismcts} | {won:.4g} of {2 * games} | "
            f"{won / (2 * games):.1%} ({low:.1%} to {high:.1%}) | {fair:.0%} | "
            f"{spent / (2 * games):.1f} | {moves / (2 * games):.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="seeds, each played twice")
    parser.add_argument("--simulations", type=int, default=4)
    parser.add_argument("--rules", action="append", metavar="NAME:PLAYERS", default=None)
    args = parser.parse_args()
    print("| rules | players | policy | ISMCTS's wins | share (95% CI) | fair share "
          "| s a game | moves a game |")
    print("|---|---:|---|---:|---|---:|---:|---:|")
    for case in args.rules or CASES:
        name, _, players = case.partition(":")
        print(share(name, int(players), args.games, f"ismcts:{args.simulations}"),
              flush=True)


if __name__ == "__main__":
    main()
