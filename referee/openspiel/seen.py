"""Each move as each seat saw it: in full when it is the seat's own draw or hands the
seat cards, otherwise as the table saw it (``Engine.as_seen``)."""

from __future__ import annotations

from collections.abc import Sequence

from referee.engine.core import Engine
from referee.engine.moves import Draw, Give, Move
from referee.engine.state import GameState
from referee.language.spec import HANDOVER_TO_CENTRE
from referee.transcript.writer import format_move


def as_seen_by(engine: Engine, before: GameState, move: Move, seat: int) -> list[Move]:
    """``move`` as ``seat`` saw it, from the state before it."""
    if move.player == seat and isinstance(move, Draw):
        return [move]
    if isinstance(move, Give) and before.asking is not None and before.asking.player == seat:
        return [move]
    return engine.as_seen(before, move)


def seen_by_each(engine: Engine, names: Sequence[str], before: GameState,
                 move: Move) -> tuple[tuple[str, ...], ...]:
    """``move`` as each seat saw it, in notation."""
    lay_out = engine.spec.ask.handover is HANDOVER_TO_CENTRE
    return tuple(tuple(format_move(shown, tuple(names), lay_out=lay_out)
                       for shown in as_seen_by(engine, before, move, seat))
                 for seat in range(len(names)))
