"""Self-play's players: how a seat chooses its move (``random``, ``counting``).

A policy sees every move as the table saw it (:meth:`Engine.as_seen`) and chooses
from its seat's own hand and those public events, never from the true deal. The
counting player keeps, from the events alone, what its seat knows of each card
(:class:`CardCounter`): its known holder, the seats known not to hold it, and the
cards out of play; a seat that asked for a rank is taken to hold some of it. Each
event costs a few dictionary updates, so self-play stays thousands of games a
minute; the SAT-backed knowledge model (referee/knowledge/) would prove more, at a
solver call a move, which self-play cannot afford.

Every rule question still goes to the engine's verbs (whom a seat may ask and for
what, the sets it may lay down, the open sets and teammates a claim names), so a
policy chooses only among legal moves: rules are data, no game is named here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, Protocol

from referee.authoring.selfplay import random_claim, random_move
from referee.engine.asks import asked_cards
from referee.engine.core import Engine
from referee.engine.moves import (
    Answer,
    Ask,
    Claim,
    Draw,
    Give,
    LayDown,
    Move,
    Pass,
    Play,
    Question,
    Refuse,
    Show,
    TurnUp,
)
from referee.engine.questions import answers_yes
from referee.engine.state import PHASE_ASK, PHASE_PASS, GameState
from referee.errors import Kind, RefereeError
from referee.language.cards import Card, Rank
from referee.language.spec import HANDOVER_ONE_OF_RANK, HANDOVER_TO_CENTRE, LAY_DOWN_AT_ONCE

if TYPE_CHECKING:  # self-play's random source, imported only when it plays
    import random

RANDOM: Final = "random"
COUNTING: Final = "counting"
ISMCTS: Final = "ismcts"
POLICIES: Final = (RANDOM, COUNTING, ISMCTS)
ASKED_WEIGHT: Final = 4.0  # how much likelier a seat that asked for a rank holds each of its cards
_POLICY: Final = re.compile(r"(random|counting|ismcts)(?::([0-9]+))?")
FEWEST_SIMULATIONS: Final = 2  # OpenSpiel's ISMCTS has no visited move to choose after one
MOST_SIMULATIONS: Final = 9_999_999


class Policy(Protocol):
    """How one seat chooses its moves; it sees each move before it is applied, when it
    ``tracks`` them."""

    tracks: bool

    def choose(self, engine: Engine, state: GameState, rng: random.Random) -> Move | None:
        """The seat's move now (None: it has none)."""

    def observe(self, engine: Engine, state: GameState, move: Move,
                seen: Sequence[Move]) -> None:
        """Note ``move`` (as the table saw it: ``seen``), from the state before it."""


class RandomPolicy:
    """Uniformly random legal play (:func:`referee.authoring.selfplay.random_move`)."""

    tracks = False

    def choose(self, engine: Engine, state: GameState, rng: random.Random) -> Move | None:
        """A random legal move."""
        return random_move(engine, state, rng)

    def observe(self, engine: Engine, state: GameState, move: Move,
                seen: Sequence[Move]) -> None:
        """A random player remembers nothing."""


def parse_policies(text: str, players: int) -> tuple[str, ...]:
    """Each seat's policy from ``--policy``: one for every seat, or a comma list by seat
    (``counting,random``; a shorter list repeats from the start). A word it does not
    know, and ``ismcts`` without the OpenSpiel bridge, are usage errors.

    >>> parse_policies("counting,random", 4)
    ('counting', 'random', 'counting', 'random')
    """
    words = [w.strip().lower() for w in text.split(",")]
    if not text.strip() or len(words) > max(players, 1):
        raise RefereeError(Kind.USAGE, f"--policy takes one of {', '.join(POLICIES)} "
                           f"(ismcts:N for N simulations), or a comma list of at most "
                           f"{players} of them, one a seat; not {text[:60]!r}")
    for word in words:
        match = _POLICY.fullmatch(word)
        if match is None or (":" in word and match.group(1) != ISMCTS):
            raise RefereeError(Kind.USAGE, f"--policy takes {', '.join(POLICIES)} or "
                               f"ismcts:N, not {word[:40]!r}")
        if match.group(2) is not None and not (
                FEWEST_SIMULATIONS <= int(match.group(2)) <= MOST_SIMULATIONS):
            raise RefereeError(Kind.USAGE, f"--policy takes ismcts:N for N simulations "
                               f"from {FEWEST_SIMULATIONS} to {MOST_SIMULATIONS:,}, "
                               f"not {word[:40]!r}")
        if match.group(1) == ISMCTS and not _has_openspiel_bridge():
            raise RefereeError(Kind.USAGE, "ismcts needs the openspiel extra "
                               "(pip install 'referee[openspiel]')")
    return tuple(words[seat % len(words)] for seat in range(players))


