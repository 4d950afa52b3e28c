"""``referee play`` fuzzed in-process (bench/fuzz.py): a live table opened from a
transcript's header (``start``, as the command line would, or ``--resume`` of the
header written to a file), then random lines typed at it: the transcript's events,
mutated events, every command, ``save`` and ``save --force`` at new files, existing
files and planted links; and ``--resume`` of the journal it wrote cut at a random byte
(a kill mid-write), of files that are no transcript, and of links.

What must hold, besides no traceback: a planted link's target, and an existing file
(without ``--force``), are never changed; a file ``--resume`` refuses is left byte for
byte; the journal on disk is what the table says it wrote, and once closed it checks
(``referee check``) to the table's state, or to the contradiction the table accepted,
at its line; it resumes to the same state; every answer is safe to write."""

from __future__ import annotations

import contextlib
import os
import random
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fuzz_mutations import TEXT_PIECES, hostile_word, mutate, players_of, renamed
from fuzz_outputs import echoed, error_problems, names_shown, unreadable

from referee.errors import Kind, RefereeError, Span
from referee.live.replies import CUT_MARK, Reply
from referee.live.start import Seating, resume, start
from referee.live.table import LiveTable
from referee.transcript.check import check_file
from referee.transcript.events import Header
from referee.transcript.notation import ACCEPTED_MARK, TranscriptReader
from referee.transcript.setup import set_up
from referee.transcript.writer import write_game
from referee.values import replace

COMMANDS = (("undo", 12), ("accept", 8), ("status", 8), ("legal", 8), ("known", 2),
            ("history", 4), ("last", 3), ("help", 1), ("done", 6), ("hand", 5),
            ("save", 16), ("note", 4), ("blank", 2), ("quit", 1))
SAVE_TARGETS = ("new", "new", "existing", "link", "dangling", "folder link", "journal",
                "journal link", "hostile", "no folder", "folder")
BOM = "\ufeff".encode()
MID_GAME_CHECKS = 0.03  # the chance that the journal is checked after a typed line
VICTIM = b"the victim's own bytes: nothing may write here\n"
NOT_TRANSCRIPTS = (
    b"# notes\nbuy milk\nthe last line, typed without a line break",
    b"", b"\n", b"game: go-fish", b"game: go-fish\n", b"players: Ann Bob\n",
    b"\xff\xfe\x00garbage\x80\n", b"Ann asks Bob for 7\nBob says no\n",
    b"\xef\xbb\xbf# a byte-order mark, then nothing\n", b"a" * 5000,
    b"name: Go Fish\nplayers: 2 to 6\n")


@dataclass(slots=True)
class Opening:
    """A transcript the live cases start from: its header (with its rule file named by
    its absolute path, so that the file reads back anywhere), its event lines, and the
    command line that starts it, if one can (teams and some deals it cannot say), with
    the lines of its ``--deal given`` file."""

    name: str
    header: list[str]
    events: list[str]
    seating: Seating | None
    deal: tuple[str, ...] = ()


@dataclass(slots=True)
class Live:
    """What one live case found."""

    outcome: str = "ok"
    problems: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)  # what was typed, for the reproducer


def opening(text: str, source: Path) -> Opening | None:
    """The opening of the transcript ``text`` (at ``source``), or None if its header
    does not set a game up."""
    reader = TranscriptReader(text, str(source))
    if reader.error is not None or not reader.headers:
        return None
    try:
        game = set_up(reader.headers, Span(1, 1, "", str(source)), source.parent)
    except RefereeError:
        return None
    rules = str(Path(game.spec.source).resolve())
    lines = text.removeprefix("\ufeff").split("\n")
    header = lines[:reader.events_from - 1]
    for found in reader.headers:
        if found.key == "game":
            header[found.span.line - 1] = write_game(rules)
    events = [line for line in lines[reader.events_from - 1:] if line.strip()]
    seating, deal = _seating(reader.headers, rules)
    return Opening(source.name, header, events, seating, deal)


