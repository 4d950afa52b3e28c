"""Time ``referee simulate --jobs 2`` against one job on the same games; print the speed-up.

Usage: python bench/bench_jobs.py [--rules authors] [--players 4] [--games 3000] [--runs 3]

Each run plays the same games (the same seed) once with one job and once with
two, alternately, through the function ``referee simulate`` calls
(``play_games``, worker start-up included), and checks that both give the same
tally. The best time of each is reported, as the least disturbed by other
work on the machine; the load average is printed, since it decides the figure.
"""

from __future__ import annotations

import argparse
import os
import time

from referee.authoring.runs import Run, Settings, play_games
from referee.language.loader import load_spec
from referee.language.rulefiles import find_rule_file
from referee.language.spec import GameSpec


def timed(spec: GameSpec, settings: Settings, seed: int, games: int,
          jobs: int) -> tuple[float, Run]:
    """Seconds to play the games with ``jobs`` processes, and what they gave."""
    started = time.perf_counter()
    run = play_games(spec, settings, seed, games, jobs=jobs)
    return time.perf_counter() - started, run


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="authors")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    path = find_rule_file(args.rules)
    if path is None:
        raise SystemExit(f"no rule file named {args.rules!r}")
    spec = load_spec(path)
    settings = Settings(spec.source, (), spec.name, args.players)
    load = os.getloadavg()[0]
    one: list[float] = []
    many: list[float] = []
    for _ in range(args.runs):
        seconds, single = timed(spec, settings, args.seed, args.games, 1)
        one.append(seconds)
        seconds, split = timed(spec, settings, args.seed, args.games, args.jobs)
        many.append(seconds)
        if split.tally != single.tally:
            raise SystemExit("the jobs gave another tally than one job")
    moves = single.tally.moves
    print(f"rules {args.rules}, {args.players} players, {args.games} games "
          f"({moves / args.games:.0f} moves a game), seed {args.seed}, {args.runs} runs, "
          f"{os.cpu_count()} cores, load average {load:.2f} at the start")
    print(f"1 job:  best {min(one):6.2f} s  (runs: {', '.join(f'{s:.2f}' for s in one)})")
    print(f"{args.jobs} jobs: best {min(many):6.2f} s  "
          f"(runs: {', '.join(f'{s:.2f}' for s in many)})")
    print(f"speed-up: {min(one) / min(many):.2f}x (same tally: yes)")


if __name__ == "__main__":
    main()
