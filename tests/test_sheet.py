"""The rule sheet: every statement of the language, every phrase and every GameSpec
field has its words, every rule file renders, and a variant says what it changes."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from enum import Enum
from html.parser import HTMLParser
from pathlib import Path
from types import MappingProxyType

import pytest
from click.testing import CliRunner

from referee.authoring.sheet import ENUM_WORDS, TOPICS, build_sheet, sheet_for
from referee.cli.commands import main
from referee.language import spec as spec_module
from referee.language.ast import Node
from referee.language.loader import load_spec
from referee.language.spec import ClaimSpec, Fate, GameSpec
from referee.language.syntax import parse_rules_text, rules_parser
from referee.values import fields, is_record, replace

TESTS = Path(__file__).parent
SUPPORT = TESTS / "rules_support"
TINY = SUPPORT / "tiny.rules"
TEAMS = SUPPORT / "tiny-teams.rules"
SUMS = SUPPORT / "sum-six.rules"
MATCH = SUPPORT / "tiny-match.rules"
RULE_FILES = [*sorted((TESTS.parent / "rules").glob("*.rules")), TINY, TEAMS, SUMS, MATCH]

RANK_ASKS = ("ask: any other player who holds cards, for a rank\nasker must not hold: nothing\n"
             "asked player gives: every card of the rank\n")
JOKER_DECK = ("deck: ranks A 2 3 4 5 6, suits S H with jokers RJ BJ\n"
              "sets: in each suit, low A to 3, high 4 to 6\nset jokers: RJ BJ\n")

# Every grammar statement (and, below, every form and phrase of one) with a rule file
# that uses it (its base, and the lines it adds) and words the sheet must then say.
STATEMENTS: dict[str, list[tuple[Path, str, str]]] = {
    "name": [(TINY, "name: Quartets Deluxe\n", "# Quartets Deluxe")],
    "about": [(TINY, "about: Books of three, quickly.\n", "Books of three, quickly.")],
    "extends": [(TINY, "first player: the dealer\n",
                 "## Changes from Tiny\n\n- The dealer takes the first turn")],
    "players": [(TINY, "players: 3\n", "For exactly 3 players."),
                (TINY, "players: 2 to 4\n", "For 2 to 4 players."),
                (TINY, "players: 2 or 4\n", "For 2 or 4 players."),
                (TINY, "players: 2 or more\n", "For 2 to 16 players.")],
    "teams": [(TINY, "players: 4\nteams: 2, seated alternately\n",
               "They play in 2 teams seated alternately")],
    "deck": [(TINY, "deck: standard 52 cards\n", "A standard deck: 2 to A in spades, hearts, "
              "diamonds and clubs; 52 cards in all."),
             (TINY, "deck: ranks A 2 3, suits S H D C\n",
              "The ranks A 2 3 in spades, hearts, diamonds and clubs; 12 cards in all."),
             (TINY, "deck: standard 52 cards without twos and eights\n",
              "A standard deck without the twos and eights"),
             (TEAMS, JOKER_DECK, "plus the jokers RJ and BJ; 14 cards in all")],
    "deal": [(TINY, "deal: all cards\n", "Deal all the cards one card at a time"),
             (TINY, "deal: all cards evenly, the rest face up to the centre\n",
              "the cards that do not divide evenly go face up to the centre"),
             (TINY, "deal: 3 each\n", "Deal 3 cards to each player"),
             (TINY, "deal: 4 each with 2 players, 3 each with 3 to 4 players\n",
              "Deal 4 cards each with 2 players, 3 cards each with 3 or 4 players"),
             (TINY, "deal: 2 each, then 2 face up to the centre\n",
              "Then turn the next 2 cards face up to the centre.")],
    "book_sets": [(TINY, "sets: books of 4 cards of one rank\n",
                   "The sets are books: all 4 cards of one rank"),
                  (TINY, "sets: books of 2 cards of one rank\n", "There are 6 sets to collect"
                   ""), (TINY, "sets: books of 2 cards of one rank\n", "The sets are 2 cards of "
                   "one rank, any 2 of its 4, named by the rank (queens); each rank makes 2 "
                   "sets.")],
    "suit_sets": [(TEAMS, "sets: in each suit, low A to 3, high 4 to 6\n",
                   "In each suit, the low set is A 2 3 and the high set is 4 5 6")],
    "listed_set": [(TEAMS, JOKER_DECK, "The set 'jokers' is RJ BJ.")],
    "lay_down": [(TINY, "lay down: at once\n", "lays it down at once"),
                 (TINY, "lay down: in turn, by choice\n", "may lay it down, face up"),
                 (TINY, "lay down: in turn, by choice, with cards of the centre\n",
                  "face-up cards of the centre")],
    "refill": [(TINY, "deal: 3 each\nsets laid from the deal: replaced from the stock\n",
                "lays down a set held from the deal is dealt cards from the top of the stock"),
               (TINY, "deal: 3 each\nsets laid from the deal: replaced from the stock, unless "
                "the deal's last card completed it\n", "the last card of the deal (the "
                "dealer's last card) completed is laid down but not replaced.")],
    "ask": [(TINY, "ask: any other player, for a card\n",
             "asks any other player for a specific card, naming its rank and suit"),
            (TINY, RANK_ASKS, "asks any other player who holds cards for a rank, naming no "
             "suit"),
            (TEAMS, "ask: an opponent, for a card\n", "asks a player of the other team for"),
            (TEAMS, "ask: an opponent who holds cards, for a card\n",
             "asks a player of the other team who holds cards for")],
    "must_hold": [(TINY, "asker must hold: a card of the same rank\n",
                   "must hold at least one card of the rank asked for"),
                  (TINY, "asker must hold: a card of the same set\n",
                   "at least one card of the set the card asked for belongs to"),
                  (TINY, "asker must hold: nothing\n", "The asker need not hold any card")],
    "must_not_hold": [(TINY, "asker must not hold: the card\n",
                       "must not hold the card asked for"),
                      (TINY, "asker must not hold: nothing\n",
                       "may ask for a card they hold themselves")],
    "gives": [(TINY, "asked player gives: the card\n", "they must give it to the asker"),
              (TINY, "asked player gives: every card of the rank\n",
               "every card they hold of the rank asked for"),
              (TINY, "asked player gives: the card, face up to the centre\n",
               "they must lay it face up in the centre"),
              (TINY, RANK_ASKS.replace("every card", "one card"),
               "give the asker one card of the rank asked for, of their choice")],
    "questions": [(TINY, "questions: any card of a rank, a suit or a colour\n",
                   "'any queens?', 'any hearts?', 'any red cards?'"),
                  (TINY, "questions: any card of a suit\n", "any card of a suit ('any hearts?')"),
                  (TINY, "questions: any card of a color\n", "('any red cards?')")],
    "after_question": [
        (TINY, "questions: any card of a rank\nafter a question: turn passes to the player "
         "asked\n", "After the answer, the turn passes to the player who answered."),
        (TINY, "questions: any card of a rank\nafter a question: turn passes to the next "
         "player\n", "After the answer, the turn passes to the next player clockwise.")],
    "if_given": [(TINY, "if given: ask again\n", "has what was asked for: the asker asks again."),
                 (TINY, "if given: turn passes to the next player\n",
                  "has what was asked for: the turn passes to the next player clockwise."),
                 (TINY, "if given: ask again if the set asked for was completed, otherwise "
                  "turn passes to the player asked\n", "the asker asks again if this ask "
                  "completed the set asked for, through the cards given or the card drawn; "
                  "otherwise the turn passes to the player who was asked.")],
    "if_not_given": [
        (TINY, "if not given: draw from the stock, then ask again if the card drawn is the "
         "card asked for, otherwise turn passes to the player asked\n",
         "When they have none ('go fish'): the asker draws the top card of the stock, if any "
         "is left; then the asker asks again if the card drawn is the very card asked for"),
        (TINY, RANK_ASKS + "if not given: draw from the stock, then ask again if the card "
         "drawn is of the rank asked for, otherwise turn passes to the next player\n",
         "if the card drawn is of the rank asked for (shown to all); otherwise the turn "
         "passes to the next player clockwise"),
        (TINY, "if not given: turn passes to the player asked\n",
         "When they have none ('go fish'): the turn passes to the player who was asked.")],
    "cannot_ask": [(TINY, "a player who cannot ask: sits out\n", "sits out: the turn goes on"),
                   (TINY, "a player who cannot ask: draws from the stock, then turn passes "
                    "to the next player\n", "draws the top card of the stock, and the turn "
                    "passes to the next player"),
                   (TINY, "deal: 3 each\na player who cannot ask: draws from the stock and "
                    "goes on\n", "whose hand empties during their turn, draws the top card "
                    "of the stock and goes on")],
    "empty_hand": [(TINY, "a player whose hand empties in turn: turn passes to the next player "
                    "who holds cards\n", "passes the turn clockwise to the next player who "
                    "holds cards"),
                   (TEAMS, "a player whose hand empties in turn: the player passes the turn "
                    "to a teammate who holds cards, or else to an opponent who holds cards\n",
                    "passes the turn to a teammate of their choice who holds cards")],
    "claims": [(TEAMS, "claims: a whole set in turn, naming the teammate who holds each "
                "card\n", "a player may claim a whole set by saying which member of their "
                "own team holds each of its cards")],
    "misplaced": [(TEAMS, "if claimed cards are misplaced: the other team wins the set\n",
                   "in other hands than said: the other team wins the set."),
                  (TEAMS, "if claimed cards are misplaced: the set is void\n",
                   "in other hands than said: the set is void (nobody wins it).")],
    "opposed": [(TEAMS, "if a claimed card is with the other team: the set is void\n",
                 "held by the other team: the set is void (nobody wins it)."),
                (TEAMS, "if a claimed card is with the other team: the other team wins the "
                 "set\n", "held by the other team: the other team wins the set.")],
    "play": [(SUMS, "play: one card from the hand, capturing groups of centre cards that sum "
              "to its value, otherwise to the centre\n", "a player plays one card from their "
              "hand. It captures one or more separate groups of centre cards")],
    "after_play": [(SUMS, "after a play: draw from the stock\n",
                    "After a play, the player draws the top card of the stock")],
    "centre_refill": [(SUMS, "centre: refilled to 4 from the stock before each turn\n",
                       "if the centre holds fewer than 4 cards, cards are turned up")],
    "card_values": [(SUMS, "card values: A 1, 2 2, 3 3, 4 4, 5 5, 6 6, 7 7, 8 8, 9 9, 10 10, "
                     "J 11, Q 12, K 13\n", "Card values for summing: 2 = 2, 3 = 3")],
    "card_points": [(SUMS, "card points: A 5, 2 1, 3 1, 4 1, 5 1, 6 1, 7 1, 8 1, 9 1, 10 1, "
                     "J 2, Q 2, K 2\n", "Each captured card scores for its player: 2 to 10: "
                     "1 point; J, Q and K: 2 points; A: 5 points.")],
    "first_player": [(TINY, "first player: left of the dealer\n", "to the dealer's left takes"),
                     (TINY, "first player: right of the dealer\n", "to the dealer's right takes"),
                     (TINY, "first player: the dealer\n", "The dealer takes the first turn")],
    "end": [(TINY, "end: when all sets are laid\n", "ends at once when all 3 sets have been "
             "laid down."),
            (TEAMS, "end: when all sets are won or void\n", "when all 4 sets have been won or "
             "made void."),
            (SUMS, "end: when the stock and every hand are empty\n",
             "when the stock and every hand are empty"),
            (TINY, "end: when a player has no cards, or when the stock is empty\n",
             ", or when any player has no cards left, or when the stock is empty.")],
    "score": [(TINY, "score: 3 points per set\n", "Each set scores 3 points."),
              (TEAMS, "score: 2 points per high set, 1 point per set\n",
               "Each high set scores 2 points and every other set scores 1 point."),
              (TINY, "score: 3 points per set of aces, 2 points per set of 2 3\n",
               "Each set of twos or threes scores 2 points, each set of aces scores 3 points "
               "and every other set scores 1 point.")],
    "match": [(TINY, "match: first to 5 points\n", "hands are played until a player's total "
               "reaches 5 points"),
              (TINY, "match: first to 3 hands won\n", "until a player has won 3 hands")],
    "shown": [(TINY, "the table is shown: every event\n", "it shows the table every event."),
              (TINY, "the table is shown: the last ask and its answer\n",
               "only the last ask and its answer")],
    "winner": [(TINY, "winner: most points\n", "The player with the most points wins.")],
    "ties": [(TINY, "ties: all tied players win\n", "tie for the most points, they all win."),
             (TEAMS, "ties: all tied players win\n", "they all win: a draw."),
             (TINY, "ties: the first to lay down a set wins\n", "laid down a set first wins"),
             (TINY, "ties: the first in turn order from the dealer's left wins\n",
              "comes first in turn order, starting left of the dealer, wins")],
    "option": [(TINY, "option quick: no\nwhen quick: if given: turn passes to the next "
                "player\n", "first (normally 1), generous (normally no), quick (normally no)")],
    "when": [(TINY, "", "- With first: 2:\n  - The dealer takes the first turn"),
             (TINY, "", "- With generous: yes:\n  - The asked player must give the asker every "
              "card they hold of the rank asked for.")],
}


def cases() -> Iterator[tuple[str, Path, str, str]]:
    for kind, entries in STATEMENTS.items():
        for base, lines, words in entries:
            yield kind, base, lines, words


def write_case(folder: Path, base: Path, lines: str) -> Path:
    path = folder / "case.rules"
    path.write_text(f"extends: {base.resolve()}\n{lines}", encoding="utf-8")
    return path


def grammar_statements() -> set[str]:
    parser, _ = rules_parser()
    return {symbol.name for rule in parser.rules if rule.origin.name in ("_statement", "_plain")
            for symbol in rule.expansion} - {"_plain"}


def grammar_forms() -> set[str]:
    """Every named rule and alternative of the grammar (``count_range``, ``deal_even``)."""
    parser, _ = rules_parser()
    names = {str(rule.alias or rule.origin.name) for rule in parser.rules}
    return {n for n in names if not n.startswith("_") and n != "start"}


def grammar_phrases() -> set[str]:
    """Every fixed phrase of the grammar, as the parser's nodes spell it."""
    parser, keywords = rules_parser()
    phrases = set()
    for rule in parser.rules:
        if rule.origin.name.startswith("phrase_"):
            words = [keywords.get(s.name, ",") for s in rule.expansion]
            phrases.add(" ".join(words).replace(" ,", ","))
    return phrases


