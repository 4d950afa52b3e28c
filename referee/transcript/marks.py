"""The marks a :class:`~referee.transcript.session.Session` keeps to take events back, and the
other reading of a hidden dealer's draws: plain values, worked on by referee/transcript/undo.py
and referee/transcript/draw_readings.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.values import frozen, mutable

if TYPE_CHECKING:
    from referee.engine.state import GameState
    from referee.errors import Span
    from referee.transcript.events import Event


@mutable
class Mark:
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
    fork: Fork | None  # the dealer's draws open to another reading, before the event
    changed: tuple[object, ...] = ()  # a field's name, its value before; the next's...
    reread: Fork | None = None  # the event read them again: undo reads them the first way


@frozen
class Fork:
    """The other reading of a hidden dealer's draws while sets laid from the deal wait
    for their replacements: that the deal's last card completed the set, so the lay
    phase ended before the first of them, and they are the dealer's first moves in turn
    (a dealer whose hand the set emptied, first to play, draws). ``mark`` is the session
    before the first of those draws, ``events`` the events played since, ``undoable``
    whether the session kept undo before."""

    mark: Mark
    events: tuple[Event, ...]
    undoable: bool
