"""``referee play``: the two front ends of a live table.

At a terminal, a prompt_toolkit prompt: line editing, history, and completion that
fits the moment (referee/live/completion.py); the prompt shows what the game waits for.
Without a terminal (standard input or output not a TTY), events come on standard
input, one line each, and each gets one verdict line on standard output at once, so
that a game can be scripted and tested. Both drive :meth:`LiveTable.handle`.

Exit status: 0 when every event typed was accepted, 1 when one was refused (it is not
in the file) or the file to resume holds an event the referee refuses, 2 for bad
usage or a bad rule file, 130 on Ctrl-C. Every accepted event is on disk before its
answer, whatever ends the program.
"""

from __future__ import annotations

import contextlib
import gc
import os
import shutil
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TextIO

from prompt_toolkit import PromptSession
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from referee.cli.output import INTERRUPTED, silence
from referee.errors import Kind, RefereeError
from referee.live.completion import TableCompleter
from referee.live.replies import Reply
from referee.live.start import Seating, resume, start
from referee.live.table import LiveTable
from referee.reading import ascii_number, quoted
from referee.sanitize import printable
from referee.transcript.setup import MAX_SEED_DIGITS
from referee.values import frozen

Write = Callable[[str], None]
MAX_STEM = 40  # the most characters of the game's name in a default file name


@frozen
class PlayArguments:
    """``referee play``'s command line, as typed."""

    game: str | None
    players: str | None
    dealer: str | None = None
    deal: str | None = None
    me: str | None = None
    hand: str | None = None
    centre: str | None = None
    options: tuple[str, ...] = ()
    target: int | None = None
    out: Path | None = None
    resume: Path | None = None
    force: bool = False  # --force: replace the --out file if it exists


