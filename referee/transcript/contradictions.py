"""The errors of an event the cards contradict: no deal explains it with the earlier
events (with the lines that prove it), or the counts of cards rule it out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.engine.facts import Fact, count_range
from referee.errors import Kind, RefereeError, Span

if TYPE_CHECKING:
    from referee.engine.lookups import Lookups
    from referee.engine.state import GameState
    from referee.knowledge.model import Proof


def contradiction(proof: Proof, span: Span, state: GameState, lookups: Lookups
                  ) -> RefereeError:
    """The error for an event no deal explains, with the lines that prove it."""
    said = "; ".join(fact.reason for fact in proof.claims)
    reasons = "; ".join(f"line {line}: {reason}" for line, reason in proof.because)
    if proof.forced:
        who = state.players[proof.claims[0].place]
        but = (f"but every deal that explains the earlier events puts "
               f"{lookups.listed(proof.forced)} in {who}'s hand")
    elif reasons:
        but = "but no deal of the cards explains that together with the earlier events"
    else:
        but = "but no deal of the cards explains that"
    message = f"{said}; {but}" + (f": {reasons}" if reasons else "")
    return RefereeError(Kind.CONTRADICTION, message, span, proof.because)


def miscounted(state: GameState, fact: Fact) -> RefereeError:
    """The contradiction of a fact the counts of cards and the cards known rule out,
    though the knowledge model (some facts set aside by the table) would allow it."""
    low, high = count_range(state, fact.place, fact.cards)
    who = state.players[fact.place] if fact.place >= 0 else "the stock"
    but = (f"{who} is known to hold {low} of those cards" if low > fact.most else
           f"counting {who}'s cards and the cards known elsewhere, {who} holds at most "
           f"{high} of those cards")
    return RefereeError(Kind.CONTRADICTION, f"{fact.reason}; but {but}")
