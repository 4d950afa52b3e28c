"""A rule file's ``extends``: the file and each base it names, read and parsed, the
furthest base first (the layers the compiler puts together); at most one ``extends``
a file, no cycle, at most ``MAX_EXTENDS_DEPTH`` files deep."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from referee.errors import RefereeError
from referee.language.compiler import fail
from referee.language.rulefiles import find_rule_file, no_rule_file
from referee.reading import Unreadable, quoted

if TYPE_CHECKING:  # the syntax tree is only built when a rule file is parsed
    from referee.language.ast import RuleFile

MAX_EXTENDS_DEPTH = 16


def load_layers(path: Path) -> list[RuleFile]:
    """The parsed rule file at ``path`` and its bases, the furthest base first."""
    return _load_layers(path, [])


def _load_layers(path: Path, chain: list[Path]) -> list[RuleFile]:
    from referee.language.syntax import parse_rule_file  # Lark: imported only to parse

    resolved = path.resolve()
    rule_file = parse_rule_file(path)
    extends = [s for s in rule_file.statements if s.kind == "extends"]
    if len(extends) > 1:
        fail("a rule file extends at most one other file", extends[1].span)
    if not extends:
        return [rule_file]
    word = extends[0].words[0]
    base = find_rule_file(word.text, path.parent)
    if base is None:
        fail(f"extends {quoted(word.text, 80)}, but {no_rule_file(word.text)}", word.span)
    names = [p.stem for p in [*chain, resolved]]
    if base.resolve() in [*chain, resolved]:
        fail(f"extends forms a cycle: {' -> '.join([*names, base.stem])}", word.span)
    if len(chain) >= MAX_EXTENDS_DEPTH:
        fail(f"extends goes deeper than {MAX_EXTENDS_DEPTH} files", word.span)
    try:
        return [*_load_layers(base, [*chain, resolved]), rule_file]
    except Unreadable as exc:  # blamed on this line, and on no line further out
        raise RefereeError(exc.kind, exc.message, word.span) from None
