"""A table's files under ``--data``: its transcript, which ``referee check`` reads, and
its metadata (the tokens), both written so that a kill loses nothing accepted.

The transcript follows :meth:`referee.Game.transcript`: each change that adds lines is
appended and flushed to the disk (fsync) before the server answers, as ``referee play``
writes its journal; an undo cuts the file back; a hand entered after events (its line
goes into the deal, above them) writes a new file whole beside the old and renames it
over it. Files are made exclusively (never over a file or through a link).
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

from referee.files import NEW_FILE, new_temporary, put_in_place, sync_folder, write_all
from referee.live.journal import open_to_resume

PRIVATE = 0o600  # the metadata holds every seat's token


class TranscriptFile:
    """A table's transcript file, open, and the text it holds."""

    def __init__(self, path: Path, fd: int, data: bytes) -> None:
        self.path = path
        self._fd = fd
        self._data = data

    @classmethod
    def create(cls, path: Path, text: str) -> TranscriptFile:
        """A new file at ``path`` holding ``text``; FileExistsError if anything is there."""
        fd = os.open(path, NEW_FILE, PRIVATE)
        journal = cls(path, fd, b"")
        journal.write(text)
        sync_folder(path)
        return journal

    @classmethod
    def reopen(cls, path: Path) -> tuple[TranscriptFile, str]:
        """The file at ``path`` (never through a link), and its text."""
        fd, data = open_to_resume(path)
        return cls(path, fd, data), data.decode("utf-8")

    def write(self, text: str) -> None:
        """Make the file hold ``text``: lines added at the end are appended, lines taken
        back are cut away, anything else writes the file anew; on the disk on return."""
        data = text.encode("utf-8")
        old = self._data
        if data == old:
            return
        if data.startswith(old):
            os.lseek(self._fd, len(old), os.SEEK_SET)
            write_all(self._fd, data[len(old):])
            os.fsync(self._fd)
        elif old.startswith(data):
            os.ftruncate(self._fd, len(data))
            os.fsync(self._fd)
        else:
            fd, temporary = new_temporary(self.path, PRIVATE)
            try:
                write_all(fd, data)
                os.fsync(fd)
                put_in_place(temporary, self.path)
            except OSError:
                os.close(fd)
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
                raise
            self.close()
            self._fd = fd
        self._data = data

    def close(self) -> None:
        """Close the file (everything is on the disk already)."""
        with contextlib.suppress(OSError):
            os.close(self._fd)


def write_metadata(path: Path, metadata: dict[str, Any]) -> None:
    """Write a table's metadata whole beside ``path`` and rename it into place."""
    fd, temporary = new_temporary(path, PRIVATE)
    try:
        try:
            write_all(fd, json.dumps(metadata, indent=1).encode())
            os.fsync(fd)
        finally:
            os.close(fd)
        put_in_place(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def read_metadata(path: Path) -> dict[str, Any]:
    """A table's metadata, never read through a link."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(fd, "rb") as handle:
        found = json.loads(handle.read(1_000_000))
    if not isinstance(found, dict):
        raise ValueError(f"{path} is not a table's metadata")
    return found