def play(arguments: PlayArguments, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Run a live table from the command line; the exit status."""
    terminal = stdin.isatty() and stdout.isatty()
    width = shutil.get_terminal_size().columns if terminal else 100
    say = printer(stderr)
    try:
        table = _open(arguments, width, say)
    except RefereeError as error:
        say(error.report())
        return error.exit_status
    try:
        if terminal:
            return run_prompt(table, prompt_session(), printer(stdout))
        return run_lines(table, _lines(stdin), printer(stdout))
    except KeyboardInterrupt:
        say(f"interrupted; every accepted event is in {table.source} "
            f"(go on with --resume {table.source})")
        return INTERRUPTED
    except RefereeError as error:  # the transcript file could not be written
        say(error.report())
        return error.exit_status
    except OSError as exc:  # the answers could not be written (a closed pipe, a full disk)
        silence(stdout)
        with contextlib.suppress(OSError):
            say(f"referee: cannot write the output: {exc.strerror or exc}; every "
                f"accepted event is in {table.source}")
        return 2
    finally:
        table.journal.close()


def _open(arguments: PlayArguments, width: int, say: Write) -> LiveTable:
    if arguments.resume is not None:
        given = [name for name, value in (
            ("GAME", arguments.game), ("--players", arguments.players),
            ("--dealer", arguments.dealer), ("--deal", arguments.deal), ("--me", arguments.me),
            ("--hand", arguments.hand), ("--centre", arguments.centre),
            ("--option", arguments.options),
            ("--target", arguments.target), ("--out", arguments.out),
            ("--force", arguments.force)) if value]
        if given:
            raise RefereeError(Kind.USAGE, f"--resume goes on with the file's own game: "
                               f"drop {', '.join(given)}")
        def warn(text: str) -> None:
            say(f"warning: {text}")

        table = resume(arguments.resume, warn, width)
        # this process serves one table: what its replay built stays for undo, so it is
        # frozen out of the collector's reach (after 100,000 events each full collection
        # would take the better part of a second at the table). Not in resume() itself:
        # a process resuming table after table would keep each one's garbage for good.
        gc.freeze()
        say(f"going on with {table.source}: {table.prompt()}")
        return table
    seating = seating_of(arguments)
    out = arguments.out or default_out(seating.game)
    table = start(seating, out, Path(), width, force=arguments.force)
    say(f"{table.session.game.spec.title}: writing {out}; 'help' lists the commands")
    return table


def seating_of(arguments: PlayArguments) -> Seating:
    """The game the command line describes; a usage error if it cannot."""
    if not arguments.game:
        raise RefereeError(Kind.USAGE, "name the game: 'referee play go-fish --players "
                           "\"Ann Bob Cy\"' (or --resume FILE)")
    if not arguments.players:
        raise RefereeError(Kind.USAGE, "name the players in seat order: --players "
                           "\"Ann Bob Cy\"")
    options = []
    for option in arguments.options:
        name, equals, value = option.partition("=")
        if not equals or not name.strip() or not value.strip():
            raise RefereeError(Kind.USAGE, f"an option reads NAME=VALUE, not "
                               f"{quoted(option, 80)}")
        options.append((name.strip(), value.strip()))
    deal = (arguments.deal or "hidden").split()
    seed = None
    given = None
    if deal[:1] == ["seed"] and len(deal) == 2:
        seed = ascii_number(deal[1], MAX_SEED_DIGITS)
        if seed is None:
            raise RefereeError(Kind.USAGE, f"--deal seed N takes a whole number of at most "
                               f"{MAX_SEED_DIGITS} digits, not {quoted(deal[1])}")
    elif deal[:1] == ["given"] and len(deal) == 2:
        given = Path(deal[1])
    elif deal != ["hidden"]:
        raise RefereeError(Kind.USAGE, "--deal is 'hidden', 'seed N' or 'given FILE'")
    return Seating(arguments.game, tuple(arguments.players.split()), arguments.dealer,
                   deal[0], seed, given, arguments.me, arguments.hand, arguments.centre,
                   tuple(options), arguments.target)


def default_out(game: str) -> Path:
    """A new name in the current folder for a game without --out: the game (its first
    characters: a file name has a length limit) and the time (a name taken by anything,
    a link included, is not used)."""
    stem = Path(game).stem[:MAX_STEM] or "game"
    base = f"{stem}-{time.strftime('%Y%m%d-%H%M%S')}"
    path = Path(f"{base}.txt")
    number = 1
    while os.path.lexists(path):
        number += 1
        path = Path(f"{base}-{number}.txt")
    return path


def printer(stream: TextIO) -> Write:
    """The live table's one way to write: a line made printable (referee/sanitize.py),
    flushed at once, so that a name or a rule file's title cannot rewrite the screen."""
    def write(text: str) -> None:
        stream.write(printable(text) + "\n")
        stream.flush()
    return write


def _lines(stream: TextIO) -> Iterable[str]:
    """Standard input's lines; a line that is not UTF-8 comes as a NUL, refused."""
    source = getattr(stream, "buffer", None)
    if source is None:
        yield from (line.rstrip("\n") for line in stream)
        return
    for raw in source:
        try:
            yield raw.decode("utf-8").rstrip("\r\n")
        except UnicodeDecodeError:
            yield "\0"


def run_lines(table: LiveTable, lines: Iterable[str], write: Write) -> int:
    """Line mode: one verdict line for each event line, and what commands show."""
    for text in lines:
        if "\0" in text:
            table.refused += 1
            write("refused, syntax: this line is not UTF-8 text; nothing changed")
            continue
        reply = table.handle(text)
        if reply.line:
            write(reply.line)
        if reply.output:
            write(reply.output)
        if reply.done:
            break
    return 1 if table.refused else 0


def run_prompt(table: LiveTable, prompt: PromptSession[str], write: Write) -> int:
    """Prompt mode: line editing, history and completion; the prompt says what the game
    waits for. Ends on ``quit`` or end of input (Ctrl-D)."""
    history = prompt.history
    if isinstance(history, InMemoryHistory):
        for line in event_lines(table):
            history.append_string(line)
    while True:
        try:
            text = prompt.prompt(lambda: f"{printable(table.prompt())}> ",  # plain, not HTML
                                 completer=TableCompleter(table),
                                 complete_while_typing=False)
        except EOFError:
            write(f"the game is in {table.source}")
            break
        reply = table.handle(text)
        _show(reply, write)
        if reply.done:
            break
    return 1 if table.refused else 0


def prompt_session(input: Input | None = None, output: Output | None = None
                   ) -> PromptSession[str]:
    """A prompt session (on the given input and output, for tests)."""
    return PromptSession(input=input, output=output, history=InMemoryHistory())


def _show(reply: Reply, write: Write) -> None:
    for part in (reply.line, reply.details, reply.output):
        if part:
            write(part)


def event_lines(table: LiveTable) -> list[str]:
    """The event lines of the file so far (for the prompt's history)."""
    lines = table.journal.lines
    start = table.journal.entries[0].lines if table.journal.entries else len(lines)
    return [printable(line) for line in lines[start:]
            if line.strip() and not line.lstrip().startswith("#")]
