"""The referee at the table: one typed line at a time, an answer at once.

:class:`LiveTable` takes what one person types as the game goes on (events in the
transcript notation, or commands such as ``status`` and ``undo``) and answers each
line with a :class:`Reply`. Events go to a :class:`~referee.transcript.session.Session`; every
accepted event is written to the transcript file (referee/live/journal.py) before the
answer is given. A refused event changes nothing. A contradiction (no deal explains
the event) waits for the table: ``accept`` records it anyway, with a comment, and
the referee goes on; ``undo`` drops it, and so does a new event, whose answer says
so (a note or a command that changes nothing leaves it waiting).

The prompt (referee/live/prompt.py) and the line-by-line mode for pipes both drive
:meth:`LiveTable.handle`; referee/live/start.py sets a table up (``start``,
``resume``). The commands are in referee/live/commands.py, the contradiction waiting
for the table in referee/live/contradiction.py, the replies and the marks written in
the file in referee/live/replies.py.
"""

from __future__ import annotations

from referee.errors import RefereeError
from referee.language.spec import Shown
from referee.live.announce import awaited, did
from referee.live.choices import Choices
from referee.live.journal import Journal
from referee.live.replies import Command, Reply, at_line, dropped, note_line, typed
from referee.transcript.events import Event
from referee.transcript.notation import ACCEPTED_MARK, read_events
from referee.transcript.session import Session
from referee.transcript.writer import format_move
from referee.values import frozen, replace


@frozen
class DealPlan:
    """How the next hands of a match are dealt: as the first (a hidden deal, or seeds
    counted on from the first), and whose hand the typist knows."""

    seed: int | None = None
    me: str | None = None


class LiveTable:
    """One live game: a session, its transcript file, and the contradiction waiting
    for the table's decision."""

    def __init__(self, session: Session, journal: Journal, plan: DealPlan,
                 width: int = 100) -> None:
        self.session = session
        self.journal = journal
        self.plan = plan
        self.width = width
        self.source = str(journal.path)
        self.pending: tuple[Event, RefereeError] | None = None
        self.refused = 0  # events refused and never accepted
        self._choices: Choices | None = None

    # -- what the prompt reads -------------------------------------------------------

    @property
    def knowing(self) -> bool:
        """Whether the table may be told what earlier events showed (the rules say)."""
        return self.session.game.spec.shown is Shown.EVERY_EVENT

    def prompt(self) -> str:
        """What the game waits for: ``Ann to ask``."""
        if self.pending is not None:
            return (f"accept or undo the contradiction on {typed(self.pending[0])} "
                    "(a new event drops it)")
        return awaited(self.session)

    def choices(self) -> Choices:
        """What may be typed now (computed once per state)."""
        if self._choices is None:
            self._choices = Choices(self.session, knowing=self.knowing)
        return self._choices

    def changed(self) -> None:
        """The game changed: what may be typed is worked out again."""
        self._choices = None

    def players(self) -> tuple[str, ...]:
        """The players' names in seat order."""
        return self.session.game.table.players

    # -- one typed line -------------------------------------------------------------

    def handle(self, text: str) -> Reply:
        """Answer one typed line: events, a note (``# ...``) or a command."""
        body, hash_sign, comment = text.partition("#")
        words = body.split()
        if not words:
            if not hash_sign or not comment.strip():
                return Reply("")
            self.journal.append([note_line(comment.strip())])  # a contradiction still waits
            return Reply("noted")
        command = self._command(words[0])
        # the commands work on a LiveTable: imported here, so that they may name the class
        from referee.live.commands import run, save

        if command is Command.SAVE:  # the rest of the line is a file name, '#' and all
            return save(self, text.lstrip()[len(words[0]):])
        if command is not None:
            return run(self, command, words[1:])
        return self._events(body, comment.strip() if hash_sign else "")

    def _command(self, word: str) -> Command | None:
        low = word.lower()
        if any(low == name.lower() for name in self.players()):
            return None  # a player named like a command starts an event
        return next((c for c in Command if c.value == low), None)

    def _events(self, text: str, comment: str) -> Reply:
        """Play the events of a line. One accepted (or a new contradiction) drops the
        contradiction waiting for the table, and the answer says so; a line refused
        whole changes nothing, and the contradiction still waits."""
        waiting, line = self.pending, self.journal.next_line
        self.pending = None
        reply = self._play_events(text, comment)
        if waiting is None:
            return reply
        if self.pending is None and self.journal.next_line == line:
            self.pending = waiting
            return reply
        return replace(reply, line=dropped(waiting[0]) + reply.line)

    def _play_events(self, text: str, comment: str) -> Reply:
        session = self.session
        events, unreadable = read_events(text, self.source, self.journal.next_line)
        done: list[str] = []
        for index, event in enumerate(events):
            event = at_line(event, self.journal.next_line)
            played, notes = len(session.kept.played), len(session.notes)
            error = session.attempt(event)
            if error is not None:  # the contradiction protocol, which names the class
                from referee.live.contradiction import refusal

                return refusal(self, event, error, done, len(events) - index - 1)
            last = index == len(events) - 1 and unreadable is None
            self.write(session, [], comment if last else "")
            self.changed()
            done.append(did(session, played, notes))
        if unreadable is not None:
            return self.refuse(unreadable, done, "")
        return Reply("accepted: " + " / ".join(done))

    def write(self, session: Session, lines: list[str], comment: str,
               accepted: str = "") -> None:
        """Write the event just played: its canonical line, or ``lines`` when given."""
        if not lines:
            move = session.kept.entries(-1)[0]
            assert not isinstance(move, str)
            lines = [format_move(move, session.kept.players, lay_out=session.kept.lay_out)]
        if comment:
            lines[-1] += f"  # {comment}"
        if accepted:
            lines.append(f"{ACCEPTED_MARK} {accepted}")
        self.journal.append(lines, event=True)

    def refuse(self, error: RefereeError, done: list[str], rest: str) -> Reply:
        """Refuse ``error``'s event (after those ``done``); nothing changed."""
        self.refused += 1
        lead = f"accepted: {' / '.join(done)}; " if done else ""
        return Reply(f"{lead}refused, {error.kind.value}: {error.message}{rest}; "
                     "nothing changed", details=error.span.caret() if error.span else "",
                     refused=True)

    def refuse_plainly(self, message: str) -> Reply:
        """A refused event that the referee could not even read as a move."""
        self.refused += 1
        return Reply(f"refused: {message}; nothing changed", refused=True)

    def line_text(self, line: int) -> str:
        """The text of line ``line`` of the file, or ``?``."""
        lines = self.journal.lines
        return lines[line - 1].strip() if 0 < line <= len(lines) else "?"
