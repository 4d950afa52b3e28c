"""What is known of hidden cards: is there still a deal that explains every event?

A deal puts every card that is not face up in a starting place: a hand, or a
position in the stock. Given the deal, a game replays deterministically, and
each card's path depends only on its own starting place; so the model tracks,
for every card, where a card that started in each place is now
(:class:`~referee.facts.Transfer` moves them). A fact about the cards at a
place now is then a constraint on starting places (referee/witness.py), and
"does some deal explain everything so far?" is a satisfiability problem: one
variable per (card, starting place), exactly one place per card, exactly one
card per stock position, each hand its dealt size, and each fact a small
cardinality constraint switched on by an assumption literal.

Most events need no search: a witness deal is kept, and a constraint it breaks
is usually mended by a few swaps. Only when that fails is the incremental SAT
solver (python-sat) built and asked; when it finds no deal, its unsatisfiable
core, shrunk, names the events that prove the lie.

The interface serves the checker and the live prompt alike: :meth:`Knowledge.add`
an event's facts, :meth:`Knowledge.moved` its transfers, :attr:`Knowledge.consistent`,
:meth:`Knowledge.explain`, :meth:`Knowledge.possible_places`, :meth:`Knowledge.undo`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Sequence

from referee.cards import Card
from referee.facts import OUT, Fact, Transfer, stock_place
from referee.solving import UNDECIDED, Deals, Placement
from referee.values import factory, frozen, mutable
from referee.witness import Constraint, Witness


@frozen
class Given:
    """A fact known before the first event: what a header line showed."""

    line: int
    fact: Fact


@frozen
class Proof:
    """Why no deal explains the events: the facts of the last event that cannot hold
    (``claims``), and the earlier ones that rule them out, as (line, reason)."""

    claims: tuple[Fact, ...]
    because: tuple[tuple[int, str], ...]
    forced: tuple[Card, ...] = ()  # cards every other deal puts where the claim says none is


@mutable
class _Step:
    """What one event added, to undo it."""

    line: int
    deal: dict[Card, int]
    consistent: bool
    constraints: list[Constraint] = factory(list)
    moves: list[tuple[Card, int, int, list[int]]] = factory(list)
    superseded: list[tuple[Constraint, Constraint | None, bool]] = factory(list)


class Knowledge:
    """The hidden cards of one hand of play, event by event.

    ``cards`` are the cards dealt face down; ``hand_sizes`` what each seat was
    dealt; ``stock_size`` the stock's size. ``given`` lists what the header
    showed (hands typed by the person who knows them).
    """

    def __init__(self, cards: Iterable[Card], hand_sizes: Sequence[int], stock_size: int,
                 given: Sequence[Given] = ()) -> None:
        self.cards = tuple(cards)
        self.hand_sizes = tuple(hand_sizes)
        self.places = [*range(len(hand_sizes)), *(stock_place(k) for k in range(stock_size))]
        self.where = {card: {p: [p] for p in self.places} for card in self.cards}
        self.at = {card: {p: p for p in self.places} for card in self.cards}
        self.constraints: list[Constraint] = []
        self.witness = Witness(self._first_deal(given), random.Random(0))
        self.consistent = True
        self._sat: Deals | None = None
        self.undecided: list[int] = []  # lines no solver settled in its time
        self._steps: list[_Step] = []
        self._ceilings: dict[tuple[int, frozenset[Card], int], Constraint] = {}
        if given:
            self.add(0, [item.fact for item in given], lines=[item.line for item in given])

    def _first_deal(self, given: Sequence[Given]) -> dict[Card, int]:
        """A deal that puts the given cards where the header says, the rest anywhere."""
        room = {p: (self.hand_sizes[p] if p >= 0 else 1) for p in self.places}
        deal: dict[Card, int] = {}
        for item in given:
            for card in item.fact.cards:
                if card in self.where and card not in deal and room[item.fact.place] > 0:
                    deal[card] = item.fact.place
                    room[item.fact.place] -= 1
        free = iter(p for p in self.places for _ in range(room[p]))
        for card in self.cards:
            if card not in deal:
                deal[card] = next(free)
        return deal

    # -- the interface ------------------------------------------------------------

    @property
    def depth(self) -> int:
        """How many events have been added (and not undone)."""
        return len(self._steps)

    @property
    def solves(self) -> int:
        """How many times the SAT solver was asked (0 while the witness sufficed)."""
        return self._sat.solves if self._sat is not None else 0

    def add(self, line: int, facts: Sequence[Fact], *, lines: Sequence[int] = ()) -> bool:
        """One event, and the facts it states about the cards before it. Returns whether
        some deal still explains every event."""
        step = _Step(line, self.witness.copy_deal(), self.consistent)
        self._steps.append(step)
        sat = self._solver()
        for index, fact in enumerate(facts):
            constraint = self._constraint(lines[index] if lines else line, fact)
            step.constraints.append(constraint)
            self.constraints.append(constraint)
            self.witness.watch(constraint)
            self._supersede(constraint, step)
            sat.encode(constraint)  # now, a little each event, not all at once when needed
        if self.consistent and step.constraints:
            self.consistent = self._explained(step.constraints)
        return self.consistent

    def moved(self, transfers: Sequence[Transfer]) -> None:
        """Where the last event added moved cards."""
        step = self._steps[-1]
        for transfer in transfers:
            self._transfer(transfer, step)

    def undo(self) -> None:
        """Forget the last event added."""
        step = self._steps.pop()
        for constraint, older, forgot in reversed(step.superseded):
            key = (constraint.fact.place, constraint.fact.cards, constraint.most)
            if older is None:
                del self._ceilings[key]
                continue
            self._ceilings[key] = older
            if forgot:
                self.witness.watch(older)
        for constraint in step.constraints:
            constraint.active = False
            self.witness.forget(constraint)
            self.constraints.remove(constraint)
            if self._sat is not None:
                self._sat.retire(constraint)
        for card, source, target, starts in reversed(step.moves):
            here = self.where[card]
            moved = here[target]
            del moved[len(moved) - len(starts):]
            if not moved:
                del here[target]
            here[source] = starts
            for start in starts:
                self.at[card][start] = source
        self.witness.restore(step.deal)
        self.consistent = step.consistent

    def explain(self) -> Proof:
        """Why no deal explains the events: a small set of facts that cannot all hold,
        those of the last event apart."""
        assert not self.consistent
        sat = self._solver()
        core = sat.shrunk_core(self.constraints)
        last = self._steps[-1].constraints
        claims = tuple(c.fact for c in core if c in last)
        others = [c for c in core if c not in last]
        because = tuple((c.line, c.fact.reason) for c in sorted(others, key=lambda c: c.line))
        return Proof(claims, because, self._forced_cards(sat, claims, others))

    def possible_places(self, seconds: float | None = None) -> dict[Card, list[int]]:
        """For every card still in a hand or the stock, the places it may be now. With
        ``seconds``, a place not settled in that time counts as possible (not ruled out)."""
        pairs = [(card, place) for card in self.cards for place in self.where[card]
                 if place != OUT]
        seen = self._possible(pairs, seconds)
        return {card: sorted(places) for card, places in seen.items()
                if places and OUT not in places}

    def possible_at(self, place: int, seconds: float | None = None) -> set[Card]:
        """The cards some deal that explains every event puts at ``place`` now: one
        place's column of :meth:`possible_places` (for the live prompt), within
        ``seconds`` as there."""
        seen = self._possible([(card, place) for card in self.cards
                               if place in self.where[card]], seconds)
        return {card for card, places in seen.items() if place in places}

    def _possible(self, pairs: list[tuple[Card, int]], seconds: float | None
                  ) -> dict[Card, set[int]]:
        """Of these (card, place) pairs, those some deal makes true now (with the places
        the deals found on the way): the quick questions first, the counting puzzles
        (Minicard out of budget) after, while there is time."""
        assert self.consistent
        deadline = None if seconds is None else time.perf_counter() + seconds
        seen: dict[Card, set[int]] = {card: set() for card in self.cards}
        self._note(self.witness.start, seen)
        sat = self._solver()
        puzzles: list[tuple[Card, int]] = []
        for thorough in (False, True):
            for card, place in puzzles if thorough else pairs:
                if place in seen[card]:
                    continue
                if deadline is not None and time.perf_counter() > deadline:
                    seen[card].add(place)  # no time to rule it out
                    continue
                starts = frozenset(self.where[card][place])
                deal = sat.find(self.constraints, Placement(card, starts, True),
                                thorough=thorough)
                if isinstance(deal, dict):
                    self._note(deal, seen)
                elif deal is UNDECIDED and thorough:
                    seen[card].add(place)  # not ruled out
                elif deal is UNDECIDED:
                    puzzles.append((card, place))
        return seen

    def close(self) -> None:
        """Free the solver."""
        if self._sat is not None:
            self._sat.close()

    # -- tracking -------------------------------------------------------------------

    def _constraint(self, line: int, fact: Fact) -> Constraint:
        members = {card: frozenset(starts) for card in fact.cards if card in self.where
                   if (starts := self.where[card].get(fact.place))}
        return Constraint(line, fact, members, fact.least, min(fact.most, len(members)))

    def _supersede(self, constraint: Constraint, step: _Step) -> None:
        """A ceiling (at most so many of some cards at a place) whose places for every card
        include an older one's makes the older one redundant: the witness stops watching it.
        Hands that only gain cards (draws, gives) make many such ceilings."""
        if constraint.least:
            return
        key = (constraint.fact.place, constraint.fact.cards, constraint.most)
        older = self._ceilings.get(key)
        forgot = older is not None and all(
            places <= constraint.members.get(card, frozenset())
            for card, places in older.members.items())
        if older is not None and forgot:
            self.witness.forget(older)
        self._ceilings[key] = constraint
        step.superseded.append((constraint, older, forgot))

    def _transfer(self, transfer: Transfer, step: _Step) -> None:
        cards = self.cards if transfer.cards is None else [
            c for c in transfer.cards if c in self.where]
        for card in cards:
            here = self.where[card]
            starts = here.pop(transfer.source, None)
            if starts is None:
                continue
            here.setdefault(transfer.target, []).extend(starts)
            at = self.at[card]
            for start in starts:
                at[start] = transfer.target
            step.moves.append((card, transfer.source, transfer.target, starts))

    # -- deciding -------------------------------------------------------------------

    def _explained(self, new: list[Constraint]) -> bool:
        """Whether some deal meets every constraint, the new ones included: the witness,
        mended if need be, or else one the solver finds."""
        broken = [c for c in new if not self.witness.meets(c)]
        if not broken or self.witness.repair(broken):
            return True
        deal = self._solver().find(self.constraints)
        if deal is None:
            return False
        if deal is UNDECIDED:  # go on as if some deal did: never accuse without a proof
            self.undecided.append(self._steps[-1].line)
            return True
        assert isinstance(deal, dict)
        self.witness.restore(deal)
        return True

    def _solver(self) -> Deals:
        if self._sat is None:
            self._sat = Deals(self.cards, self.places, self.hand_sizes)
        return self._sat

    def _note(self, deal: dict[Card, int], seen: dict[Card, set[int]]) -> None:
        for card, start in deal.items():
            seen[card].add(self.at[card][start])

    def _forced_cards(self, sat: Deals, claims: Sequence[Fact],
                      others: list[Constraint]) -> tuple[Card, ...]:
        """For a claim that a place holds none of some cards: the cards that every deal
        explaining the other facts puts there."""
        if len(claims) != 1 or claims[0].most != 0:
            return ()
        claim = claims[0]
        forced = []
        for card in sorted(claim.cards):
            starts = self.where.get(card, {}).get(claim.place)
            if starts and sat.find(others, Placement(card, frozenset(starts), False)) is None:
                forced.append(card)
        return tuple(forced)
