"""Many self-played games, in one process or several, with an optional progress bar.

The per-game seeds come from :func:`referee.simulate.seeds` whatever the number of
processes; they are split into consecutive chunks, each worker plays its chunks,
and the records are put back in game order. So ``--jobs 2`` gives exactly the
records, and the report, of one job with the same seed.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Iterator
from functools import lru_cache
from multiprocessing.pool import Pool
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

from referee import simulate
from referee.balance import GameRecord, game_record, match_record
from referee.compile import load_spec
from referee.engine import Engine
from referee.errors import Kind, RefereeError
from referee.spec import GameSpec
from referee.values import frozen, mutable

CHUNKS_PER_JOB = 8  # small enough chunks to keep every worker busy to the end
MAX_CHUNK = 250


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


@mutable
class Run:
    """The records of the games played, in order, and whether Ctrl-C stopped the run."""

    records: list[GameRecord]
    interrupted: bool = False


def play_game(engine: Engine, settings: Settings, number: int, seed: int) -> GameRecord:
    """Play game (or match) ``number`` of a run with its seed; write its transcript when
    the settings say where."""
    transcript = settings.out is not None
    target = settings.target or engine.spec.match_target
    if target is not None:
        match = simulate.play_match_record(
            engine, settings.players, seed, target, settings.max_hands,
            hidden=settings.hidden, transcript=transcript, max_moves=settings.max_moves,
            in_header=settings.target is not None)
        lines, record = match.lines, match_record(match)
    else:
        played = simulate.play_one(engine, settings.players, seed, transcript=transcript,
                                   max_moves=settings.max_moves, hidden=settings.hidden)
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
    and keeps the games played."""
    jobs = min(games, jobs or os.cpu_count() or 1)
    game_seeds = list(simulate.seeds(seed, games))
    pool = _pool(jobs) if jobs > 1 else None  # forked before the bar starts a thread
    task = progress.add_task("playing", total=games) if progress is not None else None
    if progress is not None:
        progress.start()
    try:
        if pool is not None:
            return _play_in_pool(pool, settings, game_seeds, jobs, progress, task)
        return _play_here(Engine(spec), settings, game_seeds, progress, task)
    finally:
        if progress is not None:
            progress.stop()


def _play_here(engine: Engine, settings: Settings, game_seeds: list[int],
               progress: Progress | None, task: TaskID | None) -> Run:
    run = Run([])
    try:
        for number, game_seed in enumerate(game_seeds, start=1):
            run.records.append(play_game(engine, settings, number, game_seed))
            if progress is not None and task is not None:
                progress.advance(task)
    except KeyboardInterrupt:
        run.interrupted = True
    return run


def chunks(game_seeds: list[int], jobs: int) -> Iterator[tuple[int, list[int]]]:
    """Consecutive chunks of the seeds, each with the number of its first game.

    >>> [(start, len(seeds)) for start, seeds in chunks(list(range(10)), 2)]
    [(1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1), (8, 1), (9, 1), (10, 1)]
    """
    size = max(1, min(MAX_CHUNK, -(-len(game_seeds) // (jobs * CHUNKS_PER_JOB))))
    for start in range(0, len(game_seeds), size):
        yield start + 1, game_seeds[start:start + size]


def _play_in_pool(pool: Pool, settings: Settings, game_seeds: list[int], jobs: int,
                  progress: Progress | None, task: TaskID | None) -> Run:
    run = Run([])
    work = [(settings, start, part) for start, part in chunks(game_seeds, jobs)]
    try:
        for records, error in pool.imap(_play_chunk, work):
            if error is not None:
                raise RefereeError(Kind.USAGE, error)
            run.records += records
            if progress is not None and task is not None:
                progress.advance(task, len(records))
        pool.close()
    except KeyboardInterrupt:
        run.interrupted = True
    finally:
        pool.terminate()
        pool.join()
    return run


def _pool(jobs: int) -> Pool:
    """Worker processes that leave Ctrl-C to the parent; forked where the system can,
    before any progress bar starts a thread."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    return context.Pool(jobs, initializer=_ignore_interrupts)


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play_chunk(work: tuple[Settings, int, list[int]]) -> tuple[list[GameRecord], str | None]:
    """Play one chunk in a worker; a failure comes back as its message."""
    settings, start, game_seeds = work
    try:
        engine = _engine(settings.source, settings.options)
        return [play_game(engine, settings, start + i, seed)
                for i, seed in enumerate(game_seeds)], None
    except RefereeError as exc:
        return [], exc.message


@lru_cache(maxsize=4)
def _engine(source: str, options: tuple[tuple[str, str], ...]) -> Engine:
    """A worker's engine, compiled once per rule file and options."""
    return Engine(load_spec(Path(source), dict(options)))


def progress_bar(console: Console | None = None) -> Progress:
    """A progress bar on standard error that disappears when the run ends."""
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeRemainingColumn(), console=console or Console(stderr=True),
                    transient=True)
