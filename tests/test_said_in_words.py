"""Events as people say them in words: an article before what is asked for (``Ann
asks Bob for a 7``, ``an ace``, ``any 7s``, ``Ann: Bob, any sevens?``), a card in
words (``the queen of hearts``), a count in words or with what it counts (``Bob gives
two``, ``Bob gives 2 sevens``, ``a seven``, ``1 card``), a draw of ``a card``, a
sentence ended with ``.``, ``!`` or ``。``, and the Japanese comma ``、``. Every bundled
rule file's self-played games, said so, get the verdict their canonical twins get: the
same state through the same moves, and the same error at the same line once a card is
changed. Words that say something else are still refused."""

from __future__ import annotations

import random
import re
import runpy
from pathlib import Path

import pytest

from referee.language.cards import RANK_WORDS, parse_asked
from referee.language.spec import GameSpec
from referee.transcript.check import check_text
from referee.transcript.names import unreadable
from referee.transcript.notation import read_events

SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four"}
TWINS = runpy.run_path(str(Path(__file__).with_name("twins.py")))  # tests/twins.py
games, changed = TWINS["games"], TWINS["changed"]
assert_same_verdict = TWINS["assert_same_verdict"]

ASK = re.compile(r"^(\S+) asks (\S+) for (10|[2-9JQKA])([SHDC]?)$")
QUESTION = re.compile(r"^(\S+) asks (\S+): any (\S+)$")
COUNTED = re.compile(r"^(\S+) gives ([1-4])$")
GIVEN = re.compile(r"^(\S+) gives ((?:10|[2-9JQKA])[SHDC])$")
DRAW = re.compile(r"^(\S+) draws$")
ENDS_IN_A_CARD = re.compile(r"^\S+ (?:asks|gives|draws|books|shows|claims) .*\b"
                            r"((?:10|[2-9JQKA])[SHDC]?|[0-9])$")


def article(word: str) -> str:
    return "an" if word[0] in "ae" else "a"


MARKERS = ("- ", "* ", "\u2022 ", "1. ", "12. ", "3) ", "  - ")


def said_in_words(line: str, asked: list[str], spec: GameSpec, rng: random.Random) -> str:
    """A canonical transcript line as said in words, sometimes as a line of a list in a
    notes app (``- ``, ``12. ``), header lines too; ``asked`` holds the last card or
    rank asked for (kept up to date)."""
    said = _said(line, asked, spec, rng)
    if rng.random() < 0.2:
        return rng.choice(MARKERS) + said
    return said


def _said(line: str, asked: list[str], spec: GameSpec, rng: random.Random) -> str:
    player = line.split(" ", 1)[0]
    if line == f"{player} says no":
        return rng.choice(("nope", f"{player}: nah", f"{player} says nope!", "Nope."))
    if line == f"{player} says yes":
        return rng.choice(("yep", f"{player}: yeah", f"{player} says yup!"))
    ask = ASK.match(line)
    if ask:
        player, target, rank, suit = ask.groups()
        asked[:] = [rank + suit]
        one, many = RANK_WORDS[rank]
        if suit:
            return rng.choice((
                f"{player} asks {target} for the {one} of {SUITS[suit]}",
                f"{player}: {target}, the {rank} of {SYMBOLS[suit]}?",
                f"{player} > {target} a {rank}{suit}",
                f"{player}\uff1a{target}、{one} of {SUITS[suit]}\uff1f"))
        forms = [f"{player} asks {target} for {article(one)} {one}",
                 f"{player} > {target} a {rank}", f"{player} asks {target} for the {many}"]
        if not spec.questions:  # where questions are asked, 'any X' is one
            forms += [f"{player}: {target}, any {many}?", f"{player} asks {target} for any "
                      f"{rank}s", f"{player}: {target}, some {many}?"]
        return rng.choice(forms)
    question = QUESTION.match(line)
    if question:
        return f"{question[1]}: {question[2]}, any {question[3]}?"
    counted = COUNTED.match(line)
    if counted and asked:
        player, count = counted[1], int(counted[2])
        rank = asked[0] if len(asked[0]) < 2 or asked[0] == "10" else asked[0][:-1]
        one, many = RANK_WORDS[rank]
        forms = [f"{player} gives {NUMBERS[count]}", f"{player} gives {count} "
                 f"{many if count > 1 else one}", f"{player} gives {count} card"
                 f"{'s' if count > 1 else ''}"]
        if count == 1:
            forms += [f"{player} gives {article(one)} {one}", f"{player} gives a card"]
        return rng.choice(forms)
    given = GIVEN.match(line)
    if given and asked == [given[2]]:  # a card ask's card: a count of one says it
        one = RANK_WORDS[given[2][:-1]][0]
        return rng.choice((f"{given[1]} gives one", f"{given[1]} gives {article(one)} {one}",
                           f"{given[1]} gives 1 card"))
    draw = DRAW.match(line)
    if draw:
        return rng.choice((f"{draw[1]} draws a card", f"{draw[1]} draws one",
                           f"{draw[1]} draws 1 card"))
    if ENDS_IN_A_CARD.match(line):
        return line + rng.choice((".", "!", "。"))
    return line


