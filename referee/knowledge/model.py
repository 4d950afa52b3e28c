"""What is known of hidden cards: is there still a deal that explains every event?

A deal puts every card that is not face up in a starting place: a hand, or a
position in the stock. Given the deal, a game replays deterministically, and
each card's path depends only on its own starting place; so the model tracks,
for every card, where a card that started in each place is now
(:class:`~referee.engine.moves.Transfer` moves them). A fact about the cards at a
place now is then a constraint on starting places (referee/knowledge/witness.py), and
"does some deal explain everything so far?" is a satisfiability problem: one
variable per (card, starting place), exactly one place per card, exactly one
card per stock position, each hand its dealt size, and each fact a small
cardinality constraint switched on by an assumption literal.

Most events need no search: a witness deal is kept, and a constraint it breaks
is usually mended by a few swaps. Only when that fails is the incremental SAT
solver (python-sat) built and asked; when it finds no deal, its unsatisfiable
core, shrunk, names the events that prove the lie. A fact the constraints in force
imply adds none, and one a new fact implies is set aside (:meth:`Knowledge._admit`),
so that a game repeating itself for 100,000 events keeps a few constraints, not one
a fact; each event's changes are logged to undo it, and the logs are dropped once
the caller says it will never undo them (:meth:`Knowledge.seal`: a check does).

The interface serves the checker and the live prompt alike: :meth:`Knowledge.add`
an event's facts, :meth:`Knowledge.moved` its transfers, :attr:`Knowledge.consistent`,
:meth:`Knowledge.explain`, :meth:`Knowledge.possible_places`, :meth:`Knowledge.undo`,
:meth:`Knowledge.seal`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Sequence
from typing import Any

from referee.engine.facts import OUT, Fact, stock_place
from referee.engine.moves import Transfer
from referee.knowledge.budgets import DEFAULT_BUDGETS, Budgets
from referee.knowledge.solving import UNDECIDED, Deals, HardQuestions, Placement
from referee.knowledge.witness import Constraint, Witness
from referee.language.cards import Card
from referee.values import frozen, mutable


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


Form = frozenset[tuple[Card, frozenset[int]]]  # what a constraint counts: (card, its places)
Group = tuple[int, frozenset[Card], bool]  # a fact's place and cards, and whether a floor


@frozen
class _Moved:
    """A transfer: of each of ``cards``, the last ``counts`` starts at ``target`` came
    from ``source`` (one entry for all 52 cards a hidden draw may move)."""

    source: int
    target: int
    cards: tuple[Card, ...]
    counts: tuple[int, ...]


@frozen
class _Added:
    """``constraint`` came into force."""

    constraint: Constraint


@frozen
class _Retired:
    """``constraint`` was set aside: those in force imply it."""

    constraint: Constraint


@frozen
class _Indexed:
    """An index's entry at ``key`` was replaced; ``before`` it was this (None: absent)."""

    index: dict[Any, Any]
    key: object
    before: object


_Change = _Moved | _Added | _Retired | _Indexed


@mutable
class _Step:
    """What one event did, to undo it: the witness deal before it changed (None while it
    has not), and each change, in order (None while there is none: most events of a
    long game change nothing)."""

    line: int
    consistent: bool
    deal: dict[Card, int] | None = None
    log: list[_Change] | None = None

    def note(self, change: _Change) -> None:
        """Log one change."""
        if self.log is None:
            self.log = [change]
        else:
            self.log.append(change)

    @property
    def added(self) -> list[Constraint]:
        """The constraints the event brought into force."""
        return [c.constraint for c in self.log or () if isinstance(c, _Added)]


