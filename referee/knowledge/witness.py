"""A witness: one deal that explains every event so far, kept up to date cheaply.

Every fact about hidden cards becomes a :class:`Constraint` on starting places:
for each card it names, the starting places from which the card would be at
the fact's place at the fact's moment; the number of its cards dealt to such a
place must lie within bounds. A deal (each card's starting place, each hand
its size, each stock position one card) is a witness when it meets every
constraint.

When a new constraint breaks the witness, :meth:`Witness.repair` looks for a
nearby deal by swapping the starting places of two cards (a swap keeps every
hand's size), choosing swaps that break fewer constraints (min-conflicts local
search). It is fast and usually succeeds; when it does not, the SAT solver in
referee/knowledge/model.py decides, and supplies a fresh witness.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from referee.engine.facts import Fact
from referee.knowledge.budgets import DEFAULT_BUDGETS
from referee.language.cards import Card

CANDIDATES = 6  # swaps weighed at each step


@dataclass(eq=False, slots=True)
class Constraint:
    """A fact as a constraint on the deal: between ``least`` and ``most`` of the cards
    of ``members`` start in one of the places listed for them."""

    line: int
    fact: Fact
    members: dict[Card, frozenset[int]]
    least: int
    most: int
    switch: int = 0  # the solver's assumption literal, once encoded
    active: bool = True
    count: int = 0  # how many of its cards the witness starts in its places

    def met_by(self, count: int) -> bool:
        """Whether ``count`` of its cards in its places meets it."""
        return self.least <= count <= self.most


@dataclass(slots=True)
class Witness:
    """A deal that meets every active constraint: each card's starting place."""

    start: dict[Card, int]
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    cards_at: dict[int, list[Card]] = field(default_factory=dict)
    of_card: dict[Card, dict[Constraint, None]] = field(default_factory=dict)  # ordered sets
    places: tuple[int, ...] = ()
    steps: int = DEFAULT_BUDGETS.repair_steps  # swaps tried by one repair before a solver

    def __post_init__(self) -> None:
        self.cards_at = {}
        for card, place in self.start.items():
            self.cards_at.setdefault(place, []).append(card)
        self.of_card = {card: {} for card in self.start}
        self.places = tuple(self.cards_at)  # every place a card starts in: swaps keep them

    def copy_deal(self) -> dict[Card, int]:
        """The deal, to restore later."""
        return dict(self.start)

    def restore(self, deal: dict[Card, int]) -> None:
        """Go back to an earlier deal (it must meet the constraints then active)."""
        self.start = dict(deal)
        self.cards_at = {}
        for card, place in self.start.items():
            self.cards_at.setdefault(place, []).append(card)
        watched = {c: None for constraints in self.of_card.values() for c in constraints}
        for constraint in watched:
            constraint.count = self._count(constraint)

    def watch(self, constraint: Constraint) -> None:
        """Keep ``constraint`` met from now on."""
        for card in constraint.members:
            self.of_card[card][constraint] = None
        constraint.count = self._count(constraint)

    def forget(self, constraint: Constraint) -> None:
        """Stop keeping ``constraint``."""
        for card in constraint.members:
            del self.of_card[card][constraint]

    def _count(self, constraint: Constraint) -> int:
        start, count = self.start, 0
        for card, places in constraint.members.items():  # no generator: every new fact
            if start[card] in places:
                count += 1
        return count

    @staticmethod
    def meets(constraint: Constraint) -> bool:
        """Whether this deal meets ``constraint``."""
        return constraint.least <= constraint.count <= constraint.most

    def repair(self, broken: list[Constraint]) -> bool:
        """Swap cards until every constraint is met again, within a budget; say whether
        it worked (if not, the deal may have changed, still meeting no fewer)."""
        conflicts = [c for c in broken if not self.meets(c)]
        for _ in range(self.steps):
            if not conflicts:
                return True
            target = self.rng.choice(conflicts)
            best: tuple[int, Card, Card, list[tuple[Constraint, int]]] | None = None
            for mover, other in self._candidate_swaps(target):
                changes = self._changes(mover, other)
                gain = _gain(changes)
                if best is None or gain > best[0]:
                    best = (gain, mover, other, changes)
            if best is None:
                return False
            gain, mover, other, changes = best
            if gain < 0 and self.rng.random() > 0.2:
                continue
            self._swap(mover, other, changes)
            touched = {c: None for card in (mover, other) for c in self.of_card[card]}
            touched.update(dict.fromkeys(conflicts))
            conflicts = [c for c in touched if not c.least <= c.count <= c.most]  # meets()
        return not conflicts

    def wander(self, steps: int) -> None:
        """A random walk among the deals that meet every constraint: ``steps`` times,
        swap two cards in different places when the swap keeps every constraint met.
        The proposal is symmetric, so every deal the walk can reach is equally likely
        in the long run (how a search samples the deals a player cannot tell apart)."""
        rng, start = self.rng, self.start
        cards = list(start)
        for _ in range(steps):
            first, second = rng.choice(cards), rng.choice(cards)
            if start[first] == start[second]:
                continue
            changes = self._changes(first, second)
            if all(con.met_by(con.count + delta) for con, delta in changes):
                self._swap(first, second, changes)

    def _candidate_swaps(self, target: Constraint) -> list[tuple[Card, Card]]:
        """Swaps that bring ``target`` closer to its bounds."""
        rng, start = self.rng, self.start
        inside: list[Card] = []
        outside: list[Card] = []
        for card, places in target.members.items():  # one pass: repair's every step
            (inside if start[card] in places else outside).append(card)
        swaps: list[tuple[Card, Card]] = []
        for _ in range(CANDIDATES):
            if len(inside) < target.least and outside:
                mover = rng.choice(outside)
                place = rng.choice(sorted(target.members[mover]))
            elif inside:
                mover = rng.choice(inside)
                place = rng.choice(self.places)
                if place in target.members[mover]:
                    continue
            else:
                break
            occupants = self.cards_at.get(place)
            if occupants:
                other = rng.choice(occupants)
                if start[other] != start[mover] and (mover, other) not in swaps:
                    swaps.append((mover, other))  # a swap within one place changes nothing
        return swaps

    def _changes(self, first: Card, second: Card) -> list[tuple[Constraint, int]]:
        """How a swap of the two cards' places would change each count it changes."""
        a, b = self.start[first], self.start[second]
        changes = []
        for con in self.of_card[first]:
            members = con.members
            places = members[first]
            delta = (b in places) - (a in places)
            other = members.get(second)
            if other is not None:
                delta += (a in other) - (b in other)
            if delta:
                changes.append((con, delta))
        for con in self.of_card[second]:
            if first in con.members:
                continue
            places = con.members[second]
            delta = (a in places) - (b in places)
            if delta:
                changes.append((con, delta))
        return changes

    def _swap(self, first: Card, second: Card, changes: list[tuple[Constraint, int]]) -> None:
        """Swap the two cards' places; ``changes``: what it does to the counts."""
        for con, delta in changes:
            con.count += delta
        start = self.start
        a, b = start[first], start[second]
        start[first], start[second] = b, a
        at_a, at_b = self.cards_at[a], self.cards_at[b]
        at_a[at_a.index(first)] = second
        at_b[at_b.index(second)] = first


def _gain(changes: list[tuple[Constraint, int]]) -> int:
    """How many more constraints a swap that makes these changes would meet."""
    gain = 0
    for con, delta in changes:  # met_by() written out: weighed for every candidate swap
        least, count, most = con.least, con.count, con.most
        gain += (least <= count + delta <= most) - (least <= count <= most)
    return gain
