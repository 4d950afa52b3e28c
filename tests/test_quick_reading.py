"""The quick reader of the forms people type most (``notation._quick_event``) reads each
segment exactly as the reference reader (``notation._read_event``) does, or leaves it to
it: on every line of every transcript under tests/, on the terse games of bench/terse.py,
and on segments made up of the words, marks and spaces of the notation (hypothesis).
Whole transcripts read the same with the quick reader and without it."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import RefereeError
from referee.transcript import notation
from referee.transcript.notation import Event, read_transcript

ROOT = Path(__file__).resolve().parent.parent
TRANSCRIPTS = sorted((ROOT / "tests").rglob("*.txt"))


def terse_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("terse", ROOT / "bench" / "terse.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("terse", module)
    spec.loader.exec_module(module)
    return module


def reference(segment: str, offset: int, line: str) -> Event | None:
    """What the reference reader reads, or None when it refuses the segment."""
    try:
        return notation._read_event(segment, offset, 7, line, "x.txt")
    except RefereeError:
        return None


def assert_read_alike(line: str) -> None:
    """Every segment of ``line`` is read alike by both readers, or left to the reference."""
    body = line.split("#", 1)[0]
    start = 0
    for segment in body.split(";"):
        if segment.strip():
            quick = notation._quick_event(segment, start, 7, line, "x.txt")
            if quick is not None:
                assert quick == reference(segment, start, line), (line, segment)
        start += len(segment) + 1


def lines_of_transcripts() -> list[str]:
    return [line for path in TRANSCRIPTS
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines()]


def terse_lines() -> list[str]:
    terse = terse_module()
    rng = random.Random(5)
    lines = []
    for path in TRANSCRIPTS:
        if path.name == "whole-game.txt":
            text = [line for line in path.read_text(encoding="utf-8").splitlines()
                    if line and not line.startswith("#")]
            lines += terse.terse(text, rng.randrange(1000))
    return lines


def test_the_quick_reader_reads_every_transcript_line_as_the_reference() -> None:
    lines = lines_of_transcripts() + terse_lines()
    assert len(lines) > 5000
    quick = 0
    for line in lines:
        assert_read_alike(line)
        quick += notation._quick_event(line.split("#")[0].split(";")[0] or " ", 0, 1,
                                       line, "") is not None
    assert quick > 1000  # it does read the common forms


WORDS = ["Ann", "bob", "CY", "asks", "ASKS", "for", "FOR", "gives", "says", "draws", "books",
         "lays", "down", "out", "no", "No", "yes", "YES", "go", "fish", "to", "lay", "any",
         "turn", "up", "hand", "2", "12", "007", "²", "QS", "qs", "10h", "T♥", "9♣", "sevens",
         "queens", "low", "spades", "passes", "plays", "takes", "claims", "shows", "a\u017fks",
         "Kelvin", "\u212a", "İ", "?", ":", ",", ">"]
SPACES = ["", " ", "  ", "\t", "\u00a0", "\u2003", "\u3000"]


FORMS = [[], ["Ann", "asks", "Bob", "for"], ["Ann", ":", "Bob", ","], ["Ann", ">", "Bob"],
         ["Bob", "gives"], ["Bob", "says"], ["Bob", ":"], ["Ann", "draws"], ["Ann", "books"]]


@st.composite
def segments(draw: st.DrawFn) -> str:
    """Words of the notation, often after the start of a form people type."""
    words = draw(st.sampled_from(FORMS)) + draw(
        st.lists(st.sampled_from(WORDS), min_size=1, max_size=7))
    return "".join(draw(st.sampled_from(SPACES)) + word for word in words) + draw(
        st.sampled_from(SPACES))


@settings(max_examples=3000, deadline=None)
@given(st.lists(segments(), min_size=1, max_size=3), st.sampled_from(["", "  ", "x;"]))
def test_the_quick_reader_reads_made_up_segments_as_the_reference(
        parts: list[str], before: str) -> None:
    assert_read_alike(before + ";".join(parts))


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_transcripts_read_the_same_without_the_quick_reader(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = path.read_text(encoding="utf-8", errors="replace")
    forget = (notation._READ_LINES.clear, notation._READ_JOINED.clear,
              notation._READ_SEGMENTS.clear)
    for clear in forget:
        clear()
    quick = read_transcript(text, str(path))
    for clear in forget:
        clear()
    monkeypatch.setattr(notation, "_quick_event", lambda *_: None)
    slow = read_transcript(text, str(path))
    for clear in forget:
        clear()
    assert (quick.headers, quick.events) == (slow.headers, slow.events)
    assert [e.span for e in quick.events] == [e.span for e in slow.events]
    assert (quick.error and (quick.error.kind, quick.error.message, quick.error.span)) == (
        slow.error and (slow.error.kind, slow.error.message, slow.error.span))


def test_lines_read_again_from_the_memos_read_as_afresh() -> None:
    """The events of a line, and of each segment of a line of several events, come from
    the memos once read; they read exactly as when read afresh, wherever they stand."""
    lines = [line for line in lines_of_transcripts() + terse_lines() if ";" in line]
    lines += [f"{a};{b}" for a, b in zip(lines[::2], lines[1::2], strict=False)]
    assert len(lines) > 100
    text = "\n".join(lines)
    fresh = []
    for line in lines:
        notation._READ_LINES.clear()
        notation._READ_JOINED.clear()
        notation._READ_SEGMENTS.clear()
        fresh.append(notation._event_line(line, 9, "x.txt"))
    notation._event_line("Ann > Bob 7; no", 1, "y.txt")
    for line, (events, error) in zip(lines * 2, fresh * 2, strict=True):
        again, error_again = notation._event_line(line, 9, "x.txt")
        assert again == events, line
        assert [e.span for e in again] == [e.span for e in events]
        assert (error and (error.message, error.span)) == (
            error_again and (error_again.message, error_again.span))
    assert notation._READ_SEGMENTS and notation._READ_JOINED and text
