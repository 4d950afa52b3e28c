"""Print the figures of live play (issue 10): the time from pressing Enter to the next
prompt, median and worst, on hidden 6-player Literature games.

Usage: python bench/bench_live.py [--games 20] [--seed 2026] [--rules literature] [--players 6]

Each game is self-played (``play_one(..., hidden=True)``), then its event lines are fed
one by one to the live table's per-line handler, as the line mode does with standard
input: the event is refereed, written to the transcript file and flushed to the disk
(fsync), and the verdict and the next prompt are worded. Each line's time runs from
the call to :meth:`LiveTable.handle` to the end of :meth:`LiveTable.prompt`. The
transcript files go to a temporary folder (on the disk the system gives it).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from referee.authoring.simulate import PLAYER_NAMES, play_one, seeds
from referee.engine.core import Engine
from referee.language.loader import load_spec
from referee.language.rulefiles import find_rule_file
from referee.live.start import Seating, start
from referee.transcript.check import gc_paused


def measure(rules: str, players: int, games: int, seed: int, folder: Path) -> None:
    """Feed ``games`` hidden self-played games of ``rules`` to a live table; print the
    figures."""
    path = find_rule_file(rules)
    if path is None:
        raise SystemExit(f"no rule file named {rules!r}")
    engine = Engine(load_spec(path))
    names = PLAYER_NAMES[:players]
    per_line: list[float] = []
    refused = 0
    for number, game_seed in enumerate(seeds(seed, games)):
        lines = play_one(engine, players, game_seed, transcript=True, hidden=True).lines
        events = lines[lines.index("deal: hidden") + 1:]
        table = start(Seating(rules, names), folder / f"live-{number}.txt")
        for line in events:
            began = time.perf_counter()
            reply = table.handle(line)
            table.prompt()
            per_line.append(time.perf_counter() - began)
            refused += reply.refused
        table.journal.close()
    per_line.sort()
    print(f"{rules}, {players} players, {games} hidden games fed to the live table, "
          f"{len(per_line)} lines ({refused} refused): Enter to prompt median "
          f"{statistics.median(per_line) * 1000:.2f} ms, 99th percentile "
          f"{per_line[int(len(per_line) * 0.99)] * 1000:.2f} ms, "
          f"worst {per_line[-1] * 1000:.1f} ms")


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--rules", default="literature")
    parser.add_argument("--players", type=int, default=6)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, gc_paused():
        measure(args.rules, args.players, args.games, args.seed, Path(folder))


if __name__ == "__main__":
    main()
