"""Events as players say them at a table and type them in a hurry: an answer said as
what the asked player has (``Cy has 2``, ``Cy has no sevens``, ``Cy doesn't have any``,
``none``), ticked or crossed (``✓``, ``✗``) or a letter (``y``, ``n``); a give of
``them`` or ``it``, or to ``him``; a draw picked up or drawn from the pond; an ask with a
colon (``Ann > Bob: 7``, ``Ann to Bob: sevens?``); a verb without its ``s`` (``Bob
draw``); an ask and its answer in one part of a line, without ``;`` (``Ann > Bob 7,
no``, ``Ann asks Bob for 7, Bob says no``, ``Ann > Bob 7 ✗``); a claim called, of a
set named short or with a hyphen, its cards parted by ``/`` (``Ann calls lo hearts: Ann
3H, Cy 6H/8H``). Every bundled rule file's self-played games, typed so, get their
canonical twins' verdicts; a refusal that names something other than what was asked is
refused at that word."""

from __future__ import annotations

import random
import re
import runpy
from pathlib import Path

import pytest

from referee.language.cards import RANK_WORDS
from referee.transcript.check import check_text

TWINS = runpy.run_path(str(Path(__file__).with_name("twins.py")))  # tests/twins.py
games, changed = TWINS["games"], TWINS["changed"]
assert_same_verdict = TWINS["assert_same_verdict"]
LITERATURE = TWINS["LITERATURE"]

ASK = re.compile(r"^(\S+) asks (\S+) for (\S+)$")
QUESTION = re.compile(r"^(\S+) asks (\S+): any (\S+?)\??$")
LAY_OUT = re.compile(r"^(\S+) asks (\S+) to lay out (\S+)$")
REFUSAL = re.compile(r"^(\S+) says no$")
YES = re.compile(r"^(\S+) says yes$")
GIVE = re.compile(r"^(\S+) gives( .*)?$")
DRAW = re.compile(r"^(\S+) draws( \S+)?$")
BOOK = re.compile(r"^(\S+) books (10|[2-9JQKA])$")
LAID = re.compile(r"^(\S+) lays down (.+)$")
CLAIM = re.compile(r"^(\S+) claims (high|low) (\S+): (.*)$")
RANK = re.compile(r"^(10|[2-9JQKA])$")
ANSWER = re.compile(r"^\S+ (?:says (?:no|yes)|gives\b.*)$")


def lacked(asked: str) -> str:
    """What was asked, as a refusal names it: a rank in the plural, else as written."""
    return RANK_WORDS[asked][1] if RANK.match(asked) else asked


def at_the_table(line: str, asked: list[str], rng: random.Random, fill_in: bool) -> str:
    """A canonical transcript line as said at a table; ``asked`` holds what the last
    ask or question asked for (kept up to date). With ``fill_in`` (an open deal, no card
    changed), a give that names its cards may leave them to the referee (``Cy gives
    them``)."""
    ask = ASK.match(line)
    if ask:
        player, target, item = ask.groups()
        asked[:] = [item]
        return rng.choice((f"{player} > {target}: {item}", f"{player} to {target}: {item}?",
                           f"{player} > {target}, {item}?", f"{player} ask {target} for {item}"))
    lay_out = LAY_OUT.match(line)
    if lay_out:
        player, target, card = lay_out.groups()
        asked[:] = [card]
        return rng.choice((line, f"{player} > {target} lay out {card}",
                           f"{player}: {target}, lay out {card}?"))
    question = QUESTION.match(line)
    if question:
        asked[:] = [question[3]]
        return f"{question[1]} to {question[2]}: any {question[3]}?"
    refusal = REFUSAL.match(line)
    if refusal:
        player = refusal[1]
        forms = [f"{player} has none", f"{player} doesn't have any", "none", "\u2717", "n",
                 f"{player}: none", f"{player} has nothing!"]
        if asked:
            forms += [f"{player} has no {lacked(asked[0])}",
                      f"{player} doesn\u2019t have any {lacked(asked[0])}"]
        return rng.choice(forms)
    yes = YES.match(line)
    if yes:
        return rng.choice(("y", "\u2713", "\u2714\ufe0f", f"{yes[1]}: \u2705"))
    give = GIVE.match(line)
    if give:
        player, given = give[1], give[2] or ""
        forms = [f"{player} has{given}", f"{player} gives him{given}",
                 f"{player} give{given}"]
        if fill_in or not given:
            forms += [f"{player} gives them", f"{player} gives it", f"{player} has them",
                      f"{player} gives them all"]
        return rng.choice(forms)
    book = BOOK.match(line)
    if book:
        player, rank = book.groups()
        return rng.choice((f"{player} books the {RANK_WORDS[rank][1]}",
                           f"{player} makes a book of {rank}s",
                           f"{player} puts down {RANK_WORDS[rank][1]}",
                           f"{player} lays down a book of {RANK_WORDS[rank][1]}"))
    laid = LAID.match(line)
    if laid:
        return f"{laid[1]} {rng.choice(('puts', 'put', 'lays'))} down the {laid[2]}"
    claim = CLAIM.match(line)
    if claim:
        player, label, suit, holders = claim.groups()
        short = {"high": "hi", "low": "lo"}[label]
        named = rng.choice((f"{short} {suit}", f"{label}-{suit}", f"{suit} {short}"))
        if rng.random() < 0.5:  # 'Bob 9D/JD/QD, Fay KD'
            holders = ", ".join(name + " " + rng.choice(("/", " / ")).join(cards)
                                for name, *cards in (group.split() for group in
                                                     holders.split(", ")))
        return f"{player} {rng.choice(('calls', 'called', 'claims'))} {named}: {holders}"
    draw = DRAW.match(line)
    if draw:
        player, drawn = draw[1], draw[2] or ""
        return rng.choice((f"{player} picks up{drawn or ' a card'}",
                           f"{player} draws{drawn} from the pond", f"{player} draw{drawn}",
                           f"{player} picked up{drawn}", f"{player} draws{drawn} from stock"))
    return line


