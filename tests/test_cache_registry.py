"""Every memo kept for a process is registered in ``referee/caches.py`` and emptied by
``clear_caches()``; the disk cache's fingerprint covers every module, subpackages
too; the wheel carries the grammar, the rule files and every subpackage (issue 19)."""

from __future__ import annotations

import ast
import importlib
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import referee
from referee.caches import cache_sizes, clear_caches, registered_names
from referee.language import cache
from referee.transcript.check import check_file

PACKAGE = Path(referee.__file__).resolve().parent
ROOT = PACKAGE.parent
TRANSCRIPTS = ROOT / "tests" / "transcripts"
CACHE_DECORATORS = {"cache", "lru_cache"}
MUTABLE_CALLS = {"dict", "list", "set", "OrderedDict", "defaultdict", "deque", "Counter",
                 "WeakValueDictionary", "WeakKeyDictionary", "WeakSet"}


def test_clear_caches_empties_every_memo_after_a_check_of_several_files() -> None:
    games = sorted(TRANSCRIPTS.glob("*/whole-game.txt"))[:4]
    assert len(games) >= 3
    for game in games:
        check_file(game, knowledge=True)
    held = cache_sizes()
    for name in ("referee.language.loader._LOADED", "referee.transcript.setup._ENGINES",
                 "referee.transcript.resolve._TABLES", "referee.language.cards.parse_card",
                 "referee.transcript.segments.READ_SEGMENTS"):
        assert held[name] > 0, name
    clear_caches()
    assert {name: size for name, size in cache_sizes().items() if size} == {}
    assert check_file(games[0]).ok  # and the referee works on, cold


def _name(node: ast.expr) -> str:
    """The last name of ``f``, ``m.f``, ``f(...)``."""
    if isinstance(node, ast.Call):
        return _name(node.func)
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _is_empty_mutable(value: ast.expr | None) -> bool:
    if isinstance(value, ast.Dict | ast.List | ast.Set):
        return not (value.keys if isinstance(value, ast.Dict) else value.elts)
    return isinstance(value, ast.Call) and _name(value) in MUTABLE_CALLS


