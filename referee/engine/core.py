"""The engine: one interface to every game a GameSpec describes.

The checker, self-play and the live prompt all drive the same verbs:
:meth:`Engine.current_player`, :meth:`Engine.legal_moves`,
:meth:`Engine.violation` (is-legal, with the reason), :meth:`Engine.apply` and
:meth:`Engine.outcome`. The engine walks the spec; it knows no game by name.
Every other rule question a driver has (whom a player may ask and for what, the
sets they may lay down, what a draw must show, what a hidden table sees of a move)
is a verb of the engine too: no driver decides a rule itself.

Each kind of move has its own module (``asks``, ``questions``, ``draws``,
``laying``, ``claims``, ``plays``; the turn flow they share is ``flow``). A
move's legality has two parts: :meth:`Engine.rule_violation`, what the rules
say whatever the cards, and :meth:`Engine.facts`, what the move says of the
cards (referee/engine/facts.py). With an open deal the engine decides every fact
itself; with a hidden one, the facts it cannot decide go to the knowledge model.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from functools import partial
from typing import Any, Final, TypeVar, cast

from referee.engine import asks, claims, draws, laying, plays, questions, refills
from referee.engine.draws import DRAWING
from referee.engine.facts import Fact, decide
from referee.engine.flow import ended, give_turn, pass_targets, resume, targets, whole_sets
from referee.engine.lookups import Lookups
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
from referee.engine.state import (
    AFTER_DEAL,
    PHASE_ANSWER,
    PHASE_ASK,
    PHASE_LAY,
    PHASE_OVER,
    PHASE_PASS,
    PHASE_SHOW,
    PHASE_TURN_UP,
    GameState,
)
from referee.errors import Kind, RefereeError
from referee.language.cards import Card, Rank
from referee.language.spec import (
    HANDOVER_ONE_OF_RANK,
    LAY_DOWN_AT_ONCE,
    LAY_DOWN_WITH_CENTRE,
    TIE_RULE_FIRST_SET,
    TIE_RULE_SEAT_ORDER,
    GameSpec,
)
from referee.values import field_values, frozen

_DEMANDS: Final = {  # phases that allow only some kinds of move
    PHASE_SHOW: (Show,), PHASE_PASS: (Pass, Show), PHASE_TURN_UP: (TurnUp, Show),
    PHASE_LAY: (LayDown, EndLaying, Show, Draw),  # a draw: the dealer's replacements
}
MAX_KEPT_MOVES = 20_000  # moves kept as one object each (Engine.same_move)
M = TypeVar("M", bound="Move | None")  # a move, or None, kept as one object (same_move)
# the moves whose facts depend on the move only
_SAME_FACTS: Final = (Ask, Give, Refuse, Answer, Play, LayDown)


def _plain_key(move: Move) -> tuple[object, ...]:
    """A move's type and then its fields' values (``values.field_values``), in one
    flat tuple, read natively for the moves of most events: a compiled build calls no
    Python for them, and makes and hashes one tuple (tests/test_engine_memo.py holds
    the two ways equal)."""
    if isinstance(move, Ask):
        return (Ask, move.player, move.target, move.rank, move.card)
    if isinstance(move, Refuse):
        return (Refuse, move.player)
    if isinstance(move, Give):
        return (Give, move.player, move.cards, move.count)
    if isinstance(move, Draw):
        return (Draw, move.player, move.card)
    if isinstance(move, Answer):
        return (Answer, move.player, move.yes)
    if isinstance(move, LayDown):
        return (LayDown, move.player, move.set_name, move.cards)
    return (type(move), *field_values(move))


@frozen
class Result:
    """Scores by side (a seat, or a team in team games), and the winning sides once
    the game is over."""

    over: bool
    scores: tuple[int, ...]
    winners: tuple[int, ...]


class Engine:
    """Plays games under one GameSpec."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.lookups = lk = Lookups(spec)
        self.deck = lk.deck
        # each kind of move, dispatched by type: its rules, its facts, its effect (asks,
        # answers and draws, most events, are dispatched in the methods that use these)
        self._rule_checks: dict[type, Callable[[GameState, Any], RefereeError | None]] = {
            Question: self._ask_violation, Answer: self._answer_violation,
            TurnUp: partial(draws.turn_up_violation, lk),
            LayDown: self._lay_down_violation, EndLaying: self._end_laying_violation,
            NothingLaid: lambda state, move: None if state.unsure == move.player
            else RefereeError(Kind.ILLEGAL, "nobody is waited for to lay a set down"),
            Claim: self._own_play_violation, Play: self._own_play_violation,
            Show: partial(claims.show_violation, lk),
            Pass: self._pass_violation,
        }
        self._fact_makers: dict[type, Callable[[GameState, Any], list[Fact]]] = {
            Answer: partial(questions.answer_facts, spec),
            TurnUp: partial(draws.turn_up_facts, lk),
            LayDown: partial(laying.lay_down_facts, lk),
            EndLaying: lambda state, move: laying.end_laying_facts(lk, state),
            NothingLaid: lambda state, move: laying.nothing_laid_facts(lk, state, move.player),
            Show: partial(claims.show_facts, lk),
            Play: partial(plays.play_facts, lk),
        }
        self._facts_seen: dict[tuple[int, int, int], tuple[object, object, object,
                                                           tuple[str, ...], list[Fact]]] = {}
        self._facts_by_value: dict[tuple[object, ...], list[Fact]] = {}
        self._moves: dict[object, Move] = {}  # one object for each move's value
        self._same_facts = frozenset(  # a lay-down with the centre depends on the centre
            kind for kind in _SAME_FACTS
            if not (kind is LayDown and spec.lay_down is LAY_DOWN_WITH_CENTRE))
        self._deal_orders: dict[tuple[int, int], tuple[int, ...]] = {}
        self._topics = tuple(questions.question_topics(spec))
        self._appliers: dict[type, Callable[[GameState, Any], None]] = {
            Question: questions.apply_question,
            Answer: lambda state, move: questions.apply_answer(lk, state),
            Play: partial(plays.apply_play, lk),
            TurnUp: draws.apply_turn_up,
            LayDown: partial(laying.apply_lay_down, lk),
            EndLaying: lambda state, move: laying.apply_end_laying(lk, state),
            NothingLaid: lambda state, move: laying.apply_nothing_laid(lk, state, move.player),
            Claim: partial(claims.apply_claim, lk),
            Show: partial(claims.apply_show, lk),
            Pass: lambda state, move: give_turn(lk, state, move.target),
        }

    def sides(self, players: int) -> int:
        """How many sides score: the teams, or else the players."""
        return self.spec.teams or players

    # -- starting ---------------------------------------------------------------

    def shuffled_deal(
        self, players: int, dealer: int, seed: int
    ) -> tuple[list[list[Card]], list[Card]]:
        """Hands and stock (top first) from shuffling the deck with ``seed``."""
        import random  # only self-play and seeded deals shuffle: not loaded for the others

        deck = list(self.spec.cards)
        random.Random(seed).shuffle(deck)
        order = self._deal_order(players, dealer)
        hands: list[list[Card]] = [[] for _ in range(players)]
        for seat, card in zip(order, deck[:len(order)], strict=True):
            hands[seat].append(card)
        return hands, deck[len(order):]

    def _deal_order(self, players: int, dealer: int) -> tuple[int, ...]:
        """The seat each dealt card goes to: one at a time clockwise from the dealer's
        left, skipping full hands (remembered for each table)."""
        found = self._deal_orders.get((players, dealer))
        if found is None:
            sizes = self.spec.hand_sizes(players, dealer)
            dealt = [0] * players
            order = []
            seat = (dealer + 1) % players
            while any(dealt[s] < sizes[s] for s in range(players)):
                if dealt[seat] < sizes[seat]:
                    order.append(seat)
                    dealt[seat] += 1
                seat = (seat + 1) % players
            found = self._deal_orders[(players, dealer)] = tuple(order)
        return found

    def split_rest(
        self, players: int, rest: Sequence[Card]
    ) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        """What the deal does with the cards left after the hands: the stock (top
        first) and the cards turned face up to the centre."""
        centre = self.spec.centre_size(players)
        return tuple(rest[centre:]), tuple(rest[:centre])

    def start(
        self, players: Sequence[str], dealer: int,
        hands: Sequence[Sequence[Card] | None], stock: Sequence[Card | None],
        teams: Sequence[int] | None = None, centre: Sequence[Card] = (),
        *, hidden: bool = False,
    ) -> GameState:
        """The state after the deal, with sets held whole waiting to be laid.

        A hand given as None is not known: only its size is. A stock card given as
        None is not known either. ``teams`` gives each seat's team; by default teams
        sit alternately. ``centre`` lists the cards dealt face up to the centre.
        ``hidden`` says that the table sees only public events (every answer written).
        """
        count = len(players)
        if teams is None:
            teams = self.spec.alternate_teams(count)
        sizes = self.spec.hand_sizes(count, dealer)
        known = [set(h) if h is not None else set() for h in hands]
        unknown = [0 if h is not None else sizes[seat] for seat, h in enumerate(hands)]
        placed = {c for h in known for c in h} | {c for c in stock if c is not None}
        state = GameState(
            players=tuple(players), dealer=dealer, hands=known, unknown=unknown,
            stock=list(reversed(stock)), laid=[[] for _ in range(self.sides(count))],
            teams=tuple(teams), centre=list(centre),
            piles=[[] for _ in range(self.sides(count))], hidden=hidden,
            unplaced=set(self.deck - placed - set(centre)),
        )
        lk = self.lookups
        dealt_last = hands[dealer] if dealer < len(hands) else None
        state.deal_last = dealt_last[-1] if dealt_last else None
        if self.spec.lay_down is LAY_DOWN_AT_ONCE and self.spec.sets:
            every_set = frozenset(lk.set_cards)
            laying.open_laying(lk, state, dict.fromkeys(range(count), every_set), AFTER_DEAL)
        else:
            resume(lk, state, AFTER_DEAL)
        return state

    # -- the interface ------------------------------------------------------------

    def current_player(self, state: GameState) -> int | None:
        """The seat that must move next, or None once the game is over."""
        if state.phase is PHASE_OVER:
            return None
        if state.phase is PHASE_ANSWER:
            return self._asked(state)
        return state.turn

    @staticmethod
    def _asked(state: GameState) -> int:
        """The seat that owes an answer."""
        if state.questioning is not None:
            return state.questioning.target
        assert state.asking is not None
        return state.asking.target

    def legal_moves(self, state: GameState, *, with_claims: bool = True) -> list[Move]:
        """Every move the rules allow now, as far as the known cards show (answers,
        draws and sets laid at once are forced); claims left out unless ``with_claims``
        (a set shared among teammates makes thousands)."""
        lk = self.lookups
        if state.phase is PHASE_ASK:
            return [*asks.legal_asks(lk, state), *self._legal_questions(state),
                    *laying.legal_lay_downs(lk, state),
                    *(claims.every_claim(lk, state) if with_claims else ()),
                    *plays.legal_plays(lk, state)]
        if state.phase is PHASE_PASS:
            return [Pass(state.turn, t) for t in pass_targets(state)]
        forced = self.forced_move(state)
        return [forced] if forced is not None else []

    def named(self, state: GameState, move: Move) -> Move:
        """``move`` as the known cards make it, before it is played: a draw written
        without its card, from a stock whose order is known, names the card it takes."""
        if (type(move) is Draw and move.card is None
                and state.phase in DRAWING and state.stock and not state.hidden):
            return Draw(move.player, state.stock[-1])
        return move

    def forced_move(self, state: GameState) -> Move | None:
        """The one move the cards dictate (an answer, a draw, a turn-up, a set laid at
        once, a pass with one taker), when the referee knows it."""
        lk = self.lookups
        phase = state.phase
        if phase is PHASE_ANSWER:
            if state.questioning is not None:
                return self.same_move(questions.forced_answer(state))
            return self.same_move(asks.forced_answer(lk, state))
        if phase in DRAWING and state.stock:
            if not state.hidden:
                return Draw(state.turn, state.stock[-1])
            return None if draws.shown_on_draw(lk, state) else Draw(state.turn)
        if phase is PHASE_TURN_UP:
            return draws.forced_turn_up(lk, state)
        if phase is PHASE_PASS:
            targets = pass_targets(state)
            return Pass(state.turn, targets[0]) if len(targets) == 1 else None
        if phase is PHASE_LAY:
            return self.same_move(laying.forced_laying(lk, state))
        if state.unsure is not None:
            return NothingLaid(state.unsure)
        return None

    def same_move(self, move: M) -> M:
        """The one object kept for moves equal to ``move``: written in other words, or
        filled in by the referee (made afresh each time). The facts of a move are
        remembered by its identity (:meth:`facts`). A move is found by its type and its
        fields' values, hashed without calling Python."""
        if move is None:
            return move
        key = _plain_key(move)
        found = self._moves.get(key)
        if found is None:
            if len(self._moves) >= MAX_KEPT_MOVES:  # the moves to come are new objects:
                self._moves.clear()  # their facts are remembered afresh, by their ids
                self._facts_seen.clear()
                self._facts_by_value.clear()
            found = self._moves[key] = move
        return cast(M, found)  # equal to move: of its type

    def is_legal(self, state: GameState, move: Move) -> bool:
        """Whether ``move`` is allowed now, as far as the known cards show."""
        return self.violation(state, move) is None

    def violation(self, state: GameState, move: Move) -> RefereeError | None:
        """Why ``move`` is not allowed now, or None when it is (or when only cards the
        referee does not know could say)."""
        problem = self.rule_violation(state, move)
        if problem is not None:
            return problem
        for fact in self.facts(state, move):
            if decide(state, fact) is False:
                return fact.error(state)
        return None

    def rule_violation(self, state: GameState, move: Move) -> RefereeError | None:
        """Why ``move`` breaks the rules whatever the cards, or None."""
        phase, kind = state.phase, type(move)
        if phase is PHASE_OVER and not (kind is Show and state.revealed):
            return RefereeError(Kind.OVER, "the game is already over")  # shows may follow
        demanded = _DEMANDS.get(phase)
        if demanded is not None and kind not in demanded:  # the claim that ended it
            return self._demand(state)
        # the moves of most events are called directly (compiled, natively), the rest
        # through the table
        if isinstance(move, Ask):
            return self._ask_violation(state, move)
        if isinstance(move, (Give, Refuse)):
            return self._answer_violation(state, move)
        if isinstance(move, Draw):
            return draws.draw_violation(self.lookups, state, move)
        return self._rule_checks[kind](state, move)

    def _demand(self, state: GameState) -> RefereeError:
        """The error for any move but the one a phase demands."""
        name, phase = state.players, state.phase
        if phase is PHASE_SHOW:
            assert state.showing is not None
            return RefereeError(Kind.TURN, f"the claim of {state.showing.set_name} waits "
                                f"for its cards to be shown: "
                                f"{' '.join(claims.waiting_for(self.lookups, state))}")
        if phase is PHASE_PASS:
            return RefereeError(Kind.TURN, f"{name[state.turn]} holds no cards and must first "
                                "pass the turn")
        if phase is PHASE_LAY:
            return RefereeError(Kind.TURN, f"{name[state.turn]} lays down the sets just "
                                "completed first")
        return RefereeError(Kind.TURN, "the centre is filled from the stock first")

    def _end_laying_violation(self, state: GameState, move: EndLaying) -> RefereeError | None:
        if state.phase is not PHASE_LAY:
            return RefereeError(Kind.ILLEGAL, "no sets are waiting to be laid down")
        return refills.closing_violation(self.lookups, state)

    def _lay_down_violation(self, state: GameState, move: LayDown) -> RefereeError | None:
        if self.lookups.lay_down is LAY_DOWN_AT_ONCE:
            return self._waiting(state) or laying.lay_down_violation(self.lookups, state, move)
        return self._own_play_violation(state, move)

    def _ask_violation(self, state: GameState, move: Ask | Question) -> RefereeError | None:
        if state.phase is not PHASE_ASK:
            due = self._waiting(state)
            if due is not None:
                return due
        if move.player != state.turn:
            name = state.players
            return RefereeError(Kind.TURN, f"it is {name[state.turn]}'s turn, "
                                f"not {name[move.player]}'s")
        if isinstance(move, Question):
            return questions.question_violation(self.spec, state, move,
                                                self.lookups.target_needs_cards)
        return asks.ask_violation(self.lookups, state, move)

    def _waiting(self, state: GameState) -> RefereeError | None:
        """The answer or draw the game waits for, as an error, if it waits for one."""
        name = state.players
        if state.phase is PHASE_ANSWER:
            return RefereeError(Kind.TURN, f"{name[self._asked(state)]} must answer "
                                f"{name[state.turn]} first")
        if state.phase in DRAWING:
            return RefereeError(Kind.TURN, f"{name[state.turn]} must draw first")
        return None

    def _answer_violation(
        self, state: GameState, move: Give | Refuse | Answer
    ) -> RefereeError | None:
        name = state.players
        if state.phase is not PHASE_ANSWER:
            return RefereeError(Kind.TURN, f"nobody is waiting for {name[move.player]}'s answer")
        if move.player != self._asked(state):
            return RefereeError(Kind.TURN, f"{name[state.turn]} asked "
                                f"{name[self._asked(state)]}, not {name[move.player]}")
        if isinstance(move, Answer) != (state.questioning is not None):
            wanted = "yes or no" if state.questioning else "by giving or saying no"
            return RefereeError(Kind.TURN, f"{name[move.player]} answers {wanted}")
        if isinstance(move, Give):
            return asks.give_violation(self.lookups, state, move)
        return None

    def facts(self, state: GameState, move: Move) -> list[Fact]:
        """What ``move`` says of the cards, now (call it before :meth:`apply`)."""
        kind = type(move)
        if kind not in self._same_facts:
            return self._made_facts(state, move)
        # The same move (an answer: after the same ask or question) says the same of the
        # cards to the same players. It is remembered by the identity of the move and of
        # the ask or question it answers (one object for each value, however written or
        # filled in: same_move); the entry keeps them alive, so no id is reused while it
        # is remembered. A move made afresh elsewhere is found by its value: its plain
        # key (_plain_key), which hashes natively, where a move's own hash calls Python
        # (values._hash: some 2,400 instructions compiled, against a few hundred)
        asking, questioning = (None, None) if kind is Ask else (state.asking,
                                                                state.questioning)
        key = (id(move), id(asking), id(questioning))
        found = self._facts_seen.get(key)
        if found is not None and found[3] == state.players:
            return found[4]
        by_value = (state.players, _plain_key(move),
                    None if asking is None else _plain_key(asking),
                    None if questioning is None else _plain_key(questioning))
        facts = self._facts_by_value.get(by_value)
        if facts is not None:
            return facts
        if len(self._facts_by_value) > 50_000:
            self._facts_seen.clear()
            self._facts_by_value.clear()
        facts = self._facts_by_value[by_value] = self._made_facts(state, move)
        self._facts_seen[key] = (move, asking, questioning, state.players, facts)
        return facts

    def _made_facts(self, state: GameState, move: Move) -> list[Fact]:
        """What ``move`` says of the cards, worked out afresh."""
        lk = self.lookups  # the moves of most events directly, the rest through the table
        if isinstance(move, Ask):
            return asks.ask_facts(lk, state, move)
        if isinstance(move, (Give, Refuse)):
            return asks.answer_facts(lk, state, move)
        if isinstance(move, Draw):
            return draws.draw_facts(lk, state, move)
        maker = self._fact_makers.get(type(move))
        return [] if maker is None else maker(state, move)

    def apply(self, state: GameState, move: Move) -> None:
        """Play a legal ``move``, changing ``state``."""
        if state.moved:
            state.moved = []
        state.judged = None
        kind = type(move)
        if kind is not TurnUp:
            state.unsure = None  # whoever had the turn has moved
            if kind is not NothingLaid and state.idle:
                state.idle = frozenset()  # hands may have changed
        if state.revealed and kind is not Show:
            state.revealed = {}
        lk = self.lookups  # the moves of most events directly, the rest through the table
        if isinstance(move, Ask):
            asks.apply_ask(state, move)
        elif isinstance(move, Give):
            asks.apply_give(lk, state, move)
        elif isinstance(move, Refuse):
            asks.apply_refuse(lk, state, move)
        elif isinstance(move, Draw):
            draws.apply_draw(lk, state, move)
        else:
            self._appliers[kind](state, move)

    def outcome(self, state: GameState) -> Result:
        """Scores by side and, once over, the winners."""
        lk = self.lookups
        points = self.spec.card_points  # captured cards score by the table, sets by theirs
        scores = tuple(sum(lk.points[name] for name in sets) for sets in state.laid)
        if points:
            scores = tuple(score + sum(points[lk.rank[c]] for c in pile)
                           for score, pile in zip(scores, state.piles, strict=True))
        if not state.over:
            return Result(False, scores, ())
        best = max(scores)
        tied = [side for side, score in enumerate(scores) if score == best]
        if self.spec.ties is TIE_RULE_FIRST_SET and len(tied) > 1:
            takers = [side for side, _ in state.laid_order]
            tied = [min(tied, key=lambda side: takers.index(side) if side in takers
                        else len(takers))]
        if self.spec.ties is TIE_RULE_SEAT_ORDER and len(tied) > 1:
            count = len(state.players)
            tied = [min(tied, key=lambda seat: (seat - state.dealer - 1) % count)]
        return Result(True, scores, tuple(tied))

    # -- what the rules allow now, for the drivers: one answer to each rule question --

    def targets(self, state: GameState, seat: int) -> list[int]:
        """The players ``seat`` may ask (or question)."""
        return targets(self.lookups, state, seat)

    def pass_targets(self, state: GameState) -> list[int]:
        """Whom the player in turn, whose hand is empty, may pass the turn to."""
        return pass_targets(state)

    def ask_options(self, state: GameState) -> tuple[list[tuple[Rank, Card | None]], list[int]]:
        """What the player in turn may ask for, and whom, as far as their known cards
        show: every pair is a legal ask."""
        return asks.ask_options(self.lookups, state)

    def askable(self, state: GameState, held: AbstractSet[Card], sure: AbstractSet[Card]
                ) -> list[tuple[Rank, Card | None]]:
        """What a player may ask for who may hold ``held``, ``sure`` of them surely (a
        rank as (rank, None)): the asker-must-hold rule, for any view of a hand."""
        return asks.askable(self.lookups, state, held, sure)

    def question_topics(self) -> tuple[tuple[str, str], ...]:
        """What a question may name, as (kind, value): ``("suit", "H")``."""
        return self._topics

    def lay_downs(self, state: GameState) -> list[LayDown]:
        """The sets the player in turn may lay down by choice now, as far as the known
        cards show."""
        return laying.legal_lay_downs(self.lookups, state)

    def whole_sets(self, state: GameState, seat: int,
                   hand: AbstractSet[Card] | None = None) -> list[str]:
        """The sets ``seat`` may lay down now if they hold ``hand`` (by default their
        known cards): by choice, or those the lay phase waits for from them."""
        return whole_sets(self.lookups, state, seat, hand)

    def open_sets(self, state: GameState) -> list[str]:
        """The sets still in play (not won, not void): those a claim may name."""
        return [s.name for s in self.spec.sets if not state.decided(s.name)]

    def team(self, state: GameState, seat: int) -> list[int]:
        """``seat`` and their teammates (whom a claim may name)."""
        return [s for s in range(len(state.players)) if state.side(s) == state.side(seat)]

    def unshown(self, state: GameState) -> list[Card]:
        """The cards of the set claimed that nobody has shown yet (in the show phase)."""
        return claims.waiting_for(self.lookups, state)

    def awaits_draw(self, state: GameState) -> bool:
        """Whether the player in turn must draw from the stock now."""
        return state.phase in DRAWING

    def shown_on_draw(self, state: GameState) -> frozenset[Card]:
        """The cards a draw now must show when drawn: those that earn another ask."""
        return draws.shown_on_draw(self.lookups, state)

    def turn_up_due(self, state: GameState) -> int:
        """How many cards the stock turns up to fill the centre now."""
        return draws.due_turn_up(self.lookups, state)

    def replacements_due(self, state: GameState) -> bool:
        """Whether the dealer may still draw cards replacing sets laid from a hidden deal."""
        return refills.replacements_due(self.lookups, state)

    def replaced_in_the_open(self, state: GameState, move: Move) -> bool:
        """Whether ``move`` is the dealer laying a set from the deal where a hidden table
        sees the replacements drawn (the rules spare a set the deal's last card
        completed, which the table cannot see)."""
        return (isinstance(move, LayDown) and move.player == state.dealer
                and self.spec.refill_not_last and state.phase is PHASE_LAY
                and state.after_lay is AFTER_DEAL)

    def stalled(self, state: GameState) -> bool:
        """Whether the game is over only because nobody could move: no ``end:``
        condition holds."""
        return state.over and not ended(self.lookups, state)

    def as_seen(self, state: GameState, move: Move) -> list[Move]:
        """``move`` as a hidden table sees it, from the state before it: the cards of a
        rank given by their count, a draw's card only when it must be shown, a claim
        followed by the shows of the set's holders, and nothing for an end of laying."""
        if isinstance(move, EndLaying):
            return []
        if (isinstance(move, Give) and state.asking is not None and state.asking.card is None
                and self.lookups.handover is not HANDOVER_ONE_OF_RANK):
            return [Give(move.player, count=len(move.cards))]  # how many, not which
        if isinstance(move, Draw):
            shown = self.shown_on_draw(state)
            return [Draw(move.player, move.card if move.card in shown else None)]
        if isinstance(move, Claim):
            lk = self.lookups
            members = lk.set_cards[move.set_name]
            return [move, *(Show(seat, tuple(lk.in_deck_order(hand & members)))
                            for seat, hand in enumerate(state.hands) if hand & members)]
        return [move]

    # -- moves of one's own: lay-downs by choice, claims, plays, passes -------------------

    def questions_to(self, state: GameState, target: int) -> list[Question]:
        """Every question the player in turn may put to ``target`` (one they may ask)."""
        return [Question(state.turn, target, kind, value) for kind, value in self._topics]

    def _legal_questions(self, state: GameState) -> list[Move]:
        if not self.spec.questions:
            return []
        return [q for target in targets(self.lookups, state, state.turn)
                for q in self.questions_to(state, target)]

    def _own_play_violation(
        self, state: GameState, move: LayDown | Claim | Play
    ) -> RefereeError | None:
        name = state.players
        if state.phase is not PHASE_ASK or move.player != state.turn:
            waiting = name[self.current_player(state) or 0]
            return RefereeError(Kind.TURN, f"it is {waiting}'s move, not {name[move.player]}'s")
        lk = self.lookups
        if isinstance(move, Claim):
            return claims.claim_violation(self.spec, state, move)
        if isinstance(move, Play):
            return plays.play_violation(lk, state, move)
        return laying.lay_down_violation(lk, state, move)

    def _pass_violation(self, state: GameState, move: Pass) -> RefereeError | None:
        name = state.players
        who, target = name[move.player], name[move.target]
        if move.player != state.turn:
            return RefereeError(Kind.TURN, f"it is {name[state.turn]}'s turn, not {who}'s")
        if state.phase is not PHASE_PASS:
            return RefereeError(Kind.ILLEGAL, f"{who} still has a move; only a player whose "
                                "hand has emptied passes the turn")
        allowed = pass_targets(state)
        if move.target in allowed:
            return None
        if move.target == move.player or state.hand_size(move.target) == 0:
            return RefereeError(Kind.ILLEGAL, f"{target} holds no cards, so {who} cannot "
                                f"pass the turn to {target}")
        choices = ", ".join(name[s] for s in allowed)
        return RefereeError(Kind.ILLEGAL, f"{target} is not on {who}'s team; {who} passes "
                            f"to a teammate who holds cards ({choices})")
