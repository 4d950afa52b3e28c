"""What the live table says and writes: its :class:`Reply` to a typed line, the marks
it writes in the transcript (which check and --resume act on), a note's line, and a
typed event as shown back and as numbered in the file."""

from __future__ import annotations

from enum import Enum

from referee.errors import bounded, printable
from referee.transcript.events import Event
from referee.transcript.notation import ACCEPTED_MARK, DONE_MARK
from referee.values import frozen, replace

CUT_MARK = "# cut short, not played:"  # a last line a kill cut short, kept on --resume


@frozen
class Reply:
    """The referee's answer to one typed line: ``line``, one line for the table (and for
    a script reading standard output); ``output``, what a command shows (a table, the
    history); ``details``, more lines for people at a terminal (the typed line with a
    caret, the lines that prove a contradiction)."""

    line: str
    output: str = ""
    details: str = ""
    refused: bool = False
    done: bool = False


def note_line(note: str) -> str:
    """The line a typed note is kept as: ``# NOTE``, unless that would read as one of
    the referee's own marks (``# done``, ``# accepted by the table: ...``, ``# cut
    short ...``), which check and --resume act on: then ``# note: NOTE``."""
    line = f"# {note}"
    if line == DONE_MARK or line.startswith((ACCEPTED_MARK, CUT_MARK)):
        return f"# note: {note}"
    return line


def typed(event: Event) -> str:
    """The event as it was typed, safe to show and cut to a readable length."""
    return bounded(printable(event.span.text[event.span.column - 1:][:event.span.width]))


def dropped(event: Event) -> str:
    """The words that say a contradiction waiting for the table was dropped."""
    return f"dropped the contradiction on {typed(event)} (never recorded); "


def at_line(event: Event, line: int) -> Event:
    """``event`` numbered as the line it will have in the file."""
    return replace(event, span=replace(event.span, line=line))


class Command(Enum):
    """The words a live table types besides events."""

    STATUS = "status"
    LEGAL = "legal"
    KNOWN = "known"
    LAST = "last"
    HISTORY = "history"
    UNDO = "undo"
    ACCEPT = "accept"
    SAVE = "save"
    HAND = "hand"
    DONE = "done"
    HELP = "help"
    QUIT = "quit"
