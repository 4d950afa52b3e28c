"""bench/trees.py: every bench that times a tree says whether it runs compiled modules
or their source, as the tree's own process imports them (tests/test_compiled.py holds
it to a compiled build)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import referee.transcript.notation
from referee.compiled import COMPILED, is_compiled

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from trees import what_runs  # noqa: E402


def test_a_tree_says_what_this_process_runs() -> None:
    said = what_runs(ROOT)
    if is_compiled(referee.transcript.notation):
        assert said == f"{len(COMPILED)} of {len(COMPILED)} modules compiled"
    else:
        assert said.startswith("source only, no module compiled")


def test_a_tree_made_pure_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_PURE_PYTHON", "1")
    assert what_runs(ROOT).startswith("source only, no module compiled")


def test_a_tree_that_cannot_run_says_why(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "referee").mkdir()  # a package with nothing in it shadows the installed one
    (tmp_path / "referee" / "__init__.py").write_text("raise RuntimeError('broken tree')\n")
    said = what_runs(tmp_path)
    assert said.startswith("unknown: RuntimeError: broken tree")
