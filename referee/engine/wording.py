"""The referee's words for what the engine decided: a question as a transcript writes
it, a claim's judgement as the referee announces it. The engine decides; this module
only words it (the live table's wording of a whole game is referee/live/announce.py)."""

from __future__ import annotations

from typing import Final

from referee.engine.moves import Claim, Judgement, Question
from referee.engine.state import GameState
from referee.language.spec import QUESTION_KIND_SUIT

SUIT_NAMES: Final = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def describe_question(question: Question) -> str:
    """``any hearts``, ``any Q``, ``any red``: the words a transcript uses."""
    if question.kind == QUESTION_KIND_SUIT.value:
        return f"any {SUIT_NAMES.get(question.value, question.value)}"
    return f"any {question.value}"


def describe_judgement(
    state: GameState, claim: Claim, judgement: Judgement, side_names: tuple[str, ...]
) -> str:
    """``Fay's claim of high diamonds is wrong: KD is with Cy, not Fay; team 1 wins it``."""
    name = state.players
    who = f"{name[claim.player]}'s claim of {claim.set_name}"
    if judgement.winner is None:
        result = "the set is void"
    else:
        result = f"team {side_names[judgement.winner]} wins the set"
    if judgement.right:
        return f"{who} is right: {result}"
    places = "; ".join(f"{card} is with {name[actual]}, not {name[named]}"
                       for card, named, actual in judgement.misplaced)
    return f"{who} is wrong: {places}; {result}"
