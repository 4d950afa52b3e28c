"""Deciding whether some deal meets a set of constraints: the solvers behind knowledge.

A deal is one variable per (card, starting place), true for the card's place:
exactly one per card, one card per stock position, each hand its dealt size. A
constraint bounds how many of its cards start in the places listed for them;
since a card's variables exclude each other, that is the number of true
variables among them, one native cardinality constraint switched on by an
assumption literal.

Two solvers share the work. Minicard (MiniSat with native cardinality
constraints, through python-sat) is incremental and fast to set up; it answers
almost every question in a millisecond. Some questions are counting puzzles
(a player's hand cannot have held one card of each of nine ranks at once),
which take resolution-based solvers exponential time; past a conflict budget
the question goes to OR-Tools CP-SAT, whose linear relaxation settles them. A
question neither settles in its time is :data:`UNDECIDED`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from referee.knowledge.budgets import DEFAULT_BUDGETS, Budgets
from referee.knowledge.witness import Constraint
from referee.language.cards import Card
from referee.values import frozen

Deal = dict[Card, int]


class _Undecided:
    """Neither solver settled the question in its time."""

    def __repr__(self) -> str:
        return "UNDECIDED"


UNDECIDED = _Undecided()


@frozen
class Placement:
    """A condition on one card: it starts in one of ``places`` (``inside``), or in none."""

    card: Card
    places: frozenset[int]
    inside: bool


class Deals:
    """The questions "is there a deal that meets these constraints (and this placement)?"
    and "which of these constraints cannot hold together?", asked incrementally."""

    def __init__(self, cards: Sequence[Card], places: Sequence[int],
                 hand_sizes: Sequence[int], budgets: Budgets = DEFAULT_BUDGETS) -> None:
        self.cards = cards
        self.budgets = budgets
        self.places = places
        self.hand_sizes = hand_sizes
        self.var = {(card, place): index + 1 for index, (card, place) in
                    enumerate((c, p) for c in cards for p in places)}
        self.top = len(self.var)
        from pysat.solvers import Solver  # imported only when a hidden deal needs a solver

        self.solver = Solver(name="minicard")
        self.solves = 0
        self._probes: dict[tuple[Card, frozenset[int]], int] = {}
        groups = [([self.var[c, p] for p in places], 1) for c in cards]
        groups += [([self.var[c, p] for c in cards], 1) for p in places[len(hand_sizes):]]
        groups += [([self.var[c, seat] for c in cards], size)
                   for seat, size in enumerate(hand_sizes)]
        for lits, bound in groups:  # exactly ``bound`` of ``lits``
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
        """The assumption literal that switches ``constraint`` on (encoding it once): each
        bound is one native cardinality constraint, relaxed by copies of the switch."""
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

    def find(self, constraints: Sequence[Constraint],
             placement: Placement | None = None, *,
             thorough: bool = True) -> Deal | _Undecided | None:
        """A deal meeting ``constraints`` (and ``placement``), None if there is none;
        unless ``thorough``, a question Minicard leaves open is UNDECIDED, not CP-SAT's."""
        assumptions = [self.encode(c) for c in constraints]
        if placement is not None:
            if placement.inside:
                assumptions.append(self._probe(placement.card, placement.places))
            else:
                assumptions += [-self.var[placement.card, p] for p in placement.places]
        found = self._solve(assumptions)
        if found is None:
            if not thorough:
                return UNDECIDED
            return _cp_sat(self, constraints, placement, self.budgets.cp_sat_seconds)[0]
        return self._model() if found else None

    def _probe(self, card: Card, places: frozenset[int]) -> int:
        """A literal that, assumed, puts ``card`` in one of ``places``: made once for each
        question, so that asking it again (every 'known') adds nothing to the solver."""
        probe = self._probes.get((card, places))
        if probe is None:
            probe = self._probes[card, places] = self._new()
            self.solver.add_clause([-probe, *(self.var[card, p] for p in places)])
        return probe

    def _solve(self, assumptions: list[int]) -> bool | None:
        """Minicard within its conflict budget: True, False, or None when out of budget."""
        self.solves += 1
        self.solver.conf_budget(self.budgets.conflicts)
        answer = self.solver.solve_limited(assumptions=assumptions)
        return None if answer is None else bool(answer)

    def _model(self) -> Deal:
        model = self.solver.get_model()
        assert model is not None
        true = {lit for lit in model if lit > 0}
        return {card: next(p for p in self.places if self.var[card, p] in true)
                for card in self.cards}

    def shrunk_core(self, constraints: Sequence[Constraint]) -> list[Constraint]:
        """A set of ``constraints`` that cannot hold together, shrunk by dropping one at a
        time while the rest still cannot (within a time budget: it may not be minimal)."""
        started = time.perf_counter()
        core = self._core(list(constraints)) or list(constraints)
        for constraint in list(core):
            if time.perf_counter() - started > self.budgets.explain_seconds:
                break
            if constraint not in core:
                continue
            trial = [c for c in core if c is not constraint]
            smaller = self._core(trial, quick=True)
            if smaller is not None:
                core = smaller
        return core

    def _core(self, constraints: list[Constraint], *, quick: bool = False
              ) -> list[Constraint] | None:
        """A subset that cannot hold together, or None if they can (or it is not known)."""
        by_switch = {self.encode(c): c for c in constraints}
        found = self._solve(list(by_switch))
        if found is False:
            switches = set(self.solver.get_core() or by_switch)
            return [c for s, c in by_switch.items() if s in switches]
        if found:
            return None
        seconds = self.budgets.cp_sat_seconds
        deal, core = _cp_sat(self, constraints, None, seconds / 5 if quick else seconds)
        return None if deal is not None else core

    @property
    def size(self) -> int:
        """How many variables the encoding uses."""
        return self.top

    def close(self) -> None:
        """Free the solver."""
        self.solver.delete()