def nodes(node: Node) -> Iterator[Node]:
    yield node
    for part in node.parts:
        yield from nodes(part)


def case_trees() -> list[Node]:
    found = []
    for _, base, lines, _ in cases():
        text = f"extends: {base}\n{lines}" if lines else base.read_text(encoding="utf-8")
        found += [n for statement in parse_rules_text(text, "case", "case").statements
                  for n in nodes(statement)]
    return found


def test_every_grammar_statement_has_words() -> None:
    assert set(STATEMENTS) == grammar_statements()


def test_every_form_and_phrase_of_the_grammar_has_a_case() -> None:
    trees = case_trees()
    kinds = {n.kind for n in trees}
    assert grammar_forms() - kinds == set()
    assert grammar_phrases() - {n.phrase for n in trees} == set()


@pytest.mark.parametrize(("kind", "base", "lines", "words"), list(cases()),
                         ids=[f"{k}-{i}" for k, v in STATEMENTS.items() for i in range(len(v))])
def test_each_statement_says_its_words(tmp_path: Path, kind: str, base: Path, lines: str,
                                       words: str) -> None:
    text = sheet_for(write_case(tmp_path, base, lines)).markdown()
    assert words in text, text


def test_every_phrase_of_the_compiled_rules_has_words() -> None:
    enums = {value for value in vars(spec_module).values()
             if isinstance(value, type) and issubclass(value, Enum) and value is not Enum}
    assert enums == set(ENUM_WORDS)
    for enum, words in ENUM_WORDS.items():
        assert set(words) == set(enum), enum


