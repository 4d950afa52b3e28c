"""Turn flow shared by every kind of move: whose turn comes next, when the game
ends, and the card bookkeeping of hands whose cards may be partly unknown."""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from referee.engine.lookups import Lookups, Onward
from referee.engine.moves import Transfer
from referee.engine.state import (
    AFTER_DEAL,
    AFTER_DRAW,
    AFTER_GIVE,
    AFTER_GO_ON,
    AFTER_STUCK,
    PHASE_ASK,
    PHASE_LAY,
    PHASE_OVER,
    PHASE_PASS,
    PHASE_STUCK_DRAW,
    PHASE_TURN_UP,
    AfterLay,
    GameState,
)
from referee.language.cards import Card
from referee.language.spec import (
    CONDITION_DRAWN_IS_CARD,
    CONDITION_DRAWN_IS_RANK,
    EMPTY_HAND_CHOSEN,
    FIRST_SEAT_DEALER,
    FIRST_SEAT_LEFT_OF_DEALER,
    FIRST_SEAT_RIGHT_OF_DEALER,
    LAY_DOWN_AT_ONCE,
    LAY_DOWN_IN_TURN,
    LAY_DOWN_WITH_CENTRE,
    PASS_TO_ASKED,
    TARGET_OPPONENT,
    WHEN_STUCK_DRAW_AND_GO_ON,
    WHEN_STUCK_DRAW_AND_PASS,
    Condition,
    GameSpec,
)

# -- cards in and out of hands ------------------------------------------------------


def take(state: GameState, seat: int, card: Card) -> None:
    """``card`` leaves ``seat``'s hand (known there, or one of its unknown cards)."""
    hand = state.hands[seat]
    if card in hand:
        hand.remove(card)
    else:
        state.unknown[seat] -= 1
        state.unplaced.discard(card)


def put(state: GameState, seat: int, card: Card) -> None:
    """``card`` joins ``seat``'s hand, known."""
    state.hands[seat].add(card)
    state.unplaced.discard(card)


def moved(state: GameState, cards: frozenset[Card] | None, source: int, target: int) -> None:
    """Note that the cards of ``cards`` at ``source`` went to ``target``, for the
    knowledge model (hidden deals only)."""
    if state.hidden:
        state.moved.append(Transfer(cards, source, target))


def reveal(state: GameState, seat: int, card: Card) -> None:
    """``card``, seen by the table, is one of ``seat``'s cards."""
    if card in state.unplaced:
        state.unplaced.discard(card)
        state.unknown[seat] -= 1
        state.hands[seat].add(card)


# -- sets ---------------------------------------------------------------------------


def win(lk: Lookups, state: GameState, side: int, set_name: str) -> None:
    """``side`` wins (a copy of) ``set_name``."""
    copies = lk.set_copies[set_name]
    last = copies == 1 or sum(name == set_name for _, name in state.laid_order) + 1 == copies
    state.finish(set_name, side, last=last)


def whole_sets(lk: Lookups, state: GameState, seat: int,
               hand: AbstractSet[Card] | None = None) -> list[str]:
    """The sets ``seat`` may lay down now if they hold ``hand`` (by default, their known
    cards): by choice in turn, or (sets laid at once) those the lay phase waits for from
    them."""
    rule = lk.lay_down
    if hand is None:
        hand = state.hands[seat]
    if rule is LAY_DOWN_WITH_CENTRE:
        reach = hand | set(state.centre)
        return [s.name for s in lk.spec.sets
                if not state.decided(s.name) and s.cards <= reach and s.cards & hand]
    if rule is LAY_DOWN_IN_TURN:
        out = state.finished
        return [s.name for s in lk.spec.sets
                if s.name not in out and len(s.cards & hand) >= s.needed]
    waited = state.laying.get(seat, ()) if state.phase is PHASE_LAY else ()
    return [s.name for s in lk.spec.sets if s.name in waited and len(s.cards & hand) >= s.needed]


# -- whose turn -----------------------------------------------------------------------


