"""How long the hidden-card search may work on one question, as one value passed from
the caller (``referee check`` and the live table use :data:`DEFAULT_BUDGETS`; tests pass
smaller ones to reach the solvers)."""

from __future__ import annotations

from referee.values import frozen


@frozen
class Budgets:
    """The knowledge model's budgets: ``repair_steps`` swaps tried by one repair of the
    witness deal before a solver is asked; ``conflicts``, Minicard's budget for one
    question before CP-SAT takes it; ``cp_sat_seconds``, CP-SAT's for one question;
    ``explain_seconds``, the budget for shrinking a proof."""

    repair_steps: int = 60
    conflicts: int = 2_000
    cp_sat_seconds: float = 10.0
    explain_seconds: float = 20.0


DEFAULT_BUDGETS = Budgets()
