"""``referee check``: drive the engine over a transcript's events to a verdict.

Each written event is resolved against the table and the rules, becomes an
engine move, and is checked and applied. With an open deal the referee fills
in what the cards decide and the transcript left out: answers, draws, and the
cards given. ``books`` lines are checked against the sets just laid.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.cards import Card, Rank, parse_card, parse_rank, rank_of
from referee.claims import describe_judgement, judge
from referee.engine import Engine
from referee.errors import Kind, RefereeError, Span, printable
from referee.moves import (
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
    TurnUp,
)
from referee.notation import Event, EventKind, Token, read_transcript, write_deal, write_header
from referee.questions import read_question
from referee.reading import MAX_TRANSCRIPT_BYTES, STDIN, decode, read_capped
from referee.reading import first_line as first_line_of
from referee.setup import Game, deal_next_hand, set_up
from referee.spec import Handover, SetSpec
from referee.spec import LayDown as LayDownRule
from referee.state import GameState, Phase
from referee.writer import format_books, format_move


@dataclass(frozen=True, slots=True)
class Verdict:
    """What ``referee check`` found: legal or the first error, and the state reached."""

    source: str
    ok: bool
    game: str | None
    events: int
    error: RefereeError | None
    state: dict[str, Any] | None
    record: Record | None = None  # the accepted moves, filled in
    notes: tuple[tuple[int, str], ...] = ()  # (line, what the referee found), e.g. on claims

    @property
    def canonical(self) -> list[str]:
        """The accepted events, filled in, in canonical notation."""
        return self.record.lines() if self.record else []

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` object of NOTATION.md."""
        result: dict[str, Any] = {"ok": self.ok, "game": self.game, "events": self.events}
        if self.error is not None:
            span = self.error.span
            result["error"] = {
                "line": span.line if span else 0, "column": span.column if span else 0,
                "kind": self.error.kind.value, "message": self.error.message,
            }
            if span is not None and span.source and span.source != self.source:
                result["error"]["file"] = span.source  # the rule file the error is in
        result["state"] = self.state
        if self.notes:
            result["notes"] = [{"line": line, "message": text} for line, text in self.notes]
        return result

    def report(self) -> str:
        """A short human report."""
        lines = [f"{self.source}:{line}: {text}" for line, text in self.notes]
        if self.error is not None:
            lines.append(self.error.report())
        else:
            lines.append(f"{self.source}: legal, {self.events} "
                         f"{'event' if self.events == 1 else 'events'}")
        if self.state is not None:
            state = self.state
            scores = ", ".join(f"{who} {score}" for who, score in state["scores"].items())
            if state["over"]:
                winners = " and ".join(state["winners"]) or "nobody"
                lines.append(f"game over: {winners} won; scores {scores}")
            else:
                lines.append(f"game not over: {state['turn']} to play; scores {scores}")
        return "\n".join(printable(line) for line in "\n".join(lines).split("\n"))


def check_file(path: Path) -> Verdict:
    """Check the transcript at ``path`` (``-``: standard input)."""
    source = "<stdin>" if str(path) == STDIN else str(path)
    try:
        data = read_capped(path, MAX_TRANSCRIPT_BYTES, Kind.USAGE, "a transcript")
        text = decode(data, source, Kind.SYNTAX)
    except RefereeError as error:
        return Verdict(source, False, None, 0, error, None)
    return check_text(text, source, Path() if str(path) == STDIN else path.parent)


def check_text(text: str, source: str = "<transcript>", near: Path | None = None) -> Verdict:
    """Check transcript text; rule files named in it are looked for ``near`` first."""
    game: Game | None = None
    state: GameState | None = None
    driver: _Driver | None = None
    events = 0
    try:
        transcript = read_transcript(text, source)
        if transcript.error is not None and not transcript.events:
            raise transcript.error
        first_line = first_line_of(text)
        game = set_up(transcript.headers, Span(1, 1, first_line, source, len(first_line)), near)
        state = game.engine.start(game.table.players, game.dealer, game.hands, game.stock,
                                  game.teams, game.centre)
        driver = _Driver(game, state)
        for event in transcript.events:
            driver.play(event)
            events += 1
        if transcript.error is not None:
            raise transcript.error
        driver.fill_forced()
    except RefereeError as exc:
        name = game.spec.name if game else None
        summary = (driver.describe() if driver
                   else describe(game.engine, state, game.side_names) if game and state else None)
        record = driver.record if driver else None
        notes = tuple(driver.notes) if driver else ()
        return Verdict(source, False, name, events, exc, summary, record, notes)
    return Verdict(source, True, game.spec.name, events, None, driver.describe(),
                   driver.record, tuple(driver.notes))


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
    if state.void:
        described["void"] = list(state.void)
    return described