def _has_openspiel_bridge() -> bool:
    """Whether the OpenSpiel bridge, which plays ISMCTS, is installed."""
    import importlib.util

    try:
        return importlib.util.find_spec("referee.openspiel.policy") is not None
    except ModuleNotFoundError:
        return False


def make_policies(engine: Engine, names: Sequence[str]) -> list[Policy]:
    """A fresh player for each seat (a counting player's memory is one hand's)."""
    out: list[Policy] = []
    for seat, name in enumerate(names):
        kind = name.split(":")[0]
        if kind == COUNTING:
            out.append(CountingPolicy(engine, seat))
        elif kind == RANDOM:
            out.append(RandomPolicy())
        else:  # pragma: no cover - refused by parse_policies unless the bridge is there
            from importlib import import_module

            bridge = import_module("referee.openspiel.policy")
            out.append(bridge.make_policy(engine, seat, name))
    return out


class RankChances:
    """A rank's weights for one choice (:meth:`CardCounter.rank_weights`), and the
    chances of its cards that no seat is known to lack, once worked out."""

    __slots__ = ("unbarred", "weights")

    def __init__(self, weights: dict[int, float]) -> None:
        self.weights = weights
        self.unbarred: dict[int, float] | None = None


def _shares(weights: dict[int, float], stock: int) -> dict[int, float]:
    """Each seat's chance of holding a card, from its weight; the ``stock`` cards take
    the rest."""
    total = sum(weights.values()) + stock
    return {seat: w / total for seat, w in weights.items()} if total else {}


