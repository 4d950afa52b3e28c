"""The quick reader of the forms people type most (``notation._quick_event``) reads each
segment exactly as the reference reader (``event_words.read_event``) does, or leaves it to
it: on every line of every transcript under tests/, on the terse games of bench/terse.py,
and on segments made up of the words, marks and spaces of the notation (hypothesis).
Whole transcripts read the same with the quick reader and without it. The words of a
line (``notation._words``) are those a regular expression finds."""

from __future__ import annotations

import importlib.util
import random
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.caches import cache_sizes, clear_caches
from referee.errors import RefereeError
from referee.transcript import event_words, notation
from referee.transcript import segments as memo_of_segments
from referee.transcript.events import Event, EventKind, Token
from referee.transcript.notation import read_transcript

ROOT = Path(__file__).resolve().parent.parent
TRANSCRIPTS = sorted((ROOT / "tests").rglob("*.txt"))
MARKED = "".join(map(chr, notation.FULLWIDTH_MARKS))  # as ":" is "\uff1a"
WORD = re.compile(r"[^\s:,?>;]+|[:,?>]")  # a word or a mark; white space and ';' between


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
        return event_words.read_event(segment, *notation._words(segment, offset), 7, line,
                                      "x.txt")
    except RefereeError:
        return None


def assert_read_alike(line: str) -> None:
    """Every segment of ``line`` is read alike by both readers, or left to the reference."""
    body = line.split("#", 1)[0]
    start = 0
    for segment in body.split(";"):
        if segment.strip():
            quick = notation._quick_event(*notation._words(segment, start),
                                          len(segment.strip()), 7, line, "x.txt")
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
        segment = line.split("#")[0].split(";")[0] or " "
        quick += notation._quick_event(*notation._words(segment, 0),
                                       len(segment.strip()), 1, line, "") is not None
    assert quick > 1000  # it does read the common forms


WORDS = ["Ann", "bob", "CY", "asks", "ASKS", "for", "FOR", "gives", "says", "draws", "books",
         "lays", "down", "out", "no", "No", "yes", "YES", "go", "fish", "to", "lay", "any",
         "turn", "up", "hand", "2", "12", "007", "²", "QS", "qs", "10h", "T♥", "9♣", "sevens",
         "queens", "low", "spades", "passes", "plays", "takes", "claims", "shows", "a\u017fks",
         "Kelvin", "\u212a", "İ", "?", ":", ",", ">", "no.", "fish!", "!", "A♥\ufe0f", "8's",
         "an", "the", "of", "hearts", "some", "card", "cards", "one", "two", "7s", "7C.", "2.",
         "queen", "aces!", "\u3001", "\u3002", "nope", "Yep!", "nah.", "asked", "gave",
         "drew", "said", "declares", "fishes", "goes", "fishing", "hands", "over", "do",
         "you", "have", "got", "if", "she", "has", "whether", "and", "-", "Ann-", "Dr."]
SPACES = ["", " ", "  ", "\t", "\u00a0", "\u2003", "\u3000"]


FORMS = [[], ["Ann", "asks", "Bob", "for"], ["Ann", ":", "Bob", ","], ["Ann", ">", "Bob"],
         ["Bob", "gives"], ["Bob", "says"], ["Bob", ":"], ["Ann", "draws"], ["Ann", "books"],
         ["Ann", "-", ">", "Bob"], ["Ann-", ">", "Bob"], ["Bob", "gives", "Ann"],
         ["Ann", ":", "Bob", ",", "do", "you", "have"], ["Bob", ":", "no", ","]]


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
    memo_of_segments.READ_SEGMENTS.clear()  # each read afresh, neither from the other's memo
    quick = read_transcript(text, str(path))
    memo_of_segments.READ_SEGMENTS.clear()
    monkeypatch.setattr(notation, "_quick_event", lambda *_: None)
    slow = read_transcript(text, str(path))
    memo_of_segments.READ_SEGMENTS.clear()
    assert (quick.headers, quick.events) == (slow.headers, slow.events)
    assert [e.span for e in quick.events] == [e.span for e in slow.events]
    assert (quick.error and (quick.error.kind, quick.error.message, quick.error.span)) == (
        slow.error and (slow.error.kind, slow.error.message, slow.error.span))