def joined(canonical: list[str], said: list[str], rng: random.Random) -> list[str]:
    """``said`` (the lines of ``canonical`` as said at the table) with about half of the
    asks and their answers in one segment, without ';'."""
    out: list[str] = []
    index = 0
    while index < len(said):
        line = canonical[index]
        if (ASK.match(line) or QUESTION.match(line) or LAY_OUT.match(line)) and \
                index + 1 < len(said) and ANSWER.match(canonical[index + 1]) and \
                rng.random() < 0.5:
            out.append(said[index] + rng.choice((", ", ": ", " ")) + said[index + 1])
            index += 2
        else:
            out.append(said[index])
            index += 1
    return out


FORMS = ("> ", " to ", " ask ", " has none", " has no ", "doesn't", "none", "\u2717", " gives them",
         " has ", " gives him", " picks up", " from the pond", " draw", "\u2713", ", n",
         ": none", " calls ", " lo ", "high-", "/", " books the ", " a book of ",
         " puts down ", " lay out ")


def check_at_the_table(seeds: range) -> None:
    seen: set[str] = set()
    for label, _spec, lines in games(seeds):
        rng = random.Random(label)
        for game in (lines, changed(lines, rng)):
            asked: list[str] = []
            fill_in = game is lines and int(label.rsplit(" ", 1)[1]) % 2 == 1  # open: odd
            said = [at_the_table(line, asked, rng, fill_in) for line in game]
            if game is lines:  # (in a changed game, lines stay where they were)
                said = joined(game, said, rng)
            seen |= {form for form in FORMS if any(form in line for line in said)}
            assert_same_verdict(label, game, said)
    assert seen == set(FORMS)


def test_every_bundled_game_said_at_the_table_gets_its_canonical_verdict() -> None:
    check_at_the_table(range(1, 3))


@pytest.mark.slow
def test_more_games_said_at_the_table_get_their_canonical_verdicts() -> None:
    check_at_the_table(range(3, 15))


HEADER_KEYS = {"game", "players", "dealer", "deal", "hand", "stock", "team", "option", "centre",
               "center"}
GO_FISH = TWINS["GO_FISH"]


def checked(*events: str, text: str = GO_FISH) -> dict[str, object]:
    """The verdict on ``events`` after the header lines ``text``, with the first
    canonical event lines, as many as ``events`` (the referee may fill in more)."""
    found = check_text(text + "\n".join(events) + "\n", "t.txt", record=True)
    report: dict[str, object] = found.to_json()
    written = [line for line in found.canonical if not (
        ":" in line and line.split(":")[0].split(" ")[0] in HEADER_KEYS)]
    report["canonical"] = written[:len(events)] if found.ok else None
    return report


@pytest.mark.parametrize("refusal", [
    "Bob has none", "Bob has nothing.", "Bob has no eights", "Bob has no 8s", "Bob has no 8",
    "Bob doesn't have any", "Bob doesnt have any 8s!", "Bob does not have any eights",
    "Bob didn't have any", "Bob doesn\u2019t have one", "Bob had none", "none", "n", "N",
    "fish", "\u2717", "\u2718", "\u274c", "\u2716\ufe0f", "Bob: none", "Bob says none",
    "Bob: n", "Bob: \u2717"])