def _seating(headers: tuple[Header, ...], rules: str) -> tuple[Seating | None, tuple[str, ...]]:
    """The command line saying this header, if there is one, and its deal file's lines."""
    values: dict[str, Any] = {"game": rules, "deal": "hidden"}
    options = []
    deal: list[str] = []
    for found in headers:
        words = [token.text for token in found.values]
        text = " ".join(words)
        if found.key == "players":
            values["players"] = tuple(words)
        elif found.key == "dealer" and len(words) == 1:
            values["dealer"] = text
        elif found.key == "target" and words and text.isdigit():
            values["target"] = int(text)
        elif found.key == "option" and found.name is not None:
            options.append((found.name.text, text))
        elif found.key == "deal" and words[:1] == ["seed"]:
            if len(words) != 2 or not words[1].isdigit():
                return None, ()
            values["deal"], values["seed"] = "seed", int(words[1])
        elif found.key == "deal" and words in (["hidden"], ["given"]):
            values["deal"] = words[0]
        elif found.key == "hand" and found.name is not None:
            deal.append(f"hand {found.name.text}: {text}")
            values["me"], values["hand"] = found.name.text, text
        elif found.key in ("centre", "center", "stock"):
            deal.append(f"{found.key}: {text}")
            values["centre" if found.key != "stock" else "stock"] = text
        elif found.key != "game":
            return None, ()
    if "players" not in values:
        return None, ()
    if values["deal"] == "given":
        for key in ("me", "hand", "centre", "stock"):
            values.pop(key, None)
        values["given"] = Path("deal.txt")  # written beside the table when it starts
        return Seating(**values, options=tuple(options)), tuple(deal)
    if "stock" in values or sum(line.startswith("hand ") for line in deal) > 1:
        return None, ()
    if values["deal"] == "seed" and ("me" in values or "centre" in values):
        return None, ()
    return Seating(**values, options=tuple(options)), ()


# -- one case --------------------------------------------------------------------------


