"""Reading untrusted input: regular files only, every read capped, numbers in ASCII.

Rule files and transcripts come from anyone. A path is checked before it is
opened and again once open, so a device, a FIFO or a folder is refused rather
than read; a read takes at most one byte more than the cap, whatever the file
claims its size is (``/proc`` files claim 0). Lines end at ``\\n`` (or
``\\r\\n``) only, as an editor counts them (``\\r`` alone in a file without one
``\\n``: a classic Mac OS file), and a leading UTF-8 byte-order mark is dropped.

>>> lines_of("a\\r\\nb\\u2028c\\n")
['a', 'b\\u2028c']
>>> ascii_number("12"), ascii_number("²"), ascii_number("1" * 30)
(12, None, None)
"""

from __future__ import annotations

import codecs
import os
import stat
import sys
from pathlib import Path
from typing import BinaryIO

from referee.errors import Kind, RefereeError, Span, undecodable

STDIN = "-"
RULE_SUFFIX = ".rules"  # the only files read as rule files
MAX_RULE_FILE_BYTES = 256 * 1024  # a rule file
MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024
READ_CHUNK = 1024 * 1024  # files are read this much at a time
MAX_DIGITS = 18  # longer numbers are refused before int() sees them
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)


def is_digits(text: str) -> bool:
    """Whether ``text`` is ASCII digits only (``str.isdigit`` also takes ``²`` and ``⑤``)."""
    return text.isascii() and text.isdigit()


def ascii_number(text: str, max_digits: int = MAX_DIGITS) -> int | None:
    """The whole number ``text`` writes in ASCII digits, or None if it is not one or
    has more than ``max_digits`` digits (leading zeros aside)."""
    significant = text.lstrip("0")
    if not is_digits(text) or len(significant) > max_digits:
        return None
    return int(significant or "0")  # int() counts leading zeros against its digit limit


def quoted(text: str, limit: int = 24) -> str:
    """``text`` quoted for a message, cut short if long (a 5,000-digit number).

    >>> quoted("1" * 30)
    "'111111111111111111111111...' (30 characters)"
    """
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}"[:-1] + f"...' ({len(text)} characters)"


def line_feeds(text: str) -> str:
    """``text`` with ``\\n`` for each ``\\r`` if it has no ``\\n`` at all: a file saved
    with classic Mac OS line ends, read as an editor reads it (one character for one)."""
    return text.replace("\r", "\n") if "\r" in text and "\n" not in text else text


def lines_of(text: str) -> list[str]:
    """The lines of ``text`` as an editor numbers them: split at ``\\n`` only, a
    ``\\r`` before it dropped (at ``\\r`` in a file without one ``\\n``,
    :func:`line_feeds`); no empty last line for a final newline."""
    lines = line_feeds(text).split("\n")
    if lines[-1] == "":
        lines.pop()
    if "\r" not in text:
        return lines
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def first_line(text: str) -> str:
    """The first line of ``text``, as :func:`lines_of` would give it."""
    line = text.removeprefix("\ufeff").partition("\n")[0]
    return line[:-1] if line.endswith("\r") else line


class Unreadable(RefereeError):
    """A file that cannot be read, or is over its cap. The file that names it (by
    ``extends:`` or ``game:``) is the place to blame; a file too big that nobody
    names is placed at its first byte past the cap."""


