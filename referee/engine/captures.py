"""Sum captures: a card played from the hand takes disjoint groups of centre cards,
each group a single card or several whose values sum to the played card's value."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Final

from referee.engine.moves import Play
from referee.engine.state import GameState
from referee.errors import Kind, RefereeError
from referee.language.cards import Card, Rank, rank_of

if TYPE_CHECKING:  # self-play's random source, imported only when it plays
    import random

MAX_GROUPS: Final = 256  # summing_groups finds at most this many groups
MAX_CAPTURE_CHOICES: Final = 1024  # capture_choices yields at most this many sets of groups


def value_of(values: Mapping[Rank, int], card: Card) -> int:
    """A card's value for summing."""
    return values[rank_of(card)]


def play_violation(
    values: Mapping[Rank, int], state: GameState, play: Play
) -> RefereeError | None:
    """Why ``play`` breaks the rules or the cards, or None."""
    who = state.players[play.player]
    if play.card not in state.hands[play.player]:
        return RefereeError(Kind.CONTRADICTION, f"{who} does not hold {play.card}")
    return capture_violation(values, state, play)


def capture_violation(
    values: Mapping[Rank, int], state: GameState, play: Play
) -> RefereeError | None:
    """Why the groups ``play`` captures break the rules or the face-up centre, or None."""
    named = [card for group in play.groups for card in group]
    twice = next((c for c in named if named.count(c) > 1), None)
    if twice is not None:
        return RefereeError(Kind.ILLEGAL, f"{twice} is taken twice; groups may not overlap")
    absent = [c for c in named if c not in state.centre]
    if absent:
        return RefereeError(Kind.CONTRADICTION, f"{' '.join(absent)} "
                            f"{'is' if len(absent) == 1 else 'are'} not in the centre")
    target = value_of(values, play.card)
    for group in play.groups:
        total = sum(value_of(values, c) for c in group)
        if total != target:
            return RefereeError(Kind.ILLEGAL, f"{' + '.join(group)} makes {total}, not "
                                f"{target}, the value of {play.card}")
    return None


def summing_groups(
    values: Mapping[Rank, int], centre: Sequence[Card], target: int, limit: int = MAX_GROUPS
) -> list[tuple[Card, ...]]:
    """The groups of centre cards whose values sum to ``target``: every one, or the
    first ``limit`` of them in card order where there are more.

    A table of the sums the remaining cards can still make prunes every branch that
    cannot reach ``target``, so the time grows with the groups found, not with the
    2^n subsets of the centre.
    """
    cards = sorted(centre)
    worth = [value_of(values, card) for card in cards]
    reach = _reachable_sums(worth, target)
    zeros = [0] * (len(cards) + 1)  # zero-valued cards from each index on
    for index in range(len(cards) - 1, -1, -1):
        zeros[index] = zeros[index + 1] + (worth[index] == 0)
    found: list[tuple[Card, ...]] = []

    def extend(start: int, chosen: tuple[Card, ...], left: int) -> None:
        for index in range(start, len(cards)):
            if len(found) >= limit:
                return
            rest = left - worth[index]
            if rest < 0 or not reach[index + 1] >> rest & 1:
                continue
            group = (*chosen, cards[index])
            if rest == 0:
                found.append(group)
            if rest > 0 or zeros[index + 1]:
                extend(index + 1, group, rest)

    extend(0, (), target)
    return found


def capture_choices(
    values: Mapping[Rank, int], centre: Sequence[Card], card: Card
) -> Iterator[tuple[tuple[Card, ...], ...]]:
    """The sets of disjoint groups ``card`` may capture, the empty one first.

    Every set while the centre is small; a centre with more than ``MAX_GROUPS``
    groups or ``MAX_CAPTURE_CHOICES`` sets of them yields only that many, so that
    listing the legal moves stays quick whatever the rule file's values and centre.
    A play outside the list is still judged by :func:`play_violation`.
    """
    groups = summing_groups(values, centre, value_of(values, card))
    budget = [MAX_CAPTURE_CHOICES]

    def choose(start: int, taken: frozenset[Card], chosen: tuple[tuple[Card, ...], ...]
               ) -> Iterator[tuple[tuple[Card, ...], ...]]:
        budget[0] -= 1
        yield chosen
        for index in range(start, len(groups)):
            if budget[0] <= 0:
                return
            if taken.isdisjoint(groups[index]):
                yield from choose(index + 1, taken | set(groups[index]),
                                  (*chosen, groups[index]))

    yield from choose(0, frozenset(), ())


def random_group(
    values: Mapping[Rank, int], cards: Sequence[Card], target: int, rng: random.Random
) -> tuple[Card, ...] | None:
    """A group of ``cards`` summing to ``target``, drawn uniformly from all such groups
    by counting them (a subset-sum table over values), or None if there is none."""
    worth = [value_of(values, card) for card in cards]
    ways = _ways(worth, target)
    if ways[0][target] - (target == 0) <= 0:  # the empty group sums to 0 but is no group
        return None
    while True:
        group: list[Card] = []
        left = target
        for index, card in enumerate(cards):
            rest = left - worth[index]
            if rest >= 0 and rng.randrange(ways[index][left]) < ways[index + 1][rest]:
                group.append(card)
                left = rest
        if group:
            return tuple(group)


def _reachable_sums(worth: Sequence[int], target: int) -> list[int]:
    """For each index, the sums up to ``target`` that some of the cards from there on
    make (the empty choice's 0 included), as bits of an int."""
    mask = (1 << (target + 1)) - 1
    reach = [1] * (len(worth) + 1)
    for index in range(len(worth) - 1, -1, -1):
        after = reach[index + 1]
        reach[index] = (after | after << worth[index]) & mask
    return reach


def _ways(worth: Sequence[int], target: int) -> list[list[int]]:
    """For each index and each sum up to ``target``: how many choices of the cards from
    that index on make it (the empty choice counts for 0)."""
    ways = [[0] * (target + 1) for _ in range(len(worth) + 1)]
    ways[-1][0] = 1
    for index in range(len(worth) - 1, -1, -1):
        after, row, value = ways[index + 1], ways[index], worth[index]
        for total in range(target + 1):
            row[total] = after[total] + (after[total - value] if total >= value else 0)
    return ways
