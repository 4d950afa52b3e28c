"""Moves and header lines to canonical transcript lines (the forms NOTATION.md lists
first)."""

from __future__ import annotations

import re
from collections.abc import Sequence

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
from referee.errors import Kind, RefereeError
from referee.language.cards import parse_rank
from referee.reading import quoted

_PLAIN_GAME = re.compile(r'[^\s:,?>;#"]+')  # a rule file written as is in 'game:'


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


def write_header(
    game: str, players: tuple[str, ...], dealer: int,
    hands: Sequence[Sequence[str] | None], stock: Sequence[str | None],
    options: tuple[tuple[str, str], ...] = (),
    teams: tuple[tuple[str, tuple[str, ...]], ...] = (),
    target: int | None = None, centre: Sequence[str] = (), *, hidden: bool = False,
) -> list[str]:
    """Canonical header lines: the table, then the deal."""
    return (write_table(game, players, dealer, options, teams, target)
            + write_deal(players, hands, stock, centre, hidden=hidden))


def write_table(
    game: str, players: tuple[str, ...], dealer: int,
    options: tuple[tuple[str, str], ...] = (),
    teams: tuple[tuple[str, tuple[str, ...]], ...] = (),
    target: int | None = None,
) -> list[str]:
    """Canonical header lines before the deal: game, options, players, dealer, teams."""
    lines = [write_game(game), *(f"option {name}: {value}" for name, value in options),
             f"players: {' '.join(players)}", f"dealer: {players[dealer]}",
             *(f"team {name}: {' '.join(members)}" for name, members in teams)]
    if target is not None:
        lines.append(f"target: {target}")
    return lines


def write_game(game: str) -> str:
    r"""The ``game:`` line naming the rule file ``game`` so that it reads back the same:
    as it is when it is one plain word, else in double quotes, ``\`` and ``"`` escaped.
    A name holding a line break cannot be written: a usage error.

    >>> write_game("go-fish"), write_game("./go fish#v2.rules"), write_game('a"b.rules')
    ('game: go-fish', 'game: "./go fish#v2.rules"', 'game: "a\\"b.rules"')
    """
    if "\n" in game:
        raise RefereeError(Kind.USAGE, f"the rule file {quoted(game, 80)} cannot be named in "
                           "a transcript: its name holds a line break")
    if _PLAIN_GAME.fullmatch(game):
        return f"game: {game}"
    escaped = game.replace("\\", "\\\\").replace('"', '\\"')
    return f'game: "{escaped}"'


def write_deal(
    players: tuple[str, ...], hands: Sequence[Sequence[str] | None],
    stock: Sequence[str | None], centre: Sequence[str] = (), *, hidden: bool = False,
) -> list[str]:
    """Canonical lines of one deal: ``deal: given`` (or ``deal: hidden``), the hands
    known, the stock when known, and the centre."""
    lines = ["deal: hidden" if hidden else "deal: given"]
    lines += [f"hand {name}: {' '.join(hand)}" for name, hand in zip(players, hands, strict=True)
              if hand is not None]
    if stock and all(card is not None for card in stock):
        lines.append(f"stock: {' '.join(c for c in stock if c is not None)}")
    if centre:
        lines.append(f"centre: {' '.join(centre)}")
    return lines