def test_a_refusal_said_as_what_the_player_lacks(refusal: str) -> None:
    report = checked("Ann asks Bob for 8", refusal)
    assert report["ok"], report
    assert report["canonical"] == ["Ann asks Bob for 8", "Bob says no"]


@pytest.mark.parametrize("give", ["Bob has 2", "Bob has two", "Bob has 2 twos", "Bob has 2D 2C",
                                  "Bob gives them", "Bob gives them all", "Bob gives it",
                                  "Bob gives him 2", "Bob give 2", "Bob has them", "y",
                                  "\u2713", "\u2714\ufe0f", "\u2705", "Bob: y", "Bob says y"])
def test_a_give_said_as_what_the_player_has(give: str) -> None:
    report = checked("Ann asks Bob for 2", give)
    assert report["ok"], report
    assert report["canonical"] == ["Ann asks Bob for 2", "Bob gives 2D 2C"]


@pytest.mark.parametrize("draw", ["Ann picks up 9S", "Ann picked up a card", "Ann picks up",
                                  "Ann draws from the pond", "Ann draws 9S from the stock",
                                  "Ann draws a card from the deck", "Ann draw 9S",
                                  "Ann draws from pile"])
def test_a_draw_picked_up_or_from_the_pond(draw: str) -> None:
    report = checked("Ann asks Bob for 8", "Bob says no", draw)
    assert report["ok"], report
    assert report["canonical"] == ["Ann asks Bob for 8", "Bob says no", "Ann draws 9S"]


@pytest.mark.parametrize("ask", ["Ann > Bob: 8", "Ann > Bob: eights?", "Ann > Bob, 8s?",
                                 "Ann to Bob: 8?", "Ann to Bob, any eights?", "Ann ask Bob for 8",
                                 "Ann->Bob: 8"])
def test_an_ask_with_a_colon_or_to(ask: str) -> None:
    report = checked(ask, "Bob says no")
    assert report["ok"], report
    assert report["canonical"] == ["Ann asks Bob for 8", "Bob says no"]


@pytest.mark.parametrize(("events", "message", "column"), [
    (("Ann asks Bob for 8", "Bob has no kings"), "Ann asked for eights, not 'kings'", 12),
    (("Ann asks Bob for 8", "Bob has no 8S"), "Ann asked for eights, not '8S'", 12),
    (("Ann asks Bob for 8", "Bob doesn't have any 9s"), "not '9s'", 22),
    (("Ann asks Bob for 2", "Bob has none"), "Bob holds 2D 2C", 1),
    (("Ann asks Bob for 2", "Bob has 3"), "holds 2 such cards", 1),
])
def test_a_refusal_or_give_that_says_something_else_is_refused(
        events: tuple[str, ...], message: str, column: int) -> None:
    report = checked(*events)
    assert not report["ok"]
    error = report["error"]
    assert isinstance(error, dict) and message in error["message"], error
    assert (error["line"], error["column"]) == (7 + len(events), column)


def test_a_card_ask_is_refused_by_naming_that_card() -> None:
    for refusal in ("Bob has no 7\u2666", "Bob doesn't have the 7D", "Bob has no 7d"):
        report = checked("Ann asks Bob for 7D", refusal, text=LITERATURE)
        assert report["ok"], report
    report = checked("Ann asks Bob for 7D", "Bob has no sevens", text=LITERATURE)
    assert not report["ok"] and "Ann asked for 7D, not 'sevens'" in str(report["error"])


@pytest.mark.parametrize("line", ["Ann does a little dance", "Bob has no", "Bob has no 8s please",
                                  "Bob doesn't have", "Bob to Ann 8", "Ann asks Bob 8",
                                  "Bob has none of them"])
def test_other_words_are_still_refused(line: str) -> None:
    report = checked("Ann asks Bob for 8", line)
    assert not report["ok"]
    error = report["error"]
    assert isinstance(error, dict) and error["kind"] in ("syntax", "unknown"), error


@pytest.mark.parametrize("line", ["Ann > Bob 8, no", "Ann > Bob 8: no", "Ann > Bob 8 \u2717",
                                  "Ann asks Bob for 8, Bob says no", "Ann: Bob, 8, nope",
                                  "Ann > Bob eights, go fish", "Ann > Bob 8, Bob has none",
                                  "Ann to Bob: 8? n", "  Ann > Bob 8 no  ", "Ann > Bob 8 Bob: no",
                                  "Ann > Bob 8: Bob: no"])
def test_an_ask_and_its_refusal_without_a_semicolon(line: str) -> None:
    for _ in range(2):  # the second time, where it parts is remembered
        report = checked(line)
        assert report["ok"], report
        assert report["canonical"] == ["Ann asks Bob for 8"]
        assert report["events"] == 2  # the ask and the refusal


