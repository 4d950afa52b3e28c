"""The terse corpus of bench/terse.py: the same self-played games as people type them
(two events on a line, answers, draws and books left to the referee, short forms,
plural ranks, lower case, suit symbols, ``T`` for ten). Every terse game checks legal
and reaches its canonical twin's state through the same moves: the bench's games, and
open and hidden games of every bundled rule file."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from referee.authoring.simulate import play_one
from referee.engine.core import Engine
from referee.language.loader import load_spec
from referee.language.rulefiles import bundled_rule_names, find_rule_file
from referee.language.spec import LAY_DOWN_AT_ONCE
from referee.transcript.check import check_file, check_text

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


def unnamed_draw(line: str) -> str:
    """A record's line, a draw without the card it names."""
    words = line.split()
    return " ".join(words[:2]) if words[1:2] == ["draws"] else line


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


def check_bundled(seeds: range) -> None:
    """Every bundled rule file's self-played games of ``seeds`` (odd: open, even:
    hidden), written tersely: open ones leave answers, draws and books laid at once to
    the referee; hidden ones write what only the cards could fill in (bench/terse.py).
    Each checks legal, to the state its canonical twin reaches (sets completed together
    laid in any order), through the same moves (those of the deal's lay phase in any
    order)."""
    terse = terse_module()
    forms = set()
    for name in bundled_rule_names():
        path = find_rule_file(name)
        assert path is not None, name
        engine = Engine(load_spec(path))
        for seed in seeds:
            hidden = seed % 2 == 0
            players = sorted(engine.spec.player_counts)[seed % len(engine.spec.player_counts)]
            lines = list(play_one(engine, players, seed, transcript=True, hidden=hidden).lines)
            short = terse.terse(lines, seed, known=not hidden,
                                at_once=engine.spec.lay_down is LAY_DOWN_AT_ONCE)
            expected = check_text("\n".join(lines) + "\n", "canonical.txt", record=True)
            found = check_text("\n".join(short) + "\n", "terse.txt", record=True)
            assert expected.ok, expected.report()
            assert found.ok, f"{name}, seed {seed}:\n{found.report()}"
            assert terse.sets_in_any_order(found.state) == terse.sets_in_any_order(
                expected.state), (name, seed)
            assert sorted(map(unnamed_draw, found.canonical)) == sorted(
                map(unnamed_draw, expected.canonical)), (name, seed)
            forms |= {form for form in (";", ": ", " > ", "?") if form in "\n".join(short)}
    assert forms == {";", ": ", " > ", "?"}


def test_every_bundled_game_written_tersely_checks_to_its_canonical_twin() -> None:
    check_bundled(range(1, 5))


@pytest.mark.slow
def test_many_bundled_games_written_tersely_check_to_their_canonical_twins() -> None:
    check_bundled(range(5, 41))


def test_the_benchs_twins_of_the_terse_games_check_to_their_canonical_state(
        tmp_path: Path) -> None:
    """bench/bench_terse.py's ``--letters`` and ``--folded`` games: the terse games with
    letters for suit symbols, and also in lower case, each checking to the same state."""
    spec = importlib.util.spec_from_file_location("bench_terse",
                                                  ROOT / "bench" / "bench_terse.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    bench.write_corpora(tmp_path, 6, 2026)
    for twin in bench.TWINS:
        bench.write_twin(tmp_path, twin)
    for game, _ in bench.GAMES:
        for canonical in sorted((tmp_path / game).glob("*.txt")):
            expected = check_file(canonical)
            terse = (tmp_path / f"{game}-terse" / canonical.name).read_text(encoding="utf-8")
            for twin in bench.TWINS:
                file = tmp_path / f"{game}-{twin}" / canonical.name
                found = check_file(file)
                assert found.ok, f"{file}:\n{found.report()}"
                assert found.state == expected.state
                text = file.read_text(encoding="utf-8")
                assert text.isascii() and len(text) == len(terse)
                events = [line for line in text.splitlines() if not bench.stands_alone(line)]
                assert (twin == "folded") == all(line == line.lower() for line in events)


def test_the_bench_says_why_a_check_process_failed(tmp_path: Path) -> None:
    """A ``referee check`` that fails before any verdict (here: a folder with no games,
    so no file to check) is reported with what it wrote to standard error, where the
    reason was empty."""
    spec = importlib.util.spec_from_file_location("bench_terse",
                                                  ROOT / "bench" / "bench_terse.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    folder = tmp_path / "games"
    folder.mkdir()
    with pytest.raises(SystemExit, match="failed: usage: Missing argument"):
        bench.process(ROOT, folder, tmp_path / "cache", 0)