class Knowledge:
    """The hidden cards of one hand of play, event by event.

    ``cards`` are the cards dealt face down; ``hand_sizes`` what each seat was
    dealt; ``stock_size`` the stock's size. ``given`` lists what the header
    showed (hands typed by the person who knows them); ``budgets`` how long the
    search may work on one question.
    """

    def __init__(self, cards: Iterable[Card], hand_sizes: Sequence[int], stock_size: int,
                 given: Sequence[Given] = (), budgets: Budgets = DEFAULT_BUDGETS) -> None:
        self.cards = tuple(cards)
        self.budgets = budgets
        self.hand_sizes = tuple(hand_sizes)
        self.places = [*range(len(hand_sizes)), *(stock_place(k) for k in range(stock_size))]
        self.where = {card: {p: [p] for p in self.places} for card in self.cards}
        self.at = {card: {p: p for p in self.places} for card in self.cards}
        self.active: dict[Constraint, None] = {}  # the constraints in force, in order
        self.witness = Witness(self._first_deal(given), random.Random(0),
                               steps=budgets.repair_steps)
        self.consistent = True
        self._sat: Deals | None = None
        self.undecided: list[int] = []  # lines no solver settled in its time
        self._steps: list[_Step] = []
        self._sealed = 0  # events added before the steps kept, never to be undone
        self._bounds: dict[Form, tuple[Constraint | None, Constraint | None]] = {}  # floor, ceiling
        self._latest: dict[Group, Constraint] = {}
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
        return self._sealed + len(self._steps)

    @property
    def constraints(self) -> list[Constraint]:
        """The constraints in force: every fact so far, less those the others imply."""
        return list(self.active)

    @property
    def solves(self) -> int:
        """How many times the SAT solver was asked (0 while the witness sufficed)."""
        return self._sat.solves if self._sat is not None else 0

    def add(self, line: int, facts: Sequence[Fact], *, lines: Sequence[int] = ()) -> bool:
        """One event, and the facts it states about the cards before it. Returns whether
        some deal still explains every event."""
        step = _Step(line, self.consistent)
        self._steps.append(step)
        for index, fact in enumerate(facts):
            self._admit(self._constraint(lines[index] if lines else line, fact), step)
        if self.consistent and step.log is not None and (added := step.added):
            self.consistent = self._explained(added)
        return self.consistent

    def moved(self, transfers: Sequence[Transfer]) -> None:
        """Where the last event added moved cards."""
        step = self._steps[-1]
        for transfer in transfers:
            self._transfer(transfer, step)

    def seal(self) -> None:
        """The events added so far will never be undone: forget how to (a check keeps
        nothing per event)."""
        self._sealed += len(self._steps)
        self._steps.clear()

    def undo(self) -> None:
        """Forget the last event added."""
        step = self._steps.pop()
        for change in reversed(step.log or ()):
            if isinstance(change, _Moved):
                self._moved_back(change)
            elif isinstance(change, _Retired):
                change.constraint.active = True
                self.active[change.constraint] = None
                self.witness.watch(change.constraint)
            elif isinstance(change, _Added):
                constraint = change.constraint
                constraint.active = False
                del self.active[constraint]
                self.witness.forget(constraint)
                if self._sat is not None:
                    self._sat.retire(constraint)
            elif change.before is None:
                del change.index[change.key]
            else:
                change.index[change.key] = change.before
        if step.deal is not None:
            self.witness.restore(step.deal)
        self.consistent = step.consistent

    def explain(self) -> Proof:
        """Why no deal explains the events: a small set of facts that cannot all hold,
        those of the last event apart."""
        assert not self.consistent
        sat = self._solver()
        core = sat.shrunk_core(self.constraints)
        last = self._steps[-1].added
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
        hard: HardQuestions | None = None  # CP-SAT's model, made at the first puzzle
        for thorough in (False, True):
            for card, place in puzzles if thorough else pairs:
                if place in seen[card]:
                    continue
                if deadline is not None and time.perf_counter() > deadline:
                    seen[card].add(place)  # no time to rule it out
                    continue
                placement = Placement(card, frozenset(self.where[card][place]), True)
                if thorough:  # Minicard left it open once already: CP-SAT's alone
                    hard = hard or HardQuestions(sat, self.constraints)
                    deal = hard.find(placement, self.budgets.cp_sat_seconds)
                else:
                    deal = sat.find(self.constraints, placement, thorough=False)
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
        where, place = self.where, fact.place
        members = {card: frozenset(starts) for card in fact.cards if card in where
                   if (starts := where[card].get(place))}
        return Constraint(line, fact, members, fact.least, min(fact.most, len(members)))

    def _admit(self, constraint: Constraint, step: _Step) -> None:
        """Put ``constraint`` in force unless those in force imply it, and set aside those
        it makes redundant; so a fact stated again and again is one constraint, and the
        constraints in force stay few however long the game.

        Two ways one constraint implies another are looked for. Over the same starting
        places (a fact stated again with nothing moved), the highest floor and the
        lowest ceiling imply every other bound. Over a place's same cards when the places
        of one include the other's (a hand that only gained cards since): "at most k of
        the more" implies "at most k of the fewer", and "at least k of the fewer" implies
        "at least k of the more". What is set aside is implied by what stays in force,
        so a proof from the constraints in force is a proof."""
        members, least, most = constraint.members, constraint.least, constraint.most
        floors, ceils = least > 0, most < len(members)
        if not (floors or ceils):
            return  # says nothing
        form: Form = frozenset(members.items())
        floor, ceiling = bounds = self._bounds.get(form, (None, None))
        raises = least > (0 if floor is None else floor.least)
        lowers = most < (len(members) if ceiling is None else ceiling.most)
        if not (raises or lowers):
            return
        if floors != ceils:  # a floor or a ceiling alone: the group's latest may imply it
            fact = constraint.fact
            group: Group = (fact.place, fact.cards, floors)
            older = self._latest.get(group)
            if older is not None and _within(older, constraint):
                if floors and older.least >= least:
                    return  # at least as many of fewer places
                if ceils and older.most >= most and older.active:
                    self._retire(older, step)  # at most as many of more places
            step.note(_Indexed(self._latest, group, older))
            self._latest[group] = constraint
        step.note(_Indexed(self._bounds, form, None if bounds == (None, None) else bounds))
        self._bounds[form] = (constraint if raises else floor, constraint if lowers else ceiling)
        for old in {floor: None, ceiling: None}:
            if old is not None and old.active and old not in self._bounds[form]:
                self._retire(old, step)
        step.note(_Added(constraint))
        self.active[constraint] = None
        self.witness.watch(constraint)  # the solver, built when first asked, encodes it then

    def _retire(self, constraint: Constraint, step: _Step) -> None:
        """Set ``constraint`` aside: those in force imply it."""
        constraint.active = False
        del self.active[constraint]
        self.witness.forget(constraint)
        step.note(_Retired(constraint))

    def _transfer(self, transfer: Transfer, step: _Step) -> None:
        where, every_at = self.where, self.at  # a hidden draw: every card, every draw
        cards = self.cards if transfer.cards is None else [
            c for c in transfer.cards if c in where]
        source, target = transfer.source, transfer.target
        moved: list[Card] = []
        counts: list[int] = []
        for card in cards:
            here = where[card]
            starts = here.pop(source, None)
            if starts is None:
                continue
            there = here.get(target)
            if there is None:
                here[target] = starts  # the list, no longer the source's
            else:
                there.extend(starts)
            at = every_at[card]
            for start in starts:
                at[start] = target
            moved.append(card)
            counts.append(len(starts))
        if moved:
            step.note(_Moved(source, target, tuple(moved), tuple(counts)))

    def _moved_back(self, change: _Moved) -> None:
        """Undo a transfer: each card's starts it moved go back to the source."""
        for card, count in zip(change.cards, change.counts, strict=True):
            here = self.where[card]
            moved = here[change.target]
            starts = moved[len(moved) - count:]
            del moved[len(moved) - count:]
            if not moved:
                del here[change.target]
            here[change.source] = starts
            at = self.at[card]
            for start in starts:
                at[start] = change.source

    # -- deciding -------------------------------------------------------------------

    def _explained(self, added: list[Constraint]) -> bool:
        """Whether some deal meets every constraint, the last step's new ones (``added``)
        included: the witness, mended if need be, or else one the solver finds."""
        broken = [c for c in added if c.active and not self.witness.meets(c)]
        if not broken:
            return True
        step = self._steps[-1]
        step.deal = self.witness.copy_deal()  # the witness changes from here
        if self.witness.repair(broken):
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
            self._sat = Deals(self.cards, self.places, self.hand_sizes, self.budgets)
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


def _within(smaller: Constraint, larger: Constraint) -> bool:
    """Whether every place ``smaller`` counts, ``larger`` counts too."""
    members = larger.members
    for card, places in smaller.members.items():  # noqa: SIM110 - no generator: every fact
        if not places <= members.get(card, _NOWHERE):
            return False
    return True


_NOWHERE: frozenset[int] = frozenset()