def words_by_the_expression(segment: str, offset: int) -> tuple[list[str], list[int]]:
    """The words the regular expression finds, and their 1-based columns."""
    found = list(WORD.finditer(segment))
    return [m.group() for m in found], [offset + m.start() + 1 for m in found]


def test_the_words_of_every_transcript_line_are_those_the_expression_finds() -> None:
    lines = lines_of_transcripts() + terse_lines()
    assert any(";" in line for line in lines) and any("?" in line for line in lines)
    for line in lines:
        expected = words_by_the_expression(line, 3)
        assert notation._scanned_words(line, 3) == expected, line
        assert notation._split_words(line, 3) == expected, line
        assert notation._words(line, 3) == expected, line


def test_every_character_is_told_apart_as_the_expression_tells_it() -> None:
    """The reader tells characters by their numbers: ``;`` and white space (``\\s``, as
    ``str.isspace`` has it) separate words, ``: , ? >`` are words alone."""
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        assert notation._separates(code) == (char == ";" or char.isspace()), code
        assert notation._is_mark(code) == (char in ":,?>"), code


# what a line holds, by a regular expression each (notation.survey's flags)
HOLDING = ((notation.HOLDS_COLON, re.compile(":")),
           (notation.HOLDS_SEMICOLON, re.compile(";")),
           (notation.HOLDS_COMMENT, re.compile("#")),
           (notation.HOLDS_QUOTE, re.compile("[\"'\u2018\u2019\u201c\u201d]")),
           (notation.HOLDS_SENTENCE_END, re.compile("[.?!] | [-\u2013\u2014] ")),
           (notation.HOLDS_FULLWIDTH, re.compile("[\u2192\u3001\u3002\uff01\uff03"
                                                 "\uff0c\uff0e\uff1a\uff1b\uff1e\uff1f]")))


def holding(line: str) -> int:
    """The flags of what ``line`` holds, as the regular expressions find it."""
    return sum(flag for flag, expression in HOLDING if expression.search(line))


def assert_surveyed_alike(line: str) -> None:
    expected = holding(line)
    assert notation._scanned_survey(line) == expected, line
    assert notation._searched_survey(line) == expected, line
    assert notation.survey(line) == expected, line
    assert notation._holds_a_mark(line) == bool(expected & notation.HOLDS_FULLWIDTH), line


def test_what_every_transcript_line_holds_is_told_alike_each_way() -> None:
    lines = lines_of_transcripts() + terse_lines()
    flags = 0
    for line in lines:
        assert_surveyed_alike(line)
        flags |= holding(line)
    assert flags == sum(flag for flag, _ in HOLDING)  # each is met


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=MARKED + " .?!-\u2013\u2014\"'\u2018\u2019\u201c\u201d\u201a:;#Ab7"
               "\u2665\u3000\u00a0\u2012\u2015", max_size=30))
def test_what_made_up_text_holds_is_told_alike_each_way(line: str) -> None:
    assert_surveyed_alike(line)


MARKS_AND_SPACES = [":", ",", "?", ">", ";", ";;", "#", " ", "\t", "\u00a0", "\u2003",
                    "\u3000", "\x1c", "\x85", "\u200b", "\ufeff"]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(WORDS + MARKS_AND_SPACES + ["a", "♦", "\u0130"]), max_size=12))
def test_the_words_of_made_up_text_are_those_the_expression_finds(pieces: list[str]) -> None:
    text = "".join(pieces)
    expected = words_by_the_expression(text, 0)
    assert notation._scanned_words(text, 0) == expected
    assert notation._split_words(text, 0) == expected
    first = notation._first_word(text)
    assert first == next(iter(words_by_the_expression(text, 0)[0]), ""), text


