"""What a refereed game says of itself as data: the verdict's ``state`` object (a hand's,
with a match's totals) and every card's possible places (``--knowledge``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.engine.core import Engine
    from referee.engine.state import GameState
    from referee.knowledge.model import Knowledge
    from referee.language.cards import Card


def describe(engine: Engine, state: GameState, sides: tuple[str, ...]) -> dict[str, Any]:
    """The verdict's ``state`` object; ``sides`` names the players or the teams."""
    result = engine.outcome(state)
    names = state.players
    described: dict[str, Any] = {
        "over": state.over,
        "turn": None if state.over else names[state.turn],
        "hands": {name: state.hand_size(seat) for seat, name in enumerate(names)},
        "sets": {side: list(state.laid[index]) for index, side in enumerate(sides)},
        "scores": {side: result.scores[index] for index, side in enumerate(sides)},
        "winners": [sides[index] for index in result.winners],
    }
    if state.stock:
        described["stock"] = len(state.stock)
    if state.void:
        described["void"] = list(state.void)
    return described


def with_match(described: dict[str, Any], sides: tuple[str, ...], totals: list[int],
               hand: int, over: bool) -> dict[str, Any]:
    """A hand's ``state`` object as a match's: its number, the match totals as scores,
    and the sides best on them as winners once the match is over."""
    described["hand"] = hand
    described["scores"] = dict(zip(sides, totals, strict=True))
    described["over"] = over
    best = max(totals)
    described["winners"] = ([side for side, total in zip(sides, totals, strict=True)
                             if total == best] if over else [])
    return described


def where_cards(state: GameState, knowledge: Knowledge | None, cards: tuple[Card, ...],
                seconds: float | None = None) -> dict[str, list[str]]:
    """Every card's possible places now: a player, ``stock``, ``centre``, ``sets``
    (laid, won or void) or ``piles`` (captured); with ``seconds``, the places the
    knowledge model did not rule out in that time."""
    names = state.players
    possible = (knowledge.possible_places(seconds)
                if knowledge is not None and knowledge.consistent else {})
    known_stock = {c for c in state.stock if c is not None}
    in_piles = {c for pile in state.piles for c in pile}
    holder = {c: seat for seat, hand in enumerate(state.hands) for c in hand}
    places: dict[str, list[str]] = {}
    for card in cards:
        if card in holder:
            found = [names[holder[card]]]
        elif card in known_stock:
            found = ["stock"]
        elif card in state.centre:
            found = ["centre"]
        elif card in in_piles:
            found = ["piles"]
        elif card in possible:
            found = list(dict.fromkeys(names[p] if p >= 0 else "stock"
                                       for p in possible[card]))
        elif card in state.unplaced:
            found = [*names, "stock"] if state.stock else list(names)
        else:
            found = ["sets"]
        places[card] = found
    return places