@dataclass(slots=True)
class Record:
    """What was played, with what the referee filled in, to be written out on demand."""

    header: list[str]
    players: tuple[str, ...]
    lay_out: bool  # asks and gives put cards in the centre
    played: list[tuple[Move | None, tuple[tuple[int, str], ...]] | str]  # str: a line as is

    def lines(self) -> list[str]:
        """The canonical transcript: header, then each move and the sets it laid."""
        lines = list(self.header)
        for entry in self.played:
            if isinstance(entry, str):
                lines.append(entry)
                continue
            move, laid = entry
            if move is not None:
                lines.append(format_move(move, self.players, lay_out=self.lay_out))
            lines += format_books(list(laid), self.players)
        return lines


class _Driver:
    """Resolves events to moves and plays them, filling in what the cards decide."""

    def __init__(self, game: Game, state: GameState) -> None:
        self.game = game
        self.engine = game.engine
        self.state = state
        names = game.table.players
        teams = tuple(
            (team, tuple(names[s] for s, t in enumerate(game.teams) if t == index))
            for index, team in enumerate(game.team_names))
        header = write_header(game.rules, names, game.dealer, game.hands, game.stock,
                              game.options, teams, game.target, game.centre)
        lay_out = game.spec.ask.handover is Handover.TO_CENTRE
        self.record = Record(header, names, lay_out, [(None, tuple(state.just_laid))])
        self.notes: list[tuple[int, str]] = []
        self.hand = 1
        self.banked = [0] * len(game.side_names)  # match points of the hands before this one

    def totals(self) -> list[int]:
        """Match points so far, this hand's included."""
        scores = self.engine.outcome(self.state).scores
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
        self.banked = self.totals()
        self.hand += 1
        names = game.table.players
        dealer = (game.dealer + self.hand - 1) % len(names)
        hands, stock, centre = deal_next_hand(game, event.headers, dealer, event.span)
        self.state = self.engine.start(names, dealer, hands, stock, game.teams, centre)
        self.record.played += [f"hand {self.hand}", *write_deal(names, hands, stock, centre),
                               (None, tuple(self.state.just_laid))]

    def _apply(self, move: Move) -> None:
        self.engine.apply(self.state, move)
        self.record.played.append((move, tuple(self.state.just_laid)))

    def play(self, event: Event) -> None:
        kind = event.kind
        spec = self.game.spec
        if kind is EventKind.NEW_HAND:
            self.fill_forced()
            self._new_hand(event)
            return
        if kind is EventKind.BOOK and spec.lay_down is LayDownRule.AT_ONCE:
            self._confirm_book(event)
            return
        if self.state.over:
            if not self.match_over():
                raise RefereeError(Kind.OVER, f"hand {self.hand} is over; the next starts "
                                   f"with 'hand {self.hand + 1}'", event.span)
            raise RefereeError(Kind.OVER, "the game is already over", event.span)
        if kind is EventKind.CLAIM and spec.claims is None:
            raise RefereeError(Kind.ILLEGAL, f"{spec.title} has no claims", event.span)
        phase = self.state.phase
        answering = kind in (EventKind.GIVE, EventKind.REFUSE)
        if ((phase is Phase.ANSWER and not answering)
                or (phase in (Phase.DRAW, Phase.STUCK_DRAW) and kind is not EventKind.DRAW)
                or (phase is Phase.PASS and kind is not EventKind.PASS)
                or (phase is Phase.TURN_UP and kind is not EventKind.TURN_UP)):
            self.fill_forced(kind)
            if self.state.over:
                raise RefereeError(Kind.OVER, "the game is already over", event.span)
        move = self._move(event)
        problem = self.engine.violation(self.state, move)
        if problem is not None:
            raise problem.located(event.span)
        if isinstance(move, Claim):
            judgement = judge(spec, self.state, move)
            self.notes.append((event.span.line, describe_judgement(
                self.state, move, judgement, self.game.side_names)))
        self._apply(move)

    def fill_forced(self, written: EventKind | None = None) -> None:
        """Play the answers and draws the cards decide, up to the next free choice,
        or up to the point where the ``written`` event is the one due."""
        for _ in range(len(self.game.spec.cards) + 2):
            if written is EventKind.DRAW and self.state.phase in (Phase.DRAW, Phase.STUCK_DRAW):
                return
            if written is EventKind.TURN_UP and self.state.phase is Phase.TURN_UP:
                return
            move = self.engine.forced_move(self.state)
            if move is None:
                return
            self._apply(move)

    def _span(self, event: Event, token: Token) -> Span:
        return Span(event.span.line, token.column, event.span.text, event.span.source,
                    len(token.text))

    def _seat(self, event: Event, token: Token) -> int:
        return self.game.table.seat(token, event.span)

    def _move(self, event: Event) -> Move:
        state = self.state
        spec = self.game.spec
        if event.kind in (EventKind.ASK, EventKind.QUESTION):
            assert event.player is not None and event.target is not None
            player = self._seat(event, event.player)
            target = self._seat(event, event.target)
            if event.kind is EventKind.QUESTION:
                return self._question(event, player, target)
            if event.lay_out and spec.ask.handover is not Handover.TO_CENTRE:
                raise RefereeError(Kind.ILLEGAL, f"in {spec.title} the asked player hands "
                                   "cards over; nobody lays cards out", event.span)
            rank, card = self._ask_item(event)
            return Ask(player, target, rank, card)
        if event.kind is EventKind.BOOK:
            assert event.player is not None
            return LayDown(self._seat(event, event.player), self._set(event).name)
        if event.kind is EventKind.CLAIM:
            return self._claim(event)
        if event.kind is EventKind.PLAY:
            assert event.player is not None
            groups = tuple(tuple(self._card(event, t) for t in group)
                           for _, group in event.groups)
            return Play(self._seat(event, event.player), self._card(event, event.items[0]),
                        groups)
        if event.kind is EventKind.TURN_UP:
            return TurnUp(state.turn, tuple(self._card(event, t) for t in event.items))
        if event.kind is EventKind.PASS:
            assert event.player is not None and event.target is not None
            return Pass(self._seat(event, event.player), self._seat(event, event.target))
        if event.kind in (EventKind.GIVE, EventKind.REFUSE):
            if state.phase is not Phase.ANSWER:
                who = self.state.players[state.turn]
                raise RefereeError(Kind.TURN, f"nobody has been asked; it is {who}'s turn "
                                   "to ask", event.span)
            asked = self.engine.current_player(state)
            assert asked is not None
            player = self._seat(event, event.player) if event.player else asked
            if state.questioning is not None:
                if event.items:
                    raise RefereeError(Kind.SYNTAX, "a question is answered 'yes' or 'no'",
                                       event.span)
                return Answer(player, event.kind is EventKind.GIVE)
            if event.kind is EventKind.REFUSE:
                return Refuse(player)
            return Give(player, self._given_cards(event, player))
        assert event.player is not None
        player = self._seat(event, event.player)
        card = self._card(event, event.items[0]) if event.items else None
        return Draw(player, card)

    def _question(self, event: Event, player: int, target: int) -> Question:
        spec = self.game.spec
        question = read_question(spec, player, target, event.item_text())
        if question is None:
            raise RefereeError(Kind.UNKNOWN, f"{event.item_text()!r} is not a rank, a suit "
                               "(spades) or a colour (red, black)",
                               self._span(event, event.items[0]))
        if not spec.questions:
            raise RefereeError(Kind.ILLEGAL, f"{spec.title} has no questions", event.span)
        return question

    def _set(self, event: Event) -> SetSpec:
        """The set an event's items name (``low spades``, ``queens``, ``Q``)."""
        spec = self.game.spec
        text = event.item_text()
        found = spec.find_set(text)
        if found is None:
            rank = parse_rank(text)
            found = spec.find_set(rank) if rank else None
        if found is None:
            names = ", ".join(s.name for s in spec.sets)
            at = event.span
            if event.items:
                first, last = event.items[0], event.items[-1]
                at = Span(event.span.line, first.column, event.span.text, event.span.source,
                          last.column + len(last.text) - first.column)
            raise RefereeError(Kind.UNKNOWN, f"{text!r} names no set of {spec.title} "
                               f"(sets: {names})", at)
        return found

    def _is_player(self, token: Token) -> bool:
        return token.low in (name.lower() for name in self.game.table.players)

    def _claim(self, event: Event) -> Claim:
        assert event.player is not None
        player = self._seat(event, event.player)
        chosen = self._set(event)
        holders: dict[int, list[Card]] = {}
        for name, cards in event.groups:
            seat = self._seat(event, name)
            if not cards:
                raise RefereeError(Kind.SYNTAX, f"name the cards {name.text} holds: "
                                   f"'{name.text} 3S 4S'", self._span(event, name))
            for token in cards:
                if parse_card(token.text) is None and self._is_player(token):
                    raise RefereeError(Kind.SYNTAX, f"put a comma before {token.text}: "
                                       f"'{name.text} 3S 4S, {token.text} 5S'",
                                       self._span(event, token))
                holders.setdefault(seat, []).append(self._card(event, token))
        if not holders:
            raise RefereeError(Kind.SYNTAX, "a claim names who holds each card: "
                               "'Ann claims low spades: Ann 3S 4S, Cy 5S 6S 7S 8S'", event.span)
        return Claim(player, chosen.name, tuple((s, tuple(c)) for s, c in holders.items()))

    def _ask_item(self, event: Event) -> tuple[Rank, Card | None]:
        text = event.item_text()
        spec = self.game.spec
        problem = f"{text!r} is not a card or a rank"
        if len(event.items) == 1:
            card = parse_card(text)
            rank = rank_of(card) if card is not None else parse_rank(text)
            if card is not None and card in self.engine.deck:
                return rank_of(card), card
            if card is None and rank is not None and rank in spec.ranks:
                return rank, None
            if card is not None:
                problem = f"{card} is not in the deck of {spec.title}"
            elif rank is not None:
                problem = f"the deck of {spec.title} has no rank {rank}"
        at = self._span(event, event.items[0]) if event.items else event.span
        raise RefereeError(Kind.UNKNOWN, problem, at)

    def _card(self, event: Event, token: Token) -> Card:
        card = parse_card(token.text)
        if card is None or card not in self.engine.deck:
            raise RefereeError(Kind.UNKNOWN, f"{token.text!r} is not a card of this deck",
                               self._span(event, token))
        return card

    def _given_cards(self, event: Event, player: int) -> tuple[Card, ...]:
        forced = self.engine.forced_move(self.state)
        due = forced.cards if isinstance(forced, Give) and forced.player == player else ()
        if event.items:
            return tuple(self._card(event, t) for t in event.items)
        if event.count is not None and due and event.count != len(due):
            who = self.state.players[player]
            cards = "such card" if len(due) == 1 else "such cards"
            raise RefereeError(Kind.CONTRADICTION, f"{who} holds {len(due)} {cards} "
                               f"({' '.join(due)}), not {event.count}", event.span)
        return due

    def _confirm_book(self, event: Event) -> None:
        assert event.player is not None
        seat = self._seat(event, event.player)
        found = self._set(event)
        entry = (seat, found.name)
        if entry not in self.state.just_laid and self.state.phase in (
                Phase.ANSWER, Phase.DRAW, Phase.STUCK_DRAW):
            self.fill_forced()
        if entry in self.state.just_laid:
            self.state.just_laid.remove(entry)
            return
        who = self.state.players[seat]
        sides = self.game.side_names
        holders = [sides[side] for side, name in self.state.laid_order if name == found.name]
        if self.state.over:
            raise RefereeError(Kind.OVER, "the game is already over", event.span)
        if holders:
            team = "team " if self.game.spec.teams else ""
            detail = f"{team}{holders[0]} won it earlier"
        elif found.name in self.state.void:
            detail = "it is void"
        else:
            detail = f"{who} does not hold all of it"
        raise RefereeError(Kind.CONTRADICTION, f"{who} has not just completed the set "
                           f"{found.name}: {detail}", event.span)
