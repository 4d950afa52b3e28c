"""Print the figures of hidden-deal checking at scale (issue 18): CPU time and peak memory
of ``referee check`` of long hidden transcripts, and of ``referee play --resume`` of them,
at 25,000 to 200,000 events (and 300,000 events of an open deal, resumed).

Usage: python bench/bench_hidden_scale.py [--sizes 25000 50000 100000 200000]
           [--open 300000] [--tree PATH] [--limit SECONDS] [--memory MB] [--only NAME]

The transcripts are written once by this checkout:

- ``authors-cycle``: Authors, four players, a hidden deal, one hand in which the same
  four failed asks go round and round (each fact stated again and again);
- ``literature-cycle``: Literature, six players, a hidden deal, one hand in which Ann
  and Bob pass 3H back and forth between failed asks (cards moving, facts repeating);
- ``go-fish-match`` and ``literature-match``: self-played matches of hidden hands (a
  fresh knowledge model each hand, many transfers and draws);
- ``authors-open``: the cycle of ``authors-cycle`` with every hand given (an open deal:
  no knowledge model), resumed only.

Each figure is measured in a fresh process whose ``referee`` is imported from ``--tree``
(default: this checkout), so the same transcripts time an older commit side by side
(``git worktree add /tmp/before COMMIT``; ``--tree /tmp/before``). ``check`` is
``check_file``, what ``referee check`` calls; ``resume`` is ``live.resume`` of a copy of
the file, what ``referee play --resume`` calls before its first prompt. CPU time is the
process's (``time.process_time``) for that call alone; peak memory is the process's
peak resident set (the interpreter and the imports included: about 45 MB, 125 MB once
OR-Tools is imported for a hard question). A run past ``--limit`` seconds, or past
``--memory`` MB of address space, is stopped and shown as such. The witness search sees
sets in hash order, so figures vary a little with ``PYTHONHASHSEED`` (fixed here at 0).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from trees import what_runs  # bench/ is on the path: the script is run from it

HERE = Path(__file__).resolve().parent.parent
SIZES = (25_000, 50_000, 100_000, 200_000)
OPEN = 300_000
CHECKED = ("authors-cycle", "literature-cycle", "go-fish-match", "literature-match")
RESUMED = ("authors-cycle", "literature-cycle", "go-fish-match")
AUTHORS_CYCLE = ("Ann asks Bob for 2D", "Bob says no", "Bob asks Cy for 2C", "Cy says no",
                 "Cy asks Dee for 2S", "Dee says no", "Dee asks Ann for 2H", "Ann says no")
LITERATURE_CYCLE = ("Ann asks Bob for 3H", "Bob gives 3H", "Ann asks Bob for 4H", "Bob says no",
                    "Bob asks Ann for 3H", "Ann gives 3H", "Bob asks Ann for 5H", "Ann says no")
SUITS = "SHDC"  # an open Authors deal: Ann holds the spades, Bob the hearts, and so on


def cycle(header: list[str], events: tuple[str, ...], size: int) -> str:
    """A transcript of ``size`` events: ``events`` over and over."""
    return "\n".join([*header, *(events[n % len(events)] for n in range(size))]) + "\n"


def authors_header(hidden: bool) -> list[str]:
    """Four players of Authors; with an open deal, each holds one suit."""
    header = ["game: authors", "players: Ann Bob Cy Dee", "dealer: Dee"]
    if hidden:
        return [*header, "deal: hidden"]
    ranks = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    return [*header, "deal: given", *(f"hand {name}: {' '.join(r + suit for r in ranks)}"
                                      for name, suit in zip(("Ann", "Bob", "Cy", "Dee"),
                                                            SUITS, strict=True))]


def match(name: str, players: int, size: int, seed: int = 2026) -> str:
    """A self-played match of hidden hands of about ``size`` events."""
    sys.path.insert(0, str(HERE))
    from referee.authoring.simulate import play_match_record
    from referee.engine.core import Engine
    from referee.language.loader import load_spec
    from referee.language.rulefiles import find_rule_file

    path = find_rule_file(name)
    assert path is not None, name
    engine = Engine(load_spec(path))
    target = 100_000  # the largest a header takes: nobody reaches it
    sample = play_match_record(engine, players, seed, target, max_hands=20, hidden=True,
                               transcript=False)
    hands = max(1, round(size / (sample.moves / sample.hands)))
    played = play_match_record(engine, players, seed, target, max_hands=hands, hidden=True)
    return "\n".join(played.lines) + "\n"


def write_corpus(folder: Path, sizes: list[int], open_size: int, only: str | None) -> None:
    """Every transcript measured, written by this checkout."""
    kinds: dict[str, Callable[[int], str]] = {
        "authors-cycle": lambda n: cycle(authors_header(True), AUTHORS_CYCLE, n),
        "literature-cycle": lambda n: cycle(
            ["game: literature", "players: Ann Bob Cy Dee Eve Fay", "deal: hidden"],
            LITERATURE_CYCLE, n),
        "go-fish-match": lambda n: match("go-fish", 4, n),
        "literature-match": lambda n: match("literature", 6, n),
    }
    for kind, write in kinds.items():
        for size in sizes if only in (None, kind) else ():
            (folder / f"{kind}-{size}.txt").write_text(write(size))
    if only in (None, "authors-open"):
        (folder / f"authors-open-{open_size}.txt").write_text(
            cycle(authors_header(False), AUTHORS_CYCLE, open_size))


def run_one(mode: str, file: Path) -> dict[str, float]:
    """Check or resume ``file`` in this process (its ``referee`` from ``sys.path``)."""
    if mode == "check":
        from referee.transcript.check import check_file

        started = time.process_time()
        verdict = check_file(file)
        spent = time.process_time() - started
        if not verdict.ok:
            raise SystemExit(verdict.report())
        events = verdict.events
    else:
        from referee.live.start import resume

        with tempfile.TemporaryDirectory() as folder:
            copy = Path(folder) / file.name
            shutil.copyfile(file, copy)
            started = time.process_time()
            table = resume(copy, lambda warning: None)
            spent = time.process_time() - started
            events = len(table.journal.entries)
            table.journal.close()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: KiB
    return {"seconds": spent, "peak": peak, "events": events}


def measure(tree: Path, mode: str, file: Path, limit: float, memory: int
            ) -> dict[str, float] | str:
    """One figure in a fresh process; what stopped it, past the time or memory limit."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}

    def capped() -> None:  # the child's address space: a run past it fails, not the machine
        resource.setrlimit(resource.RLIMIT_AS, (memory * 2**20, memory * 2**20))

    try:
        done = subprocess.run([sys.executable, __file__, "--run", mode, str(file)], env=env,
                              cwd=tree, capture_output=True, text=True, timeout=limit,
                              preexec_fn=capped)
    except subprocess.TimeoutExpired:
        return f"over {limit:.0f} s"
    if done.returncode and any(word in done.stderr for word in
                               ("MemoryError", "OutOfMemory", "bad_alloc")):
        return f"over {memory:,} MB"  # Python's or the SAT solver's (C++) allocation failed
    if done.returncode:
        raise SystemExit(f"{mode} {file} failed: {done.stderr or done.stdout}")
    figures: dict[str, float] = json.loads(done.stdout)
    return figures