_WIDE_MARKS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
               (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
_SHOWN_BYTES = 960  # of a file in another encoding, read to show its first line
_SNIFFED_BYTES = 64  # of a file without a byte-order mark, read to tell UTF-16 or 32


def _wide_encoding(data: bytes) -> tuple[str, str] | None:
    """The codec of UTF-16 or UTF-32 ``data`` and how it was told: by its byte-order
    mark, or (without one) by a start of ASCII characters padded with zero bytes; None
    for any other ``data``."""
    for mark, codec in _WIDE_MARKS:
        if data.startswith(mark):
            return codec, f"it starts with a {codec.upper()} byte-order mark"
    start = data[:_SNIFFED_BYTES]
    if b"\x00" not in start:
        return None
    for width, codec in ((4, "utf-32"), (2, "utf-16")):
        usable = len(start) - len(start) % width
        for low, order in ((0, "le"), (width - 1, "be")):
            if usable >= 2 * width and all(
                    (byte != 0) == (index % width == low) and byte < 128
                    for index, byte in enumerate(start[:usable])):
                return f"{codec}-{order}", "its characters are padded with zero bytes"
    return None


def decode(data: bytes, source: str, kind: Kind) -> str:
    """UTF-8 ``data`` as text, without a leading byte-order mark; bytes that are not
    UTF-8 raise a ``kind`` error at their line and column, and a UTF-16 or UTF-32 file
    one that says so, at its first line."""
    data = data.removeprefix(codecs.BOM_UTF8)
    wide = _wide_encoding(data)
    if wide is not None:  # Notepad's "Unicode", PowerShell's `>`: a clear word, not noise
        codec, why = wide
        shown = first_line(data[:_SHOWN_BYTES].decode(codec, "replace").lstrip("\ufeff"))
        raise RefereeError(kind, f"this file is {codec[:6].upper()} text ({why}); save it "
                           "as UTF-8", Span(1, 1, shown, source))
    try:
        return line_feeds(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise RefereeError(kind, "this line is not UTF-8 text",
                           undecodable(data, exc, source)) from None


def read_capped(path: Path, limit: int, kind: Kind, what: str) -> bytes:
    """The bytes of the regular file at ``path`` (``-``: standard input), refusing
    anything else and anything over ``limit`` bytes with a ``kind`` error; ``what``
    names the file's kind in messages (``a rule file``)."""
    source = "<stdin>" if str(path) == STDIN else str(path)
    if str(path) == STDIN:
        return _capped(_read_up_to(sys.stdin.buffer, limit + 1), source, limit, kind, what)
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError) as exc:
        raise Unreadable(kind, f"cannot read {path}: {_reason(exc)}") from None
    require_regular(path, mode, kind)  # a RefereeError, itself a ValueError: not caught above
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except (OSError, ValueError) as exc:
        raise Unreadable(kind, f"cannot read {path}: {_reason(exc)}") from None
    with open(fd, "rb", closefd=True) as file:
        require_regular(path, os.fstat(fd).st_mode, kind)  # it may have changed meanwhile
        try:
            data = _read_up_to(file, limit + 1)
        except OSError as exc:
            raise Unreadable(kind, f"cannot read {path}: {_reason(exc)}") from None
    return _capped(data, source, limit, kind, what)


def read_open_file(fd: int, path: Path, limit: int, kind: Kind, what: str) -> bytes:
    """:func:`read_capped` of a file already open at ``fd`` (read from its start and
    left open)."""
    require_regular(path, os.fstat(fd).st_mode, kind)
    os.lseek(fd, 0, os.SEEK_SET)
    with open(fd, "rb", closefd=False) as file:
        try:
            data = _read_up_to(file, limit + 1)
        except OSError as exc:
            raise Unreadable(kind, f"cannot read {path}: {_reason(exc)}") from None
    return _capped(data, str(path), limit, kind, what)


def _read_up_to(file: BinaryIO, size: int) -> bytes:
    """At most ``size`` bytes, read a chunk at a time: one read of ``size`` would
    allocate all of it at once, however small the file."""
    chunks: list[bytes] = []
    left = size
    while left > 0:
        chunk = file.read(min(READ_CHUNK, left))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _capped(data: bytes, source: str, limit: int, kind: Kind, what: str) -> bytes:
    if len(data) <= limit:
        return data
    line = data.count(b"\n", 0, limit) + 1
    start = data.rfind(b"\n", 0, limit) + 1
    end = data.find(b"\n", limit)
    text = data[start: None if end < 0 else end].decode("utf-8", "replace")
    column = len(data[start:limit].decode("utf-8", "replace")) + 1
    raise Unreadable(kind, f"{source} is over {_size(limit)}, the most {what} may hold; "
                     "it goes past that here", Span(line, column, text.rstrip("\r"), source))


def require_regular(path: Path, mode: int, kind: Kind) -> None:
    """Refuse, as ``kind``, anything at ``path`` (of ``mode``) but a regular file."""
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):
        found = "a folder"
    elif stat.S_ISFIFO(mode):
        found = "a pipe (FIFO)"
    elif stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        found = "a device"
    elif stat.S_ISSOCK(mode):
        found = "a socket"
    else:
        found = "not a plain file"
    raise Unreadable(kind, f"cannot read {path}: it is {found}, not a regular file")


def _reason(exc: OSError | ValueError) -> str:
    if isinstance(exc, ValueError):
        return "the name holds a NUL character"
    return exc.strerror or str(exc)


def _size(limit: int) -> str:
    for unit, size in (("MiB", 1024 * 1024), ("KiB", 1024)):
        if limit >= size and limit % size == 0:
            return f"{limit // size} {unit}"
    return f"{limit} bytes"


def read_rule_file(path: Path) -> bytes:
    """A rule file's bytes, within its cap. A link must lead to a file whose name ends
    in ``.rules`` too: ``mine.rules`` linked to a secret file would have it quoted."""
    target = os.path.realpath(path)
    if not target.endswith(RULE_SUFFIX):
        raise Unreadable(Kind.RULES, f"cannot read {path}: it links to {quoted(target, 80)}, "
                         "whose name does not end in .rules")
    return read_capped(path, MAX_RULE_FILE_BYTES, Kind.RULES, "a rule file")
