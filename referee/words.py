"""Small wording shared by every command: a count with its noun, a set of player counts."""

from __future__ import annotations

from collections.abc import Iterable


def counted(count: int, noun: str, nouns: str = "") -> str:
    """``count`` followed by ``noun`` agreeing with it (``nouns``: an irregular plural).

    >>> counted(1, "game"), counted(2, "game"), counted(0, "match", "matches")
    ('1 game', '2 games', '0 matches')
    """
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def player_counts(counts: Iterable[int]) -> str:
    """Player counts as the rules language writes them.

    >>> player_counts([3, 4, 5, 6]), player_counts([4, 6, 8]), player_counts([2, 3])
    ('3 to 6', '4, 6 or 8', '2 or 3')
    >>> player_counts([6])
    '6'
    """
    numbers = sorted(counts)
    if len(numbers) > 2 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"{numbers[0]} to {numbers[-1]}"
    words = [str(n) for n in numbers]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"
