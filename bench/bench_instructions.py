"""Print the machine instructions ``referee`` spends per event checked: a figure that,
unlike CPU time on a shared machine, other work on the machine does not disturb.

Usage: python bench/bench_instructions.py [--games 30] [--tree PATH ...] [--no-terse]

Needs valgrind. For each game of ``bench_speed`` (4-player Go Fish, 6-player
Literature) this checkout's self-play writes ``--games`` open games, and their terse
twins as people type them (bench/terse.py; counted per event of the canonical games,
the same moves; ``--no-terse`` leaves them out); each tree is then
run under ``valgrind --tool=callgrind`` twice: checking one game, and checking it and
then the whole corpus. The difference of the two instruction counts over the
corpus's events is the cost of an event, with the interpreter's start-up, the imports,
the first game's set-up and the clean-up at exit left out (the collection of the heap
at exit moves with the heap's shape by a few per cent, and is no event's cost).
Every ``--tree`` (a worktree of an older commit) is counted on the same files. Last,
a whole cold ``python -m referee check`` of one game is counted, start-up and imports
included.

``--alone N`` also counts each of the first N games checked by itself, as one game is
at a table: in a process of its own, after only its header lines were checked (the
rules loaded, the engine set up), so that every line is read for the first time; the
difference of the two counts, summed over the N games, per event.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from trees import what_runs  # bench/ is on the path: the script is run from it

HERE = Path(__file__).resolve().parent.parent
GAMES = (("go-fish", 4), ("literature", 6))
CHILD = """
import os
import sys
from pathlib import Path
try:
    from referee.transcript.check import check_file
except ImportError:  # a flat tree from before issue 19
    from referee.checker import check_file
files = sorted(Path(sys.argv[1]).glob("*.txt"))
check_file(files[0])
if sys.argv[2] == "all":
    for file in files:
        check_file(file)
os._exit(0)  # no clean-up at exit: its collection of the heap is no event's cost
"""


CHILD_ALONE = """
import os
import sys
from pathlib import Path
try:
    from referee.transcript.check import check_file
except ImportError:  # a flat tree from before issue 19
    from referee.checker import check_file
for path in sys.argv[1:]:
    check_file(Path(path))
os._exit(0)
"""
HEADER_KEYS = ("game", "option", "players", "dealer", "team", "deal", "hand", "stock",
               "centre", "center", "target")


def write_corpora(folder: Path, games: int) -> dict[str, int]:
    """Self-played open games of each game in ``folder/GAME``, and their terse twins in
    ``folder/GAME-terse``; the events of the canonical games, by game."""
    sys.path.insert(0, str(HERE))
    sys.path.insert(0, str(HERE / "bench"))
    from terse import write_corpora as write_both

    from referee.transcript.check import check_file

    write_both(folder, games, 2026)
    return {game: sum(check_file(file).events for file in (folder / game).glob("*.txt"))
            for game, _ in GAMES}


def callgrind_count(command: list[str], tree: Path, env: dict[str, str]) -> int:
    """Instructions callgrind counts for ``command`` run from ``tree``."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
        cwd=tree, env=env, capture_output=True, text=True, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"callgrind gave no count: {done.stderr[-500:]}")
    return int(found.group(1))


def cold_check(tree: Path, file: Path, cache: Path) -> int:
    """Instructions of a whole ``python -m referee check FILE`` in a new process (the
    interpreter's start-up and every import included), with its rule file compiled in
    the disk cache and the modules compiled: as every run but the first."""
    env = {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "REFEREE_CACHE_DIR": str(cache),
           "PYTHONHASHSEED": "0"}
    command = [sys.executable, "-m", "referee", "check", str(file)]
    subprocess.run(command, cwd=tree, env=env, capture_output=True, check=False)
    return callgrind_count(command, tree, env)


def instructions(tree: Path, corpus: Path, which: str) -> int:
    """Instructions callgrind counts for the child run from ``tree``: with a fixed hash
    seed (set orders, and so the work, are then the same each run), after a run
    without valgrind that leaves every module compiled."""
    env = {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "REFEREE_CACHE_DIR": "off",
           "PYTHONHASHSEED": "0"}
    child = [sys.executable, "-c", CHILD, str(corpus), which]
    subprocess.run(child, cwd=tree, env=env, capture_output=True, check=True)
    return callgrind_count(child, tree, env)


def alone(tree: Path, corpus: Path, games: int) -> int:
    """Instructions of checking each of the first ``games`` files of ``corpus`` by
    itself, after its header lines alone (:data:`CHILD_ALONE`), summed."""
    env = {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "REFEREE_CACHE_DIR": "off",
           "PYTHONHASHSEED": "0"}
    spent = 0
    for file in sorted(corpus.glob("*.txt"))[:games]:
        lines = file.read_text(encoding="utf-8").splitlines()
        header = corpus.parent / f"{corpus.name}-{file.stem}-header.txt"
        header.write_text("".join(f"{line}\n" for line in lines if line.split(":")[0]
                                  .split(" ")[0] in HEADER_KEYS), encoding="utf-8")
        both = [sys.executable, "-c", CHILD_ALONE, str(header), str(file)]
        subprocess.run(both, cwd=tree, env=env, capture_output=True, check=True)
        spent += (callgrind_count(both, tree, env)
                  - callgrind_count(both[:-1], tree, env))
    return spent


def main() -> None:
    """Write the corpora, count each tree's instructions, print them per event."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--tree", type=Path, action="append", default=[],
                        help="an older checkout to count too (repeatable)")
    parser.add_argument("--no-terse", action="store_true",
                        help="count the canonical games only")
    parser.add_argument("--alone", type=int, default=0, metavar="N",
                        help="also count the first N games each checked by itself")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("bench_instructions needs valgrind")
    trees = [HERE, *(tree.resolve() for tree in args.tree)]
    for tree in trees:
        print(f"{tree}: {what_runs(tree)}")
    with tempfile.TemporaryDirectory() as name:
        counted = write_corpora(Path(name), args.games)
        for game, players in GAMES:
            events = counted[game]
            for kind in ("",) if args.no_terse else ("", "-terse"):
                corpus = Path(name) / f"{game}{kind}"
                for tree in trees:
                    spent = (instructions(tree, corpus, "all")
                             - instructions(tree, corpus, "one"))
                    print(f"{game}{kind}, {players} players ({args.games} games, {events:,} "
                          f"events): {spent / events:9,.0f} instructions/event  ({tree})")
        for game, players in GAMES if args.alone else ():
            from referee.transcript.check import check_file  # this checkout's (sys.path)

            events = sum(check_file(file).events for file in sorted(
                (Path(name) / game).glob("*.txt"))[:args.alone])
            for kind in ("",) if args.no_terse else ("", "-terse"):
                for tree in trees:
                    spent = alone(tree, Path(name) / f"{game}{kind}", args.alone)
                    print(f"{game}{kind}, {players} players ({args.alone} games each alone, "
                          f"{events:,} events): {spent / events:9,.0f} instructions/event  "
                          f"({tree})")
        first = Path(name) / GAMES[0][0] / "game-0000.txt"
        for tree in trees:
            spent = cold_check(tree, first, Path(name) / f"cache-{trees.index(tree)}")
            print(f"a cold `referee check` of one game: {spent / 1e6:,.0f} million "
                  f"instructions  ({tree})")


if __name__ == "__main__":
    main()
