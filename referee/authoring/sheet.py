"""The rule sheet: a compiled GameSpec in plain English, to print and put on the table.

Every sentence comes from the spec, never from the rule file's comments. Each
*topic* words a few GameSpec fields; a variant's sheet lists the topics whose
fields differ from its base's, and an option's entry lists the topics it changes.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from pathlib import Path
from typing import Any

from referee.errors import RefereeError
from referee.language.ast import RuleFile
from referee.language.cards import JOKERS, RANK_WORDS, STANDARD_RANKS, STANDARD_SUITS, Rank, rank_of
from referee.language.compiler import RuleBook, rule_book
from referee.language.extends import load_layers
from referee.language.rulefiles import rule_reference
from referee.language.spec import (
    AskFor,
    Condition,
    Continuation,
    EmptyHand,
    EndWhen,
    Fate,
    FirstSeat,
    GameSpec,
    Handover,
    Holding,
    LayDown,
    Outcome,
    PassTo,
    QuestionKind,
    Shown,
    Target,
    TieRule,
    WhenStuck,
)
from referee.values import fields, frozen, replace
from referee.words import player_counts as counts_text

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
FORMATS = ("md", "html")
MAX_MISSING_RANKS = 3  # a deck with more ranks missing is described by its ranks
# What Markdown would read as HTML (a tag, an entity), a link or emphasis; the sheet's own
# sentences use none of these, so every one in its text came from the rule file.
_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_\[\]<>&~|])")

# -- the words for every closed set of phrases ---------------------------------------

TARGET_WORDS = {
    Target.ANY_OTHER: "any other player",
    Target.OPPONENT: "a player of the other team",
}
ASK_FOR_WORDS = {
    AskFor.CARD: "a specific card, naming its rank and suit",
    AskFor.RANK: "a rank, naming no suit",
}
HOLDING_WORDS = {
    Holding.NOTHING: "The asker need not hold any card like it.",
    Holding.SAME_RANK: "The asker must hold at least one card of the rank asked for.",
    Holding.SAME_SET: "The asker must hold at least one card of the set the card asked for "
                      "belongs to.",
}
HANDOVER_WORDS = {
    Handover.THE_CARD: "If the asked player holds the card, they must give it to the asker.",
    Handover.ALL_OF_RANK: "The asked player must give the asker every card they hold of the "
                          "rank asked for.",
    Handover.ONE_OF_RANK: "The asked player must give the asker one card of the rank asked "
                          "for, of their choice, when they hold any.",
    Handover.TO_CENTRE: "If the asked player holds the card, they must lay it face up in the "
                        "centre.",
}
CONDITION_WORDS = {
    Condition.DRAWN_IS_CARD: "the card drawn is the very card asked for (shown to all)",
    Condition.DRAWN_IS_RANK: "the card drawn is of the rank asked for (shown to all)",
    Condition.SET_COMPLETED: "this ask completed the set asked for, through the cards given "
                             "or the card drawn",
}
PASS_WORDS = {
    PassTo.NEXT: "the turn passes to the next player clockwise",
    PassTo.ASKED: "the turn passes to the player who was asked",
}
STUCK_WORDS = {
    WhenStuck.SIT_OUT: "A player whose turn comes while they cannot move (no cards, or "
                       "nobody to ask) sits out: the turn goes on clockwise to the next "
                       "player who can.",
    WhenStuck.DRAW_AND_PASS: "A player whose turn comes while they cannot move (no cards, or "
                             "nobody to ask) draws the top card of the stock, and the turn "
                             "passes to the next player; once the stock is empty, they sit "
                             "out.",
    WhenStuck.DRAW_AND_GO_ON: "A player whose turn comes with no cards, or whose hand empties "
                              "during their turn, draws the top card of the stock and goes "
                              "on; once the stock is empty they sit out, as does a player "
                              "with cards but nobody to ask: the turn goes on clockwise to "
                              "the next player who can.",
}
FIRST_WORDS = {
    FirstSeat.LEFT_OF_DEALER: "The player to the dealer's left takes the first turn; play "
                              "goes clockwise.",
    FirstSeat.RIGHT_OF_DEALER: "The player to the dealer's right takes the first turn; play "
                               "then goes clockwise.",
    FirstSeat.DEALER: "The dealer takes the first turn; play goes clockwise.",
}
END_WORDS = {
    EndWhen.ALL_SETS_LAID: "all {sets} sets have been laid down{won}",
    EndWhen.ALL_SETS_DECIDED: "all {sets} sets have been won or made void",
    EndWhen.ALL_EMPTY: "the stock and every hand are empty",
    EndWhen.PLAYER_EMPTY: "any player has no cards left",
    EndWhen.STOCK_EMPTY: "the stock is empty",
}
LAY_DOWN_WORDS = {
    LayDown.AT_ONCE: "A player who holds a whole set lays it down at once, face up in front "
                     "of them, even straight after the deal.",
    LayDown.IN_TURN: "In their turn, a player who holds a whole set may lay it down, face up "
                     "in front of them, and then goes on.",
    LayDown.WITH_CENTRE: "In their turn, a player may lay down a whole set made of cards from "
                         "their hand (at least one) and face-up cards of the centre, and then "
                         "goes on.",
}
EMPTY_HAND_WORDS = {
    EmptyHand.NEXT: "A player whose hand empties during their turn passes the turn clockwise "
                    "to the next player who holds cards.",
    EmptyHand.CHOSEN: "A player whose hand empties during their turn passes the turn to a "
                      "teammate of their choice who holds cards, or, when no teammate holds "
                      "any, to an opponent who holds cards.",
}
FATE_WORDS = {
    Fate.VOID: "the set is void (nobody wins it)",
    Fate.OTHER_TEAM: "the other team wins the set",
}
TIE_WORDS = {
    TieRule.STAND: "If several {sides} tie for the most points, they all win{draw}.",
    TieRule.FIRST_SET: "Of the {sides} tied for the most points, the one who laid down a set "
                       "first wins.",
    TieRule.SEAT_ORDER: "Of the {sides} tied for the most points, the one who comes first in "
                        "turn order, starting left of the dealer, wins.",
}
SHOWN_WORDS = {
    Shown.EVERY_EVENT: "When the referee runs the game live, it shows the table every event.",
    Shown.LAST_ASK: "When the referee runs the game live, it shows the table only the last ask "
                    "and its answer: earlier asks are the players' to remember. Every hand's "
                    "card count, the sets laid and the scores are always shown.",
}
QUESTION_WORDS = {
    QuestionKind.RANK: ("rank", "any queens?"),
    QuestionKind.SUIT: ("suit", "any hearts?"),
    QuestionKind.COLOUR: ("colour", "any red cards?"),
}
ENUM_WORDS: dict[type[Enum], Mapping[Any, object]] = {
    Target: TARGET_WORDS, AskFor: ASK_FOR_WORDS, Holding: HOLDING_WORDS,
    Handover: HANDOVER_WORDS, Condition: CONDITION_WORDS, PassTo: PASS_WORDS,
    WhenStuck: STUCK_WORDS, FirstSeat: FIRST_WORDS, EndWhen: END_WORDS,
    LayDown: LAY_DOWN_WORDS, EmptyHand: EMPTY_HAND_WORDS, Fate: FATE_WORDS,
    TieRule: TIE_WORDS, QuestionKind: QUESTION_WORDS, Shown: SHOWN_WORDS,
}


# -- small wording helpers ------------------------------------------------------------

def joined(words: Sequence[str], last: str = "and") -> str:
    """``a, b and c``.

    >>> joined(["4", "6", "8"], "or"), joined(["spades"]), joined([])
    ('4, 6 or 8', 'spades', '')
    """
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _side(spec: GameSpec) -> str:
    return "team" if spec.teams else "player"


def _rank_groups(table: Mapping[Rank, int], ranks: Sequence[Rank]) -> list[tuple[str, int]]:
    """Ranks with equal numbers grouped, runs written ``2 to 10``: ``[('2 to 10', 10)]``."""
    order = [r for r in ranks if r in table]
    groups: dict[int, list[Rank]] = {}
    for rank in order:
        groups.setdefault(table[rank], []).append(rank)
    result = []
    for number, members in groups.items():
        places = [order.index(r) for r in members]
        run = len(members) > 3 and places == list(range(places[0], places[0] + len(members)))
        words = f"{members[0]} to {members[-1]}" if run else joined(list(members))
        result.append((words, number))
    return result


# -- the topics: each words some fields of the spec ---------------------------------

def _title(spec: GameSpec) -> list[str]:
    return [spec.title] + ([spec.about] if spec.about else [])


def _players(spec: GameSpec) -> list[str]:
    counts = counts_text(spec.player_counts)
    lines = [f"For {counts} players." if len(spec.player_counts) > 1
             else f"For exactly {counts} players."]
    if spec.teams:
        lines.append(f"They play in {spec.teams} teams seated alternately: the first player "
                     "listed is in team 1, the next in team 2, and so on round the table. "
                     "Sets and points go to teams.")
    else:
        lines.append("Everyone plays for themselves.")
    lines.append("Players sit in the order listed, clockwise; unless the table agrees on "
                 "another dealer, the last one listed deals.")
    return lines


def _deck(spec: GameSpec) -> list[str]:
    jokers = [c for c in spec.cards if c in JOKERS]
    suits = joined([SUIT_NAMES.get(s, s) for s in spec.suits])
    missing = [RANK_WORDS[r][1] for r in STANDARD_RANKS if r not in spec.ranks]
    in_order = [r for r in STANDARD_RANKS if r in spec.ranks] == list(spec.ranks)
    if spec.suits == STANDARD_SUITS and in_order and len(missing) <= MAX_MISSING_RANKS:
        base = ("A standard deck" + (f" without the {joined(missing)}" if missing else "")
                + f": {_rank_span(spec.ranks)} in {suits}")
    else:
        base = f"The ranks {' '.join(spec.ranks)} in {suits}"
    if jokers:
        base += f", plus the jokers {joined(jokers)}"
    return [f"{base}; {len(spec.cards)} cards in all."]


def _rank_span(ranks: Sequence[Rank]) -> str:
    """``2 to A`` when the ranks run on in the standard order, else the ranks listed."""
    if not ranks:
        return "no ranks"
    start = STANDARD_RANKS.index(ranks[0]) if ranks[0] in STANDARD_RANKS else -1
    if start >= 0 and tuple(ranks) == STANDARD_RANKS[start:start + len(ranks)]:
        return f"{ranks[0]} to {ranks[-1]}"
    return " ".join(ranks)


def _deal(spec: GameSpec) -> list[str]:
    one_by_one = "one card at a time, clockwise from the dealer's left"
    if spec.deal_rest_to_centre:
        lines = [f"Deal the cards {one_by_one}, the same number to every player; the cards "
                 "that do not divide evenly go face up to the centre."]
    elif spec.deal_all:
        lines = [f"Deal all the cards {one_by_one}; when they do not divide evenly, the "
                 "players nearest the dealer's left get one card more."]
    else:
        by_size: dict[int, list[int]] = {}
        for players in sorted(spec.deal_sizes):
            by_size.setdefault(spec.deal_sizes[players], []).append(players)
        if len(by_size) == 1:
            each = next(iter(by_size))
            shares = f"{_plural(each, 'card')} to each player"
        else:
            shares = ", ".join(f"{_plural(each, 'card')} each with {counts_text(counts)} players"
                               for each, counts in by_size.items())
        lines = [f"Deal {shares or 'no cards'}, {one_by_one}."]
    if spec.centre_deal:
        lines.append(f"Then turn the next {_plural(spec.centre_deal, 'card')} face up to the "
                     "centre.")
    if not spec.deal_all:
        lines.append("The rest of the deck is the stock, face down.")
    return lines


def _sets(spec: GameSpec) -> list[str]:
    if not spec.sets:
        return ["There are no sets to collect."]
    total = sum(s.copies for s in spec.sets)
    lines = [f"There are {_plural(total, 'set')} to collect; a set that is laid "
             f"down or won scores for its {_side(spec)}."]
    order: dict[str, int] = {c: i for i, c in enumerate(spec.cards)}
    books = [s for s in spec.sets if s.kind == "book"]
    if books and books[0].whole:
        lines.append(f"The sets are books: all {len(books[0].cards)} cards of one rank, "
                     "named by the rank (queens).")
    elif books:
        size, copies = books[0].needed, books[0].copies
        lines.append(f"The sets are {size} cards of one rank, any {size} of its "
                     f"{len(books[0].cards)}, named by the rank (queens); each rank makes "
                     f"{_plural(copies, 'set')}.")
    ranges: dict[str, list[Rank]] = {}
    for s in spec.sets:
        if s.kind not in ("book", s.name) and s.kind not in ranges:
            ranges[s.kind] = [rank_of(c) for c in sorted(s.cards, key=order.__getitem__)]
    if ranges:
        parts = [f"the {kind} set is {' '.join(ranks)}" for kind, ranks in ranges.items()]
        example = next(s.name for s in spec.sets if s.kind in ranges)
        lines.append(f"In each suit, {joined(parts)} (named like '{example}').")
    for s in spec.sets:
        if s.kind == s.name and s.kind != "book":
            cards = " ".join(sorted(s.cards, key=order.__getitem__))
            lines.append(f"The set '{s.name}' is {cards}.")
    return lines


def _lay_down(spec: GameSpec) -> list[str]:
    return [LAY_DOWN_WORDS[spec.lay_down]] if spec.sets else []


def _refill(spec: GameSpec) -> list[str]:
    if not spec.refill_deal:
        return []
    unless = (" A set that the last card of the deal (the dealer's last card) completed is "
              "laid down but not replaced." if spec.refill_not_last else "")
    return ["A player who lays down a set held from the deal is dealt cards from the top of "
            "the stock until their hand holds as many cards as were dealt; cards that complete "
            f"another set are laid down and replaced in turn.{unless}"]


def _first(spec: GameSpec) -> list[str]:
    return [FIRST_WORDS[spec.first_seat]]


def _ask(spec: GameSpec) -> list[str]:
    if not spec.has_asks:
        return ["Nobody asks for cards in this game."]
    ask = spec.ask
    whom = TARGET_WORDS[ask.target] + (" who holds cards" if ask.target_needs_cards else "")
    lines = [f"In their turn, a player asks {whom} for {ASK_FOR_WORDS[ask.item]}.",
             HOLDING_WORDS[ask.must_hold]]
    if not ask.may_hold_card:
        lines.append("The asker must not hold the card asked for.")
    elif ask.item is AskFor.CARD:
        lines.append("The asker may ask for a card they hold themselves; the ask then fails.")
    lines.append(HANDOVER_WORDS[ask.handover])
    return lines


def _questions(spec: GameSpec) -> list[str]:
    if not spec.questions:
        return []
    kinds = [k for k in QuestionKind if k in spec.questions]
    whom = "another player" + (" who holds cards" if spec.ask.target_needs_cards else "")
    names = joined([QUESTION_WORDS[k][0] for k in kinds], "or")
    examples = ", ".join(f"'{QUESTION_WORDS[k][1]}'" for k in kinds)
    after = PASS_WORDS[spec.after_question].replace("who was asked", "who answered")
    return [f"Instead of asking for a card, a player may ask {whom} one yes-or-no question "
            f"about their hand: do they hold any card of a {names} ({examples})? The answer "
            "must be true.",
            f"After the answer, {after}."]


def _plays(spec: GameSpec) -> list[str]:
    if not spec.plays:
        return []
    values = ", ".join(f"{rank} = {spec.card_values[rank]}"
                       for rank in spec.ranks if rank in spec.card_values)
    lines = ["In their turn, a player plays one card from their hand. It captures one or more "
             "separate groups of centre cards, each group a single card or several cards "
             "whose values add up to exactly the played card's value; the played card and the "
             "captured cards go to the player's pile. A card that captures nothing stays face "
             "up in the centre.",
             f"Card values for summing: {values or 'none'}."]
    if spec.draw_after_play:
        lines.append("After a play, the player draws the top card of the stock, if any is "
                     "left.")
    return lines


def _centre(spec: GameSpec) -> list[str]:
    if not spec.centre_refill:
        return []
    size = spec.centre_refill
    return [f"Before each turn, if the centre holds fewer than {_plural(size, 'card')}, cards "
            f"are turned up from the stock until it holds {size}, or the stock is empty."]


def _continuation(then: Continuation) -> str:
    if not then.ask_again:
        return PASS_WORDS[then.pass_to]
    if then.condition is None:
        return "the asker asks again"
    return (f"the asker asks again if {CONDITION_WORDS[then.condition]}; otherwise "
            f"{PASS_WORDS[then.pass_to]}")


def _answer(outcome: Outcome) -> str:
    draw = "the asker draws the top card of the stock, if any is left; then " if outcome.draw \
        else ""
    return draw + _continuation(outcome.then)


def _given(spec: GameSpec) -> list[str]:
    if not spec.has_asks:
        return []
    return [f"When the asked player has what was asked for: {_answer(spec.on_given)}."]


def _refused(spec: GameSpec) -> list[str]:
    if not spec.has_asks:
        return []
    return [f"When they have none ('go fish'): {_answer(spec.on_refused)}."]


def _stuck(spec: GameSpec) -> list[str]:
    if spec.when_stuck is WhenStuck.DRAW_AND_GO_ON and spec.empty_hand is EmptyHand.NEXT:
        return [STUCK_WORDS[spec.when_stuck]]  # it says where an emptied hand's turn goes
    return [STUCK_WORDS[spec.when_stuck], EMPTY_HAND_WORDS[spec.empty_hand]]


def _claims(spec: GameSpec) -> list[str]:
    claims = spec.claims
    if claims is None:
        return []
    return ["In their turn, a player may claim a whole set by saying which member of their "
            "own team holds each of its cards; the claimer need hold none of them. All its "
            "cards then leave the hands, and the claimer goes on.",
            "If every card is where the claimer said, their team wins the set.",
            "If their team holds every card but some are in other hands than said: "
            f"{FATE_WORDS[claims.misplaced]}.",
            f"If any card is held by the other team: {FATE_WORDS[claims.opposed]}."]


def _end(spec: GameSpec) -> list[str]:
    shown = [e for e in EndWhen if e in spec.end_when]
    if not spec.sets or EndWhen.ALL_SETS_DECIDED in spec.end_when:
        shown = [e for e in shown if e is not EndWhen.ALL_SETS_LAID]
    if not spec.sets:
        shown = [e for e in shown if e is not EndWhen.ALL_SETS_DECIDED]
    won = " or won" if spec.claims is not None else ""
    words = [str(END_WORDS[e]).format(sets=len(spec.sets), won=won) for e in shown]
    lines = [f"The game ends at once when {', or when '.join(words)}."] if words else []
    return [*lines, "It ends too when nobody can move."]


def _scoring(spec: GameSpec) -> list[str]:
    side = _side(spec)
    lines: list[str] = []
    if spec.card_points:
        groups = "; ".join(f"{ranks}: {_plural(points, 'point')}"
                           for ranks, points in _rank_groups(spec.card_points, spec.ranks))
        lines.append(f"Each captured card scores for its {side}: {groups}.")
    if spec.sets or not spec.card_points:
        named = [f"each set of {name} scores {_plural(points, 'point')}"
                 for name, points in _rank_sets(spec)]
        kinds = named + [f"each {kind} set scores {_plural(points, 'point')}"
                         for kind, points in sorted(spec.points_by_kind.items())]
        rest = f"{'every other' if kinds else 'each'} set scores " \
               f"{_plural(spec.points_per_set, 'point')}"
        lines.append(f"{joined([*kinds, rest]).capitalize()}.")
    if spec.winner == "most points":
        lines.append(f"The {side} with the most points wins.")
    else:
        lines.append(f"The winner: {spec.winner}.")
    return lines


def _rank_sets(spec: GameSpec) -> list[tuple[str, int]]:
    """The sets scored by their ranks, grouped by points: ``("aces or kings", 3)``."""
    by_points: dict[int, list[str]] = {}
    for s in spec.sets:
        if s.name in spec.points_by_set:
            name = RANK_WORDS[s.name][1] if s.name in RANK_WORDS else s.name
            by_points.setdefault(spec.points_by_set[s.name], []).append(name)
    return [(joined(names, "or"), points) for points, names in sorted(by_points.items())]


def _match(spec: GameSpec) -> list[str]:
    if spec.match_target is None:
        return []
    side = _side(spec)
    until = (f"a {side} has won {_plural(spec.match_target, 'hand')} (a hand shared by "
             "several winners counts for each)" if spec.match_by_hands
             else f"a {side}'s total reaches {_plural(spec.match_target, 'point')}")
    return [f"The game is a match of hands, the deal passing one seat to the left each hand; "
            f"hands are played until {until}. The {side} with the highest total then wins; "
            f"{side}s tied on it all win."]


def _shown(spec: GameSpec) -> list[str]:
    return [SHOWN_WORDS[spec.shown]]


def _ties(spec: GameSpec) -> list[str]:
    draw = ": a draw" if spec.teams else ""
    return [str(TIE_WORDS[spec.ties]).format(sides=_side(spec) + "s", draw=draw)]


def _options(spec: GameSpec) -> list[str]:
    lines = []
    if spec.options:
        listed = ", ".join(f"{name} (normally {spec.options[name]})"
                           for name in sorted(spec.options) if name not in spec.options_set)
        if listed:
            lines.append(f"House rules the table may agree on: {listed}.")
    if spec.options_set:
        chosen = ", ".join(f"{name}: {value}" for name, value in sorted(spec.options_set.items()))
        lines.append(f"This sheet is for the options {chosen}.")
    return lines


def _footer(spec: GameSpec) -> list[str]:
    return [f"Rule file: {rule_reference(spec)}. This sheet is generated from the rules."]


@frozen
class Topic:
    """Some sentences of the sheet: the section they stand in and the fields they word."""

    key: str
    section: str
    fields: tuple[str, ...]
    words: Callable[[GameSpec], list[str]]


TOPICS: tuple[Topic, ...] = (
    Topic("title", "", ("title", "about"), _title),
    Topic("players", "Players", ("player_counts", "teams"), _players),
    Topic("deck", "Deck", ("ranks", "suits", "cards"), _deck),
    Topic("deal", "Deal", ("deal_all", "deal_sizes", "deal_rest_to_centre", "centre_deal"),
          _deal),
    Topic("sets", "Sets", ("sets", "set_of_card"), _sets),
    Topic("lay-down", "Sets", ("lay_down",), _lay_down),
    Topic("refill", "Sets", ("refill_deal", "refill_not_last"), _refill),
    Topic("first", "A turn", ("first_seat",), _first),
    Topic("ask", "A turn", ("has_asks", "ask"), _ask),
    Topic("questions", "A turn", ("questions", "after_question"), _questions),
    Topic("plays", "A turn", ("plays", "card_values", "draw_after_play"), _plays),
    Topic("centre", "A turn", ("centre_refill",), _centre),
    Topic("given", "Answers", ("on_given",), _given),
    Topic("refused", "Answers", ("on_refused",), _refused),
    Topic("stuck", "Answers", ("when_stuck", "empty_hand"), _stuck),
    Topic("claims", "Claims", ("claims",), _claims),
    Topic("end", "The end", ("end_when",), _end),
    Topic("scoring", "Scoring", ("points_per_set", "points_by_kind", "points_by_set",
                                 "card_points", "winner"), _scoring),
    Topic("ties", "Ties", ("ties",), _ties),
    Topic("match", "Match", ("match_target", "match_by_hands"), _match),
    Topic("shown", "Live play", ("shown",), _shown),
    Topic("options", "Options", ("options", "options_set"), _options),
    Topic("footer", "", ("name", "source"), _footer),
)
NOT_RULES = ("title", "footer")  # topics that change no rule of play
TOPIC_OF = {topic.key: topic for topic in TOPICS}


# -- the sheet --------------------------------------------------------------------

@frozen
class Section:
    """A heading and its items; an item may have sub-items."""

    heading: str
    items: tuple[tuple[str, tuple[str, ...]], ...]


@frozen
class Sheet:
    """A rule sheet ready to render: title, a line about the game, sections, a footer."""

    title: str
    about: str
    sections: tuple[Section, ...]
    footer: str

    def markdown(self) -> str:
        """The sheet as Markdown, its text escaped as the HTML page's is."""
        out = [f"# {_md(self.title)}", ""]
        if self.about:
            out += [_md(self.about), ""]
        for section in self.sections:
            out += [f"## {_md(section.heading)}", ""]
            for text, subs in section.items:
                out.append(f"- {_md(text)}")
                out += [f"  - {_md(sub)}" for sub in subs]
            out.append("")
        out.append(f"*{_md(self.footer)}*")
        return "\n".join(out) + "\n"

    def html(self) -> str:
        """The sheet as one self-contained, escaped HTML page, ready to print."""
        body = [f"<h1>{html.escape(self.title)}</h1>"]
        if self.about:
            body.append(f'<p class="about">{html.escape(self.about)}</p>')
        for section in self.sections:
            body.append(f"<section>\n<h2>{html.escape(section.heading)}</h2>\n<ul>")
            for text, subs in section.items:
                inner = "".join(f"<li>{html.escape(sub)}</li>" for sub in subs)
                body.append(f"<li>{html.escape(text)}"
                            + (f"<ul>{inner}</ul>" if inner else "") + "</li>")
            body.append("</ul>\n</section>")
        body.append(f'<p class="footer">{html.escape(self.footer)}</p>')
        return _PAGE.format(title=html.escape(self.title), body="\n".join(body))

    def render(self, fmt: str) -> str:
        """The sheet in ``fmt``: ``md`` or ``html``."""
        return self.html() if fmt == "html" else self.markdown()


