"""Cards, ranks and answers as people type them on a phone: suit symbols drawn as
emoji (``♥️``, a symbol and a variation selector) or in outline (``♡``), plurals with
an apostrophe (``8's``, also with the closing quote U+2019 a phone puts in), answers
ended with ``!`` or ``.`` (``Go fish!``, ``No.``), cards listed with commas
(``Bob gives 7S, 7H``, ``Fay claims high ♦: Bob: 9D, JD, Dee 10D``). Every bundled rule file's
self-played games, spelled so, get the verdict their canonical twins get: the same
state through the same moves, and the same error at the same line once a card is
changed."""

from __future__ import annotations

import random
import re
import runpy
from pathlib import Path

import pytest

from referee.language.cards import parse_card, parse_rank, parse_suit
from referee.transcript.check import check_text
from referee.transcript.names import refusal
from referee.transcript.notation import read_events

EMOJI, TEXT = "\ufe0f", "\ufe0e"  # the variation selectors: emoji and text style
SYMBOLS = {"S": ("♠", "♤"), "H": ("♥", "♡"), "D": ("♦", "♢"), "C": ("♣", "♧")}
QUOTED = "\u2019s"  # a plural as a phone writes it, with U+2019
SUIT_WORDS = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}
TWINS = runpy.run_path(str(Path(__file__).with_name("twins.py")))  # tests/twins.py
CARD, RANK_ASKED = TWINS["CARD"], TWINS["RANK_ASKED"]
games, changed = TWINS["games"], TWINS["changed"]
assert_same_verdict = TWINS["assert_same_verdict"]

CARD_LIST = re.compile(r"^(\S+ gives|\S+ shows|\S+ books|turn up) ((?:\S+ )+\S+)$")
CLAIMED = re.compile(r"claims .*: \S+: [^,]+, [^,:]+,")  # 'Bob: 9D, JD, Dee 10D'
CLAIM = re.compile(r"^(\S+ claims [^:]+): (.+)$")
LISTED = re.compile(r"(gives|shows|books|turn up) [^,]+, ")
SUIT_NAMED = re.compile(r"\b(low|high|any) (spades|hearts|diamonds|clubs)\b")


def symbol(suit: str, rng: random.Random) -> str:
    """A suit letter as a phone may write it: a symbol, solid or outlined, with or
    without a variation selector after it."""
    return rng.choice(SYMBOLS[suit]) + rng.choice(("", EMOJI, TEXT))


def on_a_phone(line: str, rng: random.Random) -> str:
    """A canonical transcript line as typed on a phone."""
    player = line.split(" ", 1)[0]
    if line == f"{player} says no":
        return rng.choice(("No.", "Go fish!", "go fish.", f"{player}: no!",
                           f"{player} says no.", f"{player}: Go fish!",
                           f"{player} says go fish"))
    if line == f"{player} says yes":
        return rng.choice(("Yes!", "yes.", f"{player}: yes!", f"{player} says yes."))
    asked = RANK_ASKED.match(line)
    if asked:
        plural = rng.choice(("'s", QUOTED))
        line = f"{asked[1]} {asked[2]}{plural}{asked[3]}"
    claim = CLAIM.match(line)
    if claim:
        holders = [group.split(" ", 1) for group in claim[2].split(", ")]
        line = f"{claim[1]}: " + ", ".join(
            f"{name}{rng.choice((':', ''))} {rng.choice((', ', ' ')).join(cards.split())}"
            for name, cards in holders)
    listed = CARD_LIST.match(line)
    if listed and rng.random() < 0.5:
        line = f"{listed[1]} {', '.join(listed[2].split())}"
    line = SUIT_NAMED.sub(lambda m: f"{m[1]} {symbol(SUIT_WORDS[m[2]], rng)}", line)
    return CARD.sub(lambda m: m[1] + symbol(m[2], rng), line)