def test_lines_read_again_from_the_memo_read_as_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """A segment remembered where it was first read (alone on its line or joined with
    others, at any column) reads, anywhere else, as it does afresh."""
    lines = [line for line in lines_of_transcripts() + terse_lines()
             if notation._event_line(line, 1, "")[1] is None and not line.startswith("hand ")]
    lines += [f"  {a} ;{b}" for a, b in zip(lines[::3], lines[1::3], strict=False)
              if "hand" not in a + b]
    text = "\n".join(lines)
    monkeypatch.setattr(memo_of_segments.ROOM, "segments", 0)  # nothing remembered
    memo_of_segments.READ_SEGMENTS.clear()
    fresh = read_transcript(text, "x.txt")
    assert len(fresh.events) > 1000 and not memo_of_segments.READ_SEGMENTS
    monkeypatch.setattr(memo_of_segments.ROOM, "segments", 10**6)
    read_transcript("\n".join(reversed(lines)), "y.txt")  # remembered at other places
    assert len(memo_of_segments.READ_SEGMENTS) > 500
    again = read_transcript(text, "x.txt")
    assert again.events == fresh.events
    assert [e.span for e in again.events] == [e.span for e in fresh.events]
    assert (again.error and again.error.span) == (fresh.error and fresh.error.span)
    memo_of_segments.READ_SEGMENTS.clear()


def words_of(event: Event) -> list[Token]:
    """Every word an event keeps: its player, target, items and groups."""
    words = [t for t in (event.player, event.target) if t is not None] + list(event.items)
    for name, cards in event.groups:
        words += [name, *cards]
    return words


def test_every_word_is_placed_where_it_is_written_however_often_read() -> None:
    """A word keeps its offset from its event's first word (``Token``), so an event read
    from the memo at another column places every word (``Event.place``, the caret of an
    unknown name or card) exactly on it; so does a header line."""
    lines = [line for line in lines_of_transcripts() + terse_lines()
             if notation._event_line(line, 1, "")[1] is None and not line.startswith("hand ")]
    shifted = [f" \t{a} ;  {b}" for a, b in zip(lines[::2], lines[1::2], strict=False)
               if "hand" not in a + b]
    memo_of_segments.READ_SEGMENTS.clear()
    placed = 0
    for text in ("\n".join(lines), "\n".join(shifted), "\n".join(reversed(shifted))):
        for event in read_transcript(text, "x.txt").events:
            for word in words_of(event):
                at = event.place(word)
                assert at.line == event.span.line and at.text == event.span.text
                assert at.text[at.column - 1:at.column - 1 + at.width] == word.text, at
                placed += 1
    assert placed > 10_000
    header = read_transcript("  hand   Ann :  7S\tQH\ngame: go-fish", "x.txt").headers
    for line in header:
        for word in [*(line.values), *([line.name] if line.name else [])]:
            at = line.place(word)
            assert at.text[at.column - 1:at.column - 1 + at.width] == word.text
    memo_of_segments.READ_SEGMENTS.clear()


def test_a_segment_that_would_be_a_header_line_is_not_remembered() -> None:
    """``Ann > Bob 7; dealer: Bob, 7?`` reads as two asks (a player may be named
    'dealer'); a line ``dealer: Bob, 7?`` alone, after the events have begun, is a
    header line and is refused as one, whatever was read before."""
    memo_of_segments.READ_SEGMENTS.clear()
    first = read_transcript("Cy > Ann 2\nAnn > Bob 7; dealer: Bob, 7?", "x.txt")
    assert [e.kind for e in first.events] == [EventKind.ASK] * 3
    again = read_transcript("Cy > Ann 2\ndealer: Bob, 7?", "x.txt")
    assert again.error is not None and "header lines come before" in again.error.message
    memo_of_segments.READ_SEGMENTS.clear()

@pytest.mark.parametrize("first", ["stock draws", "Hand draws", "deal: Ann draws",
                                   "players asks Bob for 7"])
def test_a_segment_starting_with_a_header_key_is_read_as_a_header_each_time(
        first: str) -> None:
    """A line whose first segment was remembered skips the header check, so a segment
    whose first word is a header key is not remembered: the line it starts is refused
    as a header line, however often it was met before (alone, or later in a line)."""
    memo_of_segments.READ_SEGMENTS.clear()
    line = f"{first}; Ann: Bob, 7?"
    fresh = read_transcript(f"Cy > Ann 2\n{line}", "x.txt").error
    assert fresh is not None
    read_transcript(f"Cy > Ann 2\n{first}\nAnn > Bob 7; {first}", "y.txt")
    again = read_transcript(f"Cy > Ann 2\n{line}", "x.txt").error
    assert again is not None and (again.kind, again.message, again.span) == (
        fresh.kind, fresh.message, fresh.span)
    assert all(not key.lower().startswith(("stock", "hand", "deal", "players"))
               for key in memo_of_segments.READ_SEGMENTS)
    memo_of_segments.READ_SEGMENTS.clear()


