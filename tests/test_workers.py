"""The worker processes of ``simulate --jobs``: results in the order of the tasks, a
bounded number of tasks out, and a worker that dies (killed, out of memory, a crash in
C code) ends the run at once with one clear line, never a hang.

The tests where a worker dies run in a process of their own, in a session of its own,
with a generous time limit: a parent that waited for the dead worker forever fails the
test instead of hanging the suite, and its workers are killed with it."""

from __future__ import annotations

import errno
import json
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from multiprocessing.context import ForkProcess
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.authoring.workers import Workers
from referee.cli.commands import main

ROOT = Path(__file__).parent.parent
LIMIT = 120  # seconds: far more than any of these runs takes; reached only by a hang
STOPPED = re.compile(r"stopped: worker process \d+ ended before it answered \(([^)]*)\): "
                     r"the figures count the \d+ games played of 40")


def square(number: int) -> int:
    return number * number


def square_slowly_every_tenth(number: int) -> int:
    """A task now and then takes longer, so that later ones end before it."""
    if number % 10 == 0:
        time.sleep(0.05)
    return number * number


def test_results_come_in_the_order_of_the_tasks() -> None:
    workers = Workers(3, square_slowly_every_tenth)
    try:
        assert list(workers.results(range(100), ahead=5)) == [n * n for n in range(100)]
    finally:
        workers.stop()
    assert not any(process.is_alive() for process in workers.processes)


def test_at_most_ahead_tasks_are_out() -> None:
    drawn = 0

    def tasks() -> Iterator[int]:
        nonlocal drawn
        for number in range(300):
            drawn += 1
            yield number

    workers = Workers(2, square)
    try:
        for given, _ in enumerate(workers.results(tasks(), ahead=4)):
            assert drawn - given <= 4  # drawn, less those yielded before this one
    finally:
        workers.stop()
    assert drawn == 300


def isolated(code: str, *arguments: str) -> tuple[int, str, str]:
    """Run ``code`` in a fresh interpreter in a session of its own; on a hang, kill the
    session (the process and its workers) and fail."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent(code), *arguments],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=env, start_new_session=True)
    try:
        out, err = child.communicate(timeout=LIMIT)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
        pytest.fail(f"no answer in {LIMIT} s: the parent waits for a dead worker")
    with pytest.raises(ProcessLookupError):  # no worker outlives the run
        os.killpg(child.pid, 0)
    return child.returncode, out, err


DYING = """
    import os, resource, signal, sys
    from referee.authoring import runs
    from referee.cli.entry import main

    real, parent = runs.play_game, os.getpid()

    def play_game(engine, settings, number, seed):
        if number == 5 and os.getpid() != parent:  # in the worker that plays game 5
            {death}
        return real(engine, settings, number, seed)

    runs.play_game = play_game
    sys.argv = ["referee", *sys.argv[1:]]
    main()
"""


@pytest.mark.parametrize(("death", "how"), [
    ("os.kill(os.getpid(), signal.SIGKILL)", "killed by signal 9"),  # as the OOM killer
    ("resource.setrlimit(resource.RLIMIT_CORE, (0, 0)); "  # a crash in C, without a core
     "os.kill(os.getpid(), signal.SIGSEGV)", "killed by signal 11"),
    ("os._exit(3)", "exit status 3"),
])
def test_a_worker_that_dies_ends_the_run_with_the_figures_so_far(death: str,
                                                                 how: str) -> None:
    status, out, err = isolated(DYING.format(death=death), "simulate", "go-fish", "-p", "3",
                                "-g", "40", "-j", "2")
    assert status == 2, err
    assert out.startswith("Go Fish: ") and "games, 3 players" in out.splitlines()[0]
    found = STOPPED.fullmatch(err.strip())
    assert found is not None and found.group(1) == how, err
    assert "Traceback" not in err


def test_a_worker_that_dies_in_a_json_run_leaves_a_json_report() -> None:
    status, out, err = isolated(DYING.format(death="os.kill(os.getpid(), signal.SIGKILL)"),
                                "simulate", "go-fish", "-p", "3", "-g", "40", "-j", "2",
                                "--json")
    assert status == 2 and STOPPED.fullmatch(err.strip()), err
    figures = json.loads(out)
    assert figures["interrupted"] is True and figures["games"] < 40


def test_a_worker_killed_from_outside_while_idle_or_busy_is_noticed() -> None:
    """The parent kills a worker as it draws the fourth task, whatever that worker is
    doing; the results stop there with the reason."""
    code = """
        import os, signal
        from referee.authoring.workers import Workers, WorkerDied

        def tasks(workers):
            for number in range(1000):
                if number == 3:
                    os.kill(workers.processes[1].pid, signal.SIGKILL)
                yield number

        workers = Workers(2, abs)
        try:
            for result in workers.results(tasks(workers), ahead=4):
                pass
        except WorkerDied as exc:
            print(exc)
        finally:
            workers.stop()
    """
    status, out, err = isolated(code)
    assert status == 0 and err == "", err
    assert re.fullmatch(r"worker process \d+ ended before it answered \(killed by signal 9\)",
                        out.strip()), out


def test_workers_the_system_will_not_start_are_a_usage_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real = ForkProcess.start
    started = 0

    def start(self: ForkProcess) -> None:
        nonlocal started
        started += 1
        if started > 1:
            raise OSError(errno.EAGAIN, os.strerror(errno.EAGAIN))
        real(self)

    monkeypatch.setattr(ForkProcess, "start", start)
    result = CliRunner().invoke(main, ["simulate", "go-fish", "-p", "3", "-g", "20", "-j", "2"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.strip() == (f"usage: cannot start 2 worker processes: "
                                     f"{os.strerror(errno.EAGAIN)}; ask for fewer with --jobs")
    assert not multiprocessing.active_children()  # the one started was ended
