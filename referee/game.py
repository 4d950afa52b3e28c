"""One game refereed through the public API: :class:`Game`, started from rules and
names (:meth:`Game.new`) or a transcript (:meth:`Game.from_transcript`), played one
line of the transcript notation at a time (:meth:`Game.play`).

A :class:`Game` drives a :class:`~referee.transcript.session.Session` as the live table does
(referee/live/table.py): a refused event changes nothing; a contradiction (no deal of the
cards explains the event) waits for :meth:`Game.accept` or :meth:`Game.undo`, and a
new event drops it. :meth:`Game.transcript` holds a transcript read as it was typed,
then a line for each event played since.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from referee.api import Rules
from referee.arguments import (
    cards_argument,
    hands_argument,
    names_argument,
    options_argument,
    path_argument,
    shown,
    text_argument,
)
from referee.engine.moves import EndLaying, LayDown, Move, NothingLaid
from referee.engine.state import PHASE_LAY
from referee.errors import Kind, RefereeError, Span, printable
from referee.language.spec import HANDOVER_TO_CENTRE, Shown
from referee.live.announce import awaited, did
from referee.reading import first_line, lines_of, quoted
from referee.transcript.check import gc_paused
from referee.transcript.events import Event
from referee.transcript.names import not_one_word
from referee.transcript.notation import (
    ACCEPTED_MARK,
    DONE_MARK,
    TranscriptReader,
    accepted_lines,
    done_marks,
    read_events,
)
from referee.transcript.session import Session
from referee.transcript.setup import set_up
from referee.transcript.writer import format_move, write_game
from referee.values import frozen, replace
from referee.views import Outcome, View, outcome_of, view_of

SOURCE = "<game>"


@frozen
class Deal:
    """How a new game is dealt: ``Deal.hidden()`` (nobody typed the cards; ``hands`` may
    give the ones a player knows), ``Deal.seed(n)`` (shuffled, every card known) or
    ``Deal.given(hands=..., stock=..., centre=...)``."""

    kind: str  # "hidden", "seed" or "given"
    number: int | None = None
    hands: tuple[tuple[str, tuple[str, ...]], ...] = ()
    stock: tuple[str, ...] = ()
    centre: tuple[str, ...] = ()

    @classmethod
    def hidden(cls, hands: Mapping[str, Iterable[str] | str] | None = None,
               centre: Iterable[str] | str = ()) -> Deal:
        """A hidden deal; ``hands``: the hands someone at the table knows (their own),
        ``centre``: the cards dealt face up."""
        return cls("hidden", None, hands_argument(hands), (),
                   cards_argument(centre, "the centre"))

    @classmethod
    def seed(cls, number: int) -> Deal:
        """A deal shuffled with the seed ``number``, as ``deal: seed N`` deals it."""
        if isinstance(number, bool) or not isinstance(number, int) or number < 0:
            raise RefereeError(Kind.USAGE, "a seed is a whole number, 0 or more")
        return cls("seed", number)

    @classmethod
    def given(cls, hands: Mapping[str, Iterable[str] | str], stock: Iterable[str] | str = (),
              centre: Iterable[str] | str = ()) -> Deal:
        """Every hand given by its cards, the stock (top card last) and the centre; cards
        as lists, or strings of them (``"7H 7S"``)."""
        if hands is None:
            raise RefereeError(Kind.USAGE, "a given deal gives every hand: "
                               "Deal.given(hands={'Ann': [...], 'Bob': [...]}, ...)")
        return cls("given", None, hands_argument(hands), cards_argument(stock, "the stock"),
                   cards_argument(centre, "the centre"))

    def lines(self) -> list[str]:
        """The header lines of this deal."""
        if self.kind == "seed":
            return [f"deal: seed {self.number}"]
        lines = [f"deal: {self.kind}"]
        lines += [f"hand {name}: {' '.join(cards)}" for name, cards in self.hands]
        if self.stock:
            lines.append(f"stock: {' '.join(self.stock)}")
        if self.centre:
            lines.append(f"centre: {' '.join(self.centre)}")
        return lines


@frozen
class Result:
    """What :meth:`Game.play` did: ``accepted``, or refused (``kind``: ``syntax``,
    ``unknown``, ``turn``, ``illegal``, ``over``...) or a ``contradiction`` waiting for
    :meth:`Game.accept` or :meth:`Game.undo`. ``message`` words it (the events played
    and what follows, or what was wrong); ``because`` gives a contradiction's proof as
    (line of :meth:`Game.transcript`, reason); ``line`` and ``column`` place an error."""

    accepted: bool
    kind: str | None
    message: str
    because: tuple[tuple[int, str], ...] = ()
    line: int | None = None
    column: int | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"accepted": self.accepted, "kind": self.kind, "message": self.message,
                "because": [{"line": line, "reason": why} for line, why in self.because],
                "line": self.line, "column": self.column}


@frozen
class Awaiting:
    """What the game waits for: in ``words`` (``Ann to ask``), and who may act now
    (``players``) in which ``phase`` (``ask``, ``answer``, ``draw``...; ``contradiction``
    while one waits for the table, ``over`` at the end)."""

    words: str
    players: tuple[str, ...]
    phase: str

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"words": self.words, "players": list(self.players), "phase": self.phase}


class Game:
    """One game (or match) refereed event by event: one object per table."""

    def __init__(self, session: Session, text: str, end: int) -> None:
        """Use :meth:`new` or :meth:`from_transcript`."""
        self._session = session
        # The transcript: the first ``end`` characters of ``text`` (the header written, or
        # the transcript read, as typed: its line numbers stay those of the text), then
        # a line or two for each event played since.
        self._text = text
        self._end = end
        self._newlines = text.count("\n", 0, end)  # in text[:end]
        self._added: list[str] = []
        self._marks: list[tuple[int, int, int]] = []  # before each entry: end, newlines, added
        self._pending: tuple[Event, RefereeError] | None = None
        self._source = SOURCE  # where the transcript came from: a rule file's path is near it

    # -- starting ---------------------------------------------------------------------

    @classmethod
    def new(cls, rules: Rules | str, players: Sequence[str], *, dealer: str | None = None,
            deal: Deal | str = "hidden", options: Mapping[str, str] | None = None) -> Game:
        """A new game of ``rules`` (a :class:`~referee.api.Rules` or a bundled name or a
        ``.rules`` path) for ``players`` (their names, in seat order); the last player
        deals unless ``dealer`` says. ``deal``: ``"hidden"`` or a :class:`Deal`."""
        if isinstance(rules, Rules):
            reference, chosen = rules.reference, {**rules.chosen, **options_argument(options)}
        else:
            reference = path_argument(rules, "rules (a Rules, or a rule file's name or path)")
            chosen = options_argument(options)
        if isinstance(deal, str) and deal == "hidden":
            deal = Deal.hidden()
        elif not isinstance(deal, Deal):
            raise RefereeError(Kind.USAGE, f"a deal is 'hidden', Deal.seed(N) or "
                               f"Deal.given(...), not {shown(deal)}")
        players = names_argument(players, "players")
        if not players:
            raise RefereeError(Kind.USAGE, "players is a list of names, in seat order")
        for name in [*players, *([dealer] if dealer is not None else []),
                     *(name for name, _ in deal.hands)]:
            _check_word(name, "a player's name")
        for key, value in chosen.items():
            _check_word(key, "an option's name")
            _check_word(value, "an option's value")
        for card in [*deal.stock, *deal.centre, *(c for _, cards in deal.hands for c in cards)]:
            _check_word(card, "a card")
        header = [write_game(reference),
                  *(f"option {key}: {value}" for key, value in chosen.items()),
                  f"players: {' '.join(players)}"]
        if dealer is not None:
            header.append(f"dealer: {dealer}")
        header += deal.lines()
        return cls._started("\n".join(header) + "\n", SOURCE)

    @classmethod
    def from_transcript(cls, text: str, *, source: str = "<transcript>") -> Game:
        """The game a transcript describes, its events played (those a live table
        accepted against the cards, marked ``# accepted by the table:``, accepted
        again), ready to go on; an event refused is a :class:`RefereeError`."""
        text = text_argument(text, "a transcript's text")
        source = text_argument(source, "a transcript's source")
        typed = lines_of(text.removeprefix("\ufeff"))
        text = "\n".join(typed) + "\n"
        reader = TranscriptReader(text, source)
        starts = [0]  # the offset of each line
        for typed_line in typed:
            starts.append(starts[-1] + len(typed_line) + 1)
        header = text[:starts[min(reader.events_from, len(starts)) - 1]]
        game = cls._started(header, source, text, len(header))
        accepted = accepted_lines(typed)
        dones = done_marks(text)
        with gc_paused():
            for event in reader.events():
                while dones and dones[0] < event.span.line:
                    game._settle_at(dones.pop(0), typed, starts, source)
                span = event.span
                game._move_end(starts[span.line - 1] + span.column - 1)
                error = game._attempt(event, trust=False, as_typed=True)
                if error is not None and span.line in accepted:
                    error = game._attempt(event, trust=True, as_typed=True)
                if error is not None:
                    raise error
            if reader.error is not None:
                raise reader.error
            for line in dones:
                game._settle_at(line, typed, starts, source)
        game._move_end(len(text))  # the notes after the last event too
        return game

    @classmethod
    def _started(cls, header: str, source: str, text: str | None = None,
                 end: int = 0) -> Game:
        """A game set up from its ``header`` lines, no event played; ``text`` (the whole
        transcript) holds them in its first ``end`` characters."""
        reader = TranscriptReader(header, source)
        if reader.error is not None:
            raise reader.error
        if not reader.headers:
            raise RefereeError(Kind.HEADER, "a transcript starts with its header ('game: "
                               "NAME', 'players: NAMES')", Span(1, 1, first_line(header),
                                                                source))
        first = first_line(header)
        game = set_up(reader.headers, Span(1, 1, first, source, len(first)),
                      None if source.startswith("<") else Path(source).parent)
        if text is None:  # a header written: a blank line after it
            text = header.rstrip("\n") + "\n\n"
            end = len(text)
        started = cls(Session(game), text, end)
        started._source = source
        return started

    # -- what it waits for ------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names, in seat order."""
        return self._session.game.table.players

    @property
    def teams(self) -> dict[str, tuple[str, ...]]:
        """Each team's players, in seat order (empty when the rules have no teams)."""
        game = self._session.game
        if not game.spec.teams:
            return {}
        return {team: tuple(name for name, index in zip(self.players, game.teams, strict=True)
                            if index == number)
                for number, team in enumerate(game.team_names)}

    @property
    def pending(self) -> str | None:
        """The event the cards contradict, as a line of the notation, while it waits
        for :meth:`accept` or :meth:`undo`; else None."""
        return None if self._pending is None else _typed(self._pending[0])

    @property
    def awaiting(self) -> Awaiting:
        """Who may act now, and what the game waits for."""
        session = self._session
        if self._pending is not None:
            return Awaiting(self._waiting_words(), (), "contradiction")
        if session.match_over():
            return Awaiting(awaited(session), (), "over")
        from referee.live.choices import Choices

        choices = Choices(session, knowing=session.game.spec.shown is Shown.EVERY_EVENT)
        names = self.players
        return Awaiting(awaited(session), tuple(names[seat] for seat in choices.actors()),
                        session.state.phase.value)

    def legal_moves(self, player: str | None = None, *, claims: bool = True) -> list[str]:
        """The moves allowed now (of ``player``, when named), each as a line of the
        canonical notation (``Ann asks Bob for 7H``). With a hidden deal, the moves the
        cards known allow: each is tried, and kept when the referee accepts it. Without
        ``claims``, claims are left out: a set's cards shared among teammates make
        thousands of them, which a front end builds a set and a card at a time."""
        session = self._session
        if self._pending is not None or session.state.over:
            return []
        seat = None if player is None else self._seat(player)
        state, engine = session.state, session.engine
        moves: list[Move] = list(engine.legal_moves(state, with_claims=claims))
        hidden = session.knowledge is not None
        lines: list[str] = []
        if hidden:
            moves += self._hidden_moves(claims)
            lines = [line for who, line in self._hidden_lines()
                     if seat is None or who == seat]
        names = state.players
        lay_out = session.game.spec.ask.handover is HANDOVER_TO_CENTRE
        texts = [format_move(m, names, lay_out=lay_out) for m in moves
                 if not isinstance(m, EndLaying | NothingLaid)
                 and (seat is None or m.player == seat)]
        texts = list(dict.fromkeys([*texts, *lines]))
        return [text for text in texts if self._allowed(text)] if hidden else texts

    def _hidden_moves(self, claims: bool) -> list[Move]:
        """In a lay phase of a hidden deal, the sets a hand may hold whole, and the
        turn's moves once nobody lays more."""
        from referee.live.choices import Choices

        session = self._session
        state = session.state
        choices = Choices(session, knowing=True)
        moves: list[Move] = []
        if state.phase is PHASE_LAY:
            for seat in state.laying:
                moves += [LayDown(seat, name) for name in choices.whole_sets(seat)]
            after = state.copy()
            session.engine.apply(after, EndLaying(state.turn))
            if not after.over:
                moves += session.engine.legal_moves(after, with_claims=claims)  # the turn's
        return moves

    def _hidden_lines(self) -> list[tuple[int, str]]:
        """The asks, answers and named draws the cards known allow, as (seat, line):
        candidates, each tried before it is offered."""
        from referee.live.choices import Choices

        session = self._session
        state = session.state
        choices = Choices(session, knowing=True)
        to_centre = session.game.spec.ask.handover is HANDOVER_TO_CENTRE
        names = state.players
        lines: list[tuple[int, str]] = []
        for seat in choices.actors():
            who, verbs = names[seat], choices.verbs(seat)
            if "asks" in verbs:
                ask = "to lay out" if to_centre else "for"
                lines += [(seat, f"{who} asks {names[target]} {ask} {item}")
                          for target in choices.whom(seat) for item in choices.ask_items(seat)]
            if "says" in verbs:
                lines += [(seat, f"{who} says {word}") for word in choices.answer_words()]
            for verb in ("gives", "lays out"):
                if verb in verbs:
                    lines += [(seat, f"{who} {verb} {item}") for item in choices.answer_items()]
            if "draws" in verbs:
                lines += [(seat, f"{who} draws"), *((seat, f"{who} draws {card}")
                                                    for card in choices.draw_items())]
        return lines

    def _allowed(self, text: str) -> bool:
        """Whether the referee accepts ``text`` now: tried, and taken back."""
        events, unreadable = read_events(text, SOURCE, self._next_line())
        if unreadable is not None or len(events) != 1:
            return False
        if self._session.attempt(events[0]) is not None:
            return False
        self._session.undo()
        return True

    # -- playing -----------------------------------------------------------------------

    def play(self, text: str) -> Result:
        """Play one or several events (lines of the notation, or several to a line with
        ``;``). A refused event changes nothing: the events before it in ``text`` are
        taken back too, and a contradiction waiting still waits. A contradiction keeps
        the events before it and waits for :meth:`accept` or :meth:`undo`; an event
        accepted, or a new contradiction, drops the one waiting."""
        if not isinstance(text, str):
            raise RefereeError(Kind.USAGE, "play takes the text of events")
        waiting, self._pending = self._pending, None
        result = self._play(text)
        if waiting is None:
            return result
        if not result.accepted and self._pending is None:  # nothing changed
            self._pending = waiting
            return result
        return replace(result, message=f"dropped the contradiction on {_typed(waiting[0])}; "
                       f"{result.message}")

    def _play(self, text: str) -> Result:
        session = self._session
        events, unreadable = read_events(text, SOURCE, self._next_line())
        if unreadable is not None:
            return _refused(unreadable, "")
        if not events:
            return Result(False, Kind.SYNTAX.value, "no event to play")
        done: list[str] = []
        for index, event in enumerate(events):
            played, notes = len(session.kept.played), len(session.notes)
            error = self._attempt(event, trust=False)
            if error is None:
                done.append(did(session, played, notes))
                continue
            rest = ""
            if error.kind is Kind.CONTRADICTION:
                unacceptable = self._unacceptable(event)
                if unacceptable is None:
                    self._pending = (_at(event, self._next_line()), error)
                    lead = f"accepted: {' / '.join(done)}; " if done else ""
                    return _refused(error, lead, "; accept() records it and goes on, undo() "
                                    "drops it, as does a new event")
                rest = f"; the table cannot accept it: {unacceptable.message}"
            for _ in range(index):
                self.undo()
            return _refused(error, "", rest)
        return Result(True, None, " / ".join(done))

    def accept(self) -> Result:
        """Record the contradiction just reported, as the table's word, and go on."""
        if self._pending is None:
            raise RefereeError(Kind.USAGE, "nothing to accept: accept() follows a "
                               "contradiction")
        event, error = self._pending
        self._pending = None
        session = self._session
        played, notes = len(session.kept.played), len(session.notes)
        again = self._attempt(event, trust=True)
        if again is not None:
            return _refused(again, "", " (it cannot be accepted)")
        self._added.append(f"{ACCEPTED_MARK} {printable(error.message)}".replace("\n", " "))
        return Result(True, None, "accepted by the table: " + did(session, played, notes))

    def undo(self) -> bool:
        """Drop the contradiction waiting, or else take back the last event accepted;
        False when there is nothing to take back."""
        if self._pending is not None:
            self._pending = None
            return True
        if not self._marks or not self._session.undo():
            return False
        self._end, self._newlines, added = self._marks.pop()
        del self._added[added:]
        return True

    def enter_hand(self, player: str, cards: Iterable[str] | str) -> Result:
        """Enter ``player``'s hand as this hand's deal gave it (their own cards, entered
        privately) into a hidden deal, or correct the hand entered before. The game is
        read again with the ``hand NAME:`` line in this hand's deal, so the cards are
        checked at once (each card once, a size the deal gives that seat) and against
        every event so far; refused, nothing changes. Once every hand is entered the
        deal is known, and every answer is checked against the cards."""
        seat = self._seat(player)
        given = cards_argument(cards, f"{self.players[seat]}'s hand")
        for card in given:
            _check_word(card, "a card")
        if self._pending is not None:
            return Result(False, Kind.USAGE.value, "a contradiction waits: accept() or "
                          "undo() it before a hand is entered")
        if not self._session.state.hidden:
            return Result(False, Kind.USAGE.value, "every card of this deal is known "
                          "already: a hand is entered into a hidden deal")
        lines = self._with_hand(self.players[seat], given)
        try:
            again = Game.from_transcript("\n".join(lines) + "\n", source=self._source)
        except RefereeError as error:
            return _refused(error, f"{self.players[seat]}'s hand is not entered: ")
        self._session, self._text, self._end = again._session, again._text, again._end
        self._newlines, self._added, self._marks = again._newlines, again._added, again._marks
        return Result(True, None, f"{self.players[seat]}'s hand is entered "
                      f"({len(given)} cards)")

    def _with_hand(self, player: str, cards: tuple[str, ...]) -> list[str]:
        """The transcript's lines with ``hand PLAYER: CARDS`` at the end of this hand's
        deal lines, in place of any given before."""
        text = self.transcript()
        lines = text.split("\n")[:-1]
        start = 0
        if self._session.hand > 1:
            start = max(i for i, line in enumerate(lines)
                        if line.strip() == f"hand {self._session.hand}") + 1
            end = start
            while end < len(lines) and _is_deal_line(lines[end]):
                end += 1
        else:  # after the header's last line, before the notes and blank lines after it
            header = lines[:TranscriptReader(text, self._source).events_from - 1]
            end = max((i + 1 for i, line in enumerate(header)
                       if line.strip() and not line.lstrip().startswith("#")), default=0)
        kept = [text for text in lines[start:end]
                if not text.strip().startswith(f"hand {player}:")]
        return [*lines[:start], *kept, f"hand {player}: {' '.join(cards)}", *lines[end:]]

    def done(self) -> Result:
        """Nobody lays down more sets now (a hidden table), and with the cards known
        the referee fills in what they decide: the live table's ``done``."""
        self._pending = None
        error = self._settle()
        if error is not None:
            return _refused(error, "")
        return Result(True, None, f"done; {awaited(self._session)}")

    def _attempt(self, event: Event, *, trust: bool, as_typed: bool = False
                 ) -> RefereeError | None:
        """Play ``event`` as the next line, written to the transcript when accepted; or,
        ``as_typed``, as the transcript read holds it, where it stands."""
        session = self._session
        if not as_typed:
            event = _at(event, self._next_line())
        played = len(session.kept.played)
        error = session.attempt(event, trust=trust)
        if error is not None:
            return error
        self._marks.append((self._end, self._newlines, len(self._added)))
        if not as_typed:
            self._added += _lines_of_entry(session, played, event)
        return None

    def _next_line(self) -> int:
        """The number of the transcript's next line."""
        cut = self._end and self._text[self._end - 1] != "\n"  # it ends inside a line
        return self._newlines + int(bool(cut)) + len(self._added) + 1

    def _move_end(self, end: int) -> None:
        """Hold the transcript read up to ``end``."""
        if end >= self._end:
            self._newlines += self._text.count("\n", self._end, end)
        else:
            self._newlines -= self._text.count("\n", end, self._end)
        self._end = end

    def _settle_at(self, line: int, typed: list[str], starts: list[int], source: str) -> None:
        """Replay a ``# done`` line of a transcript read: the moves the cards forced."""
        self._move_end(starts[line - 1])
        mark = (self._end, self._newlines, len(self._added))
        error = self._session.settle()
        if error is not None:
            raise error.located(Span(line, 1, typed[line - 1], source))
        self._marks.append(mark)
        self._move_end(starts[line])

    def _settle(self) -> RefereeError | None:
        mark = (self._end, self._newlines, len(self._added))
        error = self._session.settle()
        if error is None:
            self._marks.append(mark)
            self._added.append(DONE_MARK)
        return error

    def _unacceptable(self, event: Event) -> RefereeError | None:
        """Why the table could not accept ``event`` against the cards (a rule broken, a
        count no deal could reach), or None: tried trusted, then taken back."""
        refusal = self._session.attempt(_at(event, self._next_line()), trust=True)
        if refusal is None:
            self._session.undo()
        return refusal

    def _waiting_words(self) -> str:
        assert self._pending is not None
        return (f"accept or undo the contradiction on {_typed(self._pending[0])} "
                "(a new event drops it)")

    # -- what is known ------------------------------------------------------------------

    @property
    def outcome(self) -> Outcome | None:
        """None until the game (the match) is over; then the winners and the scores by
        player or team. A game the cards have ended, once the referee fills in what
        they force (as ``referee check`` does at the end of a transcript), is over."""
        session = self._session
        if session.match_over():
            return outcome_of(session)
        if self._pending is not None or session.settle() is not None:
            return None
        try:
            return outcome_of(session) if session.match_over() else None
        finally:
            session.undo()

    def view(self, player: str) -> View:
        """What ``player`` may know: their own hand where known, every hand's count,
        sets, scores, whose turn, the asks the rules show the table; never another
        hand's cards."""
        return view_of(self._session, self._seat(player), self._words())

    def public_view(self) -> View:
        """What a screen all can see may show: :meth:`view` without any hand."""
        return view_of(self._session, None, self._words())

    def knowledge(self) -> dict[str, list[str]]:
        """Every card's possible places now: a player's name, ``stock``, ``centre``,
        ``sets`` or ``piles``; one place means it is known. This is the referee's
        knowledge (hands typed included): not for a player's screen."""
        return self._session.where_cards()

    def transcript(self) -> str:
        """The game so far as a transcript, which ``referee check`` (and
        :meth:`from_transcript`) reads back to the same state; an event the table
        accepted against the cards is followed by its ``# accepted by the table:``
        line, which ``referee play --resume`` and :meth:`from_transcript` honour."""
        head = self._text[:self._end]
        if head and not head.endswith("\n"):  # up to an event later on its line
            head = head.rstrip(" \t;") + "\n"
        return head + "".join(f"{line}\n" for line in self._added)

    def _words(self) -> str | None:
        return self._waiting_words() if self._pending is not None else None

    def _seat(self, player: str) -> int:
        names = self.players
        if not isinstance(player, str):
            raise RefereeError(Kind.USAGE, f"a player is named by a string, not "
                               f"{shown(player)} (players: {', '.join(names)})")
        if player in names:
            return names.index(player)
        raise RefereeError(Kind.UNKNOWN, f"no player is named {quoted(str(player), 40)} "
                           f"(players: {', '.join(names)})")

    def __repr__(self) -> str:
        return f"<Game {self._session.game.spec.name} {' '.join(self.players)}>"


