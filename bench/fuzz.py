"""Fuzz the referee: mutate the bundled transcripts and rule files, check each in-process
under a time limit, and count what is not a clean error.

Usage: python bench/fuzz.py [--runs 50000] [--seed 0] [--timeout 10] [--save DIR]

Transcripts (``tests/transcripts/``) go through ``check_text``, rule files (``rules/``
and ``tests/rules_support/``) through ``load_spec``. A run is clean when it ends in a
verdict, or in a ``RefereeError`` with a line and column. The script prints the runs,
the tracebacks (any other exception), the hangs (runs stopped by the alarm) and the
errors without a location; with ``--save`` it keeps each bad input there to replay.
Exit status 1 if any run was not clean.
"""

from __future__ import annotations

import argparse
import random
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

from referee.checker import check_text
from referee.compile import load_spec
from referee.errors import RefereeError

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ("²", "⑤", "٣", "\U0001d7d5", "9" * 5000, "0" * 4400 + "1", "-1", "\u2028",
           "\u2029", "\x85", "\r", "\x0c", "\x0b", "\ufeff", "\u200b", "\x00", "\x1b[2J",
           "\u202e", "\t",
           "/proc/self/environ", "/dev/zero", "/etc/passwd", "/tmp", "..", "a" * 300,
           "b" * 300 + ".rules", "x\x00y.rules", "/dev/zero.rules", "rules/")
WORDS = ("game:", "players:", "deal:", "seed", "given", "hidden", "hand", "stock:", "centre:",
         "target:", "option", "team", "dealer:", "extends:", "asks", "gives", "says", "no",
         "yes", "draws", "books", "claims", "passes", "to", "for", "plays", "takes", "turn",
         "up", "lays", "out", "down", "any", ":", ",", ";", "?", ">", "#", "RJ", "QS", "10H",
         "T♥", "queens", "low", "spades", "when", "is", "set", "sets:", "each", "or", "more",
         "0", "1", "99", "100000", "authors", "go-fish", "literature")
PIECES = ("\n", "\r\n", "\r", "\u2028", " ", ";", ":", ",", "#")


class Hang(BaseException):
    """Raised by the alarm: a run took longer than the time limit."""


@dataclass(slots=True)
class Figures:
    """What the runs gave."""

    runs: int = 0
    transcripts: int = 0
    rule_files: int = 0
    tracebacks: int = 0
    hangs: int = 0
    unplaced: int = 0
    slowest: tuple[float, str] = (0.0, "")
    outcomes: Counter[str] = field(default_factory=Counter)  # "ok" or an error's kind
    examples: list[str] = field(default_factory=list)


def mutate(text: str, rng: random.Random) -> str:
    """``text`` with one to three random changes."""
    for _ in range(rng.randint(1, 3)):
        text = rng.choice(MUTATIONS)(text, rng)
    return text


def _at(text: str, rng: random.Random) -> int:
    return rng.randint(0, len(text))


def _cut(text: str, rng: random.Random) -> str:
    return text[:_at(text, rng)]


def _hole(text: str, rng: random.Random) -> str:
    start = _at(text, rng)
    return text[:start] + text[start + rng.randint(1, 60):]


def _splice(text: str, rng: random.Random) -> str:
    where = _at(text, rng)
    kind = rng.random()
    if kind < 0.4:
        piece = rng.choice(HOSTILE)
    elif kind < 0.7:
        piece = rng.choice(WORDS) + " "
    else:
        piece = "".join(chr(rng.choice((rng.randint(0, 127), rng.randint(0, 0x2FFF))))
                        for _ in range(rng.randint(1, 8)))
    return text[:where] + piece + text[where:]


def _swap_word(text: str, rng: random.Random) -> str:
    words = text.split(" ")
    words[rng.randrange(len(words))] = rng.choice(WORDS + HOSTILE)
    return " ".join(words)


def _number(text: str, rng: random.Random) -> str:
    """A number of the text turned into a Unicode, huge or odd one."""
    digits = [i for i, c in enumerate(text) if c.isdigit()]
    if not digits:
        return text
    where = rng.choice(digits)
    return text[:where] + rng.choice(HOSTILE[:7]) + text[where + 1:]


def _lines(text: str, rng: random.Random) -> str:
    """Lines repeated, moved, or ended differently."""
    lines = text.split("\n")
    kind = rng.random()
    if kind < 0.3:
        line = rng.randrange(len(lines))
        lines[line:line] = [lines[line]] * rng.choice((2, 5, 200))
    elif kind < 0.6:
        first, second = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[first], lines[second] = lines[second], lines[first]
    else:
        return rng.choice(PIECES[:4]).join(lines)
    return "\n".join(lines)