class Case:
    """One live case in its own folder: planted files, the table, its checks."""

    def __init__(self, start_from: Opening, rng: random.Random, folder: Path,
                 found: Live | None = None) -> None:
        self.opening = start_from
        self.rng = rng
        self.folder = folder
        self.found = Live() if found is None else found
        self.victim = folder / "victim.txt"
        self.victim.write_bytes(VICTIM)
        self.planted: list[Path] = [self.victim]
        self.saves = 0
        self.table: LiveTable | None = None

    # -- the files around the table ----------------------------------------------------

    def plant(self, path: Path, kind: str) -> None:
        """Put something at ``path``: an existing file, a link to the victim, a dangling
        link, a link to a folder."""
        if kind == "existing":
            path.write_bytes(self.rng.randbytes(self.rng.randint(0, 64)))
        elif kind == "link":
            path.symlink_to(self.victim if self.rng.random() < 0.5 else self.victim.name)
        elif kind == "dangling":
            path.symlink_to(self.folder / "nowhere" / "x.txt")
        elif kind == "folder link":
            path.symlink_to(self.folder, target_is_directory=True)
        self.planted.append(path)

    def snapshot(self) -> dict[Path, object]:
        """Each planted path as it is now: a link's target, a file's bytes."""
        return {path: _state(path) for path in self.planted}

    def untouched(self, before: dict[Path, object], but: Path | None = None) -> None:
        """A breach for each planted path changed since ``before`` (but ``but``, which
        the user named)."""
        for path, was in before.items():
            if path != but and _state(path) != was:
                self.found.problems.append(f"breach: {path.name} changed ({was!r:.60})")

    # -- opening ----------------------------------------------------------------------

    def open(self, header: list[str], events: list[str], seating: Seating | None,
             deal: tuple[str, ...]) -> bool:
        """Open the table by ``start`` or by ``--resume`` of its header; whether open."""
        out = self.folder / "live.txt"
        if seating is not None and self.rng.random() < 0.6:
            return self._start(seating, deal, out)
        prefix = events[:self.rng.randint(0, min(len(events), 8))]
        out.write_bytes("\n".join([*header, *prefix, ""]).encode())
        del events[:len(prefix)]
        before = out.read_bytes()
        warnings: list[str] = []
        try:
            self.table = resume(out, warnings.append)
        except RefereeError as error:
            self._refused(error, located=True)
            if out.read_bytes() != before:
                self.found.problems.append("breach: --resume changed a file it refused")
            return False
        self._said(warnings)
        return True

    def _start(self, seating: Seating, deal: tuple[str, ...], out: Path,
               plant: bool = True) -> bool:
        if seating.given is not None:
            given = self.folder / seating.given.name
            given.write_bytes("".join(line + "\n" for line in deal).encode())
            seating = replace(seating, given=given)
        force = self.rng.random() < 0.5
        if plant and self.rng.random() < 0.3:
            self.plant(out, self.rng.choice(("existing", "link", "dangling", "folder link")))
        before = self.snapshot()
        existed = os.path.lexists(out)
        try:
            self.table = start(seating, out, force=force)
        except RefereeError as error:
            self._refused(error, located=False)
            self.untouched(before)
            if existed and not force:
                return self._start(seating, deal, self.folder / "live-2.txt", plant=False)
            return False
        self.found.outcome = "ok"
        self.untouched(before, but=out)
        self.planted = [path for path in self.planted if path != out]  # the journal now
        if existed and not force:
            self.found.problems.append("breach: play --out replaced a file without --force")
        if os.path.islink(out):
            self.found.problems.append("breach: play --out wrote through a link")
        self.table.handle("status")
        return True

    def _refused(self, error: RefereeError, located: bool) -> None:
        self.found.outcome = error.kind.value
        self.found.problems += error_problems(error)
        if located and error.kind is not Kind.USAGE and (
                error.span is None or error.span.line < 1 or error.span.column < 1):
            self.found.problems.append(f"no location: {error.report()[:200]}")

    def _said(self, texts: list[str]) -> None:
        for text in texts:
            self.found.problems += echoed("a warning", text) + unreadable("a warning", text)

    # -- typing ------------------------------------------------------------------------

    def type_lines(self, events: list[str], count: int) -> None:
        """Type ``count`` lines: the events in order, mutated ones, and commands."""
        assert self.table is not None
        rng = self.rng
        done = 0
        for _ in range(count):
            choice = rng.random()
            if choice < 0.55 and done < len(events):
                line = events[done]
                done += 1
            elif choice < 0.62 and done < len(events):
                line = mutate(events[done], rng)
                done += rng.random() < 0.5
            elif choice < 0.65:
                line = rng.choice(events[:done] or ["Ann asks Bob for 7"])
            else:
                line = self.command()
            for piece in line.split("\n"):  # what a prompt or a pipe gives: a line each
                if not self.type(piece):
                    return

    def command(self) -> str:
        """A command line, with a save's target planted first."""
        rng = self.rng
        word = rng.choices([c for c, _ in COMMANDS], [w for _, w in COMMANDS])[0]
        if word == "save":
            return self.save_line()
        if word == "note":
            return "# " + rng.choice(("a note", *TEXT_PIECES)) + rng.choice(("", " more"))
        if word == "blank":
            return rng.choice(("", "   ", "#"))
        if word == "hand":
            return rng.choice(("hand", "hand 2", "hand 2 centre 7S", "hand 7S 8S", "hand 9"))
        return word if rng.random() < 0.9 else f"{word.upper()} {rng.choice(TEXT_PIECES)}"

    def save_line(self) -> str:
        """``save [--force] FILE``: a new file, or one planted first (a file, a link to
        the victim, to a folder, to the journal, a dangling one), a hostile name, the
        journal itself, a folder, a folder that is not there."""
        rng = self.rng
        assert self.table is not None
        self.saves += 1
        kind = rng.choice(SAVE_TARGETS)
        name = f"saved-{self.saves}.txt"
        if kind == "hostile":
            name = f"{rng.choice(TEXT_PIECES)}{rng.choice(('sp ace', '#x', 'q', ''))}-{name}"
        path = self.folder / name.replace("/", "").replace("\0", "")
        if kind in ("existing", "link", "dangling", "folder link"):
            self.plant(path, kind)
        elif kind == "journal":
            path = self.table.journal.path
        elif kind == "journal link":
            path.symlink_to(self.table.journal.path)
            self.planted.append(path)
        elif kind == "no folder":
            path = self.folder / "no" / name
        elif kind == "folder":
            path = self.folder
        force = "--force " if rng.random() < 0.4 else ""
        shown = f'"{path}"' if rng.random() < 0.2 else str(path)
        return f"save {force}{shown}"

    def type(self, line: str) -> bool:
        """Type ``line`` and check what follows; whether the table goes on."""
        table = self.table
        assert table is not None
        self.found.lines.append(line)
        target = _save_target(line)
        before = self.snapshot()
        existed = target is not None and os.path.lexists(target)
        was = _state(target) if target is not None else None
        reply = table.handle(line)
        self._answer(reply, line)
        self.untouched(before, but=target)
        if target is not None:
            self._saved(target, line, existed, was, reply)
        on_disk = table.journal.path.read_bytes().removeprefix(BOM)
        if on_disk.replace(b"\r\n", b"\n") != table.journal.text().encode():  # CR LF kept
            self.found.problems.append(f"breach: the journal on disk is not what the table "
                                       f"wrote, after {line[:60]!r}")
        if self.rng.random() < MID_GAME_CHECKS:  # as a kill now would leave it
            self.journal_checks(table.journal.path, table)
        return not reply.done

    def _answer(self, reply: Reply, line: str) -> None:
        """What the table writes of a reply (line mode and prompt alike): safe, of a
        readable length, and for ``status``, every name shown as it is."""
        assert self.table is not None
        for part in (reply.line, reply.details, reply.output):
            self.found.problems += echoed("play's answer", part)
        self.found.problems += unreadable("play's answer", reply.line + "\n" + reply.details)
        if line.strip().lower() == "status":
            self.found.problems += names_shown("status", reply.output, self.table.players())

    def _saved(self, target: Path, line: str, existed: bool, was: object,
               reply: Reply) -> None:
        assert self.table is not None
        force = line.split()[1:2] == ["--force"]
        now = _state(target)
        if target.resolve() == self.table.journal.path.resolve():
            return  # the live transcript itself: saved already
        if existed and not force:
            if now != was:
                self.found.problems.append("breach: save replaced a file without --force")
            return
        if now == was:
            if reply.line.startswith("saved"):
                self.found.problems.append("breach: save said saved, and wrote nothing")
            return
        if os.path.islink(target) or now != self.table.journal.text().encode():
            self.found.problems.append(f"breach: save wrote {target.name} wrongly ({now!r:.60})")

    # -- closing ----------------------------------------------------------------------

    def close_and_check(self) -> None:
        """Close the table; its journal checks to its state, and resumes to it."""
        table = self.table
        assert table is not None
        table.journal.close()
        path = table.journal.path
        self.journal_checks(path, table)
        data = path.read_bytes()
        warnings: list[str] = []
        try:
            again = resume(path, warnings.append)
        except RefereeError as error:
            self.found.problems.append(f"breach: the journal does not resume: "
                                       f"{error.report()[:200]}")
            return
        again.journal.close()
        if warnings:
            self.found.problems.append(f"breach: a journal that ends its lines resumes with "
                                       f"a warning: {warnings[0][:160]}")
        if again.session.describe() != table.session.describe():
            self.found.problems.append("breach: the journal resumes to another state")
        if path.read_bytes() != data:
            self.found.problems.append("breach: --resume changed a journal that replays")

    def journal_checks(self, path: Path, table: LiveTable) -> None:
        """The journal checks to the table's state (with what the cards force filled in,
        as a check does at the end), or to the first contradiction the table accepted,
        at its line."""
        lines = path.read_bytes().decode("utf-8", "replace").split("\n")
        accepted = _accepted_lines(lines)
        verdict = check_file(path)
        if accepted:
            error = verdict.error
            if (error is None or error.kind is not Kind.CONTRADICTION or error.span is None
                    or error.span.line != accepted[0]):
                self.found.problems.append(
                    f"breach: the journal's accepted contradiction at line {accepted[0]} "
                    f"checks as {verdict.summary()[:160]!r}")
        elif not verdict.ok or verdict.state not in states(table):
            self.found.problems.append(f"breach: the journal checks as "
                                       f"{verdict.summary()[:160]!r}, not as the table's state"
                                       f" ({verdict.state} against {states(table)})")


