"""The referee at the table: one typed line at a time, an answer at once.

:class:`LiveTable` takes what one person types as the game goes on (events in the
transcript notation, or commands such as ``status`` and ``undo``) and answers each
line with a :class:`Reply`. Events go to a :class:`~referee.session.Session`; every
accepted event is written to the transcript file (referee/journal.py) before the
answer is given. A refused event changes nothing. A contradiction (no deal explains
the event) waits for the table: ``accept`` records it anyway, with a comment, and
the referee goes on; ``undo`` drops it, and so does a new event, whose answer says
so (a note or a command that changes nothing leaves it waiting).

The prompt (referee/prompt.py) and the line-by-line mode for pipes both drive
:meth:`LiveTable.handle`; :func:`start` and :func:`resume` set a table up.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from enum import Enum
from pathlib import Path

from referee.announce import awaited, did, joined, last_ask, rendered, status_tables
from referee.checker import gc_paused
from referee.choices import Choices
from referee.display import knowledge_table
from referee.errors import Kind, RefereeError, Span, bounded, printable
from referee.journal import Journal, open_to_resume, save_copy
from referee.moves import EndLaying, NothingLaid
from referee.names import not_one_word
from referee.notation import (
    DONE_MARK,
    Event,
    Header,
    TranscriptReader,
    done_marks,
    read_events,
    read_transcript,
    write_game,
)
from referee.reading import (
    MAX_TRANSCRIPT_BYTES,
    ascii_number,
    decode,
    first_line,
    quoted,
    read_capped,
)
from referee.session import Session
from referee.setup import MAX_SEED_DIGITS, set_up
from referee.spec import Shown
from referee.state import Phase
from referee.values import frozen, replace
from referee.words import counted
from referee.writer import format_move

ACCEPTED_MARK = "# accepted by the table:"
CUT_MARK = "# cut short, not played:"  # a last line a kill cut short, kept on --resume
KNOWN_SECONDS = 0.5  # how long 'known' may search; places not ruled out by then are shown
DEAL_LINE_KEYS = ("hand", "stock", "centre", "center")
FORCE = "--force"  # 'save --force FILE': replace what is there


class Command(Enum):
    """The words a live table types besides events."""

    STATUS = "status"
    LEGAL = "legal"
    KNOWN = "known"
    LAST = "last"
    HISTORY = "history"
    UNDO = "undo"
    ACCEPT = "accept"
    SAVE = "save"
    HAND = "hand"
    DONE = "done"
    HELP = "help"
    QUIT = "quit"


HELP = """Type each event as it happens, in the transcript notation:
  Ann asks Bob for 7H   (also: Ann > Bob 7H, Ann: Bob, 7H?)
  Bob gives 7H · Bob gives 2 · Bob says no · yes · no · go fish
  Ann draws · Ann draws 9C · Ann books 7 · Ann lays down low spades
  Fay claims high diamonds: Bob 9D JD, Dee 10D, Fay KD QD AD · Dee shows 10D
  Ann passes to Cy · Ann plays 7S takes 3H 4D · turn up 8S 7D
