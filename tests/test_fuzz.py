"""Bad input of any kind ends in a RefereeError with a place, never another exception."""

from __future__ import annotations

import importlib
import os
import random
import signal
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import Kind, RefereeError
from referee.language import cache
from referee.language.loader import load_spec
from referee.transcript.check import check_text

ROOT = Path(__file__).parent.parent
GAME = (ROOT / "tests" / "transcripts" / "authors" / "whole-game.txt").read_text()
RULES = sorted((ROOT / "rules").glob("*.rules"))
SETTINGS = settings(max_examples=150, deadline=None)


HOSTILE_PATHS = ("/proc/self/environ", "/dev/zero", "/etc/passwd", "/etc/shadow", "/tmp",
                 "/tmp/", "..", ".", "rules", "../rules", "a" * 300, "a" * 300 + ".rules",
                 "../" + "b" * 300 + ".rules", "x\x00y", "/dev/zero.rules", "/proc/self/fd/0",
                 "authors.rules/", "~/x.rules", "..\\x.rules")
HOSTILE = ("²", "⑤", "٣", "\U0001d7d5", "9" * 5000, "0" * 5000 + "7", "\u2028", "\u2029", "\x85",
           "\r", "\x0c", "\x0b", "\ufeff", "\u200b", "\x00", "\x1b[2J", "\u202e",
           *HOSTILE_PATHS)
SECRET = "PATH="  # a canary: the environment must never reach an error


def mangled(text: str) -> st.SearchStrategy[str]:
    """``text`` cut short, with a stretch deleted, with random characters or hostile
    pieces (Unicode digits, line separators, huge numbers, paths) spliced in, or after
    a byte-order mark."""
    cut = st.integers(0, len(text)).map(lambda i: text[:i])
    hole = st.tuples(st.integers(0, len(text)), st.integers(0, 40)).map(
        lambda p: text[: p[0]] + text[p[0] + p[1]:])
    piece = st.one_of(st.text(max_size=12), st.sampled_from(HOSTILE))
    splice = st.tuples(st.integers(0, len(text)), piece).map(
        lambda p: text[: p[0]] + p[1] + text[p[0]:])
    words = text.split(" ")
    vocabulary = sorted({w for w in words if w.strip()} | {
        "hand", "2", "0", "-1", "seed", "given", "hidden", ":", ",", ";", "?", ">", "RJ", "yes",
        "no", "gives", "draws", "books", "claims", "passes", "to", "for", "asks", "lays",
        "down", "queens", "T♥", "99", "option", "team", "stock", "dealer", "game",
        "extends:", "target:", *HOSTILE})
    swap = st.tuples(st.integers(0, len(words) - 1), st.sampled_from(vocabulary)).map(
        lambda p: " ".join([*words[: p[0]], p[1], *words[p[0] + 1:]]))
    changed = st.one_of(cut, hole, splice, swap)
    return st.one_of(changed, changed.map(lambda t: "\ufeff" + t))


def assert_placed(error: RefereeError) -> None:
    """A clean error: a place with a line and column, and no secret quoted."""
    assert error.span is not None, error.report()
    assert error.span.line >= 1 and error.span.column >= 1, error.report()
    assert SECRET not in error.report()


@SETTINGS
@given(text=mangled(GAME))
def test_a_mangled_transcript_gets_a_verdict(text: str) -> None:
    verdict = check_text(text, "game.txt", ROOT / "rules")
    if not verdict.ok:
        assert verdict.error is not None
        assert_placed(verdict.error)


@SETTINGS
@given(data=st.data())
def test_a_mangled_rule_file_compiles_or_says_where_it_is_wrong(
        data: st.DataObject, tmp_path_factory: pytest.TempPathFactory) -> None:
    source = data.draw(st.sampled_from(RULES), label="rule file")
    text = data.draw(mangled(source.read_text()), label="text")
    folder = tmp_path_factory.mktemp("rules")
    path = folder / source.name
    path.write_text(text, encoding="utf-8")
    for base in RULES:  # so that `extends:` finds the bundled files beside it
        if base.name != source.name:
            (folder / base.name).write_text(base.read_text(), encoding="utf-8")
    try:
        load_spec(path)
    except RefereeError as error:
        assert_placed(error)
        assert error.report().startswith(f"{error.span.source}:{error.span.line}:")


