"""Yes-or-no questions about a hand: any card of a rank, a suit or a colour.

The answer must be true; with every card known the referee checks it.
"""

from __future__ import annotations

from referee.cards import JOKERS, Card, parse_rank, parse_suit, rank_of, suit_of
from referee.errors import Kind, RefereeError
from referee.moves import Answer, Question
from referee.spec import GameSpec, QuestionKind
from referee.state import GameState

COLOURS = {"red": frozenset("HD"), "black": frozenset("SC")}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def read_question(spec: GameSpec, player: int, target: int, word: str) -> Question | None:
    """The question ``any WORD?`` names (a rank, a suit or a colour), or None."""
    low = word.lower()
    if low in COLOURS or low == "reds" or low == "blacks":
        return Question(player, target, QuestionKind.COLOUR.value, low.removesuffix("s"))
    suit = parse_suit(word)
    if suit is not None and suit in spec.suits:
        return Question(player, target, QuestionKind.SUIT.value, suit)
    rank = parse_rank(word, digit_plurals=True)
    if rank is not None and rank in spec.ranks:
        return Question(player, target, QuestionKind.RANK.value, rank)
    return None


def describe_question(question: Question) -> str:
    """``any hearts``, ``any Q``, ``any red``: the words a transcript uses."""
    if question.kind == QuestionKind.SUIT.value:
        return f"any {SUIT_NAMES.get(question.value, question.value)}"
    return f"any {question.value}"


def matching_cards(state: GameState, question: Question) -> list[Card]:
    """The cards in the questioned hand that make the answer yes."""
    hand = state.hands[question.target]
    if question.kind == QuestionKind.RANK.value:
        found = [c for c in hand if rank_of(c) == question.value]
    elif question.kind == QuestionKind.SUIT.value:
        found = [c for c in hand if c not in JOKERS and suit_of(c) == question.value]
    else:
        found = [c for c in hand if c not in JOKERS and suit_of(c) in COLOURS[question.value]]
    return sorted(found)


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


def answer_violation(state: GameState, answer: Answer) -> RefereeError | None:
    """Why ``answer`` is false, or None when it is true."""
    question = state.questioning
    assert question is not None
    found = matching_cards(state, question)
    who = state.players[answer.player]
    if answer.yes and not found:
        return RefereeError(Kind.CONTRADICTION, f"{who} holds no card that answers "
                            f"'{describe_question(question)}', so the answer is no")
    if not answer.yes and found:
        return RefereeError(Kind.CONTRADICTION, f"{who} holds {' '.join(found)}, so the "
                            f"answer to '{describe_question(question)}' is yes")
    return None


def every_question(spec: GameSpec, player: int, target: int) -> list[Question]:
    """Every question the rules let ``player`` put to ``target``."""
    questions = []
    if QuestionKind.RANK in spec.questions:
        questions += [Question(player, target, "rank", r) for r in spec.ranks]
    if QuestionKind.SUIT in spec.questions:
        questions += [Question(player, target, "suit", s) for s in spec.suits]
    if QuestionKind.COLOUR in spec.questions:
        questions += [Question(player, target, "colour", c) for c in COLOURS]
    return questions
