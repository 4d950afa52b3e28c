"""The ISMCTS player's evaluator: a random rollout played by the engine itself.

OpenSpiel's ``RandomRolloutEvaluator`` plays a rollout through the bridge, a random
token at a time, each move written out as every seat saw it; this one finishes the
move being chosen that way, then plays self-play's random moves
(:func:`referee.authoring.selfplay.random_move`) on a copy of the engine's state, as
fast as random self-play.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from open_spiel.python.algorithms import mcts

from referee.authoring.selfplay import random_move
from referee.openspiel.game import MAX_DECISIONS, RefereeState, shares


class EngineRolloutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """One random rollout a simulation, played by the engine."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def evaluate(self, state: RefereeState) -> np.ndarray[Any, Any]:
        """Each player's return at the end of one random rollout from ``state``."""
        rng = self.rng
        if state.p.prefix:  # finish the move being chosen, a token at a time
            state = state.clone()
            played = len(state.p.moves)
            while len(state.p.moves) == played and not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
        game, now = state.referee_game, state.p.state
        assert now is not None
        if not state.is_terminal():
            now = now.copy()
            engine, moves = game.engine, len(state.p.moves)
            while not now.over and moves < MAX_DECISIONS:
                move = random_move(engine, now, rng)
                if move is None:
                    break
                engine.apply(now, move)
                moves += 1
        return np.array(shares(game, now))

    def prior(self, state: RefereeState) -> list[tuple[int, float]]:
        """Every legal action equally likely."""
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]
