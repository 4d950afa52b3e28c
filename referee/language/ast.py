"""The rule file as read: a tree of statements, each keeping its source span.

The parser builds one generic node shape; referee/language/compiler.py gives each
statement kind its meaning.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.errors import Span
from referee.values import frozen


@frozen
class Word:
    """A word the author chose (a number, a rank, a card, a name) and its place."""

    text: str
    span: Span


@frozen
class Node:
    """One statement or part of one.

    ``kind`` is the grammar rule's name, ``words`` the author's own words,
    ``phrase`` the fixed wording of a ``phrase_*`` rule, lower-cased, and
    ``parts`` the nested rules in order.
    """

    kind: str
    span: Span
    words: tuple[Word, ...] = ()
    parts: tuple[Node, ...] = ()
    phrase: str = ""

    def part(self, kind: str) -> Node | None:
        """The first nested node of ``kind``, if any."""
        return next((p for p in self.parts if p.kind == kind), None)


@dataclass(frozen=True, slots=True, eq=False)
class RuleFile:
    """A parsed rule file: where it came from and its statements in order.

    Compared by identity: a file's parse is cached, so the same object stands
    for the same unchanged file.
    """

    path: str
    name: str
    statements: tuple[Node, ...]
    first_line: str = ""
