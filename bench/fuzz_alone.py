"""Transcripts checked alone (bench/fuzz.py): each in a process that shares no state
with any other check.

A pristine parent is forked before the fuzz checks anything: it has imported the
referee (and the solvers it may load) but checked nothing. For each transcript it
forks a child that checks that one file, sends back its fingerprint and exits; so no
memo, cache or module state filled by another file can reach the verdict. A fork of
a process that has done nothing costs a few milliseconds, and the child compiles its
rule file again (from the disk cache), so the fuzz checks a sample alone."""

from __future__ import annotations

import contextlib
import os
import signal
from multiprocessing.connection import Connection, Pipe
from pathlib import Path
from types import FrameType

from referee.cli.output import json_text
from referee.transcript.check import Verdict, check_text

Request = tuple[str, str, str, bool]  # text, source, the folder it is near, --knowledge


class _Late(BaseException):
    """The alarm: a check took longer than the time limit."""


def fingerprint(verdict: Verdict) -> str:
    """All a verdict says: its JSON and its report."""
    return json_text(verdict.to_json()) + "\n" + verdict.report()


def check_alone(request: Request) -> str:
    """A transcript's fingerprint, checked in this process."""
    text, source, near, knowledge = request
    return fingerprint(check_text(text, source, Path(near), knowledge=knowledge))


class PristineChecker:
    """A parent process that has checked nothing, forking a child per transcript."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.checked = 0
        self._ours, theirs = Pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the pristine parent
            self._ours.close()
            status = 0
            try:
                _serve(theirs, timeout)
            except BaseException:
                status = 1
            finally:
                os._exit(status)
        theirs.close()

    def check(self, request: Request) -> str:
        """The fingerprint of ``request``'s transcript checked alone (or ``hang``, or
        ``traceback: ...``)."""
        self._ours.send(request)
        if not self._ours.poll(self.timeout * 3 + 5):
            raise TimeoutError("the pristine checker did not answer")
        answer: str = self._ours.recv()
        self.checked += 1
        return answer

    def close(self) -> None:
        """Stop the pristine parent and wait for it (its memory then counts among the
        children's)."""
        with contextlib.suppress(OSError):
            self._ours.send(None)
        self._ours.close()
        os.waitpid(self.pid, 0)


def _serve(connection: Connection, timeout: float) -> None:
    while True:
        request = connection.recv()
        if request is None:
            return
        answers, into = Pipe(duplex=False)
        child = os.fork()
        if child == 0:  # checks this one file, then exits
            answers.close()
            connection.close()
            try:
                into.send(_checked(request, timeout))
            finally:
                os._exit(0)
        into.close()
        answer = answers.recv() if answers.poll(timeout * 2 + 5) else "hang"
        answers.close()
        if answer == "hang":
            with contextlib.suppress(OSError):
                os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)
        connection.send(answer)


def _checked(request: Request, timeout: float) -> str:
    def late(signum: int, frame: FrameType | None) -> None:
        raise _Late

    signal.signal(signal.SIGALRM, late)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        return check_alone(request)
    except _Late:
        return "hang"
    except Exception as exc:
        return f"traceback: {type(exc).__name__}: {str(exc)[:200]}"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
