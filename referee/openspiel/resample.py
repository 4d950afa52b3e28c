"""``resample_from_infostate``: a deal a seat cannot tell from the true one, drawn from
the knowledge model's witness deals.

The seat's chair is replayed as a hidden table (referee/knowledge/model.py): its own
hand given, every move as the seat saw it (as the table saw it, with the seat's own
draws and the cards handed to it in full). The model keeps a witness, a deal that
explains every event; each sample walks from it by random swaps that keep every
constraint met (``Witness.wander``), a walk whose proposals are symmetric, so that in
the long run every deal it can reach is equally likely. The sample is then dealt
and every token the players chose is played again on it; a deal on which some token
is not legal, or where the seat would have seen something else (a choice the engine
makes for a player, such as which pair of three is laid at once, says more than the
facts the model is given), is walked from again.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from referee.engine.core import Engine
from referee.engine.facts import Fact, decide, stock_place
from referee.engine.moves import EndLaying, Move, NothingLaid
from referee.engine.state import PHASE_LAY
from referee.errors import RefereeError
from referee.knowledge.model import Given, Knowledge
from referee.language.cards import Card
from referee.openspiel.observe import information_state, replay_start
from referee.openspiel.seen import as_seen_by

if TYPE_CHECKING:
    from referee.engine.state import GameState
    from referee.openspiel.game import RefereeState

WALK_PER_CARD = 2  # swaps tried per card between two samples
ATTEMPTS = 20  # walks tried before giving up on a deal every chosen token fits


def seat_knowledge(state: RefereeState, seat: int) -> Knowledge:
    """What ``seat`` can know of the deal: its hand given, every move as it saw it."""
    game = state.referee_game
    engine = game.engine
    hands, stock, centre = state.p.dealt
    own = tuple(hands[seat])
    hidden = engine.start(game.names, game.dealer,
                          [own if s == seat else None for s in range(len(game.names))],
                          [None] * len(stock), centre=centre, hidden=True)
    face_down = [c for c in game.spec.cards if c not in centre]
    sizes = [len(hand) for hand in hands]
    model = Knowledge(face_down, sizes, len(stock),
                      [Given(0, Fact(seat, frozenset(own), len(own), len(own),
                                     "the seat's own hand", _never))])
    true = replay_start(state)
    for line, move in enumerate(state.p.moves, start=1):
        seen = ([move] if isinstance(move, EndLaying | NothingLaid)
                else as_seen_by(engine, true, move, seat))
        for shown in seen:
            _fill_forced(engine, hidden, model, line, shown)
            _play(engine, hidden, model, line, shown)
        engine.apply(true, move)
    _fill_forced(engine, hidden, model, len(state.p.moves) + 1, None)
    return model


def _play(engine: Engine, hidden: GameState, model: Knowledge, line: int, move: Move) -> None:
    """One move at the hidden table: its facts to the model, then the move."""
    facts = [f for f in engine.facts(hidden, move) if decide(hidden, f) is not True]
    model.add(line, facts)
    engine.apply(hidden, move)
    model.moved(hidden.moved)
    model.seal()


def _fill_forced(engine: Engine, hidden: GameState, model: Knowledge, line: int,
                 coming: Move | None) -> None:
    """Play what the hidden table infers before ``coming`` (None: before the next
    choice): that no set more was laid at once, as the session does."""
    for _ in range(4 * len(engine.spec.cards) + 8):
        if coming is not None and engine.rule_violation(hidden, coming) is None:
            return
        if coming is None and hidden.phase is not PHASE_LAY and hidden.unsure is None:
            return
        forced = engine.forced_move(hidden)
        if forced is None:
            return
        _play(engine, hidden, model, line, forced)


def _never(state: GameState) -> RefereeError:
    raise AssertionError("the seat's own hand is true of the deal")


@dataclass(slots=True)
class ResampleCounts:
    """How ``resample_from_infostate`` went, over a game object's life: calls, deals
    walked to, deals rejected on replay, and fallbacks (no new deal fitted within
    ``ATTEMPTS`` walks: the call returned the seat's last sample at that state, or,
    with none yet, the true state)."""

    calls: int = 0
    walks: int = 0
    rejected: int = 0
    repeated: int = 0
    true_state: int = 0

    @property
    def fallbacks(self) -> int:
        """Calls that returned no new deal."""
        return self.repeated + self.true_state


@dataclass(slots=True)
class SeatSampler:
    """A seat's sampling at one state: its knowledge model and its last sample."""

    knowledge: Knowledge
    last: RefereeState | None = None