Several events may share a line, separated by ';'. A line starting with '#' is a note.
Commands:
  status          hand counts, sets, scores and whose turn
  legal           the moves allowed now
  known           what is known of every card
  last            the last ask and its answer
  history         the game so far, with line numbers
  undo            take back the last event (or drop a contradiction just reported)
  accept          record the contradiction just reported and go on
  save FILE       write the transcript so far to FILE, a new file (the rest of the
                  line is its name); save --force FILE replaces what is there
  done            nobody lays down more sets now (at the end of a hand); with the
                  cards known, let the referee fill in what they decide
  hand [CARDS] [centre CARDS]
                  deal the next hand of a match (CARDS: your own hand, with --me;
                  centre: the cards dealt face up, at a hidden table)
  help            this text
  quit            stop (the transcript is already saved)"""


@frozen
class Reply:
    """The referee's answer to one typed line: ``line``, one line for the table (and for
    a script reading standard output); ``output``, what a command shows (a table, the
    history); ``details``, more lines for people at a terminal (the typed line with a
    caret, the lines that prove a contradiction)."""

    line: str
    output: str = ""
    details: str = ""
    refused: bool = False
    done: bool = False


@frozen
class Seating:
    """What the command line says of a new game: the header it writes."""

    game: str
    players: tuple[str, ...]
    dealer: str | None = None
    deal: str = "hidden"  # hidden, seed or given
    seed: int | None = None
    given: Path | None = None
    me: str | None = None
    hand: str | None = None
    centre: str | None = None  # a hidden deal's cards face up in the centre
    options: tuple[tuple[str, str], ...] = ()
    target: int | None = None


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
            return (f"accept or undo the contradiction on {_typed(self.pending[0])} "
                    "(a new event drops it)")
        return awaited(self.session)

    def choices(self) -> Choices:
        """What may be typed now (computed once per state)."""
        if self._choices is None:
            self._choices = Choices(self.session, knowing=self.knowing)
        return self._choices

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
        if command is Command.SAVE:  # the rest of the line is a file name, '#' and all
            return self._save(text.lstrip()[len(words[0]):])
        if command is not None:
            return self._run(command, words[1:])
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
        return replace(reply, line=_dropped(waiting[0]) + reply.line)

    def _drop_pending(self) -> str:
        """Drop the contradiction waiting for the table, if one does; the words that
        say so (a new event or command goes on without it)."""
        if self.pending is None:
            return ""
        event, _ = self.pending
        self.pending = None
        return _dropped(event)

    def _play_events(self, text: str, comment: str) -> Reply:
        session = self.session
        events, unreadable = read_events(text, self.source, self.journal.next_line)
        done: list[str] = []
        for index, event in enumerate(events):
            event = _at_line(event, self.journal.next_line)
            played, notes = len(session.kept.played), len(session.notes)
            error = session.attempt(event)
            if error is not None:
                return self._refusal(event, error, done, len(events) - index - 1)
            last = index == len(events) - 1 and unreadable is None
            self._write(session, [], comment if last else "")
            self._choices = None
            done.append(did(session, played, notes))
        if unreadable is not None:
            return self._refused(unreadable, done, "")
        return Reply("accepted: " + " / ".join(done))

    def _write(self, session: Session, lines: list[str], comment: str,
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

    def _refusal(self, event: Event, error: RefereeError, done: list[str],
                 skipped: int) -> Reply:
        rest = " (the rest of the line was not played)" if skipped else ""
        refusal = self._unacceptable(event) if error.kind is Kind.CONTRADICTION else error
        if refusal is None:
            self.pending = (event, error)
            self.refused += 1
            lead = f"accepted: {' / '.join(done)}; " if done else ""
            proof = "\n".join(f"  line {line}: {self._line_text(line)}   ({reason})"
                              for line, reason in error.because)
            details = error.span.caret() if error.span else ""
            if proof:
                details += ("\n" if details else "") + "the lines that prove it:\n" + proof
            return Reply(f"{lead}contradiction: {printable(error.message)}{rest}; "
                         "'accept' records it and goes on, 'undo' drops it, as does a new "
                         "event", details=details, refused=True)
        if refusal is not error:  # the cards say no, and the counts forbid accepting it
            rest += f"; the table cannot accept it: {printable(refusal.message)}"
        return self._refused(error, done, rest)

    def _unacceptable(self, event: Event) -> RefereeError | None:
        """Why the table could not accept ``event`` against the cards (a rule it breaks,
        a count no deal could reach), or None: tried, then taken back."""
        refusal = self.session.attempt(event, trust=True)
        if refusal is None:
            self.session.undo()
        return refusal

    def _refused(self, error: RefereeError, done: list[str], rest: str) -> Reply:
        self.refused += 1
        lead = f"accepted: {' / '.join(done)}; " if done else ""
        return Reply(f"{lead}refused, {error.kind.value}: {error.message}{rest}; "
                     "nothing changed", details=error.span.caret() if error.span else "",
                     refused=True)

    def _no(self, message: str) -> Reply:
        """A refused event that the referee could not even read as a move."""
        self.refused += 1
        return Reply(f"refused: {message}; nothing changed", refused=True)

    def _line_text(self, line: int) -> str:
        lines = self.journal.lines
        return lines[line - 1].strip() if 0 < line <= len(lines) else "?"

    # -- commands -------------------------------------------------------------------

    def _run(self, command: Command, args: list[str]) -> Reply:
        if command is Command.ACCEPT:
            return self._accept()
        if command is Command.UNDO:
            return self._undo()
        if command is Command.HAND:
            return self._hand(args)
        if command is Command.DONE:
            return self._done()
        if command is Command.QUIT:
            return Reply(f"the game is in {self.source}"
                         + (f"; go on with --resume {self.source}"
                            if not self.session.match_over() else ""), done=True)
        if command is Command.HELP:
            return Reply("help", HELP)
        if command is Command.STATUS:
            return Reply(self.prompt(), rendered(*status_tables(self.session), width=self.width))
        if command is Command.LAST:
            return Reply(last_ask(self.session))
        if command is Command.LEGAL:
            return Reply("legal now:", legal_text(self))
        if not self.knowing:
            title = self.session.game.spec.title
            word = "history" if command is Command.HISTORY else "known"
            return Reply(f"refused: in {title} the table is shown the last ask and its "
                         f"answer only ('last'); '{word}' needs the option history "
                         "(--option history=yes)", refused=False)
        if command is Command.HISTORY:
            lines = self.journal.lines
            width = len(str(len(lines)))
            return Reply(f"the game so far ({self.source}):", "\n".join(
                f"{number:>{width}}  {text}"
                for number, text in enumerate(lines, start=1) if text.strip()))
        described = self.session.describe()
        table = knowledge_table(self.session.where_cards(KNOWN_SECONDS), described)
        return Reply("what is known of every card:", rendered(table, width=self.width))

    def _accept(self) -> Reply:
        if self.pending is None:
            return Reply("nothing to accept: 'accept' follows a contradiction", refused=False)
        event, error = self.pending
        self.pending = None
        session = self.session
        event = _at_line(event, self.journal.next_line)
        played, notes = len(session.kept.played), len(session.notes)
        again = session.attempt(event, trust=True)
        if again is not None:
            return self._refused(again, [], " (it cannot be accepted)")
        self.refused -= 1
        self._write(session, [], "", printable(error.message).replace("\n", " "))
        self._choices = None
        return Reply("accepted by the table: " + did(session, played, notes))

    def _done(self) -> Reply:
        session = self.session
        if session.state.over or session.engine.forced_move(session.state) is None:
            return Reply(f"nothing to fill in; {self.prompt()}")
        played = len(session.kept.played)
        error = session.settle()
        if error is not None:
            return self._refused(error, [], "")
        dropped = self._drop_pending()
        self.journal.append([DONE_MARK], event=True)  # a check fills the moves in again
        self._choices = None
        filled = [format_move(m, session.kept.players, lay_out=session.kept.lay_out)
                  for m in session.kept.entries(played)
                  if not isinstance(m, str | EndLaying | NothingLaid)]
        return Reply(f"{dropped}done: {', '.join(filled) or 'no more sets laid'}; "
                     f"{self.prompt()}")

    def _undo(self) -> Reply:
        if self.pending is not None:
            event, _ = self.pending
            self.pending = None
            self.refused -= 1
            return Reply(f"dropped: {_typed(event)} (it was never recorded); {self.prompt()}")
        journal = self.journal
        if not journal.entries:
            return Reply("nothing to take back")
        if not journal.can_take_back():
            return Reply("refused: the last event shares its line with another in the "
                         "file; edit the file by hand", refused=False)
        line = journal.lines[journal.entries[-1].lines]
        line = "done" if line == DONE_MARK else line
        self.session.undo()
        journal.take_back()
        self._choices = None
        return Reply(f"took back: {line}; {self.prompt()}")

    def _hand(self, args: list[str]) -> Reply:
        session = self.session
        game = session.game
        number = session.hand + 1
        if args and args[0].isdigit():
            if args[0] != str(number):
                return self._no(f"the next hand is hand {number}")
            args = args[1:]
        if game.target is None:
            return self._no("this game is one hand; a match needs --target N")
        low = [word.lower() for word in args]
        split = low.index("centre") if "centre" in low else len(args)
        own, centre = args[:split], args[split + 1:]
        if (own and self.plan.me is None) or (args and self.plan.seed is not None):
            return self._no("after 'hand' come your own cards (with --me NAME) and "
                            "'centre' with the cards face up, at a hidden table")
        deal = ([f"deal: seed {self.plan.seed + number - 1}"] if self.plan.seed is not None
                else ["deal: hidden"])
        if own:
            deal.append(f"hand {self.plan.me}: {' '.join(own)}")
        if centre:
            deal.append(f"centre: {' '.join(centre)}")
        lines = [f"hand {number}", *deal]
        events, unreadable = read_events("\n".join(lines), self.source, self.journal.next_line)
        if unreadable is not None:
            return self._refused(unreadable, [], "")
        error = session.attempt(events[0])
        if error is not None:
            return self._refused(error, [], "")
        dropped = self._drop_pending()
        self._write(session, lines, "")
        self._choices = None
        return Reply(f"{dropped}accepted: {' / '.join(lines)}; {self.prompt()}")

    def _save(self, rest: str) -> Reply:
        """``save [--force] FILE``: FILE is the rest of the line (in quotes or not)."""
        name = rest.strip()
        force = name.split(maxsplit=1)[:1] == [FORCE]
        if force:
            name = name[len(FORCE):].strip()
        if len(name) > 1 and name[0] == name[-1] == '"':
            name = name[1:-1]
        if not name:
            return Reply("refused: say where: 'save game.txt' ('save --force game.txt' "
                         "replaces a file)", refused=False)
        path = Path(name)
        try:
            same = path.resolve() == self.journal.path.resolve()
        except (OSError, RuntimeError, ValueError):
            same = False
        if same:
            return Reply(f"{printable(str(path))} is the live transcript: it is saved already")
        try:
            save_copy(path, self.journal.text(), force=force)
        except RefereeError as error:
            return Reply(f"refused: {printable(error.message)}", refused=False)
        return Reply(f"saved {len(self.journal.lines)} lines in {printable(str(path))}")


def note_line(note: str) -> str:
    """The line a typed note is kept as: ``# NOTE``, unless that would read as one of
    the referee's own marks (``# done``, ``# accepted by the table: ...``, ``# cut
    short ...``), which check and --resume act on: then ``# note: NOTE``."""
    line = f"# {note}"
    if line == DONE_MARK or line.startswith((ACCEPTED_MARK, CUT_MARK)):
        return f"# note: {note}"
    return line


