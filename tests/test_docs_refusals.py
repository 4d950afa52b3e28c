"""docs/rules-language.md and the compiler agree on what is refused: every error message
the page quotes is one that a broken rule file of tests/rules_errors/ is refused with,
and the option defaults its table lists are exactly those the compiler takes."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from referee.errors import RefereeError
from referee.language.compiler import RuleBook
from referee.language.loader import load_spec
from referee.language.syntax import parse_rules_text

ROOT = Path(__file__).parent.parent
PAGE = ROOT / "docs" / "rules-language.md"
BROKEN = sorted((ROOT / "tests" / "rules_errors").glob("*.rules"))
TINY = load_spec(ROOT / "tests" / "rules_support" / "tiny.rules")


def quoted_refusals() -> list[str]:
    """The messages the page quotes: the errors table's examples, and every
    ``refused (`MESSAGE`)``."""
    text = PAGE.read_text(encoding="utf-8")
    table = text[text.index("| problem | example message |"):]
    table = table[:table.index("\n\n")]
    messages = [m for row in table.splitlines()[2:]
                for m in re.findall(r"`([^`]+)`", row.split(" | ")[-1])]
    prose = re.findall(r"[Rr]efused \(`([^`]+)`\)", " ".join(text.split()))
    return messages + prose


@cache
def refusals() -> tuple[str, ...]:
    """What the compiler says of each broken rule file."""
    said = []
    for path in BROKEN:
        try:
            load_spec(path)
        except RefereeError as exc:
            said.append(exc.message)
    return tuple(said)


@pytest.mark.parametrize("message", quoted_refusals())
def test_every_quoted_refusal_is_the_compilers(message: str) -> None:
    pattern = ".*".join(re.escape(part) for part in message.split("..."))
    assert any(re.fullmatch(pattern, said) for said in refusals()), message


def test_the_page_quotes_the_refusals_it_describes() -> None:
    quoted = quoted_refusals()
    assert any("is given twice in this file" in m for m in quoted)
    assert any("needs a default of yes, no or a whole number" in m for m in quoted)


def option_defaults_listed() -> list[str]:
    """The defaults of the page's table of option defaults, as written there."""
    text = PAGE.read_text(encoding="utf-8")
    table = text[text.index("| default | values a transcript may give |"):]
    return [row.split(" | ")[0].strip("| ") for row in table.split("\n\n")[0].splitlines()[2:]]


def declares(default: str) -> bool:
    """Whether the compiler takes ``option x: DEFAULT``."""
    text = f"option x: {default}\n"
    try:
        book = RuleBook([parse_rules_text(text, f"option-{default}.rules", "x")])
    except RefereeError:
        return False
    return "x" in book.defaults


def test_the_table_of_option_defaults_is_the_compilers() -> None:
    listed = option_defaults_listed()
    assert listed == ["`yes` or `no`", "a whole number of at most 18 digits"]
    examples = {"`yes` or `no`": ["yes", "no", "YES"],
                "a whole number of at most 18 digits": ["0", "3", "250", "9" * 18]}
    for row in listed:
        assert all(declares(default) for default in examples[row]), row
    assert not any(declares(word) for word in ("maybe", "fast", "on", "1.5", "-2", "+2", "²",
                                               "\uff13", "1" + "0" * 18))
    assert TINY.options == {"generous": "no", "first": "1"}
