"""Bounds on what a command line may ask for: every numeric option out of its range is a
one-line usage error (exit 2, no traceback, nothing played); ``simulate`` draws its
seeds as it plays and keeps a tally, not its games, so its memory does not grow with
``--games``; ``--jobs`` is capped; Ctrl-C still prints the figures so far."""

from __future__ import annotations

import builtins
import gc
import os
import resource
import signal
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from referee.authoring import runs
from referee.authoring.balance import Tally, median, percentile
from referee.authoring.runs import CHUNKS_AHEAD, Settings, max_jobs, play_games
from referee.cli.commands import main
from referee.language.loader import load_spec

RULES = Path(__file__).parent.parent / "rules"
HUGE = "9" * 5000  # past int()'s digit limit: refused as a number, not a traceback


def run(*args: str, typed: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=typed)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, result.stderr


OUT_OF_RANGE = [
    (["simulate", "go-fish", "-p", "3", "-g", "0"], "--games takes a whole number from 1"),
    (["simulate", "go-fish", "-p", "3", "-g", "1000000001"], "--games takes"),
    (["simulate", "go-fish", "-p", "3", "-g", "-5"], "--games takes"),
    (["simulate", "go-fish", "-p", "3", "-g", "1_000"], "--games takes"),
    (["simulate", "go-fish", "-p", "3", "-g", "\u0663"], "--games takes"),  # Arabic-Indic 3
    (["simulate", "go-fish", "-p", "3", "-g", HUGE], "(5000 characters)"),
    (["simulate", "go-fish", "-p", "3", "-j", "5000"], "--jobs is a number of processes"),
    (["simulate", "go-fish", "-p", "3", "-j", "-1"], "--jobs takes a number of processes"),
    (["simulate", "go-fish", "-p", "3", "-s", "-1"], "--seed takes a whole number"),
    (["simulate", "go-fish", "-p", "3", "-s", "1" * 101], "at most 100 digits"),
    (["simulate", "go-fish", "-p", "3", "--max-moves", "0"], "--max-moves takes"),
    (["simulate", "go-fish", "-p", "3", "--max-moves", "1000001"], "--max-moves takes"),
    (["simulate", "go-fish", "-p", "3", "--target", "0"], "--target takes"),
    (["simulate", "go-fish", "-p", "3", "--target", "100001"], "--target takes"),
    (["simulate", "go-fish", "-p", "1"], "Go Fish is for 2 to 6 players, not 1"),
    (["simulate", "go-fish", "-p", "7"], "Go Fish is for 2 to 6 players, not 7"),
    (["simulate", "go-fish", "-p", "17"], "Go Fish is for 2 to 6 players, not 17"),
    (["simulate", "go-fish", "-p", "x"], "--players takes a number of players"),
    (["lint", "go-fish", "-g", "-1"], "--games takes a whole number from 0"),
    (["lint", "go-fish", "-g", "1000001"], "--games takes"),
    (["play", "go-fish", "-p", "Ann Bob", "--target", "0"], "--target takes"),
    (["play", "go-fish", "-p", "Ann Bob", "--target", "100001"], "--target takes"),
    (["play", "go-fish", "-p", "Ann Bob", "--deal", "seed", "1" * 101], "at most 100 digits"),
]


@pytest.mark.parametrize(("args", "words"), OUT_OF_RANGE,
                         ids=[" ".join(a)[:60] for a, _ in OUT_OF_RANGE])
def test_an_out_of_range_value_is_a_one_line_usage_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], words: str) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(runs, "play_game", _never)
    monkeypatch.setattr(runs.simulate, "seeds", _no_seeds)  # not even a list of them
    status, out, err = run(*args, typed="quit\n")
    assert status == 2, err
    assert out == "" and err.count("\n") == 1 and err.startswith("usage: "), err
    assert words in err and "Traceback" not in err
    assert len(err) < 400  # a 5,000-digit value is not quoted whole
    assert list(tmp_path.iterdir()) == []  # play wrote no transcript


def _never(*args: Any) -> Any:
    raise AssertionError("a game was played")


def _no_seeds(seed: int, games: int) -> Iterator[int]:
    raise AssertionError("a run started")
    yield 0


def test_jobs_are_capped_before_any_process_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runs, "_workers", _never)
    status, _, err = run("simulate", "go-fish", "-p", "3", "-j", str(max_jobs() + 1))
    assert status == 2 and f"to {max_jobs()} (" in err
    with pytest.raises(Exception, match="--jobs"):
        spec, settings = _settings()
        play_games(spec, settings, 0, 10, jobs=max_jobs() + 1)


def test_click_s_own_usage_errors_are_one_line_too() -> None:
    for args in (["simulate"], ["simulate", "go-fish", "--gmaes", "3"], ["nonsense"]):
        status, _, err = run(*args)
        assert status == 2 and err.count("\n") == 1 and err.startswith("usage: "), err


def _settings(max_moves: int = 3) -> tuple[Any, Settings]:
    spec = load_spec(RULES / "go-fish.rules")
    return spec, Settings(spec.source, (), spec.name, 3, max_moves=max_moves)