def _typed(event: Event) -> str:
    """The event as it was typed, safe to show and cut to a readable length."""
    return bounded(printable(event.span.text[event.span.column - 1:][:event.span.width]))


def _dropped(event: Event) -> str:
    """The words that say a contradiction waiting for the table was dropped."""
    return f"dropped the contradiction on {_typed(event)} (never recorded); "


def _at_line(event: Event, line: int) -> Event:
    """``event`` numbered as the line it will have in the file."""
    return replace(event, span=replace(event.span, line=line))


def legal_text(table: LiveTable) -> str:
    """The moves allowed now, as the table may be told them."""
    choices = table.choices()
    session = table.session
    state = session.state
    names = state.players
    if state.over:
        return awaited(session)
    lines = []
    for seat in choices.actors():
        who = names[seat]
        for verb in choices.verbs(seat):
            lines.append(f"  {who} {verb} {_what(choices, seat, verb)}".rstrip())
    if state.phase is Phase.TURN_UP:
        due = session.engine.turn_up_due(state)
        lines.append(f"  turn up {counted(due, 'card')} from the stock, naming them")
    return "\n".join(lines) or f"  {awaited(session)}"


def _what(choices: Choices, seat: int, verb: str) -> str:
    names = choices.state.players
    if verb == "asks":
        whom = joined([names[s] for s in choices.whom(seat)])
        items = " ".join(choices.ask_items(seat)) or "nothing"
        return f"{whom} for {items}"
    if verb in ("gives", "lays out"):
        return " ".join(choices.answer_items()) or "(nothing: say no)"
    if verb == "says":
        return " or ".join(choices.answer_words())
    if verb == "draws":
        shown = choices.draw_items()
        return f"(naming {' or '.join(shown)} if drawn)" if shown else ""
    if verb in ("books", "lays down"):
        return ", ".join(choices.whole_sets(seat))
    if verb == "claims":
        return ", ".join(choices.open_sets())
    if verb == "passes to":
        return joined([names[s] for s in choices.pass_to()])
    if verb == "shows":
        return " ".join(choices.show_items(seat))
    if verb == "plays":
        return " ".join(choices.play_items(seat))
    return ""


