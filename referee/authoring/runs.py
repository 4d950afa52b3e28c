"""Many self-played games, in one process or several, with an optional progress bar.

The per-game seeds come from :func:`referee.authoring.simulate.seeds` whatever the number of
processes; they are drawn as the games are played, in consecutive chunks, each
worker plays the chunks it is given, and the records are counted into one
:class:`~referee.authoring.balance.Tally` in game order. So ``--jobs 2`` gives exactly the
tally, and the report, of one job with the same seed. Only a few chunks are out
at a time, and no record is kept once counted, so a run's memory does not grow
with its number of games. A worker that dies (killed, out of memory) stops the
run at once with the figures of the games counted before (referee/authoring/workers.py).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeRemainingColumn,
)

from referee.authoring import simulate
from referee.authoring.balance import GameRecord, Tally, game_record, match_record
from referee.authoring.workers import WorkerDied, Workers
from referee.caches import memoized
from referee.engine.core import Engine
from referee.errors import Kind, RefereeError
from referee.language.loader import load_spec
from referee.language.spec import GameSpec
from referee.values import frozen, mutable

CHUNKS_PER_JOB = 8  # small enough chunks to keep every worker busy to the end
MAX_CHUNK = 250
CHUNKS_AHEAD = 2  # chunks out for each worker beyond the one it plays (done, not yet counted)
JOBS_PER_CORE = 4  # --jobs is at most this many processes a core


@frozen
class Settings:
    """What every game of a run shares; plain data, sent to worker processes, which
    compile the rule file again from ``source`` with ``options``."""

    source: str
    options: tuple[tuple[str, str], ...]
    name: str
    players: int
    max_moves: int = simulate.DEFAULT_MAX_MOVES
    out: str | None = None
    hidden: bool = False
    target: int | None = None
    max_hands: int = 100
    force: bool = False  # replace transcripts that exist already
    policies: tuple[str, ...] = ()  # each seat's (referee.authoring.policies); () random


Chunk = tuple[Settings, int, list[int]]  # the settings, the first game's number, the seeds
Played = tuple[list[GameRecord], str | None]  # a chunk's records, or why it failed


@mutable
class Run:
    """The tally of the games played; whether Ctrl-C stopped the run, or why it broke
    off (a worker process died)."""

    tally: Tally
    interrupted: bool = False
    broken: str | None = None


def max_jobs() -> int:
    """The most processes a run may use: a few a core."""
    return JOBS_PER_CORE * (os.cpu_count() or 1)


def job_count(jobs: int, games: int) -> int:
    """The processes to play ``games`` games in, for ``--jobs`` (0: one per core); more
    than :func:`max_jobs` is a usage error, before any process starts."""
    if not 0 <= jobs <= max_jobs():
        raise RefereeError(Kind.USAGE, f"--jobs is a number of processes from 0 (one per "
                           f"core) to {max_jobs()} ({JOBS_PER_CORE} per core), not {jobs}")
    return max(1, min(games, jobs or os.cpu_count() or 1))


def play_game(engine: Engine, settings: Settings, number: int, seed: int) -> GameRecord:
    """Play game (or match) ``number`` of a run with its seed; write its transcript when
    the settings say where."""
    transcript = settings.out is not None
    target = settings.target or engine.spec.match_target
    if target is not None:
        match = simulate.play_match_record(
            engine, settings.players, seed, target, settings.max_hands,
            hidden=settings.hidden, transcript=transcript, max_moves=settings.max_moves,
            in_header=settings.target is not None, policies=settings.policies)
        lines, record = match.lines, match_record(match)
    else:
        played = simulate.play_one(engine, settings.players, seed, transcript=transcript,
                                   max_moves=settings.max_moves, hidden=settings.hidden,
                                   policies=settings.policies)
        lines, record = played.lines, game_record(played)
    if settings.out is not None:
        simulate.write_transcript(
            Path(settings.out) / simulate.transcript_name(settings.name, number), lines,
            force=settings.force)
    return record


def play_games(
    spec: GameSpec, settings: Settings, seed: int, games: int, *, jobs: int = 1,
    progress: Progress | None = None,
) -> Run:
    """Play ``games`` games from ``seed`` with ``jobs`` processes (0: one per core),
    showing ``progress`` (started and stopped here) as they end. Ctrl-C stops the run
    and keeps the games played, as does a worker process that dies (``Run.broken``)."""
    jobs = job_count(jobs, games)
    game_seeds = simulate.seeds(seed, games)
    workers = _workers(jobs) if jobs > 1 else None  # forked before the bar starts a thread
    task = progress.add_task("playing", total=games) if progress is not None else None
    if progress is not None:
        progress.start()
    run = Run(Tally(spec.teams or settings.players))
    try:
        if workers is not None:
            _play_in_workers(workers, settings, chunks(game_seeds, games, jobs), jobs, run,
                             progress, task)
        else:
            _play_here(Engine(spec), settings, game_seeds, run, progress, task)
    finally:
        if progress is not None:
            progress.stop()
    return run


def _play_here(engine: Engine, settings: Settings, game_seeds: Iterable[int], run: Run,
               progress: Progress | None, task: TaskID | None) -> None:
    try:
        for number, game_seed in enumerate(game_seeds, start=1):
            run.tally.add(play_game(engine, settings, number, game_seed))
            if progress is not None and task is not None:
                progress.advance(task)
    except KeyboardInterrupt:
        run.interrupted = True


def chunks(game_seeds: Iterable[int], games: int, jobs: int
           ) -> Iterator[tuple[int, list[int]]]:
    """Consecutive chunks of the seeds of ``games`` games, each with the number of its
    first game, drawn from ``game_seeds`` only as they are asked for.

    >>> [(start, len(seeds)) for start, seeds in chunks(iter(range(10)), 10, 2)]
    [(1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1), (8, 1), (9, 1), (10, 1)]
    """
    size = max(1, min(MAX_CHUNK, -(-games // (jobs * CHUNKS_PER_JOB))))
    seeds = iter(game_seeds)
    start = 1
    while part := list(itertools.islice(seeds, size)):
        yield start, part
        start += len(part)


def _play_in_workers(workers: Workers[Chunk, Played], settings: Settings,
                     work: Iterator[tuple[int, list[int]]], jobs: int, run: Run,
                     progress: Progress | None, task: TaskID | None) -> None:
    """Play the chunks in the workers, a bounded number of them out at a time, and count
    their records in game order."""
    try:
        for records, error in workers.results(((settings, *chunk) for chunk in work),
                                              ahead=jobs * (1 + CHUNKS_AHEAD)):
            if error is not None:
                raise RefereeError(Kind.USAGE, error)
            run.tally.add_all(records)
            if progress is not None and task is not None:
                progress.advance(task, len(records))
    except KeyboardInterrupt:
        run.interrupted = True
    except WorkerDied as exc:
        run.broken = str(exc)
    finally:
        workers.stop()


def _workers(jobs: int) -> Workers[Chunk, Played]:
    """The worker processes of a run; a system that will not start them is a usage
    error."""
    try:
        return Workers(jobs, _play_chunk)
    except OSError as exc:
        raise RefereeError(Kind.USAGE, f"cannot start {jobs} worker processes: "
                           f"{exc.strerror or exc}; ask for fewer with --jobs") from None


def _play_chunk(work: Chunk) -> Played:
    """Play one chunk in a worker; a failure comes back as its message."""
    settings, start, game_seeds = work
    try:
        engine = _engine(settings.source, settings.options)
        return [play_game(engine, settings, start + i, seed)
                for i, seed in enumerate(game_seeds)], None
    except RefereeError as exc:
        return [], exc.message


@memoized(maxsize=4)
def _engine(source: str, options: tuple[tuple[str, str], ...]) -> Engine:
    """A worker's engine, compiled once per rule file and options."""
    return Engine(load_spec(Path(source), dict(options)))


def progress_bar(console: Console | None = None) -> Progress:
    """A progress bar on standard error that disappears when the run ends."""
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeRemainingColumn(), console=console or Console(stderr=True),
                    transient=True)
