"""Print what self-play's policies cost and what they change: games per second of
random and counting self-play for every bundled rule file; counting against random
(95% Wilson intervals) for Go Fish (2 and 4 players), Authors (4) and Literature (6,
teams); and the first player's edge and the tie rate under random and under counting
play, for every bundled rule file.

Usage: python bench/bench_policies.py [--games 300] [--rules NAME]... [--speed]

``--speed`` prints the games per second alone (best of three runs), and times the
``referee`` on ``PYTHONPATH``: ``PYTHONPATH=/tmp/before python bench/bench_policies.py
--speed`` times an older checkout side by side.

The last figure is why the counting player keeps its own card counts: the time of one
query of the SAT-backed knowledge model (every card's possible places, as ``check
--knowledge`` gives them) half-way through a hidden counting game, against the time a
counting game takes whole.

Counting against random plays every game twice, with the same seed: once with the
counting player(s) in the odd seats (team 1) and once in the even ones, so that the
seat's own edge cancels; the figure is the counting seats' share of the wins (a shared
win 1/k to each of its k winners) against their fair share. Games per second are of
one process playing games of the player count named (CPU time, no transcripts).
"""

from __future__ import annotations

import argparse
import time

from referee.authoring.balance import report, wilson
from referee.authoring.policies import parse_policies
from referee.authoring.runs import Settings, play_games
from referee.authoring.simulate import play_one
from referee.engine.core import Engine
from referee.language.loader import load_spec
from referee.language.rulefiles import bundled_rule_names, find_rule_file
from referee.language.spec import GameSpec
from referee.transcript.check import check_text

MATCHUPS = (("go-fish", 2), ("go-fish", 4), ("authors", 4), ("literature", 6))


def spec_of(name: str) -> GameSpec:
    path = find_rule_file(name)
    assert path is not None
    return load_spec(path)


def table_size(spec: GameSpec) -> int:
    """The player count nearest four (six for team games) the rules take."""
    wanted = 6 if spec.teams else 4
    return min(sorted(spec.player_counts), key=lambda n: abs(n - wanted))


def games_per_second(spec: GameSpec, players: int, policy: str, games: int,
                     runs: int = 1) -> float:
    """Games per second of CPU time, the best of ``runs``."""
    engine = Engine(spec)
    policies = () if policy == "random" else parse_policies(policy, players)
    best = 0.0
    for _ in range(runs):
        start = time.process_time()
        for seed in range(games):
            play_one(engine, players, seed, policies=policies)
        best = max(best, games / max(time.process_time() - start, 1e-9))
    return best


def counting_share(spec: GameSpec, players: int, games: int
                   ) -> tuple[float, float, float, float]:
    """The counting seats' share of the wins, its interval, and their fair share."""
    engine = Engine(spec)
    won = 0.0
    fair = 0.0
    for order in ("counting,random", "random,counting"):
        policies = parse_policies(order, players)
        counting_sides = ({engine.spec.alternate_teams(players)[s] for s in range(players)
                           if policies[s] == "counting"} if spec.teams else
                          {s for s in range(players) if policies[s] == "counting"})
        fair += len(counting_sides) / engine.sides(players) / 2
        for seed in range(games):
            result = play_one(engine, players, seed, policies=policies).result
            won += sum(1 / len(result.winners) for side in result.winners
                       if side in counting_sides)
    low, high = wilson(won, 2 * games)
    return won / (2 * games), low, high, fair


def edge_and_ties(spec: GameSpec, players: int, policy: str, games: int) -> str:
    settings = Settings(spec.source, (), spec.name, players,
                        policies=() if policy == "random" else parse_policies(policy, players))
    tally = play_games(spec, settings, 0, games).tally
    figures = report(spec, players, tally, seed=0, max_moves=settings.max_moves,
                     target=spec.match_target)
    if figures.edge is None or figures.edge_ci95 is None or not figures.finished:
        return "n/a"
    low, high = figures.edge_ci95
    ties = figures.shared / figures.finished
    return (f"{figures.edge * 100:+.1f} ({low * 100:+.1f} to {high * 100:+.1f}), "
            f"ties {ties:.0%}")


def knowledge_query_ms(spec: GameSpec, players: int, games: int) -> tuple[float, float]:
    """The mean milliseconds of one possible-places query half-way through a hidden
    counting game, and of a whole counting game."""
    engine = Engine(spec)
    policies = parse_policies("counting", players)
    query = whole = 0.0
    for seed in range(games):
        start = time.perf_counter()
        played = play_one(engine, players, seed, policies=policies)
        whole += time.perf_counter() - start
        lines = play_one(engine, players, seed, transcript=True, hidden=True,
                         policies=policies).lines
        body = next(i for i, line in enumerate(lines) if i and not line.startswith(
            ("game:", "players:", "dealer:", "deal:", "option ", "team ")))
        half = "\n".join(lines[:body + (len(lines) - body) // 2])
        start = time.perf_counter()
        check_text(half)
        plain = time.perf_counter() - start
        start = time.perf_counter()
        check_text(half, knowledge=True)
        query += time.perf_counter() - start - plain
        del played
    return query / games * 1000, whole / games * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rules", action="append", default=None)
    parser.add_argument("--speed", action="store_true",
                        help="print the games per second alone, the best of three runs")
    args = parser.parse_args()
    names = args.rules or bundled_rule_names()
    games = args.games

    print(f"## Games per second, one process ({min(games, 100)} games each)\n")
    print("| rules | players | random | counting |")
    print("|---|---:|---:|---:|")
    for name in names:
        spec = spec_of(name)
        players = table_size(spec)
        speeds = [games_per_second(spec, players, p, min(games, 100), 3 if args.speed else 1)
                  for p in ("random", "counting")]
        print(f"| {name} | {players} | {speeds[0]:.0f} | {speeds[1]:.0f} |")
    if args.speed:
        return

    print(f"\n## Counting against random ({games} games each way, seats swapped)\n")
    print("| rules | players | counting's share of wins (95% CI) | fair share |")
    print("|---|---:|---|---:|")
    for name, players in MATCHUPS:
        if name not in names:
            continue
        share, low, high, fair = counting_share(spec_of(name), players, games)
        print(f"| {name} | {players} | {share:.1%} ({low:.1%} to {high:.1%}) | {fair:.0%} |")

    print(f"\n## The first player's edge in percentage points (95% CI) and ties, "
          f"{games} games\n")
    print("| rules | players | random play | counting play |")
    print("|---|---:|---|---|")
    for name in names:
        spec = spec_of(name)
        players = table_size(spec)
        cells = [edge_and_ties(spec, players, p, games) for p in ("random", "counting")]
        print(f"| {name} | {players} | {cells[0]} | {cells[1]} |")

    print("\n## One knowledge-model query half-way, against a whole counting game (ms)\n")
    print("| rules | players | one possible-places query | a whole counting game |")
    print("|---|---:|---:|---:|")
    for name, players in MATCHUPS:
        if name in names:
            query, whole = knowledge_query_ms(spec_of(name), players, min(games, 20))
            print(f"| {name} | {players} | {query:.1f} | {whole:.1f} |")


if __name__ == "__main__":
    main()
