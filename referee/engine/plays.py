"""Plays: a card from the hand to the centre, capturing groups that sum to its value."""

from __future__ import annotations

from referee.engine.captures import capture_choices, capture_violation
from referee.engine.facts import OUT, Fact
from referee.engine.flow import ended, give_turn, moved, take
from referee.engine.lookups import Lookups
from referee.engine.moves import Move, Play
from referee.engine.state import AFTER_STUCK, PHASE_STUCK_DRAW, GameState
from referee.errors import Kind, RefereeError


def play_violation(lk: Lookups, state: GameState, play: Play) -> RefereeError | None:
    """Why ``play`` breaks the rules whatever the hand holds, or None."""
    if not lk.spec.plays:
        return RefereeError(Kind.ILLEGAL, f"in {lk.spec.title} nobody plays cards to the centre")
    return capture_violation(lk.spec.card_values, state, play)


def play_facts(lk: Lookups, state: GameState, play: Play) -> list[Fact]:
    """Playing a card says the player held it."""
    who = state.players[play.player]
    return [Fact(play.player, frozenset((play.card,)), 1, 1, f"{who} played {play.card}",
                 lambda state: RefereeError(Kind.CONTRADICTION,
                                            f"{who} does not hold {play.card}"))]


def apply_play(lk: Lookups, state: GameState, play: Play) -> None:
    """The card and what it captures go to the player's pile, or the card to the centre;
    then the player draws or the turn passes."""
    take(state, play.player, play.card)
    moved(state, frozenset((play.card,)), play.player, OUT)
    if play.groups:
        taken = {c for group in play.groups for c in group}
        state.centre = [c for c in state.centre if c not in taken]
        state.piles[state.side(play.player)] += [play.card, *sorted(taken)]
    else:
        state.centre.append(play.card)
    if ended(lk, state):
        return
    if lk.spec.draw_after_play and state.stock:
        state.turn, state.phase = play.player, PHASE_STUCK_DRAW
        state.draw_then = AFTER_STUCK
    else:
        give_turn(lk, state, play.player + 1)


def legal_plays(lk: Lookups, state: GameState) -> list[Move]:
    """Every play the player in turn may make with the cards known in their hand."""
    if not lk.spec.plays:
        return []
    seat, values = state.turn, lk.spec.card_values
    return [Play(seat, card, groups) for card in sorted(state.hands[seat])
            for groups in capture_choices(values, state.centre, card)]