def _cp_sat(deals: Deals, constraints: Sequence[Constraint], placement: Placement | None,
            seconds: float) -> tuple[Deal | _Undecided | None, list[Constraint] | None]:
    """Ask CP-SAT: a deal, or None with a subset of the constraints that cannot hold
    together, or UNDECIDED when out of time."""
    return HardQuestions(deals, constraints).ask(placement, seconds)


class HardQuestions:
    """CP-SAT's model of the deals meeting ``constraints``, made once and asked one
    placement question after another (making the model in Python costs about what
    solving it does, and the counting puzzles of one knowledge table share it)."""

    def __init__(self, deals: Deals, constraints: Sequence[Constraint]) -> None:
        from ortools.sat.python import cp_model  # heavy: imported only for the hard ones

        self._cp_model = cp_model
        self.deals = deals
        self.constraints = constraints
        model = self.model = cp_model.CpModel()
        cards, places = deals.cards, deals.places
        x = self.x = {key: model.new_bool_var("") for key in deals.var}
        for card in cards:
            model.add_exactly_one(x[card, p] for p in places)
        for place in places[len(deals.hand_sizes):]:
            model.add_exactly_one(x[c, place] for c in cards)
        for seat, size in enumerate(deals.hand_sizes):
            model.add(sum(x[c, seat] for c in cards) == size)
        self.switches = []
        for constraint in constraints:
            switch = model.new_bool_var("")
            self.switches.append(switch)
            held = sum(x[card, p] for card, ps in constraint.members.items() for p in ps)
            model.add(held >= constraint.least).only_enforce_if(switch)
            model.add(held <= constraint.most).only_enforce_if(switch)

    def find(self, placement: Placement, seconds: float) -> Deal | _Undecided | None:
        """A deal meeting the constraints and ``placement``, None if there is none, or
        UNDECIDED when out of time."""
        return self.ask(placement, seconds)[0]

    def ask(self, placement: Placement | None, seconds: float
            ) -> tuple[Deal | _Undecided | None, list[Constraint] | None]:
        """A deal, or None with a subset of the constraints that cannot hold together,
        or UNDECIDED when out of time."""
        cp_model, model, x = self._cp_model, self.model, self.x
        assumed = list(self.switches)
        if placement is not None:  # switched on by its own literal: later questions
            probe = model.new_bool_var("")  # leave it off
            lits = [x[placement.card, p] for p in placement.places]
            if placement.inside:
                model.add_bool_or(lits).only_enforce_if(probe)
            else:
                model.add_bool_and([lit.Not() for lit in lits]).only_enforce_if(probe)
            assumed.append(probe)
        model.clear_assumptions()
        model.add_assumptions(assumed)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.max_time_in_seconds = seconds
        solver.parameters.linearization_level = 2  # the whole LP relaxation: counting puzzles
        solver.parameters.cp_model_presolve = False  # are settled at the root
        status = solver.solve(model)
        cards, places = self.deals.cards, self.deals.places
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return {card: next(p for p in places if solver.boolean_value(x[card, p]))
                    for card in cards}, None
        if status == cp_model.INFEASIBLE:
            index = {switch.index: i for i, switch in enumerate(self.switches)}
            core = [self.constraints[index[i]]
                    for i in solver.sufficient_assumptions_for_infeasibility() if i in index]
            return None, core or list(self.constraints)
        return UNDECIDED, None