def targets(lk: Lookups, state: GameState, seat: int) -> list[int]:
    """The players ``seat`` may ask."""
    hands, unknown = state.hands, state.unknown
    if lk.target_needs_cards:
        chosen = [t for t in range(len(hands)) if t != seat and (hands[t] or unknown[t])]
    else:
        chosen = [t for t in range(len(hands)) if t != seat]
    if lk.target_rule is TARGET_OPPONENT:
        teams = state.teams
        return [t for t in chosen if teams[t] != teams[seat]]
    return chosen


def has_target(lk: Lookups, state: GameState, seat: int) -> bool:
    """Whether ``seat`` may ask anyone (:func:`targets`, mostly without listing them)."""
    hands, unknown = state.hands, state.unknown
    needs_cards = lk.target_needs_cards
    if lk.target_rule is TARGET_OPPONENT:
        teams = state.teams
        side = teams[seat]
        for t in range(len(hands)):  # not targets(): no list built per call
            if teams[t] != side and (not needs_cards or hands[t] or unknown[t]):
                return True
        return False
    if not needs_cards:
        return len(hands) > 1
    for t in range(len(hands)):  # noqa: SIM110 (a loop: no generator per call)
        if t != seat and (hands[t] or unknown[t]):
            return True
    return False


def can_play(lk: Lookups, state: GameState, seat: int) -> bool:
    """Whether ``seat`` has a move in turn: an ask, a claim, a lay-down or a play."""
    if not state.hands[seat] and not state.unknown[seat]:
        return False
    if lk.plays_or_claims or has_target(lk, state, seat):
        return True  # a question needs a target, as an ask does
    if lk.lay_down is LAY_DOWN_AT_ONCE:
        return False
    return bool(whole_sets(lk, state, seat)) or (
        state.unknown[seat] > 0 and _may_lay_unseen(lk, state, seat))


def _may_lay_unseen(lk: Lookups, state: GameState, seat: int) -> bool:
    """Whether the cards the referee cannot see may make ``seat`` a set to lay by
    choice (the cards of the centre taken with it, where the rules allow)."""
    hand, spare = state.hands[seat], state.unknown[seat]
    centre = set(state.centre) if lk.spec.lay_down is LAY_DOWN_WITH_CENTRE else set()
    for spec_set in lk.spec.sets:
        if state.decided(spec_set.name):
            continue
        wanted = spec_set.cards - centre
        needed = spec_set.needed - len(spec_set.cards & centre)
        if len(wanted & hand) + min(spare, len(wanted & state.unplaced)) >= max(needed, 1):
            return True
    return False


def first_seat(spec: GameSpec, players: int, dealer: int) -> int:
    """The seat that takes the first turn of a hand ``dealer`` dealt."""
    return {
        FIRST_SEAT_LEFT_OF_DEALER: dealer + 1,
        FIRST_SEAT_RIGHT_OF_DEALER: dealer - 1,
        FIRST_SEAT_DEALER: dealer,
    }[spec.first_seat] % players


def hand_turn(lk: Lookups, state: GameState, seat: int) -> None:
    """``seat``, who can play, has the turn. At a hidden table a seat whose only move
    would be a set laid by choice from cards nobody has seen is marked ``unsure``: the
    next event says whether they held one."""
    state.turn, state.phase = seat, PHASE_ASK
    state.unsure = seat if (
        state.hidden and state.unknown[seat] and lk.lay_down is not LAY_DOWN_AT_ONCE
        and not lk.plays_or_claims and not has_target(lk, state, seat)
        and not whole_sets(lk, state, seat)) else None


def give_turn(lk: Lookups, state: GameState, start: int) -> None:
    """Give the turn to the first seat from ``start`` clockwise who can play (not one
    that has just shown it has nothing to play: ``idle``).

    With ``a player who cannot ask: sits out``, a game in which nobody can move
    is over, whatever ``end:`` says: nothing is left to play.
    """
    count = len(state.players)
    for step in range(count):
        seat = (start + step) % count
        if seat not in state.idle and can_play(lk, state, seat):
            hand_turn(lk, state, seat)
            if lk.centre_refill > len(state.centre) and state.stock:
                state.phase = PHASE_TURN_UP
            return
        stuck = lk.when_stuck if state.stock else None
        go_on = stuck is WHEN_STUCK_DRAW_AND_GO_ON
        if stuck is WHEN_STUCK_DRAW_AND_PASS or (
                go_on and not state.hands[seat] and not state.unknown[seat]):
            state.turn, state.phase = seat, PHASE_STUCK_DRAW
            state.draw_then = AFTER_GO_ON if go_on else AFTER_STUCK
            return
    state.phase = PHASE_OVER