def check_spelled(seeds: range) -> None:
    forms: set[str] = set()
    for label, _, lines in games(seeds):
        rng = random.Random(label)
        for game in (lines, changed(lines, rng)):
            typed = [on_a_phone(line, rng) for line in game]
            forms |= {form for form in ("'s", QUOTED, EMOJI, TEXT, "♡", "!", ".")
                      if any(form in line for line in typed)}
            forms |= {"listed" for line in typed if LISTED.search(line)}
            forms |= {"claimed" for line in typed if CLAIMED.search(line)}
            assert_same_verdict(label, game, typed)
    assert forms == {"'s", QUOTED, EMOJI, TEXT, "♡", "!", ".", "listed", "claimed"}


def test_every_bundled_game_spelled_on_a_phone_gets_its_canonical_verdict() -> None:
    check_spelled(range(1, 3))


@pytest.mark.slow
def test_more_games_spelled_on_a_phone_get_their_canonical_verdicts() -> None:
    check_spelled(range(3, 15))


@pytest.mark.parametrize(("word", "card"), [
    ("A♥️", "AH"), ("10♠︎", "10S"), ("t♡", "10H"), ("q♢️", "QD"), ("2♧", "2C"),
    ("A♥️️", None), ("A️♥", None), ("️", None), ("A♥‍", None),
])
def test_a_card_reads_with_its_symbol_in_any_style(word: str, card: str | None) -> None:
    assert parse_card(word) == card


@pytest.mark.parametrize(("word", "rank"), [
    ("8's", "8"), (f"Q{QUOTED}", "Q"), ("t's", "10"), ("10's", "10"), ("a's", "A"),
    ("'s", None), ("queen's", None), ("8'", None), ("8''s", None),
])
def test_a_rank_symbol_with_an_apostrophe_is_its_plural(word: str, rank: str | None) -> None:
    assert parse_rank(word) == rank
    assert parse_card(word) is None


def test_a_suit_reads_in_any_style() -> None:
    assert [parse_suit(w) for w in ("♡", "♥️", "♠︎", "♢", "♧️")] == ["H", "H", "S", "D", "C"]


def test_a_name_that_reads_as_a_card_in_outline_is_refused() -> None:
    found = refusal(["Ann", "Q♡"])
    assert found is not None and "card" in found.message


@pytest.mark.parametrize("answer", ["Go fish!", "No.", "go fish.", "NO!!", "Bob: no!",
                                    "Bob says no.", "go fish !", "Bob: go fish",
                                    "Bob: Go Fish!", "Bob says go fish."])
def test_a_refusal_may_end_with_a_mark(answer: str) -> None:
    text = ("game: go-fish\nplayers: Ann Bob\ndeal: seed 3\n"
            f"Ann asks Bob for {first_rank_bob_lacks()}\n{answer}\n")
    result = check_text(text, "t.txt", record=True)
    assert result.ok, result.report()
    assert result.canonical[-2] == "Bob says no"


def first_rank_bob_lacks() -> str:
    """A rank Ann may ask Bob for, and Bob lacks, after the deal of seed 3."""
    for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"):
        text = ("game: go-fish\nplayers: Ann Bob\ndeal: seed 3\n"
                f"Ann asks Bob for {rank}\nBob says no\n")
        if check_text(text, "t.txt").ok:
            return rank
    raise AssertionError("no such rank")


@pytest.mark.parametrize(("answer", "message"), [
    ("No?", "cannot read"), ("go! fish", "cannot read"), ("Bob says !", "an answer reads"),
    ("!", "cannot read"),
])
def test_a_mark_elsewhere_is_still_an_error(answer: str, message: str) -> None:
    text = ("game: go-fish\nplayers: Ann Bob\ndeal: seed 3\n"
            f"Ann asks Bob for {first_rank_bob_lacks()}\n{answer}\n")
    result = check_text(text, "t.txt")
    assert not result.ok
    assert message in result.to_json()["error"]["message"]
    assert result.to_json()["error"]["line"] == 5


