"""A place in a source text, and the line it points at with a caret under it.

Its own module so that a build can compile it (referee/compiled.py): a span is made
for every event read, and a compiled class makes one without running Python.
"""

from __future__ import annotations

from typing import Final

from referee.sanitize import printable
from referee.values import value

SHOWN_LINE: Final = 80  # the most characters of a source line an error shows


@value
class Span:
    """A place in a source text: 1-based line and column, and the line's text."""

    line: int
    column: int
    text: str
    source: str
    width: int

    def __init__(self, line: int, column: int, text: str = "", source: str = "",
                 width: int = 1) -> None:  # written out: compiled, a span is made natively
        self.line = line
        self.column = column
        self.text = text
        self.source = source
        self.width = width

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
        marks = max(1, min(self.width, len(text) - column + 1))
        shown = printable(text)
        if shown.isascii():
            return f"  {shown}\n  {' ' * (column - 1)}{'^' * marks}"
        before = _columns(shown[:column - 1])  # a wide character takes two, a mark none
        under = max(1, _columns(shown[column - 1:column - 1 + marks]))
        return f"  {shown}\n  {' ' * before}{'^' * under}"


def _columns(text: str) -> int:
    """The terminal columns ``text`` (made printable) takes: two for a wide or
    fullwidth character, none for a combining mark, one for any other.

    >>> _columns("Jose\u0301"), _columns("\U0001f600x"), _columns("\u738b\u674e")
    (4, 3, 4)
    """
    from unicodedata import category, east_asian_width  # only for a line not ASCII

    return sum(0 if category(c) in ("Mn", "Me") else 2 if east_asian_width(c) in "WF" else 1
               for c in text)