# -- setting a table up -------------------------------------------------------------


def header_lines(seating: Seating) -> list[str]:
    """The header a new game's transcript starts with."""
    lines = [write_game(seating.game),
             *(f"option {name}: {value}" for name, value in seating.options),
             f"players: {' '.join(seating.players)}"]
    if seating.dealer is not None:
        lines.append(f"dealer: {seating.dealer}")
    if seating.target is not None:
        lines.append(f"target: {seating.target}")
    if seating.deal == "seed":
        lines.append(f"deal: seed {seating.seed}")
    elif seating.deal == "given":
        assert seating.given is not None
        lines += ["deal: given", *_given_lines(seating.given)]
    else:
        lines.append("deal: hidden")
        if seating.me is not None and seating.hand is not None:
            lines.append(f"hand {seating.me}: {seating.hand}")
        if seating.centre is not None:
            lines.append(f"centre: {seating.centre}")
    return lines


def _given_lines(path: Path) -> list[str]:
    """The deal lines of a ``--deal given`` file: ``hand NAME:``, ``stock:``, ``centre:``."""
    data = read_capped(path, MAX_TRANSCRIPT_BYTES, Kind.USAGE, "a deal")
    text = decode(data, str(path), Kind.USAGE)
    lines = []
    for number, line in enumerate(text.removeprefix("\ufeff").split("\n"), start=1):
        body = line.split("#", 1)[0].strip()
        if not body:
            continue
        words = body.split(":", 1)[0].split() if ":" in body else []
        key = words[0].lower() if words else ""
        if key not in DEAL_LINE_KEYS:
            raise RefereeError(Kind.USAGE, f"{path}:{number}: a deal file holds only "
                               "'hand NAME: CARDS', 'stock: CARDS' and 'centre: CARDS' lines")
        lines.append(body)
    return lines