def check_said(seeds: range) -> None:
    forms: set[str] = set()
    for label, spec, lines in games(seeds):
        rng = random.Random(label)
        for game in (lines, changed(lines, rng)):
            asked: list[str] = []
            said = [said_in_words(line, asked, spec, rng) for line in game]
            forms |= {form for form in (" an ", " any ", " of ", " the ", " two", " a card",
                                        " draws one", "。", "、", " 1 card", "nope", "yep",
                                        "12. ", "\u2022 ")
                      if any(form in line for line in said)}
            assert_same_verdict(label, game, said)
    assert forms == {" an ", " any ", " of ", " the ", " two", " a card", " draws one", "。",
                     "、", " 1 card", "nope", "yep", "12. ", "\u2022 "}


def test_every_bundled_game_said_in_words_gets_its_canonical_verdict() -> None:
    check_said(range(1, 3))


@pytest.mark.slow
def test_more_games_said_in_words_get_their_canonical_verdicts() -> None:
    check_said(range(3, 15))


@pytest.mark.parametrize(("words", "named"), [
    ("an ace", ("A", None)), ("a 7", ("7", None)), ("the sevens", ("7", None)),
    ("any 7s", ("7", None)), ("some 10s", ("10", None)), ("any sevens", ("7", None)),
    ("7s", ("7", "7S")), ("a 7s", ("7", "7S")), ("any Ks", ("K", None)),
    ("the queen of hearts", ("Q", "QH")), ("a Q of ♥", ("Q", "QH")),
    ("10 of diamonds", ("10", "10D")), ("any queen of hearts", (None, None)),
    ("low spades", (None, None)), ("an", (None, None)), ("a", ("A", None)), ("any", (None, None)),
    ("the queen of", (None, None)), ("queen of heart", (None, None)),
    ("the the 7", (None, None)),
])
def test_an_ask_names_a_card_or_rank_in_words(words: str, named: tuple[str | None, ...]
                                              ) -> None:
    assert parse_asked(words.split()) == named


GO_FISH = TWINS["GO_FISH"]


def checked(*events: str, text: str = GO_FISH) -> dict[str, object]:
    found = check_text(text + "\n".join(events) + "\n", "t.txt", record=True)
    report: dict[str, object] = found.to_json()
    report["canonical"] = found.canonical[-len(events):] if found.ok else None
    return report


@pytest.mark.parametrize("give", ["Bob gives two", "Bob gives 2 twos", "Bob gives two 2s",
                                  "Bob gives 2 cards", "Bob gives two twos.",
                                  "Bob gives 2D, 2C!", "Bob gives 2 cards。"])
def test_a_count_may_be_said_in_words_and_with_what_it_counts(give: str) -> None:
    report = checked("Ann asks Bob for a 2", give)
    assert report["ok"], report
    assert report["canonical"] == ["Ann asks Bob for 2", "Bob gives 2D 2C"]


@pytest.mark.parametrize(("give", "message"), [
    ("Bob gives 2 threes", "Ann asked for twos, so the cards given are twos, not 'threes'"),
    ("Bob gives two kings", "not 'kings'"),
    ("Bob gives three", "holds 2 such cards"),
    ("Bob gives 2 2D", "'2' is not a card of this deck"),
    ("Bob gives a", "'a' is not a card of this deck"),
    ("Bob gives two twos please", "'two' is not a card of this deck"),
    ("Bob gives 2 cards.!x", "'2' is not a card of this deck"),
])
def test_a_count_that_says_something_else_is_refused(give: str, message: str) -> None:
    report = checked("Ann asks Bob for 2", give)
    assert not report["ok"]
    error = report["error"]
    assert isinstance(error, dict) and message in error["message"], error
    assert error["line"] == 9


