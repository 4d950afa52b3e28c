"""Error kinds and the one exception every user-facing failure travels in."""

from __future__ import annotations

import re
from enum import StrEnum

from referee.sanitize import printable as printable  # the reports' (and others') one way
from referee.spans import Span as Span  # made on every event: compiled where a build can

MAX_WORD = 200  # the most characters of one word (a name, a token, a path) a message keeps
MAX_MESSAGE = 10_000  # the most characters of a message (a contradiction's proof is long)
_LONG_WORD = re.compile(rf"\S{{{MAX_WORD + 1},}}")


class Kind(StrEnum):
    """What went wrong, as NOTATION.md names it (plus ``rules`` and ``usage``). A
    ``str``: ``error.kind == "turn"`` holds, as for a verdict's ``error.kind``.

    >>> Kind.TURN == "turn", f"{Kind.TURN}", Kind("usage") is Kind.USAGE
    (True, 'turn', True)
    """

    __hash__ = str.__hash__  # a str's: equal to its value, so hashed as it (and fast)

    SYNTAX = "syntax"
    HEADER = "header"
    UNKNOWN = "unknown"
    TURN = "turn"
    ILLEGAL = "illegal"
    CONTRADICTION = "contradiction"
    OVER = "over"
    RULES = "rules"
    USAGE = "usage"


def undecodable(data: bytes, error: UnicodeDecodeError, source: str) -> Span:
    """The place of the first byte of ``data`` that is not UTF-8."""
    line = data[: error.start].count(b"\n") + 1
    line_start = data.rfind(b"\n", 0, error.start) + 1
    line_end = data.find(b"\n", error.start)
    shown = data[line_start: None if line_end < 0 else line_end].decode("utf-8", "replace")
    column = len(data[line_start: error.start].decode("utf-8", "replace")) + 1
    return Span(line, column, shown, source)


def bounded(message: str) -> str:
    """``message`` of a readable length whatever it quotes: a word longer than
    ``MAX_WORD`` keeps its two ends around an ellipsis, and a message longer than
    ``MAX_MESSAGE`` its start. Every message is cut where it quotes what was typed
    (:func:`referee.reading.quoted`); this is the backstop for what was not.

    >>> message = bounded("it is " + "A" * 10**7 + "'s turn, not Bob's")
    >>> len(message), message[-48:]
    (247, "AAAAAAAA's (10000002 characters) turn, not Bob's")
    """
    if len(message) <= MAX_WORD:
        return message
    message = _LONG_WORD.sub(_cut_word, message)
    if len(message) > MAX_MESSAGE:
        message = f"{message[:MAX_MESSAGE]}... ({len(message)} characters)"
    return message


def _cut_word(match: re.Match[str]) -> str:
    word = match.group()
    return f"{word[:MAX_WORD // 2]}...{word[-MAX_WORD // 2:]} ({len(word)} characters)"


class RefereeError(ValueError):
    """A failure a person caused and can act on: a kind, a message, a place. A
    ``ValueError``, so that a program may catch it as bad input."""

    def __init__(self, kind: Kind, message: str, span: Span | None = None,
                 because: tuple[tuple[int, str], ...] = ()) -> None:
        message = bounded(message)
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.span = span
        # (line, reason): the earlier events that prove a contradiction
        self.because = tuple((line, bounded(why)) for line, why in because) if because else ()

    @property
    def exit_status(self) -> int:
        """2 for bad usage or a bad rule file, 1 for an error in a transcript."""
        return 2 if self.kind in (Kind.RULES, Kind.USAGE) else 1

    def located(self, span: Span) -> RefereeError:
        """This error, placed at ``span`` unless it already has a place."""
        if self.span is None:
            self.span = span
        return self

    def report(self) -> str:
        """``file:line:column: kind: message`` and the line with a caret."""
        where = ""
        if self.span is not None:
            source = self.span.source or "<input>"
            where = f"{source}:{self.span.line}:{self.span.column}: "
        text = printable(f"{where}{self.kind.value}: {self.message}")
        caret = self.span.caret() if self.span else ""
        return f"{text}\n{caret}" if caret else text
