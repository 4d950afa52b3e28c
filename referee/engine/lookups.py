"""Tables computed once from a GameSpec, shared by every kind of move."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from referee.language.cards import Card, Rank, rank_of
from referee.language.spec import (
    AskFor,
    Condition,
    Continuation,
    EmptyHand,
    EndWhen,
    GameSpec,
    Handover,
    Holding,
    LayDown,
    PassTo,
    Target,
    WhenStuck,
)
from referee.values import frozen

MAX_TOUCHED: Final = 4096  # groups of cards whose sets are remembered


@frozen
class Ends:
    """When the game ends, as flags tested after every move."""

    all_sets: bool  # when every set is won, laid or void
    sets: int  # how many sets there are
    stock_empty: bool
    all_empty: bool  # the stock and every hand
    player_empty: bool  # some hand


@frozen
class Onward:
    """How the turn goes on once an ask is answered: the spec's ``Continuation``, as a
    record a compiled build reads natively."""

    ask_again: bool
    condition: Condition | None
    pass_to: PassTo

    @staticmethod
    def of(then: Continuation) -> Onward:
        """The continuation ``then`` of a spec."""
        return Onward(then.ask_again, then.condition, then.pass_to)


class Lookups:
    """A GameSpec with the look-ups the rules of every move need: each card's rank,
    set and deck position, each set's cards and points, each rank's cards."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.set_cards = {s.name: s.cards for s in spec.sets}
        self.set_needed = {s.name: s.needed for s in spec.sets}  # cards one copy takes
        self.set_copies = {s.name: s.copies for s in spec.sets}
        self.partial = {s.name for s in spec.sets if not s.whole}  # sets like pairs
        self.set_name = {card: s.name for card, s in spec.set_of_card.items()}
        self.sets_of_card = {card: frozenset((name,)) for card, name in self.set_name.items()}
        self.rank = {card: rank_of(card) for card in spec.cards}
        cards_of_rank: dict[Rank, list[Card]] = {}
        for card in spec.cards:
            cards_of_rank.setdefault(self.rank[card], []).append(card)
        self.cards_of_rank = {r: frozenset(cs) for r, cs in cards_of_rank.items()}
        self.rank_in_order = {r: tuple(cs) for r, cs in cards_of_rank.items()}  # deck order
        self.position = {card: i for i, card in enumerate(spec.cards)}
        self.set_position = {name: min((self.position[c] for c in cards), default=0)  # first card
                             for name, cards in self.set_cards.items()}
        self.points = {s.name: spec.points_by_set.get(
            s.name, spec.points_by_kind.get(s.kind, spec.points_per_set)) for s in spec.sets}
        self.deck = frozenset(spec.cards)
        self.lay_at_once = spec.lay_down is LayDown.AT_ONCE and bool(spec.sets)
        self._touched: dict[frozenset[Card], frozenset[str]] = {}
        # the rules every move consults, copied from the spec (plain Python, shared with
        # the disk cache): a compiled build reads them here natively
        ask = spec.ask
        self.has_asks: bool = spec.has_asks
        self.handover: Handover = ask.handover
        self.target_rule: Target = ask.target
        self.target_needs_cards: bool = ask.target_needs_cards
        self.ask_item: AskFor = ask.item
        self.may_hold_card: bool = ask.may_hold_card
        self.must_hold: Holding = ask.must_hold
        self.lay_down: LayDown = spec.lay_down
        self.plays_or_claims: bool = bool(spec.plays) or spec.claims is not None
        self.centre_refill: int = spec.centre_refill
        self.when_stuck: WhenStuck = spec.when_stuck
        self.empty_hand: EmptyHand = spec.empty_hand
        self.given_then = Onward.of(spec.on_given.then)
        self.refused_then = Onward.of(spec.on_refused.then)
        self.refused_draw: bool = spec.on_refused.draw
        ends = spec.end_when
        self.ends = Ends(
            all_sets=bool(spec.sets) and bool(
                {EndWhen.ALL_SETS_LAID, EndWhen.ALL_SETS_DECIDED} & ends),
            sets=len(spec.sets), stock_empty=EndWhen.STOCK_EMPTY in ends,
            all_empty=EndWhen.ALL_EMPTY in ends, player_empty=EndWhen.PLAYER_EMPTY in ends)

    def sets_touched(self, cards: frozenset[Card]) -> frozenset[str]:
        """The sets ``cards`` belong to (remembered: the same few groups recur)."""
        found = self._touched.get(cards)
        if found is None:
            if len(self._touched) >= MAX_TOUCHED:  # shared by every game of these rules:
                self._touched.clear()  # bounded, however many games a process checks
            found = self._touched[cards] = frozenset(self.set_name[c] for c in cards)
        return found

    def in_deck_order(self, cards: Iterable[Card]) -> list[Card]:
        """``cards`` in the order of the deck."""
        return sorted(cards, key=self.position.__getitem__)

    def listed(self, cards: Iterable[Card]) -> str:
        """``7S 7H``: cards in deck order, for messages."""
        return " ".join(self.in_deck_order(cards))