def ended(lk: Lookups, state: GameState) -> bool:
    """End the game if an end condition holds; say whether it did."""
    ends = lk.ends
    over = ends.all_sets and len(state.finished) == ends.sets
    if not over and not state.stock:
        over = ends.stock_empty or (ends.all_empty and not any(state.hands)
                                    and not any(state.unknown))
    if not over and ends.player_empty and not all(state.hands):  # a known hand is empty
        unknown = state.unknown
        for seat, hand in enumerate(state.hands):
            if not hand and not unknown[seat]:
                over = True
                break
    if over:
        state.phase = PHASE_OVER
    return over


def hand_emptied(lk: Lookups, state: GameState, seat: int) -> None:
    """The player in turn has no cards left: they pass the turn as the rules say."""
    if lk.empty_hand is EMPTY_HAND_CHOSEN and any(
            state.hand_size(other) for other in range(len(state.players)) if other != seat):
        state.turn, state.phase = seat, PHASE_PASS
    elif lk.when_stuck is WHEN_STUCK_DRAW_AND_GO_ON and state.stock:
        give_turn(lk, state, seat)  # the player draws and goes on
    else:
        give_turn(lk, state, seat + 1)


def after_own_play(lk: Lookups, state: GameState, seat: int) -> None:
    """After a lay-down or claim the player goes on, unless the game is over or their
    hand is empty."""
    if ended(lk, state):
        return
    if state.hand_size(seat) == 0:
        hand_emptied(lk, state, seat)
    elif can_play(lk, state, seat):
        hand_turn(lk, state, seat)
    else:
        give_turn(lk, state, seat)  # nothing left to play: the rules for a stuck player


def pass_targets(state: GameState) -> list[int]:
    """Whom the player in turn, whose hand is empty, may pass the turn to."""
    seat, count = state.turn, len(state.players)
    holding = [s for s in range(count) if s != seat and state.hand_size(s) > 0]
    mates = [s for s in holding if state.side(s) == state.side(seat)]
    return mates or holding


def continue_after(lk: Lookups, state: GameState, then: Onward) -> None:
    """Once an ask is answered (and any draw made), the asker goes on or the turn passes."""
    ask = state.asking
    assert ask is not None
    state.phase = PHASE_ASK
    if ended(lk, state):
        return
    if then.ask_again and (then.condition is None or condition_holds(lk, state, then.condition)):
        asker = ask.player
        if state.hand_size(asker) == 0:
            hand_emptied(lk, state, asker)
        elif can_play(lk, state, asker):
            hand_turn(lk, state, asker)
        else:
            give_turn(lk, state, asker)
        return
    give_turn(lk, state, ask.target if then.pass_to is PASS_TO_ASKED else ask.player + 1)


def condition_holds(lk: Lookups, state: GameState, condition: Condition) -> bool:
    """Whether this ask earned another: the card drawn, or the set completed."""
    ask = state.asking
    assert ask is not None
    if condition is CONDITION_DRAWN_IS_CARD:
        return state.drawn is not None and state.drawn == ask.card
    if condition is CONDITION_DRAWN_IS_RANK:
        return state.drawn is not None and lk.rank[state.drawn] == ask.rank
    if ask.card is not None:
        return lk.set_name[ask.card] in state.completed
    return any(lk.rank[c] == ask.rank for name in state.completed for c in lk.set_cards[name])


def resume(lk: Lookups, state: GameState, after: AfterLay) -> None:
    """Go on as the move that completed sets would have, once they are laid."""
    spec = lk.spec
    if after is AFTER_GIVE:
        continue_after(lk, state, lk.given_then)
    elif after is AFTER_DRAW:
        continue_after(lk, state, lk.refused_then)
    elif not ended(lk, state):
        if after is AFTER_DEAL:
            start = first_seat(spec, len(state.players), state.dealer)
        else:
            start = state.turn if after is AFTER_GO_ON else state.turn + 1
        give_turn(lk, state, start)
