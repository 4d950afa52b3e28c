"""A command's output on the standard streams, which may fail (a full disk, a closed
pipe): written without click, so that ``referee check`` need not import it.

Every command writes here, and what it writes is made safe here (referee/sanitize.py):
text from files never reaches a terminal as control sequences, and JSON carries such
characters escaped."""

from __future__ import annotations

import contextlib
import io
import os
import sys
from typing import TextIO

from referee.sanitize import json_escaped, printable

INTERRUPTED = 130  # the shell's status for a command stopped by Ctrl-C


def echo(text: str, err: bool = False) -> None:
    """Print ``text``, made printable, and a newline, at once; output that cannot be
    written ends the command with status 2 and one line on standard error."""
    echo_drawn(printable(text), err)


def echo_drawn(text: str, err: bool = False) -> None:
    """Print ``text`` as it is: what rich drew (referee/live/display.py) from cells made
    printable before drawing, whose escapes are rich's own colours."""
    stream = sys.stderr if err else sys.stdout
    try:
        _write(stream, text + "\n")
    except OSError as exc:
        silence(stream)  # its buffer would fail again at exit
        if not err:
            with contextlib.suppress(OSError):
                _write(sys.stderr, f"referee: cannot write the output: {exc.strerror or exc}\n")
        sys.exit(2)


def _write(stream: TextIO, text: str) -> None:
    """Write and flush; a character the stream's encoding lacks is replaced, not fatal."""
    try:
        stream.write(text)
    except UnicodeEncodeError:
        encoding = stream.encoding or "ascii"
        stream.write(text.encode(encoding, "replace").decode(encoding))
    stream.flush()


def silence(stream: TextIO) -> None:
    """Point a standard stream that failed at the null device, so that its buffer does
    not fail again at exit."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream.fileno())
        os.close(null)
    except (OSError, ValueError, io.UnsupportedOperation):
        pass


def json_text(value: object, indent: int | None = None) -> str:
    """``value`` as JSON text, every character that is not printable escaped (json is
    imported only by the commands that print it)."""
    import json

    return json_escaped(json.dumps(value, indent=indent, ensure_ascii=False))
