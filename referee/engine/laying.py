"""Laying sets down: at once, as soon as a move completes them, or by choice in turn.

Sets laid at once are moves of their own. A move that brings cards into a hand
opens the ``lay`` phase for that hand; the phase lasts while the known cards
show a whole set to lay, or (hidden deals) while they cannot tell. It ends with
:class:`~referee.engine.moves.EndLaying`, which says that nobody held a whole set left
unlaid, and the game goes on as the move that opened it would have.
"""

from __future__ import annotations

from collections.abc import Callable

from referee.engine import refills
from referee.engine.facts import OUT, UNBOUNDED, Fact
from referee.engine.flow import after_own_play, give_turn, moved, resume, take, whole_sets, win
from referee.engine.lookups import Lookups
from referee.engine.moves import EndLaying, LayDown
from referee.engine.state import AFTER_DEAL, PHASE_LAY, AfterLay, GameState
from referee.errors import Kind, RefereeError
from referee.language.cards import Card
from referee.language.spec import LAY_DOWN_AT_ONCE, LAY_DOWN_WITH_CENTRE


def open_laying(
    lk: Lookups, state: GameState, sets_by_seat: dict[int, frozenset[str]], after: AfterLay
) -> None:
    """Cards came into these hands, perhaps completing these sets; lay what is whole,
    then go on as ``after`` says."""
    if not state.unplaced and not any(  # every card known, and no set whole: go on
            _holds_whole(lk, state.hands[seat], names) for seat, names in sets_by_seat.items()):
        state.laying = {}
        resume(lk, state, after)
        return
    state.laying = {seat: frozenset(s for s in names if not state.decided(s))
                    for seat, names in sets_by_seat.items()}
    state.after_lay = after
    state.phase = PHASE_LAY
    if sets_by_seat:
        state.turn = next(iter(sets_by_seat))
    settle(lk, state)


def open_laying_of(lk: Lookups, state: GameState, seat: int, names: frozenset[str],
                   after: AfterLay) -> None:
    """:func:`open_laying` for the sets of one hand that a draw or a give touched, with
    no map built in the usual case: every card known and no set whole."""
    if not state.unplaced and not _holds_whole(lk, state.hands[seat], names):
        state.laying = {}
        resume(lk, state, after)
    else:
        open_laying(lk, state, {seat: names}, after)


def _holds_whole(lk: Lookups, hand: set[Card], names: frozenset[str]) -> bool:
    """Whether ``hand`` holds one of these sets whole (a copy's worth of its cards)."""
    for name in names:  # noqa: SIM110 - a loop, not any(): no generator on every draw
        if len(lk.set_cards[name] & hand) >= lk.set_needed[name]:
            return True
    return False


def settle(lk: Lookups, state: GameState) -> None:
    """Forget the sets the known cards show are not whole; once none is left to look
    at, end the lay phase."""
    for seat, names in list(state.laying.items()):
        kept = frozenset(n for n in names
                         if _may_be_whole(state, seat, lk.set_cards[n], lk.set_needed[n]))
        if not kept:
            del state.laying[seat]
        elif len(kept) < len(names):  # else the same sets: the state (and each undo mark
            state.laying[seat] = kept  # that copied it) keeps sharing the one frozenset
    if not state.laying and not state.refill_open:
        resume(lk, state, state.after_lay)


def _may_be_whole(state: GameState, seat: int, members: frozenset[Card], needed: int) -> bool:
    """Whether the known cards leave it possible that ``seat`` holds ``needed`` of
    ``members`` (all of them, for a whole set)."""
    held = len(members & state.hands[seat])
    if held >= needed:
        return True
    spare = state.unknown[seat]
    return bool(spare) and held + min(spare, len(members & state.unplaced)) >= needed


def known_whole_set(lk: Lookups, state: GameState) -> LayDown | None:
    """A set the known cards show whole in a hand that must lay it down now."""
    for seat, names in state.laying.items():
        for name in sorted(names, key=lk.set_position.__getitem__):
            held = lk.set_cards[name] & state.hands[seat]
            needed = lk.set_needed[name]
            if len(held) >= needed:
                cards = tuple(lk.in_deck_order(held)[:needed]) if name in lk.partial else ()
                return LayDown(seat, name, cards)
    return None


def forced_laying(lk: Lookups, state: GameState) -> LayDown | EndLaying:
    """The move due in the lay phase: a whole set the referee can see (open deals), or
    else the end of laying."""
    if not state.hidden:
        found = known_whole_set(lk, state)
        if found is not None:
            return found
    return EndLaying(next(iter(state.laying), state.turn))


