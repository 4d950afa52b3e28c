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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from pysat.solvers import Solver

from referee.cards import Card
from referee.facts import OUT, Fact, Transfer, stock_place
from referee.witness import Constraint, Witness

SOLVER = "minicard"  # MiniSat with native cardinality constraints: fast to set up


@dataclass(frozen=True, slots=True)
class Given:
    """A fact known before the first event: what a header line showed."""

    line: int
    fact: Fact


@dataclass(frozen=True, slots=True)
class Proof:
    """Why no deal explains the events: the facts of the last event that cannot hold
    (``claims``), and the earlier ones that rule them out, as (line, reason)."""

    claims: tuple[Fact, ...]
    because: tuple[tuple[int, str], ...]
    forced: tuple[Card, ...] = ()  # cards every other deal puts where the claim says none is


@dataclass(slots=True)
class _Step:
    """What one event added, to undo it."""

    line: int
    deal: dict[Card, int]
    consistent: bool
    constraints: list[Constraint] = field(default_factory=list)
    moves: list[tuple[Card, int, int, list[int]]] = field(default_factory=list)
    superseded: list[tuple[Constraint, Constraint | None, bool]] = field(default_factory=list)


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
        self._sat: _Sat | None = None
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

    def possible_places(self) -> dict[Card, list[int]]:
        """For every card still in a hand or the stock, the places it may be now."""
        assert self.consistent
        seen: dict[Card, set[int]] = {card: set() for card in self.cards}
        self._note(self.witness.start, seen)
        sat = self._solver()
        for card in self.cards:
            for place in list(self.where[card]):
                if place == OUT or place in seen[card]:
                    continue
                deal = sat.find(self.constraints, self._lits(card, place))
                if deal is not None:
                    self._note(deal, seen)
        return {card: sorted(places) for card, places in seen.items()
                if places and OUT not in places}

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

    def _lits(self, card: Card, place: int) -> list[int]:
        sat = self._solver()
        return [sat.var[card, start] for start in self.where[card].get(place, ())]

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
        self.witness.restore(deal)
        return True

    def _solver(self) -> _Sat:
        if self._sat is None:
            self._sat = _Sat(self.cards, self.places, self.hand_sizes)
        return self._sat

    def _note(self, deal: dict[Card, int], seen: dict[Card, set[int]]) -> None:
        for card, start in deal.items():
            seen[card].add(self.at[card][start])

    def _forced_cards(self, sat: _Sat, claims: Sequence[Fact],
                      others: list[Constraint]) -> tuple[Card, ...]:
        """For a claim that a place holds none of some cards: the cards that every deal
        explaining the other facts puts there."""
        if len(claims) != 1 or claims[0].most != 0:
            return ()
        claim = claims[0]
        forced = []
        for card in sorted(claim.cards):
            if card in self.where and self.where[card].get(claim.place):
                away = [-lit for lit in self._lits(card, claim.place)]
                if sat.find(others, away) is None:
                    forced.append(card)
        return tuple(forced)


class _Sat:
    """The SAT encoding of deals and constraints, built on first need."""

    def __init__(self, cards: Sequence[Card], places: Sequence[int],
                 hand_sizes: Sequence[int]) -> None:
        self.cards = cards
        self.places = places
        self.var = {(card, place): index + 1 for index, (card, place) in
                    enumerate((c, p) for c in cards for p in places)}
        self.top = len(self.var)
        self.solver = Solver(name=SOLVER)
        self.solves = 0
        groups = [([self.var[c, p] for p in places], 1) for c in cards]
        groups += [([self.var[c, p] for c in cards], 1) for p in places[len(hand_sizes):]]
        groups += [([self.var[c, seat] for c in cards], size)
                   for seat, size in enumerate(hand_sizes)]
        for lits, bound in groups:  # exactly ``bound`` of ``lits``, as native constraints
            self.solver.add_atmost(lits, bound)
            self.solver.add_atmost([-lit for lit in lits], len(lits) - bound)

    def _new(self) -> int:
        self.top += 1
        return self.top

    def _switched(self, switch: int, copies: int) -> list[int]:
        """``copies`` literals that are all true when ``switch`` is (the first is switch)."""
        extra = [self._new() for _ in range(copies - 1)]
        for lit in extra:
            self.solver.add_clause([-switch, lit])
        return [switch, *extra][:copies]

    def encode(self, constraint: Constraint) -> int:
        """The assumption literal that switches ``constraint`` on (encoding it once).

        A card's literals exclude each other, so the number of true literals among all
        the constraint's cards' is the number of its cards in its places: each bound is
        one native cardinality constraint, relaxed by copies of the switch."""
        if constraint.switch:
            return constraint.switch
        switch = constraint.switch = self._new()
        lits = [self.var[card, p] for card, places in constraint.members.items()
                for p in places]
        cards = len(constraint.members)
        least, most = constraint.least, constraint.most
        if least > most:
            self.solver.add_clause([-switch])
            return switch
        if most < cards:  # at most ``most``: room for the copies only when switched off
            self.solver.add_atmost([*lits, *self._switched(switch, cards - most)], cards)
        if least > 0:  # at least ``least``: at most len - least of them false
            self.solver.add_atmost([*(-lit for lit in lits), *self._switched(switch, least)],
                                   len(lits))
        return switch

    def retire(self, constraint: Constraint) -> None:
        """Switch ``constraint`` off for good."""
        if constraint.switch:
            self.solver.add_clause([-constraint.switch])

    def solve(self, assumptions: list[int]) -> bool:
        """Whether some deal meets the assumptions."""
        self.solves += 1
        return bool(self.solver.solve(assumptions=assumptions))

    def find(self, constraints: Sequence[Constraint],
             extra: Sequence[int] = ()) -> dict[Card, int] | None:
        """A deal meeting ``constraints`` and the literals ``extra`` (each alone, or, for
        a probe, any one of them), or None."""
        assumptions = [self.encode(c) for c in constraints]
        if extra and all(lit > 0 for lit in extra):
            probe = self._new()
            self.solver.add_clause([-probe, *extra])
            found = self.solve([*assumptions, probe])
            self.solver.add_clause([-probe])
        else:
            found = self.solve([*assumptions, *extra])
        return self.model() if found else None

    def model(self) -> dict[Card, int]:
        """The starting place of every card in the solver's last model."""
        model = self.solver.get_model()
        assert model is not None
        true = {lit for lit in model if lit > 0}
        return {card: next(p for p in self.places if self.var[card, p] in true)
                for card in self.cards}

    def shrunk_core(self, constraints: Sequence[Constraint]) -> list[Constraint]:
        """An unsatisfiable subset of ``constraints`` from which none can be dropped."""
        by_switch = {self.encode(c): c for c in constraints}
        self.solve(list(by_switch))
        core = [s for s in (self.solver.get_core() or by_switch) if s in by_switch]
        for switch in list(core):
            if switch not in core:
                continue
            trial = [s for s in core if s != switch]
            if not self.solve(trial):
                smaller = set(self.solver.get_core() or trial)
                core = [s for s in trial if s in smaller]
        return [by_switch[s] for s in core]

    def close(self) -> None:
        """Free the solver."""
        self.solver.delete()
