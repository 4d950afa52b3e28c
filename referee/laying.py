"""Laying sets down: at once, as soon as a move completes them, or by choice in turn.

Sets laid at once are moves of their own. A move that brings cards into a hand
opens the ``lay`` phase for that hand; the phase lasts while the known cards
show a whole set to lay, or (hidden deals) while they cannot tell. It ends with
:class:`~referee.moves.EndLaying`, which says that nobody held a whole set left
unlaid, and the game goes on as the move that opened it would have.
"""

from __future__ import annotations

from referee.cards import Card
from referee.errors import Kind, RefereeError
from referee.facts import OUT, Fact
from referee.flow import after_own_play, moved, resume, take, whole_sets, win
from referee.lookups import Lookups
from referee.moves import EndLaying, LayDown
from referee.spec import LayDown as LayDownRule
from referee.state import AfterLay, GameState, Phase


def open_laying(
    lk: Lookups, state: GameState, sets_by_seat: dict[int, frozenset[str]], after: AfterLay
) -> None:
    """Cards came into these hands, perhaps completing these sets; lay what is whole,
    then go on as ``after`` says."""
    if not state.unplaced and not any(  # every card known, and no set whole: go on
            lk.set_cards[name] <= state.hands[seat]
            for seat, names in sets_by_seat.items() for name in names):
        state.laying = {}
        resume(lk, state, after)
        return
    state.laying = {seat: frozenset(s for s in names if not state.decided(s))
                    for seat, names in sets_by_seat.items()}
    state.after_lay = after
    state.phase = Phase.LAY
    if sets_by_seat:
        state.turn = next(iter(sets_by_seat))
    settle(lk, state)


def settle(lk: Lookups, state: GameState) -> None:
    """Forget the sets the known cards show are not whole; once none is left to look
    at, end the lay phase."""
    for seat, names in list(state.laying.items()):
        kept = frozenset(n for n in names if _may_be_whole(state, seat, lk.set_cards[n]))
        if kept:
            state.laying[seat] = kept
        else:
            del state.laying[seat]
    if not state.laying:
        resume(lk, state, state.after_lay)


def _may_be_whole(state: GameState, seat: int, members: frozenset[Card]) -> bool:
    """Whether the known cards leave it possible that ``seat`` holds all of ``members``."""
    held = len(members & state.hands[seat])
    if held == len(members):
        return True
    spare = state.unknown[seat]
    return bool(spare) and held + min(spare, len(members & state.unplaced)) >= len(members)


def known_whole_set(lk: Lookups, state: GameState) -> LayDown | None:
    """A set the known cards show whole in a hand that must lay it down now."""
    for seat, names in state.laying.items():
        for name in sorted(names, key=lambda n: min(lk.position[c] for c in lk.set_cards[n])):
            if lk.set_cards[name] <= state.hands[seat]:
                return LayDown(seat, name)
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
    spec = lk.spec
    who = state.players[move.player]
    if spec.lay_down is LayDownRule.AT_ONCE:
        if state.decided(move.set_name):
            return RefereeError(Kind.CONTRADICTION, f"{who} has not just completed the set "
                                f"{move.set_name}: {_decided_by(state, move.set_name)}")
        return None
    if state.decided(move.set_name):
        return RefereeError(Kind.ILLEGAL, f"{move.set_name} is already out of play")
    if spec.lay_down is LayDownRule.WITH_CENTRE and lk.set_cards[move.set_name] <= set(
            state.centre):
        return RefereeError(Kind.ILLEGAL, f"{who} holds no card of {move.set_name}; a set "
                            "is taken with at least one card from the hand")
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
    spec = lk.spec
    who = state.players[move.player]
    name = move.set_name
    members = lk.set_cards[name]
    if spec.lay_down is LayDownRule.AT_ONCE:
        return [Fact(move.player, members, len(members), len(members),
                     f"{who} laid down {name}, so {who} held all of it",
                     lambda state: RefereeError(
                         Kind.CONTRADICTION,
                         f"{who} has not just completed the set {name}: {who} does not hold "
                         "all of it"))]
    seat = move.player
    if spec.lay_down is LayDownRule.WITH_CENTRE:
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
    return Fact(seat, members, 0, len(members) - 1,
                f"{who} did not lay down {name} at once, so {who} did not hold all of it",
                lambda state: RefereeError(
                    Kind.CONTRADICTION, f"{who} holds all of {name}, and a whole set is laid "
                    f"down at once: '{who} books {name}'"))


def apply_lay_down(lk: Lookups, state: GameState, move: LayDown) -> None:
    """Lay the set down (with cards of the centre, where the rules allow)."""
    members = lk.set_cards[move.set_name]
    seat = move.player
    from_hand = members - set(state.centre)
    for card in from_hand:
        take(state, seat, card)
    if len(from_hand) < len(members):
        state.centre = [c for c in state.centre if c not in members]
    moved(state, members, seat, OUT)
    win(state, state.side(seat), move.set_name)
    if lk.spec.lay_down is not LayDownRule.AT_ONCE:
        after_own_play(lk, state, seat)
        return
    state.completed.append(move.set_name)
    if state.phase is Phase.LAY and seat in state.laying:
        state.laying[seat] = state.laying[seat] - {move.set_name}
        settle(lk, state)


def apply_end_laying(lk: Lookups, state: GameState) -> None:
    """Nobody lays more sets now: go on."""
    state.laying = {}
    resume(lk, state, state.after_lay)


def legal_lay_downs(lk: Lookups, state: GameState) -> list[LayDown]:
    """The lay-downs by choice the player in turn may make."""
    return [LayDown(state.turn, name) for name in whole_sets(lk, state, state.turn)]
