"""One game refereed event by event: the interface the checker and the live prompt share.

A :class:`Session` takes written events one at a time (:meth:`Session.play`),
resolves each to an engine move (referee/resolve.py), checks it against the
rules and the cards, and applies it. It fills in the moves the cards force that
the transcript left out: with an open deal, answers, draws, turn-ups and books
laid at once; at a hidden table only what needs no card (NOTATION.md, "Hidden
deals"). What a move says of cards the referee cannot see goes to the knowledge
model (referee/knowledge.py); the first event after which no deal explains the
game is a ``contradiction``, with the earlier lines that prove it.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from itertools import chain, compress
from operator import attrgetter, ne
from typing import TYPE_CHECKING, Any

from referee.budgets import DEFAULT_BUDGETS, Budgets
from referee.counts import count_problem
from referee.engine import Engine
from referee.errors import Kind, RefereeError, Span, bounded
from referee.facts import Fact, count_range, decide, stock_place
from referee.moves import Claim, Move
from referee.notation import (
    EVENT_BOOK,
    EVENT_DRAW,
    EVENT_GIVE,
    EVENT_NEW_HAND,
    EVENT_PASS,
    EVENT_REFUSE,
    EVENT_SHOW,
    EVENT_TURN_UP,
    Event,
    write_deal,
    write_header,
)
from referee.record import Record
from referee.resolve import Resolver
from referee.setup import Deal, Game, deal_next_hand
from referee.spec import HANDOVER_TO_CENTRE
from referee.state import (
    PHASE_ANSWER,
    PHASE_DRAW,
    PHASE_LAY,
    PHASE_OVER,
    PHASE_PASS,
    PHASE_STUCK_DRAW,
    PHASE_TURN_UP,
    GameState,
)
from referee.values import fields, frozen, mutable, replace
from referee.wording import describe_judgement

if TYPE_CHECKING:  # the knowledge model (and its solvers) is loaded for hidden deals only
    from referee.knowledge import Given, Knowledge, Proof

STATE_FIELDS = fields(GameState)
_state_fields = attrgetter(*STATE_FIELDS)  # every field of a state, at once
FITTING = {
    PHASE_ANSWER: (EVENT_GIVE, EVENT_REFUSE),
    PHASE_DRAW: (EVENT_DRAW,),
    PHASE_STUCK_DRAW: (EVENT_DRAW,),
    PHASE_PASS: (EVENT_PASS,),
    PHASE_TURN_UP: (EVENT_TURN_UP,),
    PHASE_LAY: (EVENT_BOOK,),
}  # the written events a phase waits for; before any other, the referee fills in


def describe(engine: Engine, state: GameState, sides: tuple[str, ...]) -> dict[str, Any]:
    """The verdict's ``state`` object; ``sides`` names the players or the teams."""
    result = engine.outcome(state)
    names = state.players
    described: dict[str, Any] = {
        "over": state.over,
        "turn": None if state.over else names[state.turn],
        "hands": {name: state.hand_size(seat) for seat, name in enumerate(names)},
        "sets": {side: list(state.laid[index]) for index, side in enumerate(sides)},
        "scores": {side: result.scores[index] for index, side in enumerate(sides)},
        "winners": [sides[index] for index in result.winners],
    }
    if state.stock:
        described["stock"] = len(state.stock)
    if state.void:
        described["void"] = list(state.void)
    return described


def given_facts(game: Game, deal: Deal) -> list[Given]:
    """What the header of a hidden deal showed: the hands and stock typed."""
    from referee.knowledge import Given

    given = []
    for seat, line in deal.lines:
        if seat < 0:
            for position, card in enumerate(deal.stock):
                if card is not None:
                    given.append(Given(line, _shown(stock_place(position), (card,),
                                                    f"the stock was given with {card}")))
            continue
        hand = deal.hands[seat]
        assert hand is not None
        who = game.table.players[seat]
        given.append(Given(line, _shown(seat, hand, f"{who}'s hand was given as "
                                        f"{' '.join(hand)}")))
    return given


def _shown(place: int, cards: tuple[Any, ...], reason: str) -> Fact:
    def never(state: GameState) -> RefereeError:
        raise AssertionError("a header fact is true of the deal it describes")
    return Fact(place, frozenset(cards), len(cards), len(cards), reason, never)


