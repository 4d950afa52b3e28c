"""Moves to canonical transcript lines (the forms NOTATION.md lists first)."""

from __future__ import annotations

from referee.moves import Ask, Draw, Give, Move, Refuse


def format_move(move: Move, players: tuple[str, ...]) -> str:
    """One move in canonical notation: ``Ann asks Bob for QS``, ``Bob says no``."""
    name = players[move.player]
    if isinstance(move, Ask):
        return f"{name} asks {players[move.target]} for {move.card or move.rank}"
    if isinstance(move, Give):
        return f"{name} gives {' '.join(move.cards)}"
    if isinstance(move, Refuse):
        return f"{name} says no"
    assert isinstance(move, Draw)
    return f"{name} draws {move.card}" if move.card else f"{name} draws"


def format_books(laid: list[tuple[int, str]], players: tuple[str, ...]) -> list[str]:
    """``Ann books Q`` lines for sets just laid."""
    return [f"{players[seat]} books {name}" for seat, name in laid]
