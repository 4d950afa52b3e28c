"""The live table's transcript file: every accepted event is on disk before the referee
answers, so that a kill, a Ctrl-C or a closed terminal loses nothing.

The file is a transcript ``referee check`` reads: the header, then one line for each
event (a new hand's deal lines after its ``hand N``). Each write appends whole lines
in one system call and is flushed to the disk (fsync) before :meth:`Journal.append`
returns; taking an event back truncates the file to where its lines began.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from referee.errors import Kind, RefereeError
from referee.reading import MAX_TRANSCRIPT_BYTES, decode, read_capped
from referee.values import factory, frozen, mutable


@frozen
class Entry:
    """Where an event's lines begin in the file: a byte offset and a line count before
    them; ``shared`` when the event shares its line with the event before (a file typed
    by hand), so that it cannot be cut away alone."""

    offset: int
    lines: int
    shared: bool = False


@mutable
class Journal:
    """An open transcript file, its lines, and where each event's lines begin."""

    path: Path
    fd: int
    lines: list[str]
    size: int
    entries: list[Entry] = factory(list)
    starts: list[int] = factory(list)  # each line's byte offset, when reopened

    @classmethod
    def create(cls, path: Path, header: list[str]) -> Journal:
        """Start a new file with ``header`` and a blank line; an existing file is never
        overwritten."""
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            raise RefereeError(Kind.USAGE, f"{path} exists already: continue it with "
                               f"--resume {path}, or name another file with --out") from None
        except OSError as exc:
            raise RefereeError(Kind.USAGE, f"cannot write {path}: "
                               f"{exc.strerror or exc}") from None
        journal = cls(path, fd, [], 0)
        journal.append([*header, ""])
        _sync_folder(path)
        return journal

    @classmethod
    def reopen(cls, path: Path) -> tuple[Journal, str, str | None]:
        """Open a file to go on writing it: the journal, the file's text, and a warning
        when its last line was cut short (by a kill in the middle of a write): that line
        is dropped from the file."""
        data = read_capped(path, MAX_TRANSCRIPT_BYTES, Kind.USAGE, "a transcript")
        warning = None
        if data and not data.endswith(b"\n"):
            end = data.rfind(b"\n") + 1
            cut = data[end:].decode("utf-8", "replace")
            warning = (f"{path}: the last line was cut short and is ignored: "
                       f"{cut[:60]!r}{'...' if len(cut) > 60 else ''}")
            data = data[:end]
        text = decode(data, str(path), Kind.SYNTAX)
        try:
            fd = os.open(path, os.O_WRONLY)
            if warning is not None:
                os.ftruncate(fd, len(data))
                os.fsync(fd)
        except OSError as exc:
            raise RefereeError(Kind.USAGE, f"cannot write {path}: "
                               f"{exc.strerror or exc}") from None
        lines = text.split("\n")[:-1] if text else []
        starts = [0]
        for line in lines:
            starts.append(starts[-1] + len(line.encode()) + 1)
        return cls(path, fd, lines, len(data), starts=starts), text, warning

    @property
    def next_line(self) -> int:
        """The number the next line written will have."""
        return len(self.lines) + 1

    def mark(self, line: int) -> None:
        """Note that an event's lines begin at ``line``, in the file as reopened."""
        shared = bool(self.entries) and self.entries[-1].lines + 1 == line
        self.entries.append(Entry(self.starts[line - 1], line - 1, shared))

    def append(self, lines: list[str], *, event: bool = False) -> None:
        """Write ``lines`` at the end of the file and flush them to the disk; with
        ``event``, they are an event's, which :meth:`take_back` may cut away."""
        if event:
            self.entries.append(Entry(self.size, len(self.lines)))
        data = "".join(line + "\n" for line in lines).encode()
        self._write(data)
        self.lines += lines
        self.size += len(data)

    def can_take_back(self) -> bool:
        """Whether the last event's lines can be cut away alone."""
        return bool(self.entries) and not self.entries[-1].shared

    def take_back(self) -> None:
        """Cut the last event's lines, and everything after them, from the file."""
        entry = self.entries.pop()
        try:
            os.ftruncate(self.fd, entry.offset)
            os.fsync(self.fd)
        except OSError as exc:
            raise RefereeError(Kind.USAGE, f"cannot write {self.path}: "
                               f"{exc.strerror or exc}") from None
        del self.lines[entry.lines:]
        self.size = entry.offset

    def text(self) -> str:
        """The whole file as written."""
        return "".join(line + "\n" for line in self.lines)

    def close(self) -> None:
        """Close the file (everything is on disk already)."""
        with contextlib.suppress(OSError):
            os.close(self.fd)

    def _write(self, data: bytes) -> None:
        try:
            os.lseek(self.fd, self.size, os.SEEK_SET)
            done = 0
            while done < len(data):
                done += os.write(self.fd, data[done:])
            os.fsync(self.fd)
        except OSError as exc:
            raise RefereeError(Kind.USAGE, f"cannot write {self.path}: "
                               f"{exc.strerror or exc}") from None


def save_copy(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole (a new file put in place of the old at once)."""
    temporary = path.with_name(f".{path.name}.saving")
    try:
        with open(temporary, "w", encoding="utf-8", newline="\n") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise RefereeError(Kind.USAGE, f"cannot save {path}: {exc.strerror or exc}") from None


def _sync_folder(path: Path) -> None:
    """Flush the new file's name in its folder to the disk too."""
    with contextlib.suppress(OSError):
        fd = os.open(path.parent if str(path.parent) else Path(), os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
