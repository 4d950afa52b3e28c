"""A hidden dealer's draws read two ways (NOTATION.md, "Hidden deals"): while sets laid
from the deal wait for their replacements, the dealer's draws are replacements; when
what follows is refused so, they are read again as the dealer's first moves in turn,
the lay phase ending before the first of them (a :class:`~referee.transcript.undo.Fork`)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from typing import TYPE_CHECKING

from referee.errors import RefereeError
from referee.transcript.marks import Fork
from referee.transcript.undo import back_to

if TYPE_CHECKING:
    from referee.transcript.events import Event
    from referee.transcript.session import Session


def forked(session: Session, fork: Fork, action: Callable[[], None],
           event: Event | None = None) -> None:
    """Do ``action`` (play ``event``, or the moves the cards force) with the dealer's
    draws read as replacements; when it is refused, read them again as moves in turn."""
    try:
        action()
    except RefereeError as error:
        first = fork.events[0] if fork.events else event
        assert first is not None  # a fork kept holds the draw that opened it
        if not read_again(session, fork, first, action):
            raise error from None
        return
    if session.state.refill_open:  # still open to either reading
        events = fork.events if event is None else (*fork.events, event)
        session._fork = Fork(fork.mark, events, fork.undoable)
    else:  # the lay phase ended as the first reading has it
        close(session, fork)


def read_again(session: Session, fork: Fork, first: Event,
               action: Callable[[], None]) -> bool:
    """Read the dealer's draws again: end the lay phase before the ``first`` of them,
    play them as moves in turn, then ``action``. When that fails too, the first
    reading is restored, where its error was found, and the answer is ``False``."""
    back_to(session, fork)
    try:
        session.fill_forced(first.span, first)  # the lay phase ends
        for written in fork.events:
            session._play(written)
        action()
    except RefereeError:
        back_to(session, fork)
        with suppress(RefereeError):
            for written in fork.events:
                session._play(written)
            action()
        session._undoable = fork.undoable
        return False
    close(session, fork)
    if fork.undoable:
        session._reread = fork  # for the undo of this event (referee.transcript.undo.keep)
    return True


def close(session: Session, fork: Fork) -> None:
    """The dealer's draws are read one way for good."""
    session._fork = None
    session._undoable = fork.undoable
