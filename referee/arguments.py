"""The public API's arguments checked at the door: a value of the wrong type is a
:class:`~referee.errors.RefereeError` (``usage``) that names the argument and what it
takes, never a ``TypeError`` or ``AttributeError`` from deep inside the referee."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, TypeGuard

from referee.errors import Kind, RefereeError

SHOWN = 40  # the most characters of a wrong value a message quotes


def shown(value: object) -> str:
    """``value`` as a message quotes it: its repr, cut short when long."""
    text = repr(value)
    return text if len(text) <= SHOWN else f"{text[:SHOWN]}... ({len(text)} characters)"


def text_argument(value: object, what: str) -> str:
    """``value``, a ``str``; else a usage error naming ``what`` it is."""
    if isinstance(value, str):
        return value
    noun = "bytes (decode them first)" if isinstance(value, bytes | bytearray) else shown(value)
    raise RefereeError(Kind.USAGE, f"{what} is a string, not {noun}")


def path_argument(value: object, what: str) -> str:
    """``value``, a ``str`` or a path (``os.PathLike``), as a string."""
    if isinstance(value, str):
        return value
    if isinstance(value, os.PathLike):
        found = os.fspath(value)
        if isinstance(found, str):
            return found
    raise RefereeError(Kind.USAGE, f"{what} is a string or a path, not {shown(value)}")


def options_argument(value: object) -> dict[str, str]:
    """Options, a mapping of names to values (strings; a number or a bool is written as
    the rule file reads it: ``3``, ``yes``/``no``); None for none."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise RefereeError(Kind.USAGE, f"options are a mapping of names to values "
                           f"({{'history': 'yes'}}), not {shown(value)}")
    chosen: dict[str, str] = {}
    for key, item in value.items():
        if not isinstance(key, str) or not key:
            raise RefereeError(Kind.USAGE, f"an option's name is a non-empty string, "
                               f"not {shown(key)}")
        chosen[key] = option_value(key, item)
    return chosen


def option_value(key: str, item: object) -> str:
    """An option's value as the rule file reads it."""
    if isinstance(item, bool):
        return "yes" if item else "no"
    if isinstance(item, int):
        return str(item)
    if isinstance(item, str) and item:
        return item
    raise RefereeError(Kind.USAGE, f"option {key}'s value is a non-empty string, not "
                       f"{shown(item)}")


def _listed(value: object) -> TypeGuard[Iterable[Any]]:
    """Whether ``value`` lists things: an iterable, not a string, bytes or a mapping."""
    return isinstance(value, Iterable) and not isinstance(value, str | bytes | Mapping)


def names_argument(value: object, what: str) -> list[str]:
    """A list of names (strings), from a list or tuple of them; a single string is
    refused (it is one name, or names to split: say which)."""
    if not _listed(value):
        raise RefereeError(Kind.USAGE, f"{what} is a list of names, not {shown(value)}")
    names = list(value)
    for name in names:
        if not isinstance(name, str):
            raise RefereeError(Kind.USAGE, f"a name in {what} is a string, not "
                               f"{shown(name)}")
    return names


def cards_argument(value: object, what: str) -> tuple[str, ...]:
    """Cards, as a list of them or one string of them (``"7H 7S"``)."""
    if isinstance(value, str):
        return tuple(value.split())
    if not _listed(value):
        raise RefereeError(Kind.USAGE, f"{what} is a list of cards or a string of them "
                           f"('7H 7S'), not {shown(value)}")
    cards = tuple(value)
    for card in cards:
        if not isinstance(card, str) or not card:
            raise RefereeError(Kind.USAGE, f"a card in {what} is a non-empty string, not "
                               f"{shown(card)}")
    return cards


def hands_argument(value: object) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Hands by player's name: a mapping of names to cards; None for none."""
    if value is None:
        return ()
    if not isinstance(value, Mapping):
        raise RefereeError(Kind.USAGE, f"hands are a mapping of players' names to cards "
                           f"({{'Ann': ['7H', '7S']}}), not {shown(value)}")
    hands = []
    for name, cards in value.items():
        if not isinstance(name, str) or not name:
            raise RefereeError(Kind.USAGE, f"a player's name is a non-empty string, not "
                               f"{shown(name)}")
        hands.append((name, cards_argument(cards, f"{name}'s hand")))
    return tuple(hands)


def as_path(value: object, what: str) -> Path:
    """``value`` (a string or a path) as a :class:`Path`."""
    return Path(path_argument(value, what))
