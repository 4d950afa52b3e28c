"""Compiled rule files remembered on disk between runs, so that a cold ``referee check``
neither imports Lark nor parses the rules again.

An entry is found by a key made from the rule file's text, the options set, and a
fingerprint of the referee's own code and grammar (any change to them is a new
key). It records the text of every file it was compiled from, and is used only
while they all read the same. The folder is ``$REFEREE_CACHE_DIR``, else
``$XDG_CACHE_HOME/referee``, else ``~/.cache/referee``; it is made private to its
owner, and one owned by anybody else is not used. ``REFEREE_CACHE_DIR=off``
turns the cache off. Any problem reading or writing it is ignored: the cache only
ever saves time.

The folder is bounded: when an entry written takes it past ``MAX_FOLDER_BYTES``, the
least recently used entries (by the time of their last use, which every hit renews)
are removed until all of them together hold at most ``EVICT_TO`` of it. Only files
named as entries are counted or removed; anything else in the folder is left alone.
Counting means reading the whole folder, so a process counts only at its first
write and when what it has written since could have taken the folder past its bound:
a process writing many entries reads the folder once per quarter of the bound written,
not once per entry.
"""

from __future__ import annotations

import contextlib
import copyreg
import hashlib
import os
import pickle
import re
from pathlib import Path
from types import MappingProxyType
from typing import Any

from referee.caches import memoized, register
from referee.files import new_temporary
from referee.language.resources import grammar_path, package_dir

MAX_ENTRY_BYTES = 8 * 1024 * 1024  # the spec of the largest extends chain fits
MAX_FOLDER_BYTES = 64 * 1024 * 1024  # every entry together; the least recently used go first
ENTRY_SUFFIX = ".pickle"  # an entry's file is its key and this
EVICT_TO = 3 / 4  # of the bound: what eviction leaves, so that the next is far off
_ENTRY_NAME = re.compile(r"[0-9a-f]{64}" + re.escape(ENTRY_SUFFIX))


class _Ledger:
    """What this process knows of the cache folder's size: ``place`` held at most
    ``held`` bytes (what it held when last counted, and what this process wrote since;
    another process counts at its own first write)."""

    def __init__(self) -> None:
        self.place: Path | None = None
        self.held = 0

    def forget(self) -> None:
        """Know nothing of the folder: the next write counts it again."""
        self.place, self.held = None, 0


_LEDGER = _Ledger()
register("referee.language.cache._LEDGER", _LEDGER.forget, lambda: int(_LEDGER.place is not None))