@pytest.mark.parametrize(("draw", "ok"), [
    ("Ann draws a card", True), ("Ann draws one", True), ("Ann draws 1 card", True),
    ("Ann draws 9S.", True), ("Ann draws a card!", True), ("Ann draws two", False),
    ("Ann draws a 9S", True), ("Ann draws the card", False), ("Ann draws 9H", False),
])
def test_a_draw_of_a_card(draw: str, ok: bool) -> None:
    report = checked("Ann asks Bob for 8", "Bob says no", draw)
    assert report["ok"] is ok, report
    if ok:
        assert report["canonical"] == ["Ann asks Bob for 8", "Bob says no", "Ann draws 9S"]


@pytest.mark.parametrize("ask", ["Ann asks Bob for nines.", "Ann: Bob, 9!", "Ann > Bob an ace",
                                 "Ann asks Bob for the queen of hearts"])
def test_an_ask_in_words_is_still_held_to_the_rules(ask: str) -> None:
    report = checked(ask)
    assert not report["ok"]
    error = report["error"]
    assert isinstance(error, dict) and error["line"] == 8
    assert error["kind"] == "illegal", error


@pytest.mark.parametrize(("line", "kept"), [
    ("Ann passes to Dr.", "Dr."), ("Ann asks Dr. for 7", "7"), ("Ann draws 7C.", "7C"),
    ("Ann books sevens!", "sevens"), ("Ann books low ♠.", "♠"), ("Ann shows 7C, 8C!", "8C"),
    ("Ann books low spades.", "spades"), ("Ann books jokers.", "jokers."),
    ("Ann asks Bob for 7?!", "!"),
])
def test_a_full_stop_is_dropped_only_after_a_card_rank_suit_or_count(line: str, kept: str
                                                                     ) -> None:
    events, error = read_events(line, "t.txt", 1)
    assert error is None
    event = events[0]
    last = event.items[-1] if event.items else event.target
    assert last is not None and last.text == kept


def test_the_japanese_comma_and_full_stop_read_as_the_marks() -> None:
    found = check_text("game: go-fish\nplayers: Ann、Bob、Cy\ndeal: seed 1\n"
                       "Ann\uff1aBob、7\uff1f\uff1bBob\uff1ano。\n", "t.txt")
    assert found.ok, found.report()
    assert list(found.to_json()["state"]["hands"]) == ["Ann", "Bob", "Cy"]
    assert "reads as ','" in unreadable("Bob、Cy")


QUESTIONS = ("game: diplomat\nplayers: Ann Bob Cy Dee\ndealer: Dee\ndeal: given\n"
             "hand Ann: 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH\n"
             "hand Bob: 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD\n"
             "hand Cy: 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC\n"
             "hand Dee: 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS\n")


@pytest.mark.parametrize("question", ["Cy: Dee, any spades?", "Cy > Dee any black",
                                      "Cy asks Dee for any 7s", "Cy: Dee, some spades?"])
def test_any_asks_the_question_where_questions_are_asked(question: str) -> None:
    report = checked(question, "Dee says yes", text=QUESTIONS)
    assert report["ok"], report
    assert str(report["canonical"][0]).startswith("Cy asks Dee: any ")  # type: ignore[index]


def test_any_where_the_answer_is_false_is_a_contradiction() -> None:
    report = checked("Cy: Dee, any hearts?", "Dee: yes", text=QUESTIONS)
    error = report["error"]
    assert isinstance(error, dict) and error["kind"] == "contradiction", report


@pytest.mark.parametrize(("line", "first"), [
    ("- Ann asks Bob for 7", "Ann"), ("* Ann: Bob, 7?", "Ann"), ("\u2022 Ann > Bob 7", "Ann"),
    ("12. Ann asks Bob for 7", "Ann"), ("3) Ann asks Bob for 7", "Ann"),
    ("  - Ann asks Bob for 7", "Ann"), ("1.\tAnn draws", "Ann"), ("- no", None),
])
def test_a_line_of_a_list_reads_without_its_marker(line: str, first: str | None) -> None:
    events, error = read_events(line, "t.txt", 1)
    assert error is None, error
    assert (events[0].player.text if events[0].player else None) == first
    word = first or "no"
    assert events[0].span.column == line.index(word) + 1


@pytest.mark.parametrize("line", ["-Ann asks Bob for 7", "12.Ann asks Bob for 7",
                                  "12345. Ann asks Bob for 7", "1.5 Ann asks Bob for 7",
                                  "-- Ann asks Bob for 7", "1 Ann asks Bob for 7"])
def test_what_is_no_list_marker_is_read_as_written(line: str) -> None:
    events, error = read_events(line, "t.txt", 1)
    assert error is not None or events[0].player is None or events[0].player.text != "Ann"


