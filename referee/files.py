"""Files the referee writes: a new file is made exclusively, so that nothing already
there is overwritten and no link is followed; replacing one is for the user to ask
(``--force``), and then a new file is written whole and put in place of the old at
once (a link there is replaced itself, never written through).

Temporary files are made exclusively too, beside their target, under names nobody can
guess in advance.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from referee.errors import Kind, RefereeError

NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
FILE_MODE = 0o644  # less the user's umask, as any editor's new file


def create_new(path: Path) -> int:
    """A write descriptor of a new file at ``path``; FileExistsError if anything is
    there, a dangling link included."""
    return os.open(path, NEW_FILE, FILE_MODE)


def new_temporary(path: Path, mode: int = FILE_MODE) -> tuple[int, Path]:
    """A new file beside ``path`` under an unpredictable name, open for writing."""
    for _ in range(8):
        temporary = path.with_name(f".{path.name[:120]}.{os.urandom(8).hex()}.tmp")
        try:
            return os.open(temporary, NEW_FILE, mode), temporary
        except FileExistsError:
            continue
    raise FileExistsError(f"no new temporary name beside {path}")


def put_in_place(temporary: Path, path: Path) -> None:
    """Rename ``temporary`` over ``path`` (whatever is there, a link itself included)
    and flush the folder's new entry to the disk."""
    os.replace(temporary, path)
    sync_folder(path)


def exists_message(path: Path, hint: str) -> str:
    """Why ``path`` is not written, and what to do."""
    link = " (a symbolic link)" if os.path.islink(path) else ""
    return f"{path} exists already{link}: {hint}"


def write_file(path: Path, data: bytes, *, force: bool, hint: str, verb: str = "write"
               ) -> None:
    """Write ``data`` as a new file at ``path``. With ``force``, anything at ``path``
    is replaced at once by the whole new file; without, an existing ``path`` is a usage
    error ending in ``hint`` (``add --force to replace it``). A failure to write is a
    usage error (``cannot write PATH: ...``, with ``verb`` for write) and leaves nothing
    behind."""
    try:
        descriptor, made = new_temporary(path) if force else (create_new(path), path)
    except FileExistsError:
        if force:
            raise RefereeError(Kind.USAGE, f"cannot {verb} {path}: no new temporary file "
                               "could be made beside it") from None
        raise RefereeError(Kind.USAGE, exists_message(path, hint)) from None
    except OSError as exc:
        raise RefereeError(Kind.USAGE, f"cannot {verb} {path}: {exc.strerror or exc}"
                           ) from None
    try:
        try:
            write_all(descriptor, data)
            if force:
                os.fsync(descriptor)
        finally:
            os.close(descriptor)
        if force:
            put_in_place(made, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(made)
        raise RefereeError(Kind.USAGE, f"cannot {verb} {path}: {exc.strerror or exc}"
                           ) from None


def refuse_existing(path: Path, hint: str) -> None:
    """A usage error if anything is at ``path`` (a link, even dangling, included)."""
    if os.path.lexists(path):
        raise RefereeError(Kind.USAGE, exists_message(path, hint))


def write_all(descriptor: int, data: bytes) -> None:
    """Write all of ``data`` (a write may take only part of it)."""
    done = 0
    while done < len(data):
        done += os.write(descriptor, data[done:])


def sync_folder(path: Path) -> None:
    """Flush the folder entry of ``path`` to the disk too (where the system can)."""
    with contextlib.suppress(OSError):
        descriptor = os.open(path.parent if str(path.parent) else Path(), os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
