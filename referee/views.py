"""What one seat, or a screen all can see, may know of a game; and how it ended.

Every front end that shows a game (a phone, a bot, a web table) sends these, so a
hand can leak from one place only: :func:`view_of` puts a seat's own cards in its
view and only the count of every other hand; a public view holds no hand at all.
Both are plain data, with ``to_json()``; the JSON Schemas are
``referee/view.schema.json`` and ``referee/outcome.schema.json``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.engine.moves import Answer, Ask, Give, Move, Question, Refuse
from referee.language.spec import HANDOVER_ONE_OF_RANK, HANDOVER_TO_CENTRE, Shown
from referee.live.announce import awaited
from referee.transcript.writer import format_move
from referee.values import frozen

if TYPE_CHECKING:
    from referee.transcript.session import Session


@frozen
class Outcome:
    """How a game (or a match) ended: the winners and every side's score, by player or
    by team (``by``); in a match, the totals and the number of ``hands`` played."""

    winners: tuple[str, ...]
    scores: dict[str, int]
    by: str  # "player" or "team"
    hands: int | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (``referee/outcome.schema.json``)."""
        result: dict[str, Any] = {"winners": list(self.winners), "scores": dict(self.scores),
                                  "by": self.by}
        if self.hands is not None:
            result["hands"] = self.hands
        return result


@frozen
class View:
    """What ``player`` may know now (``player`` None: a screen all can see). ``hand``
    is the player's own cards the referee knows, ``unknown`` how many more they hold
    that it does not (a hidden deal); every other hand is a count in ``hands``.
    ``asks`` lists this hand's asks and answers as the table saw them when the rules
    show the table every event, and only the last one otherwise."""

    player: str | None
    hand: tuple[str, ...] | None
    unknown: int
    hands: dict[str, int]
    sets: dict[str, list[str]]
    scores: dict[str, int]
    by: str
    turn: str | None
    awaiting: str
    over: bool
    centre: tuple[str, ...]
    stock: int
    last: str | None
    asks: tuple[str, ...]
    shown: str  # what the rules show the table: "every event" or "the last ask ..."
    match_hand: int | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (``referee/view.schema.json``); a public view has no
        ``hand``."""
        result: dict[str, Any] = {"player": self.player}
        if self.hand is not None:
            result["hand"] = list(self.hand)
            result["unknown"] = self.unknown
        result.update({
            "hands": dict(self.hands), "sets": {k: list(v) for k, v in self.sets.items()},
            "scores": dict(self.scores), "by": self.by, "turn": self.turn,
            "awaiting": self.awaiting, "over": self.over, "centre": list(self.centre),
            "stock": self.stock, "last": self.last, "asks": list(self.asks),
            "shown": self.shown})
        if self.match_hand is not None:
            result["match_hand"] = self.match_hand
        return result


def outcome_of(session: Session) -> Outcome:
    """The outcome the session's state describes (winners empty until it is over)."""
    described = session.describe()
    return Outcome(tuple(described["winners"]), dict(described["scores"]),
                   "team" if session.game.spec.teams else "player",
                   session.hand if session.game.target is not None else None)


def view_of(session: Session, seat: int | None, waiting: str | None = None) -> View:
    """The view of ``seat`` (None: the public view); ``waiting`` words what the game
    waits for when it is not the session's own (a contradiction waiting)."""
    state = session.state
    described = session.describe()
    hand: tuple[str, ...] | None = None
    unknown = 0
    if seat is not None:
        hand = tuple(session.engine.lookups.in_deck_order(state.hands[seat]))
        unknown = state.unknown[seat]
    every = session.game.spec.shown is Shown.EVERY_EVENT
    asks = table_asks(session, last_only=not every)
    return View(
        player=None if seat is None else state.players[seat], hand=hand, unknown=unknown,
        hands=dict(described["hands"]), sets=dict(described["sets"]),
        scores=dict(described["scores"]), by="team" if session.game.spec.teams else "player",
        turn=described["turn"], awaiting=waiting or awaited(session),
        over=bool(described["over"]), centre=tuple(state.centre), stock=len(state.stock),
        last=asks[-1] if asks else None, asks=tuple(asks) if every else tuple(asks[-1:]),
        shown=session.game.spec.shown.value,
        match_hand=session.hand if session.game.target is not None else None)


def table_asks(session: Session, *, last_only: bool = False) -> list[str]:
    """This hand's asks (and questions) with their answers, worded as the table saw
    them: a rank's cards given by their count, not their names; with ``last_only``,
    the last one."""
    if session.record is None:
        return []
    entries = session.record.entries()
    asks: list[str] = []
    answer: Move | None = None  # the first answer after the entry looked at
    for index in range(len(entries) - 1, -1, -1):  # from the last back to the hand's start
        entry = entries[index]
        if isinstance(entry, str):
            break  # a new hand's lines: this hand's moves follow them
        if isinstance(entry, Give | Refuse | Answer):
            answer = entry
        elif isinstance(entry, Ask | Question):
            said = "no answer yet" if answer is None else _as_seen(session, entry, answer)
            asks.append(f"{_written(session, entry)}; {said}")
            answer = None
            if last_only:
                break
    return asks[::-1]


def _as_seen(session: Session, ask: Ask | Question, answer: Move) -> str:
    """An answer as the whole table saw it."""
    spec = session.game.spec
    if (isinstance(answer, Give) and isinstance(ask, Ask) and ask.card is None
            and spec.ask.handover is not HANDOVER_ONE_OF_RANK):
        count = len(answer.cards) if answer.cards else answer.count
        verb = "lays out" if spec.ask.handover is HANDOVER_TO_CENTRE else "gives"
        return f"{session.game.table.players[answer.player]} {verb} {count}"
    return _written(session, answer)


def _written(session: Session, move: Move) -> str:
    lay_out = session.game.spec.ask.handover is HANDOVER_TO_CENTRE
    return format_move(move, session.game.table.players, lay_out=lay_out)
