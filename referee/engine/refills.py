"""Sets laid from the deal replaced from the stock (``sets laid from the deal: ...``).

At an open table the referee deals the replacement cards itself. Where the rules
spare a set that the deal's last card completed, a hidden table cannot see which
card came last; there the dealer draws the replacements in the open ('Dee draws'),
or does not, and the referee checks that the count fits one reading or the other.
"""

from __future__ import annotations

from referee.engine.facts import stock_place
from referee.engine.flow import moved, put
from referee.engine.lookups import Lookups
from referee.engine.moves import Draw
from referee.engine.state import GameState
from referee.errors import Kind, RefereeError
from referee.language.cards import Card


def after_lay_from_deal(lk: Lookups, state: GameState, seat: int, set_name: str,
                        laid: frozenset[Card]) -> None:
    """``seat`` has laid the ``laid`` cards of ``set_name`` from the deal: replace
    them, as the rules say."""
    spec = lk.spec
    if not spec.refill_deal:
        return
    last = state.deal_last
    if spec.refill_not_last and seat == state.dealer:
        if last is None:  # a hidden deal: the dealer's draws will say
            state.refill_open = (*state.refill_open, set_name)
            return
        if last in laid:
            return  # the deal's last card completed it: not replaced
        if last not in state.hands[seat]:  # that set was laid before: it stays short
            _deal_up_to(lk, state, seat, dealt(lk, state, seat)
                        - lk.set_needed[lk.set_name[last]])
            return
    _deal_up_to(lk, state, seat, dealt(lk, state, seat))


def dealt(lk: Lookups, state: GameState, seat: int) -> int:
    """How many cards ``seat`` was dealt."""
    return lk.spec.hand_sizes(len(state.players), state.dealer)[seat]


def replacements_due(lk: Lookups, state: GameState) -> bool:
    """Whether the dealer may still draw cards that replace sets laid from a hidden deal."""
    return bool(state.refill_open) and state.hand_size(state.dealer) < dealt(
        lk, state, state.dealer)


def _deal_up_to(lk: Lookups, state: GameState, seat: int, size: int) -> None:
    while state.stock and state.hand_size(seat) < size:
        _take_top(lk, state, seat, None)


def _take_top(lk: Lookups, state: GameState, seat: int, named: Card | None) -> None:
    """The top card of the stock goes to ``seat``, and the sets it may complete are
    looked at in the lay phase."""
    top = state.stock.pop()
    moved(state, None, stock_place(state.stock_taken), seat)
    state.stock_taken += 1
    card = named or top
    if card is None:
        state.unknown[seat] += 1
        touched = {lk.set_name[c] for c in state.unplaced if c in lk.set_name}
    else:
        put(state, seat, card)
        touched = {lk.set_name[card]} if card in lk.set_name else set()
    state.laying[seat] = state.laying.get(seat, frozenset()) | frozenset(
        name for name in touched if not state.decided(name))


def draw_violation(lk: Lookups, state: GameState, draw: Draw) -> RefereeError | None:
    """Why the dealer's draw in the lay phase of a hidden deal is not a replacement."""
    name = state.players
    if not state.refill_open or draw.player != state.dealer:
        why = (" (the cards that replace a set laid from the deal are counted by the "
               "referee, not written)" if lk.spec.refill_deal else "")
        return RefereeError(Kind.ILLEGAL, f"{name[draw.player]} has no reason to draw now{why}")
    size = dealt(lk, state, draw.player)
    if state.hand_size(draw.player) >= size:
        return RefereeError(Kind.ILLEGAL, f"{name[draw.player]} already holds the {size} "
                            "cards dealt")
    if not state.stock:
        return RefereeError(Kind.ILLEGAL, "the stock is empty")
    return None


def apply_draw(lk: Lookups, state: GameState, draw: Draw) -> None:
    """The dealer draws one card to replace a set laid from the deal."""
    _take_top(lk, state, draw.player, draw.card)


def closing_violation(lk: Lookups, state: GameState) -> RefereeError | None:
    """Once the lay phase of a hidden deal ends, the dealer's replacements must fill the
    hand, or leave out just the set the deal's last card completed."""
    if not state.refill_open:
        return None
    seat = state.dealer
    size = dealt(lk, state, seat)
    held = state.hand_size(seat)
    fitting = {size} | {size - lk.set_needed[name] for name in state.refill_open}
    if held in fitting or (not state.stock and held < max(fitting)):
        return None
    who = state.players[seat]
    wanted = " or ".join(str(n) for n in sorted(fitting, reverse=True))
    return RefereeError(Kind.ILLEGAL, f"{who} laid {', '.join(state.refill_open)} from the "
                        f"deal, so {who} draws until holding {wanted} cards (the fewer when "
                        f"the deal's last card completed a set); {who} holds {held}")
