"""referee lint: every warning pinned by a fixture in tests/lint/, bundled files clean.

Each fixture's first lines say what lint must find, one warning a line:
``# expect: LINE:COLUMN CODE WORDS``; ``# games: N`` plays N self-play games
instead of the default.
"""

from __future__ import annotations

import ast
from enum import Enum
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.authoring.lint import SELF_PLAY_GAMES, Code, lint_file
from referee.cli.commands import main

TESTS = Path(__file__).parent
FIXTURES = sorted((TESTS / "lint").glob("*.rules"))
BUNDLED = sorted((TESTS.parent / "rules").glob("*.rules"))


def expectations(path: Path) -> tuple[list[tuple[int, int, str, str]], int]:
    expected = []
    games = SELF_PLAY_GAMES
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# expect:"):
            place, code, words = line.removeprefix("# expect:").split(maxsplit=2)
            row, column = place.split(":")
            expected.append((int(row), int(column), code, words))
        elif line.startswith("# games:"):
            games = int(line.removeprefix("# games:"))
    return expected, games


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_each_warning_is_found_at_its_line(path: Path) -> None:
    expected, games = expectations(path)
    assert expected, f"{path.name} says nothing it expects"
    result = lint_file(path, games)
    assert result.error is None, result.error.report()
    found = [(f.span.line, f.span.column, f.code.value, f.message) for f in result.findings]
    assert len(found) == len(expected), "\n".join(f.report() for f in result.findings)
    for (line, column, code, words), got in zip(expected, found, strict=True):
        assert got[:3] == (line, column, code), got
        assert words in got[3], got[3]
    assert result.status == 1


def test_every_kind_of_warning_has_a_fixture() -> None:
    pinned = {code for path in FIXTURES for _, _, code, _ in expectations(path)[0]}
    assert pinned == {code.value for code in Code}


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_every_bundled_rule_file_lints_clean(path: Path) -> None:
    result = lint_file(path)
    assert result.status == 0, "\n".join(f.report() for f in result.findings)


def test_lint_prints_warnings_with_a_caret_and_exits_1() -> None:
    path = TESTS / "lint" / "after-question-without-questions.rules"
    status, out, _ = run("lint", str(path))
    assert status == 1
    assert f"{path}:3:1: warning: this says where the turn goes after a question" in out
    assert "[unused]" in out and "\n  ^" in out
    assert out.rstrip().endswith(f"{path}: 1 warning")


def test_lint_of_a_clean_file_exits_0() -> None:
    status, out, _ = run("lint", "go-fish", "--games", "20")
    assert status == 0
    assert out.strip().endswith("clean (20 self-play games finished)")


def test_lint_gives_the_compilers_error_with_its_place_and_exits_2() -> None:
    path = TESTS / "rules_errors" / "book-size.rules"
    status, _, err = run("lint", str(path))
    assert status == 2
    assert f"{path}:" in err and ": rules: a book is 3 cards of one rank" in err and "^" in err


def test_lint_exits_with_the_worst_status_of_several_files() -> None:
    status, out, err = run("lint", "go-fish", str(TESTS / "lint" / "options.rules"),
                           "no-such-game", "--games", "0")
    assert status == 2
    assert "go-fish.rules: clean\n" in out and "options.rules: 5 warnings" in out
    assert "no rule file named 'no-such-game'" in err


def test_a_wrong_option_type_is_the_compilers_error() -> None:
    result = lint_file(TESTS / "rules_errors" / "when-number-is-yes.rules", 0)
    assert result.status == 2 and result.error is not None
    assert "can never apply" in result.error.message


def test_the_commands_default_is_lints() -> None:
    from referee.authoring import sheet, simulate
    from referee.cli import commands as cli

    assert cli.LINT_GAMES == SELF_PLAY_GAMES and cli.SHEET_FORMATS == sheet.FORMATS
    assert cli.MAX_MOVES == simulate.DEFAULT_MAX_MOVES


PER_EVENT_MODULES = ("engine/asks", "engine/claims", "engine/draws", "engine/core",
                     "engine/flow", "engine/laying", "transcript/events", "transcript/notation",
                     "engine/plays", "engine/questions", "transcript/resolve", "authoring/selfplay",
                     "transcript/session", "authoring/simulate", "engine/state")


def test_code_run_on_every_event_reads_no_enum_member_off_its_class() -> None:
    """Python 3.11 reads ``Phase.OVER`` through EnumType.__getattr__, a Python-level call;
    code run on every event uses the plain names (``PHASE_OVER``) instead."""
    from referee.engine import state
    from referee.language import spec
    from referee.transcript import events

    enums = {name for module in (events, spec, state) for name, thing in vars(module).items()
             if isinstance(thing, type) and issubclass(thing, Enum) and thing.__module__ ==
             module.__name__}
    found = []
    for name in PER_EVENT_MODULES:
        path = Path(__file__).parent.parent / "referee" / f"{name}.py"
        tree = ast.parse(path.read_text())
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef | ast.Lambda):
                continue
            found += [f"{name}.py:{node.lineno}: {node.value.id}.{node.attr}"
                      for node in ast.walk(function)
                      if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                      and node.value.id in enums | {"LayDownRule"} and node.attr.isupper()]
    assert len(enums) > 10 and not found, found


# constants a test patches (monkeypatch.setattr), so not Final: each is read only where
# a move is remembered anew, not on every event
PATCHED_CONSTANTS = {("engine/core.py", "MAX_KEPT_MOVES"),
                     ("transcript/resolve.py", "MAX_REMEMBERED_MOVES")}


def test_the_constants_of_compiled_modules_are_final() -> None:
    """Compiled with mypyc, a module's name that is not ``Final`` (``EVENT_ASK``, ``FITTING``,
    here or imported) is looked up in the module's dict at every use, some 150
    instructions; a ``Final`` one is read from a C static. Every constant of a compiled
    module (a name in capitals) is ``Final``."""
    from referee.compiled import COMPILED

    found = []
    for name in COMPILED:
        tree = ast.parse((Path(__file__).parent.parent / "referee" / name).read_text())
        for node in tree.body:
            if isinstance(node, ast.AnnAssign):
                targets = [node.target]
                final = ast.unparse(node.annotation).startswith("Final")
            elif isinstance(node, ast.Assign):
                targets = [element for target in node.targets
                           for element in getattr(target, "elts", [target])]
                final = isinstance(node.value, ast.Call) and \
                    ast.unparse(node.value.func) == "TypeVar"  # a type's name, never read
            else:
                continue
            found += [f"{name}:{node.lineno}: {target.id}" for target in targets
                      if isinstance(target, ast.Name) and target.id.lstrip("_")[:1].isupper()
                      and target.id.isupper() and not final
                      and (name, target.id) not in PATCHED_CONSTANTS]
    assert not found, found
