"""GameSpec: the fixed, compiled description of one game; shared, never changed."""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum

from referee.language.cards import Card, Rank, Suit, plain_symbols
from referee.values import frozen
from referee.words import player_counts


class Target(Enum):
    """Whom a player may ask."""

    ANY_OTHER = "any other player"
    OPPONENT = "an opponent"


class AskFor(Enum):
    """What an ask names."""

    CARD = "a card"
    RANK = "a rank"


class Holding(Enum):
    """What the asker must hold to make an ask."""

    NOTHING = "nothing"
    SAME_RANK = "a card of the same rank"
    SAME_SET = "a card of the same set"


class Handover(Enum):
    """What the asked player hands over when they can."""

    THE_CARD = "the card"
    ALL_OF_RANK = "every card of the rank"
    ONE_OF_RANK = "one card of the rank"  # the giver's choice
    TO_CENTRE = "the card, face up to the centre"


class Condition(Enum):
    """When a successful or failed ask lets the asker ask again."""

    DRAWN_IS_CARD = "the card drawn is the card asked for"
    DRAWN_IS_RANK = "the card drawn is of the rank asked for"
    SET_COMPLETED = "the set asked for was completed"


class PassTo(Enum):
    """Where the turn goes when it leaves the asker."""

    NEXT = "turn passes to the next player"
    ASKED = "turn passes to the player asked"


class WhenStuck(Enum):
    """What a player does whose turn comes while they cannot ask."""

    SIT_OUT = "sits out"
    DRAW_AND_PASS = "draws from the stock, then turn passes to the next player"
    DRAW_AND_GO_ON = "draws from the stock and goes on"  # an empty hand; one that cannot
    # ask for want of someone to ask passes the turn


class FirstSeat(Enum):
    """Who takes the first turn."""

    LEFT_OF_DEALER = "left of the dealer"
    RIGHT_OF_DEALER = "right of the dealer"
    DEALER = "the dealer"


class EndWhen(Enum):
    """Conditions that end the game at once."""

    ALL_SETS_LAID = "all sets are laid"
    ALL_SETS_DECIDED = "all sets are won or void"
    ALL_EMPTY = "the stock and every hand are empty"
    PLAYER_EMPTY = "a player has no cards"
    STOCK_EMPTY = "the stock is empty"


class LayDown(Enum):
    """When complete sets are laid down."""

    AT_ONCE = "at once"
    IN_TURN = "in turn, by choice"
    WITH_CENTRE = "in turn, by choice, with cards of the centre"


class EmptyHand(Enum):
    """Where the turn goes from a player in turn whose hand empties."""

    NEXT = "turn passes to the next player who holds cards"
    CHOSEN = ("the player passes the turn to a teammate who holds cards, "
              "or else to an opponent who holds cards")


class Fate(Enum):
    """What a wrong claim does to the set claimed."""

    VOID = "the set is void"
    OTHER_TEAM = "the other team wins the set"


class TieRule(Enum):
    """What happens when players tie on points."""

    STAND = "all tied players win"
    FIRST_SET = "the first to lay down a set wins"
    SEAT_ORDER = "the first in turn order from the dealer's left wins"


class QuestionKind(Enum):
    """What a yes-or-no question about a hand may name: any card of a ..."""

    RANK = "rank"
    SUIT = "suit"
    COLOUR = "colour"


class Shown(Enum):
    """What the referee tells the table in live play (``referee play``); every hand's
    card count, the sets and the scores are always shown."""

    EVERY_EVENT = "every event"
    LAST_ASK = "the last ask and its answer"  # earlier asks are the players' to remember


# Members as plain names, for the modules that test the rules on every event (as
# PHASE_ASK and others in referee/engine/state.py: an Enum member read off its class is slow
# on Python 3.11).
TARGET_OPPONENT = Target.OPPONENT
ASK_FOR_CARD, ASK_FOR_RANK = AskFor.CARD, AskFor.RANK
HOLDING_SAME_RANK, HOLDING_SAME_SET = Holding.SAME_RANK, Holding.SAME_SET
HANDOVER_ONE_OF_RANK, HANDOVER_TO_CENTRE = Handover.ONE_OF_RANK, Handover.TO_CENTRE
CONDITION_DRAWN_IS_CARD, CONDITION_DRAWN_IS_RANK = Condition.DRAWN_IS_CARD, Condition.DRAWN_IS_RANK
PASS_TO_ASKED = PassTo.ASKED
WHEN_STUCK_DRAW_AND_GO_ON, WHEN_STUCK_DRAW_AND_PASS = (
    WhenStuck.DRAW_AND_GO_ON, WhenStuck.DRAW_AND_PASS)
FIRST_SEAT_DEALER, FIRST_SEAT_LEFT_OF_DEALER, FIRST_SEAT_RIGHT_OF_DEALER = (
    FirstSeat.DEALER, FirstSeat.LEFT_OF_DEALER, FirstSeat.RIGHT_OF_DEALER)
LAY_DOWN_AT_ONCE, LAY_DOWN_IN_TURN, LAY_DOWN_WITH_CENTRE = (
    LayDown.AT_ONCE, LayDown.IN_TURN, LayDown.WITH_CENTRE)
EMPTY_HAND_CHOSEN = EmptyHand.CHOSEN
TIE_RULE_FIRST_SET, TIE_RULE_SEAT_ORDER = TieRule.FIRST_SET, TieRule.SEAT_ORDER
FATE_VOID = Fate.VOID
QUESTION_KIND_RANK, QUESTION_KIND_SUIT, QUESTION_KIND_COLOUR = (
    QuestionKind.RANK, QuestionKind.SUIT, QuestionKind.COLOUR)


