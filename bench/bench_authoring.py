"""Print what the authoring commands cost on the largest legal rule files: CPU time and
peak memory of ``lint`` (without and with self-play), ``sheet``, ``show``, ``check``
of a transcript naming the file and ``simulate``, and the cache folder's size after.

Usage: python bench/bench_authoring.py [--tree PATH] [--case NAME]... [--timeout 300]
                                       [--memory-mb 4096]

The rule files are written into a temporary folder by this script (no code of the
tree is needed for that); a transcript naming each is a Go Fish game self-played by
this checkout. Each command then runs as ``python -m referee ...`` in a new process
whose ``referee`` is imported from ``--tree`` (default: this checkout), so that an
older commit is measured on the same files (``git worktree add /tmp/before COMMIT``;
``--tree /tmp/before``). Each case starts with an empty cache folder, and its commands
share it in the order listed. A command is stopped after ``--timeout`` seconds, and
its address space is capped at ``--memory-mb`` (a run that needs more ends in a
MemoryError, shown as over the cap), so that an old commit cannot take the machine.

CPU time is user + system time of the command's process as the kernel counts it, peak
memory its maximum resident set (``wait4``), both of that process alone.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from trees import what_runs  # bench/ is on the path: the script is run from it

HERE = Path(__file__).resolve().parent.parent
CAP = 256 * 1024  # a rule file's size cap, in bytes
CHAIN = 16  # the longest extends chain, in files
BASE = (HERE / "rules" / "go-fish.rules").read_text(encoding="utf-8")


def _fill(head: str, line: Callable[[int], str]) -> str:
    """``head``, then ``line(0)``, ``line(1)``... as long as the file stays within the cap."""
    parts, size, number = [head], len(head.encode()), 0
    while True:
        text = line(number)
        if size + len(text.encode()) > CAP:
            return "".join(parts)
        parts.append(text)
        size += len(text.encode())
        number += 1


def options_file(folder: Path) -> Path:
    """Go Fish with 6,400 options that nothing tests: 110 KB."""
    path = folder / "options.rules"
    path.write_text(BASE + "".join(f"option o{n:04d}: no\n" for n in range(6400)))
    return path


def options_when_file(folder: Path) -> Path:
    """Go Fish at the cap with options each tested by a ``when`` that changes the game:
    every option's other value is another game."""
    path = folder / "options-when.rules"
    path.write_text(_fill(BASE, lambda n: f"option w{n:04d}: no\nwhen w{n:04d}: score: "
                          f"{n % 900 + 2} points per set\n"))
    return path


def chain_files(folder: Path, line: Callable[[int, int], str], stem: str) -> Path:
    """The longest extends chain, every file at the cap; the last file's path."""
    for layer in range(CHAIN):
        head = BASE if layer == 0 else (f"extends: {stem}-{layer - 1:02d}.rules\n"
                                        f"name: {stem} {layer}\n")
        (folder / f"{stem}-{layer:02d}.rules").write_text(
            _fill(head, partial(line, layer)))
    return folder / f"{stem}-{CHAIN - 1:02d}.rules"


def chain_file(folder: Path) -> Path:
    """16 files at the cap, each declaring options nothing tests."""
    return chain_files(folder, lambda layer, n: f"option l{layer:02d}o{n:05d}: no\n",
                       "chain")


def chain_when_file(folder: Path) -> Path:
    """16 files at the cap, each declaring options tested by a ``when`` that changes
    the game."""
    return chain_files(folder, lambda layer, n: f"option l{layer:02d}w{n:04d}: no\n"
                       f"when l{layer:02d}w{n:04d}: score: {n % 900 + 2} points per set\n",
                       "chain-when")


def long_lines_file(folder: Path) -> Path:
    """Go Fish whose sets are listed one by one, with a ``name:`` of 120,000 characters
    and an ``about:`` of 120,000."""
    path = folder / "long-lines.rules"
    ranks = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    kept = [line for line in BASE.splitlines()
            if not line.startswith(("sets:", "about:", "name:"))]
    sets = [f"set {rank}: " + " ".join(rank + suit for suit in "SHDC") for rank in ranks]
    path.write_text("\n".join(["name: " + "Fish " * 24_000, "about: " + "word " * 24_000,
                               *kept, *sets]) + "\n")
    return path


CASES: dict[str, Callable[[Path], Path]] = {
    "options": options_file,
    "options-when": options_when_file,
    "chain": chain_file,
    "chain-when": chain_when_file,
    "long-lines": long_lines_file,
}


