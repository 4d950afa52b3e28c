"""A game as its record is written down after the fact, or as players say it: in the
past tense (``Bob asked Cy for aces``, ``Cy gave 2``, ``Bob drew``), with the words
of the table (``Ann declares low spades: ...``, ``Bob goes fishing``, ``Cy hands over
2``, ``no, go fish``), an ask as asked aloud (``Ann: Bob, do you have any sevens?``,
``Ann asks Bob if he has the QS``, ``Ann asks Bob: 7?``), a give naming whom it gives
to (``Cy gives Bob 2``, ``Cy gives 2 to Bob``), cards said in words in a give, draw or
show (``the seven of spades and the seven of hearts``), an arrow (``Ann -> Bob 7``,
``Ann → Bob 7``), and sentences on one line (``Bob: Cy, aces? Cy gives 1. Bob drew.``).
Every bundled rule file's self-played games, written so, get the verdict their
canonical twins get: the same state through the same moves, and the same error at the
same event once a card is changed. Words that say something else are still refused."""

from __future__ import annotations

import random
import re
import runpy
import time
from pathlib import Path

import pytest

from referee.language.cards import RANK_WORDS
from referee.language.spec import GameSpec
from referee.transcript import notation
from referee.transcript.check import check_text
from referee.transcript.names import unreadable
from referee.transcript.notation import read_events

TWINS = runpy.run_path(str(Path(__file__).with_name("twins.py")))  # tests/twins.py
games, changed = TWINS["games"], TWINS["changed"]

SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
HEADER = re.compile(r"^(game|option \S+|players|dealer|team \S+|deal|hand \S+|stock|centre|"
                    r"center|target):")
CARD = re.compile(r"^(10|[2-9JQKA])([SHDC])$")
ASK = re.compile(r"^(\S+) asks (\S+) for (\S+)$")
LAY_OUT_ASK = re.compile(r"^(\S+) asks (\S+) to lay out (\S+)$")
QUESTION = re.compile(r"^(\S+) asks (\S+): any (\S+)\?$")
GIVE = re.compile(r"^(\S+) gives (.+)$")
ANSWER = re.compile(r"^(\S+) says (no|yes)$")
DRAW = re.compile(r"^(\S+) draws(?: (\S+))?$")
VERB = re.compile(r"^(\S+) (books|lays down|lays out|claims|passes to|shows|plays) (.+)$")
PAST = {"books": "booked", "lays down": "laid down", "lays out": "laid out",
        "passes to": "passed to", "shows": "showed"}


def in_words(card: str) -> str:
    """``7S`` as ``the seven of spades`` (a joker as written)."""
    found = CARD.match(card)
    return f"the {RANK_WORDS[found[1]][0]} of {SUITS[found[2]]}" if found else card


def cards_said(cards: str, rng: random.Random) -> str:
    """Cards listed as written, in words, or with ``and``."""
    each = cards.split()
    if rng.random() < 0.5:
        each = [in_words(card) for card in each]
    if len(each) > 1 and rng.random() < 0.5:
        return ", ".join(each[:-1]) + " and " + each[-1]
    return " ".join(each)


