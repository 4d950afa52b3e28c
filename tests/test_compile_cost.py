"""What compiling costs, pinned by counting rather than timing (bench/bench_authoring.py
prints the times): lint and the sheet compile a rule file's options without a whole
compile each, keep none of them and cache none; the statements in force for any option
values are the ones a plain reading of the layers gives; the cache folder stays
within its bound, evicting the least recently used entry, and ignores entries that
are not its own."""

from __future__ import annotations

import os
import pickle
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.authoring.lint import lint_file
from referee.authoring.sheet import sheet_for
from referee.errors import Kind, RefereeError
from referee.language import cache, loader, syntax
from referee.language import compiler as compile
from referee.language.compiler import RuleBook, slot_of
from referee.language.extends import load_layers
from referee.language.loader import load_spec
from referee.transcript.check import check_file

TESTS = Path(__file__).parent
TINY = TESTS / "rules_support" / "tiny.rules"
MANY = 300  # options in the files below: enough that a compile per option would show


@pytest.fixture
def cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A cache folder of the test's own, empty."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(folder))
    cache.folder.cache_clear()
    loader._LOADED.clear()
    yield folder
    cache.folder.cache_clear()
    loader._LOADED.clear()


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts every whole compile of statements into a spec."""
    counted: list[int] = []
    original = compile._Compiler.compile

    def counting(self: compile._Compiler) -> object:
        counted.append(1)
        return original(self)

    monkeypatch.setattr(compile._Compiler, "compile", counting)
    compile.rule_book.cache_clear()
    return counted


def entries(folder: Path) -> list[Path]:
    return sorted(f for f in folder.iterdir() if cache.is_entry(f.name)) \
        if folder.is_dir() else []


def rule_file(folder: Path, lines: list[str], name: str = "many") -> Path:
    path = folder / f"{name}.rules"
    path.write_text(f"extends: {TINY}\n" + "".join(line + "\n" for line in lines))
    return path


def unused_options(folder: Path) -> Path:
    return rule_file(folder, [f"option o{n}: no" for n in range(MANY)])


def options_that_change(folder: Path) -> Path:
    """Every option's other value is another game (a score of its own)."""
    return rule_file(folder, [line for n in range(MANY) for line in
                              (f"option w{n}: no", f"when w{n}: score: {n + 2} points per set")])


def test_lint_of_options_nothing_tests_compiles_once_and_caches_nothing(
        tmp_path: Path, cache_folder: Path, compiles: list[int]) -> None:
    result = lint_file(unused_options(tmp_path), 0)
    assert len(result.findings) == MANY  # each option: no value of it changes the game
    assert len(compiles) == 1
    assert entries(cache_folder) == [] and len(loader._LOADED) == 0


def test_the_sheet_of_options_nothing_tests_compiles_once_and_caches_nothing(
        tmp_path: Path, cache_folder: Path, compiles: list[int]) -> None:
    sheet = sheet_for(unused_options(tmp_path)).markdown()
    assert sheet.count("nothing changes") == MANY
    assert len(compiles) == 4  # the file, its base for "Changes from", tiny's two options
    assert entries(cache_folder) == [] and len(loader._LOADED) == 0


def test_an_option_that_changes_the_game_costs_one_compile_of_its_own(
        tmp_path: Path, cache_folder: Path, compiles: list[int]) -> None:
    path = options_that_change(tmp_path)
    assert lint_file(path, 0).status == 0
    assert len(compiles) == 1 + 2 * MANY  # each value: for its option, and for its when
    compiles.clear()
    compile.rule_book.cache_clear()
    sheet = sheet_for(path).markdown()
    assert f"With w{MANY - 1}: yes:\n  - Each set scores {MANY + 1} points." in sheet
    assert len(compiles) == 4 + MANY
    assert entries(cache_folder) == []


def test_a_misfit_option_is_found_without_caching_each_option_tried(
        tmp_path: Path, cache_folder: Path) -> None:
    rules = rule_file(tmp_path, [*(f"option o{n}: no" for n in range(20)), "option big: no",
                                 "when big: score: 2 points per high set"], "misfit")
    game = tmp_path / "game.txt"
    game.write_text(f"game: {rules}\nplayers: Ann Bob\n"
                    + "".join(f"option o{n}: yes\n" for n in range(20))
                    + "option big: yes\n\nAnn asks Bob for 2S\n")
    verdict = check_file(game)
    assert verdict.error is not None and verdict.error.kind is Kind.HEADER
    assert "option big does not fit" in verdict.error.message
    assert verdict.error.span is not None and verdict.error.span.line == 23
    assert entries(cache_folder) == []