def shown(figures: dict[str, float] | str) -> str:
    """A figure as printed: CPU seconds and peak memory."""
    if isinstance(figures, str):
        return figures
    return f"{figures['seconds']:6.1f} s {figures['peak'] / 2**20:6,.0f} MB"


def main() -> None:
    """Write the transcripts, measure each in a fresh process, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--open", type=int, default=OPEN, help="events of the open resume")
    parser.add_argument("--tree", type=Path, default=HERE,
                        help="the checkout whose referee is measured")
    parser.add_argument("--limit", type=float, default=600.0, help="seconds a run may take")
    parser.add_argument("--memory", type=int, default=6_000, help="MB a run may take")
    parser.add_argument("--only", choices=(*CHECKED, "authors-open"))
    parser.add_argument("--run", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run is not None:
        print(json.dumps(run_one(args.run[0], Path(args.run[1]))))
        return
    tree = args.tree.resolve()
    print(f"referee from {tree} ({what_runs(tree)});\n"
          "CPU time of the call, peak resident memory of the process; "
          f"load average {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        write_corpus(folder, args.sizes, args.open, args.only)
        for file in sorted(folder.glob("*.txt"), key=lambda f: (f.stem.rsplit("-", 1)[0],
                                                                int(f.stem.rsplit("-", 1)[1]))):
            kind, size = file.stem.rsplit("-", 1)
            checked = (shown(measure(tree, "check", file, args.limit, args.memory))
                       if kind in CHECKED else "-")
            resumed = (shown(measure(tree, "resume", file, args.limit, args.memory))
                       if kind in (*RESUMED, "authors-open") else "-")
            print(f"{kind:17} {int(size):>8,} events   check {checked:18}   resume {resumed}",
                  flush=True)


if __name__ == "__main__":
    main()
