"""Yes-or-no questions about a hand: any card of a rank, a suit or a colour.

The answer must be true; with every card known the referee checks it.
"""

from __future__ import annotations

from typing import Final

from referee.engine.facts import UNBOUNDED, Fact
from referee.engine.flow import ended, give_turn
from referee.engine.lookups import Lookups
from referee.engine.moves import Answer, Question
from referee.engine.state import PHASE_ANSWER, PHASE_ASK, GameState
from referee.engine.wording import describe_question
from referee.errors import Kind, RefereeError
from referee.language.cards import JOKERS, Card, parse_rank, parse_suit, rank_of, suit_of
from referee.language.spec import (
    PASS_TO_ASKED,
    QUESTION_KIND_COLOUR,
    QUESTION_KIND_RANK,
    QUESTION_KIND_SUIT,
    GameSpec,
    QuestionKind,
)

COLOURS: Final = {"red": frozenset("HD"), "black": frozenset("SC")}


def read_question(spec: GameSpec, player: int, target: int, word: str) -> Question | None:
    """The question ``any WORD?`` names (a rank, a suit or a colour), or None."""
    low = word.lower()
    if low in COLOURS or low == "reds" or low == "blacks":
        return Question(player, target, QUESTION_KIND_COLOUR.value, low.removesuffix("s"))
    suit = parse_suit(word)
    if suit is not None and suit in spec.suits:
        return Question(player, target, QUESTION_KIND_SUIT.value, suit)
    rank = parse_rank(word, digit_plurals=True)
    if rank is not None and rank in spec.ranks:
        return Question(player, target, QUESTION_KIND_RANK.value, rank)
    return None


def answers_yes(question: Question, card: Card) -> bool:
    """Whether holding ``card`` makes the answer to ``question`` yes."""
    if question.kind == QUESTION_KIND_RANK.value:
        return rank_of(card) == question.value
    if card in JOKERS:
        return False
    if question.kind == QUESTION_KIND_SUIT.value:
        return suit_of(card) == question.value
    return suit_of(card) in COLOURS[question.value]


def matching_cards(state: GameState, question: Question) -> list[Card]:
    """The known cards in the questioned hand that make the answer yes."""
    return sorted(c for c in state.hands[question.target] if answers_yes(question, c))


def question_violation(
    spec: GameSpec, state: GameState, question: Question, needs_cards: bool
) -> RefereeError | None:
    """Why ``question`` may not be asked (turn aside), or None."""
    name = state.players
    asker, target = name[question.player], name[question.target]
    if QuestionKind(question.kind) not in spec.questions:
        allowed = ", ".join(sorted(k.value for k in spec.questions)) or "none"
        return RefereeError(Kind.ILLEGAL, f"in {spec.title} a question may not name a "
                            f"{question.kind} (questions: {allowed})")
    if question.target == question.player:
        return RefereeError(Kind.ILLEGAL, f"{asker} cannot question {asker}")
    if needs_cards and state.hand_size(question.target) == 0:
        return RefereeError(Kind.ILLEGAL, f"{target} holds no cards, so {asker} cannot "
                            f"question {target}")
    return None


def answer_facts(spec: GameSpec, state: GameState, answer: Answer) -> list[Fact]:
    """What a yes or a no says of the questioned hand: it is true."""
    question = state.questioning
    assert question is not None
    who = state.players[answer.player]
    asked = describe_question(question)
    cards = frozenset(c for c in spec.cards if answers_yes(question, c))
    if answer.yes:
        return [Fact(answer.player, cards, 1, UNBOUNDED,
                     f"{who} said yes to '{asked}', so {who} held such a card",
                     lambda state: RefereeError(Kind.CONTRADICTION, f"{who} holds no card "
                                                f"that answers '{asked}', so the answer is no"))]
    return [Fact(answer.player, cards, 0, 0,
                 f"{who} said no to '{asked}', so {who} held no such card",
                 lambda state: RefereeError(Kind.CONTRADICTION, f"{who} holds "
                                            f"{' '.join(matching_cards(state, question))}, so "
                                            f"the answer to '{asked}' is yes"))]


def forced_answer(state: GameState) -> Answer | None:
    """The true answer, when the questioned hand is known and the table is not a hidden
    one (where every answer is written)."""
    question = state.questioning
    assert question is not None
    if state.hidden or state.unknown[question.target]:
        return None
    return Answer(question.target, bool(matching_cards(state, question)))


def apply_question(state: GameState, question: Question) -> None:
    """The questioned player now owes a yes or a no."""
    state.asking, state.questioning = None, question
    state.phase = PHASE_ANSWER


def apply_answer(lk: Lookups, state: GameState) -> None:
    """After the answer the turn passes, as the rules say."""
    question = state.questioning
    assert question is not None
    state.questioning = None
    state.phase = PHASE_ASK
    if not ended(lk, state):
        give_turn(lk, state, question.target if lk.spec.after_question is PASS_TO_ASKED
                  else question.player + 1)


def question_topics(spec: GameSpec) -> list[tuple[str, str]]:
    """What the rules let a question name, as (kind, value): ``("rank", "Q")``,
    ``("suit", "H")``, ``("colour", "red")``."""
    topics: list[tuple[str, str]] = []
    if QUESTION_KIND_RANK in spec.questions:
        topics += [("rank", r) for r in spec.ranks]
    if QUESTION_KIND_SUIT in spec.questions:
        topics += [("suit", s) for s in spec.suits]
    if QUESTION_KIND_COLOUR in spec.questions:
        topics += [("colour", c) for c in COLOURS]
    return topics


def every_question(spec: GameSpec, player: int, target: int) -> list[Question]:
    """Every question the rules let ``player`` put to ``target``."""
    return [Question(player, target, kind, value) for kind, value in question_topics(spec)]