def test_a_check_caches_one_entry_and_a_second_check_reads_it(
        tmp_path: Path, cache_folder: Path, compiles: list[int]) -> None:
    path = unused_options(tmp_path)
    spec = load_spec(path, {"o7": "yes"})
    assert len(entries(cache_folder)) == 1 and len(compiles) == 1
    loader._LOADED.clear()
    assert load_spec(path, {"o7": "yes"}) == spec and len(compiles) == 1


def test_an_unknown_option_lists_a_readable_number_of_names(tmp_path: Path) -> None:
    book = RuleBook(load_layers(unused_options(tmp_path)))
    with pytest.raises(RefereeError) as caught:
        book.spec({"nosuch": "yes"})
    assert caught.value.kind is Kind.UNKNOWN
    assert f"and {MANY + 2 - 20:,} more)" in caught.value.message
    assert len(caught.value.message) < 400


# -- the statements in force, against a plain reading of the layers --------------------

SLOTS = {
    "first player": ["left of the dealer", "the dealer", "right of the dealer"],
    "if given": ["ask again", "turn passes to the next player"],
    "asked player gives": ["the card", "every card of the rank"],
}
SET_LINES = ["sets: books of 4 cards of one rank", "set aces: AS AH AD AC"]
OPTIONS = {"a": "no", "b": "yes", "n": "1"}


@st.composite
def layered(draw: st.DrawFn) -> tuple[list[str], dict[str, str]]:
    """Two layers of ``when`` statements (and re-declared options) over tiny, and
    option values to set."""
    layers = []
    for layer in range(2):
        lines = [f"option {name}: {value}" for name, value in OPTIONS.items()] if not layer \
            else [f"option {name}: {draw(st.sampled_from(['yes', 'no']))}"
                  if value in ("yes", "no") else f"option {name}: {draw(st.integers(0, 3))}"
                  for name, value in OPTIONS.items() if draw(st.booleans())]
        seen = set()
        for _ in range(draw(st.integers(0, 8))):
            name = draw(st.sampled_from(sorted(OPTIONS)))
            value = draw(st.sampled_from(["yes", "no"] if OPTIONS[name] != "1"
                                         else ["0", "1", "2", "3"]))
            if draw(st.booleans()):
                heading = draw(st.sampled_from(sorted(SLOTS)))
                statement = f"{heading}: {draw(st.sampled_from(SLOTS[heading]))}"
                key = (name, value, heading)
            else:
                statement = draw(st.sampled_from(SET_LINES))
                key = (name, value, statement)
            if key not in seen:
                seen.add(key)
                lines.append(f"when {name} is {value}: {statement}")
        layers.append(lines)
    chosen = {name: draw(st.sampled_from(["yes", "no"] if value != "1" else ["0", "1", "3"]))
              for name, value in OPTIONS.items() if draw(st.booleans())}
    return layers[0], layers[1], chosen


def plainly_in_force(layers: list, options: dict[str, str]) -> tuple[dict, list]:
    """What the language says is in force: every layer's statements in order, then every
    ``when`` in order whose option has its value, its sets replacing all the sets."""
    values: dict[str, str] = {}
    slots, sets, whens = {}, [], []
    for layer in layers:
        layer_sets = []
        for node in layer.statements:
            if node.kind == "option":
                values[node.words[0].text] = node.words[1].text
            elif node.kind == "when":
                whens.append(node)
            elif node.kind in compile.SET_KINDS:
                layer_sets.append(node)
            elif node.kind != "extends":
                slots[slot_of(node)] = node
        sets = layer_sets or sets
    values.update(options)
    when_sets = []
    for node in whens:
        wanted = node.words[1].text if len(node.words) > 1 else "yes"
        if values[node.words[0].text] == wanted:
            inner = node.parts[0]
            if inner.kind in compile.SET_KINDS:
                when_sets.append(inner)
            else:
                slots[slot_of(inner)] = inner
    return slots, when_sets or sets


@settings(max_examples=150, deadline=None)
@given(layered())
def test_the_statements_in_force_are_those_a_plain_reading_gives(
        case: tuple[list[str], list[str], dict[str, str]]) -> None:
    base, top, chosen = case
    base_text = f"extends: {TINY}\n" + "".join(f"{line}\n" for line in base)
    tiny = load_layers(TINY)
    layers = [*tiny, syntax.parse_rules_text(base_text, "base.rules", "base"),
              syntax.parse_rules_text("".join(f"{line}\n" for line in top) or "\n",
                                      "top.rules", "top")]
    book = RuleBook(layers)
    slots, sets = book.in_force(chosen)
    expected_slots, expected_sets = plainly_in_force(layers, chosen)
    assert {k: id(v) for k, v in slots.items()} == {k: id(v) for k, v in expected_slots.items()}
    assert [id(n) for n in sets] == [id(n) for n in expected_sets]
    try:
        played = book.played(chosen)
    except RefereeError as exc:
        with pytest.raises(RefereeError) as again:
            RuleBook(layers).spec(chosen)
        assert again.value.message == exc.message
        return
    fresh = RuleBook(layers).spec(chosen)  # a book that never tried anything else
    assert book.spec(chosen) == fresh and played == compile.replace(
        fresh, options=compile.NO_OPTIONS, options_set=compile.NO_OPTIONS)


