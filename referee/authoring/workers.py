"""Worker processes that do tasks in order, and notice at once when one of them dies.

``multiprocessing.Pool`` loses the task of a worker that dies (killed, out of
memory, a crash in C code) and waits for its result forever. Here each worker
has a pipe of its own: the parent gives one task at a time to an idle worker,
waits on every busy worker's pipe and process together, and a worker that ends
without answering is a :class:`WorkerDied` at once. The workers are forked when
made (before a caller starts a thread), ignore Ctrl-C (the parent decides), and
are ended by :meth:`Workers.stop` whatever they are doing.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Generic, TypeVar

Task = TypeVar("Task")
Result = TypeVar("Result")
STOP_WAIT = 5.0  # seconds a worker is given to end on SIGTERM before it is killed


class WorkerDied(Exception):
    """A worker process ended without giving the result of its task."""


class Workers(Generic[Task, Result]):
    """``jobs`` processes that each apply ``work`` to the tasks they are given."""

    def __init__(self, jobs: int, work: Callable[[Task], Result]) -> None:
        methods = multiprocessing.get_all_start_methods()
        context = (multiprocessing.get_context("fork") if "fork" in methods
                   else multiprocessing.get_context("spawn"))
        self.pipes: list[Connection] = []
        self.processes: list[BaseProcess] = []
        try:
            for _ in range(jobs):
                ours, theirs = context.Pipe()
                self.pipes.append(ours)
                process = context.Process(target=_serve, args=(theirs, work), daemon=True)
                process.start()
                theirs.close()  # the worker's end lives in the worker: its death closes it
                self.processes.append(process)
        except BaseException:  # the system refused a process: none is left behind
            self.stop()
            raise

    def results(self, tasks: Iterable[Task], ahead: int) -> Iterator[Result]:
        """The results of ``tasks``, in the order of the tasks; at most ``ahead`` tasks
        are drawn and not yet yielded at any time, so a long run keeps little."""
        pending = iter(tasks)
        idle = list(reversed(range(len(self.processes))))
        busy: dict[int, int] = {}  # worker: the number of its task
        done: dict[int, Result] = {}  # results that came before an earlier one
        drawn = yielded = 0
        exhausted = False
        while True:
            while idle and not exhausted and drawn - yielded < ahead:
                try:
                    task = next(pending)
                except StopIteration:
                    exhausted = True
                    break
                worker = idle.pop()
                self._give(worker, task)
                busy[worker] = drawn
                drawn += 1
            if yielded in done:
                yield done.pop(yielded)
                yielded += 1
            elif not busy:
                return
            else:
                for worker in self._answered(busy):
                    done[busy.pop(worker)] = self._take(worker)
                    idle.append(worker)

    def stop(self) -> None:
        """End every worker now, busy or not."""
        for process in self.processes:
            if process.is_alive():
                process.terminate()
        for process in self.processes:
            process.join(STOP_WAIT)
            if process.is_alive():
                process.kill()
                process.join()
        for pipe in self.pipes:
            pipe.close()

    def _give(self, worker: int, task: Task) -> None:
        try:
            self.pipes[worker].send(task)
        except OSError:  # its end of the pipe is closed: it is gone
            raise self._died(worker) from None

    def _answered(self, busy: dict[int, int]) -> list[int]:
        """The busy workers that answered; waits until one answers or dies."""
        pipes = {self.pipes[worker]: worker for worker in busy}
        ends = {self.processes[worker].sentinel: worker for worker in busy}
        ready = wait([*pipes, *ends])
        answered = sorted(pipes[item] for item in ready if isinstance(item, Connection))
        for item in ready:
            if isinstance(item, int) and ends[item] not in answered:
                raise self._died(ends[item])
        return answered

    def _take(self, worker: int) -> Result:
        try:
            result: Result = self.pipes[worker].recv()
        except (EOFError, OSError):  # it died before its answer was whole
            raise self._died(worker) from None
        return result

    def _died(self, worker: int) -> WorkerDied:
        process = self.processes[worker]
        process.join(STOP_WAIT)
        code = process.exitcode
        how = (f"killed by signal {-code}" if code is not None and code < 0 else
               f"exit status {code}" if code is not None else "it stopped answering")
        return WorkerDied(f"worker process {process.pid} ended before it answered ({how})")


def _serve(pipe: Connection, work: Callable[[Task], Result]) -> None:
    """A worker: do each task that comes down the pipe and send back its result, until
    the parent closes the pipe."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            task = pipe.recv()
        except (EOFError, OSError):  # the parent closed its end, or is gone
            return
        result = work(task)
        try:
            pipe.send(result)
        except OSError:
            return