def start(seating: Seating, out: Path, near: Path | None = None, width: int = 100, *,
          force: bool = False) -> LiveTable:
    """Set up a new game from the command line and start its transcript at ``out``, a
    new file (with ``force``, in place of what is there); a header the referee refuses
    is a usage error (nothing is written)."""
    if (seating.me is None) != (seating.hand is None):
        raise RefereeError(Kind.USAGE, "--me NAME and --hand CARDS go together")
    if (seating.me is not None or seating.centre is not None) and seating.deal != "hidden":
        raise RefereeError(Kind.USAGE, "--me, --hand and --centre type what is known of a "
                           "hidden deal; with --deal seed or given every card is known")
    typed = [*seating.players, seating.dealer, seating.hand, seating.centre,
             *(part for option in seating.options for part in option)]
    if any(value is not None and any(c in value for c in "\n\r#") for value in typed):
        raise RefereeError(Kind.USAGE, "a name, a card list or an option on the command line "
                           "cannot hold a line break or '#'")
    for option, names in (("--players", seating.players), ("--dealer", (seating.dealer,)),
                          ("--me", (seating.me,))):
        for name in names:
            why = not_one_word(name) if name is not None else ""
            if name is not None and why:
                raise RefereeError(Kind.USAGE, f"{option}: {quoted(name, 40)} cannot be a "
                                   f"player's name: {why}")
    header = header_lines(seating)
    text = "\n".join(header) + "\n"
    source = f"{out} (header)"
    try:
        transcript = read_transcript(text, source)
        if transcript.error is not None:
            raise transcript.error
        game = set_up(transcript.headers, Span(1, 1, header[0], source, len(header[0])),
                      near)
    except RefereeError as error:
        message = error.message.replace("write them in a 'centre:' line", "--centre CARDS")
        if error.span is not None and error.span.text:
            message = f"{message} (in {quoted(error.span.text, 80)})"
        status = Kind.RULES if error.kind is Kind.RULES else Kind.USAGE
        raise RefereeError(status, message, error.span if status is Kind.RULES else None
                           ) from None
    session = Session(game)
    journal = Journal.create(out, header, force=force)
    plan = DealPlan(seating.seed if seating.deal == "seed" else None, seating.me)
    return LiveTable(session, journal, plan, width)