def recorded(line: str, asker: list[str], spec: GameSpec, rng: random.Random) -> str:
    """A canonical transcript line as a record of the game writes it; ``asker`` holds
    who asked last (kept up to date)."""
    ask = ASK.match(line)
    if ask:
        player, target, item = ask.groups()
        asker[:] = [player]
        rank_ask = CARD.match(item) is None and item not in ("RJ", "BJ")
        asked = f"any {RANK_WORDS[item][1]}" if rank_ask and not spec.questions \
            and item in RANK_WORDS else item if rank_ask else f"the {item}"
        pronoun = rng.choice(("he", "she", "they", target))
        holds = "have" if pronoun == "they" else "has"
        return rng.choice((
            f"{player} asked {target} for {item}", f"{player}: {target}, do you have {asked}?",
            f"{player}: {target}, got {asked}?", f"{player} asks {target} if {pronoun} "
            f"{holds} {asked}", f"{player} asks {target}: {item}?", f"{player} -> {target} "
            f"{item}", f"{player}->{target} {item}", f"{player} \u2192 {target} {item}",
            f"{player} asks {target}, have you got {asked}?",
            f'{player} asked {target}, "Do you have {asked}?"',
            f"{player} asked {target} \u2018got {asked}?\u2019"))
    question = QUESTION.match(line)
    if question:
        player, target, item = question.groups()
        asker[:] = [player]
        return rng.choice((f"{player}: {target}, do you have any {item}?",
                           f"{player} asked {target}: any {item}?",
                           f"{player} asks {target} whether she has any {item}"))
    lay_out = LAY_OUT_ASK.match(line)
    if lay_out:
        asker[:] = [lay_out[1]]
        return f"{lay_out[1]} asked {lay_out[2]} to lay out {lay_out[3]}"
    answer = ANSWER.match(line)
    if answer:
        player, said = answer.groups()
        if said == "yes":
            return rng.choice((f"{player} said yes", f'{player} said "yes"'))
        return rng.choice((f"{player} said no", f"{player}: no, go fish", "Nope, go fish!",
                           f"{player} says no, go fish", f'{player} said, "No, go fish."',
                           f"{player}: \u201cgo fish!\u201d"))
    give = GIVE.match(line)
    if give:
        player, cards = give.groups()
        said = cards if cards.isdigit() else cards_said(cards, rng)
        to = asker[0] if asker else None
        forms = [f"{player} gave {said}", f"{player} hands over {said}"]
        if to:
            forms += [f"{player} gives {to} {said}", f"{player} gave {said} to {to}",
                      f"{player} handed {to} {said}"]
        return rng.choice(forms)
    draw = DRAW.match(line)
    if draw:
        player, card = draw.groups()
        if card:
            return rng.choice((f"{player} drew {card}", f"{player} drew {in_words(card)}",
                               f"{player} fished {card}"))
        return rng.choice((f"{player} drew", f"{player} goes fishing",
                           f"{player} went fishing", f"{player} fishes"))
    if line.startswith("turn up "):
        return "turned up " + line.removeprefix("turn up ")
    verb = VERB.match(line)
    if verb:
        player, said, rest = verb.groups()
        if said == "claims":
            return f"{player} {rng.choice(('declares', 'declared', 'claimed'))} {rest}"
        if said == "plays":
            return f"{player} played {rest.replace(' takes ', ' took ')}"
        if said == "shows":
            return f"{player} showed {cards_said(rest, rng)}"
        return f"{player} {PAST[said]} {rest}"
    return line


def is_event(line: str) -> bool:
    return bool(line.strip()) and not line.startswith("#") and not HEADER.match(line) \
        and not re.match(r"^hand \d+$", line)


def game_record(game: list[str], spec: GameSpec, rng: random.Random
                ) -> tuple[list[str], list[list[int]]]:
    """``game`` as a record writes it, some events joined as sentences on one line, and
    for each line of the record the lines of ``game`` it says (1-based)."""
    asker: list[str] = []
    said = [recorded(line, asker, spec, rng) for line in game]
    lines: list[str] = []
    origins: list[list[int]] = []
    for number, (line, record) in enumerate(zip(game, said, strict=True), start=1):
        if lines and is_event(line) and is_event(game[origins[-1][-1] - 1]) and \
                rng.random() < 0.3:
            ended = lines[-1].rstrip('"\u201d\u2019').endswith(("?", "!", "."))  # 'No."'
            lines[-1] += (" " if ended else rng.choice((". ", ". ", " - ", " \u2014 "))) + record
            origins[-1].append(number)
        else:
            lines.append(record)
            origins.append([number])
    return lines, origins


