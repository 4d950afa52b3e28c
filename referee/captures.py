"""Sum captures: a card played from the hand takes disjoint groups of centre cards,
each group a single card or several whose values sum to the played card's value."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence

from referee.cards import Card, Rank, rank_of
from referee.errors import Kind, RefereeError
from referee.moves import Play
from referee.state import GameState


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
    values: Mapping[Rank, int], centre: Sequence[Card], target: int
) -> list[tuple[Card, ...]]:
    """Every group of centre cards whose values sum to ``target``."""
    cards = sorted(centre)
    found: list[tuple[Card, ...]] = []

    def extend(start: int, chosen: list[Card], total: int) -> None:
        for index in range(start, len(cards)):
            value = total + value_of(values, cards[index])
            if value == target:
                found.append((*chosen, cards[index]))
            elif value < target:
                extend(index + 1, [*chosen, cards[index]], value)

    extend(0, [], 0)
    return found


def capture_choices(
    values: Mapping[Rank, int], centre: Sequence[Card], card: Card
) -> Iterator[tuple[tuple[Card, ...], ...]]:
    """Every set of disjoint groups ``card`` may capture, the empty one first."""
    groups = summing_groups(values, centre, value_of(values, card))

    def choose(start: int, taken: frozenset[Card], chosen: tuple[tuple[Card, ...], ...]
               ) -> Iterator[tuple[tuple[Card, ...], ...]]:
        yield chosen
        for index in range(start, len(groups)):
            if taken.isdisjoint(groups[index]):
                yield from choose(index + 1, taken | set(groups[index]),
                                  (*chosen, groups[index]))

    yield from choose(0, frozenset(), ())


def random_play(values: Mapping[Rank, int], state: GameState, rng: random.Random) -> Play:
    """A random play: a random card, capturing greedily chosen random groups."""
    seat = state.turn
    card = rng.choice(sorted(state.hands[seat]))
    groups = summing_groups(values, state.centre, value_of(values, card))
    rng.shuffle(groups)
    taken: set[Card] = set()
    chosen = []
    for group in groups:
        if taken.isdisjoint(group) and rng.random() < 0.9:
            chosen.append(group)
            taken |= set(group)
    return Play(seat, card, tuple(chosen))
