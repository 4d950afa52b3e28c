"""Whether the counts after a move the table accepted are ones some deal could reach.

At a live table, ``accept`` records an event the cards contradict: its facts about the
cards are set aside (referee/transcript/session.py). That is sound for what a player *says* (a no
while holding the card is a lie the game survives) but not for what a move *does* to
cards the referee can count: a hand cannot give more cards than it holds, a card known
to be in one place cannot also be in another, a set laid down takes its cards out of
every hand, and a hand cannot give four of a rank when one of the four is known to be
elsewhere. Every legal move keeps these counts so; :func:`count_problem` says, plainly,
the first one an accepted move would break, and the table cannot accept that move.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from referee.engine.facts import Fact, count_range, is_stock
from referee.engine.state import GameState
from referee.language.cards import Card


def count_problem(state: GameState, before: GameState, facts: Sequence[Fact],
                  set_cards: Mapping[str, frozenset[Card]]) -> str | None:
    """What no deal could reach in ``state``, after a move from ``before`` that said
    ``facts`` (set aside); None when nothing is wrong. ``set_cards``: each set's cards."""
    return (_hands_short(state, before) or _twice(state, set_cards)
            or _unaccounted(state) or _taken_beyond(state, before, facts))


def _hands_short(state: GameState, before: GameState) -> str | None:
    """A hand left with fewer than no cards, or fewer unseen cards than none."""
    for seat, unknown in enumerate(state.unknown):
        if unknown >= 0:
            continue
        who, held, unseen = state.players[seat], before.hand_size(seat), before.unknown[seat]
        if state.hand_size(seat) < 0:
            return (f"{who} holds {_cards(held)}, fewer than the "
                    f"{held - state.hand_size(seat)} this needs")
        if not unseen:
            return f"every card {who} holds is known, and none is one this needs"
        return f"{who} holds only {_cards(unseen)} nobody has seen, fewer than this needs"
    return None


def _twice(state: GameState, set_cards: Mapping[str, frozenset[Card]]) -> str | None:
    """A card in two places at once (a set out of play counts as a place)."""
    names = state.players
    seen: dict[Card, str] = {}
    places = [*((f"{names[seat]}'s hand", hand) for seat, hand in enumerate(state.hands)),
              ("the stock", [c for c in state.stock if c is not None]),
              ("the centre", state.centre),
              *(("a capture pile", pile) for pile in state.piles),
              ("the cards nobody has seen", state.unplaced)]
    for place, cards in places:
        for card in cards:
            if card in seen:
                return f"{card} would be in {seen[card]} and in {place} at once"
            seen[card] = place
    for name in sorted(state.finished):
        for card in sorted(set_cards[name]):
            if card in seen and seen[card] != "the centre":  # a claim leaves the centre be
                return f"{card} would be both in {seen[card]} and out of play, with {name}"
    return None


def _unaccounted(state: GameState) -> str | None:
    """The cards nobody has seen not filling exactly the places nobody can name."""
    slots = sum(state.unknown) + state.stock.count(None)
    if slots == len(state.unplaced):
        return None
    return (f"the cards would not add up: {_cards(len(state.unplaced))} nobody has seen, "
            f"and {slots} places for them in the hands and the stock")


def _taken_beyond(state: GameState, before: GameState, facts: Sequence[Fact]) -> str | None:
    """A move that took from a place more of some cards than could be there, the rest
    of them known to be elsewhere (four of a rank given, one of the four known in
    another hand)."""
    for fact in facts:
        if fact.least <= 0:
            continue
        most = count_range(before, fact.place, fact.cards)[1]
        if most >= fact.least or not any(
                move.source == fact.place and (move.cards is None or move.cards & fact.cards)
                for move in state.moved):
            continue
        where = "the stock" if is_stock(fact.place) else f"{state.players[fact.place]}'s hand"
        return (f"{fact.reason}, but at most {most} of those cards could be in {where}: "
                "the others are known to be elsewhere")
    return None


def _cards(count: int) -> str:
    return f"{count} {'card' if count == 1 else 'cards'}"