def assert_same_verdict(label: str, game: list[str], record: list[str],
                        origins: list[list[int]]) -> None:
    """The record gets ``game``'s verdict: the same state through the same moves, or the
    same error kind at the line that holds the event the error is at."""
    expected = check_text("\n".join(game) + "\n", "canonical.txt", record=True)
    found = check_text("\n".join(record) + "\n", "record.txt", record=True)
    assert found.ok == expected.ok, f"{label}:\n{found.report()}\n" + "\n".join(record)
    assert found.events == expected.events, f"{label}:\n{found.report()}"
    assert found.state == expected.state, label
    if expected.ok:
        assert found.canonical == expected.canonical, label
    else:
        wrong, error = found.to_json()["error"], expected.to_json()["error"]
        assert wrong["kind"] == error["kind"], (label, wrong, error)
        assert error["line"] in origins[wrong["line"] - 1], (label, wrong, error)


def check_records(seeds: range) -> None:
    forms: set[str] = set()
    wanted = {" asked ", " gave ", " drew", "do you have", " if ", "->", "\u2192", " to ",
              "no, go fish", " the ", " and ", "fishing", "declare", ". ", "? ", " hands ",
              '"', "\u2018", "\u201c", " - ", " \u2014 "}
    for label, spec, lines in games(seeds):
        rng = random.Random(label)
        for game in (lines, changed(lines, rng)):
            record, origins = game_record(game, spec, rng)
            forms |= {form for form in wanted if any(form in line for line in record)}
            assert_same_verdict(label, game, record, origins)
    assert forms == wanted


def test_every_bundled_game_as_its_record_writes_it_gets_its_canonical_verdict() -> None:
    check_records(range(1, 3))


@pytest.mark.slow
def test_more_games_as_their_records_write_them_get_their_canonical_verdicts() -> None:
    check_records(range(3, 15))


HANDS = {"Ann": "2S 3S 8S 10C JC", "Bob": "2D 2C 3H 4H 5H", "Cy": "10H 10D 4D 4C JH"}
STOCK = ["9S", *sorted({f"{r}{s}" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J",
                                             "Q", "K", "A") for s in "SHDC"}
                       - {"9S", *" ".join(HANDS.values()).split()})]
GO_FISH = ("game: go-fish\nplayers: Ann Bob Cy\ndealer: Cy\ndeal: given\n"
           + "".join(f"hand {name}: {cards}\n" for name, cards in HANDS.items())
           + f"stock: {' '.join(STOCK)}\n")


def checked(*events: str, text: str = GO_FISH) -> dict[str, object]:
    found = check_text(text + "\n".join(events) + "\n", "t.txt", record=True)
    report: dict[str, object] = found.to_json()
    report["canonical"] = found.canonical[-len(events):] if found.ok else None
    return report


def error_of(report: dict[str, object]) -> dict[str, object]:
    error = report["error"]
    assert isinstance(error, dict), report
    return error


@pytest.mark.parametrize("events", [
    ("Ann asked Bob for 2", "Bob gave Ann 2D 2C"),
    ("Ann: Bob, do you have any twos?", "Bob gives Ann two"),
    ("Ann: Bob, got any 2s?", "Bob gives 2 to Ann"),
    ("Ann asks Bob if he has any twos", "Bob hands over the two of diamonds and the two of "
                                        "clubs"),
    ("Ann asks Bob whether they have a 2", "Bob handed Ann 2D, 2C"),
    ("Ann asks Bob: 2?", "Bob gives Ann"), ("Ann -> Bob 2", "Bob gives 2D 2C to Ann."),
    ("Ann->Bob 2", "yes"), ("Ann \u2192 Bob 2", "Bob: yep"),
    ("Ann asks Bob, have you got any twos? Bob gave 2.",),
    ("Ann: Bob, 2? Bob gives Ann 2 twos!",),
    ('Ann asked Bob, "Do you have any twos?" Bob said, "Yes."',),
    ("Ann asked Bob \u2018got any 2's?\u2019 Bob said 'yes'",),
    ('Ann: \u201cBob, any twos?\u201d', 'Bob: "yes!"'), ("Ann asked Bob do you have a 2", "yes"),
])
def test_an_ask_and_its_give_as_a_record_writes_them(events: tuple[str, ...]) -> None:
    report = checked(*events)
    assert report["ok"], report
    assert report["canonical"] == ["Ann asks Bob for 2", "Bob gives 2D 2C"][-len(events):] \
        or len(events) == 1