@pytest.mark.parametrize("name", ["1.", "12)", "9999."])
def test_a_name_that_reads_as_a_list_number_is_refused(name: str) -> None:
    assert "number of a list's line" in unreadable(name)
    assert unreadable("1a.") == "" and unreadable("R2D2") == ""


@pytest.mark.parametrize(("answer", "given"), [
    ("yep", True), ("Yeah!", True), ("Bob: yup", True), ("Bob says yep.", True),
    ("nope", False), ("Nah.", False), ("Bob: nope!", False), ("Bob says nah", False),
])
def test_yes_and_no_as_people_say_them(answer: str, given: bool) -> None:
    text = GO_FISH + ("Ann asks Bob for 2" if given else "Ann asks Bob for 8") + f"\n{answer}\n"
    found = check_text(text, "t.txt", record=True)
    assert found.ok, found.report()
    assert found.canonical[8] == ("Bob gives 2D 2C" if given else "Bob says no")


def test_a_whole_transcript_copied_as_a_list_reads_as_written() -> None:
    """Header lines, comments and blank lines of a list read as they would alone."""
    lines = [*GO_FISH.split("\n")[:-1], "# a note", "", "Ann asks Bob for 2", "yep"]
    listed = [f"{number}. {line}" for number, line in enumerate(lines, start=1)]
    found = check_text("\n".join(listed) + "\n", "t.txt", record=True)
    assert found.ok, found.report()
    assert found.canonical[7:9] == ["Ann asks Bob for 2", "Bob gives 2D 2C"]
    wrong = check_text("- " + GO_FISH.replace("players: Ann Bob", "players: Ann Bob Ann")
                       .replace("\n", "\n- "), "t.txt").to_json()["error"]
    assert (wrong["line"], wrong["column"], wrong["kind"]) == (2, 20, "header")


@pytest.mark.parametrize("give", ["yes, 2D 2C", "Bob: yes, 2D, 2C", "Bob says yes, 2D 2C",
                                  "yep 2D 2C", "Bob: yeah, two", "yes, 2 twos", "yes 2",
                                  "Bob: yes 2d 2♣."])
def test_a_yes_may_name_what_is_given(give: str) -> None:
    report = checked("Ann asks Bob for 2", give)
    assert report["ok"], report
    assert report["canonical"] == ["Ann asks Bob for 2", "Bob gives 2D 2C"]


@pytest.mark.parametrize(("give", "kind"), [
    ("yes, 2D", "contradiction"), ("Bob: yes, 2H 2D", "contradiction"),
    ("Bob: yes, please", "unknown"), ("yes yes", "syntax"), ("Bob: yes,", "syntax"),
])
def test_a_yes_naming_other_cards_is_refused(give: str, kind: str) -> None:
    report = checked("Ann asks Bob for 2", give)
    error = report["error"]
    assert isinstance(error, dict) and error["kind"] == kind, report


LITERATURE = TWINS["LITERATURE"]  # a 6-player deal of Literature (tests/twins.py)


@pytest.mark.parametrize("claim", [
    "Ann claims the low spades: Ann 5S, Cy 7S 8S, Eve 4S 3S 6S",
    "Ann claims low spades: Ann has 5S, Cy holds 7S and 8S, Eve 4S 3S 6S",
    "Ann claims low spades: Ann 5S, Cy 7S 8S and Eve 4S, 3S and 6S",
    "Ann claims low spades: Ann has 5S, Cy has 7S 8S, and Eve has 4S 3S 6S",
])
def test_a_claim_said_in_words_reads_as_its_canonical_line(claim: str) -> None:
    canonical = "Ann claims low spades: Ann 5S, Cy 7S 8S, Eve 4S 3S 6S"
    said, written = (check_text(LITERATURE + line + "\n", "t.txt", record=True)
                     for line in (claim, canonical))
    assert said.to_json() == written.to_json()
    assert said.canonical == written.canonical


PASSED = Path(__file__).parent / "transcripts" / "literature" / "empty-hand-passes-turn.txt"


@pytest.mark.parametrize(("said", "ok"), [
    ("Bob passes the turn to Dee", True), ("Bob passes turn to Dee", True),
    ("Bob passes Dee", True), ("Bob passed the turn to Dee.", True),
    ("Bob passes to", False), ("Bob passes the turn", False), ("Bob passes the Dee", False),
])
def test_a_pass_may_say_the_turn(said: str, ok: bool) -> None:
    text = PASSED.read_text(encoding="utf-8")
    written, typed = (check_text(text.replace("Bob passes to Dee", line), "t.txt").to_json()
                      for line in ("Bob passes to Dee", said))
    assert (typed == written) is ok, typed
    if not ok:
        assert typed["error"]["kind"] == "syntax"