def _kept_after(games: int) -> int:
    """The bytes a run of ``games`` short games still holds once it has ended."""
    spec, settings = _settings()
    gc.collect()
    tracemalloc.start()
    try:
        done = play_games(spec, settings, 0, games)
        assert done.tally.games == games
        gc.collect()
        kept, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return kept


@pytest.mark.slow
def test_a_run_keeps_the_same_memory_for_ten_times_the_games() -> None:
    _kept_after(5)  # caches warm
    few, many = _kept_after(200), _kept_after(2000)
    assert many - few < 8_000, (few, many)  # 1,800 more games, not 1,800 more records


def test_a_huge_run_interrupted_early_used_little_memory(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real = runs.play_game
    played = 0

    def stop_after_twenty(*args: Any) -> Any:
        nonlocal played
        played += 1
        if played > 20:
            raise KeyboardInterrupt
        return real(*args)

    run("simulate", "go-fish", "-p", "3", "-g", "5")  # the rules compiled, the caches warm
    monkeypatch.setattr(runs, "play_game", stop_after_twenty)
    gc.collect()
    tracemalloc.start()
    try:
        status, out, err = run("simulate", "go-fish", "-p", "3", "-g", "1000000")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert status == 130
    assert out.startswith("Go Fish: 20 games, 3 players, seed 0")
    assert "interrupted: the figures count the 20 games played of 1000000" in err
    assert peak < 2_000_000, peak  # a list of a million seeds alone takes some 40 MB


def test_the_workers_are_given_a_few_chunks_at_a_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = 0

    def counted_seeds(seed: int, games: int) -> Iterator[int]:
        nonlocal drawn
        for number in range(games):
            drawn += 1
            yield number

    class Inline:
        """Plays each chunk as it is drawn; records the bound it was given (the bound
        itself is tests/test_workers.py's)."""

        def __init__(self, jobs: int) -> None:
            self.ahead = 0

        def results(self, tasks: Iterator[Any], ahead: int) -> Iterator[Any]:
            self.ahead = ahead
            for _, start, seeds in tasks:
                yield [records(start + i) for i in range(len(seeds))], None

        def stop(self) -> None: ...

    workers: list[Inline] = []
    monkeypatch.setattr(runs.simulate, "seeds", counted_seeds)
    monkeypatch.setattr(runs, "_workers", lambda jobs: workers.append(Inline(jobs))
                        or workers[-1])
    spec, settings = _settings()
    done = play_games(spec, settings, 0, 100_000, jobs=2)
    assert done.tally.games == 100_000 and drawn == 100_000
    assert workers[0].ahead == 2 * (1 + CHUNKS_AHEAD)


def records(number: int) -> Any:
    from referee.authoring.balance import GameRecord

    return GameRecord(True, False, False, 10 + number % 7, 1, (number % 3,), (1, 2, 3), 4, 0)


def test_lengths_are_tallied_exactly() -> None:
    tally = Tally(3).add_all(records(n) for n in range(1001))
    lengths = sorted(10 + n % 7 for n in range(1001))
    assert tally.lengths == {m: lengths.count(m) for m in set(lengths)}
    assert median(tally.lengths) == lengths[500]
    assert percentile(tally.lengths, 0.95) == lengths[950]


def test_ctrl_c_in_a_huge_run_prints_the_figures_so_far(tmp_path: Path) -> None:
    """A real process with a hundred million games to play and a memory limit: it starts
    at once (the first transcript appears), and SIGINT ends it with the figures so far."""
    out = tmp_path / "games"

    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)}
    child = subprocess.Popen(
        [sys.executable, "-m", "referee", "simulate", "go-fish", "-p", "3",
         "-g", "100000000", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        preexec_fn=limit_memory)
    try:
        deadline = time.monotonic() + 120
        while not (out / "go-fish-0002.txt").exists():
            assert child.poll() is None, child.communicate()
            assert time.monotonic() < deadline, "no game was played"
            time.sleep(0.05)
        child.send_signal(signal.SIGINT)
        stdout, stderr = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert child.returncode == 130, stderr
    assert stdout.startswith("Go Fish: ") and "seed 0" in stdout.splitlines()[0]
    assert "of 100000000" in stderr and "Traceback" not in stderr


def test_plot_without_matplotlib_is_refused_before_any_game(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    real_import = builtins.__import__

    def no_matplotlib(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    monkeypatch.setattr(runs, "play_game", _never)
    status, out, err = run("simulate", "go-fish", "-p", "3", "-g", "50", "--plot",
                           str(tmp_path / "a.svg"))
    assert status == 2 and out == "" and "pip install 'referee[plot]'" in err


def test_plot_into_a_missing_folder_is_refused_before_any_game(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    monkeypatch.setattr(runs, "play_game", _never)
    status, out, err = run("simulate", "go-fish", "-p", "3", "--plot",
                           str(tmp_path / "no" / "a.svg"))
    assert status == 2 and out == "" and "there is no folder" in err
