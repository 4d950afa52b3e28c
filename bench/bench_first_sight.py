"""Print what a segment seen for the first time costs, against one read again from the
memo of segments (referee/transcript/segments.py): what more ways of writing the same
moves cost, however the memo keeps them.

Usage: python bench/bench_first_sight.py [--games 300] [--runs 3] [--repeats 5]

This checkout writes ``--games`` self-played games of 4-player Go Fish and 6-player
Literature, canonical, terse and terse folded to one spelling (bench/bench_terse.py),
and measures each corpus in a process of its own (hash seed N in run N), with the
collector off as ``referee check`` runs. Once every memo is filled, ``--repeats``
times: the corpus is read (its events made, not checked); every remembered segment
that is not a claim is forgotten (claims hardly repeat, and cost several times as
much), and the corpus read again, each forgotten segment read and kept anew once; the
moves of its asks, draws, books and claims are resolved twice (one resolver a game,
at the state of its deal: only answers and turn-ups, left out, read the state); the
moves of the forgotten segments are forgotten, and they are resolved again, each
segment's anew once. Printed: the segments remembered, claims apart; *found*, a
written segment read again with every segment remembered (the lines and headers around
it included), the least pass of all; *read* and *resolved*, a first sight's reading and
keeping and its resolving, per segment forgotten: the least pass beyond the least
without it, in each run, the median of the runs that measured it beyond the noise (``-``
unless most did: the extra time within twice the spread of the least passes). These
are first sights in a warm process; in a new one each also meets cold caches and fresh
memory. It times this checkout only, as it runs: built in place (``python setup.py
build_ext --inplace``) or not, as it says.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE / "bench"))
sys.path.insert(0, str(HERE))
from bench_terse import folders, write_twin  # noqa: E402
from terse import GAMES, write_corpora  # noqa: E402
from trees import what_runs  # noqa: E402  (bench/ is on the path: the script is run from it)

from referee.spans import Span  # noqa: E402  (this checkout, on the path above)
from referee.transcript.check import check_file  # noqa: E402
from referee.transcript.events import (  # noqa: E402
    EVENT_ASK,
    EVENT_BOOK,
    EVENT_CLAIM,
    EVENT_DRAW,
    EVENT_PASS,
    EVENT_PLAY,
    EVENT_SHOW,
)
from referee.transcript.notation import TranscriptReader  # noqa: E402
from referee.transcript.resolve import _TABLES, Resolver  # noqa: E402
from referee.transcript.segments import READ_SEGMENTS, ROOM  # noqa: E402
from referee.transcript.session import Session  # noqa: E402
from referee.transcript.setup import set_up  # noqa: E402

TWINS = ("folded",)  # beside the canonical and terse corpora (bench_terse.write_twin)


def forget_segments() -> list[str]:
    """Forget every remembered segment that is not a claim, giving its room back to the
    memo; their texts."""
    forgotten = [text for text, words in READ_SEGMENTS.items() if words.kind is not EVENT_CLAIM]
    for text in forgotten:
        del READ_SEGMENTS[text]
        ROOM.used -= len(text)
    return forgotten


def forget_moves() -> None:
    """Forget the moves of every remembered segment that is not a claim: those its words
    keep, and those remembered by its text at every table."""
    for text, words in READ_SEGMENTS.items():
        if words.kind is not EVENT_CLAIM:
            words.resolved = None
            for table in _TABLES.values():
                table.by_words.pop(text, None)


# the kinds of event whose move is remembered by their text (answers and turn-ups are
# resolved at their moment): resolved here at the state of the deal, which only those
# others read
BY_TEXT = frozenset({EVENT_ASK, EVENT_DRAW, EVENT_BOOK, EVENT_CLAIM, EVENT_PASS, EVENT_PLAY,
                     EVENT_SHOW})


def measure(folder: Path, repeats: int) -> dict[str, float]:
    """The figures of one corpus (see the module's docstring), in this process: the
    least time of ``repeats`` of each pass."""
    files = sorted(folder.glob("*.txt"))
    texts = [(file.read_text(encoding="utf-8"), str(file)) for file in files]
    for file in files:  # every memo filled
        assert check_file(file).ok, file

    def read() -> float:
        started = time.process_time()
        for text, source in texts:
            for _ in TranscriptReader(text, source).events():
                pass
        return time.process_time() - started

    def resolve() -> float:
        games = []
        for text, source in texts:
            reader = TranscriptReader(text, source)
            game = set_up(reader.headers, Span(1, 1, "", source), None)
            games.append((Resolver(game), Session(game).state,
                          [event for event in reader.events() if event.kind in BY_TEXT]))
        started = time.process_time()
        for resolver, dealt, events in games:
            for event in events:
                resolver.move(event, dealt)
        return time.process_time() - started

    written = sum(1 for text, source in texts for _ in TranscriptReader(text, source).events())
    claims = sum(words.kind is EVENT_CLAIM for words in READ_SEGMENTS.values())
    passes: dict[str, list[float]] = {"found": [], "first": [], "warm": [], "resolved": []}
    forgotten = kept_again = 0
    for _ in range(repeats):
        passes["found"].append(read())
        forgotten = len(forget_segments())
        passes["first"].append(read())  # each forgotten segment read and kept anew once
        kept_again = len(READ_SEGMENTS) - claims
        resolve()  # their moves found again by their text
        passes["warm"].append(resolve())
        forget_moves()
        passes["resolved"].append(resolve())  # each resolved anew once
    count = max(forgotten, 1)
    return {"claims": claims, "others": forgotten, "kept again": kept_again,
            "found": min(passes["found"]) / written * 1e6,
            "read": beyond(passes["first"], passes["found"]) / count * 1e6,
            "resolved": beyond(passes["resolved"], passes["warm"]) / count * 1e6}


def beyond(passes: list[float], without: list[float]) -> float:
    """What ``passes`` take beyond the ``without`` passes: the difference of their least
    times; NaN if it is within the noise, twice the gap between the two least times of
    each, summed."""
    if len(passes) < 2:
        return min(passes) - min(without)
    first, second = sorted(passes)[:2]
    base, next_base = sorted(without)[:2]
    extra = first - base
    return extra if abs(extra) > 2 * (second - first + next_base - base) else math.nan


def child(folder: Path, repeats: int) -> None:
    """Print the figures of ``folder`` as JSON, measured with the collector off."""
    gc.disable()
    print(json.dumps(measure(folder, repeats)))


def run_child(folder: Path, seed: int, repeats: int) -> dict[str, float]:
    """:func:`child` in a new process hashing with ``seed``."""
    env = {**os.environ, "PYTHONPATH": str(HERE), "PYTHONHASHSEED": str(seed)}
    done = subprocess.run([sys.executable, __file__, "--child", str(folder), "--repeats",
                           str(repeats)], cwd=HERE,
                          env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"{folder}: {done.stderr[-2000:]}")
    found: dict[str, float] = json.loads(done.stdout)
    return found


def main() -> None:
    """Write the corpora, measure each in turn ``--runs`` times, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        child(args.child, args.repeats)
        return
    measured: dict[tuple[str, str], list[dict[str, float]]] = {}
    with tempfile.TemporaryDirectory() as name:
        corpus = Path(name)
        write_corpora(corpus, args.games, args.seed)
        for twin in TWINS:
            write_twin(corpus, twin)
        for run in range(args.runs):
            for game, _ in GAMES:
                for kind, folder in folders(corpus, game, TWINS).items():
                    measured.setdefault((game, kind), []).append(
                        run_child(folder, run, args.repeats))
    counted = f"{args.runs} run{'s' if args.runs > 1 else ''}"
    print(f"µs, CPU, {counted}; load average {os.getloadavg()[0]:.2f}; {HERE} ({what_runs(HERE)})")
    print(f"{'':24}{'claims':>8}{'others':>8}{'found':>8}{'read':>8}{'resolved':>10}"
          f"{'first/found':>13}")
    players = dict(GAMES)
    for (game, kind), runs in measured.items():  # in the order measured
        found = min(run["found"] for run in runs)
        read, resolved = (across(runs, figure) for figure in ("read", "resolved"))
        print(f"{f'{game} ({players[game]}), {kind}':24}{runs[0]['claims']:8,.0f}"
              f"{runs[0]['others']:8,.0f}{found:8.2f}{shown(read, 8)}"
              f"{shown(resolved, 10)}{shown((read + resolved) / found, 13, 0)}")
    print(f"({args.games} games each; claims, others: the segments remembered; found: the "
          "least, a written segment read again, all remembered; read, resolved: the median "
          "over the runs, a first sight of a segment that is no claim; -: within the noise in "
          "most runs)")


def across(runs: list[dict[str, float]], figure: str) -> float:
    """The median of ``figure`` over the runs that measured it beyond the noise; NaN
    unless most did."""
    values = [run[figure] for run in runs if not math.isnan(run[figure])]
    return statistics.median(values) if 2 * len(values) > len(runs) else math.nan


def shown(value: float, width: int, places: int = 2) -> str:
    """``value`` right-aligned in ``width`` characters, ``-`` if NaN."""
    return f"{'-':>{width}}" if math.isnan(value) else f"{value:{width}.{places}f}"


if __name__ == "__main__":
    main()
