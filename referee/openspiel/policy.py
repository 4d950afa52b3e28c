"""An ISMCTS player for self-play driven through the engine: ``ismcts_policy(N)``.

The policy is given the game as the engine plays it (the deal and the moves so far),
rebuilds the same game as an OpenSpiel state, lets OpenSpiel's ``ISMCTSBot`` (N
simulations, one random rollout each) choose the tokens of the next move, and returns
that move. The bot sees only what the seat could know: its search resamples the deal
from the seat's information state.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from referee.engine.core import Engine
from referee.engine.moves import Move
from referee.language.cards import Card

Policy = Callable[[Engine, Sequence[Sequence[Card]], Sequence[Card], Sequence[Card],
                   Sequence[Move], random.Random], Move | None]


def ismcts_policy(simulations: int) -> Policy:
    """A policy choosing with ISMCTS of ``simulations`` simulations a move: called with
    the engine, the hands dealt, the stock (top first) and centre dealt, the moves
    played since, and a random source; None when the game is over."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    import referee.openspiel  # noqa: F401  (registers the game)
    from referee.openspiel.game import RefereeGame

    games: dict[tuple[int, int], RefereeGame] = {}

    def choose(engine: Engine, hands: Sequence[Sequence[Card]], stock: Sequence[Card],
               centre: Sequence[Card], moves: Sequence[Move], rng: random.Random
               ) -> Move | None:
        key = (id(engine.spec), len(hands))
        game = games.get(key)
        if game is None:
            game = games[key] = RefereeGame.for_spec(engine.spec, len(hands))
        state = rebuild(game, hands, stock, centre, moves)
        if len(state.p.moves) > len(moves):
            forced: Move = state.p.moves[len(moves)]  # the bridge played it already
            return forced
        if state.is_terminal():
            return None
        seed = rng.randrange(2**31)
        evaluator = mcts.RandomRolloutEvaluator(
            n_rollouts=1, random_state=np.random.RandomState(seed))
        bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations,
                               random_state=np.random.RandomState(seed))
        played = len(state.p.moves)
        while len(state.p.moves) == played and not state.is_terminal():
            state.apply_action(bot.step(state))
        chosen: Move | None = state.p.moves[played] if len(state.p.moves) > played else None
        return chosen

    return choose


def rebuild(game: Any, hands: Sequence[Sequence[Card]], stock: Sequence[Card],
            centre: Sequence[Card], moves: Sequence[Move]) -> Any:
    """The OpenSpiel state of a game dealt so, after ``moves`` (forced ones included)."""
    order = game.engine._deal_order(len(game.names), game.dealer)
    held = [iter(hand) for hand in hands]
    deck = [*(next(held[seat]) for seat in order), *centre, *stock]
    index = {card: i for i, card in enumerate(game.spec.cards)}
    state = game.new_initial_state()
    for card in deck:
        state.apply_action(index[card])
    tokens = game.vocabulary.tokens
    for number, move in enumerate(moves):
        if len(state.p.moves) > number:
            continue  # the bridge played it: it was forced
        wanted = tokens(move)
        while len(state.p.moves) == number:
            state.apply_action(wanted[len(state.p.prefix)])
    return state