def _module_level(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements run at import: at the top, in classes and in if/try blocks."""
    found = []
    for statement in body:
        found.append(statement)
        if isinstance(statement, ast.ClassDef):
            found += _module_level(statement.body)
        elif isinstance(statement, ast.If | ast.Try | ast.With):
            for block in ("body", "orelse", "finalbody", "handlers"):
                for inner in getattr(statement, block, []):
                    found += _module_level(inner.body if isinstance(inner, ast.ExceptHandler)
                                           else [inner])
    return found


def unregistered_caches(source: str) -> list[str]:
    """The module-level memos in ``source`` made outside the registry: a function cached
    with ``functools``, or an empty mutable container kept at module or class level."""
    found = []
    for statement in _module_level(ast.parse(source).body):
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            found += [f"line {statement.lineno}: @{_name(d)}" for d in statement.decorator_list
                      if _name(d) in CACHE_DECORATORS]
        elif isinstance(statement, ast.Assign | ast.AnnAssign) and _is_empty_mutable(
                statement.value):
            found.append(f"line {statement.lineno}: an empty container")
        for node in ast.walk(statement) if isinstance(statement, ast.Assign | ast.Expr) else ():
            if isinstance(node, ast.Call) and _name(node) in CACHE_DECORATORS:
                found.append(f"line {statement.lineno}: {_name(node)}(...)")
    return found


@pytest.mark.parametrize("source", [
    "from functools import cache\n@cache\ndef f() -> int:\n    return 1\n",
    "import functools\n@functools.lru_cache(maxsize=8)\ndef f() -> int:\n    return 1\n",
    "_SEEN: dict[str, int] = {}\n",
    "_SEEN = dict()\n",
    "class Kept:\n    memo: list[int] = []\n",
    "try:\n    _SEEN = set()\nexcept ImportError:\n    pass\n",
    "from functools import lru_cache\ng = lru_cache(None)(len)\n",
])
def test_the_check_finds_a_module_level_cache(source: str) -> None:
    assert unregistered_caches(source)


def test_the_check_lets_registered_memos_and_constant_tables_be() -> None:
    assert unregistered_caches(
        'from referee.caches import memo, memoized\n_SEEN: dict[str, int] = memo("x")\n'
        "@memoized(maxsize=8)\ndef f() -> int:\n    return 1\n"
        "TABLE = {'a': 1}\nWORDS = {w: len(w) for w in ('a', 'b')}\n") == []


def test_no_module_keeps_a_cache_outside_the_registry() -> None:
    modules = sorted(PACKAGE.rglob("*.py"))  # subpackages too
    found = {str(path.relative_to(PACKAGE)): unregistered_caches(path.read_text())
             for path in modules if path.name != "caches.py"}
    assert {path: caches for path, caches in found.items() if caches} == {}


def test_the_memos_of_the_issue_are_registered() -> None:
    for module in ("language.loader", "language.syntax", "transcript.notation",
                   "transcript.setup", "transcript.resolve", "transcript.names",
                   "authoring.runs"):
        importlib.import_module(f"referee.{module}")  # a memo is registered as it is made
    names = set(registered_names())
    assert {"referee.language.loader._LOADED", "referee.language.syntax._KEPT",
            "referee.transcript.segments.READ_SEGMENTS", "referee.transcript.setup._ENGINES",
            "referee.transcript.resolve._TABLES", "referee.language.cards.parse_card",
            "referee.language.compiler.rule_book", "referee.transcript.names._alone",
            "referee.language.cache.folder", "referee.language.cache.fingerprint",
            "referee.authoring.runs._engine"} <= names


def test_the_fingerprint_covers_modules_in_subpackages(tmp_path: Path) -> None:
    package, grammar = tmp_path / "referee", tmp_path / "grammar"
    (package / "engine").mkdir(parents=True)
    grammar.mkdir()
    (package / "__init__.py").write_text("")
    (grammar / "rules.lark").write_text("start: 'x'\n")
    nested = package / "engine" / "flow.py"
    nested.write_text("A = 1\n")
    before = cache.code_fingerprint(package, grammar)
    nested.write_text("A = 22\n")
    assert cache.code_fingerprint(package, grammar) != before
    moved = package / "flow.py"  # the same file at another place is other code
    nested.rename(moved)
    assert cache.code_fingerprint(package, grammar) not in (before,)
    again = cache.code_fingerprint(package, grammar)
    (grammar / "rules.lark").write_text("start: 'yy'\n")
    assert cache.code_fingerprint(package, grammar) != again


def test_clear_folder_removes_the_entries_only(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(tmp_path / "cache"))
    clear_caches()
    try:
        cache.store(cache.key("a"), {"a": 1})
        (tmp_path / "cache" / "notes.txt").write_text("mine")
        assert cache.load(cache.key("a")) == {"a": 1}
        assert cache.clear_folder() == 1
        assert cache.load(cache.key("a")) is None
        assert [p.name for p in (tmp_path / "cache").iterdir()] == ["notes.txt"]
    finally:
        monkeypatch.undo()
        clear_caches()


def test_the_wheel_carries_the_grammar_the_rules_and_subpackages(tmp_path: Path) -> None:
    """A subpackage made in a copy of the tree is in its wheel, with its data file."""
    tree = tmp_path / "tree"
    for part in ("pyproject.toml", "README.md", "setup.py", "MANIFEST.in",
                 "build_support/referee_build.py", "build_support/mypyc.ini"):
        (tree / part).parent.mkdir(parents=True, exist_ok=True)
        (tree / part).write_bytes((ROOT / part).read_bytes())
    for folder in ("referee", "grammar", "rules"):
        for file in (ROOT / folder).rglob("*"):
            if file.is_file() and "__pycache__" not in file.parts and file.suffix != ".so":
                target = tree / file.relative_to(ROOT)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(file.read_bytes())
    (tree / "referee" / "added").mkdir()
    (tree / "referee" / "added" / "__init__.py").write_text("")
    (tree / "referee" / "added" / "table.json").write_text("{}")
    out = tmp_path / "wheel"
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                            str(out), str(tree)], capture_output=True, text=True,
                           env={**os.environ, "REFEREE_NO_COMPILE": "1"})  # data only
    if built.returncode != 0 and "matching distribution" in built.stderr:
        pytest.skip("no package index to build the wheel with")
    assert built.returncode == 0, built.stderr
    (wheel,) = out.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "referee/grammar/rules.lark" in names
    assert {f"referee/rules/{p.name}" for p in (ROOT / "rules").glob("*.rules")} <= names
    assert {"referee/added/__init__.py", "referee/added/table.json",
            "referee/verdict.schema.json", "referee/caches.py", "referee/py.typed"} <= names
    assert {f"referee/{path.relative_to(ROOT / 'referee')}"
            for path in (ROOT / "referee").rglob("*.py")} <= names
