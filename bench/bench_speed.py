"""Print the speed figures of issue 2: events checked per second by ``referee check``
over a corpus of self-play transcripts, and self-play games per second.

Usage: python bench/bench_speed.py [--rules go-fish] [--players 4] [--games 500]

Both figures are measured in one process on one core; the check figure reads
and checks transcript files with the same function ``referee check`` calls
(``check_file``), so it leaves out only the interpreter's start-up.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from referee.checker import check_file
from referee.compile import find_rule_file, load_spec
from referee.engine import Engine
from referee.simulate import play_one, seeds


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="go-fish")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    path = find_rule_file(args.rules)
    if path is None:
        raise SystemExit(f"no rule file named {args.rules!r}")
    engine = Engine(load_spec(path))
    game_seeds = list(seeds(args.seed, args.games))

    started = time.perf_counter()
    moves = sum(play_one(engine, args.players, s).moves for s in game_seeds)
    simulate_seconds = time.perf_counter() - started

    with tempfile.TemporaryDirectory() as folder:
        files = []
        for number, game_seed in enumerate(game_seeds):
            played = play_one(engine, args.players, game_seed, transcript=True)
            file = Path(folder) / f"game-{number:04d}.txt"
            file.write_text("\n".join(played.lines) + "\n", encoding="utf-8")
            files.append(file)
        started = time.perf_counter()
        events = 0
        for file in files:
            verdict = check_file(file)
            if not verdict.ok:
                raise SystemExit(f"self-play transcript failed: {verdict.report()}")
            events += verdict.events
        check_seconds = time.perf_counter() - started

    print(f"rules {args.rules}, {args.players} players, {args.games} games, seed {args.seed}")
    print(f"self-play: {args.games / simulate_seconds:8.0f} games/s "
          f"({moves / simulate_seconds:.0f} moves/s, {moves / args.games:.1f} moves a game)")
    print(f"check:     {events / check_seconds:8.0f} events/s "
          f"({events} events in {len(files)} transcripts, {check_seconds:.2f} s)")


if __name__ == "__main__":
    main()
