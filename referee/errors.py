"""Error kinds and the one exception every user-facing failure travels in."""

from __future__ import annotations

from enum import Enum

from referee.values import value

SHOWN_LINE = 80  # the most characters of a source line an error shows


class Kind(Enum):
    """What went wrong, as NOTATION.md names it (plus ``rules`` and ``usage``)."""

    __hash__ = object.__hash__  # members are singletons: hash by identity, fast

    SYNTAX = "syntax"
    HEADER = "header"
    UNKNOWN = "unknown"
    TURN = "turn"
    ILLEGAL = "illegal"
    CONTRADICTION = "contradiction"
    OVER = "over"
    RULES = "rules"
    USAGE = "usage"


@value
class Span:
    """A place in a source text: 1-based line and column, and the line's text."""

    line: int
    column: int
    text: str = ""
    source: str = ""
    width: int = 1

    def caret(self) -> str:
        r"""The source line with a caret under the column; of a long line, only the
        stretch around the column.

        >>> shown = Span(1, 300, "x" * 500, width=3).caret().split("\n")
        >>> len(shown[0]), shown[0][2:5], shown[1].index("^^^") - 2
        (88, '...', 43)
        """
        if not self.text:
            return ""
        text, column = self.text, self.column
        if len(text) > SHOWN_LINE:
            start = max(0, min(column - 1 - SHOWN_LINE // 2, len(text) - SHOWN_LINE))
            end = start + SHOWN_LINE
            text = ("..." if start else "") + text[start:end] + ("..." if end < len(text) else "")
            column -= start - (3 if start else 0)
        marks = "^" * max(1, min(self.width, len(text) - column + 1))
        return f"  {printable(text)}\n  {' ' * (column - 1)}{marks}"


def printable(text: str) -> str:
    r"""``text`` safe to show on a terminal, one character for one: control and format
    characters (escapes, a lone CR, bidi overrides, line separators) become ``\ufffd``
    and a tab a space, so a hostile line cannot rewrite the screen and the caret
    stays under its column.

    >>> printable("Ann\x1b[2J\tasks\u202e") == "Ann\ufffd[2J asks\ufffd"
    True
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else " " if c == "\t" else "\ufffd" for c in text)


def undecodable(data: bytes, error: UnicodeDecodeError, source: str) -> Span:
    """The place of the first byte of ``data`` that is not UTF-8."""
    line = data[: error.start].count(b"\n") + 1
    line_start = data.rfind(b"\n", 0, error.start) + 1
    line_end = data.find(b"\n", error.start)
    shown = data[line_start: None if line_end < 0 else line_end].decode("utf-8", "replace")
    column = len(data[line_start: error.start].decode("utf-8", "replace")) + 1
    return Span(line, column, shown, source)


class RefereeError(Exception):
    """A failure a person caused and can act on: a kind, a message, a place."""

    def __init__(self, kind: Kind, message: str, span: Span | None = None,
                 because: tuple[tuple[int, str], ...] = ()) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.span = span
        self.because = because  # (line, reason): the earlier events that prove a contradiction

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
