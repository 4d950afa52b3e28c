"""The live table's commands: every word typed besides events (``status``, ``legal``,
``known``, ``last``, ``history``, ``undo``, ``accept``, ``save``, ``hand``, ``done``,
``help``, ``quit``), each answered with a :class:`~referee.live.replies.Reply`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from referee.engine.moves import EndLaying, NothingLaid
from referee.engine.state import Phase
from referee.errors import RefereeError, printable
from referee.live.announce import awaited, joined, last_ask, rendered, status_tables
from referee.live.contradiction import accept, drop_pending, drop_waiting
from referee.live.display import knowledge_table
from referee.live.journal import save_copy
from referee.live.replies import Command, Reply
from referee.transcript.notation import DONE_MARK, read_events
from referee.transcript.writer import format_move
from referee.words import counted

if TYPE_CHECKING:
    from referee.live.choices import Choices
    from referee.live.table import LiveTable

KNOWN_SECONDS = 0.5  # how long 'known' may search; places not ruled out by then are shown
FORCE = "--force"  # 'save --force FILE': replace what is there


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


def run(table: LiveTable, command: Command, args: list[str]) -> Reply:
    """Answer ``command`` typed with ``args`` (``save`` is :func:`save`: its file name is
    the rest of the line)."""
    if command is Command.ACCEPT:
        return accept(table)
    if command is Command.UNDO:
        return undo(table)
    if command is Command.HAND:
        return hand(table, args)
    if command is Command.DONE:
        return done(table)
    if command is Command.QUIT:
        return Reply(f"the game is in {table.source}"
                     + (f"; go on with --resume {table.source}"
                        if not table.session.match_over() else ""), done=True)
    if command is Command.HELP:
        return Reply("help", HELP)
    if command is Command.STATUS:
        return Reply(table.prompt(), rendered(*status_tables(table.session), width=table.width))
    if command is Command.LAST:
        return Reply(last_ask(table.session))
    if command is Command.LEGAL:
        return Reply("legal now:", legal_text(table))
    if not table.knowing:
        title = table.session.game.spec.title
        word = "history" if command is Command.HISTORY else "known"
        return Reply(f"refused: in {title} the table is shown the last ask and its "
                     f"answer only ('last'); '{word}' needs the option history "
                     "(--option history=yes)", refused=False)
    if command is Command.HISTORY:
        lines = table.journal.lines
        width = len(str(len(lines)))
        return Reply(f"the game so far ({table.source}):", "\n".join(
            f"{number:>{width}}  {text}"
            for number, text in enumerate(lines, start=1) if text.strip()))
    described = table.session.describe()
    known = knowledge_table(table.session.where_cards(KNOWN_SECONDS), described)
    return Reply("what is known of every card:", rendered(known, width=table.width))


def done(table: LiveTable) -> Reply:
    """``done``: the referee fills in what the cards force (nobody lays down more)."""
    session = table.session
    if session.state.over or session.engine.forced_move(session.state) is None:
        return Reply(f"nothing to fill in; {table.prompt()}")
    played = len(session.kept.played)
    error = session.settle()
    if error is not None:
        return table.refuse(error, [], "")
    dropped = drop_pending(table)
    table.journal.append([DONE_MARK], event=True)  # a check fills the moves in again
    table.changed()
    filled = [format_move(m, session.kept.players, lay_out=session.kept.lay_out)
              for m in session.kept.entries(played)
              if not isinstance(m, str | EndLaying | NothingLaid)]
    return Reply(f"{dropped}done: {', '.join(filled) or 'no more sets laid'}; "
                 f"{table.prompt()}")


def undo(table: LiveTable) -> Reply:
    """``undo``: drop the contradiction waiting, else take back the last event."""
    waiting = drop_waiting(table)
    if waiting is not None:
        return waiting
    journal = table.journal
    if not journal.entries:
        return Reply("nothing to take back")
    if not journal.can_take_back():
        return Reply("refused: the last event shares its line with another in the "
                     "file; edit the file by hand", refused=False)
    line = journal.lines[journal.entries[-1].lines]
    line = "done" if line == DONE_MARK else line
    table.session.undo()
    journal.take_back()
    table.changed()
    return Reply(f"took back: {line}; {table.prompt()}")


def hand(table: LiveTable, args: list[str]) -> Reply:
    """``hand [N] [CARDS] [centre CARDS]``: deal the next hand of a match."""
    session = table.session
    game = session.game
    number = session.hand + 1
    if args and args[0].isdigit():
        if args[0] != str(number):
            return table.refuse_plainly(f"the next hand is hand {number}")
        args = args[1:]
    if game.target is None:
        return table.refuse_plainly("this game is one hand; a match needs --target N")
    low = [word.lower() for word in args]
    split = low.index("centre") if "centre" in low else len(args)
    own, centre = args[:split], args[split + 1:]
    if (own and table.plan.me is None) or (args and table.plan.seed is not None):
        return table.refuse_plainly("after 'hand' come your own cards (with --me NAME) and "
                        "'centre' with the cards face up, at a hidden table")
    deal = ([f"deal: seed {table.plan.seed + number - 1}"] if table.plan.seed is not None
            else ["deal: hidden"])
    if own:
        deal.append(f"hand {table.plan.me}: {' '.join(own)}")
    if centre:
        deal.append(f"centre: {' '.join(centre)}")
    lines = [f"hand {number}", *deal]
    events, unreadable = read_events("\n".join(lines), table.source, table.journal.next_line)
    if unreadable is not None:
        return table.refuse(unreadable, [], "")
    error = session.attempt(events[0])
    if error is not None:
        return table.refuse(error, [], "")
    dropped = drop_pending(table)
    table.write(session, lines, "")
    table.changed()
    return Reply(f"{dropped}accepted: {' / '.join(lines)}; {table.prompt()}")


def save(table: LiveTable, rest: str) -> Reply:
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
        same = path.resolve() == table.journal.path.resolve()
    except (OSError, RuntimeError, ValueError):
        same = False
    if same:
        return Reply(f"{printable(str(path))} is the live transcript: it is saved already")
    try:
        save_copy(path, table.journal.text(), force=force)
    except RefereeError as error:
        return Reply(f"refused: {printable(error.message)}", refused=False)
    return Reply(f"saved {len(table.journal.lines)} lines in {printable(str(path))}")


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
