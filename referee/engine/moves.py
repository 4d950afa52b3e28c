"""Moves: what one player does at one moment, as the engine takes it; and the plain
values moves leave in the state: where a move took cards (:class:`Transfer`) and what a
claim won (:class:`Judgement`).

Each type writes out its ``__init__``, where the record decorator would make one: one
the decorator makes runs in the interpreter even in a compiled build, and these are
built for every event (tests/test_values.py holds each to its fields)."""

from __future__ import annotations

from referee.language.cards import Card, Rank
from referee.values import value


@value
class Ask:
    """``player`` asks ``target`` for ``rank``, or for ``card`` when one is named."""

    player: int
    target: int
    rank: Rank
    card: Card | None

    def __init__(self, player: int, target: int, rank: Rank, card: Card | None = None) -> None:
        self.player = player
        self.target = target
        self.rank = rank
        self.card = card


@value
class Give:
    """The asked player hands these cards over; with ``count``, that many cards of the
    rank asked for, unnamed (the table saw how many, not which)."""

    player: int
    cards: tuple[Card, ...]
    count: int | None

    def __init__(self, player: int, cards: tuple[Card, ...] = (), count: int | None = None) -> None:
        self.player = player
        self.cards = cards
        self.count = count


@value
class Refuse:
    """The asked player has nothing to give ("go fish")."""

    player: int

    def __init__(self, player: int) -> None:
        self.player = player


@value
class Draw:
    """``player`` takes the top card of the stock: ``card`` when it is named (shown to
    the table, or known from an open deal)."""

    player: int
    card: Card | None

    def __init__(self, player: int, card: Card | None = None) -> None:
        self.player = player
        self.card = card


@value
class LayDown:
    """``player`` lays down the whole set ``set_name`` from their hand: by choice, or
    at once when the rules lay sets down as soon as they are complete. A set of part
    of a rank (a pair) names the ``cards`` laid."""

    player: int
    set_name: str
    cards: tuple[Card, ...] = ()

    def __init__(self, player: int, set_name: str, cards: tuple[Card, ...] = ()) -> None:
        self.player = player
        self.set_name = set_name
        self.cards = cards


@value
class Claim:
    """``player`` claims ``set_name``, saying which teammate holds which of its cards.

    Two claims are equal when they put the same cards with the same players, in
    whatever order they name them.
    """

    player: int
    set_name: str
    holders: tuple[tuple[int, tuple[Card, ...]], ...]

    def __init__(self, player: int, set_name: str,
                 holders: tuple[tuple[int, tuple[Card, ...]], ...]) -> None:
        self.player = player
        self.set_name = set_name
        self.holders = holders

    def named_holder(self) -> dict[Card, int]:
        """The seat the claim puts each card with."""
        return {card: seat for seat, cards in self.holders for card in cards}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Claim) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[int, str, frozenset[tuple[int, Card]]]:
        placed = frozenset((seat, card) for seat, cards in self.holders for card in cards)
        return self.player, self.set_name, placed


@value
class Pass:
    """``player``, whose hand is empty, passes the turn to ``target``."""

    player: int
    target: int

    def __init__(self, player: int, target: int) -> None:
        self.player = player
        self.target = target


@value
class Question:
    """``player`` asks ``target`` whether they hold any card of a rank, a suit or a
    colour: ``kind`` is ``rank``, ``suit`` or ``colour``, ``value`` e.g. ``Q``, ``H``, ``red``."""

    player: int
    target: int
    kind: str
    value: str

    def __init__(self, player: int, target: int, kind: str, value: str) -> None:
        self.player = player
        self.target = target
        self.kind = kind
        self.value = value


@value
class Answer:
    """The questioned player's yes or no."""

    player: int
    yes: bool

    def __init__(self, player: int, yes: bool) -> None:
        self.player = player
        self.yes = yes


@value
class Play:
    """``player`` plays ``card``, capturing ``groups`` of centre cards (each summing to the
    card's value); with no groups the card goes to the centre. Plays that take the same
    groups, in whatever order, are equal."""

    player: int
    card: Card
    groups: tuple[tuple[Card, ...], ...] = ()

    def __init__(self, player: int, card: Card, groups: tuple[tuple[Card, ...], ...] = ()) -> None:
        self.player = player
        self.card = card
        self.groups = groups

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Play) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[int, Card, frozenset[frozenset[Card]]]:
        return self.player, self.card, frozenset(frozenset(g) for g in self.groups)


@value
class TurnUp:
    """Cards turned from the stock into the centre before ``player``'s turn."""

    player: int
    cards: tuple[Card, ...]

    def __init__(self, player: int, cards: tuple[Card, ...]) -> None:
        self.player = player
        self.cards = cards


@value
class Show:
    """``player`` shows the table ``cards`` from their hand (after a claim, say)."""

    player: int
    cards: tuple[Card, ...]

    def __init__(self, player: int, cards: tuple[Card, ...]) -> None:
        self.player = player
        self.cards = cards


@value
class EndLaying:
    """No more sets are laid at once now: whoever could have completed one did not.
    Never written; the referee infers it from the next event that is not a book."""

    player: int

    def __init__(self, player: int) -> None:
        self.player = player


@value
class NothingLaid:
    """The player in turn, who could not ask and could lay a set only if the unseen
    cards made one, laid none: they had none. Never written; the referee infers it
    from the next event that is not their book."""

    player: int

    def __init__(self, player: int) -> None:
        self.player = player


Move = (Ask | Give | Refuse | Draw | LayDown | Claim | Pass | Question | Answer | Play
        | TurnUp | Show | EndLaying | NothingLaid)


@value
class Transfer:
    """Every card of ``cards`` (every card, when None) at ``source`` goes to ``target``."""

    cards: frozenset[Card] | None
    source: int
    target: int

    def __init__(self, cards: frozenset[Card] | None, source: int, target: int) -> None:
        self.cards = cards
        self.source = source
        self.target = target


@value
class Judgement:
    """What a claim won: the winning side (None when void), and every card the
    claim put in the wrong place, as (card, seat named, seat holding it). A value, not
    frozen to mypy, so that its ``__init__`` can be written out (compiled, native)."""

    winner: int | None
    misplaced: tuple[tuple[Card, int, int], ...]

    def __init__(self, winner: int | None, misplaced: tuple[tuple[Card, int, int], ...]) -> None:
        self.winner = winner
        self.misplaced = misplaced

    @property
    def right(self) -> bool:
        """Whether every card was where the claim said."""
        return not self.misplaced
