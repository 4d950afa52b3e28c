"""An ISMCTS player for self-play driven through the engine: ``ismcts_policy(N)``.

The policy is given the game as the engine plays it (the deal and the moves so far),
keeps the same game as an OpenSpiel state (brought up to date at each call), lets
OpenSpiel's ``ISMCTSBot`` (N simulations, one random rollout each, played by the
engine: referee/openspiel/rollout.py) choose the tokens of the next move, and returns
that move. The bot sees only what the seat could know: its search resamples the deal
from the seat's information state.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from referee.engine.core import Engine
from referee.engine.moves import Move
from referee.engine.state import GameState
from referee.errors import Kind, RefereeError
from referee.language.cards import Card

DEFAULT_SIMULATIONS = 100  # ``--policy ismcts`` without ``:N``

Policy = Callable[[Engine, Sequence[Sequence[Card]], Sequence[Card], Sequence[Card],
                   Sequence[Move], random.Random], Move | None]


def ismcts_policy(simulations: int) -> Policy:
    """A policy choosing with ISMCTS of ``simulations`` simulations a move: called with
    the engine, the hands dealt, the stock (top first) and centre dealt, the moves
    played since, and a random source; None when the game is over. It keeps the
    OpenSpiel state of the game it last played and brings it up to date with the
    moves played since, so a game is replayed into the bridge once, not at each call.
    OpenSpiel's search has no visited move to choose from after one simulation: it
    takes at least two."""
    if simulations < 2:
        raise RefereeError(Kind.USAGE, f"ISMCTS takes at least 2 simulations a move, "
                           f"not {simulations}")
    import numpy as np
    from open_spiel.python.algorithms import ismcts

    import referee.openspiel  # noqa: F401  (registers the game)
    from referee.openspiel.game import RefereeGame
    from referee.openspiel.rollout import EngineRolloutEvaluator

    games: dict[tuple[int, int], RefereeGame] = {}
    kept: list[Any] = []  # [deal, state] of the game being played

    def choose(engine: Engine, hands: Sequence[Sequence[Card]], stock: Sequence[Card],
               centre: Sequence[Card], moves: Sequence[Move], rng: random.Random
               ) -> Move | None:
        key = (id(engine.spec), len(hands))
        game = games.get(key)
        if game is None:
            game = games[key] = RefereeGame.for_spec(engine.spec, len(hands))
        deal = (key, tuple(map(tuple, hands)), tuple(stock), tuple(centre))
        if not kept or kept[0] != deal or not _continues(kept[1], moves):
            kept[:] = [deal, dealt_state(game, hands, stock, centre)]
        state = kept[1]
        catch_up(state, moves)
        if len(state.p.moves) > len(moves):
            forced: Move = state.p.moves[len(moves)]  # the bridge played it already
            return forced
        if state.is_terminal():
            return None
        seed = rng.randrange(2**31)
        evaluator = EngineRolloutEvaluator(random.Random(seed))
        bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations,
                               random_state=np.random.RandomState(seed))
        played = len(state.p.moves)
        while len(state.p.moves) == played and not state.is_terminal():
            state.apply_action(bot.step(state))
        chosen: Move | None = state.p.moves[played] if len(state.p.moves) > played else None
        return chosen

    return choose


def _continues(state: Any, moves: Sequence[Move]) -> bool:
    """Whether ``moves`` go on from the moves ``state`` has played (or it from them)."""
    mine = state.p.moves
    shared = min(len(mine), len(moves))
    return shared == 0 or mine[shared - 1] == moves[shared - 1]


def dealt_state(game: Any, hands: Sequence[Sequence[Card]], stock: Sequence[Card],
                centre: Sequence[Card]) -> Any:
    """The OpenSpiel state of a game just dealt so (the forced moves played)."""
    order = game.engine._deal_order(len(game.names), game.dealer)
    held = [iter(hand) for hand in hands]
    deck = [*(next(held[seat]) for seat in order), *centre, *stock]
    index = {card: i for i, card in enumerate(game.spec.cards)}
    state = game.new_initial_state()
    for card in deck:
        state.apply_action(index[card])
    return state


def catch_up(state: Any, moves: Sequence[Move]) -> None:
    """Play the tokens of each of ``moves`` the state has not played yet (the ones
    the bridge played as forced are there already)."""
    tokens = state.referee_game.vocabulary.tokens
    for number in range(len(state.p.moves), len(moves)):
        if len(state.p.moves) > number:
            continue  # the bridge played it: it was forced
        wanted = tokens(moves[number])
        while len(state.p.moves) == number:
            state.apply_action(wanted[len(state.p.prefix)])


class IsmctsSeat:
    """One seat of ``referee simulate --policy ismcts[:N]``: it keeps the deal and every
    move played, and asks :func:`ismcts_policy` for its own moves (the search sees only
    what the seat could know)."""

    tracks = True

    def __init__(self, simulations: int) -> None:
        self._choose = ismcts_policy(simulations)
        self._deal: tuple[list[list[Card]], list[Card], list[Card]] | None = None
        self._moves: list[Move] = []

    def dealt(self, dealer: int, hands: Sequence[Sequence[Card]], stock: Sequence[Card],
              centre: Sequence[Card]) -> None:
        """A new hand, dealt so (the bridge's dealer is the last seat: single games)."""
        if dealer != len(hands) - 1:
            raise RefereeError(Kind.USAGE, "ismcts plays single games, not the hands of a "
                               "match")
        self._deal = ([list(hand) for hand in hands], list(stock), list(centre))
        self._moves = []

    def observe(self, engine: Engine, state: GameState, move: Move,
                seen: Sequence[Move]) -> None:
        """Note ``move``: every move since the deal, forced ones included."""
        self._moves.append(move)

    def choose(self, engine: Engine, state: GameState, rng: random.Random) -> Move | None:
        """The seat's move now, by ISMCTS."""
        assert self._deal is not None, "self-play tells a tracking player its deal"
        hands, stock, centre = self._deal
        return self._choose(engine, hands, stock, centre, self._moves, rng)


def make_policy(engine: Engine, seat: int, name: str) -> IsmctsSeat:
    """The player ``name`` (``ismcts`` or ``ismcts:N``) names for ``seat``."""
    _, _, count = name.partition(":")
    return IsmctsSeat(int(count) if count else DEFAULT_SIMULATIONS)
