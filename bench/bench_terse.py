"""Print microseconds per event checking the same games written canonically and tersely
(bench/terse.py): 4-player Go Fish and 6-player Literature, warm in one process and
as a whole ``referee check FILE...`` process, for this checkout and any ``--tree``.

Usage: python bench/bench_terse.py [--games 300] [--runs 3] [--letters] [--folded]
       [--tree PATH ...]

The corpora are written once by this checkout (bench/terse.py). Every figure is CPU
time, the best of ``--runs``, divided by the events of the canonical games (a terse
game writes fewer events for the same moves: its cost is counted per move the
referee checks, the same count for both). *Warm*: ``check_file`` over the corpus in
a process of its own that has checked it once already, start-up and imports left out. *Process*:
``python -m referee check`` of the whole corpus in a new process (user + system
time, start-up included, modules compiled, the rule file in the disk cache).
Trees are timed in turn within each run, so a disturbance of the machine falls on all,
and every process of run N hashes strings with seed N (``PYTHONHASHSEED``): where a
dict's keys fall moves a pass by several per cent from one process to the next, and
this way every tree and corpus is timed at the same seeds. ``--letters`` also times
each terse corpus with its suit symbols written as capital letters (``7♠`` as ``7S``):
what the symbols cost, in spellings to remember and in two-byte strings. ``--folded``
also times it with letters and its event lines in lower case (``7s``, ``ann: bob, 7s?``):
one spelling of each card and name, what every other spelling costs.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE / "bench"))
from terse import GAMES, SUITS, stands_alone, write_corpora  # noqa: E402
from trees import what_runs  # noqa: E402  (bench/ is on the path: the script is run from it)

LETTERS = str.maketrans({symbol: letter for letter, symbol in SUITS.items()})
CHILD = """
import json, sys, time
from pathlib import Path
try:
    from referee.transcript.check import check_file
except ImportError:  # a flat tree from before issue 19
    from referee.checker import check_file
best = {}
for folder in sys.argv[2:]:
    files = sorted(Path(folder).glob("*.txt"))
    for file in files:  # once, so that the figure is warm
        verdict = check_file(file)
        if not verdict.ok:
            raise SystemExit(f"{file}: {verdict.report()}")
    times = []
    for _ in range(int(sys.argv[1])):
        started = time.process_time()
        for file in files:
            check_file(file)
        times.append(time.process_time() - started)
    best[folder] = min(times)
