"""Print what a warm pass over each corpus costs a simulated machine, beside the CPU
time it takes on this one: why terse Literature is slower per event than canonical
although it runs no more instructions.

Usage: python bench/bench_warm_cache.py [--games 50] [--tree PATH ...]

Needs valgrind. This checkout writes ``--games`` self-played open games of 4-player
Go Fish and 6-player Literature and their terse twins (bench/terse.py). For each
corpus and tree, a child process checks the corpus once (so that every memo is
filled) and then once or twice more under ``valgrind --tool=cachegrind`` with its cache
and branch simulation (a first-level data cache of 32 KB and a last level of 1 MB,
the size of this machine's second level): the difference of the two runs is one warm
pass. Printed per event of the canonical games (the same moves): instructions, data
reads and writes that miss the first level and the last, branches mispredicted,
and the warm pass's CPU time outside valgrind, best of five.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE / "bench"))
from bench_instructions import GAMES, write_corpora  # noqa: E402
from trees import what_runs  # noqa: E402  (bench/ is on the path: the script is run from it)

CHILD = """
import gc
import os
import sys
import time
from pathlib import Path
from referee.transcript.check import check_file
files = sorted(Path(sys.argv[1]).glob("*.txt"))
gc.disable()
for _ in range(1 + int(sys.argv[2])):
    for file in files:
        check_file(file)
if sys.argv[3] == "time":
    times = []
    for _ in range(5):
        started = time.process_time()
        for file in files:
            check_file(file)
        times.append(time.process_time() - started)
    print(min(times), flush=True)  # os._exit leaves no buffer behind
os._exit(0)
"""
SIMULATION = ["valgrind", "--tool=cachegrind", "--cachegrind-out-file=/dev/null",
              "--cache-sim=yes", "--branch-sim=yes", "--D1=32768,8,64", "--LL=1048576,16,64"]
FIGURES = {  # cachegrind's summary line: the figure it gives
    "instructions": r"I\s+refs:\s+([\d,]+)",
    "D1 misses": r"D1\s+misses:\s+([\d,]+)",
    "LL misses": r"LLd\s+misses:\s+([\d,]+)",
    "mispredicted": r"Mispredicts:\s+([\d,]+)",
}


def simulated(tree: Path, corpus: Path, passes: int) -> dict[str, int]:
    """Cachegrind's figures for the child checking ``corpus`` once and then ``passes``
    times, run from ``tree`` with a fixed hash seed."""
    env = {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "REFEREE_CACHE_DIR": "off",
           "PYTHONHASHSEED": "0"}
    done = subprocess.run([*SIMULATION, sys.executable, "-c", CHILD, str(corpus),
                           str(passes), "count"],
                          cwd=tree, env=env, capture_output=True, text=True, check=False)
    found = {}
    for name, pattern in FIGURES.items():
        match = re.search(pattern, done.stderr)
        if match is None:
            raise SystemExit(f"cachegrind gave no {name}: {done.stderr[-500:]}")
        found[name] = int(match.group(1).replace(",", ""))
    return found


def warm_seconds(tree: Path, corpus: Path) -> float:
    """The best CPU seconds of a warm pass over ``corpus``, outside valgrind."""
    env = {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "REFEREE_CACHE_DIR": "off"}
    done = subprocess.run([sys.executable, "-c", CHILD, str(corpus), "0", "time"],
                          cwd=tree, env=env, capture_output=True, text=True, check=True)
    return float(done.stdout)


def main() -> None:
    """Write the corpora, simulate a warm pass of each with each tree, print per event."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--tree", type=Path, action="append", default=[],
                        help="an older checkout to simulate too (repeatable)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("bench_warm_cache needs valgrind")
    trees = [HERE, *(tree.resolve() for tree in args.tree)]
    for tree in trees:
        print(f"{tree}: {what_runs(tree)}")
    print(f"per event of the canonical games, a warm pass, {args.games} games each")
    print(f"{'corpus':24}{'instructions':>13}{'D1 misses':>11}{'LL misses':>11}"
          f"{'mispredicted':>14}{'CPU µs':>8}  tree")
    with tempfile.TemporaryDirectory() as name:
        counted = write_corpora(Path(name), args.games)
        for game, players in GAMES:
            events = counted[game]
            for kind in ("", "-terse"):
                corpus = Path(name) / f"{game}{kind}"
                for tree in trees:
                    one, two = simulated(tree, corpus, 1), simulated(tree, corpus, 2)
                    per = {key: (two[key] - one[key]) / events for key in FIGURES}
                    seconds = warm_seconds(tree, corpus)
                    print(f"{game + kind + f' ({players})':24}{per['instructions']:13,.0f}"
                          f"{per['D1 misses']:11,.1f}{per['LL misses']:11,.2f}"
                          f"{per['mispredicted']:14,.1f}{seconds / events * 1e6:8.2f}  {tree}")


if __name__ == "__main__":
    main()
