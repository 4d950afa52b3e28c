"""Moves as OpenSpiel actions: each move a short sequence of tokens, each token one
integer action with a fixed meaning for the whole game.

A token is a verb (``asks``, ``claims``...), a seat, a rank, a card, a set or a
question's topic. An ask is ``asks, Bob, 7``; a claim is ``claims, low hearts`` and
then the holder of each of the set's cards in deck order, all chosen by the claimer
in turn; a play is ``plays, 7S`` followed by each group it takes (``takes, 3H, 4D``)
and ``end``. Sequences whose length varies end with ``end``, so no legal sequence is
the beginning of another. The bridge asks only for tokens where the legal moves
differ: a step with one possible token is taken at once.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.engine.moves import (
    Answer,
    Ask,
    Claim,
    Draw,
    EndLaying,
    Give,
    LayDown,
    Move,
    NothingLaid,
    Pass,
    Play,
    Question,
    Refuse,
    Show,
    TurnUp,
)
from referee.engine.questions import question_topics
from referee.language.cards import Card
from referee.language.spec import GameSpec

VERBS = ("asks", "questions", "lays down", "claims", "passes to", "plays", "takes", "end",
         "gives", "says no", "says yes", "draws", "turns up", "shows")
MAX_SEATS = 16

Token = int


class Vocabulary:
    """Every token of one rule file's moves, numbered: verbs, seats, ranks, cards,
    sets, question topics."""

    def __init__(self, spec: GameSpec, names: Sequence[str]) -> None:
        self.names = tuple(names)
        words: list[str] = list(VERBS)
        self.verb = {verb: index for index, verb in enumerate(VERBS)}
        self.claim_verb, self.ask_verb = self.verb["claims"], self.verb["asks"]
        self.seat_base = len(words)
        words += [*names, *(f"seat {s}" for s in range(len(names), MAX_SEATS))]
        self.rank_base = len(words)
        self.ranks = tuple(spec.ranks)
        words += [str(rank) for rank in self.ranks]
        self.card_base = len(words)
        self.cards = tuple(spec.cards)
        words += [str(card) for card in self.cards]
        self.set_base = len(words)
        self.sets = tuple(s.name for s in spec.sets)
        words += list(self.sets)
        self.topic_base = len(words)
        self.topics = tuple(_topics(spec))
        words += [f"{kind} {value}" for kind, value in self.topics]
        self.words = tuple(words)
        self._card_index = {card: index for index, card in enumerate(self.cards)}
        self._rank_index = {rank: index for index, rank in enumerate(self.ranks)}
        self._set_index = {name: index for index, name in enumerate(self.sets)}
        self._topic_index = {topic: index for index, topic in enumerate(self.topics)}
        self._members = {s.name: frozenset(s.cards) for s in spec.sets}

    def __len__(self) -> int:
        return len(self.words)

    def word(self, token: Token) -> str:
        """The token as notation: ``asks``, ``Bob``, ``7``, ``7H``, ``low hearts``."""
        return self.words[token]

    def seat(self, seat: int) -> Token:
        return self.seat_base + seat

    def card(self, card: Card) -> Token:
        return self.card_base + self._card_index[card]

    def set_token(self, name: str) -> Token:
        return self.set_base + self._set_index[name]

    def tokens(self, move: Move) -> tuple[Token, ...]:
        """The token sequence of a move (a claim's is built step by step instead)."""
        if type(move) is Ask:  # most moves: the fast way
            card = move.card
            return (self.ask_verb, self.seat_base + move.target,
                    self.card_base + self._card_index[card] if card is not None
                    else self.rank_base + self._rank_index[move.rank])
        verb = self.verb
        cards = self.card
        end = verb["end"]
        if isinstance(move, Ask):
            item = (cards(move.card) if move.card is not None
                    else self.rank_base + self._rank_index[move.rank])
            return verb["asks"], self.seat(move.target), item
        if isinstance(move, Question):
            return (verb["questions"], self.seat(move.target),
                    self.topic_base + self._topic_index[(move.kind, move.value)])
        if isinstance(move, LayDown):
            return (verb["lays down"], self.set_token(move.set_name),
                    *map(cards, move.cards), end)
        if isinstance(move, Claim):
            holder = move.named_holder()
            return (verb["claims"], self.set_token(move.set_name),
                    *(self.seat(holder[c]) for c in self.claim_cards(move.set_name)))
        if isinstance(move, Pass):
            return verb["passes to"], self.seat(move.target)
        if isinstance(move, Play):
            groups = sorted(tuple(sorted(map(cards, group))) for group in move.groups)
            taken = [t for group in groups for t in (verb["takes"], *group)]
            return (verb["plays"], cards(move.card), *taken, end)
        if isinstance(move, Give):
            return (verb["gives"], *map(cards, move.cards), end)
        if isinstance(move, Refuse):
            return (verb["says no"],)
        if isinstance(move, Answer):
            return (verb["says yes" if move.yes else "says no"],)
        if isinstance(move, Draw):
            return (verb["draws"],) if move.card is None else (verb["draws"], cards(move.card))
        if isinstance(move, TurnUp):
            return (verb["turns up"], *map(cards, move.cards), end)
        if isinstance(move, Show):
            return (verb["shows"], *map(cards, move.cards), end)
        if isinstance(move, EndLaying | NothingLaid):
            return (end,)
        raise AssertionError(f"no tokens for {move!r}")

    def ask_item(self, move: Ask) -> int:
        """The item an ask names, counted from the first rank (ranks, then cards)."""
        if move.card is not None:
            return self.card_base + self._card_index[move.card] - self.rank_base
        return self._rank_index[move.rank]

    def topic_index(self, move: Question) -> int:
        """The question's topic, counted from the first topic."""
        return self._topic_index[(move.kind, move.value)]

    def claim_cards(self, set_name: str) -> tuple[Card, ...]:
        """The cards of a set in deck order: the order a claim places them in."""
        members = self._members[set_name]
        return tuple(c for c in self.cards if c in members)


def _topics(spec: GameSpec) -> list[tuple[str, str]]:
    return question_topics(spec)