class CardCounter:
    """What one seat knows of the cards from its hand and the public events."""

    def __init__(self, engine: Engine, seat: int) -> None:
        self.engine = engine
        self.lk = engine.lookups
        self.seat = seat
        self.holder: dict[Card, int] = {}  # the seat known to hold the card
        self.absent: dict[Card, set[int]] = {}  # seats known not to hold it
        self.gone: set[Card] = set()  # out of play: laid, claimed, played, in the centre
        self.asked: dict[int, set[Rank]] = {}  # ranks each seat asked for (so holds some)
        self.to_centre = engine.spec.ask.handover is HANDOVER_TO_CENTRE
        self.one_of_rank = engine.spec.ask.handover is HANDOVER_ONE_OF_RANK
        self.sorted_sets = {name: sorted(cards) for name, cards in self.lk.set_cards.items()}

    # -- learning from events ----------------------------------------------------------

    def observe(self, state: GameState, move: Move, seen: Sequence[Move]) -> None:
        """Learn from one move, as this seat saw it, from the state before it."""
        for event in seen:
            if isinstance(event, Give) and event.player == self.seat and isinstance(move, Give):
                event = move  # the giver knows the cards it gave
            self._learn(state, event)

    def _learn(self, state: GameState, event: Move) -> None:
        if isinstance(event, Ask):
            self.asked.setdefault(event.player, set()).add(event.rank)
        elif isinstance(event, Refuse) and state.asking is not None:
            for card in asked_cards(self.lk, state.asking):
                self._not_with(card, event.player)
        elif isinstance(event, Give) and state.asking is not None:
            self._given(state.asking, event)
        elif isinstance(event, Draw):
            if event.card is not None:
                self._with(event.card, event.player)
            else:
                self._drew_unseen(event.player)
        elif isinstance(event, LayDown):
            self._out(event.cards or self.lk.set_cards[event.set_name])
            if event.player in self.asked:
                self.asked[event.player] -= {self.lk.rank[c] for c in event.cards
                                             or self.lk.set_cards[event.set_name]}
        elif isinstance(event, (Claim, Show)):
            self._out(self.lk.set_cards[event.set_name] if isinstance(event, Claim)
                      else event.cards)
        elif isinstance(event, Play):
            self._out((event.card, *(c for group in event.groups for c in group)))
        elif isinstance(event, TurnUp):
            self._out(event.cards)
        elif isinstance(event, Answer) and not event.yes and state.questioning is not None:
            self._answered_no(state.questioning, event.player)

    def _given(self, ask: Ask, give: Give) -> None:
        asker, giver = ask.player, give.player
        if give.cards:
            if self.to_centre:
                self._out(give.cards)
            else:
                for card in give.cards:
                    self._with(card, asker)
        else:  # a count of the rank: the giver had every one of them, now the asker
            for card in self.lk.cards_of_rank[ask.rank]:
                if self.holder.get(card) == giver:
                    self._with(card, asker)
        if not self.one_of_rank:  # every card asked for that the giver held was given
            for card in asked_cards(self.lk, ask):
                if card not in give.cards:
                    self._not_with(card, giver)
        if giver in self.asked and ask.card is None:
            self.asked[giver].discard(ask.rank)

    def _answered_no(self, question: Question, seat: int) -> None:
        for card in self.lk.deck:
            if answers_yes(question, card):
                self._not_with(card, seat)

    def _drew_unseen(self, seat: int) -> None:
        """``seat`` took a card nobody saw: it may now hold any card not placed."""
        holder, absent = self.holder, self.absent
        emptied = []
        for card, seats in absent.items():
            if card not in holder:
                seats.discard(seat)
                if not seats:
                    emptied.append(card)
        for card in emptied:  # kept small: no seat is known not to hold it
            del absent[card]

    def _with(self, card: Card, seat: int) -> None:
        self.holder[card] = seat
        self.absent.pop(card, None)

    def _not_with(self, card: Card, seat: int) -> None:
        if self.holder.get(card) == seat:
            del self.holder[card]
        seats = self.absent.get(card)
        if seats is None:
            seats = self.absent[card] = set()
        seats.add(seat)

    def _out(self, cards: Sequence[Card] | frozenset[Card] | tuple[Card, ...]) -> None:
        for card in cards:
            self.gone.add(card)
            self.holder.pop(card, None)

    # -- what the seat concludes ------------------------------------------------------

    def free_places(self, state: GameState) -> dict[int, int]:
        """How many cards each other seat holds that this seat cannot name."""
        hands, unknown = state.hands, state.unknown
        free = {seat: len(hands[seat]) + unknown[seat] for seat in range(len(hands))
                if seat != self.seat}
        for seat in self.holder.values():
            free[seat] = free.get(seat, 0) - 1
        return free

    def chances(self, state: GameState, card: Card, free: dict[int, int] | None = None,
                of_rank: dict[Rank, RankChances] | None = None) -> dict[int, float]:
        """How likely each other seat holds ``card`` (the stock takes the rest), given
        the seats' ``free_places``; a card in this seat's hand or out of play is with
        nobody else. ``of_rank`` keeps, for the next card of a rank with the same
        ``free``, the rank's weights and the chances of a card nobody is known to lack
        (read them only: they are shared)."""
        if card in state.hands[self.seat] or card in self.gone:
            return {}
        known = self.holder.get(card)
        if known is not None:
            return {known: 1.0}
        if free is None:
            free = self.free_places(state)
        rank = self.lk.rank[card]
        kept = of_rank.get(rank) if of_rank is not None else None
        if kept is None:
            kept = RankChances(self.rank_weights(rank, free))
            if of_rank is not None:
                of_rank[rank] = kept
        absent = self.absent.get(card)
        if absent:
            return _shares({seat: w for seat, w in kept.weights.items() if seat not in absent},
                           len(state.stock))
        if kept.unbarred is None:
            kept.unbarred = _shares(kept.weights, len(state.stock))
        return kept.unbarred

    def rank_weights(self, rank: Rank, free: dict[int, int]) -> dict[int, float]:
        """How much each other seat with ``free`` places weighs as the holder of a card
        of ``rank``: its free places, more for a seat that asked for the rank (before the
        seats known not to hold the card are left out)."""
        asked = self.asked
        weights: dict[int, float] = {}
        for seat, places in free.items():
            if places > 0:
                ranks = asked.get(seat)
                weights[seat] = places * (ASKED_WEIGHT if ranks and rank in ranks else 1)
        return weights

    def holders(self, state: GameState, card: Card, free: dict[int, int] | None = None,
                of_rank: dict[Rank, RankChances] | None = None) -> dict[int, float]:
        """:meth:`chances`, with this seat holding its own cards surely."""
        if card in state.hands[self.seat]:
            return {self.seat: 1.0}
        return self.chances(state, card, free, of_rank)


