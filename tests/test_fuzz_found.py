"""Defects bench/fuzz.py found, each pinned by a test that fails without its fix."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.errors import Kind
from referee.language import cache, loader
from referee.live.start import Seating, resume, start
from referee.transcript.check import check_file


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


def test_a_process_writing_many_entries_reads_the_cache_folder_seldom(
        cache_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each entry written had the whole folder read and every entry's size asked: once
    the folder was full (64 MiB of entries), every compile a long run stored cost tens
    of milliseconds more (the fuzz slowed down to a crawl). A process now reads the
    folder at its first write and once per quarter of the bound written, and the
    folder still never holds more than the bound."""
    bound, entry, writes = 64_000, 1_000, 400
    monkeypatch.setattr(cache, "MAX_FOLDER_BYTES", bound)
    counted = []
    evict = cache.evict

    def counting(place: Path, *limits: int) -> int:
        counted.append(place)
        return evict(place, *limits)

    monkeypatch.setattr(cache, "evict", counting)
    for number in range(writes):
        cache.store(cache.key("fuzz", str(number)), b"x" * entry)
        held = sum(f.stat().st_size for f in cache_folder.iterdir() if cache.is_entry(f.name))
        assert held <= bound
    assert cache.load(cache.key("fuzz", str(writes - 1))) == b"x" * entry
    assert len(counted) <= writes * entry // (bound // 4) + 2


def test_the_file_of_a_table_that_typed_done_checks_as_the_table_played(
        tmp_path: Path) -> None:
    """'done' ends the laying at once; the file kept only a '# done' comment that
    --resume honoured and check did not, so a book laid after it, which the table
    accepted against the cards, checked as legal."""
    table = start(Seating("authors", ("Ann", "Bob", "Cy", "Dee"), dealer="Dee"),
                  tmp_path / "live.txt")
    for line in ("Ann books 5", "done", "Bob books Q", "accept"):
        table.handle(line)
    table.journal.close()
    verdict = check_file(table.journal.path)
    assert verdict.error is not None and verdict.error.kind is Kind.CONTRADICTION
    assert verdict.error.span is not None and verdict.error.span.line == 8
    again = resume(table.journal.path, print)
    assert again.session.describe() == table.session.describe()
    again.journal.close()


@pytest.mark.parametrize("note", ["# done", "#done", "# accepted by the table: it was fine",
                                  "# cut short, not played: Bob says no"])
def test_a_note_typed_at_the_table_is_never_taken_for_the_referees_mark(
        tmp_path: Path, note: str) -> None:
    """A note is kept as typed, and '# done' or '# accepted by the table: ...' typed as
    one was then read as the referee's mark: check filled in the end of the laying
    there, and --resume refused the table's own file."""
    table = start(Seating("authors", ("Ann", "Bob", "Cy", "Dee"), dealer="Dee"),
                  tmp_path / "live.txt")
    for line in ("Ann books 5", note, "Bob books Q"):
        assert not table.handle(line).refused
    table.journal.close()
    assert table.journal.lines[-2] == f"# note: {note.removeprefix('#').strip()}"
    verdict = check_file(table.journal.path)
    assert verdict.ok and verdict.state == table.session.describe()
    again = resume(table.journal.path, print)
    assert again.session.describe() == table.session.describe()
    again.journal.close()


@pytest.mark.slow  # about 8 s: a hundred CP-SAT questions
def test_the_counting_puzzles_of_one_knowledge_table_share_one_cp_sat_model(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A two-player hidden Go Fish game over, eight cards left between a hand and the
    stock: its knowledge table asks CP-SAT about a hundred counting puzzles Minicard
    leaves open. Each built its own model and was first asked of Minicard a second
    time: 11.6 s, past the fuzz's 10 s. They share one model now, asked straight. (Only
    the table's models are counted: checking the events may also ask CP-SAT, when
    Minicard runs out of its time on a loaded machine.)"""
    from referee.knowledge import model, solving

    made = []

    class Counted(solving.HardQuestions):
        def __init__(self, *args: Any) -> None:
            made.append(self)
            super().__init__(*args)

    monkeypatch.setattr(model, "HardQuestions", Counted)
    verdict = check_file(Path(__file__).parent / "rules_support" / "fuzz-found"
                         / "knowledge-puzzles.txt", knowledge=True)
    assert verdict.ok
    assert len(made) == 1
    knowledge = verdict.to_json()["knowledge"]
    assert {card for card, places in knowledge.items() if places != ["sets"]} == {
        "JS", "JH", "JD", "JC", "QS", "QH", "QD", "QC"}
    assert all(sorted(knowledge[rank + suit]) == ["Bob", "stock"]
               for rank in "JQ" for suit in "SHDC")
