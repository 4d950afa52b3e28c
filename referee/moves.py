"""Moves: what one player does at one moment, as the engine takes it."""

from __future__ import annotations

from dataclasses import dataclass

from referee.cards import Card, Rank


@dataclass(frozen=True, slots=True)
class Ask:
    """``player`` asks ``target`` for ``rank``, or for ``card`` when one is named."""

    player: int
    target: int
    rank: Rank
    card: Card | None = None


@dataclass(frozen=True, slots=True)
class Give:
    """The asked player hands these cards over."""

    player: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Refuse:
    """The asked player has nothing to give ("go fish")."""

    player: int


@dataclass(frozen=True, slots=True)
class Draw:
    """``player`` takes the top card of the stock (``card``, when it is known)."""

    player: int
    card: Card | None = None


Move = Ask | Give | Refuse | Draw
