"""The live table's transcript file: every accepted event is on disk before the referee
answers, so that a kill, a Ctrl-C or a closed terminal loses nothing.

The file is a transcript ``referee check`` reads: the header, then one line for each
event (a new hand's deal lines after its ``hand N``). Each write appends whole lines
in one system call and is flushed to the disk (fsync) before :meth:`Journal.append`
returns; taking an event back truncates the file to where its lines began. A new
file is made exclusively (never over a file or through a link) unless ``--force``
replaces it; a file resumed is read and replayed before anything in it is written.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from referee import files
from referee.errors import Kind, RefereeError, Span
from referee.reading import (
    MAX_TRANSCRIPT_BYTES,
    decode,
    first_line,
    read_open_file,
    require_regular,
)
from referee.values import factory, frozen, mutable

_RESUME_FLAGS = (os.O_RDWR | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
                 | getattr(os, "O_NOCTTY", 0))


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
    newline: str = "\n"  # the file's line break: a file written with CR LF goes on so

    @classmethod
    def create(cls, path: Path, header: list[str], *, force: bool = False) -> Journal:
        """Start a new file with ``header`` and a blank line. An existing file (or a
        link) is never overwritten; with ``force``, it is replaced at once by the new
        file, written whole beside it first."""
        temporary: Path | None = None
        try:
            if force:
                fd, temporary = files.new_temporary(path)
            else:
                fd = files.create_new(path)
        except FileExistsError:
            raise RefereeError(Kind.USAGE, files.exists_message(
                path, f"continue it with --resume {path}, name another file with --out, "
                "or replace it with --force")) from None
        except OSError as exc:
            raise RefereeError(Kind.USAGE, f"cannot write {path}: "
                               f"{exc.strerror or exc}") from None
        journal = cls(path, fd, [], 0)
        try:
            journal.append([*header, ""])
            if temporary is not None:
                files.put_in_place(temporary, path)
        except (RefereeError, OSError) as exc:
            journal.close()
            with contextlib.suppress(OSError):
                os.unlink(temporary or path)
            if isinstance(exc, RefereeError):
                raise
            raise RefereeError(Kind.USAGE, f"cannot write {path}: "
                               f"{exc.strerror or exc}") from None
        files.sync_folder(path)
        return journal

    @classmethod
    def resumed(cls, path: Path, fd: int, data: bytes) -> Journal:
        """The journal of a file to go on with, open at ``fd``, as read: ``data``, which
        may end in a line without a line break. Lines are kept without the carriage
        return of a file written with CR LF line breaks, and the lines added end as the
        file's first line does. Nothing is written."""
        text = decode(data, str(path), Kind.SYNTAX)
        if b"\r" in data and b"\n" not in data:  # read so by line_feeds: not to write on
            raise RefereeError(Kind.SYNTAX, "this file ends its lines with a carriage "
                               "return alone (classic Mac OS); 'referee check' reads it, but "
                               "a table cannot go on writing it: save it with line feeds "
                               "first", Span(1, 1, first_line(text), str(path)))
        raw = text.split("\n")
        if raw[-1] == "":
            raw.pop()
        starts = [len(data) - len(text.encode())]  # a byte-order mark before the first
        for line in raw:
            starts.append(starts[-1] + len(line.encode()) + 1)
        lines = [line[:-1] if line.endswith("\r") else line for line in raw]
        newline = "\r\n" if raw and raw[0].endswith("\r") else "\n"
        return cls(path, fd, lines, len(data), starts=starts, newline=newline)

    def end_last_line(self) -> None:
        """Give the last line, read without a line break, its line break (the line feed
        alone after a carriage return)."""
        try:
            ends_in_return = os.pread(self.fd, 1, self.size - 1) == b"\r"
        except OSError:
            ends_in_return = False
        data = b"\n" if ends_in_return else self.newline.encode()
        self._write(data)
        self.size += len(data)

    def keep_cut_line(self, head: bytes, comment: str) -> None:
        """Put ``comment`` in place of the line cut short after ``head`` (the file's
        bytes up to its last line break, as this journal read them): a new file, written
        whole beside the old and renamed over it, so that a kill now loses nothing."""
        data = head + (comment + self.newline).encode()
        try:
            fd, temporary = files.new_temporary(self.path)
        except OSError as exc:
            raise RefereeError(Kind.USAGE, f"cannot write {self.path}: "
                               f"{exc.strerror or exc}") from None
        try:
            if hasattr(os, "fchmod"):  # the old file's permissions
                os.fchmod(fd, stat.S_IMODE(os.fstat(self.fd).st_mode))
            files.write_all(fd, data)
            os.fsync(fd)
            files.put_in_place(temporary, self.path)
        except OSError as exc:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise RefereeError(Kind.USAGE, f"cannot write {self.path}: "
                               f"{exc.strerror or exc}") from None
        self.close()
        self.fd = fd
        self.lines.append(comment)
        self.size = len(data)

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
        data = "".join(line + self.newline for line in lines).encode()
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
            files.write_all(self.fd, data)
            os.fsync(self.fd)
        except OSError as exc:
            raise RefereeError(Kind.USAGE, f"cannot write {self.path}: "
                               f"{exc.strerror or exc}") from None


def open_to_resume(path: Path) -> tuple[int, bytes]:
    """The file to go on with, open to read and write, and its bytes; nothing in it is
    changed. Anything but a regular file is refused, and so is a link: the file it
    leads to is resumed by its own name."""
    try:
        status = os.lstat(path)
    except OSError as exc:
        raise RefereeError(Kind.USAGE, f"cannot read {path}: {exc.strerror or exc}") from None
    if stat.S_ISLNK(status.st_mode):
        raise RefereeError(Kind.USAGE, f"{path} is a symbolic link: go on with the file it "
                           "leads to by its own name")
    require_regular(path, status.st_mode, Kind.USAGE)  # opening a device may do something
    try:
        fd = os.open(path, _RESUME_FLAGS)
    except OSError as exc:
        raise RefereeError(Kind.USAGE, f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        return fd, read_open_file(fd, path, MAX_TRANSCRIPT_BYTES, Kind.USAGE, "a transcript")
    except BaseException:
        os.close(fd)
        raise


def save_copy(path: Path, text: str, *, force: bool = False) -> None:
    """Write ``text`` to ``path`` as a new file; with ``force``, in place of what is
    there (a new file written whole, then renamed over it)."""
    files.write_file(path, text.encode(), force=force, verb="save",
                     hint=f"'save --force {path}' replaces it")
