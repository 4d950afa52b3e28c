"""Lark set-up for the rules language, and parse errors people can act on."""

from __future__ import annotations

import re
from itertools import takewhile
from pathlib import Path

from lark import Lark, Token, Transformer, Tree, UnexpectedInput
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

from referee.caches import memo, memoized
from referee.errors import Kind, RefereeError, Span
from referee.language.ast import Node, RuleFile, Word
from referee.language.resources import grammar_path
from referee.reading import decode, line_feeds, lines_of, quoted, read_rule_file

_KEYWORD = re.compile(r'"([A-Za-z0-9\']+)"i')


def whole_word_keywords(grammar: str) -> tuple[str, dict[str, str]]:
    """Give each ``"word"i`` keyword of ``grammar`` a terminal that matches whole words only.

    Lark matches a string literal even as the start of a longer word (``to`` in
    ``too``); a keyword terminal that must end at a word boundary, and outranks
    WORD, reads ``too`` as a word instead. Returns the grammar and the keyword
    each new terminal stands for.
    """
    keywords: dict[str, str] = {}

    def terminal(match: re.Match[str]) -> str:
        word = match.group(1).lower()
        name = "KW_" + re.sub(r"[^A-Z0-9]", "_", word.upper())
        keywords[name] = word
        return name

    body = _KEYWORD.sub(terminal, grammar)
    definitions = "".join(
        f"\n{name}.2: /{re.escape(word)}(?![^\\s#:,])/i" for name, word in keywords.items())
    return body + definitions + "\n", keywords


@memoized()
def rules_parser() -> tuple[Lark, dict[str, str]]:
    """The LALR parser for rule files (built once), and its keyword terminals."""
    parser, keywords, _ = _node_parser()
    return parser, keywords


@memoized()
def _node_parser() -> tuple[Lark, dict[str, str], _ToNodes]:
    """The parser, its keywords, and the transformer it calls at each reduction: the
    nodes are made as the file is parsed, with no parse tree built and walked again.
    Every token is kept, so that a node's place is that of its first token."""
    grammar, keywords = whole_word_keywords(
        grammar_path("rules.lark").read_text(encoding="utf-8"))
    nodes = _ToNodes()
    parser = Lark(grammar, parser="lalr", keep_all_tokens=True, maybe_placeholders=False,
                  transformer=nodes)
    return parser, keywords, nodes


@memoized()
def statement_headings() -> tuple[str, ...]:
    """The words each statement starts with, read from the grammar, in its order.

    >>> statement_headings()[:3], "card values" in statement_headings()
    (('name', 'about', 'extends'), True)
    """
    parser, keywords = rules_parser()
    kinds = {symbol.name for rule in parser.rules if rule.origin.name in ("_statement", "_plain")
             for symbol in rule.expansion} - {"_plain"}
    headings: list[str] = []
    for rule in parser.rules:
        if rule.origin.name in kinds:
            lead = takewhile(lambda symbol: symbol.name in keywords, rule.expansion)
            heading = " ".join(keywords[symbol.name] for symbol in lead)
            if heading and heading not in headings:
                headings.append(heading)
    return tuple(headings)


def _is_heading(words: str) -> bool:
    return any(words == h or words.startswith(h + " ") for h in statement_headings())


def parse_rule_file(path: Path) -> RuleFile:
    """Read and parse one rule file; a problem raises a ``rules`` error with its place
    (a file that cannot be read has none: whoever names it gives the place)."""
    source = str(path)
    return parse_rules_text(decode(read_rule_file(path), source, Kind.RULES), source,
                            path.stem)


MAX_KEPT_PARSES = 128
MAX_KEPT_CHARS = 16 * 256 * 1024  # a whole extends chain of files at the size cap
_KEPT: dict[tuple[str, str, str], RuleFile] = memo("referee.language.syntax._KEPT")


def parse_rules_text(text: str, source: str, name: str) -> RuleFile:
    """Parse rule-file text; ``source`` names it in errors.

    Parses are remembered by text, so an unchanged file is parsed once and
    stands as the same RuleFile object; the parses kept are the latest used, within
    a bound on their count and on their text (a parse takes some 40 times its text).
    """
    key = (text, source, name)
    rule_file = _KEPT.pop(key, None) or _parse(text, source, name)
    _KEPT[key] = rule_file  # the latest used last
    held = sum(len(kept) for kept, _, _ in _KEPT)
    while len(_KEPT) > MAX_KEPT_PARSES or held > MAX_KEPT_CHARS:
        oldest = next(iter(_KEPT))
        held -= len(oldest[0])
        del _KEPT[oldest]
    return rule_file


