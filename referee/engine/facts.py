"""What a move says about hidden cards, and where it moves cards.

Every rule whose outcome depends on the cards becomes a :class:`Fact`: at the
moment of the move, the number of ``cards`` at one place lies between two
bounds ("Ann held a 7", "Bob held no 7", "Bob held exactly two 7s"). The engine
decides a fact at once from the cards it knows (:func:`decide`); with an open
deal it always can. A fact it cannot decide goes to the knowledge model, which
asks whether some deal makes every fact so far true.

A move's effect on the cards is a list of :class:`~referee.engine.moves.Transfer`: every card of a
group that is at one place goes to another. With a full deal, each card's path
then depends only on where it started.

Places are small integers: a seat (0, 1, ...), :data:`OUT` (face up or out of
play: the centre, a laid set, a capture pile), or a stock position counted from
the top of the stock as dealt (:func:`stock_place`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from referee.engine.state import GameState
from referee.errors import RefereeError
from referee.language.cards import Card
from referee.values import value

OUT: Final = -1
UNBOUNDED: Final = 1_000


def stock_place(position: int) -> int:
    """The place of the card dealt ``position`` cards from the top of the stock."""
    return -2 - position


def stock_position(place: int) -> int:
    """The stock position a stock place stands for."""
    return -2 - place


def is_stock(place: int) -> bool:
    """Whether ``place`` is a stock position."""
    return place <= -2


@value
class Fact:
    """At the moment of a move, between ``least`` and ``most`` of ``cards`` are at
    ``place``.

    ``reason`` says it in the past tense for a contradiction's proof ("Ann asked
    for 7H, so she held a 7"); ``error`` builds, from the state the fact is
    judged in, the error to report when the known cards decide the fact false.
    """

    place: int
    cards: frozenset[Card]
    least: int
    most: int
    reason: str
    error: Callable[[GameState], RefereeError]

    # written out, not made by the decorator: compiled, it runs natively
    def __init__(self, place: int, cards: frozenset[Card], least: int, most: int, reason: str,
                 error: Callable[[GameState], RefereeError]) -> None:
        self.place = place
        self.cards = cards
        self.least = least
        self.most = most
        self.reason = reason
        self.error = error


def count_range(state: GameState, place: int, cards: frozenset[Card]) -> tuple[int, int]:
    """The fewest and the most of ``cards`` that can be at ``place``, from the cards
    the state knows and the counts of those it does not."""
    if place >= 0:
        known = len(cards & state.hands[place])
        spare = state.unknown[place]
        if spare:
            spare = min(spare, len(cards & state.unplaced))
        return known, known + spare
    card = state.stock_card(stock_position(place))
    if card is None:
        return 0, 1 if cards & state.unplaced else 0
    held = 1 if card in cards else 0
    return held, held


def decide(state: GameState, fact: Fact) -> bool | None:
    """True or False when the known cards decide ``fact``; None when they do not."""
    place = fact.place
    if place >= 0 and not state.unknown[place]:  # a hand whose every card is known
        held = len(fact.cards & state.hands[place])
        return fact.least <= held <= fact.most
    low, high = count_range(state, place, fact.cards)
    if fact.least <= low and high <= fact.most:
        return True
    if high < fact.least or low > fact.most:
        return False
    return None