@mutable
class _Mark:
    """Everything an event may change, to go back to. ``state`` is a copy of the state
    before the event; once the event is accepted, when it changed the state in place
    (every event but a new hand), only the fields it changed are kept, in ``changed``, so
    that undo through a long game costs a few fields an event, not a whole state. The
    knowledge model is taken back by its own undo, to ``depth``."""

    state: GameState | None
    depth: int
    played: int
    notes: int
    hand: int
    banked: list[int]
    last_span: Span
    finished: int  # how many hands were over
    claim_line: int
    fork: _Fork | None  # the dealer's draws open to another reading, before the event
    changed: tuple[object, ...] = ()  # a field's name, its value before; the next's...
    reread: _Fork | None = None  # the event read them again: undo reads them the first way


@frozen
class _Fork:
    """The other reading of a hidden dealer's draws while sets laid from the deal wait
    for their replacements: that the deal's last card completed the set, so the lay
    phase ended before the first of them, and they are the dealer's first moves in turn
    (a dealer whose hand the set emptied, first to play, draws). ``mark`` is the session
    before the first of those draws, ``events`` the events played since, ``undoable``
    whether the session kept undo before."""

    mark: _Mark
    events: tuple[Event, ...]
    undoable: bool


@frozen
class _Dealt:
    """How a hand was dealt, and the index in the record of its first move: enough to
    deal it again and replay its knowledge model."""

    deal: Deal
    dealer: int
    start: int


