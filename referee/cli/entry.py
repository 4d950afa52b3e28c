"""The ``referee`` program. ``referee check FILE...`` (with ``--json`` at most) is read
here and run without importing click, a third of a cold check's start-up; every other
command line goes to click's commands in referee/cli/commands.py. A check runs with the
cyclic garbage collector paused (from the imports on; referee/cli/check_command.py
collects should objects pile up), and its objects are frozen before the process ends,
so that the interpreter's last collection need not walk them all: a sixth of a cold
check's time."""

from __future__ import annotations

import gc
import sys

QUICK_FLAGS = ("--json",)


def main() -> None:
    """Run the command line in ``sys.argv``."""
    arguments = sys.argv[1:]
    if is_quick_check(arguments):
        gc.disable()  # imports and checks make no garbage only the collector could free
        status = quick_check(arguments[1:])
        gc.freeze()  # the process ends: no last pass over every object it made
        sys.exit(status)
    from referee.cli.commands import main as commands

    commands()


def is_quick_check(arguments: list[str]) -> bool:
    """Whether the command line is ``check`` and transcripts (``-``: standard input),
    with no option but ``--json``: one that click would read the same way."""
    if arguments[:1] != ["check"]:
        return False
    files = [word for word in arguments[1:] if word not in QUICK_FLAGS]
    return bool(files) and all(word == "-" or not word.startswith("-") for word in files)


def quick_check(arguments: list[str]) -> int:
    """``referee check`` without click; Ctrl-C exits 130, as under click."""
    from referee.cli.output import INTERRUPTED, echo

    try:
        from pathlib import Path

        from referee.cli.check_command import check_transcripts

        files = tuple(Path(word) for word in arguments if word not in QUICK_FLAGS)
        return check_transcripts(files, as_json="--json" in arguments)
    except KeyboardInterrupt:
        echo("interrupted", err=True)
        return INTERRUPTED
