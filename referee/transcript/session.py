"""One game refereed event by event: the interface the checker and the live prompt share.

A :class:`Session` takes written events one at a time (:meth:`Session.play`),
resolves each to an engine move (referee/transcript/resolve.py), checks it against the
rules and the cards, and applies it. It fills in the moves the cards force that
the transcript left out: with an open deal, answers, draws, turn-ups and books
laid at once; at a hidden table only what needs no card (NOTATION.md, "Hidden
deals"). What a move says of cards the referee cannot see goes to the knowledge
model (referee/knowledge/model.py); the first event after which no deal explains the
game is a ``contradiction``, with the earlier lines that prove it.

Its collaborators, beside it in referee/transcript/: match.py deals each hand and
counts a match's points, undo.py marks and takes events back (marks.py holds the
marks), draw_readings.py reads a hidden dealer's draws two ways, contradictions.py
words what the cards rule out, and described.py gives the verdict's ``state`` and
where each card may be.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import islice
from typing import TYPE_CHECKING, Any, Final

from referee.engine.facts import Fact, decide
from referee.engine.moves import Answer, Claim, Draw, Give, LayDown, Move, Refuse
from referee.engine.state import (
    PHASE_ANSWER,
    PHASE_DRAW,
    PHASE_LAY,
    PHASE_OVER,
    PHASE_PASS,
    PHASE_STUCK_DRAW,
    PHASE_TURN_UP,
)
from referee.engine.wording import describe_judgement
from referee.errors import Kind, RefereeError, Span, bounded
from referee.knowledge.budgets import DEFAULT_BUDGETS, Budgets
from referee.knowledge.counts import count_problem
from referee.language.spec import HANDOVER_TO_CENTRE
from referee.transcript.described import describe, where_cards, with_match
from referee.transcript.events import (
    EVENT_BOOK,
    EVENT_DRAW,
    EVENT_GIVE,
    EVENT_NEW_HAND,
    EVENT_PASS,
    EVENT_REFUSE,
    EVENT_SHOW,
    EVENT_TURN_UP,
    Event,
)
from referee.transcript.match import Dealt, deal_hand, match_totals, refuse_new_hand
from referee.transcript.record import Record
from referee.transcript.resolve import Resolver
from referee.transcript.setup import Game, deal_next_hand
from referee.transcript.writer import write_deal, write_header

# events read before they are played (Session.play_all): a few lines' worth of memory
READ_AHEAD: Final = 64

if TYPE_CHECKING:  # the knowledge model (and its solvers) is loaded for hidden deals only,
    # undo and the dealer's draws read two ways when a live table or those draws need them
    from referee.knowledge.model import Knowledge
    from referee.transcript.marks import Fork, Mark

FITTING: Final = {
    PHASE_ANSWER: (EVENT_GIVE, EVENT_REFUSE),
    PHASE_DRAW: (EVENT_DRAW,),
    PHASE_STUCK_DRAW: (EVENT_DRAW,),
    PHASE_PASS: (EVENT_PASS,),
    PHASE_TURN_UP: (EVENT_TURN_UP,),
    PHASE_LAY: (EVENT_BOOK,),
}  # the written events a phase waits for; before any other, the referee fills in
# the moves the referee fills in from the cards it knows (an open table): legal and
# stating only what those cards show, as the engine makes them, so they are not judged
# again (tests/test_forced_moves.py holds every one to the engine's judgement)
MADE_FROM_KNOWN_CARDS: Final = (Give, Refuse, Answer, Draw, LayDown)
# the written events of moves the referee also fills in at an open table: written after
# moves left out, they are checked where they are due (Session._fill_before)
FILLED_IN: Final = (EVENT_BOOK, EVENT_DRAW)


class Session:
    """One game (a match, with a target) refereed event by event.

    The checker calls :meth:`play` for each written event. The live prompt calls
    :meth:`attempt`, which leaves everything as it was when the event is refused,
    :meth:`undo` to take the last accepted event back, and ``trust=True`` to accept an
    event the cards contradict (its facts about the cards are then set aside; not an
    event that would leave a count no deal could reach, referee/knowledge/counts.py).
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
        self.events_played = 0  # by play_all
        self.playing: int | None = None  # the line of the event play_all is playing
        self._claim_line = 0  # the line of the last claim: its note cites it, not a show
        self.state, self.knowledge = deal_hand(game, deal, game.dealer, budgets)
        self._marks: list[Mark] = []
        self._fork: Fork | None = None  # the dealer's draws, while open to another reading
        self._reread: Fork | None = None  # the fork the event being played read again
        self._most_forced = 4 * len(game.spec.cards) + 8  # a bound on moves filled in at once
        self._trusting = False
        self._undoable = False  # whether an event may be taken back (attempt, settle)
        self._trusted: set[int] = set()  # the moves played trusted, by index in the record
        self._dealt = Dealt(deal, game.dealer, 0)
        # The hands over, to take a new hand back: how each was dealt, and its knowledge
        # model when there is no record to replay it from (a long match keeps no models).
        self._finished: list[tuple[Dealt, Knowledge | None]] = []

    def totals(self) -> list[int]:
        """Match points so far, this hand's included: its points, or (a match counting
        hands won) a point for each side that won it once it is over."""
        return match_totals(self.engine, self.state, self.banked, self.game.spec.match_by_hands)

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
        return with_match(described, sides, self.totals(), self.hand, self.match_over())

    # -- events ---------------------------------------------------------------------

    def attempt(self, event: Event, *, trust: bool = False) -> RefereeError | None:
        """Play one event as :meth:`play` does, but when it is refused, leave everything
        as it was and return the error. With ``trust``, what the event says of the cards
        is not checked (the table accepted it)."""
        from referee.transcript.undo import keep, roll_back, take_mark

        mark, before = take_mark(self), self.state
        self._trusting = trust
        try:
            self.play(event)
        except RefereeError as error:
            roll_back(self, mark)
            return error
        finally:
            self._trusting = False
        keep(self, mark, before)
        return None

    def settle(self) -> RefereeError | None:
        """Play the moves the cards force now (a lay phase nobody lays down in, at a hidden
        table; answers and draws, with an open deal), as :meth:`attempt` plays an event:
        when one is refused, everything is left as it was. :meth:`undo` takes them back."""
        from referee.transcript.draw_readings import forked
        from referee.transcript.undo import keep, roll_back, take_mark

        mark, before = take_mark(self), self.state
        try:
            if self._fork is not None:
                forked(self, self._fork, lambda: self.fill_forced(self.last_span))
            else:
                self.fill_forced(self.last_span)
        except RefereeError as error:
            roll_back(self, mark)
            return error
        keep(self, mark, before)
        return None

    def undo(self) -> bool:
        """Take back the last event :meth:`attempt` accepted; False when there is none."""
        if not self._marks:
            return False
        from referee.transcript.undo import roll_back

        roll_back(self, self._marks.pop())
        return True

    @property
    def kept(self) -> Record:
        """The record of what was played (a session made with ``record=True``)."""
        assert self.record is not None, "this session keeps no record"
        return self.record

    def play_all(self, events: Iterable[Event],
                 before_each: Callable[[int], None] | None = None) -> None:
        """Play ``events`` in turn (:meth:`play`), counting them in :attr:`events_played`;
        while one is played, :attr:`playing` is its line (None once all are played).
        ``before_each`` is called with each event's line before it is played. The loop
        of ``referee check``, here so that it is compiled with the rest.

        The events are taken :data:`READ_AHEAD` at a time, and then played: reading a
        line and playing its event run different code, and taking turns at every event
        evicted each from the processor's instruction cache (a third of the misses of a
        first pass over terse Literature, bench/bench_terse.py). An event is played as
        before, in order, and the first error stops the game as before; only the reading
        runs ahead, so a reader may find an error in a line after the one whose event is
        refused (referee/transcript/check.py reports the one played first)."""
        iterator = iter(events)
        while batch := list(islice(iterator, READ_AHEAD)):
            for event in batch:
                self.playing = event.span.line
                if before_each is not None:
                    before_each(event.span.line)
                self.play(event)
                self.events_played += 1
        self.playing = None

    def play(self, event: Event) -> None:
        """Check and play one written event, after the moves it skips."""
        fork = self._fork
        if fork is None and not (event.kind is EVENT_DRAW and self.state.refill_open):
            self._play(event)
            return
        from referee.transcript.draw_readings import close, forked
        from referee.transcript.marks import Fork
        from referee.transcript.undo import take_mark

        if self._trusting or (fork is None and not self._by(event, self.state.dealer)):
            if fork is not None:  # the table's word: the draws stay read as they are
                close(self, fork)
            self._play(event)
        else:
            if fork is None:  # the dealer's first draw: a replacement, or a move in turn
                undoable = self._undoable  # before the mark, which keeps undo from now
                fork = Fork(take_mark(self), (), undoable)
            forked(self, fork, lambda: self._play(event), event)

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
        if kind in FILLED_IN and not self.state.hidden:
            problem = self.engine.violation(self.state, move)
            if problem is not None and not self._trusting and self._fill_before(move, event.span):
                problem = None
            elif problem is not None and kind is EVENT_BOOK and self.state.phase is PHASE_LAY:
                self.fill_forced(event.span)  # lay what the cards did complete, then judge
                if self.state.over:  # the line
                    raise RefereeError(Kind.OVER, "the game is already over", event.span)
            if problem is None and self.knowledge is None and not self._trusting:
                self._play_move(move, event.span, judged=True)  # every card is known
                return
        self._play_move(move, event.span)

    def _fill_before(self, move: Move, span: Span) -> bool:
        """Play the moves the cards force before ``move``, not allowed now, is allowed
        (counted first on a copy of the state), so that it is checked there; False,
        playing none, if they never allow it."""
        state, engine = self.state.copy(), self.engine
        for count in range(1, self._most_forced + 1):
            forced = engine.forced_move(state)
            if forced is None:
                return False
            engine.apply(state, forced)
            if engine.violation(state, move) is None:
                self.fill_forced(span, most=count)
                return True
        return False

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
        return event.player is not None and self.game.table.find(event.player.text) == seat

    def fill_forced(self, span: Span, written: Event | None = None, most: int | None = None
                    ) -> None:
        """Play the moves the cards force, up to the next free choice, or up to the point
        where the ``written`` event is the one due, or ``most`` of them (those before a
        set laid or a card drawn written after moves left out, :meth:`_fill_before`)."""
        for _ in range(self._most_forced if most is None else most):
            if written is not None and (written.kind in FITTING.get(self.state.phase, ())
                                        or self._book_waited_for(written)):
                return
            move = self.engine.forced_move(self.state)
            if move is None:
                return
            self._play_move(move, span, judged=self.knowledge is None and not self._trusting
                            and type(move) in MADE_FROM_KNOWN_CARDS)

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
        from referee.transcript.draw_readings import forked, read_again

        forked(self, fork, self._fill_in_at_the_end)
        fork = self._fork
        if fork is not None and fork.events and self.state.refill_open:
            # it ends open to both readings: where the cards allow it, the draws are
            # moves in turn, and the game ends owing no replacement
            read_again(self, fork, fork.events[0], self._fill_in_at_the_end)

    def _fill_in_at_the_end(self) -> None:
        try:
            self.fill_forced(self.last_span)
        except RefereeError as error:
            open_question = self.state.phase is PHASE_LAY or self.state.unsure is not None
            waiting = error.kind is Kind.CONTRADICTION or bool(self.state.refill_open)
            if not (open_question and waiting):
                raise

    def _play_move(self, move: Move, span: Span, *, judged: bool = False) -> None:
        """Check ``move`` against the rules and the cards (unless ``judged`` already, at
        an open table), then play it."""
        state, engine, model = self.state, self.engine, self.knowledge
        if not judged:
            problem = engine.rule_violation(state, move)
            if problem is not None:
                raise problem.located(span)
            if model is not None:
                self._judge_unseen(move, span, model)
            elif not self._trusting:  # an open deal: the known cards decide every fact
                for fact in engine.facts(state, move):
                    if decide(state, fact) is False:
                        raise fact.error(state).located(span)
        before = state.copy() if self._trusting else state
        written = move if self.record is None else engine.named(state, move)
        engine.apply(state, move)
        if self._trusting and (unreachable := count_problem(
                state, before, engine.facts(before, move), engine.lookups.set_cards)):
            raise RefereeError(Kind.ILLEGAL, unreachable, span)  # no deal reaches it
        if model is not None:
            model.moved(state.moved)
            if not self._undoable:
                model.seal()  # a check never takes an event back: keep nothing per event
        if self.record is not None:
            self.record.add(span.line, written)
            if self._trusting:
                self._trusted.add(len(self.record.played) - 1)
        if type(move) is Claim:
            self._claim_line = span.line
        if state.judged is not None:
            claim, judgement = state.judged
            self.notes.append((self._claim_line, bounded(describe_judgement(
                state, claim, judgement, self.game.side_names))))

    def _judge_unseen(self, move: Move, span: Span, model: Knowledge) -> None:
        """Check what ``move`` says of the cards against the known cards and, for the
        cards nobody has seen, the knowledge model (which keeps what it allows)."""
        state, engine = self.state, self.engine
        unsettled = []
        counted: Fact | None = None  # the first fact the counts and known cards rule out
        for fact in () if self._trusting else engine.facts(state, move):
            verdict = decide(state, fact)
            if verdict is True:
                continue
            if verdict is False:
                counted = counted or fact
            unsettled.append(fact)
        undecided = len(model.undecided)
        if not model.add(span.line, unsettled):
            from referee.transcript.contradictions import contradiction  # only when refused

            error = contradiction(model.explain(), span, state, engine.lookups)
            model.undo()
            raise error
        if counted is not None:  # the model allows it only for facts the table set aside
            model.undo()
            from referee.transcript.contradictions import miscounted

            raise miscounted(state, counted).located(span)
        if len(model.undecided) > undecided:
            self.notes.append((span.line, "no solver settled in its time whether a deal "
                               "explains this event; the referee goes on as if one does"))

    def _new_hand(self, event: Event) -> None:
        game = self.game
        refuse_new_hand(game, self.hand, self.state.over, self.match_over(), event)
        names = game.table.players
        dealer = (game.dealer + self.hand) % len(names)
        deal = deal_next_hand(game, event.headers, dealer, event.span)  # may refuse: then
        ended, model = self._dealt, self.knowledge  # nothing has changed
        self.banked = self.totals()
        self.hand += 1
        self.state, self.knowledge = deal_hand(game, deal, dealer, self.budgets)
        if self._undoable:  # the hand over is replayed from the record if it is taken back
            self._finished.append((ended, model if self.record is None else None))
        if self.record is not None:
            for written in [f"hand {self.hand}", *write_deal(
                    names, deal.hands, deal.stock, deal.centre, hidden=deal.hidden)]:
                self.record.add(event.span.line, written)
        self._dealt = Dealt(deal, dealer, len(self.record.played) if self.record else 0)

    # -- what is known ---------------------------------------------------------------------

    def where_cards(self, seconds: float | None = None) -> dict[str, list[str]]:
        """Every card's possible places now: a player, ``stock``, ``centre``, ``sets``
        (laid, won or void) or ``piles`` (captured); with ``seconds``, the places not
        ruled out in that time."""
        return where_cards(self.state, self.knowledge, self.game.spec.cards, seconds)