def test_a_long_segment_is_not_remembered() -> None:
    """The memo's entries are short, so its bound on their count bounds its size."""
    memo_of_segments.READ_SEGMENTS.clear()
    cards = " ".join(f"{rank}{suit}" for rank in "23456789" for suit in "SHDC")
    claim = f"Ann claims low spades: Ann {cards}"
    assert len(claim) > memo_of_segments.LONGEST_READ_SEGMENT
    text = f"Cy > Ann 2\n{claim}\nAnn > Bob 7; {claim}"
    events = read_transcript(text, "x.txt").events
    assert len(events) == 4
    assert [t.text for t in events[1].items] == [t.text for t in events[3].items]
    kept = memo_of_segments.READ_SEGMENTS
    assert claim not in kept and "Cy > Ann 2" in kept
    memo_of_segments.READ_SEGMENTS.clear()


def test_the_memo_takes_segments_up_to_its_bound_on_their_characters(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Its room is counted in characters too, and all of it is there again once the
    memo is emptied."""
    monkeypatch.setattr(memo_of_segments.ROOM, "characters", 40)
    memo_of_segments.READ_SEGMENTS.clear()
    lines = [f"Ann asks Bob for {rank}H" for rank in "2345"]  # 18 characters each
    read_transcript("\n".join(lines), "x.txt")
    assert sorted(memo_of_segments.READ_SEGMENTS) == lines[:2]
    memo_of_segments.READ_SEGMENTS.clear()
    read_transcript("\n".join(reversed(lines)), "y.txt")
    assert sorted(memo_of_segments.READ_SEGMENTS) == sorted(lines[2:])
    memo_of_segments.READ_SEGMENTS.clear()


def test_the_memo_holds_little_memory_however_its_segments_run() -> None:
    """Long segments of one-letter words make the most objects an event can hold: the
    memo keeps few of them."""
    import tracemalloc
    memo_of_segments.READ_SEGMENTS.clear()
    lines = []
    for number in range(8_000):
        words = " ".join(["x"] * 40)
        lines.append(f"A asks B for {words}"[:memo_of_segments.LONGEST_READ_SEGMENT - 6]
                     + f" {number:05d}")
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        assert len(read_transcript("\n".join(lines), "x.txt").events) == 8_000
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    kept = len(memo_of_segments.READ_SEGMENTS)
    memo_of_segments.READ_SEGMENTS.clear()
    assert 0 < kept < 5_000 and held < 20_000_000, (kept, held)


def test_the_line_memo_keeps_the_first_lines_it_meets_up_to_its_bound(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Once full it takes no more lines, and the lines it holds stay: it never turns over."""
    monkeypatch.setattr(memo_of_segments.ROOM, "segments", 5)
    memo_of_segments.READ_SEGMENTS.clear()
    first = [f"Ann asks Bob for {rank}H" for rank in "23456"]
    read_transcript("\n".join(first), "x.txt")
    kept = dict(memo_of_segments.READ_SEGMENTS)
    assert sorted(kept) == sorted(first)
    later = [f"Bob asks Cy for {rank}S" for rank in "789"] + ["Ann > Bob 7; no"]
    events = read_transcript("\n".join(later + first), "y.txt").events
    assert len(events) == 10
    assert kept == memo_of_segments.READ_SEGMENTS and all(
        memo_of_segments.READ_SEGMENTS[line] is event for line, event in kept.items())
    memo_of_segments.READ_SEGMENTS.clear()



def test_remembered_segments_share_the_words_they_write_at_the_same_place() -> None:
    """A repeat touches its words (``segments.moved``): those written at the same place
    in many segments are one object, so few stay in the processor's caches. Shared words
    read as the segment's own, and the words are kept only while the memo keeps them."""
    memo_of_segments.READ_SEGMENTS.clear()
    lines = ["Ann > Bob 7s", "Ann > Cy 7s", "Ann: Bob, 7s?", "Dee > Bob 7s",
             "Ann asks Bob for 7s", "Ann > Bob 8s; Ann > Bob 7s"]
    events = read_transcript("\n".join(lines), "x.txt").events
    again = read_transcript("\n".join(reversed(lines)), "y.txt").events
    kept = memo_of_segments.READ_SEGMENTS
    assert kept["Ann > Bob 7s"].player is kept["Ann > Cy 7s"].player \
        is kept["Ann: Bob, 7s?"].player
    assert kept["Ann > Bob 7s"].target is kept["Dee > Bob 7s"].target  # 'Bob' at 6 in both
    assert kept["Ann > Bob 7s"].items is kept["Dee > Bob 7s"].items
    assert kept["Ann > Bob 7s"].target is not kept["Ann: Bob, 7s?"].target  # at 5, not 6
    assert kept["Ann > Bob 7s"].items is not kept["Ann > Cy 7s"].items  # at 10, not 9
    def written(event: Event) -> tuple[object, ...]:
        return (event.kind.value, event.player, event.target, event.items, event.key)
    assert sorted(map(repr, map(written, events))) == sorted(map(repr, map(written, again)))
    words = {(t.text, t.offset) for w in kept.values() for t in (w.player, w.target) if t}
    items = {(w.items[0].text, w.items[0].offset) for w in kept.values() if len(w.items) == 1}
    sizes = cache_sizes()  # the words kept, each once, at every offset
    assert sizes["referee.transcript.segments._SHARED_TOKENS"] == len(words) == 6
    assert sizes["referee.transcript.segments._SHARED_ITEMS"] == len(items) == 4
    clear_caches()
    assert not any(cache_sizes()[f"referee.transcript.segments.{name}"]
                   for name in ("READ_SEGMENTS", "_SHARED_TOKENS", "_SHARED_ITEMS"))


def test_a_memo_that_keeps_no_segment_keeps_no_word(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shared words are bounded by the memo they serve."""
    clear_caches()
    monkeypatch.setattr(memo_of_segments.ROOM, "segments", 0)
    read_transcript("\n".join(f"Ann > Bob {n}" for n in range(100)), "x.txt")
    sizes = cache_sizes()
    assert sizes["referee.transcript.segments.READ_SEGMENTS"] == 0
    assert sizes["referee.transcript.segments._SHARED_TOKENS"] == 0
    assert sizes["referee.transcript.segments._SHARED_ITEMS"] == 0


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(SPACES + [""] * 3),
                          st.sampled_from(["Ann > Bob 7", "no", "Bob: no", "yes", "Cy > Ann 7♠",
                                           "Ann: Bob, q♥?", "", "Ann draws"]),
                          st.sampled_from(SPACES + [""] * 3)), min_size=2, max_size=4))
def test_a_line_of_remembered_segments_reads_as_afresh_however_spaced(
        parts: list[tuple[str, str, str]]) -> None:
    """Each segment of a line joined by ';' is cut from the line without the white space
    around it (``notation._remembered_line``), wherever and whatever that space is."""
    line = ";".join(before + segment + after for before, segment, after in parts)
    memo_of_segments.READ_SEGMENTS.clear()
    fresh = read_transcript(line, "x.txt")
    again = read_transcript(line, "x.txt")  # every segment now remembered
    if fresh.error is None:
        assert notation._remembered_line(line, 1, "x.txt") is not None
    assert again.events == fresh.events
    assert [e.span for e in again.events] == [e.span for e in fresh.events]
    assert (again.error and again.error.span) == (fresh.error and fresh.error.span)
    memo_of_segments.READ_SEGMENTS.clear()


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=MARKED + "Ann BobQ7♠♥♦♣\u00a0\u3000:;,é", max_size=40))
def test_fullwidth_marks_read_as_the_marks_and_a_line_without_one_is_kept(line: str) -> None:
    """Each mark character for its mark, one for one; any other character as it is; and
    a line holding no mark is the line itself (not copied character by character)."""
    expected = "".join(notation.FULLWIDTH_MARKS.get(ord(char), char) for char in line)
    plain = notation.plain_marks(line)
    if notation._first_word(expected).lower() != "game":
        assert plain == expected
    assert len(plain) == len(line)
    if not any(char in MARKED for char in line):
        assert plain is line