@pytest.mark.parametrize("events", [
    ("Ann asked Bob for 8", "Bob said no", "Ann drew 9S"),
    ("Ann: Bob, any eights?", "Bob: no, go fish", "Ann goes fishing"),
    ("Ann asks Bob for 8", "Nope, go fish!", "Ann went fishing."),
    ("Ann asks Bob for 8", "Bob says no, go fish", "Ann fished the nine of spades"),
    ("Ann asks Bob for 8. Bob said no. Ann fishes.",),
    ("Ann: Bob, 8? no", "Ann drew a 9S."),
    ("Ann asks Bob for 8 - Bob: Nope! Go fish. - Ann drew 9S",),
    ("Ann: Bob, any eights?", "No! Go fish!", "Ann draws"),
    ("Ann asks Bob for 8 \u2014 no \u2013 Ann goes fishing",),
])
def test_a_refusal_and_a_draw_as_a_record_writes_them(events: tuple[str, ...]) -> None:
    report = checked(*events)
    assert report["ok"], report
    state = report["state"]
    assert isinstance(state, dict) and state["hands"]["Ann"] == 6 and state["turn"] == "Bob"


@pytest.mark.parametrize(("give", "kind", "message"), [
    ("Bob gives Cy 2", "illegal", "Ann asked, so the cards go to Ann, not to Cy"),
    ("Bob gives 2 to Cy", "illegal", "not to Cy"),
    ("Bob gives QX 2D", "unknown", "'QX' is not a card of this deck, nor a player's name"),
    ("Bob gives Dan", "unknown", "'Dan' is not a card of this deck"),
    ("Bob gives the two of hearts", "contradiction", "2D"),
    ("Bob gives the two of spadez", "unknown", "'two' is not a card"),
    ("Bob gives Ann 3 twos", "contradiction", "holds 2"),
])
def test_a_give_that_says_something_else_is_refused(give: str, kind: str, message: str
                                                    ) -> None:
    error = error_of(checked("Ann asks Bob for 2", give))
    assert (error["kind"], error["line"]) == (kind, 10), error
    assert message in str(error["message"]), error


def test_a_give_to_the_asker_is_checked_each_time_its_words_come() -> None:
    """The same words, remembered, are right for one ask and wrong for another."""
    assert checked("Ann asks Bob for 2", "Bob gives Ann 2", "Ann asks Cy for 10",
                   "Cy gives Ann 2")["ok"]
    error = error_of(checked("Ann asks Bob for 2", "Bob gives Ann 2", "Ann asks Bob for 8",
                             "no", "Ann draws", "Bob asks Cy for 4", "Cy gives Ann 2"))
    assert (error["kind"], error["line"]) == ("illegal", 15)
    assert "Bob asked, so the cards go to Bob, not to Ann" in str(error["message"])


@pytest.mark.parametrize(("line", "count"), [
    ("Ann asks Bob for 8. Bob says no. Ann draws.", 3),
    ("Ann: Bob, 8? Bob: no. Ann drew 9S!", 3), ("Ann asks Bob for 8?  no", 2),
    ("Bob drew. Dr. asks Bob for 7", 2), ("Ann asks Dr. for 7", 1), ("Ann > Dr. 7", 1),
    ("Dr. asks Ann for 7", 1), ("Cy gives Dr. 2", 1), ("Ann asks Bob for 8. Bob", 1),
    ("Ann asks Bob for 8.no", 1), ("Ann passes to Dr. Bob", 0),
    ("Ann asks Bob for 8 - no", 2), ("Ann asks Bob for 8 \u2014 Bob: no. No. Ann draws", 3),
    ("Mary-Ann asks Bob for 8", 1), ("Ann asks Bob for 8 -no", 1), ("Ann asks Bob for 8; - no", 2),
])
def test_sentences_on_one_line_are_events_only_where_each_reads_as_one(line: str, count: int
                                                                       ) -> None:
    """A segment reads as sentences where each reads as an event alone (a name's ``.``
    may join two); otherwise it reads whole, as it did before (0: refused whole)."""
    events, error = read_events(line, "t.txt", 1)
    assert len(events) == count and (error is None) == (count > 0), (line, events, error)
    for event in events:
        written = event.player.text if event.player else "no"
        assert line[event.span.column - 1:].startswith(written), (line, event)