def _parse(text: str, source: str, name: str) -> RuleFile:
    text = line_feeds(text.removeprefix("\ufeff"))
    lines = lines_of(text)
    if not text.endswith("\n"):
        text += "\n"
    parser, _, nodes = _node_parser()
    nodes.begin(lines, source)
    try:
        statements = parser.parse(text)
    except UnexpectedInput as exc:
        raise _friendly(exc, lines, source) from None
    finally:
        nodes.begin([], "")
    assert isinstance(statements, Node)
    return RuleFile(path=source, name=name, statements=statements.parts,
                    first_line=lines[0] if lines else "")


def _friendly(exc: UnexpectedInput, lines: list[str], source: str) -> RefereeError:
    line = max(1, exc.line if exc.line > 0 else len(lines))
    column = max(1, exc.column if exc.column > 0 else 1)
    text = lines[line - 1] if line - 1 < len(lines) else ""
    span = Span(line, column, text, source)
    first_word = " ".join(text.split(":")[0].lower().split())
    at_start = not text[: column - 1].strip()
    if isinstance(exc, UnexpectedCharacters):
        found = text[column - 1: column] or "end of line"
        return RefereeError(Kind.RULES, f"unexpected {found!r} here", span)
    if isinstance(exc, UnexpectedToken | UnexpectedEOF):
        found = "end of the line" if _is_newline(exc) else quoted(_token_text(exc))
        if at_start and not _is_heading(first_word):
            known = ", ".join(statement_headings())
            return RefereeError(
                Kind.RULES, f"unknown statement {quoted(first_word)}; a statement starts with "
                f"one of: {known}", span)
        expected = _expected_words(exc)
        hint = f"; expected {expected}" if expected else ""
        return RefereeError(Kind.RULES, f"unexpected {found}{hint}", span)
    return RefereeError(Kind.RULES, str(exc), span)


def _is_newline(exc: UnexpectedInput) -> bool:
    token = getattr(exc, "token", None)
    return token is None or token.type in ("_NL", "$END")


def _token_text(exc: UnexpectedInput) -> str:
    token = getattr(exc, "token", None)
    found = re.match(r"[^\s,:#]*", str(token)) if token is not None else None
    return found.group() if found and found.group() else str(token or "").strip()


def _expected_words(exc: UnexpectedInput) -> str:
    expected = getattr(exc, "expected", None) or set()
    parser, keywords = rules_parser()
    words = []
    for name in sorted(expected):
        if name in ("_NL", "$END"):
            words.append("the end of the line")
            continue
        if name in keywords:
            words.append(repr(keywords[name]))
            continue
        try:
            pattern = parser.get_terminal(name).pattern
        except KeyError:
            continue
        if pattern.type == "str":
            words.append(repr(pattern.value))
        elif name == "WORD":
            words.append("a word or number")
        elif name == "TEXT":
            words.append("some text")
        elif name == "_OR":
            words.append("'or'")
    return " or ".join(sorted(set(words))[:12])


class _ToNodes(Transformer[Token, "Node | Tree[Token]"]):
    """Makes generic ``Node``s with spans as the parser reduces each rule. It is given
    the lines and the name of the file being parsed by :meth:`begin`."""

    def __init__(self) -> None:
        super().__init__()
        self._lines: list[str] = []
        self._source = ""

    def begin(self, lines: list[str], source: str) -> None:
        """Make the nodes of this file next."""
        self._lines = lines
        self._source = source

    def _span(self, line: int, column: int, width: int = 1) -> Span:
        text = self._lines[line - 1] if 0 < line <= len(self._lines) else ""
        return Span(line, column, text, self._source, width)

    def __default__(self, data: str, children: list[object], meta: object) -> Node | Tree[Token]:
        if data.startswith("_"):  # an inlined rule: its parent takes its children
            return Tree(data, children)  # type: ignore[arg-type]
        words: list[Word] = []
        parts: list[Node] = []
        keywords: list[str] = []
        line = column = 0
        for child in children:
            if isinstance(child, Node):
                parts.append(child)
                if not line:
                    line, column = child.span.line, child.span.column
            elif isinstance(child, Token):
                if not line:
                    line, column = child.line or 1, child.column or 1
                if child.type in ("WORD", "TEXT"):
                    width = len(child.value.rstrip())
                    span = self._span(child.line or 1, child.column or 1, width)
                    words.append(Word(child.value.strip(), span))
                else:
                    keywords.append(child.value.lower())
        phrase = " ".join(keywords).replace(" ,", ",") if data.startswith("phrase_") else ""
        return Node(str(data), self._span(line or 1, column or 1), tuple(words), tuple(parts),
                    phrase)

