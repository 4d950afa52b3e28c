"""bench/bench_first_sight.py: it forgets exactly the segments it says it times, and they
are read, kept and resolved anew, so that its figures are of first sights."""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.caches import clear_caches
from referee.transcript.check import check_file
from referee.transcript.events import EVENT_ASK, EVENT_CLAIM
from referee.transcript.resolve import _TABLES
from referee.transcript.segments import READ_SEGMENTS, ROOM

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from bench_first_sight import beyond, forget_moves, forget_segments, measure  # noqa: E402
from terse import write_corpora  # noqa: E402


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("first-sight")
    write_corpora(folder, 4, 2026)
    return folder


@pytest.fixture(autouse=True)
def empty_memos() -> Iterator[None]:
    clear_caches()
    yield
    clear_caches()


def checked(folder: Path) -> None:
    for file in sorted(folder.glob("*.txt")):
        assert check_file(file).ok, file


def test_only_the_claims_are_left_remembered_and_the_room_is_given_back(corpus: Path) -> None:
    checked(corpus / "literature-terse")
    before = dict(READ_SEGMENTS)
    used = ROOM.used
    forgotten = forget_segments()
    assert forgotten and set(forgotten) == {text for text, words in before.items()
                                            if words.kind is not EVENT_CLAIM}
    assert READ_SEGMENTS and all(words.kind is EVENT_CLAIM for words in READ_SEGMENTS.values())
    assert ROOM.used == used - sum(map(len, forgotten))
    checked(corpus / "literature-terse")
    assert set(READ_SEGMENTS) == set(before)  # each kept again: the bench times its reading
    assert all(READ_SEGMENTS[text] is not before[text] for text in forgotten)


def test_forgotten_moves_are_resolved_anew(corpus: Path) -> None:
    checked(corpus / "go-fish-terse")
    forget_moves()
    asks = [(text, words) for text, words in READ_SEGMENTS.items()
            if words.kind is not EVENT_CLAIM]
    assert asks and all(words.resolved is None for _, words in asks)
    assert not any(text in table.by_words for table in _TABLES.values() for text, _ in asks)
    checked(corpus / "go-fish-terse")
    assert all(words.resolved is not None for _, words in asks if words.kind is EVENT_ASK)


def test_the_figures_of_a_corpus(corpus: Path) -> None:
    figures = measure(corpus / "literature", 1)
    assert figures["claims"] > 0 and figures["others"] > 0
    assert figures["kept again"] == figures["others"]
    assert all(math.isfinite(figures[name]) and figures[name] != 0
               for name in ("found", "read", "resolved"))
    assert figures["found"] > 0


def test_a_difference_within_the_noise_is_not_a_figure() -> None:
    assert beyond([1.00, 1.01, 1.05], [0.90, 0.91, 0.95]) == pytest.approx(0.10)
    assert math.isnan(beyond([1.000, 1.004], [0.999, 1.003]))  # 0.001 beside a spread of 0.008
    assert beyond([1.0], [0.9]) == pytest.approx(0.1)  # one pass: no spread to judge by