class Session:
    """One game (a match, with a target) refereed event by event.

    The checker calls :meth:`play` for each written event. The live prompt calls
    :meth:`attempt`, which leaves everything as it was when the event is refused,
    :meth:`undo` to take the last accepted event back, and ``trust=True`` to accept an
    event the cards contradict (its facts about the cards are then set aside; not an
    event that would leave a count no deal could reach, referee/counts.py).
    """

    def __init__(self, game: Game, *, record: bool = True,
                 budgets: Budgets = DEFAULT_BUDGETS) -> None:
        self.game = game
        self.budgets = budgets  # the knowledge model's
        self.engine = game.engine
        self.resolver = Resolver(game)
        names = game.table.players
        deal = game.deal
        self.record: Record | None = None  # kept only when asked: what format writes out
        if record:
            teams = tuple(
                (team, tuple(names[s] for s, t in enumerate(game.teams) if t == index))
                for index, team in enumerate(game.team_names))
            header = write_header(game.rules, names, game.dealer, deal.hands, deal.stock,
                                  game.options, teams, game.target, deal.centre,
                                  hidden=deal.hidden)
            lay_out = game.spec.ask.handover is HANDOVER_TO_CENTRE
            self.record = Record(header, names, lay_out)
        self.notes: list[tuple[int, str]] = []
        self.hand = 1
        self.banked = [0] * len(game.side_names)  # match points of the hands before this one
        self.last_span = Span(1, 1)
        self._claim_line = 0  # the line of the last claim: its note cites it, not a show
        self.state, self.knowledge = self._deal(deal, game.dealer)
        self._marks: list[_Mark] = []
        self._fork: _Fork | None = None  # the dealer's draws, while open to another reading
        self._reread: _Fork | None = None  # the fork the event being played read again
        self._trusting = False
        self._undoable = False  # whether an event may be taken back (attempt, settle)
        self._trusted: set[int] = set()  # the moves played trusted, by index in the record
        self._dealt = _Dealt(deal, game.dealer, 0)
        # The hands over, to take a new hand back: how each was dealt, and its knowledge
        # model when there is no record to replay it from (a long match keeps no models).
        self._finished: list[tuple[_Dealt, Knowledge | None]] = []

    def _deal(self, deal: Deal, dealer: int) -> tuple[GameState, Knowledge | None]:
        game = self.game
        state = self.engine.start(game.table.players, dealer, deal.hands, deal.stock,
                                  game.teams, deal.centre, hidden=deal.hidden)
        if not state.unplaced:
            return state, None
        face_down = [c for c in game.spec.cards if c not in deal.centre]
        sizes = [state.hand_size(seat) for seat in range(len(state.players))]
        from referee.knowledge import Knowledge

        model = Knowledge(face_down, sizes, len(deal.stock), given_facts(game, deal),
                          self.budgets)
        return state, model

    def totals(self) -> list[int]:
        """Match points so far, this hand's included: its points, or (a match counting
        hands won) a point for each side that won it once it is over."""
        result = self.engine.outcome(self.state)
        scores = result.scores
        if self.game.spec.match_by_hands:
            scores = tuple(int(side in result.winners) for side in range(len(scores)))
        return [banked + score for banked, score in zip(self.banked, scores, strict=True)]

    def match_over(self) -> bool:
        """Whether the match (or the one game, without a target) is over."""
        target = self.game.target
        return self.state.over and (target is None or max(self.totals()) >= target)

    def describe(self) -> dict[str, Any]:
        """The verdict's ``state``: this hand's, with match totals in a match."""
        sides = self.game.side_names
        described = describe(self.engine, self.state, sides)
        if self.game.target is None:
            return described
        totals = self.totals()
        described["hand"] = self.hand
        described["scores"] = dict(zip(sides, totals, strict=True))
        described["over"] = self.match_over()
        best = max(totals)
        described["winners"] = ([side for side, total in zip(sides, totals, strict=True)
                                 if total == best] if described["over"] else [])
        return described

    # -- events ---------------------------------------------------------------------

    def attempt(self, event: Event, *, trust: bool = False) -> RefereeError | None:
        """Play one event as :meth:`play` does, but when it is refused, leave everything
        as it was and return the error. With ``trust``, what the event says of the cards
        is not checked (the table accepted it)."""
        mark, before = self._mark(), self.state
        self._trusting = trust
        try:
            self.play(event)
        except RefereeError as error:
            self._rollback(mark)
            return error
        finally:
            self._trusting = False
        self._keep(mark, before)
        return None

    def settle(self) -> RefereeError | None:
        """Play the moves the cards force now (a lay phase nobody lays down in, at a hidden
        table; answers and draws, with an open deal), as :meth:`attempt` plays an event:
        when one is refused, everything is left as it was. :meth:`undo` takes them back."""
        mark, before = self._mark(), self.state
        try:
            if self._fork is not None:
                self._forked(self._fork, lambda: self.fill_forced(self.last_span))
            else:
                self.fill_forced(self.last_span)
        except RefereeError as error:
            self._rollback(mark)
            return error
        self._keep(mark, before)
        return None

    def undo(self) -> bool:
        """Take back the last event :meth:`attempt` accepted; False when there is none."""
        if not self._marks:
            return False
        self._rollback(self._marks.pop())
        return True

    def _mark(self) -> _Mark:
        self._undoable = True
        return _Mark(self.state.copy(),
                     self.knowledge.depth if self.knowledge is not None else 0,
                     len(self.record.played) if self.record is not None else 0,
                     len(self.notes), self.hand, self.banked, self.last_span,
                     len(self._finished), self._claim_line, self._fork)

    def _keep(self, mark: _Mark, before: GameState) -> None:
        """Keep ``mark`` for undo: of a state changed in place, only the changed fields."""
        old = mark.state
        assert old is not None
        mark.reread, self._reread = self._reread, None
        if self.state is before:
            values = _state_fields(old)
            mark.changed = tuple(chain.from_iterable(compress(  # in C: an event costs little
                zip(STATE_FIELDS, values, strict=True), map(ne, values, _state_fields(before)))))
            mark.state = None
        self._marks.append(mark)

    def _rollback(self, mark: _Mark) -> None:
        self._reread = None
        if mark.reread is not None:  # back to the draws before the event, read as before
            self._back_to(mark.reread)
            for written in mark.reread.events:
                self._play(written)
            self._fork = mark.reread
            return
        if mark.state is not None:
            self.state = mark.state
        for name, value in zip(mark.changed[::2], mark.changed[1::2], strict=True):
            setattr(self.state, str(name), value)
        if len(self._finished) > mark.finished:  # the event began a hand: back to the last
            self._dealt, model = self._finished[mark.finished]
            del self._finished[mark.finished:]
            self.knowledge = model if self.record is None else self._replayed(mark.played)
        if self.knowledge is not None:
            while self.knowledge.depth > mark.depth:
                self.knowledge.undo()
        if self._trusted and max(self._trusted) >= mark.played:
            self._trusted = {index for index in self._trusted if index < mark.played}
        if self.record is not None:
            del self.record.played[mark.played:]
        del self.notes[mark.notes:]
        self.hand, self.banked, self.last_span = mark.hand, mark.banked, mark.last_span
        self._claim_line, self._fork = mark.claim_line, mark.fork

    def _replayed(self, end: int) -> Knowledge | None:
        """The knowledge model of the hand in the record up to ``end`` (a hand over, kept
        as its deal), dealt again and its moves replayed: as :meth:`_play_move` built it."""
        state, model = self._deal(self._dealt.deal, self._dealt.dealer)
        engine = self.engine
        for index in range(self._dealt.start, end) if model is not None else ():
            line, move = self.kept.played[index]
            assert model is not None and not isinstance(move, str)
            facts = () if index in self._trusted else engine.facts(state, move)
            model.add(line, [fact for fact in facts if decide(state, fact) is not True])
            engine.apply(state, move)
            model.moved(state.moved)
        return model

    @property
    def kept(self) -> Record:
        """The record of what was played (a session made with ``record=True``)."""
        assert self.record is not None, "this session keeps no record"
        return self.record

    def play(self, event: Event) -> None:
        """Check and play one written event, after the moves it skips."""
        fork = self._fork
        if fork is None and not (event.kind is EVENT_DRAW and self.state.refill_open):
            self._play(event)
        elif self._trusting or (fork is None and not self._by(event, self.state.dealer)):
            if fork is not None:  # the table's word: the draws stay read as they are
                self._close(fork)
            self._play(event)
        else:
            if fork is None:  # the dealer's first draw: a replacement, or a move in turn
                undoable = self._undoable  # before the mark, which keeps undo from now
                fork = _Fork(self._mark(), (), undoable)
            self._forked(fork, lambda: self._play(event), event)

    def _forked(self, fork: _Fork, action: Callable[[], None],
                event: Event | None = None) -> None:
        """Do ``action`` (play ``event``, or the moves the cards force) with the dealer's
        draws read as replacements; when it is refused, read them again as moves in turn
        (:class:`_Fork`)."""
        try:
            action()
        except RefereeError as error:
            first = fork.events[0] if fork.events else event
            assert first is not None  # a fork kept holds the draw that opened it
            if not self._read_again(fork, first, action):
                raise error from None
            return
        if self.state.refill_open:  # still open to either reading
            events = fork.events if event is None else (*fork.events, event)
            self._fork = _Fork(fork.mark, events, fork.undoable)
        else:  # the lay phase ended as the first reading has it
            self._close(fork)

    def _read_again(self, fork: _Fork, first: Event, action: Callable[[], None]) -> bool:
        """Read the dealer's draws again: end the lay phase before the ``first`` of them,
        play them as moves in turn, then ``action``. When that fails too, the first
        reading is restored, where its error was found, and the answer is ``False``."""
        self._back_to(fork)
        try:
            self.fill_forced(first.span, first)  # the lay phase ends
            for written in fork.events:
                self._play(written)
            action()
        except RefereeError:
            self._back_to(fork)
            with suppress(RefereeError):
                for written in fork.events:
                    self._play(written)
                action()
            self._undoable = fork.undoable
            return False
        self._close(fork)
        if fork.undoable:
            self._reread = fork  # for the undo of this event (:meth:`_keep`)
        return True

    def _back_to(self, fork: _Fork) -> None:
        """The session as it was before the first of the dealer's draws (the mark kept
        intact, to go back to again)."""
        mark = fork.mark
        assert mark.state is not None
        self._rollback(replace(mark, state=mark.state.copy()))

    def _close(self, fork: _Fork) -> None:
        """The dealer's draws are read one way for good."""
        self._fork = None
        self._undoable = fork.undoable

    def _play(self, event: Event) -> None:
        self.last_span = event.span
        kind = event.kind
        if kind is EVENT_NEW_HAND:
            self.fill_forced(event.span)
            self._new_hand(event)
            return
        if self.state.phase is not PHASE_OVER and not self._fits(event):
            self.fill_forced(event.span, event)
        if self.state.phase is PHASE_OVER and not (kind is EVENT_SHOW
                                                   and self.state.revealed):
            if not self.match_over():
                raise RefereeError(Kind.OVER, f"hand {self.hand} is over; the next starts "
                                   f"with 'hand {self.hand + 1}'", event.span)
            raise RefereeError(Kind.OVER, "the game is already over", event.span)
        move = self.resolver.move(event, self.state)
        if (kind is EVENT_BOOK and self.state.phase is PHASE_LAY and not self.state.hidden
                and self.engine.violation(self.state, move) is not None):
            self.fill_forced(event.span)  # lay what the cards did complete, then judge the line
            if self.state.over:
                raise RefereeError(Kind.OVER, "the game is already over", event.span)
        self._play_move(move, event.span)

    def _fits(self, event: Event) -> bool:
        """Whether this event may come now, before the referee fills in what the cards
        force."""
        state, kind = self.state, event.kind
        if kind is EVENT_SHOW:
            return state.phase is not PHASE_LAY
        if kind is EVENT_DRAW and state.refill_open:  # the dealer's replacements
            return self._by(event, state.dealer)  # for sets laid from a hidden deal
        if state.unsure is not None:  # any other event says they had no set to lay
            return self._book_waited_for(event)
        due = FITTING.get(state.phase)
        return due is None or kind in due

    def _book_waited_for(self, event: Event) -> bool:
        """Whether ``event`` is a book by the player the referee waits for to lay one."""
        unsure = self.state.unsure
        return unsure is not None and event.kind is EVENT_BOOK and self._by(event, unsure)

    def _by(self, event: Event, seat: int) -> bool:
        """Whether ``event`` is written as made by ``seat``."""
        if event.player is None:
            return False
        try:
            return self.game.table.seat(event.player, event.span) == seat
        except RefereeError:
            return False  # no player: the move itself will say so

    def fill_forced(self, span: Span, written: Event | None = None) -> None:
        """Play the moves the cards force, up to the next free choice, or up to the point
        where the ``written`` event is the one due."""
        for _ in range(4 * len(self.game.spec.cards) + 8):
            if written is not None and (written.kind in FITTING.get(self.state.phase, ())
                                        or self._book_waited_for(written)):
                return
            move = self.engine.forced_move(self.state)
            if move is None:
                return
            self._play_move(move, span)

    def finish(self) -> None:
        """The transcript ends here: fill in what the cards force. At a hidden table a
        set whose book line is missing is caught only by a next event, so when ending the
        lay phase (or a turn spent laying nothing) contradicts the cards, it stays open:
        the book line may yet come; and when it is refused because the dealer has not yet
        drawn all the cards that replace sets laid from the deal, the draws may yet come
        (a live table's file ends there when saved or killed)."""
        fork = self._fork
        if fork is None:
            self._fill_in_at_the_end()
            return
        self._forked(fork, self._fill_in_at_the_end)
        fork = self._fork
        if fork is not None and fork.events and self.state.refill_open:
            # it ends open to both readings: where the cards allow it, the draws are
            # moves in turn, and the game ends owing no replacement
            self._read_again(fork, fork.events[0], self._fill_in_at_the_end)

    def _fill_in_at_the_end(self) -> None:
        try:
            self.fill_forced(self.last_span)
        except RefereeError as error:
            open_question = self.state.phase is PHASE_LAY or self.state.unsure is not None
            waiting = error.kind is Kind.CONTRADICTION or bool(self.state.refill_open)
            if not (open_question and waiting):
                raise

    def _play_move(self, move: Move, span: Span) -> None:
        """Check ``move`` against the rules and the cards, then play it."""
        state, engine = self.state, self.engine
        problem = engine.rule_violation(state, move)
        if problem is not None:
            raise problem.located(span)
        model = self.knowledge
        unsettled = []
        counted: Fact | None = None  # the first fact the counts and known cards rule out
        for fact in () if self._trusting else engine.facts(state, move):
            verdict = decide(state, fact)
            if verdict is True:
                continue
            if verdict is False:
                if model is None:
                    raise fact.error(state).located(span)
                counted = counted or fact
            unsettled.append(fact)
        if model is not None:
            undecided = len(model.undecided)
            if not model.add(span.line, unsettled):
                error = self._contradiction(model.explain(), span)
                model.undo()
                raise error
            if counted is not None:  # the model allows it only for facts the table set aside
                model.undo()
                raise _miscounted(state, counted).located(span)
            if len(model.undecided) > undecided:
                self.notes.append((span.line, "no solver settled in its time whether a deal "
                                   "explains this event; the referee goes on as if one does"))
        before = state.copy() if self._trusting else state
        engine.apply(state, move)
        if self._trusting and (unreachable := count_problem(
                state, before, engine.facts(before, move), engine.lookups.set_cards)):
            raise RefereeError(Kind.ILLEGAL, unreachable, span)  # no deal reaches it
        if model is not None:
            model.moved(state.moved)
            if not self._undoable:
                model.seal()  # a check never takes an event back: keep nothing per event
        if self.record is not None:
            self.record.add(span.line, move)
            if self._trusting:
                self._trusted.add(len(self.record.played) - 1)
        if move.__class__ is Claim:
            self._claim_line = span.line
        if state.judged is not None:
            claim, judgement = state.judged
            self.notes.append((self._claim_line, bounded(describe_judgement(
                state, claim, judgement, self.game.side_names))))

    def _contradiction(self, proof: Proof, span: Span) -> RefereeError:
        """The error for an event no deal explains, with the lines that prove it."""
        said = "; ".join(fact.reason for fact in proof.claims)
        reasons = "; ".join(f"line {line}: {reason}" for line, reason in proof.because)
        if proof.forced:
            who = self.state.players[proof.claims[0].place]
            but = (f"but every deal that explains the earlier events puts "
                   f"{self.engine.lookups.listed(proof.forced)} in {who}'s hand")
        elif reasons:
            but = "but no deal of the cards explains that together with the earlier events"
        else:
            but = "but no deal of the cards explains that"
        message = f"{said}; {but}" + (f": {reasons}" if reasons else "")
        return RefereeError(Kind.CONTRADICTION, message, span, proof.because)

    def _new_hand(self, event: Event) -> None:
        game = self.game
        if game.target is None:
            raise RefereeError(Kind.ILLEGAL, "this transcript is one hand: a match needs "
                               "'target: N' in the header", event.span)
        if self.match_over():
            raise RefereeError(Kind.OVER, "the match is over", event.span)
        if not self.state.over:
            raise RefereeError(Kind.ILLEGAL, f"hand {self.hand} is not over yet", event.span)
        if event.count != self.hand + 1:
            raise RefereeError(Kind.ILLEGAL, f"the next hand is hand {self.hand + 1}, "
                               f"not {event.count}", event.span)
        names = game.table.players
        dealer = (game.dealer + self.hand) % len(names)
        deal = deal_next_hand(game, event.headers, dealer, event.span)  # may refuse: then
        ended, model = self._dealt, self.knowledge  # nothing has changed
        self.banked = self.totals()
        self.hand += 1
        self.state, self.knowledge = self._deal(deal, dealer)
        if self._undoable:  # the hand over is replayed from the record if it is taken back
            self._finished.append((ended, model if self.record is None else None))
        if self.record is not None:
            for written in [f"hand {self.hand}", *write_deal(
                    names, deal.hands, deal.stock, deal.centre, hidden=deal.hidden)]:
                self.record.add(event.span.line, written)
        self._dealt = _Dealt(deal, dealer, len(self.record.played) if self.record else 0)

    # -- what is known ---------------------------------------------------------------------

    def where_cards(self, seconds: float | None = None) -> dict[str, list[str]]:
        """Every card's possible places now: a player, ``stock``, ``centre``, ``sets``
        (laid, won or void) or ``piles`` (captured); with ``seconds``, the places not
        ruled out in that time."""
        state = self.state
        names = state.players
        possible = (self.knowledge.possible_places(seconds)
                    if self.knowledge is not None and self.knowledge.consistent else {})
        known_stock = {c for c in state.stock if c is not None}
        in_piles = {c for pile in state.piles for c in pile}
        holder = {c: seat for seat, hand in enumerate(state.hands) for c in hand}
        places: dict[str, list[str]] = {}
        for card in self.game.spec.cards:
            if card in holder:
                found = [names[holder[card]]]
            elif card in known_stock:
                found = ["stock"]
            elif card in state.centre:
                found = ["centre"]
            elif card in in_piles:
                found = ["piles"]
            elif card in possible:
                found = list(dict.fromkeys(names[p] if p >= 0 else "stock"
                                           for p in possible[card]))
            elif card in state.unplaced:
                found = [*names, "stock"] if state.stock else list(names)
            else:
                found = ["sets"]
            places[card] = found
        return places


def _miscounted(state: GameState, fact: Fact) -> RefereeError:
    """The contradiction of a fact the counts of cards and the cards known rule out,
    though the knowledge model (some facts set aside by the table) would allow it."""
    low, high = count_range(state, fact.place, fact.cards)
    who = state.players[fact.place] if fact.place >= 0 else "the stock"
    but = (f"{who} is known to hold {low} of those cards" if low > fact.most else
           f"counting {who}'s cards and the cards known elsewhere, {who} holds at most "
           f"{high} of those cards")
    return RefereeError(Kind.CONTRADICTION, f"{fact.reason}; but {but}")
