"""Draws from the stock, and cards turned up from it to fill the centre."""

from __future__ import annotations

from typing import Final

from referee.engine import refills
from referee.engine.facts import OUT, Fact, stock_place
from referee.engine.flow import moved, put, resume
from referee.engine.laying import open_laying_of
from referee.engine.lookups import Lookups
from referee.engine.moves import Draw, TurnUp
from referee.engine.state import (
    AFTER_DRAW,
    PHASE_ASK,
    PHASE_DRAW,
    PHASE_LAY,
    PHASE_STUCK_DRAW,
    PHASE_TURN_UP,
    GameState,
)
from referee.errors import Kind, RefereeError
from referee.language.cards import Card
from referee.language.spec import CONDITION_DRAWN_IS_CARD, CONDITION_DRAWN_IS_RANK
from referee.words import counted

DRAWING: Final = (PHASE_DRAW, PHASE_STUCK_DRAW)


def draw_violation(lk: Lookups, state: GameState, draw: Draw) -> RefereeError | None:
    """Why ``draw`` breaks the rules whatever the stock holds, or None."""
    if state.phase is PHASE_LAY:
        return refills.draw_violation(lk, state, draw)  # the dealer's replacements
    name = state.players
    if state.phase not in DRAWING:
        return RefereeError(Kind.ILLEGAL, f"{name[draw.player]} has no reason to draw now")
    if draw.player != state.turn:
        return RefereeError(Kind.TURN, f"{name[state.turn]} draws now, not {name[draw.player]}")
    if not state.stock:
        return RefereeError(Kind.ILLEGAL, "the stock is empty")
    return None


def shown_on_draw(lk: Lookups, state: GameState) -> frozenset[Card]:
    """The cards a draw after a refusal must show: those that earn another ask."""
    ask = state.asking
    condition = lk.refused_then.condition
    if state.phase is not PHASE_DRAW or ask is None:
        return frozenset()
    if condition is CONDITION_DRAWN_IS_CARD and ask.card is not None:
        return frozenset((ask.card,))
    if condition is CONDITION_DRAWN_IS_RANK:
        return lk.cards_of_rank[ask.rank]
    return frozenset()


def draw_facts(lk: Lookups, state: GameState, draw: Draw) -> list[Fact]:
    """A named draw says which card was on top; at a hidden table, a draw not shown says
    that the card was not one that must be shown."""
    place = stock_place(state.stock_taken)
    who = state.players[draw.player]
    top = state.stock[-1] if state.stock else None
    if draw.card is not None:
        card = draw.card
        return [Fact(place, frozenset((card,)), 1, 1, f"{who} drew {card}",
                     lambda state: RefereeError(Kind.CONTRADICTION, f"the top card of the "
                                                f"stock is {top}, not {card}"))]
    shown = shown_on_draw(lk, state) if state.hidden else frozenset()
    if not shown:
        return []
    ask = state.asking
    assert ask is not None
    wanted = ask.card or ask.rank
    return [Fact(place, shown, 0, 0,
                 f"{who} drew without showing the card, so it was not {wanted}",
                 lambda state: RefereeError(Kind.CONTRADICTION, f"{who} drew {top}, which is "
                                            f"shown as the ask was for {wanted}: '{who} draws "
                                            f"{top}'"))]


def apply_draw(lk: Lookups, state: GameState, draw: Draw) -> None:
    """The top card goes to the drawer; sets it completes are laid; the turn goes on."""
    if state.phase is PHASE_LAY:
        refills.apply_draw(lk, state, draw)  # the dealer's replacements
        return
    seat = draw.player
    after = AFTER_DRAW if state.phase is PHASE_DRAW else state.draw_then
    top = state.stock.pop()
    if state.hidden:
        moved(state, None, stock_place(state.stock_taken), seat)
    state.stock_taken += 1
    card = draw.card or top
    if card is None:
        state.unknown[seat] += 1
    else:
        put(state, seat, card)
    if after is AFTER_DRAW:
        state.drawn = card
    state.turn = seat
    if lk.lay_at_once:
        touched = (lk.sets_of_card.get(card, frozenset()) if card is not None else
                   frozenset(lk.set_name[c] for c in state.unplaced if c in lk.set_name))
        open_laying_of(lk, state, seat, touched, after)
    else:
        resume(lk, state, after)


def due_turn_up(lk: Lookups, state: GameState) -> int:
    """How many cards the stock turns up to fill the centre now."""
    return min(lk.centre_refill - len(state.centre), len(state.stock))


def forced_turn_up(lk: Lookups, state: GameState) -> TurnUp | None:
    """The cards turned up, when the referee knows them and the table is not hidden."""
    cards = state.stock[len(state.stock) - due_turn_up(lk, state):]
    if state.hidden or any(c is None for c in cards):
        return None
    return TurnUp(state.turn, tuple(c for c in reversed(cards) if c is not None))


def turn_up_violation(lk: Lookups, state: GameState, move: TurnUp) -> RefereeError | None:
    """Why ``move`` breaks the rules whatever the stock holds, or None."""
    if state.phase is not PHASE_TURN_UP:
        if lk.centre_refill and len(state.centre) >= lk.centre_refill:
            return RefereeError(Kind.ILLEGAL, f"the centre holds {len(state.centre)} "
                                "cards, so nothing is turned up")
        return RefereeError(Kind.ILLEGAL, "no cards are turned up now")
    due = due_turn_up(lk, state)
    if len(move.cards) != due:
        return RefereeError(Kind.ILLEGAL, f"the stock turns up {counted(due, 'card')} to fill "
                            f"the centre, not {len(move.cards)}")
    if len(set(move.cards)) != len(move.cards):
        return RefereeError(Kind.ILLEGAL, "a card is turned up twice")
    return None


def turn_up_facts(lk: Lookups, state: GameState, move: TurnUp) -> list[Fact]:
    """The cards turned up were the top cards of the stock, in order."""
    shown = " ".join(move.cards)

    def wrong(state: GameState) -> RefereeError:
        known = state.stock[len(state.stock) - len(move.cards):]
        return RefereeError(Kind.CONTRADICTION, f"the stock turns up "
                            f"{' '.join(str(c) for c in reversed(known))}, not {shown}")

    return [Fact(stock_place(state.stock_taken + i), frozenset((card,)), 1, 1,
                 f"the stock turned up {card}", wrong) for i, card in enumerate(move.cards)]


def apply_turn_up(state: GameState, move: TurnUp) -> None:
    """The cards leave the stock for the centre."""
    for card in move.cards:
        state.stock.pop()
        moved(state, None, stock_place(state.stock_taken), OUT)
        state.stock_taken += 1
        state.unplaced.discard(card)
        state.centre.append(card)
    state.phase = PHASE_ASK