def lay_down_violation(lk: Lookups, state: GameState, move: LayDown) -> RefereeError | None:
    """Why ``move`` breaks the rules whatever the cards, or None."""
    who = state.players[move.player]
    problem = _cards_violation(lk, state, move)
    if problem is not None:
        return problem
    if lk.lay_down is LAY_DOWN_AT_ONCE:
        if state.decided(move.set_name):
            return RefereeError(Kind.CONTRADICTION, f"{who} has not just completed the set "
                                f"{move.set_name}: {_decided_by(state, move.set_name)}")
        return None
    if state.decided(move.set_name):
        return RefereeError(Kind.ILLEGAL, f"{move.set_name} is already out of play")
    if lk.lay_down is LAY_DOWN_WITH_CENTRE and lk.set_cards[move.set_name] <= set(
            state.centre):
        return RefereeError(Kind.ILLEGAL, f"{who} holds no card of {move.set_name}; a set "
                            "is taken with at least one card from the hand")
    return None


def _cards_violation(lk: Lookups, state: GameState, move: LayDown) -> RefereeError | None:
    """The cards a lay-down names: those of one copy of a set of part of a rank."""
    name = move.set_name
    if name not in lk.partial:
        return None if not move.cards else RefereeError(
            Kind.ILLEGAL, f"{name} is laid down whole: 'books {name}'")
    needed = lk.set_needed[name]
    if not move.cards:
        if state.hidden:
            return RefereeError(Kind.ILLEGAL, f"a {name} set is any {needed} of its cards: "
                                f"name the cards laid down ('books {name}S {name}H')")
        return None
    stray = [c for c in move.cards if c not in lk.set_cards[name]]
    if stray or len(set(move.cards)) != needed or len(move.cards) != needed:
        return RefereeError(Kind.ILLEGAL, f"a {name} set is {needed} cards of {name}, "
                            f"not {' '.join(move.cards)}")
    return None


def _decided_by(state: GameState, set_name: str) -> str:
    holders = [side for side, name in state.laid_order if name == set_name]
    if not holders:
        return "it is void"
    if state.teams:
        return "it was won earlier"
    return f"{state.players[holders[0]]} won it earlier"


def lay_down_facts(lk: Lookups, state: GameState, move: LayDown) -> list[Fact]:
    """What laying down ``move``'s set says of the player's hand."""
    who = state.players[move.player]
    name = move.set_name
    members = lk.set_cards[name]
    if move.cards:  # a set of part of a rank, its cards named
        laid = frozenset(move.cards)
        seat = move.player
        return [Fact(seat, laid, len(laid), len(laid),
                     f"{who} laid down {lk.listed(laid)}, so {who} held them",
                     lambda state: RefereeError(
                         Kind.CONTRADICTION, f"{who} does not hold "
                         f"{lk.listed(laid - state.hands[seat])}"))]
    if name in lk.partial:  # an open table: the referee takes the cards the hand holds
        count = lk.set_needed[name]
        return [Fact(move.player, members, count, UNBOUNDED,
                     f"{who} laid down a {name} set, so {who} held {count} of it",
                     lambda state: RefereeError(
                         Kind.CONTRADICTION, f"{who} holds fewer than {count} of {name}"))]
    if lk.lay_down is LAY_DOWN_AT_ONCE:
        return [Fact(move.player, members, len(members), len(members),
                     f"{who} laid down {name}, so {who} held all of it",
                     lambda state: RefereeError(
                         Kind.CONTRADICTION,
                         f"{who} has not just completed the set {name}: {who} does not hold "
                         "all of it"))]
    seat = move.player
    if lk.lay_down is LAY_DOWN_WITH_CENTRE:
        needed = members - set(state.centre)
        return [
            Fact(move.player, needed, 1, len(needed),
                 f"{who} took {name}, so {who} held a card of it",
                 lambda state: RefereeError(Kind.ILLEGAL, f"{who} holds no card of {name}; "
                                            "a set is taken with at least one card from the hand")),
            Fact(move.player, needed, len(needed), len(needed),
                 f"{who} took {name}{' with the centre' if needed != members else ''}, so "
                 f"{who} held {lk.listed(needed)}",
                 lambda state: RefereeError(
                     Kind.CONTRADICTION, f"neither {who}'s hand nor the centre holds "
                     f"{lk.listed(needed - state.hands[seat])} of {name}")),
        ]
    return [Fact(move.player, members, len(members), len(members),
                 f"{who} laid down {name}, so {who} held all of it",
                 lambda state: RefereeError(
                     Kind.CONTRADICTION, f"{who} does not hold all of {name}: "
                     f"{lk.listed(members - state.hands[seat])} missing"))]