def transcript(folder: Path, rules: Path) -> Path:
    """A 3-player Go Fish game self-played by this checkout, naming ``rules``: every
    case plays Go Fish at its options' defaults."""
    sys.path.insert(0, str(HERE))
    from referee.authoring.simulate import play_one
    from referee.engine.core import Engine
    from referee.language.loader import load_spec
    from referee.language.rulefiles import find_rule_file

    path = find_rule_file("go-fish")
    assert path is not None
    lines = list(play_one(Engine(load_spec(path)), 3, 7, transcript=True).lines)
    assert lines[0] == "game: go-fish", lines[0]
    lines[0] = f"game: {rules}"
    game = folder / f"{rules.stem}-game.txt"
    game.write_text("\n".join(lines) + "\n")
    return game


def commands(rules: Path, game: Path) -> list[tuple[str, list[str]]]:
    """What is measured, in order: each with the arguments of ``referee``. The first
``show`` compiles and caches the spec, unless an earlier command cached it; the
second reads it from the cache, as every ``check`` naming the file then does."""
    return [
        ("lint --games 0", ["lint", "--games", "0", str(rules)]),
        ("lint", ["lint", str(rules)]),
        ("sheet", ["sheet", str(rules)]),
        ("show", ["show", str(rules)]),
        ("show again", ["show", str(rules)]),
        ("check", ["check", str(game)]),
        ("simulate", ["simulate", str(rules), "-p", "3", "-g", "20", "-s", "1"]),
    ]


def run(tree: Path, arguments: list[str], cache: Path, timeout: float,
        memory_mb: int) -> tuple[float, float, str]:
    """CPU seconds and peak MB of ``python -m referee ARGUMENTS`` from ``tree``, and how
    it ended (``exit N``, ``timeout`` or ``memory``)."""
    env = {**os.environ, "PYTHONPATH": str(tree), "REFEREE_CACHE_DIR": str(cache)}
    limit = memory_mb * 1024 * 1024

    def cap_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    with tempfile.TemporaryFile() as err:
        process = subprocess.Popen([sys.executable, "-m", "referee", *arguments], env=env,
                                   cwd=tree, stdout=subprocess.DEVNULL, stderr=err,
                                   preexec_fn=cap_memory)
        started = time.monotonic()
        ended = "timeout"
        while time.monotonic() - started < timeout:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                process.returncode = os.waitstatus_to_exitcode(status)
                ended = f"exit {process.returncode}"
                break
            time.sleep(0.02)
        else:
            process.kill()
            _, status, usage = os.wait4(process.pid, 0)
            process.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        if b"MemoryError" in err.read():
            ended = "memory"
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, ended


def folder_mb(folder: Path) -> float:
    """The size of every file in ``folder``, in MB."""
    if not folder.is_dir():
        return 0.0
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) / 1e6


def main() -> None:
    """Write the files, run every command of every case, print a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=HERE,
                        help="the checkout whose referee is measured")
    parser.add_argument("--case", action="append", choices=sorted(CASES),
                        help="a case to run (default: all)")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--memory-mb", type=int, default=4096)
    args = parser.parse_args()
    tree = args.tree.resolve()
    print(f"referee from {tree} ({what_runs(tree)}); load average "
          f"{os.getloadavg()[0]:.2f}; a command is stopped after {args.timeout:.0f} s or at "
          f"{args.memory_mb:,} MB")
    print(f"{'case':14} {'files':>9} {'command':15} {'CPU s':>8} {'peak MB':>8} "
          f"{'cache MB':>9}  ended")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for case in args.case or list(CASES):
            rules = CASES[case](folder)
            files = (sorted(folder.glob(f"{rules.stem[:-3]}-[0-9][0-9].rules"))
                     if case.startswith("chain") else [rules])
            size = sum(f.stat().st_size for f in files)
            game = transcript(folder, rules)
            cache = folder / f"cache-{case}"
            for label, arguments in commands(rules, game):
                cpu, peak, ended = run(tree, arguments, cache, args.timeout, args.memory_mb)
                cpu_text = f"> {args.timeout:.0f}" if ended == "timeout" else f"{cpu:.2f}"
                peak_text = f"> {args.memory_mb:,}" if ended == "memory" else f"{peak:,.0f}"
                print(f"{case:14} {size / 1024:7,.0f} K {label:15} {cpu_text:>8} "
                      f"{peak_text:>8} {folder_mb(cache):9.1f}  {ended}", flush=True)


if __name__ == "__main__":
    main()
