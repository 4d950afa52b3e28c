"""The contradiction protocol of the live table: an event no deal explains (or that the
counts rule out) is not refused outright but waits for the table. ``accept`` records
it anyway, with a comment, if the table could accept it at all (no rule broken, no
count no deal reaches); ``undo`` drops it, and so does a new event, whose answer says
so. The waiting event is :attr:`LiveTable.pending`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.errors import Kind, RefereeError, printable
from referee.live.announce import did
from referee.live.replies import Reply, at_line, dropped, typed

if TYPE_CHECKING:
    from referee.live.table import LiveTable
    from referee.transcript.events import Event
    from referee.transcript.session import Session


def refusal(table: LiveTable, event: Event, error: RefereeError, done: list[str],
            skipped: int) -> Reply:
    """The answer to an event ``session.attempt`` refused with ``error``: a contradiction
    the table could accept waits for it; anything else is refused."""
    rest = " (the rest of the line was not played)" if skipped else ""
    refusal = unacceptable(table.session, event) if error.kind is Kind.CONTRADICTION else error
    if refusal is None:
        table.pending = (event, error)
        table.refused += 1
        lead = f"accepted: {' / '.join(done)}; " if done else ""
        proof = "\n".join(f"  line {line}: {table.line_text(line)}   ({reason})"
                          for line, reason in error.because)
        details = error.span.caret() if error.span else ""
        if proof:
            details += ("\n" if details else "") + "the lines that prove it:\n" + proof
        return Reply(f"{lead}contradiction: {printable(error.message)}{rest}; "
                     "'accept' records it and goes on, 'undo' drops it, as does a new "
                     "event", details=details, refused=True)
    if refusal is not error:  # the cards say no, and the counts forbid accepting it
        rest += f"; the table cannot accept it: {printable(refusal.message)}"
    return table.refuse(error, done, rest)


def unacceptable(session: Session, event: Event) -> RefereeError | None:
    """Why the table could not accept ``event`` against the cards (a rule it breaks,
    a count no deal could reach), or None: tried, then taken back."""
    refusal = session.attempt(event, trust=True)
    if refusal is None:
        session.undo()
    return refusal


def accept(table: LiveTable) -> Reply:
    """``accept``: record the contradiction waiting, against the cards, and go on."""
    if table.pending is None:
        return Reply("nothing to accept: 'accept' follows a contradiction", refused=False)
    event, error = table.pending
    table.pending = None
    session = table.session
    event = at_line(event, table.journal.next_line)
    played, notes = len(session.kept.played), len(session.notes)
    again = session.attempt(event, trust=True)
    if again is not None:
        return table.refuse(again, [], " (it cannot be accepted)")
    table.refused -= 1
    table.write(session, [], "", printable(error.message).replace("\n", " "))
    table.changed()
    return Reply("accepted by the table: " + did(session, played, notes))


def drop_pending(table: LiveTable) -> str:
    """Drop the contradiction waiting for the table, if one does; the words that
    say so (a new event or command goes on without it)."""
    if table.pending is None:
        return ""
    event, _ = table.pending
    table.pending = None
    return dropped(event)


def drop_waiting(table: LiveTable) -> Reply | None:
    """``undo`` with a contradiction waiting: drop it (it was never recorded)."""
    if table.pending is None:
        return None
    event, _ = table.pending
    table.pending = None
    table.refused -= 1
    return Reply(f"dropped: {typed(event)} (it was never recorded); {table.prompt()}")
