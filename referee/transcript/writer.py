"""Moves to canonical transcript lines (the forms NOTATION.md lists first)."""

from __future__ import annotations

from referee.engine.moves import (
    Answer,
    Ask,
    Claim,
    Draw,
    Give,
    LayDown,
    Move,
    Pass,
    Play,
    Question,
    Refuse,
    Show,
    TurnUp,
)
from referee.engine.wording import describe_question
from referee.language.cards import parse_rank


def format_move(move: Move, players: tuple[str, ...], *, lay_out: bool = False) -> str:
    """One move in canonical notation: ``Ann asks Bob for QS``, ``Bob says no``;
    with ``lay_out``, asks and gives put cards in the centre."""
    name = players[move.player]
    if isinstance(move, Ask):
        if lay_out:
            return f"{name} asks {players[move.target]} to lay out {move.card or move.rank}"
        return f"{name} asks {players[move.target]} for {move.card or move.rank}"
    if isinstance(move, Give):
        given = " ".join(move.cards) if move.cards or move.count is None else str(move.count)
        return f"{name} {'lays out' if lay_out else 'gives'} {given}"
    if isinstance(move, Show):
        return f"{name} shows {' '.join(move.cards)}"
    if isinstance(move, Question):
        return f"{name} asks {players[move.target]}: {describe_question(move)}?"
    if isinstance(move, Answer):
        return f"{name} says {'yes' if move.yes else 'no'}"
    if isinstance(move, Play):
        taken = ", ".join(" ".join(group) for group in move.groups)
        return f"{name} plays {move.card}" + (f" takes {taken}" if taken else "")
    if isinstance(move, TurnUp):
        return f"turn up {' '.join(move.cards)}"
    if isinstance(move, Refuse):
        return f"{name} says no"
    if isinstance(move, LayDown):
        if move.cards:  # a set of part of a rank: the cards laid
            return f"{name} books {' '.join(move.cards)}"
        return format_books([(move.player, move.set_name)], players)[0]
    if isinstance(move, Claim):
        holders = ", ".join(f"{players[seat]} {' '.join(cards)}" for seat, cards in move.holders)
        return f"{name} claims {move.set_name}: {holders}"
    if isinstance(move, Pass):
        return f"{name} passes to {players[move.target]}"
    assert isinstance(move, Draw), f"{move} is never written"
    return f"{name} draws {move.card}" if move.card else f"{name} draws"


def format_books(laid: list[tuple[int, str]], players: tuple[str, ...]) -> list[str]:
    """``Ann books Q`` for a book, ``Ann lays down low spades`` for another set."""
    return [f"{players[seat]} books {name}" if parse_rank(name) == name
            else f"{players[seat]} lays down {name}" for seat, name in laid]