class CountingPolicy:
    """A card-counting player: it banks every set it may lay down, claims a set once
    its team's holders of every card are proven, and asks for what an opponent surely
    or most probably holds, never for what it knows absent while anything else is
    open; answers, draws and passes are as the rules force (a pass goes to the
    teammate holding most)."""

    tracks = True

    def __init__(self, engine: Engine, seat: int) -> None:
        self.counter = CardCounter(engine, seat)

    def observe(self, engine: Engine, state: GameState, move: Move,
                seen: Sequence[Move]) -> None:
        """Count the cards this move shows."""
        self.counter.observe(state, move, seen)

    def choose(self, engine: Engine, state: GameState, rng: random.Random) -> Move | None:
        """The counting player's move now."""
        if state.phase is PHASE_PASS:
            targets = engine.pass_targets(state)
            most = max(state.hand_size(t) for t in targets)
            return Pass(state.turn, rng.choice([t for t in targets
                                                if state.hand_size(t) == most]))
        if state.phase is not PHASE_ASK:
            return engine.forced_move(state)
        spec = engine.spec
        if spec.plays:  # a capture game: nothing hidden is worth counting yet
            return random_move(engine, state, rng)
        if spec.lay_down is not LAY_DOWN_AT_ONCE and (lay_downs := engine.lay_downs(state)):
            return rng.choice(lay_downs)
        if spec.claims is not None:
            claim = self._claim(engine, state, rng, proven=True)
            if claim is not None:
                return claim
        items, whom = engine.ask_options(state)
        if spec.questions and whom and rng.random() < 0.2:
            return rng.choice(engine.questions_to(state, rng.choice(whom)))
        ask, chance = self._best_ask(state, items, whom, rng) if items and whom else (None, 0.0)
        if spec.claims is not None and (ask is None or chance <= 0.0):
            return self._claim(engine, state, rng, proven=False)
        return ask

    def _best_ask(self, state: GameState, items: list[tuple[Rank, Card | None]],
                  whom: list[int], rng: random.Random) -> tuple[Ask, float]:
        """The ask likeliest to be answered yes, and that chance."""
        counter, lk = self.counter, self.counter.lk
        hand = state.hands[state.turn]
        free = counter.free_places(state)
        best: list[tuple[int, Rank, Card | None]] = []
        best_score = -1.0
        of_rank: dict[Rank, RankChances] = {}
        for rank, card in items:
            wanted = ((card,) if card is not None else
                      [c for c in lk.cards_of_rank[rank] if c not in hand])
            chances = [counter.chances(state, c, free, of_rank) for c in wanted]
            for target in whom:
                missing = 1.0
                for chance in chances:
                    missing *= 1.0 - chance.get(target, 0.0)
                score = 1.0 - missing
                if score > best_score + 1e-12:
                    best_score, best = score, [(target, rank, card)]
                elif score > best_score - 1e-12:
                    best.append((target, rank, card))
        target, rank, card = rng.choice(best)
        return Ask(state.turn, target, rank, card), best_score

    def _claim(self, engine: Engine, state: GameState, rng: random.Random, *,
               proven: bool) -> Claim | None:
        """A claim of an open set whose every holder in this team is proven; or, unless
        ``proven``, the likeliest claim there is, every card put with its likeliest
        holder in the team (a random one when no set can be with the team)."""
        counter, seat = self.counter, state.turn
        team = engine.team(state, seat)
        free = counter.free_places(state)
        best: tuple[float, Claim] | None = None
        of_rank: dict[Rank, RankChances] = {}
        for name in engine.open_sets(state):
            placed: dict[int, list[Card]] = {}
            likelihood = 1.0
            for card in counter.sorted_sets[name]:
                chances = counter.holders(state, card, free, of_rank)
                shares = [chances.get(s, 0.0) for s in team]
                share = max(shares)
                holder = team[shares.index(share)]  # the first likeliest
                if proven and share < 1 - 1e-9:
                    break
                likelihood *= share
                placed.setdefault(holder, []).append(card)
            else:
                claim = Claim(seat, name, tuple((s, tuple(c)) for s, c in sorted(placed.items())))
                if best is None or likelihood > best[0]:
                    best = (likelihood, claim)
        if best is not None:
            return best[1]
        return None if proven else random_claim(engine, state, rng)
