"""Bad input of any kind ends in a RefereeError with a place, never another exception."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.checker import check_text
from referee.compile import load_spec
from referee.errors import RefereeError

ROOT = Path(__file__).parent.parent
GAME = (ROOT / "tests" / "transcripts" / "authors" / "whole-game.txt").read_text()
RULES = sorted((ROOT / "rules").glob("*.rules"))
SETTINGS = settings(max_examples=150, deadline=None)


def mangled(text: str) -> st.SearchStrategy[str]:
    """``text`` cut short, with a stretch deleted, or with random characters spliced in."""
    cut = st.integers(0, len(text)).map(lambda i: text[:i])
    hole = st.tuples(st.integers(0, len(text)), st.integers(0, 40)).map(
        lambda p: text[: p[0]] + text[p[0] + p[1]:])
    splice = st.tuples(st.integers(0, len(text)), st.text(max_size=12)).map(
        lambda p: text[: p[0]] + p[1] + text[p[0]:])
    words = text.split(" ")
    vocabulary = sorted({w for w in words if w.strip()} | {
        "hand", "2", "0", "-1", "seed", "given", "hidden", ":", ",", ";", "?", ">", "RJ", "yes",
        "no", "gives", "draws", "books", "claims", "passes", "to", "for", "asks", "lays",
        "down", "queens", "T♥", "99", "option", "team", "stock", "dealer", "game"})
    swap = st.tuples(st.integers(0, len(words) - 1), st.sampled_from(vocabulary)).map(
        lambda p: " ".join([*words[: p[0]], p[1], *words[p[0] + 1:]]))
    return st.one_of(cut, hole, splice, swap)


@SETTINGS
@given(text=mangled(GAME))
def test_a_mangled_transcript_gets_a_verdict(text: str) -> None:
    verdict = check_text(text, "game.txt", ROOT / "rules")
    if not verdict.ok:
        assert verdict.error is not None and verdict.error.span is not None
        assert verdict.error.span.line >= 1 and verdict.error.span.column >= 1


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
        assert error.span is not None, error.report()
        assert error.report().startswith(f"{error.span.source}:{error.span.line}:")
