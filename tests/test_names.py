"""Players' and teams' names (referee/transcript/names.py): readable alone, never alike in pairs,
found in events by the same keys; ``referee play`` refuses the same names.

The golden transcripts under tests/transcripts/names/ give one example of each kind;
these tests hold the rules to whole classes of names.
"""

from __future__ import annotations

import json
import string
import unicodedata
from collections import defaultdict
from importlib.util import find_spec
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from referee.cli.commands import main
from referee.errors import RefereeError, Span
from referee.language.cards import parse_card
from referee.transcript import names as names_module
from referee.transcript.names import (
    RESERVED_NAMES,
    NameIndex,
    fold,
    keys,
    refusal,
    skeleton,
    unreadable,
)
from referee.transcript.setup import Table


def _data_folder() -> Path:
    spec = find_spec("homoglyph")
    assert spec is not None and spec.origin is not None
    return Path(spec.origin).parent / "data"


_PROTOTYPES = json.loads((_data_folder() / "prototypes.json").read_bytes())
PROTOTYPES = {chr(int(point)): text for point, text in _PROTOTYPES.items()}
SOURCES: dict[str, list[str]] = defaultdict(list)  # each prototype's look-alikes
for _source, _prototype in PROTOTYPES.items():
    if unicodedata.normalize("NFD", _source) == _source:  # TS #39 looks up no other
        SOURCES[_prototype].append(_source)


def test_the_ascii_table_is_the_packages_data() -> None:
    table = dict(names_module.ASCII_PROTOTYPES)
    assert table == {c: p for c, p in PROTOTYPES.items() if c.isascii()}
    assert not any(c in p for p in table.values() for c in table)  # no order to keep
    assert all(any(mark in p for mark in names_module._PROTOTYPE_MARKS) for p in table.values())


def test_the_data_is_unicodes_confusables() -> None:
    assert len(PROTOTYPES) > 6000
    assert PROTOTYPES["\u0410"] == "A" and PROTOTYPES["\u0131"] == "i"
    # a prototype is never mapped again: the skeleton is a fixed point
    assert not any(c in PROTOTYPES for prototype in PROTOTYPES.values() for c in prototype)


def test_the_default_ignorables_are_the_packages() -> None:
    ranges = json.loads((_data_folder() / "ucd.json").read_bytes())["defaultIgnorable"]
    merged: list[tuple[int, int]] = []
    for start, end in ranges:
        if merged and start == merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    assert tuple(merged) == names_module.DEFAULT_IGNORABLE


@pytest.mark.parametrize("max_found", [10**6, 3])
def test_each_prototype_found_in_the_file_is_the_tables(max_found: int) -> None:
    """One by one (as a check with a few non-ASCII names does), or, past
    ``max_found``, from the whole table read: the same prototypes."""
    prototypes = names_module._prototypes.__wrapped__()
    prototypes.max_found = max_found
    for point in range(0x80, 0x30000):
        char = chr(point)
        assert prototypes.of(char) == PROTOTYPES.get(char, char), hex(point)
    assert all(prototypes.of(c) == PROTOTYPES.get(c, c) for c in map(chr, range(0x80)))