@pytest.mark.parametrize("line", ["Ann > Bob 2, yes", "Ann > Bob 2 \u2713", "Ann > Bob 2: y",
                                  "Ann asks Bob for 2, Bob gives 2", "Ann > Bob twos, Bob has 2",
                                  "Ann > Bob 2, yes, 2D 2C"])
def test_an_ask_and_its_give_without_a_semicolon(line: str) -> None:
    report = checked(line)
    assert report["ok"], report
    assert report["canonical"] == ["Ann asks Bob for 2"]


@pytest.mark.parametrize(("line", "message", "column"), [
    ("Ann > Bob 2, no", "Bob holds 2D 2C, so Bob cannot say no", 14),
    ("Ann > Bob 2, Bob gives 3", "holds 2 such cards", 14),
    ("Ann > Bob 2 no yes", "'2 no yes' is not a card or a rank", 11),
    ("Ann > Bob 2, Cy says no", "no player is named 'Cy'", 14),
])
def test_an_answered_ask_that_cannot_stand_is_refused(line: str, message: str,
                                                      column: int) -> None:
    report = checked(line)
    assert not report["ok"]
    error = report["error"]
    assert isinstance(error, dict) and message in error["message"], error
    assert (error["line"], error["column"]) == (8, column)


@pytest.mark.parametrize("claim", [
    "Ann calls lo hearts: Ann 3H, Cy 6H/8H, Eve 7H / 4H / 5H",
    "Ann claims low-hearts: Ann 3H, Cy 6H 8H, Eve 7H 4H 5H",
    "Ann called hearts lo: Ann 3H, Cy 6H 8H, Eve 7H/4H/5H",
    "Ann claims lo \u2665: Ann 3H, Cy 6H 8H, Eve 7H 4H 5H"])
def test_a_claim_called_of_a_set_named_short_its_cards_parted_by_slashes(claim: str) -> None:
    report = checked(claim, text=LITERATURE)
    assert report["ok"], report
    assert report["canonical"] == ["Ann claims low hearts: Ann 3H, Cy 6H 8H, Eve 7H 4H 5H"]


@pytest.mark.parametrize("claim", ["Ann claims lo-: Ann 3H", "Ann claims hi: Ann 3H",
                                   "Ann claims lower hearts: Ann 3H"])
def test_a_set_named_otherwise_is_still_unknown(claim: str) -> None:
    report = checked(claim, text=LITERATURE)
    assert not report["ok"]
    error = report["error"]
    assert isinstance(error, dict) and error["kind"] == "unknown", error


TWOS = GO_FISH.replace("hand Ann: 2S 3S", "hand Ann: 2S 2H").replace(" 2H 3D", " 3S 3D")


@pytest.mark.parametrize("book", ["Ann books 2S 2H 2D 2C",
                                  "Ann books 2\u2660 2\u2665 2\u2666 2\u2663",
                                  "Ann books 2C, 2D, 2H and 2S", "Ann books the twos",
                                  "Ann makes a book of 2s", "Ann got a book of twos",
                                  "Ann puts down 2s", "Ann lays down the twos"])
def test_a_book_of_all_its_cards_or_said_in_words(book: str) -> None:
    report = checked("Ann asks Bob for 2", "Bob gives 2D 2C", book, text=TWOS)
    assert report["ok"], report
    assert report["canonical"] == ["Ann asks Bob for 2", "Bob gives 2D 2C", "Ann books 2"]


@pytest.mark.parametrize("book", ["Ann books 2S 2H 2D", "Ann books 2S 2H 2D 2C 2C",
                                  "Ann books 2S 2H 2D 2D", "Ann books the 2S"])
def test_a_book_of_some_of_its_cards_is_refused(book: str) -> None:
    report = checked("Ann asks Bob for 2", "Bob gives 2D 2C", book, text=TWOS)
    assert not report["ok"], report


@pytest.mark.parametrize("ask", ["Dee > Cy lay out JC", "Dee: Cy, lay out JC?",
                                 "Dee to Cy: lay out J\u2663?", "Dee > Cy: lay out jc"])
def test_an_ask_to_lay_out_typed_short(ask: str) -> None:
    text = Path(__file__).with_name("transcripts").joinpath(
        "diplomat-centre", "whole-game.txt").read_text(encoding="utf-8")
    header = "".join(line + "\n" for line in text.splitlines()[:13])
    report = checked(ask, "Cy lays out JC", text=header)
    assert report["ok"], report
    assert report["canonical"] == ["Dee asks Cy to lay out JC", "Cy lays out JC"]