def test_every_spec_field_is_worded_by_one_topic() -> None:
    worded = [name for topic in TOPICS for name in topic.fields]
    assert sorted(worded) == sorted(fields(GameSpec))


DERIVED = {"set_of_card"}  # an index of ``sets``: it changes only with them


def other_value(value: object) -> object:
    """A different value of the same shape, to see that the sheet notices it."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, Enum):
        members = list(type(value))
        return members[(members.index(value) + 1) % len(members)]
    if isinstance(value, int):
        return value + 2
    if isinstance(value, str):
        return value + " (changed)"
    if value is None:
        return ClaimSpec(Fate.VOID, Fate.OTHER_TEAM)
    if isinstance(value, frozenset):
        if all(isinstance(v, int) for v in value):
            return value | {max(value, default=1) + 1}
        member = next(iter(value), None)
        pool = list(type(member)) if isinstance(member, Enum) else []
        extra = next((m for m in pool if m not in value), None)
        return value - {member} if extra is None else value | {extra}
    if isinstance(value, tuple):
        return value[:-1] if len(value) > 1 else value + value
    if isinstance(value, Mapping):
        changed = dict(value)
        if changed:
            key = next(iter(changed))
            changed[key] = other_value(changed[key])
        else:
            changed["1"] = 1
        return MappingProxyType(changed)
    if is_record(value):
        first = fields(value)[0]
        return replace(value, **{first: other_value(getattr(value, first))})
    raise AssertionError(f"no other value for {value!r}")


@pytest.mark.parametrize("field", sorted(name for name in fields(GameSpec)
                                         if name not in DERIVED))
def test_changing_any_field_changes_the_sheet(field: str) -> None:
    specs = [load_spec(path) for path in RULE_FILES]
    for spec in specs:
        changed = replace(spec, **{field: other_value(getattr(spec, field))})
        if build_sheet(changed).markdown() != build_sheet(spec).markdown():
            return
    pytest.fail(f"no rule file's sheet says anything of {field}")


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.stem)
def test_every_rule_file_renders_a_sheet(path: Path) -> None:
    sheet = sheet_for(path)
    text = sheet.markdown()
    for heading in ("Players", "Deck", "Deal", "A turn", "The end", "Scoring", "Ties"):
        assert f"\n## {heading}\n" in text
    assert not [line for line in text.splitlines() if "#" in line and not line.startswith("#")]
    checker = _TagChecker()
    checker.feed(sheet.html())
    assert checker.open == [] and checker.seen >= {"html", "h1", "h2", "ul", "li"}


class _TagChecker(HTMLParser):
    VOID = frozenset({"meta"})

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.seen: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.seen.add(tag)
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, (self.open, tag)
        self.open.pop()


def test_the_sheet_never_quotes_the_files_comments() -> None:
    text = sheet_for(TESTS.parent / "rules" / "chinese-fish.rules").markdown()
    assert "this project's choice" not in text and "seed 000" not in text


def test_html_escapes_the_authors_words(tmp_path: Path) -> None:
    path = write_case(tmp_path, TINY, "name: <b>Bold</b> & Co\nabout: x < y\n")
    page = sheet_for(path).html()
    assert "&lt;b&gt;Bold&lt;/b&gt; &amp; Co" in page and "x &lt; y" in page
    assert "<b>" not in page


def test_a_variant_says_what_it_changes_from_its_base() -> None:
    text = sheet_for(TESTS.parent / "rules" / "literature-strict.rules").markdown()
    changes = text.split("## Changes from Literature without eights\n", 1)[1].split("\n## ")[0]
    assert "The dealer takes the first turn" in changes
    assert "in other hands than said: the other team wins the set" in changes
    assert "Deck" not in changes and "ask" not in changes


def test_a_variant_that_changes_only_its_name_says_so(tmp_path: Path) -> None:
    text = sheet_for(write_case(tmp_path, TINY, "name: Tiny again\n")).markdown()
    assert "## Changes from Tiny\n\n- Nothing in play: only the name and description differ." \
        in text


def test_an_option_the_rules_cannot_take_says_why() -> None:
    text = sheet_for(TESTS.parent / "rules" / "literature-ranks.rules").markdown()
    assert "- With high-double: yes:\n  - The rules cannot be played so: no set is a 'high' " \
        "set" in text


def test_a_sheet_for_options_set_says_so() -> None:
    text = sheet_for(TINY, {"generous": "yes"}).markdown()
    assert "This sheet is for the options generous: yes." in text
    assert "every card they hold of the rank asked for" in text


def test_the_sheet_command_prints_markdown_or_html() -> None:
    text = CliRunner().invoke(main, ["sheet", "go-fish"])
    assert text.exit_code == 0 and text.stdout.startswith("# Go Fish\n\nAsk for a rank")
    page = CliRunner().invoke(main, ["sheet", "literature", "--format", "html",
                                     "-o", "high-double=yes"])
    assert page.exit_code == 0 and page.stdout.startswith("<!DOCTYPE html>")
    assert "This sheet is for the options high-double: yes." in page.stdout


def test_the_sheet_command_refuses_broken_or_unknown_rules() -> None:
    broken = TESTS / "rules_errors" / "book-size.rules"
    result = CliRunner().invoke(main, ["sheet", str(broken)])
    assert result.exit_code == 2 and f"{broken}:" in result.stderr and "^" in result.stderr
    unknown = CliRunner().invoke(main, ["sheet", "old-maid"])
    assert unknown.exit_code == 2 and "no rule file named 'old-maid'" in unknown.stderr
    option = CliRunner().invoke(main, ["sheet", "literature", "-o", "high-double=3"])
    assert option.exit_code == 2 and "option high-double is yes or no, not '3'" in option.stderr
