"""Every lint hint clears its warning: written in the file (a line rewritten, or a
statement added at the end), the file lints again without that warning and without any
warning it did not have; and a warning suggests no statement but as such a hint.

Over every fixture of tests/lint/ and rule files made here from the bundled ones (games
that stall, with a stock and without, options used as switches, statements nothing
uses)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.authoring.lint import Finding, lint_file
from referee.language.syntax import statement_headings

TESTS = Path(__file__).parent
RULES = TESTS.parent / "rules"
TINY = TESTS / "rules_support" / "tiny.rules"
FIXTURES = sorted((TESTS / "lint").glob("*.rules"))
GAMES = 60  # self-play games for the rule files made here
HINT = re.compile(r" \(hint: (.*)\) \[[a-z-]+\]$")
EDIT = re.compile(r"add '(.*)'|line (\d+): '(.*)'")

STALLS = ["a player who cannot ask: sits out", "end: when all sets are laid"]
MADE = {
    # the case: no stock, and games that stall; the old hint drew [no-stock]
    "no-stock-stalls": (TINY, ["players: 4", "teams: 2, seated alternately",
                               "ask: an opponent who holds cards, for a card",
                               "asker must not hold: nothing",
                               "asked player gives: every card of the rank"]),
    "go-fish-stalls": (RULES / "go-fish.rules", STALLS),
    "go-fish-stalls-no-stock": (RULES / "go-fish.rules", ["deal: all cards", *STALLS]),
    "go-fish-clockwise-stalls": (RULES / "go-fish.rules", [
        *STALLS, "if not given: draw from the stock, then turn passes to the next player"]),
    "authors-stalls": (RULES / "authors.rules", ["deal: 5 each", *STALLS]),
    "to-the-end-sits-out": (RULES / "go-fish-to-the-end.rules",
                            ["a player who cannot ask: sits out"]),
    "after-question": (RULES / "go-fish.rules",
                       ["after a question: turn passes to the player asked"]),
    "values-without-plays": (RULES / "go-fish.rules",
                             ["card values: A 1, 2 2, 3 3, 4 4, 5 5, 6 6, 7 7, 8 8, 9 9, "
                              "10 10, J 11, Q 12, K 13"]),
    "switches": (TINY, ["option fast: 0", "option slow: 1",
                        "when fast is 1: first player: the dealer",
                        "when fast is 0: ties: the first to lay down a set wins",
                        "when slow is 0: if given: turn passes to the next player"]),
}


def made(tmp_path: Path, name: str) -> Path:
    base, lines = MADE[name]
    path = tmp_path / f"{name}.rules"
    path.write_text(f"extends: {base}\n" + "".join(f"{line}\n" for line in lines))
    return path


def hint_of(finding: Finding) -> list[tuple[int, str]]:
    """The hint as the report prints it: (line, text) edits, line 0 to add."""
    found = HINT.search(finding.report().splitlines()[0])
    if found is None:
        return []
    edits = []
    for part in found.group(1).split("; "):
        edit = EDIT.fullmatch(part)
        assert edit is not None, part
        edits.append((0, edit.group(1)) if edit.group(1) is not None
                     else (int(edit.group(2)), edit.group(3)))
    return edits


def written(text: str, edits: list[tuple[int, str]]) -> str:
    lines = text.splitlines()
    for line, statement in edits:
        if line:
            lines[line - 1] = statement
        else:
            lines.append(statement)
    return "\n".join(lines) + "\n"


def identity(finding: Finding) -> tuple[object, ...]:
    return finding.code, finding.span.line, finding.span.column, finding.message


def check_hints(path: Path, games: int, tmp_path: Path) -> int:
    """Apply each hint of ``path``'s warnings; the number of hints."""
    result = lint_file(path, games)
    assert result.error is None, result.error.report()
    before = {identity(f) for f in result.findings}
    hints = 0
    for finding in result.findings:
        edits = hint_of(finding)
        assert edits == [(e.line, e.text) for e in finding.hint]
        if not edits:
            continue
        hints += 1
        text = path.read_text(encoding="utf-8")
        base = re.search(r"^extends: (.*)$", text, re.M)
        if base is not None:  # the copy is elsewhere: its base named by a full path
            full = (path.parent / base.group(1)).resolve()
            text = text.replace(base.group(0), f"extends: {full}")
        folder = tmp_path / f"{path.stem}-{finding.span.line}"
        folder.mkdir()
        copy = folder / path.name
        copy.write_text(written(text, edits))
        after = lint_file(copy, games)
        assert after.error is None, after.error.report()
        place = (finding.code, finding.span.line, finding.span.column)
        assert all((f.code, f.span.line, f.span.column) != place for f in after.findings), \
            finding.report()
        new = [f.report() for f in after.findings if identity(f) not in before]
        assert not new, "\n".join(new)
    return hints


def games_of(path: Path) -> int:
    words = re.search(r"^# games: (\d+)$", path.read_text(encoding="utf-8"), re.M)
    return int(words.group(1)) if words else 200


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_every_hint_of_a_fixture_clears_its_warning(path: Path, tmp_path: Path) -> None:
    check_hints(path, games_of(path), tmp_path)


@pytest.mark.parametrize("name", sorted(MADE))
def test_every_hint_of_a_made_rule_file_clears_its_warning(name: str, tmp_path: Path) -> None:
    check_hints(made(tmp_path, name), GAMES, tmp_path)


def test_hints_are_given(tmp_path: Path) -> None:
    """Not a vacuous test: warnings of several kinds come with hints."""
    hinted = {f.code.value for path in FIXTURES for f in lint_file(path, games_of(path)).findings
              if f.hint}
    assert hinted >= {"unused", "option", "unfinished"}
    result = lint_file(made(tmp_path, "switches"), GAMES)
    assert [len(f.hint) for f in result.findings if f.hint] == [3, 2]


def suggested_statements(finding: Finding) -> list[str]:
    """Statements a warning's words suggest in brackets, outside a hint."""
    message = finding.report().splitlines()[0]
    message = HINT.sub("", message)
    statement = re.compile("(" + "|".join(map(re.escape, statement_headings())) + r")\b[^:]*:")
    return [inside for inside in re.findall(r"\(([^()]*)\)", message)
            if statement.match(inside.lower())]


@pytest.mark.parametrize("name", sorted(MADE))
def test_a_warning_suggests_a_statement_only_as_a_hint(name: str, tmp_path: Path) -> None:
    for finding in lint_file(made(tmp_path, name), GAMES).findings:
        assert not suggested_statements(finding), finding.report()


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_a_fixtures_warning_suggests_a_statement_only_as_a_hint(path: Path) -> None:
    for finding in lint_file(path, games_of(path)).findings:
        assert not suggested_statements(finding), finding.report()