# -- the cache folder -------------------------------------------------------------------

def test_the_cache_folder_stays_within_its_bound(
        cache_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "MAX_FOLDER_BYTES", 50_000)
    for number in range(60):
        cache.store(cache.key("test", str(number)), b"x" * 4_000)
        held = sum(f.stat().st_size for f in entries(cache_folder))
        assert held <= 50_000
    assert 5 <= len(entries(cache_folder)) <= 12
    assert cache.load(cache.key("test", "59")) == b"x" * 4_000  # the newest stays


def test_eviction_takes_the_least_recently_used_entry(
        cache_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    names = [cache.key("test", letter) for letter in "abc"]
    for name in names:
        cache.store(name, b"y" * 1_000)
    for age, name in enumerate(names):  # written long ago: a first, c last
        os.utime(cache_folder / f"{name}.pickle", ns=(10**18 + age, 10**18 + age))
    assert cache.load(names[0]) == b"y" * 1_000  # a is used: now the most recent
    size = (cache_folder / f"{names[0]}.pickle").stat().st_size
    monkeypatch.setattr(cache, "MAX_FOLDER_BYTES", 3 * size)
    monkeypatch.setattr(cache, "EVICT_TO", 1.0)  # one entry goes, not a quarter of them
    cache.store(cache.key("test", "d"), b"y" * 1_000)
    left = {f.name.removesuffix(".pickle") for f in entries(cache_folder)}
    assert left == {names[0], names[2], cache.key("test", "d")}  # b, the least recent, went


def test_files_that_are_not_entries_are_neither_counted_nor_removed(
        cache_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache.store(cache.key("test", "first"), b"z")
    foreign = [cache_folder / "notes.txt", cache_folder / ("A" * 64 + ".pickle"),
               cache_folder / "x.pickle"]
    for file in foreign:
        file.write_bytes(b"q" * 10_000)
    monkeypatch.setattr(cache, "MAX_FOLDER_BYTES", 1_000)
    cache.store(cache.key("test", "second"), b"z")
    assert all(file.exists() for file in foreign)
    assert len(entries(cache_folder)) == 2


@pytest.mark.parametrize("content", [b"not a pickle", pickle.dumps({"a": "foreign"}),
                                     pickle.dumps(((("x", "0" * 64),), None)), b""])
def test_a_corrupt_or_foreign_entry_is_ignored_and_replaced(
        tmp_path: Path, cache_folder: Path, content: bytes) -> None:
    path = unused_options(tmp_path)
    spec = load_spec(path)
    [entry] = entries(cache_folder)
    entry.write_bytes(content)
    loader._LOADED.clear()
    assert load_spec(path) == spec
    assert entry.read_bytes() != content  # compiled again, and stored again


def test_the_parses_kept_stay_within_their_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(syntax, "MAX_KEPT_CHARS", 20_000)
    monkeypatch.setattr(syntax, "_KEPT", {})
    text = TINY.read_text()
    for number in range(200):
        syntax.parse_rules_text(f"{text}# {number}\n", "x.rules", "x")
        assert sum(len(kept) for kept, _, _ in syntax._KEPT) <= 20_000
    again = syntax.parse_rules_text(f"{text}# 199\n", "x.rules", "x")
    assert again is syntax.parse_rules_text(f"{text}# 199\n", "x.rules", "x")


def test_the_specs_kept_in_a_process_stay_within_their_bound(
        tmp_path: Path, cache_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loader, "MAX_REMEMBERED_OPTIONS", 3 * (MANY + 2))
    path = unused_options(tmp_path)
    for number in range(20):
        load_spec(path, {f"o{number}": "yes"})
        assert sum(len(s.options) for _, _, s in loader._LOADED.values()) <= 3 * (MANY + 2)


def test_the_sheet_of_a_variant_whose_base_is_no_game_alone(tmp_path: Path) -> None:
    """The base tests an option only the variant declares: it is compared with nothing."""
    (tmp_path / "base.rules").write_text(f"extends: {TINY}\nwhen fast: first player: the dealer\n")
    top = tmp_path / "top.rules"
    top.write_text("extends: base.rules\noption fast: no\n")
    sheet = sheet_for(top).markdown()
    assert "Changes from" not in sheet and "With fast: yes:" in sheet