print(json.dumps(best))
"""


TWINS = ("letters", "folded")  # the terse corpus written again (write_twin)


def folders(corpus: Path, game: str, twins: tuple[str, ...] = ()) -> dict[str, Path]:
    """The canonical and terse folders of ``game``, and its ``twins`` (:func:`write_twin`)."""
    found = {"canonical": corpus / game, "terse": corpus / f"{game}-terse"}
    for twin in twins:
        found[twin] = corpus / f"{game}-{twin}"
    return found


def twin_line(line: str, twin: str) -> str:
    """A terse line as its ``twin`` writes it: ``letters``, its suit symbols as capital
    letters (``7♠`` as ``7S``); ``folded``, an event line also in lower case, so that each
    card and name has one spelling (``7s``, ``ann``). Header lines stay as they are."""
    if stands_alone(line):
        return line
    lettered = line.translate(LETTERS)
    return lettered.lower() if twin == "folded" else lettered


def write_twin(corpus: Path, twin: str) -> None:
    """Beside each terse corpus, its ``twin`` (:func:`twin_line`)."""
    for game, _ in GAMES:
        terse, written = corpus / f"{game}-terse", corpus / f"{game}-{twin}"
        written.mkdir()
        for file in sorted(terse.glob("*.txt")):
            lines = file.read_text(encoding="utf-8").splitlines()
            (written / file.name).write_text(
                "".join(twin_line(line, twin) + "\n" for line in lines), encoding="utf-8")


def warm(tree: Path, corpus: Path, runs: int, twins: tuple[str, ...], seed: int
         ) -> dict[str, float]:
    """Best CPU seconds of checking each folder, warm, each in a process of its own
    from ``tree`` (so no corpus finds the process's memos filled by another)."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": str(seed)}
    found: dict[str, float] = {}
    for game, _ in GAMES:
        for path in folders(corpus, game, twins).values():
            done = subprocess.run([sys.executable, "-c", CHILD, str(runs), str(path)],
                                  cwd=tree, env=env, capture_output=True, text=True,
                                  check=False)
            if done.returncode:
                raise SystemExit(f"{tree}: {done.stderr[-2000:]}")
            found.update(json.loads(done.stdout))
    return found


def process(tree: Path, folder: Path, cache: Path, seed: int) -> float:
    """CPU seconds (user + system) of ``python -m referee check`` of every file in
    ``folder``, in a new process from ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree), "REFEREE_CACHE_DIR": str(cache),
           "PYTHONHASHSEED": str(seed)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    files = [str(path) for path in sorted(folder.glob("*.txt"))]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "referee", "check", *files], cwd=tree,
                          env=env, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise SystemExit(f"{tree}: referee check {folder} failed: "
                         f"{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def events_of(folder: Path) -> int:
    """The events of the canonical games in ``folder``, as this checkout counts them."""
    sys.path.insert(0, str(HERE))
    from referee.transcript.check import check_file

    return sum(check_file(file).events for file in sorted(folder.glob("*.txt")))


def main() -> None:
    """Write the corpora, time every tree in turn, print µs per event side by side."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--letters", action="store_true",
                        help="also time the terse games with suit symbols as letters")
    parser.add_argument("--folded", action="store_true",
                        help="also time them with letters, and in lower case")
    parser.add_argument("--tree", type=Path, action="append", default=[],
                        help="another checkout to time too (repeatable)")
    args = parser.parse_args()
    trees = [HERE, *(tree.resolve() for tree in args.tree)]
    with tempfile.TemporaryDirectory() as name:
        corpus = Path(name)
        write_corpora(corpus, args.games, args.seed)
        twins = tuple(twin for twin in TWINS if getattr(args, twin))
        for twin in twins:
            write_twin(corpus, twin)
        events = {game: events_of(corpus / game) for game, _ in GAMES}
        warm_best: dict[Path, dict[str, float]] = {tree: {} for tree in trees}
        whole_best: dict[Path, dict[str, float]] = {tree: {} for tree in trees}
        for tree in trees:  # modules compiled, rule files cached: as every run but the first
            for game, _ in GAMES:
                process(tree, folders(corpus, game)["canonical"], corpus / f"cache-{id(tree)}",
                        0)
        for run in range(args.runs):
            for tree in trees:
                for key, seconds in warm(tree, corpus, 1, twins, run).items():
                    warm_best[tree][key] = min(seconds, warm_best[tree].get(key, seconds))
                for game, _ in GAMES:
                    for folder in folders(corpus, game, twins).values():
                        seconds = process(tree, folder, corpus / f"cache-{id(tree)}", run)
                        key = str(folder)
                        whole_best[tree][key] = min(seconds, whole_best[tree].get(key, seconds))
    print(f"µs per event (events of the canonical games), CPU, best of {args.runs} runs; "
          f"load average {os.getloadavg()[0]:.2f}")
    for index, tree in enumerate(trees):
        print(f"  [{index}] {tree} ({what_runs(tree)})")
    print(f"{'':34}" + "".join(f"{f'[{i}]':>10}" for i in range(len(trees))))
    for game, players in GAMES:
        for kind, folder in folders(corpus, game, twins).items():
            for figure, best in (("warm", warm_best), ("process", whole_best)):
                label = f"{game} ({players}), {kind}, {figure}"
                print(f"{label:34}" + "".join(
                    f"{best[tree][str(folder)] / events[game] * 1e6:10.2f}" for tree in trees))
    print(f"({args.games} games each: Go Fish {events['go-fish']:,} events, "
          f"Literature {events['literature']:,})")


if __name__ == "__main__":
    main()