@pytest.mark.parametrize(("claim", "holders"), [
    ("Fay claims high diamonds: Bob 9D JD, Dee 10D", [("Bob", "9D JD"), ("Dee", "10D")]),
    ("Fay claims high diamonds: Bob 9D, JD, Dee 10D", [("Bob", "9D JD"), ("Dee", "10D")]),
    ("Fay claims high diamonds: Bob: 9D, JD, Dee: 10D", [("Bob", "9D JD"), ("Dee", "10D")]),
    ("Fay claims high ♦: Bob: 9♦️, j♢, Dee: T♦", [("Bob", "9♦️ j♢"), ("Dee", "T♦")]),
    ("Fay claims high diamonds: Bob, 9D, Dee 10D,", [("Bob", "9D"), ("Dee", "10D")]),
    ("Fay claims high diamonds: Bob : : 9D", [("Bob", ": 9D")]),
    ("Fay claims high diamonds: Bob 9D: JD", [("Bob", "9D : JD")]),
    ("Fay claims high diamonds: Bob 9D Dee 10D", [("Bob", "9D Dee 10D")]),
])
def test_a_claims_holders_read_with_commas_and_colons(claim: str,
                                                      holders: list[tuple[str, str]]) -> None:
    """A comma goes on with the same holder before a card (no name reads as one), and
    ends the holder's cards before anything else; one colon after a holder's name is
    read as nothing. What is left over is the resolver's to refuse."""
    events, error = read_events(claim, "t.txt", 1)
    assert error is None
    assert [(name.text, " ".join(t.text for t in cards))
            for name, cards in events[0].groups] == holders


WIDE = {mark: chr(ord(mark) + 0xFEE0) for mark in ":,?>;#!."}  # ':' to U+FF1A


def fullwidth(text: str) -> str:
    """``text`` with every mark of the notation in its fullwidth form."""
    return "".join(WIDE.get(c, c) for c in text)


def with_wide_marks(lines: list[str], rng: random.Random) -> list[str]:
    """A canonical transcript as a Chinese or Japanese input method types it: every mark
    of the notation in its fullwidth form (the ``game:`` line's too), answers ended
    with a fullwidth ``!``, and events two to a line, joined by a fullwidth ``;``."""
    typed: list[str] = []
    for line in lines:
        player = line.split(" ", 1)[0]
        if line == f"{player} says no":
            line = rng.choice((f"{player}: no!", "go fish!", line))
        if ": " not in line[:12] and typed and rng.random() < 0.4 and ":" not in typed[-1][:12]:
            typed[-1] += f"; {line}"
        else:
            typed.append(line)
    return [fullwidth(line) for line in typed]


def test_every_bundled_game_typed_with_fullwidth_marks_gets_its_canonical_verdict() -> None:
    for label, _, lines in games(range(1, 3)):
        rng = random.Random(label)
        typed = with_wide_marks(lines, rng)
        assert any(WIDE[":"] in line for line in typed)
        assert any(WIDE[";"] in line for line in typed)
        expected = check_text("\n".join(lines) + "\n", "canonical.txt", record=True)
        found = check_text("\n".join(typed) + "\n", "wide.txt", record=True)
        assert found.ok, f"{label}:\n{found.report()}"
        assert found.state == expected.state, label
        assert found.canonical == expected.canonical, label


def test_a_game_lines_path_keeps_its_fullwidth_marks(tmp_path: Path) -> None:
    """A ``game:`` line's path names a file: its marks are not read as ASCII ones."""
    wide_name = fullwidth("x#y")
    (tmp_path / f"{wide_name}.rules").write_text("extends: go-fish\n", encoding="utf-8")
    (tmp_path / "x#y.rules").write_text("extends: authors\n", encoding="utf-8")
    text = fullwidth("game:") + f' "./{wide_name}.rules"\n' + fullwidth(
        "players: Ann Bob\ndeal: seed 3\n")
    result = check_text(text, str(tmp_path / "t.txt"), tmp_path)
    assert result.ok, result.report()
    assert result.game == wide_name  # the file named, not x#y


@pytest.mark.parametrize("mark", list(WIDE))
def test_a_name_holding_a_fullwidth_mark_is_refused(mark: str) -> None:
    found = refusal(["Bob", f"Ann{WIDE[mark]}"])
    assert found is not None
    assert f"which a transcript reads as {mark!r}" in found.message


def test_a_fullwidth_line_keeps_its_columns() -> None:
    text = "game: go-fish\nplayers: Ann Bob\ndeal: seed 3\n" + fullwidth("Ann:Bob,ZZ?\n")
    result = check_text(text, "t.txt")
    error = result.to_json()["error"]
    assert (error["line"], error["column"]) == (4, 9)  # under ZZ: one column a character