def resume(path: Path, warn: Callable[[str], None], width: int = 100) -> LiveTable:
    """Go on with the game in the transcript at ``path``: every event in it is played
    again (those the table accepted against the cards, trusted). An event the referee
    refuses is an error in the file. Nothing in the file changes until it has read as
    a transcript and replayed.

    A last line without a line break is played as typed if the file replays with it
    (it gets its line break); if it does not read or is refused while the file without
    it replays, it was cut short by a kill: it is not played, and stays in the file as
    a ``# cut short, not played:`` comment. Either way ``warn`` says so."""
    fd, data = open_to_resume(path)
    try:
        try:
            table = _replayed(Journal.resumed(path, fd, data), width)
        except RefereeError as error:
            head = data[:data.rfind(b"\n") + 1]
            if head == data or _in_header(data, head.count(b"\n") + 1):
                raise
            try:
                table = _replayed(Journal.resumed(path, fd, head), width)
            except RefereeError:
                raise error from None
            warn(_keep_cut_line(table.journal, head, data[len(head):], error))
            return table
        if data and not data.endswith(b"\n"):
            table.journal.end_last_line()
            warn(_typed_last_line(table.journal))
    except BaseException:
        os.close(fd)
        raise
    return table


def _in_header(data: bytes, line: int) -> bool:
    """Whether line ``line`` of the file reads as one of its header lines (a header is
    written whole, with the blank line after it: no kill cuts it short)."""
    try:
        text = decode(data, "", Kind.SYNTAX)
    except RefereeError:
        return False
    return TranscriptReader(text, "").events_from > line


def _keep_cut_line(journal: Journal, head: bytes, cut: bytes, error: RefereeError) -> str:
    """Keep a last line cut short in the file as a comment; the warning saying where."""
    text = cut.decode("utf-8", "replace").rstrip("\r")
    comment = f"{CUT_MARK} {text}"
    journal.keep_cut_line(head, comment)
    number = len(journal.lines)
    reason = "does not read" if error.kind in (Kind.SYNTAX, Kind.HEADER) else "is refused"
    why = printable(error.message.split("; ")[0])
    why = why if len(why) <= 120 else why[:117] + "..."
    return (f"{journal.path}:{number}: the last line, {quoted(printable(text), 60)}, has no "
            f"line break and {reason} ({error.kind.value}: {why}): cut "
            f"short by a kill, it is not played, and is kept as a comment on line {number}: "
            f"{quoted(printable(comment), 80)}")


