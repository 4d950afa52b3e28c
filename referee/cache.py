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
"""

from __future__ import annotations

import contextlib
import copyreg
import hashlib
import os
import pickle
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from referee.files import new_temporary
from referee.resources import grammar_path

MAX_ENTRY_BYTES = 4 * 1024 * 1024


def read_only(mapping: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    """A read-only view of ``mapping`` (how a pickled MappingProxyType is rebuilt)."""
    return MappingProxyType(mapping)


def _reduce_proxy(proxy: MappingProxyType[Any, Any]) -> tuple[object, tuple[dict[Any, Any]]]:
    return read_only, (dict(proxy),)


copyreg.pickle(MappingProxyType, _reduce_proxy)  # type: ignore[arg-type]


@cache
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


@cache
def fingerprint() -> str:
    """A digest of the referee's code and grammar files: their names, sizes and times."""
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent
    for file in sorted([*package.glob("*.py"), grammar_path("rules.lark")]):
        try:
            status = file.stat()
        except OSError:
            continue
        digest.update(f"{file.name}:{status.st_size}:{status.st_mtime_ns};".encode())
    return digest.hexdigest()


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
        return pickle.loads(data)
    except Exception:  # a missing, partial or stale entry: compile again
        return None


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
