"""Self-play's choices: a random legal move for the player who must move, drawn
without listing every legal move, with how often it prefers each kind of move.

Every rule question goes to the engine's verbs (whom a player may ask and for what,
the sets they may lay down, the open sets and teammates a claim names); only the
choosing is here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from referee.engine.captures import random_group, value_of
from referee.engine.core import Engine
from referee.engine.moves import Ask, Claim, Move, Pass, Play
from referee.engine.state import PHASE_ASK, PHASE_PASS, GameState
from referee.language.cards import Card, Rank
from referee.language.spec import LAY_DOWN_AT_ONCE

if TYPE_CHECKING:  # self-play's random source, imported only when it plays
    import random

CLAIM_CHANCE: Final = 0.05  # how often self-play claims when it could ask instead
LAY_DOWN_CHANCE: Final = 0.5  # how often self-play lays down a whole set it holds
QUESTION_CHANCE: Final = 0.2  # how often self-play asks a yes-or-no question when it may
PLAY_CHANCE: Final = 0.5  # how often self-play plays a card when it could ask instead
CAPTURE_CHANCE: Final = 0.9  # self-play takes each group it finds with this chance


def random_move(engine: Engine, state: GameState, rng: random.Random) -> Move | None:
    """A random legal move, found without listing them all: a whole set held is laid
    down half the time, a claim made now and then, and otherwise an ask drawn
    uniformly; answers, draws and sets laid at once are the forced ones."""
    if state.phase is PHASE_PASS:
        return Pass(state.turn, rng.choice(engine.pass_targets(state)))
    if state.phase is not PHASE_ASK:
        return engine.forced_move(state)
    spec = engine.spec
    lay_downs = [] if spec.lay_down is LAY_DOWN_AT_ONCE else engine.lay_downs(state)
    if lay_downs and rng.random() < LAY_DOWN_CHANCE:
        return rng.choice(lay_downs)
    items, whom = engine.ask_options(state)
    if spec.questions and whom and rng.random() < QUESTION_CHANCE:
        return rng.choice(engine.questions_to(state, rng.choice(whom)))
    can_ask = bool(items and whom)
    if spec.claims is not None and (not can_ask or rng.random() < CLAIM_CHANCE):
        return random_claim(engine, state, rng)
    if spec.plays and state.hands[state.turn] and (
            not can_ask or rng.random() < PLAY_CHANCE):
        return random_play(spec.card_values, state, rng)
    if not can_ask:
        return rng.choice(lay_downs) if lay_downs else None
    rank, card = rng.choice(items)
    return Ask(state.turn, rng.choice(whom), rank, card)


def random_claim(engine: Engine, state: GameState, rng: random.Random) -> Claim | None:
    """A legal claim as a player might make it: their own cards placed right, the
    rest with teammates drawn at random."""
    seat = state.turn
    open_sets = engine.open_sets(state)
    if engine.spec.claims is None or not open_sets:
        return None
    chosen = engine.spec.set_named(rng.choice(open_sets))
    mates = [s for s in engine.team(state, seat) if s != seat] or [seat]
    holders: dict[int, list[Card]] = {}
    for card in sorted(chosen.cards):
        owner = seat if card in state.hands[seat] else rng.choice(mates)
        holders.setdefault(owner, []).append(card)
    return Claim(seat, chosen.name, tuple((s, tuple(c)) for s, c in sorted(holders.items())))


def random_play(values: Mapping[Rank, int], state: GameState, rng: random.Random) -> Play:
    """A random play: a random card, capturing random groups one after another (each
    taken nine times in ten) while some group of the cards left sums to its value."""
    seat = state.turn
    card = rng.choice(sorted(state.hands[seat]))
    target = value_of(values, card)
    left = sorted(state.centre)
    chosen: list[tuple[Card, ...]] = []
    while (group := random_group(values, left, target, rng)) is not None:
        if rng.random() >= CAPTURE_CHANCE:
            break
        chosen.append(group)
        left = [c for c in left if c not in group]
    return Play(seat, card, tuple(chosen))