def _typed_last_line(journal: Journal) -> str:
    """The warning for a last line without a line break, read as typed."""
    text = journal.lines[-1]
    event = bool(text.split("#", 1)[0].strip())
    return (f"{journal.path}:{len(journal.lines)}: the last line, "
            f"{quoted(printable(text.rstrip(chr(13))), 60)}, had no line break; it reads, so "
            "it is taken as typed and given one"
            + (" ('undo' takes its event back if it was cut short)" if event else ""))


def _replayed(journal: Journal, width: int) -> LiveTable:
    """The table of the transcript ``journal`` read: its events played again, read one
    at a time (not kept), with the collector paused as a check does."""
    path = journal.path
    text = journal.text()
    source = str(path)
    transcript = TranscriptReader(text, source)
    if not transcript.headers:
        raise _no_header(journal.lines, read_transcript(text, source).error, source)
    game = set_up(transcript.headers, Span(1, 1, first_line(text), source,
                                           len(first_line(text))), path.parent)
    session = Session(game)
    accepted = _accepted_lines(journal.lines)
    dones = done_marks(text)
    with gc_paused():  # the collector only costs time in a long game
        for event in transcript.events():
            while dones and dones[0] < event.span.line:
                _settle_again(session, journal, dones.pop(0))
            error = session.attempt(event)
            if error is not None and event.span.line in accepted:
                error = session.attempt(event, trust=True)
            if error is not None:
                raise error
            journal.mark(event.span.line)
        if transcript.error is None:
            for number in dones:
                _settle_again(session, journal, number)
    if transcript.error is not None:
        raise transcript.error
    return LiveTable(session, journal, _plan(transcript.headers), width)


def _no_header(lines: list[str], error: RefereeError | None, source: str) -> RefereeError:
    """Why a file without header lines is not resumed: its first line that is not a note
    is no header line (or, when it holds a ':', the reader's error for it)."""
    number = next((n for n, line in enumerate(lines, start=1)
                   if line.split("#", 1)[0].strip()), 1)
    text = lines[number - 1] if lines else ""
    if error is not None and error.span is not None and error.span.line == number and (
            ":" in text):
        return error
    return RefereeError(Kind.HEADER, "the file holds no header ('game: NAME', 'players: "
                        "NAMES'): it is not a transcript", Span(number, 1, text, source))


def _settle_again(session: Session, journal: Journal, line: int) -> None:
    """Replay a ``# done`` line: the moves the cards forced there."""
    error = session.settle()
    if error is not None:
        raise error.located(Span(line, 1, journal.lines[line - 1], str(journal.path)))
    journal.mark(line)


def _accepted_lines(lines: list[str]) -> set[int]:
    """The lines of the events the table accepted against the cards: each is followed
    by an ``# accepted by the table:`` comment."""
    found = set()
    last = 0
    for number, text in enumerate(lines, start=1):
        stripped = text.strip()
        if stripped.startswith(ACCEPTED_MARK) and last:
            found.add(last)
        elif stripped and not stripped.startswith("#"):
            last = number
    return found


def _plan(headers: tuple[Header, ...]) -> DealPlan:
    """How a resumed match deals its next hands: as its first hand was dealt (seeds
    counted on from the first), and the hand its typist knows."""
    seed = None
    me = None
    for header in headers:
        words = [t.low for t in header.values]
        if header.key == "deal" and words[:1] == ["seed"] and len(words) == 2:
            seed = ascii_number(words[1], MAX_SEED_DIGITS)
        if header.key == "hand" and header.name is not None:
            me = header.name.text
    return DealPlan(seed, None if seed is not None else me)
