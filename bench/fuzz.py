"""Fuzz the referee: mutate the bundled transcripts and rule files, run each in-process
under a time limit, and count what is not clean.

Usage: python bench/fuzz.py [--runs 300000] [--seed 0] [--timeout 10] [--save DIR]
                            [--alone-every 10] [--case N]

Six surfaces, each case drawn from its own random stream (``--case N`` runs case N
again, alone):

- ``transcripts``: transcripts (``tests/transcripts/`` and self-played games) mutated
  and checked with ``check_text``;
- ``rule files``: rule files (``rules/``, ``tests/rules_support/``) mutated and compiled
  with ``load_spec``;
- ``names``: transcripts whose players, dealer, hands, events or teams are named with
  markup, C0/C1 controls, escape sequences, bidi and invisible characters, combining
  marks, look-alikes and case-fold pairs; checked, formatted, and everything written of
  the verdict checked: the report, ``--json``, the ``--knowledge`` table;
- ``rule text``: rule files whose ``name:``, ``about:``, option names and values and set
  names are so made, at paths holding ``#``, ``;``, quotes and escapes; compiled, and
  ``show`` (and ``--json``), ``sheet`` (Markdown and HTML), a check and a live table's
  answers of a game of them checked likewise, and for one in ten ``lint`` and
  ``simulate --out`` (the transcripts it writes must check);
- ``live``: ``referee play`` in-process (bench/fuzz_live.py): events, commands, saves
  at planted links and existing files, the journal checked and resumed;
- ``resume``: ``play --resume`` of a journal cut at a random byte, of files that are no
  transcript, of links, FIFOs and folders.

A run is clean when it ends in a verdict, or in an error with a line and column (an
error of usage, on the command line, has none), and when nothing it would write holds
a character that is not printable, JSON reads back, no message quotes a word whole
beyond the bounds, no planted or existing file changed, and every journal checks back.
Besides, the checked transcripts are checked again in batches in another order in this
process, and one in ``--alone-every`` alone, in a process that has checked nothing
(bench/fuzz_alone.py): any difference in verdict, report or JSON is counted.

The script prints the runs per surface, the tracebacks (any other exception), the
hangs (runs stopped by the alarm), the errors without a location, unsafe output,
breaches, differences, the slowest run, and the peak memory (this process and its
children); with ``--save`` it keeps each bad input there with its problems (a batch
that differed whole; a live case as what was typed). It compiles into a cache folder of
its own, not the user's. Exit status 1 if any run was not clean, or the peak memory
passed 1 GB.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

from fuzz_alone import PristineChecker, Request, fingerprint
from fuzz_live import Live, Opening, clear, live_case, opening, resume_case
from fuzz_mutations import hostile_names, hostile_rule_text, mutate
from fuzz_outputs import echoed, error_problems, json_problems, names_shown, spec_problems
from fuzz_outputs import verdict_problems as written_problems

from referee.authoring.balance import report
from referee.authoring.lint import lint_file
from referee.authoring.runs import Settings, play_games
from referee.authoring.simulate import PLAYER_NAMES, play_one
from referee.engine.core import Engine
from referee.errors import RefereeError
from referee.files import write_file
from referee.language import cache
from referee.language.loader import load_spec
from referee.language.spec import GameSpec, Shown
from referee.live.start import Seating, start
from referee.sanitize import printable
from referee.transcript.check import Verdict, check_file, check_text, format_text
from referee.transcript.writer import write_game
from referee.values import replace

ROOT = Path(__file__).resolve().parent.parent
SURFACES = ("transcripts", "rule files", "names", "rule text", "live", "resume")
WEIGHTS = (42, 21, 17, 7, 7, 6)
PROBLEMS = ("traceback", "hang", "no location", "unsafe", "breach", "difference")
BATCH = 24  # transcripts checked again together, in another order
MOST_MEMORY = 1 << 30  # bytes: the peak resident memory allowed
RULE_FILE_NAMES = ("fuzzed.rules", "fuzzed #2;x.rules", 'fuzzed "q" \\.rules',
                   "fuzzed [b]\x1b[2J.rules", "fuzzed\u202e.rules", "fuzzed:v2.rules")
SELF_PLAYED = 2  # self-played games of each rule file in the corpus (open and hidden)


class Hang(BaseException):
    """Raised by the alarm: a run took longer than the time limit."""


@dataclass(slots=True)
class Surface:
    """What the runs of one surface gave."""

    runs: int = 0
    problems: Counter[str] = field(default_factory=Counter)
    slowest: tuple[float, str] = (0.0, "")
    seconds: float = 0.0


@dataclass(slots=True)
class Checked:
    """A transcript checked in this process, to check again among others and alone."""

    number: int
    surface: str
    request: Request
    fingerprint: str


@dataclass(slots=True)
class Figures:
    """What the runs gave."""

    surfaces: dict[str, Surface] = field(
        default_factory=lambda: {name: Surface() for name in SURFACES})
    outcomes: Counter[str] = field(default_factory=Counter)  # "ok" or an error's kind
    examples: list[str] = field(default_factory=list)
    again: int = 0  # transcripts checked again in another order
    alone: int = 0  # transcripts checked again alone
    again_seconds: float = 0.0
    peak: tuple[int, str] = (0, "")  # the peak resident memory, and the run that raised it

    @property
    def runs(self) -> int:
        """All runs."""
        return sum(surface.runs for surface in self.surfaces.values())

    def count(self, problem: str) -> int:
        """The runs with ``problem`` (a word of PROBLEMS), over every surface."""
        return sum(surface.problems[problem] for surface in self.surfaces.values())

    def slowest(self) -> tuple[float, str]:
        """The slowest run and what it was."""
        return max(surface.slowest for surface in self.surfaces.values())


@dataclass(slots=True)
class Case:
    """How one run ended (``ok``, an error's kind, ``hang``, ``traceback``), what went
    wrong, and its input, to keep."""

    outcome: str = "ok"
    problems: list[str] = field(default_factory=list)
    name: str = ""  # the file it mutates
    keep: tuple[str, bytes] = ("", b"")  # a reproducer's suffix and bytes
    checked: Checked | None = None


class Corpus:
    """The inputs: transcripts (with the folder they are checked near), rule files laid
    out in a temporary folder as in the source tree (so that ``extends:`` finds them),
    and the openings of live tables."""

    def __init__(self, work: Path) -> None:
        self.work = work
        self.transcripts = [(p, p.read_text(encoding="utf-8"))
                            for p in sorted((ROOT / "tests" / "transcripts").rglob("*.txt"))]
        shutil.copytree(ROOT / "rules", work / "rules")
        shutil.copytree(ROOT / "tests" / "rules_support", work / "tests" / "rules_support")
        self.rule_files = [(p, p.read_text(encoding="utf-8"))
                           for p in sorted(work.rglob("*.rules"))]
        self.transcripts += self_played(work / "rules")
        self.openings = [found for path, text in self.transcripts
                         if (found := opening(text, path)) is not None]
        self.tables = work / "tables"
        self.tables.mkdir()


def self_played(rules: Path) -> list[tuple[Path, str]]:
    """Games self-played from each bundled rule file, open and hidden, as transcripts
    beside it."""
    games = []
    for path in sorted(rules.glob("*.rules")):
        engine = Engine(load_spec(path))
        players = min(engine.spec.player_counts)
        for seed in range(SELF_PLAYED):
            played = play_one(engine, players, seed, transcript=True, hidden=seed % 2 == 1)
            lines = [write_game(path.name) if line.startswith("game:") else line
                     for line in played.lines]  # the same text wherever the copy is
            games.append((rules / f"{path.stem}-self-{seed}.txt", "\n".join(lines) + "\n"))
    return games


# -- the runs --------------------------------------------------------------------------


def run_case(number: int, corpus: Corpus, seed: int, timeout: float, show: bool = False
             ) -> tuple[str, Case]:
    """Case ``number``, under the alarm: its surface, and how it ended (``show``: print
    its traceback, if it ends in one)."""
    rng = random.Random(f"{seed}:{number}")
    surface = rng.choices(SURFACES, WEIGHTS)[0]
    case = Case()
    try:
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            RUNS[surface](number, corpus, rng, case)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except Hang:
        case.outcome = "hang"
        case.problems.append("hang")
    except RefereeError as error:  # a rule file's: a clean error needs a place
        case.outcome = error.kind.value
        case.problems += located(error) + error_problems(error)
    except Exception as exc:  # anything else is what we are looking for
        case.outcome = "traceback"
        case.problems.append(f"traceback: {type(exc).__name__}: {str(exc)[:200]}")
        if show:
            traceback.print_exc()
    return surface, case


def located(error: RefereeError) -> list[str]:
    """An error from a file's content has a line and a column."""
    if error.span is None or error.span.line < 1 or error.span.column < 1:
        return [f"no location: {error.report()[:200]}"]
    return []


def transcript_run(number: int, corpus: Corpus, rng: random.Random, case: Case) -> None:
    """A mutated transcript, checked; what is written of its verdict, checked."""
    original, text = rng.choice(corpus.transcripts)
    _check_run(number, "transcripts", original, mutate(text, rng), rng.random() < 0.05, case)


def names_run(number: int, corpus: Corpus, rng: random.Random, case: Case) -> None:
    """A transcript named with hostile words, checked and formatted."""
    original, text = rng.choice(corpus.transcripts)
    fuzzed = hostile_names(text, rng)
    if rng.random() < 0.25:
        fuzzed = mutate(fuzzed, rng)
    verdict = _check_run(number, "names", original, fuzzed, rng.random() < 0.15, case)
    if rng.random() < 0.15:
        lines, formatted = format_text(fuzzed, verdict.source, original.parent)
        case.problems += echoed("format", "\n".join(lines))
        if fingerprint(formatted) != fingerprint(replace(verdict, knowledge=None)):
            case.problems.append("breach: format's verdict is not check's")
        if verdict.ok:
            again = check_text("\n".join(lines) + "\n", verdict.source, original.parent)
            if not again.ok or again.state != verdict.state:
                case.problems.append(f"breach: the canonical form checks as "
                                     f"{again.summary()[:160]!r}")


def _check_run(number: int, surface: str, original: Path, text: str, knowledge: bool,
               case: Case) -> Verdict:
    case.name, case.keep = original.name, (".txt", text.encode("utf-8", "surrogatepass"))
    source = f"case-{number:06d}.txt"
    verdict = check_text(text, source, original.parent, knowledge=knowledge)
    case.outcome = verdict.error.kind.value if verdict.error else "ok"
    if verdict.error is not None:
        case.problems += located(verdict.error)
    case.problems += written_problems(verdict)
    case.checked = Checked(number, surface, (text, source, str(original.parent), knowledge),
                           fingerprint(verdict))
    return verdict


def rules_run(number: int, corpus: Corpus, rng: random.Random, case: Case) -> None:
    """A mutated rule file, compiled; what ``show --json`` writes of it, checked."""
    original, text = rng.choice(corpus.rule_files)
    spec = _compile(original, mutate(text, rng), case)
    case.problems += json_problems("show --json", _spec_json(spec))


def rule_text_run(number: int, corpus: Corpus, rng: random.Random, case: Case) -> None:
    """A rule file with hostile words (at a hostile path), compiled; its sheet, ``show``,
    a check of a game of it, a live table's answers, and for some ``lint`` and
    ``simulate`` (its report, and the transcripts it writes checking back), checked."""
    original, text = rng.choice(corpus.rule_files)
    fuzzed = hostile_rule_text(text, rng)
    if rng.random() < 0.2:
        fuzzed = mutate(fuzzed, rng)
    spec = _compile(original, fuzzed, case, rng.choice(RULE_FILE_NAMES))
    path = Path(spec.source)
    case.problems += spec_problems(spec, path)
    players = min(spec.player_counts)
    if players > len(PLAYER_NAMES):
        return
    names = PLAYER_NAMES[:players]
    header = [write_game(str(path)), f"players: {' '.join(names)}", "deal: seed 1", ""]
    verdict = check_text("\n".join(header), f"case-{number:06d}.txt", path.parent,
                         knowledge=True)
    if verdict.error is not None:
        case.problems += located(verdict.error)
    case.problems += written_problems(verdict)
    folder = corpus.tables / f"case-{number}"
    folder.mkdir()
    try:
        _table_answers(spec, path, names, folder, case)
        if rng.random() < 0.1:
            case.problems += _linted(path)
        if rng.random() < 0.1:
            case.problems += _simulated(spec, players, folder, rng)
    finally:
        clear(folder)
        folder.rmdir()


def _linted(path: Path) -> list[str]:
    """What ``referee lint --games 0`` writes."""
    result = lint_file(path, 0)
    if result.error is not None:
        return located(result.error) + error_problems(result.error)
    return [problem for finding in result.findings
            for problem in echoed("lint", finding.report())]


def _simulated(spec: GameSpec, players: int, folder: Path, rng: random.Random
               ) -> list[str]:
    """What ``referee simulate --out`` writes: its report, and transcripts that check."""
    out = folder / "out"
    out.mkdir()
    settings = Settings(spec.source, (), spec.name, players, max_moves=2_000, out=str(out),
                        hidden=rng.random() < 0.5)
    run = play_games(spec, settings, rng.randrange(1000), 2)
    figures = report(spec, players, run.tally, seed=0, max_moves=2_000)
    problems = echoed("simulate", "\n".join(figures.lines()))
    problems += json_problems("simulate --json", figures.to_json())
    for written in sorted(out.iterdir()):
        verdict = check_file(written)
        if not verdict.ok:
            problems.append(f"breach: a transcript simulate wrote checks as "
                            f"{verdict.summary()[:200]!r}")
    return problems


def _table_answers(spec: GameSpec, path: Path, names: tuple[str, ...], folder: Path,
                   case: Case) -> None:
    """What a live table of the game writes: its title and names shown as they are."""
    try:
        table = start(Seating(str(path), names, deal="seed", seed=1), folder / "live.txt")
    except RefereeError as error:
        case.problems += error_problems(error)
        return
    try:
        commands = ["status", "help", "legal", "last", "undo", "hand"]
        if spec.shown is Shown.EVERY_EVENT:
            commands += ["known", "history"]
        for command in commands:
            reply = table.handle(command)
            for part in (reply.line, reply.details, reply.output):
                case.problems += echoed(f"play's {command}", part)
            if command == "status":
                case.problems += names_shown("status", reply.output,
                                             [*names, spec.title])
    finally:
        table.journal.close()


def _compile(original: Path, text: str, case: Case, name: str = "fuzzed.rules") -> GameSpec:
    case.name, case.keep = original.name, (".rules", text.encode("utf-8", "surrogatepass"))
    path = original.parent / name
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return load_spec(path)


def _spec_json(spec: GameSpec) -> object:
    from referee.language.spec_json import spec_to_json

    return spec_to_json(spec)


def live_run(number: int, corpus: Corpus, rng: random.Random, case: Case) -> None:
    """A live table: lines typed, saves at planted files, its journal checked."""
    _table_run(number, corpus, rng, case, live_case)


def resume_run(number: int, corpus: Corpus, rng: random.Random, case: Case) -> None:
    """``--resume`` of a cut journal, a file that is no transcript, a link."""
    _table_run(number, corpus, rng, case, resume_case)


def _table_run(number: int, corpus: Corpus, rng: random.Random, case: Case,
               play: Callable[[Opening, random.Random, Path, Live], None]) -> None:
    start_from = rng.choice(corpus.openings)
    folder = corpus.tables / f"case-{number}"
    folder.mkdir()
    case.name = start_from.name
    found = Live()
    try:
        play(start_from, rng, folder, found)
    finally:
        clear(folder)
        folder.rmdir()
        record = {"opening": start_from.name, "typed": found.lines}
        case.keep = (".json", json.dumps(record, indent=1).encode())
        case.outcome, case.problems = found.outcome, found.problems


RUNS: dict[str, Callable[[int, Corpus, random.Random, Case], None]] = {
    "transcripts": transcript_run, "rule files": rules_run, "names": names_run,
    "rule text": rule_text_run, "live": live_run, "resume": resume_run}


# -- among others and alone -----------------------------------------------------------


def again_among_others(batch: list[Checked], rng: random.Random, alone: PristineChecker,
                       every: int, timeout: float) -> list[tuple[Checked, str]]:
    """The batch checked again in this process in another order, and one in ``every``
    alone; each transcript whose verdict differs, and how."""
    differing = []
    order = batch[::-1]
    rng.shuffle(order)
    for checked in order:
        text, source, near, knowledge = checked.request
        try:
            signal.setitimer(signal.ITIMER_REAL, timeout)
            try:
                again = fingerprint(check_text(text, source, Path(near), knowledge=knowledge))
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        except Hang:
            again = "hang"
        except Exception as exc:
            again = f"traceback: {type(exc).__name__}: {str(exc)[:200]}"
        if again != checked.fingerprint:
            differing.append((checked, f"difference: checked again in another order: "
                                       f"{_first_difference(checked.fingerprint, again)}"))
    for checked in batch:
        if checked.number % every == 0:
            answer = alone.check(checked.request)
            if answer != checked.fingerprint:
                differing.append((checked, f"difference: checked alone: "
                                           f"{_first_difference(checked.fingerprint, answer)}"))
    return differing


def _first_difference(first: str, second: str) -> str:
    at = next((i for i, (a, b) in enumerate(zip(first, second, strict=False)) if a != b),
              min(len(first), len(second)))
    return f"{first[max(0, at - 40):at + 60]!r} against {second[max(0, at - 40):at + 60]!r}"


# -- the whole run ---------------------------------------------------------------------


def fuzz(runs: int, seed: int, timeout: float, save: Path | None, every: int,
         only: int | None) -> Figures:
    """Run ``runs`` cases (or case ``only``), with the batches checked again."""
    figures = Figures()
    with tempfile.TemporaryDirectory() as folder:
        os.environ["REFEREE_CACHE_DIR"] = str(Path(folder) / "cache")  # not the user's
        cache.folder.cache_clear()
        corpus = Corpus(Path(folder))
        alone = PristineChecker(timeout)  # forked before anything is checked
        batch: list[Checked] = []
        rng = random.Random(f"{seed}:batches")
        try:
            for number in range(runs) if only is None else (only,):
                started = time.perf_counter()
                surface, case = run_case(number, corpus, seed, timeout, only is not None)
                _count(figures, surface, number, case, time.perf_counter() - started, save)
                if case.checked is not None:
                    batch.append(case.checked)
                if len(batch) == BATCH or (batch and number == runs - 1) or only is not None:
                    again = time.perf_counter()
                    differing = again_among_others(batch, rng, alone, every, timeout)
                    figures.again_seconds += time.perf_counter() - again
                    figures.again += len(batch)
                    figures.alone += sum(c.number % every == 0 for c in batch)
                    for checked, problem in differing:
                        _bad(figures, checked.surface, checked.number, problem, "")
                    if differing and save is not None:
                        _keep_batch(save, batch, differing)
                    batch = []
                if (number + 1) % 5000 == 0:
                    print(f"... {number + 1} runs", file=sys.stderr, flush=True)
        finally:
            alone.close()
    return figures


def _count(figures: Figures, name: str, number: int, case: Case, seconds: float,
           save: Path | None) -> None:
    surface = figures.surfaces[name]
    surface.runs += 1
    surface.seconds += seconds
    surface.slowest = max(surface.slowest, (seconds, f"{case.name}, {name}, case {number}"))
    resident = peak_memory()[0]
    if resident > figures.peak[0]:
        figures.peak = (resident, f"{case.name}, {name}, case {number}")
    figures.outcomes[case.outcome] += 1
    for problem in dict.fromkeys(_kind(p) for p in case.problems):
        first = next(p for p in case.problems if _kind(p) == problem)
        _bad(figures, name, number, first, case.name)
    if case.problems and save is not None:
        suffix, data = case.keep
        _write(save / f"case-{number:06d}{suffix}", data)
        why = "".join(printable(problem) + "\n" for problem in case.problems)
        _write(save / f"case-{number:06d}.problems", why.encode())


def _bad(figures: Figures, surface: str, number: int, problem: str, name: str) -> None:
    figures.surfaces[surface].problems[_kind(problem)] += 1
    if len(figures.examples) < 12:
        figures.examples.append(f"{name or surface} (case {number}): {printable(problem)}")


def _kind(problem: str) -> str:
    return next((kind for kind in PROBLEMS if problem.startswith(kind)), "breach")


def _keep_batch(save: Path, batch: list[Checked], differing: list[tuple[Checked, str]]
                ) -> None:
    """A batch whose verdicts differed, its files in the order first checked."""
    folder = save / f"batch-{batch[0].number:06d}"
    for place, checked in enumerate(batch):
        text = checked.request[0]
        _write(folder / f"{place:02d}-{checked.request[1]}", text.encode("utf-8", "surrogatepass"))
    notes = [f"{c.request[1]} (near {c.request[2]}, knowledge {c.request[3]}): {problem}"
             for c, problem in differing]
    _write(folder / "differences.txt", ("\n".join(notes) + "\n").encode())


def _write(path: Path, data: bytes) -> None:
    """Keep a reproducer: a new file, never over another."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        write_file(path, data, force=False, hint="save into an empty folder")
    except RefereeError as error:
        print(f"cannot keep {path}: {error.message}", file=sys.stderr)


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise Hang


def peak_memory() -> tuple[int, int]:
    """The peak resident memory, in bytes, of this process and of its largest child."""
    scale = 1 if sys.platform == "darwin" else 1024  # Linux counts kilobytes
    return (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale,
            resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * scale)


def main() -> None:
    """Fuzz and print the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=300_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--save", type=Path, default=None,
                        help="keep every input that was not clean in this folder")
    parser.add_argument("--alone-every", type=int, default=10,
                        help="check one transcript in this many alone, in a fresh process")
    parser.add_argument("--case", type=int, default=None, help="run this one case again")
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, _on_alarm)
    started = time.perf_counter()
    figures = fuzz(args.runs, args.seed, args.timeout, args.save, args.alone_every, args.case)
    ours, children = peak_memory()
    runs = ", ".join(f"{s.runs} {name}" for name, s in figures.surfaces.items())
    print(f"runs: {figures.runs} ({runs}; seed {args.seed}) in "
          f"{time.perf_counter() - started:.0f} s")
    print(f"tracebacks: {figures.count('traceback')}")
    print(f"hangs over {args.timeout:g} s: {figures.count('hang')}")
    print(f"errors without a location: {figures.count('no location')}")
    print(f"unsafe output: {figures.count('unsafe')}")
    print(f"breaches (a file changed, a journal or a written form not checking back): "
          f"{figures.count('breach')}")
    print(f"differences between a file alone and among others: {figures.count('difference')}"
          f" ({figures.again} checked again in another order, {figures.alone} alone)")
    seconds, what = figures.slowest()
    print(f"slowest run: {seconds:.2f} s (a mutation of {what})")
    print(f"peak memory: {ours / 2**20:.0f} MB, its children {children / 2**20:.0f} MB"
          f" (reached at a mutation of {figures.peak[1] or 'the start'})")
    print("outcomes: " + ", ".join(f"{kind} {count}"
                                   for kind, count in figures.outcomes.most_common()))
    print("per surface: runs / " + " / ".join(PROBLEMS) + " / slowest / time")
    for name, surface in figures.surfaces.items():
        counts = " / ".join(str(surface.problems[p]) for p in PROBLEMS)
        print(f"  {name:12} {surface.runs} / {counts} / {surface.slowest[0]:.2f} s / "
              f"{surface.seconds:.0f} s")
    print(f"  checked again: {figures.again_seconds:.0f} s")
    for example in figures.examples:
        print(f"  {example}")
    bad = sum(figures.count(p) for p in PROBLEMS)
    sys.exit(1 if bad or max(ours, children) > MOST_MEMORY else 0)


if __name__ == "__main__":
    main()