def _lines_of_entry(session: Session, played: int, event: Event) -> list[str]:
    """The lines the event just accepted adds to the transcript: its move in canonical
    notation (the moves the referee filled in before it are filled in again on reading),
    or a new hand's lines."""
    entries = session.kept.entries(played)
    if entries and isinstance(entries[-1], str):
        return [entry for entry in entries if isinstance(entry, str)]
    if not entries:
        return [event.span.text.strip()]
    move = entries[-1]
    assert not isinstance(move, str)
    lay_out = session.game.spec.ask.handover is HANDOVER_TO_CENTRE
    return [format_move(move, session.kept.players, lay_out=lay_out)]


def _is_deal_line(text: str) -> bool:
    """Whether ``text`` is one of a new hand's deal lines (``deal:``, ``hand NAME:``...)."""
    key = text.split(":", 1)[0].split()
    return ":" in text and bool(key) and key[0] in ("deal", "hand", "stock", "centre",
                                                     "center")


def _check_word(text: object, what: str) -> None:
    """Refuse what the header would not read back as the same one word."""
    if not isinstance(text, str) or not text:
        raise RefereeError(Kind.USAGE, f"{what} is a non-empty string, not {text!r}")
    why = not_one_word(text)
    if why or any(c in text for c in "\n\r#:;"):
        raise RefereeError(Kind.USAGE, f"{quoted(text, 40)} cannot be {what}: "
                           f"{why or 'it holds a line break, #, : or ;'}")


def _at(event: Event, line: int) -> Event:
    """``event`` numbered as the line it will have in the transcript."""
    return replace(event, span=replace(event.span, line=line))


def _typed(event: Event) -> str:
    span = event.span
    return printable(span.text[span.column - 1:][:span.width])


def _refused(error: RefereeError, lead: str, rest: str = "") -> Result:
    span = error.span
    return Result(False, error.kind.value, f"{lead}{error.message}{rest}", error.because,
                  span.line if span else None, span.column if span else None)