def test_the_packages_own_loader_gives_the_same_data(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(names_module, "find_spec", lambda name: None)
    prototypes = names_module._prototypes.__wrapped__()
    assert all(prototypes.of(c) == p for c, p in PROTOTYPES.items())


def test_a_cold_check_of_ascii_names_reads_no_data() -> None:
    names_module._prototypes.cache_clear()
    try:
        assert refusal(["Ann", "Bob", "Cy", "Ivy", "Kim", "Jean-Luc", "O'Brien"]) is None
        assert refusal(["Ann", "ANN"]) is not None and refusal(["Al", "AI"]) is not None
        assert refusal(["Ann", "Bo\u200bb"]) is not None  # nor for an invisible character
        assert names_module._prototypes.cache_info().currsize == 0
    finally:
        names_module._prototypes()


@pytest.mark.parametrize(("first", "second", "says"), [
    ("Ann", "\u0410nn", "U+0410 CYRILLIC CAPITAL LETTER A"),
    ("Ann", "\u0391nn", "U+0391 GREEK CAPITAL LETTER ALPHA"),
    ("Jos\u00e9", "Jose\u0301", "composed otherwise"),
    ("Jose\u0301", "Jos\u00e9", "composed otherwise"),
    ("Ann", "\uff21nn", "case, width or style"),
    ("Ann", "\U0001d400nn", "case, width or style"),
    ("Stra\u00dfe", "STRASSE", "case, width or style"),
    ("Ivy", "\u0131vy", "U+0131 LATIN SMALL LETTER DOTLESS I"),
    ("Ivy", "lvy", "they look alike"),
    ("Ivy", "LVY", "they look alike"),
    ("Kim", "Kirn", "they look alike"),
    ("Al", "AI", "they look alike"),
    ("Ann", "ANN", "case"),
    ("Ann", "Ann", "two players are named 'Ann'"),
    ("Bo", "B\u03bf", "U+03BF GREEK SMALL LETTER OMICRON"),
    ("x1", "xl", "they look alike"),
])
def test_names_alike_are_refused_as_a_pair(first: str, second: str, says: str) -> None:
    refused = refusal(["Cy", first, second])
    assert refused is not None and refused.index == 2
    assert says in refused.message and repr(second) in refused.message


@pytest.mark.parametrize(("name", "says"), [
    ("\u200b", "U+200B ZERO WIDTH SPACE"),
    ("Ann\u200d", "U+200D ZERO WIDTH JOINER"),
    ("Ann\u200c", "U+200C ZERO WIDTH NON-JOINER"),
    ("\u202eAnn", "turns the text around"),
    ("Ann\u2066", "turns the text around"),
    ("Ann\u061c", "turns the text around"),
    ("Ann\ufe0f", "VARIATION SELECTOR-16"),
    ("Ann\U000e0100", "VARIATION SELECTOR-17"),
    ("\u3164", "HANGUL FILLER"),
    ("\u115fAnn", "HANGUL CHOSEONG FILLER"),
    ("Ann\u2800", "BRAILLE PATTERN BLANK"),
    ("Ann\u00ad", "SOFT HYPHEN"),
    ("Ann\u034f", "COMBINING GRAPHEME JOINER"),
    ("Ann\x1b[2J", "U+001B"),
    ("Ann\x7f", "U+007F"),
    ("Ann\x9b", "U+009B"),
    ("Ann\ue000", "private-use"),
    ("Ann\U000e0041", "TAG LATIN CAPITAL LETTER A"),
    ("Ann\U0010fffd", "private-use"),
    ("Ann\U0010ffff", "not a character this Python knows"),
    ("Ann\u0378", "not a character this Python knows"),
    ("Ann\u00a0Lee", "a space"),
    ("Ann\u3000", "a space"),
    ("Ann\u2028", "a space"),
    ("Ann Lee", "a space"),
    (":", "it holds ':'"),
    ("Ann:", "it holds ':'"),
    ("A,nn", "it holds ','"),
    ("?", "it holds '?'"),
    (">", "it holds '>'"),
    ("Ann;", "it holds ';'"),
    ("#1", "it holds '#'"),
    ("-", "no letter or digit"),
    ("...", "no letter or digit"),
    ("'", "no letter or digit"),
    ("\u2660\u2665", "no letter or digit"),
    ("\U0001f41f", "no letter or digit"),
    ("\u0301", "no letter or digit"),
    ("\u0301Ann", "starts with a combining mark"),
    ("Jose\u0301\u0301", "the same mark twice"),
    ("a\u0301\u0302\u0303\u0304\u0306", "more than 4 marks"),
    ("", "no letter or digit"),
    ("A" * 65, "longer than 64 characters"),
    ("\u00e9" * 10**6, "longer than 64 characters"),
])
def test_names_nobody_can_read_are_refused(name: str, says: str) -> None:
    refused = refusal(["Cy", name])
    assert refused is not None and refused.index == 1, name
    assert says in refused.message and "cannot be a player's name" in refused.message
    assert says in (refusal([name], "team") or refused).message


@pytest.mark.parametrize(("name", "says"), [
    ("yes", "reads as"), ("YES", "reads as"), ("\uff39\uff25\uff33", "reads as"),
    ("\uff47\uff4f", "reads as"), ("QS", "reads as"), ("\uff31\uff33", "reads as"),
    ("\uff31\u2660", "reads as"), ("10\u2665", "reads as"), ("RJ", "reads as"),
    ("y\u0435s", "looks like 'yes'"), ("garne", "looks like 'game'"),
    ("lOS", "looks like '10S'"), ("IOS", "looks like '10S'"), ("Q\u0405", "looks like"),
    ("\u0422o", "looks like 'To'"),
])
def test_a_player_named_like_a_keyword_or_card_is_refused(name: str, says: str) -> None:
    refused = refusal([name])
    assert refused is not None and says in refused.message
    assert refusal([name], "team") is None  # a team's name never stands in an event


@given(st.text(string.ascii_letters + string.digits + "'`|\"%/-.", min_size=1, max_size=5))
def test_a_name_without_a_prototype_looks_like_no_word_it_does_not_read_as(name: str) -> None:
    """The shortcut that spares a cold check the table of the words' looks."""
    held = keys(name)
    table = names_module._word_looks(True)
    reads = held[0] in RESERVED_NAMES or parse_card(name) is not None
    looks_like = any(key in table for key in held)
    assert bool(names_module._keyword_or_card(name, held)) == (reads or looks_like)


def test_the_looks_of_the_cards_with_suit_symbols_are_their_keys() -> None:
    table = names_module._word_looks(False)
    for symbol in "\u2660\u2665\u2666\u2663":
        for rank in ("2", "10", "T", "t", "J", "j", "Q", "q", "K", "k", "A", "a"):
            card = rank + symbol
            assert all(table[key].lower() == card.lower() for key in keys(card)), card


@pytest.mark.parametrize("names", [
    ["Ann", "Anna", "Andy"], ["Jos\u00e9", "Joe", "Zo\u00eb"], ["\u0410\u043d\u043d\u0430", "Ann"],
    ["Ivy", "ivan"], ["\u00c5sa", "Asa\u0308"], ["O'Brien", "Jean-Luc", "J.R."],
    ["\u674e\u96f7", "\u674e\u96ea"], ["\u092e\u094b\u0939\u0928", "Mo"], ["Nguy\u1ec5n", "Nguyen"],
    ["2", "3"], ["Jack", "Queenie"], ["\u0130vy", "Ivy"], ["A" * 64, "B" * 64],
])
def test_names_a_table_tells_apart_are_accepted(names: list[str]) -> None:
    assert refusal(names) is None


ALPHABET = "".join(c for c in string.ascii_letters + string.digits if c not in "01IlmM")
ascii_names = st.text(ALPHABET, min_size=1, max_size=8).filter(
    lambda n: n.lower() not in RESERVED_NAMES and parse_card(n) is None)


@given(st.lists(ascii_names, min_size=1, max_size=8, unique_by=str.lower))
def test_distinct_ascii_names_are_always_accepted(names: list[str]) -> None:
    """ASCII names whose lower case differs are accepted, but for the few letters
    Unicode's confusables map (``0 1 I l m``: ``Al``/``AI``, ``Kim``/``Kirn``); each is
    found as written, in any case, and by a unique prefix."""
    assert refusal(names) is None
    index = NameIndex(names)
    for seat, name in enumerate(names):
        assert index.find(name) == index.find(name.upper()) == index.find(name.lower()) == seat


def _variant(name: str, data: st.DataObject) -> str:
    """``name`` written so that it looks, or reads, the same."""
    way = data.draw(st.sampled_from(["look-alike", "case", "form", "width", "invisible"]))
    if way == "case":
        return name.swapcase()
    if way == "form":
        return unicodedata.normalize(data.draw(st.sampled_from(["NFD", "NFKD"])), name)
    if way == "width":
        return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in name)
    at = data.draw(st.integers(0, len(name) - 1))
    if way == "invisible":
        hidden = data.draw(st.sampled_from("\u200b\u200c\u200d\u2060\ufeff\u202e\u2066\ufe0f"))
        return name[:at] + hidden + name[at:]
    looks = SOURCES.get(skeleton(name[at]), []) + SOURCES.get(name[at], [])
    assume(looks)
    return name[:at] + data.draw(st.sampled_from(looks)) + name[at + 1:]