def resample(state: RefereeState, seat: int, rng: random.Random) -> RefereeState:
    """A state ``seat`` cannot tell from ``state``, its deal drawn from the deals that
    explain everything the seat saw."""
    if state.p.state is None:  # still dealing: the seat knows only its own cards dealt
        return _redealt(state, seat, rng)
    counts = state.referee_game.resample_counts
    counts.calls += 1
    sampler = state.p.witness_cache.get(seat)
    if sampler is None:
        sampler = state.p.witness_cache[seat] = SeatSampler(seat_knowledge(state, seat))
    witness = sampler.knowledge.witness
    witness.rng = rng
    hands, stock, centre = state.p.dealt
    seen = information_state(state, seat)
    for _ in range(ATTEMPTS):
        counts.walks += 1
        witness.wander(WALK_PER_CARD * len(witness.start))
        deck = deal_order(state, witness.start, [len(h) for h in hands], len(stock), centre)
        sample = replay(state, deck)
        if sample is not None and information_state(sample, seat) == seen:
            sampler.last = sample
            copy: RefereeState = sample.clone()
            return copy
        counts.rejected += 1
    if sampler.last is not None:
        counts.repeated += 1
        again: RefereeState = sampler.last.clone()
        return again
    counts.true_state += 1
    true: RefereeState = state.clone()
    return true


def deal_order(state: RefereeState, start: dict[Card, int], sizes: Sequence[int],
               stock_size: int, centre: Sequence[Card]) -> list[Card]:
    """The deck in chance's order (hands as dealt, the stock from the top, the
    centre) for a deal given as each card's starting place."""
    game = state.referee_game
    engine = game.engine
    held: list[list[Card]] = [[] for _ in sizes]
    stock: list[Card | None] = [None] * stock_size
    for card, place in start.items():
        if place >= 0:
            held[place].append(card)
        else:
            stock[stock_place(0) - place] = card
    order = engine._deal_order(len(game.names), game.dealer)
    nexts = [iter(hand) for hand in held]
    dealt = [next(nexts[seat]) for seat in order]
    rest = [card for card in stock if card is not None]
    return [*dealt, *centre, *rest]  # as Engine.split_rest reads them


def replay(state: RefereeState, deck: Sequence[Card]) -> RefereeState | None:
    """A new state dealt ``deck`` on which every move a player chose in ``state`` is
    chosen again, token by token (what the new deal forces is played as it forces
    it), and so is the move being chosen; None when some token is not legal there."""
    game = state.referee_game
    sample: RefereeState = game.new_initial_state()
    for card in deck:
        sample.apply_action(game.card_index[card])
    tokens = game.vocabulary.tokens
    for number, move in enumerate(state.p.moves):
        if len(sample.p.moves) <= number and not _choose(sample, tokens(move), number):
            return None
    if not _choose(sample, tuple(state.p.prefix), len(state.p.moves)):
        return None
    return sample


def _choose(sample: RefereeState, wanted: tuple[int, ...], number: int) -> bool:
    """Choose in ``sample`` the tokens of ``wanted`` not yet taken, while its move
    ``number`` is being chosen; whether each was legal."""
    p = sample.p
    while len(p.moves) == number and len(p.prefix) < len(wanted):
        depth = len(p.prefix)
        if sample.is_terminal() or list(wanted[:depth]) != p.prefix:
            return False
        token = wanted[depth]
        if all(option[depth] != token for option in sample.options()):
            return False
        sample.apply_action(token)
    return True


def _redealt(state: RefereeState, seat: int, rng: random.Random) -> RefereeState:
    """During the deal: the seat's own cards stay where they fell, the others shuffled."""
    game = state.referee_game
    order = game.engine._deal_order(len(game.names), game.dealer)
    mine = [i for i, s in enumerate(order[:len(state.p.deck)]) if s == seat]
    others = [c for i, c in enumerate(state.p.deck) if i not in mine]
    rest = [c for c in game.spec.cards if c not in state.p.deck]
    pool = others + rest
    rng.shuffle(pool)
    deck = list(state.p.deck)
    for i in range(len(deck)):
        if i not in mine:
            deck[i] = pool.pop()
    sample: RefereeState = game.new_initial_state()
    for card in deck:
        sample.apply_action(game.card_index[card])
    return sample
