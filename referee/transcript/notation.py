"""Transcript text to header lines and events (referee/transcript/events.py).

The notation (NOTATION.md) is forgiving: case, spacing and short forms.
Lines are read with a small hand-written matcher rather than Lark: a line is a
handful of words, and this keeps ``referee check`` fast and every error's
column exact. Names, cards and sets are left as written; referee/transcript/resolve.py
resolves them against the players and the rules.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Final, Literal

from referee.caches import memo
from referee.compiled import is_compiled
from referee.errors import Kind, RefereeError, Span
from referee.language.cards import parse_card, parse_rank
from referee.reading import is_digits, lines_of, quoted
from referee.transcript.event_words import (
    ANSWER_WORDS,
    ASKING,
    SAID,
    read_event,
    tokens_at,
)
from referee.transcript.events import (
    EVENT_ASK,
    EVENT_BOOK,
    EVENT_DRAW,
    EVENT_GIVE,
    EVENT_NEW_HAND,
    EVENT_REFUSE,
    Event,
    Header,
    Token,
    Words,
)
from referee.transcript.segments import READ_SEGMENTS, moved, remember
from referee.values import frozen, replace

HEADER_KEYS: Final = ("game", "option", "players", "dealer", "team", "deal", "hand", "stock",
               "centre", "center", "target")
NAMED_HEADER_KEYS: Final = ("option", "team", "hand")
_HEADER_KEY_SET: Final = frozenset(HEADER_KEYS)
_SHORTEST_KEY: Final = min(len(key) for key in HEADER_KEYS)
_LONGEST_KEY: Final = max(len(key) for key in HEADER_KEYS)
# after an event the table accepted against the cards
ACCEPTED_MARK: Final = "# accepted by the table:"
# a live table's 'done': the referee filled in here what the cards forced
DONE_MARK: Final = "# done"


@frozen
class Transcript:
    """A whole transcript as read."""

    source: str
    headers: tuple[Header, ...]
    events: tuple[Event, ...]
    error: RefereeError | None = None  # the first unreadable line; reading stopped there


def read_transcript(text: str, source: str) -> Transcript:
    """Read transcript text up to its first unreadable line, kept as ``error``."""
    reader = TranscriptReader(text, source)
    events = tuple(reader.events())
    return Transcript(source, reader.headers, events, reader.error)


def read_events(text: str, source: str, line: int) -> tuple[tuple[Event, ...], RefereeError | None]:
    """Read lines typed at a live table, the first of them numbered ``line``: the events
    up to the first unreadable one, and its error. Header lines may follow only a
    ``hand N`` event (its deal); anywhere else they are an error."""
    reader = TranscriptReader(text, source, first=line, with_header=False)
    events = tuple(reader.events())
    return events, reader.error


class TranscriptReader:
    """Reads a transcript lazily: the header lines at once, the events one at a time as
    they are asked for (a long match need not be held in memory). Reading stops at the
    first unreadable line, kept as :attr:`error`."""

    def __init__(self, text: str, source: str, *, first: int = 1, with_header: bool = True
                 ) -> None:
        """``first``: the number of the text's first line; ``with_header``: whether it
        starts with header lines (lines typed at a live table do not)."""
        self.source = source
        self.error: RefereeError | None = None
        self._lines = lines_of(text.removeprefix("\ufeff"))
        self._next = 0
        self._first = first
        headers: list[Header] = []
        try:
            while with_header and self._next < len(self._lines):
                number, line = self._next + first, self._lines[self._next]
                if not line.isascii():
                    line = plain_marks(line)
                header = _header_line(line, number, source)
                if header is False:
                    break
                self._next += 1
                if header is not None:
                    headers.append(header)
        except RefereeError as exc:
            self.error = exc
            self._next = len(self._lines)
        self.headers = tuple(headers)
        self.events_from = self._next + first  # the line number of the first event line

    def events(self) -> Iterator[Event]:
        """The events, in order; a ``hand N`` event carries the deal lines after it.

        Events repeat (``Bob says no``, ``Ann > Bob 7s``), in a game and from game to
        game, alone on a line or joined with others, so the event of each segment (a
        line, or a part of one between ``;``) is remembered by the segment's text, white
        space around it stripped (referee/transcript/segments.py), and a repeat costs
        only its place. What a text reads as is the same wherever it stands, but for its
        columns, which each copy gets anew with its line number and file; the memo is
        consulted only where an event may stand; and what it must not hold it does not
        (see ``_keep``): so it saves time and changes no verdict."""
        lines, source = self._lines, self.source
        held: Event | None = None  # a `hand N` event, waiting for its deal lines
        deal: list[Header] = []
        known = READ_SEGMENTS
        try:
            while self._next < len(lines):
                number, line = self._next + self._first, lines[self._next]
                self._next += 1
                if held is None:  # (no key holds a fullwidth mark: such a line reads below)
                    if ";" not in line:  # no key holds ';'
                        found = known.get(line)
                        if found is not None:  # the usual line, again
                            yield moved(found, 0, len(line), number, line, source)
                            continue
                    elif "#" not in line:
                        again = _remembered_line(line, number, source)
                        if again is not None:  # a usual line of segments, again
                            for event in again:
                                yield event
                            continue
                surveyed = -1  # what the line holds (survey()), where already asked
                if not line.isascii():  # (plain_marks' own question, asked once here)
                    surveyed = survey(line)
                    if surveyed & HOLDS_FULLWIDTH:
                        line, surveyed = plain_marks(line), -1
                if held is not None:
                    header = _header_line(line, number, source)
                    if header is None:
                        continue
                    if header is not False:
                        deal.append(header)
                        continue
                    yield _with_deal(held, deal)
                    held, deal = None, []
                events, error = _event_line(line, number, source, surveyed=surveyed)
                for event in events:
                    if event.kind is EVENT_NEW_HAND:
                        if held is not None:
                            yield _with_deal(held, deal)
                            deal = []
                        held = event
                    elif held is not None:
                        yield _with_deal(held, deal)
                        held, deal = None, []
                        yield event
                    else:
                        yield event
                if error is not None:
                    raise error
        except RefereeError as exc:
            self.error = exc
        if held is not None:
            yield _with_deal(held, deal)


# the fullwidth forms of the notation's marks (U+FF1A for ':'), by code, to the marks;
# also the ideographic comma and full stop, the comma and full stop of Japanese, and
# the arrow '→' for '>' ('Ann → Bob 7')
FULLWIDTH_MARKS: Final = {**{ord(mark) + 0xFEE0: mark for mark in ":,?>;#!."},
                          ord("\u3001"): ",", ord("\u3002"): ".", ord("\u2192"): ">"}
# the same as characters: a line holding none of them (as one with suit symbols, '7♠',
# mostly does) is left as it is, told by survey(), where str.translate would look each
# of its characters up in the dict (some 800 instructions a character)
_MARK_CHARACTERS: Final = tuple(map(chr, FULLWIDTH_MARKS))


def plain_marks(line: str) -> str:
    """``line`` with the fullwidth forms of the notation's marks ``: , ? > ; # ! .``
    (U+FF1A and the rest, as a Chinese or Japanese input method types them), the
    ideographic ``、`` and ``。`` and the arrow ``→`` read as the marks, one character
    for one, so every column stands. A ``game:`` line's path is kept as written: it
    names a file."""
    if not _holds_a_mark(line):
        return line
    plain = line.translate(FULLWIDTH_MARKS)
    if plain == line or _first_word(plain).lower() != "game":
        return plain
    colon = plain.find(":") + 1
    return plain[:colon] + line[colon:]


QUOTES: Final = '"\u201c\u201d'  # read as blank space in an event ('Bob says "go fish"')
EDGE_QUOTES: Final = "'\u2018\u2019"  # so at a word's edge ('go fish'), not in one (8's)
_ANY_QUOTE: Final = tuple(QUOTES + EDGE_QUOTES)  # each a string made once


def unquoted(body: str) -> str:
    """``body``, an event line, with its quotation marks read as blank space, one
    character for one, so every column stands: :data:`QUOTES` anywhere, and
    :data:`EDGE_QUOTES` (``'`` and the curly single quotes) where they open or close
    (``Bob said 'no'``), not where they stand between letters or digits (``8's``,
    ``D'Arcy``)."""
    if not any(quote in body for quote in _ANY_QUOTE):
        return body
    characters = list(body)
    last = len(body) - 1
    for index, character in enumerate(body):
        inside = 0 < index < last and body[index - 1].isalnum() and body[index + 1].isalnum()
        if character in QUOTES or (character in EDGE_QUOTES and not inside):
            characters[index] = " "
    return "".join(characters)


def _holds_a_mark(line: str) -> bool:
    """Whether ``line`` holds one of the characters :func:`plain_marks` reads as a mark."""
    return bool(survey(line) & HOLDS_FULLWIDTH)


# What a line holds, as the flags of one number (:func:`survey`): a line read for the
# first time is asked for each of these, and most hold none but the ':' of 'Ann: Bob,
# 7?'. Each is a substring; a flag set means the line holds it somewhere.
HOLDS_COLON: Final = 1  # ':'
HOLDS_SEMICOLON: Final = 2  # ';', between a line's segments
HOLDS_COMMENT: Final = 4  # '#'
HOLDS_QUOTE: Final = 8  # a quotation mark (QUOTES, EDGE_QUOTES)
HOLDS_SENTENCE_END: Final = 16  # one of _SENTENCE_ENDS ('. ', ' - ')
HOLDS_FULLWIDTH: Final = 32  # a mark plain_marks reads (FULLWIDTH_MARKS)


def survey(line: str) -> int:
    """The ``HOLDS_`` flags of what ``line`` holds. Compiled, in one pass over its
    characters read as numbers (some 10 instructions a character), where a search in C
    for each substring costs some 230 instructions however short the line: a line
    read for the first time was searched some 25 times. Interpreted, by those
    searches, where a loop over characters is slow. tests/test_quick_reading.py holds
    the two ways equal."""
    if _COMPILED:
        return _scanned_survey(line)
    return _searched_survey(line)


def _searched_survey(line: str) -> int:
    """:func:`survey` by a search for each substring."""
    holds = 0
    if ":" in line:
        holds |= HOLDS_COLON
    if ";" in line:
        holds |= HOLDS_SEMICOLON
    if "#" in line:
        holds |= HOLDS_COMMENT
    if any(quote in line for quote in _ANY_QUOTE):
        holds |= HOLDS_QUOTE
    if any(end in line for end in _SENTENCE_ENDS):
        holds |= HOLDS_SENTENCE_END
    if any(character in line for character in _MARK_CHARACTERS):
        holds |= HOLDS_FULLWIDTH
    return holds


def _scanned_survey(line: str) -> int:
    """:func:`survey` by one pass over the characters, read as numbers."""
    holds = 0
    last = len(line) - 1
    for index in range(len(line)):
        code = ord(line[index])
        if 64 < code < 0x2013:  # letters, and most else: none of the marks
            continue
        if code == 58:
            holds |= HOLDS_COLON
        elif code == 59:
            holds |= HOLDS_SEMICOLON
        elif code == 35:
            holds |= HOLDS_COMMENT
        elif code == 34 or code == 39 or code == 0x2018 or code == 0x2019 \
                or code == 0x201C or code == 0x201D:
            holds |= HOLDS_QUOTE
        elif code == 46 or code == 63 or code == 33:  # '. ', '? ', '! '
            if index < last and ord(line[index + 1]) == 32:
                holds |= HOLDS_SENTENCE_END
        elif code == 45 or code == 0x2013 or code == 0x2014:  # a hyphen, an en or an em dash
            if 0 < index < last and ord(line[index - 1]) == 32 \
                    and ord(line[index + 1]) == 32:
                holds |= HOLDS_SENTENCE_END
        elif code == 0x2192 or code == 0x3001 or code == 0x3002 or (
                0xFF01 <= code <= 0xFF1F and code in FULLWIDTH_MARKS):
            holds |= HOLDS_FULLWIDTH
    return holds


def _with_deal(event: Event, deal: list[Header]) -> Event:
    return replace(event, headers=tuple(deal)) if deal else event


def _header_line(line: str, number: int, source: str) -> Header | Literal[False] | None:
    """A header line's header, None for a blank or comment line, False for an event line.
    A line of a list (``- game: go-fish``) is read without its marker."""
    body = line.split("#", 1)[0]
    marker = _list_marker(body)
    if marker:
        body = " " * marker + body[marker:]
    if not body.strip():
        return None
    header = _read_header(body, number, line, source)
    return False if header is None else header


def _event_line(line: str, number: int, source: str, unlisted: str | None = None,
                surveyed: int = -1) -> tuple[list[Event], RefereeError | None]:
    """The events of an event line, and the error of its first unreadable part (the
    events before it are kept). A line that would be a header line is refused first;
    one whose first segment is remembered is not one (see ``_keep``). A line of a
    list in a notes app (``- Ann asks Bob for 7``) is read as ``unlisted``, the line
    with its marker blanked out. ``surveyed``: what ``line`` holds, if asked already
    (:func:`survey`; -1 if not)."""
    body = line if unlisted is None else unlisted
    holds = surveyed if surveyed >= 0 and unlisted is None else survey(body)
    if holds & HOLDS_COMMENT:
        body = body.split("#", 1)[0]
    if holds & HOLDS_QUOTE:
        body = unquoted(body)
        holds = survey(body)  # a quotation mark read as a space may end a sentence
    events: list[Event] = []
    start = 0
    header_told = not holds & HOLDS_COLON  # a header line holds ':'
    # a list, however many: iterated natively
    segments: list[str] = body.split(";") if holds & HOLDS_SEMICOLON else [body]
    try:
        for segment in segments:
            unindented = segment.lstrip()
            stripped = unindented.rstrip()
            if stripped:
                found = READ_SEGMENTS.get(stripped)
                parted = _ANSWERED_ASKS.get(stripped) if found is None and _ANSWERED_ASKS \
                    else None
                if found is not None:
                    at = start + len(segment) - len(unindented)  # where its first word is
                    events.append(moved(found, at, len(stripped), number, line, source))
                elif parted is not None:  # an ask and its answer without ';', met before
                    events += _parted(stripped, parted, start + len(segment) - len(unindented),
                                      number, line, source)
                else:
                    marker = _list_marker(segment) if start == 0 and unlisted is None else 0
                    if marker:  # read again without it (only once: '- - x' keeps one)
                        return _event_line(line, number, source,
                                           " " * marker + line[marker:])
                    if not header_told:
                        _refuse_header(body, number, line, source)
                    sentences = _sentences(segment, start, number, line, source) if (
                        holds & HOLDS_SENTENCE_END and any(
                            end in segment for end in _SENTENCE_ENDS)) else None
                    if sentences is not None:  # 'Bob asks Cy for aces. Cy gives 1.'
                        events += sentences[0]
                        if sentences[1] is not None:
                            raise sentences[1]
                    else:
                        event = _read_segment(segment, stripped, start, number, line, source)
                        if event.key is not None:  # (the usual segment, now remembered)
                            events.append(event)
                        else:  # an ask holding an answer's words: maybe an ask and its answer
                            events += _answered(event, segment, stripped, start, number, line,
                                                source)
                header_told = True
            start += len(segment) + 1
    except RefereeError as exc:
        return events, exc
    return events, None


def _sentences(segment: str, offset: int, number: int, line: str, source: str
               ) -> tuple[list[Event], RefereeError | None] | None:
    """The events of ``segment`` (at ``offset`` in its line) written as sentences, one
    event each, ended by ``.``, ``?`` or ``!`` and a space (``Bob: Cy, aces? Cy gives
    1.``); None unless each reads as an event, and then the segment is read whole. A
    name may end in ``.`` (``Dr.``): a sentence that is not an event alone is read with
    the next one (``Bob drew. Dr. asks Bob for 7``), once.
    After two sentences read as events, one that does not is the error (``Bob asks Cy
    for aces. Cy gives 1. Bob drws.``): the line was meant as sentences, and the events
    read before it are kept with it. A dash with space around it parts two events as a
    sentence's end does (``Bob asks Ann for 8s - no``), and a refusal said twice is one
    (``Ann: No! Go fish.``)."""
    parts: list[tuple[int, str]] = []
    begun = 0
    last = len(segment.rstrip()) - 1  # the last character that is not white space
    for index in range(last):
        character = segment[index]
        if character in ".?!" and segment[index + 1].isspace():
            parts.append((begun, segment[begun:index + 1]))
            begun = index + 1
        elif character in _DASHES and index > 0 and segment[index - 1].isspace() and \
                segment[index + 1].isspace():  # 'Bob asks Ann for 8s - no': the dash apart
            parts.append((begun, segment[begun:index]))
            begun = index + 1
    if not parts:
        return None
    parts.append((begun, segment[begun:]))
    parts = [(at, part) for at, part in parts if part.strip()]  # '8s? - no': none between
    events: list[Event] = []
    index = 0
    while index < len(parts):
        at, part = parts[index]
        read = _sentence(part, offset + at, number, line, source)
        if isinstance(read, RefereeError) and index + 1 < len(parts):  # 'Dr.', 'asks ...'
            index += 1
            joined = _sentence(part + parts[index][1], offset + at, number, line, source)
            read = joined if isinstance(joined, Event) else read
        if isinstance(read, RefereeError):
            return (events, read) if len(events) >= MEANT_AS_SENTENCES else None
        if not (read.kind is EVENT_REFUSE and read.player is None and events
                and events[-1].kind is EVENT_REFUSE):  # 'Bob: No! Go fish.': one refusal
            events.append(read)
        index += 1
    return events, None


MEANT_AS_SENTENCES: Final = 2  # events read from a line's sentences before one that is not
_DASHES: Final = "-\u2013\u2014"  # a hyphen, an en or an em dash, space around it, parts two
_SENTENCE_ENDS: Final = (". ", "? ", "! ", " - ", " \u2013 ", " \u2014 ")


def _sentence(part: str, offset: int, number: int, line: str, source: str
              ) -> Event | RefereeError:
    """The event of one sentence of a segment, at ``offset`` in its line, or its error."""
    stripped = part.strip()
    found = READ_SEGMENTS.get(stripped)
    if found is not None:
        first = offset + len(part) - len(part.lstrip())
        return moved(found, first, len(stripped), number, line, source)
    try:
        return _read_segment(part, stripped, offset, number, line, source)
    except RefereeError as error:
        return error


_BULLETS: Final = ("-", "*", "\u2022")  # '-', '*' and '•' start a list's item
MAX_LIST_NUMBER_DIGITS: Final = 4  # '1. ' to '9999. ' number a list's items


def _list_marker(body: str) -> int:
    """How many characters a list's marker takes at the start of ``body``, the white
    space before and one after it included: a bullet (``- ``, ``* ``, ``• ``) or a
    number (``12. ``, ``3) ``), as a notes app starts a list's line; 0 for none. No name
    is one (:func:`referee.transcript.names.unreadable`)."""
    first = ord(body[0]) if body else 0
    if 65 <= first <= 90 or 97 <= first <= 122:  # a letter, as most lines start: none
        return 0
    text = body.lstrip()
    if not text or text[0].isalpha():
        return 0
    size = 1 if text[0] in _BULLETS else 0
    if not size:
        while size < len(text) and size < MAX_LIST_NUMBER_DIGITS and "0" <= text[size] <= "9":
            size += 1
        if not size or text[size:size + 1] not in (".", ")"):
            return 0
        size += 1
    if text[size:size + 1] not in (" ", "\t"):
        return 0
    return len(body) - len(text) + size + 1


def _remembered_line(line: str, number: int, source: str) -> list[Event] | None:
    """The events of ``line``, segments joined by ';' and no comment, if every segment
    is remembered (and so the line is no header line); None if one is not, for
    :func:`_event_line` to read. Each segment's text is cut from the line once, white
    space around it left out (where splitting and stripping made two or three strings
    of it, and of a line with a suit symbol wide ones, each scanned as it is made)."""
    events: list[Event] = []
    end = len(line)
    start = 0
    while start <= end:
        stop = line.find(";", start)
        if stop < 0:
            stop = end
        first, last = start, stop
        while first < last and _separates(ord(line[first])):
            first += 1
        while last > first and _separates(ord(line[last - 1])):
            last -= 1
        if first < last:
            words = READ_SEGMENTS.get(line[first:last])
            if words is None:  # (mostly on the first segment: few events made in vain)
                return None
            events.append(moved(words, first, last - first, number, line, source))
        start = stop + 1
    return events


def _is_header_key(word: str) -> bool:
    """Whether ``word`` is a header key, in any case (told first by its length)."""
    return _SHORTEST_KEY <= len(word) <= _LONGEST_KEY and word.lower() in _HEADER_KEY_SET


def _refuse_header(body: str, number: int, line: str, source: str) -> None:
    """Raise if ``body`` is a header line: here only events may stand."""
    header = _read_header(body, number, line, source)
    if header is not None:
        raise RefereeError(Kind.HEADER, "header lines come before the first event "
                           "(or right after 'hand N' in a match)", header.span)


def _read_segment(segment: str, stripped: str, offset: int, number: int, line: str,
                  source: str) -> Event:
    """The event of one segment of a line (the whole of it, or the part between ';'
    from ``offset`` on; ``stripped``: the segment without the white space around it),
    read afresh, remembered, and its text kept as its ``key`` (the same text, the same
    event: the text itself, where its words joined anew would cost a string made of
    them, some 1,000 instructions compiled)."""
    texts, columns = _words(segment, offset)
    event = (_quick_event(texts, columns, len(stripped), number, line, source)
             or read_event(segment, texts, columns, number, line, source))
    if event.kind is EVENT_ASK and len(event.items) > 1 and _holds_an_answer(event.items):
        return event  # with no key, and not remembered: maybe an answered ask (_answered)
    _keep(stripped, texts[0], event)
    return event


def _keep(stripped: str, first: str, event: Event) -> None:
    """Keep the text ``stripped`` (its first word ``first``) and ``event`` but for its
    place as its ``key``, and remember it (:func:`segments.remember`), unless its first
    word is a header key: a line starting with a remembered segment is then known not
    to be a header line (which must be refused) without reading it as one."""
    words = event.key = Words(stripped, event)
    if not _is_header_key(first):
        remember(stripped, words)


def _holds_an_answer(items: tuple[Token, ...]) -> bool:
    """Whether an ask's ``items`` hold a word no ask asks for but an answer says."""
    return any(t.text.lower() in ANSWER_WORDS for t in items)


# the text of a segment that is an ask and its answer (_answered_ask), stripped: where
# in it the answer starts; bounded as the memo of segments is, by count
_ANSWERED_ASKS: Final[dict[str, int]] = memo("referee.transcript.notation._ANSWERED_ASKS")
MAX_ANSWERED_ASKS: Final = 4096


def _answered(ask: Event, segment: str, stripped: str, offset: int, number: int, line: str,
              source: str) -> list[Event]:
    """The events of a segment (``segment``, at ``offset`` in its line; ``stripped``: without
    the white space around it) read as ``ask``, an ask whose words hold an answer's: that
    ask, or an ask and its answer written without ';' (:func:`_answered_ask`)."""
    at = offset + len(segment) - len(segment.lstrip())
    found = _answered_ask(stripped, at, number, line, source)
    if found is None:
        return [ask]
    parted, both = found
    if len(_ANSWERED_ASKS) < MAX_ANSWERED_ASKS and not _is_header_key(_first_word(stripped)):
        _ANSWERED_ASKS[stripped] = parted  # (met again, it is parted at once: see _keep)
    for part, event in zip((stripped[:parted], stripped[parted + 1:]), both, strict=True):
        kept = part.strip()  # each part remembered as _read_segment remembers a segment
        _keep(kept, _first_word(kept), event)
    return both


def _parted(stripped: str, parted: int, at: int, number: int, line: str, source: str
            ) -> list[Event]:
    """The ask and the answer of a segment (``stripped``, at index ``at`` of its line)
    parted at index ``parted`` (:func:`_answered_ask`)."""
    events: list[Event] = []
    for read in (_sentence(stripped[:parted], at, number, line, source),
                 _sentence(stripped[parted + 1:], at + parted + 1, number, line, source)):
        if isinstance(read, RefereeError):
            raise read
        events.append(read)
    return events


def _answered_ask(stripped: str, offset: int, number: int, line: str, source: str
                  ) -> tuple[int, list[Event]] | None:
    """Where a segment (``stripped``, at ``offset`` in its line) that is an ask and its
    answer written without ';' (``Bob > Ann 8, no``, ``Bob asks Ann for 8, Ann says
    no``, ``Bob > Ann 8 ✗``) parts: the first comma, colon or space after which the rest
    reads as an answer and before which the segment reads as an ask of words that are no
    mark and no answer's, and the two events read there; None if none. An answer is
    short, and starts with an answer's word or a name before one (``no``, ``Cy says``,
    ``Cy: no``): only such a place among the last :data:`MAX_ANSWER_WORDS` words is
    tried, so that a line costs a reading or two of it, not one for each of its words."""
    texts, columns = _words(stripped, offset)
    for at in range(max(1, len(texts) - MAX_ANSWER_WORDS), len(texts)):
        start = columns[at] - offset - 1  # where the word stands in ``stripped``
        if texts[at] == "," or texts[at] == ":":
            index, first = start, at + 1  # parted at the mark
        elif stripped[start - 1].isspace():
            index, first = start - 1, at  # parted at the space before the word
        else:
            continue
        if not _may_answer(texts, first):
            continue
        answer = _read_alone(stripped[index + 1:], offset + index + 1, number, line, source)
        if answer is None or (answer.kind is not EVENT_REFUSE and answer.kind is not EVENT_GIVE
                              ) or (answer.player is not None and _is_an_item(answer.player.text)):
            continue  # (not '4S: none' of 'Bob > Dee lay out 4S: none', said by a '4S')
        ask = _read_alone(stripped[:index], offset, number, line, source)
        if ask is not None and ask.kind is EVENT_ASK and not _holds_an_answer(ask.items) \
                and not any(t.text in (":", ",") for t in ask.items):
            return index, [ask, answer]  # (not 'Bob > Dee:' of 'Bob > Dee: QD: no')
    return None


def _may_answer(texts: list[str], first: int) -> bool:
    """Whether the words ``texts`` from ``first`` on may be an answer: the first is an
    answer's word (``no``, ``yes``, ``✗``), or the second (``Cy says no``), or the
    third after a name and a colon (``Cy: no``, ``Cy: go fish``)."""
    if first >= len(texts):
        return False
    if texts[first].lower() in ANSWER_WORDS:
        return True
    if first + 1 >= len(texts):
        return False
    if texts[first + 1] == ":":
        return first + 2 < len(texts) and (texts[first + 2].lower() in ANSWER_WORDS
                                           or texts[first + 2].lower() == "go")
    return texts[first + 1].lower() in ANSWER_WORDS


def _is_an_item(word: str) -> bool:
    """Whether ``word`` is a card or a rank's symbol (``4S``, ``8``, ``Q``): what an ask
    asks for, and no name of whoever answers it."""
    return parse_card(word) is not None or (len(word) <= 2 and parse_rank(word) is not None)


MAX_ANSWER_WORDS: Final = 10  # words and marks: 'Cy says no , go fish !' has 7


def _read_alone(part: str, offset: int, number: int, line: str, source: str) -> Event | None:
    """The event ``part`` (at ``offset`` in its line) reads as, neither remembered nor
    kept; None if it reads as none."""
    texts, columns = _words(part, offset)
    if not texts:
        return None
    try:
        return (_quick_event(texts, columns, len(part.strip()), number, line, source)
                or read_event(part, texts, columns, number, line, source))
    except RefereeError:
        return None


def _words(segment: str, offset: int) -> tuple[list[str], list[int]]:
    r"""The words of ``segment`` and their 1-based columns (``offset`` is where the
    segment starts in its line): runs of characters other than white space and the
    marks ``: , ? >``, and each mark alone; ``;`` only separates. The same as the
    regular expression ``[^\s:,?>;]+|[:,?>]`` finds (tests/test_quick_reading.py holds
    the two equal, and both ways of finding them)."""
    if _COMPILED:
        return _scanned_words(segment, offset)
    return _split_words(segment, offset)


def _scanned_words(segment: str, offset: int) -> tuple[list[str], list[int]]:
    """:func:`_words` by one pass over the characters, read as numbers: the fastest way
    compiled, where reading a character's number is a read of memory."""
    texts: list[str] = []
    columns: list[int] = []
    start = -1  # where the word being read starts, -1 between words
    for index in range(len(segment)):
        code = ord(segment[index])
        if 64 < code < 128:  # a letter, or the like: no mark and no space (most are)
            if start < 0:
                start = index
        elif _is_mark(code):
            if start >= 0:
                texts.append(segment[start:index])
                columns.append(offset + start + 1)
                start = -1
            texts.append(segment[index])
            columns.append(offset + index + 1)
        elif _separates(code):
            if start >= 0:
                texts.append(segment[start:index])
                columns.append(offset + start + 1)
                start = -1
        elif start < 0:
            start = index
    if start >= 0:
        texts.append(segment[start:])
        columns.append(offset + start + 1)
    return texts, columns


def _split_words(segment: str, offset: int) -> tuple[list[str], list[int]]:
    """:func:`_words` by a few string operations (a space put around each mark, a split,
    each word's column found after the one before, since only white space and ``;``
    stand between two): the fastest way interpreted, where a loop over characters is
    slow."""
    spaced = segment
    if ":" in spaced:
        spaced = spaced.replace(":", " : ")
    if "," in spaced:
        spaced = spaced.replace(",", " , ")
    if "?" in spaced:
        spaced = spaced.replace("?", " ? ")
    if ">" in spaced:
        spaced = spaced.replace(">", " > ")
    if ";" in spaced:
        spaced = spaced.replace(";", " ")
    texts = spaced.split()  # str.split's white space is the same as \s
    columns: list[int] = []
    at = 0
    for text in texts:
        at = segment.find(text, at)
        columns.append(offset + at + 1)
        at += len(text)
    return texts, columns


def _first_word(body: str) -> str:
    """The first word of ``body`` ("" if none), as :func:`_words` finds it."""
    start = -1
    for index in range(len(body)):
        code = ord(body[index])
        if _is_mark(code):
            return body[start:index] if start >= 0 else body[index]
        if _separates(code):
            if start >= 0:
                return body[start:index]
        elif start < 0:
            start = index
    return body[start:] if start >= 0 else ""


def _is_mark(code: int) -> bool:
    """Whether the character ``code`` is one of the marks ``: , ? >``, a word alone."""
    return code == 58 or code == 44 or code == 63 or code == 62


def _separates(code: int) -> bool:
    """Whether the character ``code`` is ``;`` or white space (as ``str.isspace`` and
    ``\\s`` have it), which stand between words."""
    if code <= 32:
        return code == 32 or 9 <= code <= 13 or code >= 28
    return code == 59 or (code >= 128 and _is_wide_space(code))


def _is_wide_space(code: int) -> bool:
    """Whether the character ``code``, past ASCII, is white space, as ``str.isspace``
    has it: told by its number, where ``chr(code).isspace()`` would make a string of
    it (a suit symbol's, U+2665, is no ASCII and no Latin-1 character, so is made
    anew each time). tests/test_quick_reading.py holds the two equal on every code."""
    return code == 0x85 or code == 0xA0 or code == 0x1680 or 0x2000 <= code <= 0x200A \
        or code == 0x2028 or code == 0x2029 or code == 0x202F or code == 0x205F \
        or code == 0x3000


_COMPILED: Final = is_compiled(sys.modules[__name__])  # this module, as it runs


def _read_header(body: str, number: int, line: str, source: str) -> Header | None:
    if ":" not in body:
        return None
    if not _is_header_key(_first_word(body)):  # an event line is told cheaply
        return None
    texts, columns = _words(body, 0)
    tokens = tokens_at(texts, columns)  # the first is the header key
    key = tokens[0].low
    span = Span(number, columns[0], line, source, len(tokens[0].text))
    name: Token | None = None
    rest = tokens[1:]
    if key in NAMED_HEADER_KEYS and rest and rest[0].text != ":":
        name, rest = rest[0], rest[1:]
    if not rest or rest[0].text != ":":
        if key == "hand" and name is not None and is_digits(name.text):
            return None  # `hand 2` starts a new hand: an event
        raise RefereeError(Kind.SYNTAX, f"expected ':' after the header key {quoted(key)}",
                           Span(number, span.column + rest[0].offset if rest
                                else len(line) + 1, line, source))
    if key == "game" and ('"' in line or "#" in line):
        game = _game_value(line, span.column + rest[0].offset, len(body), number, source,
                           span.column)
        if game is not None:
            return Header(key, name, (game,), span)
    values = tuple(t for t in rest[1:] if t.text != ",")
    return Header(key, name, values, span)


def _game_value(line: str, colon: int, comment: int, number: int, source: str,
                key: int) -> Token | None:
    r"""The rule file a ``game:`` line names in quotes (``game: "./go fish#2.rules"``,
    ``\`` and ``"`` escaped), or None when it is not quoted. A path cut short by a
    ``#`` right after it (``game: go-fish#v2.rules``) is refused: it would name
    another file. ``colon`` and ``key``: the columns of the ':' and of the key."""
    after = line[colon:]
    start = colon + len(after) - len(after.lstrip())
    if not line.startswith('"', start):
        if start < comment < len(line) and not line[comment - 1].isspace():
            whole = line[start:].split()[0]
            if _looks_like_a_path(whole) and not _looks_like_a_path(line[start:comment]):
                raise RefereeError(Kind.HEADER, f"'#' starts a comment, so this names "
                                   f"{quoted(line[start:comment], 40)}, not "
                                   f"{quoted(whole, 60)}: a path holding '#' is written "
                                   f'in quotes, game: "{whole}"',
                                   Span(number, comment + 1, line, source))
        return None
    text: list[str] = []
    index = start + 1
    while index < len(line) and line[index] != '"':
        if line[index] == "\\":
            index += 1
            if index == len(line) or line[index] not in '"\\':
                raise RefereeError(Kind.SYNTAX, "in a quoted path only \\\\ and \\\" are "
                                   "escapes (a backslash written \\\\)",
                                   Span(number, index, line, source, 2))
        text.append(line[index])
        index += 1
    if index == len(line):
        raise RefereeError(Kind.SYNTAX, "the quoted path has no closing '\"'",
                           Span(number, start + 1, line, source, len(line) - start))
    rest = line[index + 1:].lstrip()
    if rest and not rest.startswith("#"):
        raise RefereeError(Kind.SYNTAX, "after the quoted path only a comment may follow",
                           Span(number, len(line) - len(rest) + 1, line, source, len(rest)))
    return Token("".join(text), start + 1 - key)


def _looks_like_a_path(text: str) -> bool:
    return text.endswith(".rules") or "/" in text or "\\" in text


def _quick_event(texts: list[str], columns: list[int], width: int, number: int,
                 line: str, source: str) -> Event | None:
    """The event of a segment in one of the forms people type most (asks, answers,
    draws, books), read as :func:`read_event` reads it but without making a token
    of each word; None for any other segment, which :func:`read_event` then reads
    (with its error, if it has one). ``texts`` and ``columns``: its words and their
    columns (:func:`_words`); ``width``: the segment's length without the white space
    around it (known to the caller, where stripping it again would make a string, and
    of a segment with a suit symbol a wide one). tests/test_quick_reading.py holds the two
    readers equal."""
    count = len(texts)
    if count == 0 or count > 8 or texts[-1][-1] in "!.":  # 'No.', 'Ann draws 7C.'
        return None
    span = Span(number, columns[0], line, source, width)
    if count == 1:
        word = _lower(texts[0])
        return (Event(EVENT_GIVE, span) if word == "yes" else
                Event(EVENT_REFUSE, span) if word == "no" else None)
    verb = _lower(texts[1])
    if count == 2 and verb == "fish" and _lower(texts[0]) == "go":
        return Event(EVENT_REFUSE, span)
    player = Token(texts[0], 0)
    if verb == ">" or verb == ":" or verb == "asks":
        if verb == ":" and count > 2 and _lower(texts[2]) in _ANSWERING:
            if count > 3:
                return None  # 'Bob: no, go fish' is read_event's
            answer = _lower(texts[2])
            return (Event(EVENT_REFUSE, span, player) if answer == "no" else
                    Event(EVENT_GIVE, span, player) if answer == "yes" else None)
        first = 3 if verb == ">" else 4  # the first word of what is asked for
        if count <= first or (verb == ":" and texts[3] != ",") or (
                verb == "asks" and _lower(texts[3]) != "for") or (
                verb == ">" and (texts[0][-1] == "-" or texts[3] in ":,")) or \
                _lower(texts[first]) in _ASKING:
            return None  # ('Ann->Bob 7', 'Ann > Bob: 7', 'Ann: Bob, got any 7s?': read_event's)
        start = columns[0]
        target = Token(texts[2], columns[2] - start)
        if texts[first] != "?" and (count == first + 1 or (
                count == first + 2 and texts[first + 1] == "?")):  # one thing, as usual
            return Event(EVENT_ASK, span, player, target,
                         (Token(texts[first], columns[first] - start),))
        asked = _tokens_of(texts, columns, first, "?")
        return Event(EVENT_ASK, span, player, target, asked) if asked else None
    if verb == "says" and count == 3:
        answer = _lower(texts[2])
        return (Event(EVENT_REFUSE, span, player) if answer == "no" else
                Event(EVENT_GIVE, span, player) if answer == "yes" else None)
    if (verb == "draws" and (count == 2 or (count == 3 and _lower(texts[2]) not in _NOT_DRAWN))
            ) or (verb == "books" and count > 2) or (verb == "gives" and (
                count == 2 or (parse_card(texts[2]) is not None and not any(
                    _lower(text) in _NOT_GIVEN for text in texts[3:])))):
        kind = EVENT_DRAW if verb == "draws" else EVENT_BOOK if verb == "books" else EVENT_GIVE
        items = _tokens_of(texts, columns, 2, "" if kind is EVENT_DRAW else ",")
        return Event(kind, span, player, items=items) if items or kind is not EVENT_BOOK \
            else None  # 'Ann books ,' names no set: an error, which read_event words
    return None


def _tokens_of(texts: list[str], columns: list[int], first: int, but: str
               ) -> tuple[Token, ...]:
    """The tokens of the words from ``first`` on, but for those written ``but``, offset
    from the first word."""
    tokens = []
    start = columns[0]
    for index in range(first, len(texts)):
        if texts[index] != but:
            tokens.append(Token(texts[index], columns[index] - start))
    return tuple(tokens)


# the first words of what is asked that send an ask to read_event: 'do you have any
# 7s?', 'lay out 7S'
_ASKING: Final = frozenset({*(phrase[0] for phrase in ASKING), "lay"})
_NOT_GIVEN: Final = frozenset({"to", "the", "a", "an", "and", "of"})  # read_event's
_NOT_DRAWN: Final = frozenset({"1", "one", ",", "the", "a", "an", "and"})  # read_event's
_ANSWERING: Final = frozenset({"yes", "no", *SAID})  # 'Bob: nope'
_LOWER: Final = frozenset({"yes", "no", "go", "fish", ">", ":", ",", "?", "asks", "for",
                           "says", "draws", "books", "gives"})


def _lower(word: str) -> str:
    """``word`` in lower case (a word of the notation written so, as it is)."""
    return word if word in _LOWER else word.lower()


def done_marks(text: str) -> list[int]:
    """The lines of ``text`` that are a ``# done`` mark, in order: where a live table
    typed ``done`` and the referee filled in what the cards forced, before the next
    event; ``check`` and ``--resume`` fill it in at the same place."""
    if DONE_MARK not in text:
        return []
    return [number for number, line in enumerate(lines_of(text.removeprefix("\ufeff")),
                                                 start=1) if line.strip() == DONE_MARK]


def accepted_lines(lines: list[str]) -> set[int]:
    """The lines of the events a table accepted against the cards: each is followed by
    an ``# accepted by the table:`` comment (``check`` still reports them; ``--resume``
    and the API accept them again)."""
    found = set()
    last = 0
    for number, text in enumerate(lines, start=1):
        stripped = text.strip()
        if stripped.startswith(ACCEPTED_MARK) and last:
            found.add(last)
        elif stripped and not stripped.startswith("#"):
            last = number
    return found
