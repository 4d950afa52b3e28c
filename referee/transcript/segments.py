"""The memo of segments: what each segment of a transcript line (a line, or a part of
one between ``;``) reads as, remembered by its text, so that a repeat costs only its
place (referee/transcript/notation.py reads, and consults the memo).

A remembered segment is one object, its :class:`Words`: its text, the event it reads as
but for its place, and the move it was last resolved to. A repeat makes an event of it
(:func:`moved`) touching that object and the words it holds, and those words are shared
by every segment that writes them at the same place. This keeps what a repeat touches
small: a corpus typed in many spellings (``7♠``, ``7s``, ``7S``) remembers three times
the segments of one typed in one, and what a repeat touches must stay in the
processor's caches for terse writing to check as fast as canonical (bench/bench_terse.py).

The memo keeps the first segments it meets, up to its bound, and no others: the ones
that repeat come early, and a memo that turned over would make, keep and free ever new
objects for segments that do not come again, which costs more than reading them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sized
from typing import Final, TypeVar

from referee.caches import memo
from referee.spans import Span
from referee.transcript.events import EVENT_NEW_HAND, Event, Token, Words

# the text of a segment, white space around it stripped: its words (notation.py)
READ_SEGMENTS: Final[dict[str, Words]] = memo("referee.transcript.segments.READ_SEGMENTS")
LONGEST_READ_SEGMENT: Final = 96  # characters: a longer segment is read afresh each time


class MemoRoom:
    """The room of the memo of segments: at most ``segments`` segments, of
    ``characters`` in all; ``used``: the characters of those it holds. One object's
    fields, where three module variables cost a look-up in the module's dict each time
    (compiled) for every segment read for the first time."""

    def __init__(self, segments: int, characters: int) -> None:
        self.segments = segments
        self.characters = characters
        self.used = 0


ROOM: Final = MemoRoom(16_384, 24 * 16_384)

T = TypeVar("T")


def _count_kept(kept: Mapping[int, Sized]) -> int:
    """How many words a memo of shared words keeps, at every offset."""
    return sum(map(len, kept.values()))


# The words of remembered segments, each kept once: a remembered segment's player,
# target and item are these (:func:`remember`), shared by every segment that writes
# them at the same place ('Ann' first, 'Bob' at 6, '7s' at 10), so that they stay in
# the processor's caches. Kept by offset, then text (a dict of strings: no key made of
# the two to hash and compare); items, when one. Bounded as the memo is (an offset is
# at most LONGEST_READ_SEGMENT): emptied with it.
_SHARED_TOKENS: Final[dict[int, dict[str, Token]]] = memo(
    "referee.transcript.segments._SHARED_TOKENS", size=_count_kept)
_SHARED_ITEMS: Final[dict[int, dict[str, tuple[Token, ...]]]] = memo(
    "referee.transcript.segments._SHARED_ITEMS", size=_count_kept)


def remember(stripped: str, words: Words) -> None:
    """Remember ``words`` as what the segment ``stripped`` reads, while the memo has
    room, unless its place matters beyond its columns: a new hand (the deal lines after
    it make its event). Room: :data:`ROOM`, none longer than :data:`LONGEST_READ_SEGMENT`
    (an event's objects grow with its words), which bounds the memo's memory: about
    11 MB when full of the longest segments of one-letter words, the most objects a
    segment can hold (tests/test_quick_reading.py holds a part of it to its bound)."""
    room = ROOM
    if not READ_SEGMENTS:  # emptied (referee.caches.clear_caches): all the room again
        room.used = 0
        _SHARED_TOKENS.clear()
        _SHARED_ITEMS.clear()
    size = len(stripped)
    if (size <= LONGEST_READ_SEGMENT and words.kind is not EVENT_NEW_HAND
            and len(READ_SEGMENTS) < room.segments and room.used + size <= room.characters):
        words.player = _shared_token(words.player)  # equal words: it reads the same
        words.target = _shared_token(words.target)
        words.items = _shared_items(words.items)
        READ_SEGMENTS[stripped] = words
        room.used += size


def moved(words: Words, at: int, width: int, number: int, line: str, source: str) -> Event:
    """The event of remembered ``words`` as written at line ``number``, its first word
    at index ``at`` of the line, ``width`` characters long: only its place is new (its
    words stand where they stood from its first word, :class:`Token`, and are shared)."""
    return Event(words.kind, Span(number, at + 1, line, source, width), words.player,
                 words.target, words.items, words.count, words.groups, (), words.lay_out,
                 words, words.counted)


def _shared_token(token: Token | None) -> Token | None:
    """The word kept equal to ``token`` (``token`` itself, kept, if none is)."""
    if token is None:
        return None
    return _kept(_SHARED_TOKENS, token, token)


def _shared_items(items: tuple[Token, ...]) -> tuple[Token, ...]:
    """The items kept equal to ``items`` when they are one item (``items`` itself,
    kept, if none are); ``items`` itself when more."""
    size = len(items)  # (not narrowed to a tuple of one: compiled, it would be copied)
    if size != 1:
        return items
    return _kept(_SHARED_ITEMS, items[0], items)


def _kept(shared: dict[int, dict[str, T]], word: Token, thing: T) -> T:
    """What ``shared`` keeps for ``word``'s text at its offset (``thing``, kept, if
    nothing is)."""
    at = shared.get(word.offset)
    if at is None:
        at = shared[word.offset] = {}
    kept = at.get(word.text)
    if kept is None:
        at[word.text] = thing
        return thing
    return kept