def states(table: LiveTable) -> list[dict[str, Any]]:
    """The table's state, and the state with the moves the cards force played (as
    ``done`` would), which a check fills in at the end of a transcript."""
    session = table.session
    found = [session.describe()]
    if session.engine.forced_move(session.state) is not None and session.settle() is None:
        found.append(session.describe())
        session.undo()
    return found


def _state(path: Path) -> object:
    """What is at ``path``: a link and its target, a file's bytes, a folder, nothing."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return None
    if stat.S_ISLNK(mode):
        return ("link", os.readlink(path))
    if stat.S_ISREG(mode):
        return path.read_bytes()
    return ("other", stat.S_IFMT(mode))


def _save_target(line: str) -> Path | None:
    words = line.split()
    if not words or words[0].lower() != "save":
        return None
    name = line.lstrip()[len(words[0]):].strip()
    if name.split(maxsplit=1)[:1] == ["--force"]:
        name = name[len("--force"):].strip()
    if len(name) > 1 and name[0] == name[-1] == '"':
        name = name[1:-1]
    return Path(name) if name else None


def _accepted_lines(lines: list[str]) -> list[int]:
    """The lines of the events the table accepted against the cards, in order."""
    found = []
    last = 0
    for number, text in enumerate(lines, start=1):
        stripped = text.strip()
        if stripped.startswith(ACCEPTED_MARK) and last:
            found.append(last)
        elif stripped and not stripped.startswith("#"):
            last = number
    return found


def _renamed(start_from: Opening, rng: random.Random) -> Opening:
    """The opening, or with one player renamed hostile, everywhere."""
    header, events, seating = start_from.header, start_from.events, start_from.seating
    players = players_of("\n".join(header))
    if not players or rng.random() < 0.7:
        return replace_opening(start_from)
    old = rng.choice(players)
    new = hostile_word(old, rng, tuple(p for p in players if p != old))
    if any(c in new for c in "\n\r#") or not new.strip():
        return replace_opening(start_from)
    if seating is not None:
        seating = replace(seating, players=tuple(new if p == old else p
                                                 for p in seating.players),
                          dealer=new if seating.dealer == old else seating.dealer,
                          me=new if seating.me == old else seating.me)
    return Opening(start_from.name, [renamed(line, old, new) for line in header],
                   [renamed(line, old, new) for line in events], seating,
                   tuple(renamed(line, old, new) for line in start_from.deal))


def replace_opening(start_from: Opening) -> Opening:
    """A copy of the opening whose lists a case may change."""
    return Opening(start_from.name, list(start_from.header), list(start_from.events),
                   start_from.seating, start_from.deal)


# -- the surfaces ----------------------------------------------------------------------


def live_case(start_from: Opening, rng: random.Random, folder: Path, found: Live) -> None:
    """A live table opened from ``start_from`` (a player perhaps renamed hostile), lines
    typed, the journal closed, checked and resumed; what it finds goes into ``found``
    (the lines typed so far, should an exception end it)."""
    case = Case(start_from, rng, folder, found)
    played = _renamed(start_from, rng)
    try:
        if case.open(played.header, played.events, played.seating, played.deal):
            case.type_lines(played.events, rng.randint(3, 45))
            case.close_and_check()
    finally:
        if case.table is not None:
            case.table.journal.close()


def resume_case(start_from: Opening, rng: random.Random, folder: Path, found: Live) -> None:
    """``--resume`` of a journal cut at a random byte, of a file that is no transcript,
    or of a link: a file it refuses is left as it was; one it takes goes on."""
    case = Case(start_from, rng, folder, found)
    path = folder / "resumed.txt"
    kind = rng.random()
    if kind < 0.7:
        played = _renamed(start_from, rng)
        if not case.open(played.header, played.events, played.seating, played.deal):
            return
        assert case.table is not None
        case.type_lines(played.events, rng.randint(2, 25))
        case.table.journal.close()
        data = case.table.journal.path.read_bytes()
        cut = (rng.randint(max(0, len(data) - 40), len(data)) if rng.random() < 0.6
               else rng.randint(0, len(data)))
        path.write_bytes(data[:cut])
        case.table = None
    elif kind < 0.92:
        data = rng.choice(NOT_TRANSCRIPTS)
        if rng.random() < 0.4:
            text = mutate("\n".join([*start_from.header, *start_from.events]), rng)
            data = text.encode("utf-8", "surrogatepass")[:rng.randint(0, 1 << 16)]
        path.write_bytes(data)
    else:
        _plant_odd(case, path)
    _resumed(case, path, start_from)


def _plant_odd(case: Case, path: Path) -> None:
    """A link to a transcript, a FIFO, a folder: refused, nothing read or written."""
    choice = case.rng.randrange(3)
    if choice == 0:
        target = case.folder / "target.txt"
        target.write_bytes("\n".join([*case.opening.header, ""]).encode())
        path.symlink_to(target)
        case.planted.append(target)
    elif choice == 1 and hasattr(os, "mkfifo"):
        os.mkfifo(path)
    else:
        path.mkdir()
    case.planted.append(path)


def _resumed(case: Case, path: Path, start_from: Opening) -> None:
    before = case.snapshot()
    data = _state(path)
    warnings: list[str] = []
    try:
        case.table = resume(path, warnings.append)
    except RefereeError as error:
        case._refused(error, located=True)
        case.untouched(before)
        if _state(path) != data:
            case.found.problems.append("breach: --resume changed a file it refused")
        return
    case._said(warnings)
    case.untouched(before, but=path)
    try:
        after = path.read_bytes()
        if isinstance(data, bytes) and after != data:
            head = data[:data.rfind(b"\n") + 1]
            kept = after in (data + b"\n", data + b"\r\n") or (  # a CR LF file's own break
                after.startswith(head) and after[len(head):].startswith(CUT_MARK.encode()))
            if data.endswith(b"\n") or not kept:
                case.found.problems.append("breach: --resume changed more than a last line")
        rest = start_from.events[case.rng.randint(0, len(start_from.events)):]
        case.type_lines(rest, case.rng.randint(0, 10))
        case.close_and_check()
    finally:
        if case.table is not None:
            case.table.journal.close()


def clear(folder: Path) -> None:
    """Empty ``folder`` (links removed, never followed)."""
    for entry in list(folder.iterdir()):
        if entry.is_dir() and not entry.is_symlink():
            clear(entry)
            with contextlib.suppress(OSError):
                entry.rmdir()
        else:
            with contextlib.suppress(OSError):
                entry.unlink()
