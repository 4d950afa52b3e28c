"""Setting a live table up: a new game from the command line (:func:`start`, its
header written from a :class:`Seating`), or a game in a transcript file played again
to go on with it (:func:`resume`), a last line cut short by a kill kept as a comment."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from referee.errors import Kind, RefereeError, Span, printable
from referee.live.journal import Journal, open_to_resume
from referee.live.replies import CUT_MARK
from referee.live.table import DealPlan, LiveTable
from referee.reading import (
    MAX_TRANSCRIPT_BYTES,
    ascii_number,
    decode,
    first_line,
    quoted,
    read_capped,
)
from referee.transcript.check import gc_paused
from referee.transcript.events import Header
from referee.transcript.names import not_one_word
from referee.transcript.notation import (
    TranscriptReader,
    accepted_lines,
    done_marks,
    read_transcript,
)
from referee.transcript.session import Session
from referee.transcript.setup import MAX_SEED_DIGITS, set_up
from referee.transcript.writer import write_game
from referee.values import frozen

DEAL_LINE_KEYS = ("hand", "stock", "centre", "center")


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
    entries = journal.entries  # a header or a note line is not an event undo takes back
    event = bool(entries) and entries[-1].lines == len(journal.lines) - 1
    return (f"{journal.path}:{len(journal.lines)}: the last line, "
            f"{quoted(printable(text), 60)}, had no line break; it reads, so "
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
    accepted = accepted_lines(journal.lines)
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