def read_only(mapping: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    """A read-only view of ``mapping`` (how a pickled MappingProxyType is rebuilt)."""
    return MappingProxyType(mapping)


def _reduce_proxy(proxy: MappingProxyType[Any, Any]) -> tuple[object, tuple[dict[Any, Any]]]:
    return read_only, (dict(proxy),)


copyreg.pickle(MappingProxyType, _reduce_proxy)  # type: ignore[arg-type]


@memoized()
def folder() -> Path | None:
    """The cache folder, made if need be, or None when there is none to use."""
    chosen = os.environ.get("REFEREE_CACHE_DIR")
    if chosen == "off":
        return None
    if chosen:
        path = Path(chosen)
    else:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        path = Path(base) / "referee"
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        status = path.stat()
    except (OSError, RuntimeError):
        return None
    if not path.is_dir() or status.st_uid != os.getuid() or status.st_mode & 0o022:
        return None
    return path


@memoized()
def fingerprint() -> str:
    """A digest of the referee's code and grammar files: their names, sizes and times."""
    return code_fingerprint(package_dir(), grammar_path("rules.lark").parent)


def code_fingerprint(package: Path, grammar: Path) -> str:
    """A digest of every ``.py`` file under ``package``, in subpackages too, and of every
    ``.lark`` file in the ``grammar`` folder: their paths, sizes and modification times."""
    files = _files(str(grammar), "grammar/", ".lark", deep=False)
    files += _files(str(package), "", ".py", deep=True)
    digest = hashlib.sha256()
    for name, file in sorted(files):
        try:
            status = os.stat(file)
        except OSError:
            continue
        digest.update(f"{name}:{status.st_size}:{status.st_mtime_ns};".encode())
    return digest.hexdigest()


def _files(folder: str, prefix: str, suffix: str, *, deep: bool) -> list[tuple[str, str]]:
    """The files in ``folder`` (and, ``deep``, its folders but caches and links) whose
    names end in ``suffix``: each as its path from ``folder`` after ``prefix``, and its
    path. (``os.scandir``, not pathlib: a cold check takes this at every start.)"""
    found = []
    try:
        with os.scandir(folder) as listing:
            for entry in listing:
                if entry.name.endswith(suffix):
                    found.append((prefix + entry.name, entry.path))
                elif deep and entry.name != "__pycache__" and entry.is_dir(
                        follow_symlinks=False):
                    found += _files(entry.path, f"{prefix}{entry.name}/", suffix, deep=True)
    except OSError:
        pass
    return found


def key(*parts: str) -> str:
    """A cache key for these parts, under the current code's fingerprint."""
    digest = hashlib.sha256(fingerprint().encode())
    for part in parts:
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def load(name: str) -> Any:
    """The object stored under ``name``, or None."""
    place = folder()
    if place is None:
        return None
    try:
        with open(place / f"{name}.pickle", "rb") as file:
            data = file.read(MAX_ENTRY_BYTES + 1)
        if len(data) > MAX_ENTRY_BYTES:
            return None
        value = pickle.loads(data)
    except Exception:  # a missing, partial or stale entry: compile again
        return None
    _mark_used(place / f"{name}.pickle")
    return value


def _mark_used(entry: Path) -> None:
    """Renew an entry's time: eviction takes the least recently used first."""
    with contextlib.suppress(OSError):
        os.utime(entry)


def store(name: str, value: object) -> None:
    """Store ``value`` under ``name`` (atomically: a reader sees all of it or nothing)."""
    place = folder()
    if place is None:
        return
    try:
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        if len(data) > MAX_ENTRY_BYTES:
            return
        descriptor, temporary = new_temporary(place / f"{name}.pickle", 0o600)
        try:
            with os.fdopen(descriptor, "wb") as file:
                file.write(data)
            os.replace(temporary, place / f"{name}.pickle")
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        return
    _written(place, len(data))


def _written(place: Path, size: int) -> None:
    """Count an entry of ``size`` bytes just written into ``place``; when the folder may
    now hold more than its bound, count it again and evict down to ``EVICT_TO`` of it."""
    ledger = _LEDGER
    if ledger.place == place and ledger.held + size <= MAX_FOLDER_BYTES:
        ledger.held += size
        return
    ledger.place = place
    ledger.held = evict(place, MAX_FOLDER_BYTES, int(MAX_FOLDER_BYTES * EVICT_TO))


def clear_folder() -> int:
    """Remove every entry of the cache folder (files not named as entries stay); the
    number removed. Entries are keyed by content and code, so this only costs time."""
    place = folder()
    if place is None:
        return 0
    removed = 0
    with contextlib.suppress(OSError), os.scandir(place) as listing:
        for item in listing:
            if is_entry(item.name) and item.is_file(follow_symlinks=False):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(item.path)
                    removed += 1
    _LEDGER.forget()
    return removed


def is_entry(file_name: str) -> bool:
    """Whether a file in the cache folder is named as an entry: a key and the suffix."""
    return _ENTRY_NAME.fullmatch(file_name) is not None


def evict(place: Path, keep: int, down_to: int | None = None) -> int:
    """When the entries in ``place`` hold more than ``keep`` bytes, remove the least
    recently used until the rest hold at most ``down_to`` (default: ``keep``); the bytes
    they hold then. Files not named as entries are neither counted nor removed."""
    entries: list[tuple[int, int, str]] = []
    try:
        with os.scandir(place) as listing:
            for item in listing:
                if is_entry(item.name) and item.is_file(follow_symlinks=False):
                    status = item.stat(follow_symlinks=False)
                    entries.append((status.st_mtime_ns, status.st_size, item.path))
    except OSError:
        return 0
    total = sum(size for _, size, _ in entries)
    if total <= keep:
        return total
    down_to = keep if down_to is None else down_to
    for _, size, path in sorted(entries):
        if total <= down_to:
            break
        try:
            os.unlink(path)
        except FileNotFoundError:  # another process took it first
            pass
        except OSError:
            continue
        total -= size
    return total