latin_names = st.text("ABCEHIKMOPTXYabceijopsxyAnnBobIvyKimLe", min_size=1, max_size=6)


@settings(max_examples=300)
@given(latin_names, st.data())
def test_names_that_look_alike_are_refused_as_a_pair(name: str, data: st.DataObject) -> None:
    """A name and any way of writing it that looks or reads the same are never two
    players; and the variant, if it could be a name at all, finds the first name."""
    assume(refusal([name]) is None)
    variant = _variant(name, data)
    assume(variant != name)
    assert refusal([name, variant]) is not None, (name, variant)
    assert refusal([variant, name]) is not None, (name, variant)
    if not unreadable(variant):
        assert NameIndex(["Zed", name]).find(variant) == 1, (name, variant)


@given(st.text(min_size=1, max_size=6), st.text(min_size=1, max_size=6))
def test_names_accepted_as_a_pair_share_no_key(first: str, second: str) -> None:
    """Two names accepted together are never confusable by TS #39, in any case."""
    if refusal([first, second]) is None:
        assert not set(keys(first)) & set(keys(second))
        assert fold(first) != fold(second) and skeleton(first) != skeleton(second)
        assert unreadable(first) == unreadable(second) == ""


def _seat(table: Table, text: str) -> int:
    return table.seat(text, Span(3, 1, text, "t.txt"))


