"""A rank in the plural with a small ``s`` (``7s``, ``Qs``, ``10s``), as people type
it: where no card may stand (an ask where the rules ask for a rank, a book where a set
is a rank) it is that rank, ``sevens``; everywhere else it is still the card of spades
the notation reads (``Ann: Bob, 7s?`` in Literature asks for the 7 of spades). Every
bundled rule file's self-played games, typed so, get their canonical twins' verdicts."""

from __future__ import annotations

import random
import re
import runpy
from pathlib import Path

import pytest

from referee.language.cards import small_s_plural
from referee.language.spec import ASK_FOR_RANK, GameSpec
from referee.transcript.check import check_text

TWINS = runpy.run_path(str(Path(__file__).with_name("twins.py")))  # tests/twins.py
games, changed = TWINS["games"], TWINS["changed"]
assert_same_verdict = TWINS["assert_same_verdict"]

RANK_ASK = re.compile(r"^(\S+) asks (\S+) for (10|[2-9JQKA])$")
RANK_BOOK = re.compile(r"^(\S+) books (10|[2-9JQKA])$")
CARD_ASK = re.compile(r"^(\S+) asks (\S+) for (10|[2-9JQKA])S$")


def typed(line: str, spec: GameSpec, rng: random.Random) -> str:
    """``line`` with a rank asked for or booked written ``7s``, where the rules read it
    as the rank, and a spade asked for written ``7s``, where they read it as the card."""
    ask = RANK_ASK.match(line)
    if ask and spec.ask.item is ASK_FOR_RANK:
        player, target, rank = ask.groups()
        return rng.choice((f"{player}: {target}, {rank}s?", f"{player} > {target} {rank}s",
                           f"{player} asks {target} for {rank}s"))
    book = RANK_BOOK.match(line)
    if book and spec.find_set(book[2]) is not None:
        return f"{book[1]} books {book[2]}s"
    card = CARD_ASK.match(line)
    if card and spec.ask.item is not ASK_FOR_RANK:
        return f"{card[1]}: {card[2]}, {card[3]}s?"
    return line


def check_typed(seeds: range) -> None:
    written: set[str] = set()
    for label, spec, lines in games(seeds):
        rng = random.Random(label)
        for game in (lines, changed(lines, rng)):
            said = [typed(line, spec, rng) for line in game]
            written |= {kind for kind, pattern in (("ask", RANK_ASK), ("book", RANK_BOOK),
                                                   ("card", CARD_ASK))
                        for old, new in zip(game, said, strict=True)
                        if old != new and pattern.match(old)}
            assert_same_verdict(label, game, said)
    assert written == {"ask", "book", "card"}


def test_every_bundled_game_typed_with_small_s_plurals_gets_its_canonical_verdict() -> None:
    check_typed(range(1, 3))


@pytest.mark.slow
def test_more_games_typed_with_small_s_plurals_get_their_canonical_verdicts() -> None:
    check_typed(range(3, 11))


@pytest.mark.parametrize(("word", "rank"), [
    ("7s", "7"), ("Qs", "Q"), ("10s", "10"), ("Ts", "10"), ("As", "A"), ("ks", "K"),
    ("7S", None), ("QS", None), ("queens", None), ("sevens", None), ("7", None),
    ("s", None), ("7♠", None), ("7H", None), ("RJs", None),
])
def test_a_small_s_plural_is_a_rank_symbol_and_a_small_s(word: str, rank: str | None
                                                         ) -> None:
    assert small_s_plural(word) == rank


GO_FISH = ("game: go-fish\nplayers: Ann Bob\ndealer: Bob\ndeal: given\n"
           "hand Ann: 2S 2H 4S 5S 6S 7S 8S\nhand Bob: 2D 2C 3H 4H 5H 6H 7H\n"
           "stock: " + " ".join(f"{r}{s}" for r in ("9", "10", "J", "Q", "K", "A")
                                for s in "SHDC") + " 3S 3D 3C 4D 4C 5D 5C 6D 6C 7D 7C 8H 8D 8C\n")
LITERATURE = TWINS["LITERATURE"]  # a 6-player deal of Literature (tests/twins.py)


def checked(text: str, *events: str) -> dict[str, object]:
    """The verdict of ``events`` after ``text``, with the event lines it wrote back
    (the answers it filled in too)."""
    found = check_text(text + "\n".join(events) + "\n", "t.txt", record=True)
    report: dict[str, object] = found.to_json()
    report["canonical"] = [line for line in found.canonical if ": " not in line] \
        if found.ok else None
    return report


@pytest.mark.parametrize("ask", ["Ann: Bob, 2s?", "Ann > Bob 2s", "Ann asks Bob for 2s",
                                 "Ann asks Bob for 2s.", "Ann: Bob, 2s? Bob: yes."])
def test_where_ranks_are_asked_for_7s_is_sevens(ask: str) -> None:
    report = checked(GO_FISH, ask)
    assert report["ok"], report
    assert report["canonical"] == ["Ann asks Bob for 2", "Bob gives 2D 2C", "Ann books 2"]


def test_a_card_written_in_capitals_is_still_a_card_where_ranks_are_asked_for() -> None:
    report = checked(GO_FISH, "Ann asks Bob for 2S")
    error = report["error"]
    assert isinstance(error, dict) and error["kind"] == "illegal"
    assert "asks for a rank, not a card: ask for 2" in error["message"]


def test_where_cards_are_asked_for_7s_is_the_seven_of_spades() -> None:
    report = checked(LITERATURE, "Ann: Bob, 6s?")
    assert report["ok"], report
    assert report["canonical"] == ["Ann asks Bob for 6S", "Bob gives 6S"]


def test_a_book_of_2s_is_the_book_of_twos_where_a_set_is_a_rank() -> None:
    report = checked(GO_FISH, "Ann asks Bob for 2s", "Ann books 2s")
    assert report["ok"], report
    assert report["canonical"] == ["Ann asks Bob for 2", "Bob gives 2D 2C", "Ann books 2"]


@pytest.mark.parametrize("give", ["Bob gives twos", "Bob gives the twos", "Bob gives twos.",
                                  "Bob gives Ann twos", "Bob gives twos to Ann"])
def test_a_give_of_the_rank_asked_for_leaves_its_cards_to_the_deal(give: str) -> None:
    report = checked(GO_FISH.replace("2D 2C", "2S 2C").replace("2S 2H 4S", "2D 2H 4S"),
                     "Ann asks Bob for 2", give)
    assert report["ok"], report
    assert report["canonical"] == ["Ann asks Bob for 2", "Bob gives 2S 2C", "Ann books 2"]


@pytest.mark.parametrize(("give", "kind", "message"), [
    ("Bob gives threes", "illegal", "Ann asked for twos, so the cards given are twos, "
     "not 'threes'"),
    ("Bob gives 2s", "contradiction", "Bob must give 2D 2C, not 2S"),  # a give names cards
])
def test_a_give_of_another_rank_or_card_is_refused(give: str, kind: str, message: str
                                                   ) -> None:
    report = checked(GO_FISH, "Ann asks Bob for 2", give)
    error = report["error"]
    assert isinstance(error, dict) and (error["kind"], error["message"]) == (kind, message)


def test_in_a_hidden_deal_a_give_of_the_rank_needs_its_count_as_a_bare_give_does() -> None:
    hidden = "game: go-fish\nplayers: Ann Bob\ndealer: Bob\ndeal: hidden\n"
    bare, ranked = (checked(hidden, "Ann asks Bob for 2", give)
                    for give in ("Bob gives", "Bob gives twos"))
    assert not bare["ok"] and bare["error"] == ranked["error"]
