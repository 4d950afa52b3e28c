"""Taking events back in a :class:`~referee.transcript.session.Session`: a mark of everything an
event may change, kept per accepted event (of a state changed in place, only the fields
it changed), and the session put back as a mark has it."""

from __future__ import annotations

from itertools import chain, compress
from operator import attrgetter, ne
from typing import TYPE_CHECKING

from referee.engine.facts import decide
from referee.engine.state import GameState
from referee.transcript.marks import Fork, Mark
from referee.transcript.match import deal_hand
from referee.values import fields, replace

if TYPE_CHECKING:
    from referee.knowledge.model import Knowledge
    from referee.transcript.session import Session

STATE_FIELDS = fields(GameState)
_state_fields = attrgetter(*STATE_FIELDS)  # every field of a state, at once


def take_mark(session: Session) -> Mark:
    """A mark of the session now; from now on it keeps what undo needs."""
    session._undoable = True
    return Mark(session.state.copy(),
                session.knowledge.depth if session.knowledge is not None else 0,
                len(session.record.played) if session.record is not None else 0,
                len(session.notes), session.hand, session.banked, session.last_span,
                len(session._finished), session._claim_line, session._fork)


def keep(session: Session, mark: Mark, before: GameState) -> None:
    """Keep ``mark`` for undo: of a state changed in place, only the changed fields."""
    old = mark.state
    assert old is not None
    mark.reread, session._reread = session._reread, None
    if session.state is before:
        values = _state_fields(old)
        mark.changed = tuple(chain.from_iterable(compress(  # in C: an event costs little
            zip(STATE_FIELDS, values, strict=True), map(ne, values, _state_fields(before)))))
        mark.state = None
    session._marks.append(mark)


def roll_back(session: Session, mark: Mark) -> None:
    """Put the session back as it was at ``mark``."""
    session._reread = None
    if mark.reread is not None:  # back to the draws before the event, read as before
        back_to(session, mark.reread)
        for written in mark.reread.events:
            session._play(written)
        session._fork = mark.reread
        return
    if mark.state is not None:
        session.state = mark.state
    for name, value in zip(mark.changed[::2], mark.changed[1::2], strict=True):
        setattr(session.state, str(name), value)
    if len(session._finished) > mark.finished:  # the event began a hand: back to the last
        session._dealt, model = session._finished[mark.finished]
        del session._finished[mark.finished:]
        session.knowledge = model if session.record is None else replayed(session, mark.played)
    if session.knowledge is not None:
        while session.knowledge.depth > mark.depth:
            session.knowledge.undo()
    if session._trusted and max(session._trusted) >= mark.played:
        session._trusted = {index for index in session._trusted if index < mark.played}
    if session.record is not None:
        del session.record.played[mark.played:]
    del session.notes[mark.notes:]
    session.hand, session.banked, session.last_span = mark.hand, mark.banked, mark.last_span
    session._claim_line, session._fork = mark.claim_line, mark.fork


def back_to(session: Session, fork: Fork) -> None:
    """The session as it was before the first of the dealer's draws (the mark kept
    intact, to go back to again)."""
    mark = fork.mark
    assert mark.state is not None
    roll_back(session, replace(mark, state=mark.state.copy()))


def replayed(session: Session, end: int) -> Knowledge | None:
    """The knowledge model of the hand in the record up to ``end`` (a hand over, kept
    as its deal), dealt again and its moves replayed: as the session built it."""
    dealt = session._dealt
    state, model = deal_hand(session.game, dealt.deal, dealt.dealer)
    engine = session.engine
    for index in range(dealt.start, end) if model is not None else ():
        line, move = session.kept.played[index]
        assert model is not None and not isinstance(move, str)
        facts = () if index in session._trusted else engine.facts(state, move)
        model.add(line, [fact for fact in facts if decide(state, fact) is not True])
        engine.apply(state, move)
        model.moved(state.moved)
    return model
