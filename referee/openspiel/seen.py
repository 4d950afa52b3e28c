"""Each move as each seat saw it: in full when it is the seat's own draw or hands the
seat cards, otherwise as the table saw it (``Engine.as_seen``)."""

from __future__ import annotations

from collections.abc import Sequence

from referee.engine.core import Engine
from referee.engine.moves import Draw, Give, Move
from referee.engine.state import GameState
from referee.language.spec import HANDOVER_TO_CENTRE
from referee.transcript.writer import format_move


def sees_in_full(before: GameState, move: Move, seat: int) -> bool:
    """Whether ``seat`` sees ``move`` whole: its own draw, or cards handed to it."""
    if isinstance(move, Draw):
        return move.player == seat
    return (isinstance(move, Give) and before.asking is not None
            and before.asking.player == seat)


def as_seen_by(engine: Engine, before: GameState, move: Move, seat: int) -> list[Move]:
    """``move`` as ``seat`` saw it, from the state before it."""
    return [move] if sees_in_full(before, move, seat) else engine.as_seen(before, move)


def seen_by_each(engine: Engine, names: Sequence[str], before: GameState,
                 move: Move) -> tuple[tuple[str, ...], ...]:
    """``move`` as each seat saw it, in notation (the table's view written once)."""
    lay_out = engine.spec.ask.handover is HANDOVER_TO_CENTRE
    players = tuple(names)
    table = tuple(format_move(shown, players, lay_out=lay_out)
                  for shown in engine.as_seen(before, move))
    full: tuple[str, ...] | None = None
    each: list[tuple[str, ...]] = []
    for seat in range(len(players)):
        if sees_in_full(before, move, seat):
            full = full or (format_move(move, players, lay_out=lay_out),)
            each.append(full)
        else:
            each.append(table)
    return tuple(each)