def test_an_event_finds_its_player_by_the_header_rules() -> None:
    table = Table(("Jos\u00e9", "Stra\u00dfe", "\u0410nn", "Bob", "Bobby"))
    assert _seat(table, "Jose\u0301") == _seat(table, "JOS\u00c9") == 0
    assert _seat(table, "\uff2a\uff4f\uff53\u00e9") == 0
    assert _seat(table, "STRASSE") == _seat(table, "stra") == _seat(table, "STRAS") == 1
    assert _seat(table, "Ann") == _seat(table, "ANN") == 2  # typed in Latin letters
    assert _seat(table, "Bob") == 3 and _seat(table, "bobb") == 4
    assert table.names("ann") and table.names("jose\u0301") and not table.names("Bo")
    with pytest.raises(RefereeError, match="could be Bob or Bobby"):
        _seat(table, "Bo")
    with pytest.raises(RefereeError, match=r"no player is named 'Bob\\u200b' \(it holds U\+200B"):
        _seat(table, "Bob\u200b")
    with pytest.raises(RefereeError, match="no player is named '\uff22'"):
        _seat(Table(("Ann", "Cy")), "\uff22")
    with pytest.raises(RefereeError, match=r"\(1000000 characters\) \(it is longer than 64"):
        _seat(table, "\u00e9" * 10**6)


def test_a_table_is_equal_by_its_players() -> None:
    assert Table(("Ann", "Bob")) == Table(("Ann", "Bob")) != Table(("Bob", "Ann"))
    assert hash(Table(("Ann", "Bob"))) == hash(Table(("Ann", "Bob")))
    assert repr(Table(("Ann",))) == "Table(('Ann',))"