def test_a_name_that_ends_in_a_full_stop_is_read_as_typed() -> None:
    text = GO_FISH.replace("Ann Bob Cy", "Ann Bob Dr.").replace("dealer: Cy", "dealer: Dr.") \
        .replace("hand Cy", "hand Dr.")
    assert checked("Ann asks Dr. for 10", "Dr. gives Ann 10H 10D", "Ann asks Dr. for J",
                   "Dr. gives JH to Ann", text=text)["ok"]
    assert checked("Ann asks Dr. for 10. Dr. gives Ann 10H 10D. Ann asks Dr. for J. Dr. gave "
                   "JH to Ann.", text=text)["ok"]
    ended = checked("Ann asks Bob for 2. Bob gives 2D 2C to Ann. Ann asks Cy for 10. Cy gave "
                    "10H 10D to Ann.")
    assert ended["ok"], ended


def test_a_sentence_may_end_after_any_event() -> None:
    report = checked("Ann asks Bob for 8", "Bob: no", "Ann drew. Bob asks Ann for 4. Ann: no."
                     " Bob went fishing.")
    assert report["ok"], report


def test_sentences_in_a_long_line_cost_what_the_line_holds() -> None:
    """A line of many sentence ends and no event is one clear error, read in linear time."""
    for size in (2_000, 20_000):
        line = "Ann asks Bob for 7. " * size
        started = time.process_time()
        events, error = read_events(line, "t.txt", 1)
        assert len(events) == size and error is None
        spent = time.process_time() - started
        assert spent < 0.0003 * size + 0.5, spent
    events, error = read_events("x. " * 20_000, "t.txt", 1)
    assert error is not None and not events


@pytest.mark.parametrize(("question", "asked"), [
    ("Cy: Dee, do you have any spades?", "Cy asks Dee: any spades?"),
    ("Cy asked Dee: any spades?", "Cy asks Dee: any spades?"),
    ("Cy asks Dee if she has any black", "Cy asks Dee: any black?"),
    ("Cy asks Dee: 7S?", "Cy asks Dee to lay out 7S"),
])
def test_a_question_asked_aloud_is_the_question(question: str, asked: str) -> None:
    text = ("game: diplomat\nplayers: Ann Bob Cy Dee\ndealer: Bob\ndeal: given\n"
            "hand Ann: 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH\n"
            "hand Bob: 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD\n"
            "hand Cy: 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC\n"
            "hand Dee: 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS\n").replace(
                "dealer: Bob", "dealer: Dee")
    report = checked(question, "Dee said yes", text=text)
    assert report["ok"], report
    assert report["canonical"][0] == asked  # type: ignore[index]


@pytest.mark.parametrize(("ask", "kind"), [
    ("Ann asks Bob: any twos?", None), ("Ann asks Bob: any hearts?", "illegal"),
    ("Ann: Bob, any hearts?", "illegal"), ("Ann asks Bob: do you have any hearts?", "illegal"),
    ("Ann asks Bob if he 2", "syntax"), ("Ann asks Bob for ?", "syntax"),
    ("Ann: Bob, do you have?", "syntax"), ("Ann asked Bob", "syntax"),
])
def test_where_there_are_no_questions_any_rank_is_an_ask(ask: str, kind: str | None) -> None:
    report = checked(ask, "yes")
    if kind is None:
        assert report["ok"] and report["canonical"] == ["Ann asks Bob for 2",
                                                        "Bob gives 2D 2C"], report
    else:
        error = error_of(report)
        assert error["kind"] == kind, error
        if kind == "illegal":
            assert error["message"] == "Go Fish has no questions"


