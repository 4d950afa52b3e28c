"""Golden transcripts: each file under tests/transcripts/ states what its check must give.

A fixture's first lines say what ``referee check`` must report::

    # expect: ok
    # expect: illegal 14:1
    # expect: contradiction 9:21 holds QS
    # state: {"over": true, "winners": ["Ann"]}
    # because: 12 30 40

``expect`` names the verdict (``ok`` or an error kind), the error's line and
column, and optionally words the message must contain. ``state`` lists keys
whose values the final state must have. ``because`` lists the lines a hidden
deal's contradiction must name as its proof, exactly.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from referee.transcript.check import check_file

HERE = Path(__file__).parent / "transcripts"
FIXTURES = sorted(HERE.rglob("*.txt"))


@dataclass(frozen=True)
class Expectation:
    kind: str
    line: int | None
    column: int | None
    words: str
    state: dict[str, object]
    because: list[int] | None


def read_expectation(path: Path) -> Expectation:
    kind, line, column, words, state = "", None, None, "", {}
    because: list[int] | None = None
    for text in path.read_text(encoding="utf-8").splitlines():
        if text.startswith("# expect:"):
            parts = text.removeprefix("# expect:").split(maxsplit=2)
            kind = parts[0]
            if len(parts) > 1:
                line_text, _, column_text = parts[1].partition(":")
                line, column = int(line_text), int(column_text) if column_text else None
            words = parts[2] if len(parts) > 2 else ""
        elif text.startswith("# state:"):
            state = json.loads(text.removeprefix("# state:"))
        elif text.startswith("# because:"):
            because = [int(n) for n in text.removeprefix("# because:").split()]
    assert kind, f"{path} has no '# expect:' line"
    return Expectation(kind, line, column, words, state, because)


def test_every_rule_file_has_fixtures() -> None:
    rules = sorted(p.stem for p in (HERE.parent.parent / "rules").glob("*.rules"))
    folders = sorted(p.name for p in HERE.iterdir() if p.is_dir())
    missing = [name for name in rules if name not in folders]
    assert not missing, f"no transcript fixtures for {missing}"


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: str(p.relative_to(HERE)))
def test_transcript(path: Path) -> None:
    expected = read_expectation(path)
    verdict = check_file(path)
    result = verdict.to_json()
    if expected.kind == "ok":
        assert verdict.ok, verdict.report()
    else:
        assert not verdict.ok, f"expected {expected.kind}, but the transcript was legal"
        error = result["error"]
        assert (error["kind"], error["line"]) == (expected.kind, expected.line), verdict.report()
        if expected.column is not None:
            assert error["column"] == expected.column, verdict.report()
        assert expected.words.lower() in error["message"].lower(), verdict.report()
        if expected.because is not None:
            lines = [item["line"] for item in error.get("because", [])]
            assert lines == expected.because, verdict.report()
    for key, value in expected.state.items():
        assert result["state"] is not None and result["state"][key] == value, (key, result)
