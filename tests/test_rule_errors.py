"""Broken rule files: each fixture says where its one error is and what it says."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.errors import Kind, RefereeError
from referee.language.loader import load_spec

HERE = Path(__file__).parent / "rules_errors"
FIXTURES = sorted(HERE.glob("*.rules"))


def expectation(path: Path) -> tuple[int, int, str]:
    first = path.read_bytes().split(b"\n", 1)[0].decode().removeprefix("\ufeff").rstrip("\r")
    place, words = first.removeprefix("# expect:").split(maxsplit=1)
    line, column = place.split(":")
    return int(line), int(column), words


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_broken_rule_file(path: Path) -> None:
    line, column, words = expectation(path)
    with pytest.raises(RefereeError) as caught:
        load_spec(path)
    error = caught.value
    assert error.kind is Kind.RULES
    assert error.exit_status == 2
    assert words.lower() in error.message.lower(), error.report()
    if line:
        assert error.span is not None
        assert (error.span.line, error.span.column) == (line, column), error.report()
        assert f":{line}:{column}: rules: " in error.report()
        assert "^" in error.report()


def test_sets_under_when_replace_the_sets(tmp_path: Path) -> None:
    rules = tmp_path / "pairs.rules"
    rules.write_text("extends: authors\noption pairs: no\n"
                     "when pairs: sets: books of 2 cards of one rank\n")
    assert {(s.needed, s.copies) for s in load_spec(rules).sets} == {(4, 1)}
    assert {(s.needed, s.copies) for s in load_spec(rules, {"pairs": "yes"}).sets} == {(2, 2)}