def end_laying_facts(lk: Lookups, state: GameState) -> list[Fact]:
    """Ending the lay phase says that no hand in it held a whole set left unlaid."""
    return [_not_whole(lk, state, seat, name)
            for seat, names in state.laying.items() for name in sorted(names)]


def _not_whole(lk: Lookups, state: GameState, seat: int, name: str) -> Fact:
    who = state.players[seat]
    members = lk.set_cards[name]
    needed = lk.set_needed[name]
    held = f"{needed} of it" if name in lk.partial else "all of it"
    return Fact(seat, members, 0, needed - 1,
                f"{who} did not lay down {name} at once, so {who} did not hold {held}",
                lambda state: RefereeError(
                    Kind.CONTRADICTION, f"{who} holds all of {name}, and a whole set is laid "
                    f"down at once: '{who} books {name}'"))


def nothing_laid_facts(lk: Lookups, state: GameState, seat: int) -> list[Fact]:
    """A player who could not ask and laid no set held none whole (the centre's cards
    taken with it, where the rules allow)."""
    who = state.players[seat]
    centre = set(state.centre) if lk.lay_down is LAY_DOWN_WITH_CENTRE else set()
    facts = []
    for name in sorted(lk.set_cards):
        if state.decided(name):
            continue
        wanted = lk.set_cards[name] - centre
        needed = lk.set_needed[name] - len(lk.set_cards[name] & centre)
        if not wanted or needed < 1:
            continue
        facts.append(Fact(
            seat, wanted, 0, needed - 1,
            f"{who} could not ask and laid down no set, so {who} did not hold "
            f"{'all of ' if needed == len(wanted) else f'{needed} of '}{name}",
            _whole_unlaid(who, name)))
    return facts


def _whole_unlaid(who: str, name: str) -> Callable[[GameState], RefereeError]:
    return lambda state: RefereeError(
        Kind.CONTRADICTION, f"{who} cannot ask but holds {name} whole: the turn is "
        f"{who}'s, to lay it down ('{who} books {name}')")


def apply_nothing_laid(lk: Lookups, state: GameState, seat: int) -> None:
    """The seat had nothing to play: the rules for a player who cannot ask apply."""
    state.unsure = None
    state.idle = state.idle | {seat}
    give_turn(lk, state, seat)


def laid_cards(lk: Lookups, state: GameState, move: LayDown) -> frozenset[Card]:
    """The cards a lay-down takes: those it names, or (a set of part of a rank, at an
    open table) the first it needs of those the hand holds, or else the whole set."""
    if move.cards:
        return frozenset(move.cards)
    members = lk.set_cards[move.set_name]
    if move.set_name in lk.partial:
        held = lk.in_deck_order(members & state.hands[move.player])
        return frozenset(held[:lk.set_needed[move.set_name]])
    return members


def apply_lay_down(lk: Lookups, state: GameState, move: LayDown) -> None:
    """Lay the set down (with cards of the centre, where the rules allow)."""
    members = laid_cards(lk, state, move)
    seat = move.player
    from_hand = members - set(state.centre)
    for card in from_hand:
        take(state, seat, card)
    if len(from_hand) < len(members):
        state.centre = [c for c in state.centre if c not in members]
    moved(state, members, seat, OUT)
    win(lk, state, state.side(seat), move.set_name)
    if lk.lay_down is not LAY_DOWN_AT_ONCE:
        after_own_play(lk, state, seat)
        return
    state.completed.append(move.set_name)
    if state.phase is PHASE_LAY and seat in state.laying:
        if state.decided(move.set_name):
            state.laying[seat] = state.laying[seat] - {move.set_name}
        if state.after_lay is AFTER_DEAL:
            refills.after_lay_from_deal(lk, state, seat, move.set_name, members)
        settle(lk, state)


def apply_end_laying(lk: Lookups, state: GameState) -> None:
    """Nobody lays more sets now: go on."""
    state.laying = {}
    state.refill_open = ()
    resume(lk, state, state.after_lay)


def legal_lay_downs(lk: Lookups, state: GameState) -> list[LayDown]:
    """The lay-downs by choice the player in turn may make (a set of part of a rank
    names the first cards of it the hand holds)."""
    seat = state.turn
    moves = []
    for name in whole_sets(lk, state, seat):
        cards: tuple[Card, ...] = ()
        if name in lk.partial:
            held = lk.in_deck_order(lk.set_cards[name] & state.hands[seat])
            cards = tuple(held[:lk.set_needed[name]])
        moves.append(LayDown(seat, name, cards))
    return moves