@pytest.mark.parametrize("path", HOSTILE_PATHS)
def test_a_hostile_path_is_refused_with_a_place(path: str, tmp_path: Path) -> None:
    verdict = check_text(f"game: {path}\nplayers: Ann Bob\ndeal: seed 1\n", "game.txt",
                         tmp_path)
    assert verdict.error is not None and verdict.error.kind in (Kind.UNKNOWN, Kind.RULES)
    assert_placed(verdict.error)
    assert (verdict.error.span.line, verdict.error.span.column) == (1, 7)
    rules = tmp_path / "mine.rules"
    rules.write_text(f"extends: {path}\n", encoding="utf-8")
    with pytest.raises(RefereeError) as caught:
        load_spec(rules)
    assert_placed(caught.value)
    assert (caught.value.span.line, caught.value.span.column) == (1, 10)


# -- bench/fuzz.py: a small run of every surface, and checks that can see a defect --------

BENCH = ROOT / "bench"


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """bench/fuzz.py imported, its alarm set; the cache folder it chooses undone after."""
    monkeypatch.syspath_prepend(str(BENCH))
    monkeypatch.setenv("REFEREE_CACHE_DIR", os.environ.get("REFEREE_CACHE_DIR", "off"))
    fuzz = importlib.import_module("fuzz")
    before = signal.signal(signal.SIGALRM, fuzz._on_alarm)
    yield fuzz
    signal.signal(signal.SIGALRM, before)
    cache.folder.cache_clear()


def test_a_small_fuzz_of_every_surface_is_clean(bench: ModuleType, tmp_path: Path) -> None:
    figures = bench.fuzz(80, 7, 10.0, tmp_path / "kept", 3, None)
    assert {name: surface.runs > 0 for name, surface in figures.surfaces.items()} == dict.fromkeys(
        bench.SURFACES, True)
    assert {problem: figures.count(problem) for problem in bench.PROBLEMS} == dict.fromkeys(
        bench.PROBLEMS, 0), figures.examples
    assert figures.again > 0 and figures.alone > 0
    assert not (tmp_path / "kept").exists()


@pytest.mark.parametrize(("check", "argument", "found"), [
    ("unsafe", "Ann\x1b]0;x\x07", True), ("unsafe", "Ann\u202e", True),
    ("unsafe", "Ann\x9b2J", True), ("unsafe", "Ann\u200b", True), ("unsafe", "Ann\nBob", False),
    ("echoed", "Ann\x1b[2J\u202e", False), ("unreadable", "x" * 20_000, True),
    ("unreadable", "a quoted " + "9" * 5_000, True), ("unreadable", "a short message", False),
])
def test_the_fuzz_sees_unsafe_output(bench: ModuleType, check: str, argument: str,
                                     found: bool) -> None:
    outputs = importlib.import_module("fuzz_outputs")
    assert bool(getattr(outputs, check)("it", argument)) is found


def test_the_fuzz_sees_a_name_taken_as_markup(bench: ModuleType) -> None:
    outputs = importlib.import_module("fuzz_outputs")
    assert outputs.names_shown("status", "| Ann | 7 |", ["[b]Ann"])  # drawn as markup
    assert not outputs.names_shown("status", "| [b]Ann | 7 |", ["[b]Ann"])


def test_the_fuzz_sees_a_save_through_a_link(bench: ModuleType, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """With save writing through links (the defect issue 18 fixed), a live case says so."""
    live = importlib.import_module("fuzz_live")
    text = (ROOT / "tests" / "transcripts" / "go-fish" / "whole-game.txt").read_text()
    opening = live.opening(text, ROOT / "tests" / "transcripts" / "go-fish" / "x.txt")
    case = live.Case(opening, random.Random(0), tmp_path)
    assert case.open(opening.header, list(opening.events), None, ())
    link = tmp_path / "copy.txt"
    case.plant(link, "link")
    assert not case.found.problems
    monkeypatch.setattr("referee.live.commands.save_copy",
                        lambda path, text, force=False: path.write_text(text))
    case.type(f"save {link}")
    assert any("victim.txt changed" in problem for problem in case.found.problems)