@frozen
class SetSpec:
    """One set to collect: its name, its cards, and the other names it answers to.

    A set is usually all of its cards. Sets of part of a rank (pairs: ``books of 2
    cards of one rank`` in a deck of four suits) are any ``size`` of its cards, laid
    ``copies`` times; the set is out of play once every copy is laid."""

    name: str
    cards: frozenset[Card]
    aliases: frozenset[str]
    kind: str  # what scoring calls it: "high" for "high spades", else its name
    size: int = 0  # the cards one copy takes: all of them when 0
    copies: int = 1

    @property
    def whole(self) -> bool:
        """Whether one copy is all of the set's cards."""
        return not self.size or self.size == len(self.cards)

    @property
    def needed(self) -> int:
        """How many of its cards one copy takes."""
        return self.size or len(self.cards)


@frozen
class ClaimSpec:
    """Claims: what a claim whose cards are misplaced within the team does, and what
    one with a card held by the other team does. A right claim wins the set."""

    misplaced: Fate
    opposed: Fate


@frozen
class Continuation:
    """What happens to the turn once an ask is answered (and any draw is made)."""

    ask_again: bool
    condition: Condition | None
    pass_to: PassTo


@frozen
class Outcome:
    """The effect of one kind of answer: an optional draw, then a continuation."""

    draw: bool
    then: Continuation


@frozen
class AskSpec:
    """Who may be asked, for what, and what the asker must or must not hold."""

    target: Target
    target_needs_cards: bool
    item: AskFor
    must_hold: Holding
    may_hold_card: bool
    handover: Handover


@frozen
class GameSpec:
    """Everything a rule file says, compiled; shared by every game played under it."""

    name: str
    title: str
    about: str
    source: str
    player_counts: frozenset[int]
    teams: int  # 0 when every player plays alone; seated alternately by default
    ranks: tuple[Rank, ...]
    suits: tuple[Suit, ...]
    cards: tuple[Card, ...]
    sets: tuple[SetSpec, ...]
    set_of_card: Mapping[Card, SetSpec]
    deal_all: bool
    deal_sizes: Mapping[int, int]
    deal_rest_to_centre: bool  # deal all cards evenly; what does not divide goes face up
    centre_deal: int  # cards turned face up to the centre after the deal
    lay_down: LayDown
    claims: ClaimSpec | None
    empty_hand: EmptyHand
    questions: frozenset[QuestionKind]
    after_question: PassTo
    has_asks: bool  # False in a game of plays, where nobody asks
    plays: bool  # a turn plays a card from the hand, capturing from the centre by sums
    draw_after_play: bool
    centre_refill: int  # before each turn the centre is filled up to this from the stock
    card_values: Mapping[Rank, int]  # for summing captures
    card_points: Mapping[Rank, int]  # what each captured card scores; empty: sets score
    ask: AskSpec
    on_given: Outcome
    on_refused: Outcome
    when_stuck: WhenStuck
    refill_deal: bool  # a set laid from the deal is replaced from the stock
    refill_not_last: bool  # ... unless the deal's last card completed it
    first_seat: FirstSeat
    end_when: frozenset[EndWhen]
    points_per_set: int
    points_by_kind: Mapping[str, int]
    points_by_set: Mapping[str, int]  # sets scored by their ranks (3 points per set of aces)
    match_target: int | None  # a match: hands are played until a side reaches it
    match_by_hands: bool  # a match counts hands won, not points
    winner: str
    ties: TieRule
    options: Mapping[str, str]  # every option's value, defaults included
    options_set: Mapping[str, str]  # the options set when the spec was compiled
    shown: Shown = Shown.EVERY_EVENT  # what live play tells the table

    def refuses_players(self, count: int) -> str | None:
        """Why ``count`` players cannot play these rules, or None when they can; every
        command words a wrong number of players so: ``Go Fish is for 2 to 6 players,
        not 7``."""
        if count in self.player_counts:
            return None
        return f"{self.title} is for {player_counts(self.player_counts)} players, not {count}"

    def centre_size(self, players: int) -> int:
        """How many cards the deal turns face up to the centre."""
        if self.deal_rest_to_centre:
            return len(self.cards) % players
        return self.centre_deal

    def set_named(self, name: str) -> SetSpec:
        """The set whose canonical name is ``name``."""
        return next(s for s in self.sets if s.name == name)

    def find_set(self, words: str) -> SetSpec | None:
        """The set a name or alias (``queens``, ``Q``, ``low spades``) names, if any."""
        key = " ".join(plain_symbols(words).lower().split())
        found = next((s for s in self.sets if key in s.aliases), None)
        if found is None and "-" in key:  # 'high-diamonds', as people join two words
            return self.find_set(key.replace("-", " "))
        return found

    def alternate_teams(self, players: int) -> tuple[int, ...]:
        """Each seat's team when teams sit alternately (none when the game has no teams)."""
        return tuple(seat % self.teams for seat in range(players)) if self.teams else ()

    def hand_sizes(self, players: int, dealer: int) -> list[int]:
        """The number of cards each seat is dealt, in seat order."""
        if not self.deal_all:
            return [self.deal_sizes[players]] * players
        share, extra = divmod(len(self.cards), players)
        if self.deal_rest_to_centre:
            return [share] * players
        sizes = [share] * players
        for step in range(extra):
            sizes[(dealer + 1 + step) % players] += 1
        return sizes