def _bom(text: str, rng: random.Random) -> str:
    return "\ufeff" + text


MUTATIONS: tuple[Callable[[str, random.Random], str], ...] = (
    _cut, _hole, _splice, _splice, _swap_word, _swap_word, _number, _lines, _bom)


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise Hang


def run_one(job: Callable[[], RefereeError | None], timeout: float) -> tuple[str, str | None]:
    """Run ``job`` under the alarm: how it ended (``ok`` or the error's kind), and what
    went wrong, or None if it is clean."""
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        error = job()
    except Hang:
        return "hang", "hang"
    except RefereeError as exc:
        error = exc
    except Exception as exc:  # anything else is what we are looking for
        return "traceback", f"traceback: {type(exc).__name__}: {str(exc)[:200]}"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    if error is None:
        return "ok", None
    if error.span is None or error.span.line < 1 or error.span.column < 1:
        return error.kind.value, f"no location: {error.report()[:200]}"
    return error.kind.value, None


def transcript_job(text: str, near: Path) -> Callable[[], RefereeError | None]:
    """Check a transcript; the verdict's error, if any."""
    return lambda: check_text(text, "fuzzed.txt", near).error


def rules_job(text: str, path: Path) -> Callable[[], RefereeError | None]:
    """Write a rule file at ``path`` and compile it."""
    def job() -> None:
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        load_spec(path)
    return job


def fuzz(runs: int, seed: int, timeout: float, save: Path | None) -> Figures:
    """Run ``runs`` mutated inputs, two transcripts to a rule file."""
    rng = random.Random(seed)
    transcripts = [(p, p.read_text(encoding="utf-8"))
                   for p in sorted((ROOT / "tests" / "transcripts").rglob("*.txt"))]
    figures = Figures()
    with tempfile.TemporaryDirectory() as folder:
        # the bundled rule files laid out as in the source tree, so that `extends:` finds them
        work = Path(folder)
        shutil.copytree(ROOT / "rules", work / "rules")
        shutil.copytree(ROOT / "tests" / "rules_support", work / "tests" / "rules_support")
        rule_files = [(p, p.read_text(encoding="utf-8"))
                      for p in sorted(work.rglob("*.rules"))]
        for number in range(runs):
            if number % 3 == 2:
                original, text = rng.choice(rule_files)
                fuzzed = mutate(text, rng)
                job = rules_job(fuzzed, original.parent / "fuzzed.rules")
                figures.rule_files += 1
            else:
                original, text = rng.choice(transcripts)
                fuzzed = mutate(text, rng)
                job = transcript_job(fuzzed, original.parent)
                figures.transcripts += 1
            started = time.perf_counter()
            outcome, problem = run_one(job, timeout)
            figures.outcomes[outcome] += 1
            _count(figures, problem, time.perf_counter() - started, original.name)
            if problem is not None and save is not None:
                save.mkdir(parents=True, exist_ok=True)
                suffix = original.suffix
                (save / f"case-{number:06d}{suffix}").write_text(
                    fuzzed, encoding="utf-8", errors="surrogatepass")
            if problem is not None and len(figures.examples) < 10:
                figures.examples.append(f"{original.name}: {problem}")
            if (number + 1) % 5000 == 0:
                print(f"... {number + 1} runs", file=sys.stderr, flush=True)
    return figures


def _count(figures: Figures, problem: str | None, seconds: float, name: str) -> None:
    figures.runs += 1
    figures.slowest = max(figures.slowest, (seconds, name))
    if problem is None:
        return
    if problem == "hang":
        figures.hangs += 1
    elif problem.startswith("traceback"):
        figures.tracebacks += 1
    else:
        figures.unplaced += 1


def main() -> None:
    """Fuzz and print the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--save", type=Path, default=None,
                        help="keep every input that was not clean in this folder")
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, _on_alarm)
    started = time.perf_counter()
    figures = fuzz(args.runs, args.seed, args.timeout, args.save)
    print(f"runs: {figures.runs} ({figures.transcripts} transcripts, {figures.rule_files} "
          f"rule files, seed {args.seed}) in {time.perf_counter() - started:.0f} s")
    print(f"tracebacks: {figures.tracebacks}")
    print(f"hangs over {args.timeout:g} s: {figures.hangs}")
    print(f"errors without a location: {figures.unplaced}")
    print(f"slowest run: {figures.slowest[0]:.2f} s (a mutation of {figures.slowest[1]})")
    print("outcomes: " + ", ".join(f"{kind} {count}"
                                   for kind, count in figures.outcomes.most_common()))
    for example in figures.examples:
        print(f"  {example}")
    bad = figures.tracebacks + figures.hangs + figures.unplaced
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