@pytest.mark.parametrize(("args", "says"), [
    (["-p", "Ann \u0410nn"], "'\u0410nn' cannot be told from the player 'Ann'"),
    (["-p", "Ann ANN"], "'ANN' cannot be told from the player 'Ann'"),
    (["-p", "Jos\u00e9 Jose\u0301"], "composed otherwise"),
    (["-p", "Ivy \u0131vy"], "'\u0131vy' cannot be told from the player 'Ivy'"),
    (["-p", "Ann \u200b"], "'\\u200b' cannot be a player's name"),
    (["-p", "Ann \u202eBob"], "'\\u202eBob' cannot be a player's name"),
    (["-p", "Ann :"], "':' cannot be a player's name"),
    (["-p", "Ann -"], "'-' cannot be a player's name: it holds no letter or digit"),
    (["-p", "Ann \uff39\uff25\uff33"], "'\uff39\uff25\uff33' cannot be a player's name"),
    (["-p", "Ann,Bob Cy"], "--players: 'Ann,Bob' cannot be a player's name: it holds ','"),
    (["-p", "Ann:x Bob"], "--players: 'Ann:x' cannot be a player's name: it holds ':'"),
    (["-p", "Ann Bo;b"], "--players: 'Bo;b' cannot be a player's name: it holds ';'"),
    (["-p", "Ann Bob?"], "--players: 'Bob?' cannot be a player's name: it holds '?'"),
    (["-p", "Ann Bob>"], "--players: 'Bob>' cannot be a player's name: it holds '>'"),
    (["-p", "Ann Bob", "--dealer", "Ann Bob"], "--dealer: 'Ann Bob' cannot be a player's"),
    (["-p", "Ann Bob", "--dealer", "Bob\u200b"], "no player is named 'Bob\\u200b'"),
    (["-p", "Ann Bob", "--me", "Ann:", "--hand", "2S"], "--me: 'Ann:' cannot be a player's"),
])
def test_play_refuses_the_names_a_transcript_refuses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], says: str
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["play", "go-fish", *args, "--out", "out.txt"], input="")
    assert result.exit_code == 2 and says in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1
    assert not (tmp_path / "out.txt").exists()


def test_play_takes_names_that_look_like_the_players_for_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["play", "go-fish", "-p", "Jos\u00e9 Ann", "--dealer",
                                       "ANN", "--out", "out.txt"],
                                 input="Jose\u0301 asks \u0430nn for K\nANN says no\n")
    assert result.exit_code == 0, result.stderr
    text = (tmp_path / "out.txt").read_text(encoding="utf-8")
    assert "dealer: ANN" in text and "Jos\u00e9 asks Ann for K\nAnn says no" in text


def test_a_name_written_as_the_table_has_it_is_its_seat_without_asking_the_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's resolver knows each player's name as the table has it (the usual way
    of writing it) from the start, and asks the table (its interpreted code) only of
    other ways: a name in another case, a prefix. Both play as they played."""
    from referee.caches import clear_caches
    from referee.transcript.notation import TranscriptReader
    from referee.transcript.session import Session
    from referee.transcript.setup import set_up

    deal = ["game: go-fish", "players: Ann Bob Cy", "dealer: Ann", "deal: given",
            "hand Ann: 4C 4H 5C 3H JH", "hand Bob: 2D 8H 6D 9H 2C",
            "hand Cy: JD 6C AH 7D 4S",
            "stock: 10S KC AD 7C QC JC 7H 5S 8D 10H 7S AC KS 10C 4D 10D QS 5D 6H KH 2S 8C "
            "QD 2H KD 3D 5H 8S QH 9D 9S 9C 3C 6S 3S AS JS"]
    asked: list[str] = []
    seat = Table.seat

    def counted(table: Table, text: str, at: Span) -> int:
        asked.append(text)
        return seat(table, text, at)

    for events in (["Bob asks Ann for 8s", "Ann says no", "Bob draws 10S"],
                   ["bob asks an for 8s", "Ann says no", "Bob draws 10S"]):
        clear_caches()  # (no move remembered from another game)
        reader = TranscriptReader("\n".join([*deal, *events]), "x.txt")
        session = Session(set_up(reader.headers, Span(1, 1), None))
        monkeypatch.setattr(Table, "seat", counted)  # from the first event on
        session.play_all(reader.events())
        monkeypatch.undo()
        assert session.events_played == 3 and reader.error is None
    assert asked == ["bob", "an"]