def _md(text: str) -> str:
    r"""``text`` as Markdown shows it, word for word: a character Markdown would take as
    HTML, a link or emphasis is escaped with a backslash.

    >>> _md("Fish <script>alert(1)</script> [x](javascript:y) &#x202e;")
    'Fish \\<script\\>alert(1)\\</script\\> \\[x\\](javascript:y) \\&#x202e;'
    """
    return _MARKDOWN_PUNCTUATION.sub(r"\\\1", text)


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
body {{ font-family: Georgia, serif; max-width: 44em; margin: 2em auto; line-height: 1.45; }}
h1 {{ margin-bottom: 0.2em; }}
h2 {{ font-size: 1.15em; border-bottom: 1px solid #999; margin-top: 1.4em; }}
.about {{ font-style: italic; }}
.footer {{ color: #555; font-size: 0.85em; margin-top: 2em; }}
@media print {{ body {{ margin: 0; max-width: none; }} }}
</style>
</head>
<body>
{body}
</body>
</html>
"""


def topic_words(spec: GameSpec) -> dict[str, list[str]]:
    """Every topic's sentences for ``spec``, by topic key."""
    return {topic.key: topic.words(spec) for topic in TOPICS}


def changed_topics(base: GameSpec, spec: GameSpec) -> list[str]:
    """The keys of the rule topics whose fields differ between ``base`` and ``spec``."""
    changed = {name for name in fields(GameSpec) if getattr(base, name) != getattr(spec, name)}
    return [t.key for t in TOPICS if t.key not in NOT_RULES and changed & set(t.fields)]


def build_sheet(
    spec: GameSpec, *, base: GameSpec | None = None,
    option_effects: Mapping[str, Sequence[str]] | None = None,
) -> Sheet:
    """The sheet of ``spec``; with ``base``, a first section says what the variant changes;
    ``option_effects`` gives, by option name, the sentences an option's value changes."""
    words = topic_words(spec)
    sections: list[Section] = []
    if base is not None:
        sections.append(_changes(base, spec, words))
    headings = list(dict.fromkeys(t.section for t in TOPICS if t.section))
    for heading in headings:
        items: list[tuple[str, tuple[str, ...]]] = [
            (text, ()) for t in TOPICS if t.section == heading for text in words[t.key]]
        if heading == "Options":
            items = [(text, tuple(subs)) for text, subs in
                     _option_items(words["options"], option_effects or {})]
        if items:
            sections.append(Section(heading, tuple(items)))
    title, *about = words["title"]
    return Sheet(title, about[0] if about else "", tuple(sections), words["footer"][0])


def _changes(base: GameSpec, spec: GameSpec, words: dict[str, list[str]]) -> Section:
    before = topic_words(base)
    items: list[tuple[str, tuple[str, ...]]] = []
    for key in changed_topics(base, spec):
        now, then = words[key], before[key]
        if now == then:
            continue
        items += [(text, ()) for text in now if text not in then]
        items += [(f"No longer: {text}", ()) for text in then if not now]
    if not items:
        items = [("Nothing in play: only the name and description differ.", ())]
    return Section(f"Changes from {base.title}", tuple(items))


def _option_items(
    lines: list[str], effects: Mapping[str, Sequence[str]]
) -> list[tuple[str, list[str]]]:
    items: list[tuple[str, list[str]]] = [(text, []) for text in lines]
    for name, changes in sorted(effects.items()):
        items.append((f"With {name}:", list(changes) or ["nothing changes"]))
    return items


def option_values(spec: GameSpec, tested: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    """The values worth describing for each option: the other of yes and no, or each
    number a ``when`` tests other than the value in force."""
    values: dict[str, list[str]] = {}
    for name, value in spec.options.items():
        if name in spec.options_set:
            continue
        if value in ("yes", "no"):
            values[name] = ["no" if value == "yes" else "yes"]
        else:
            values[name] = [v for v in dict.fromkeys(tested.get(name, ())) if v != value]
    return values


def sheet_for(path: Path, options: Mapping[str, str] | None = None) -> Sheet:
    """The sheet of the rule file at ``path`` with ``options`` set: its base's sheet
    compared when it extends one, and what each option would change (each other value
    put together from the statements it changes, looked at and let go)."""
    layers = load_layers(path)
    book = rule_book(tuple(layers))
    spec = book.spec(options)
    base = _base_spec(layers[:-1]) if len(layers) > 1 else None
    tested: dict[str, list[str]] = {}
    for layer in layers:
        for node in layer.statements:
            if node.kind == "when" and len(node.words) > 1:
                tested.setdefault(node.words[0].text.lower(), []).append(
                    node.words[1].text.lower())
    now = topic_words(spec)
    played = book.played(options)
    effects: dict[str, list[str]] = {}
    for name, values in option_values(spec, tested).items():
        for value in values:
            label = f"{name}: {value}"
            try:
                other = book.played({**(options or {}), name: value})
            except RefereeError as exc:
                effects[label] = [f"The rules cannot be played so: {exc.message}."]
                continue
            keys = [] if other is played else changed_topics(played, other)
            effects[label] = [text for key in keys if key != "options"
                              for text in TOPIC_OF[key].words(other) if text not in now[key]]
    return build_sheet(spec, base=base, option_effects=effects)


def _base_spec(layers: Sequence[RuleFile]) -> GameSpec | None:
    """The base's spec, or None when the base is no game on its own (a partial file)."""
    try:
        return RuleBook(layers).spec()
    except RefereeError:
        return None


def normalized(spec: GameSpec) -> GameSpec:
    """``spec`` without its option values, to compare what two option settings play."""
    return replace(spec, options={}, options_set={})
