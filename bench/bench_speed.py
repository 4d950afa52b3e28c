"""Print the speed figures of issue 9: events checked per second on one core for
4-player Go Fish and 6-player Literature, the same per event at 100,000 events as at
1,000, memory per event, self-play games per second, and a cold ``referee check``.

Usage: python bench/bench_speed.py [--games 300] [--runs 3] [--tree PATH]

The corpora are written once by this checkout's self-play (open deals): a corpus of
whole games per game, and for each a match transcript of 100,000 events and one of
1,000. The figures are then measured in a fresh process whose ``referee`` is imported
from ``--tree`` (default: this checkout), so the same corpora time an older commit
side by side (``git worktree add /tmp/before COMMIT``; ``--tree /tmp/before``).

Every figure is CPU time of one process (``time.process_time``), the best of
``--runs``: the least disturbed by other work on the machine. ``check`` is
``check_file``, what ``referee check`` calls, so only the interpreter's start-up
is left out; the cold start is that start-up: ``python -m referee check`` of one
game in a new process, its CPU time as the kernel counts it (user + system).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from trees import what_runs  # bench/ is on the path: the script is run from it

HERE = Path(__file__).resolve().parent.parent
GAMES = (("go-fish", 4), ("literature", 6))
LONG, SHORT = 100_000, 1_000


def write_corpora(folder: Path, games: int, seed: int) -> None:
    """The transcripts every tree is timed on, written by this checkout."""
    sys.path.insert(0, str(HERE))
    from referee.authoring.simulate import play_match_record, play_one, seeds
    from referee.engine.core import Engine
    from referee.language.loader import load_spec
    from referee.language.rulefiles import find_rule_file

    for name, players in GAMES:
        path = find_rule_file(name)
        assert path is not None, name
        engine = Engine(load_spec(path))
        corpus = folder / name
        corpus.mkdir()
        for number, game_seed in enumerate(seeds(seed, games)):
            lines = play_one(engine, players, game_seed, transcript=True).lines
            (corpus / f"game-{number:04d}.txt").write_text("\n".join(lines) + "\n")
        for size in (SHORT, LONG):
            lines = _match_lines(play_match_record, engine, players, seed, size)
            (folder / f"{name}-{size}.txt").write_text("\n".join(lines) + "\n")


def _match_lines(play: Callable[..., Any], engine: object, players: int, seed: int,
                 events: int) -> tuple[str, ...]:
    """A match transcript of about ``events`` moves: as many whole hands as ten hands'
    average says (a target nobody reaches keeps the match going)."""
    sample = play(engine, players, seed, 10**5, max_hands=10, transcript=False)
    hands = max(1, round(events / (sample.moves / sample.hands)))
    lines: tuple[str, ...] = play(engine, players, seed, 10**5, max_hands=hands).lines
    return lines


def _timed_names() -> list[Any]:
    """``check_file``, ``find_rule_file``, ``load_spec``, ``Engine``, ``play_one`` and
    ``seeds`` of the tree timed: in its subpackages (issue 19), or flat before it."""
    homes = (("transcript.check", "checker", "check_file"),
             ("language.rulefiles", "compile", "find_rule_file"),
             ("language.loader", "compile", "load_spec"),
             ("engine.core", "engine", "Engine"),
             ("authoring.simulate", "simulate", "play_one"),
             ("authoring.simulate", "simulate", "seeds"))
    found = []
    for layered, flat, name in homes:
        try:
            module = importlib.import_module(f"referee.{layered}")
        except ImportError:
            module = importlib.import_module(f"referee.{flat}")
        found.append(getattr(module, name))
    return found


def measure(folder: Path, runs: int) -> dict[str, float]:
    """Every figure, with ``referee`` imported from the current ``sys.path``."""
    check_file, find_rule_file, load_spec, Engine, play_one, seeds = _timed_names()
    figures: dict[str, float] = {}
    for name, _players in GAMES:
        files = sorted((folder / name).glob("*.txt"))
        figures[f"{name} events/s"] = max(_events_per_second(check_file, files)
                                         for _ in range(runs))
        for size in (SHORT, LONG):
            file = [folder / f"{name}-{size}.txt"]
            figures[f"{name} {size} events/s"] = max(_events_per_second(check_file, file)
                                                    for _ in range(runs))
        figures[f"{name} bytes/event"] = _bytes_per_event(
            check_file, folder / f"{name}-{SHORT}.txt", folder / f"{name}-{LONG}.txt")
    path = find_rule_file("go-fish")
    assert path is not None
    engine = Engine(load_spec(path))
    game_seeds = list(seeds(2026, 1000))
    best = 0.0
    for _ in range(runs):
        started = time.process_time()
        for game_seed in game_seeds:
            play_one(engine, 4, game_seed)
        best = max(best, len(game_seeds) / (time.process_time() - started))
    figures["go-fish self-play games/s"] = best
    return figures


def _events_per_second(check_file: Callable[..., Any], files: list[Path]) -> float:
    started = time.process_time()
    events = 0
    for file in files:
        verdict = check_file(file)
        if not verdict.ok:
            raise SystemExit(f"{file}: {verdict.report()}")
        events += verdict.events
    return events / (time.process_time() - started)


def _bytes_per_event(check_file: Callable[..., Any], short: Path, long: Path) -> float:
    """The memory a check needs per event: the peak of traced memory while checking the
    long file less that of the short one, over the events between them (set-up, done
    once per rule file, is left out by a check before)."""
    check_file(short)
    peaks, counts = [], []
    for file in (short, long):
        tracemalloc.start()
        counts.append(check_file(file).events)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    return float((peaks[1] - peaks[0]) / (counts[1] - counts[0]))


def cold_start(tree: Path, file: Path, runs: int) -> tuple[float, float]:
    """CPU seconds of ``python -m referee check FILE`` in a new process: the first run
    with an empty cache folder (compiled modules may be there already), and the best of
    ``runs`` after it."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: modules compiled once
    with tempfile.TemporaryDirectory() as cache:
        env["XDG_CACHE_HOME"] = cache
        times = []
        for _ in range(runs + 1):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            done = subprocess.run([sys.executable, "-m", "referee", "check", str(file)],
                                  env=env, cwd=tree, capture_output=True, text=True)
            if done.returncode:
                raise SystemExit(f"referee check {file} failed: {done.stderr}")
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            times.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return times[0], min(times[1:])