@pytest.mark.parametrize("line", ["Ann => Bob 7", "Ann -- > Bob 7", "Ann - Bob 7"])
def test_what_is_no_arrow_is_read_as_written(line: str) -> None:
    events, error = read_events(line, "t.txt", 1)
    assert error is not None or events[0].player is None or events[0].target is None or \
        events[0].target.text != "Bob"


def test_a_name_that_would_read_as_an_arrow_is_refused() -> None:
    assert "arrow" in unreadable("Ann-")
    assert "'>'" in unreadable("Ann\u2192")
    assert unreadable("Mary-Ann") == "" and "no letter" in unreadable("-")


def test_a_set_named_at_a_sentence_end_is_the_set() -> None:
    """``jokers.``: no set is named so, and one is named without the full stop."""
    deck = [f"{r}{s}" for s in "SHDC" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10",
                                                 "J", "Q", "K", "A")] + ["RJ", "BJ"]
    jokers = ["2S", "2H", "2D", "2C", "RJ", "BJ"]
    rest = [card for card in deck if card not in jokers]
    hands = [jokers + rest[:3]] + [rest[3 + 9 * i:12 + 9 * i] for i in range(5)]
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    text = ("game: literature-jokers\nplayers: Ann Bob Cy Dee Eve Fay\ndealer: Fay\n"
            "deal: given\n" + "".join(f"hand {name}: {' '.join(hand)}\n"
                                      for name, hand in zip(names, hands, strict=True)))
    report = checked("Ann lays down jokers.", text=text)
    assert report["ok"] and report["canonical"] == ["Ann lays down jokers"], report
    error = error_of(checked("Ann lays down jokerz.", text=text))
    assert error["kind"] == "unknown" and "'jokerz.' names no set" in str(error["message"])


@pytest.mark.parametrize(("name", "why"), [
    ('Bo"b', "'\"'"), ("Bo\u201cb", "'\u201c'"), ("'Bob", "quotation mark"),
    ("Bob\u2019", "quotation mark"),
])
def test_a_name_a_quotation_mark_would_take_apart_is_refused(name: str, why: str) -> None:
    assert why in unreadable(name)
    assert unreadable("D'Arcy") == "" and unreadable("O\u2019Neil") == ""


@pytest.mark.parametrize(("line", "words"), [
    ('Bob said "no"', ["Bob", "said", "no"]), ("Bob said 'no'.", ["Bob", "said", "no", "."]),
    ("Ann: Bob, 8's?", ["Ann", ":", "Bob", ",", "8's", "?"]),
    ("Ann asks D'Arcy for Q\u2019s", ["Ann", "asks", "D'Arcy", "for", "Q\u2019s"]),
    ("\u2018Ann: Bob, 7?\u2019", ["Ann", ":", "Bob", ",", "7", "?"]),
])
def test_quotation_marks_are_blank_space_but_between_letters(line: str, words: list[str]
                                                             ) -> None:
    read = notation.unquoted(line)
    assert len(read) == len(line)
    assert notation._words(read, 0)[0] == words


@pytest.mark.parametrize(("line", "column", "message"), [
    ("Bob: Cy, 7? Cy: no. Bob drws.", 25, "cannot read 'Bob drws.'"),
    ("Ann asks Bob for 8. Bob said no. Ann drew. Bob asks Ann for 4 please.", 61,
     "is not a card or a rank"),
])
def test_after_two_sentences_a_sentence_that_is_no_event_is_the_error(
        line: str, column: int, message: str) -> None:
    """The sentences before it are events, kept as those before a bad ';' segment are."""
    events, error = read_events(line, "t.txt", 1)
    if error is None:  # read as sentences: the last one fails as it is resolved
        report = checked(line)
        error_found = error_of(report)
        assert message in str(error_found["message"]), report
        assert error_found["column"] == column
        return
    assert len(events) == 2 and message in error.message and error.span.column == column
