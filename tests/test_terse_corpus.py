"""The terse corpus of bench/terse.py: the same self-played games as people type them
(two events on a line, answers, draws and books left to the referee, short forms,
plural ranks, lower case, suit symbols, ``T`` for ten). Every terse game checks legal
and reaches its canonical twin's state through the same moves."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from referee.transcript.check import check_file

ROOT = Path(__file__).resolve().parent.parent


def terse_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("terse", ROOT / "bench" / "terse.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("terse", module)
    spec.loader.exec_module(module)
    return module


def same_moves(canonical: list[str], terse: list[str]) -> bool:
    """The same moves: line for line, but a draw the terse game left unnamed
    (``Ann draws``), which the record keeps as written."""
    return len(canonical) == len(terse) and all(
        mine == theirs or (theirs.endswith(" draws") and mine.startswith(f"{theirs} "))
        for mine, theirs in zip(canonical, terse, strict=True))


def check_corpus(folder: Path, games: int) -> None:
    terse = terse_module()
    terse.write_corpora(folder, games, 2026)
    forms = set()
    for game, _ in terse.GAMES:
        for canonical in sorted((folder / game).glob("*.txt")):
            twin = folder / f"{game}-terse" / canonical.name
            expected, found = check_file(canonical, record=True), check_file(twin, record=True)
            assert expected.ok, expected.report()
            assert found.ok, f"{twin}:\n{found.report()}"
            assert found.state == expected.state
            assert same_moves(expected.canonical, found.canonical)
            text = twin.read_text(encoding="utf-8")
            forms |= {form for form in (";", ": ", " > ", "?", "♠", "T", "sevens", "go fish")
                      if form in text}
            assert len(text.splitlines()) < len(canonical.read_text().splitlines())
    assert forms == {";", ": ", " > ", "?", "♠", "T", "sevens", "go fish"}


def test_every_terse_game_checks_to_its_canonical_twin(tmp_path: Path) -> None:
    check_corpus(tmp_path, 12)


@pytest.mark.slow
def test_every_terse_game_of_the_bench_checks_to_its_canonical_twin(tmp_path: Path) -> None:
    check_corpus(tmp_path, 300)


def test_the_terse_corpus_is_the_same_each_time(tmp_path: Path) -> None:
    terse = terse_module()
    terse.write_corpora(tmp_path / "a", 3, 7)
    terse.write_corpora(tmp_path / "b", 3, 7)
    for path in sorted((tmp_path / "a").rglob("*.txt")):
        assert path.read_bytes() == (tmp_path / "b" / path.relative_to(tmp_path / "a")
                                     ).read_bytes()