def main() -> None:
    """Write the corpora, measure in a fresh process, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--tree", type=Path, default=HERE,
                        help="the checkout whose referee is timed")
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure is not None:
        print(json.dumps(measure(args.measure, args.runs)))
        return
    tree = args.tree.resolve()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        write_corpora(folder, args.games, args.seed)
        env = {**os.environ, "PYTHONPATH": str(tree)}
        out = subprocess.run([sys.executable, __file__, "--measure", str(folder),
                              "--runs", str(args.runs)], env=env, check=True,
                             capture_output=True, text=True).stdout
        figures = json.loads(out)
        first, warm = cold_start(tree, folder / "go-fish" / "game-0000.txt", args.runs)
    print(f"referee from {tree} ({what_runs(tree)}); best of {args.runs} runs, CPU time, "
          f"one core; load average {os.getloadavg()[0]:.2f}")
    for name, players in GAMES:
        print(f"{name}, {players} players ({args.games} games): "
              f"{figures[f'{name} events/s']:9,.0f} events/s")
        print(f"  one match file of ~{SHORT:,} events: "
              f"{figures[f'{name} {SHORT} events/s']:9,.0f} events/s; of ~{LONG:,}: "
              f"{figures[f'{name} {LONG} events/s']:9,.0f} events/s; "
              f"memory {figures[f'{name} bytes/event']:,.0f} bytes/event")
    print(f"go-fish self-play, 4 players: {figures['go-fish self-play games/s']:,.0f} games/s")
    print(f"cold `referee check` of one game: {first * 1000:.0f} ms CPU with an empty cache, "
          f"{warm * 1000:.0f} ms after")


if __name__ == "__main__":
    main()
