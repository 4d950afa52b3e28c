"""A rule file's compiled spec, remembered: in this process (a memo) and on disk
(``referee/language/cache.py``), each used again only while the files it was compiled from,
through every ``extends``, still read the same."""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from referee.caches import memo
from referee.errors import Kind, RefereeError
from referee.language import cache
from referee.language.compiler import rule_book
from referee.language.rulefiles import find_rule_file
from referee.language.spec import GameSpec
from referee.reading import decode, read_rule_file
from referee.values import replace

if TYPE_CHECKING:
    from referee.language.ast import RuleFile

MAX_REMEMBERED = 256  # specs remembered in one process ...
MAX_REMEMBERED_OPTIONS = 1 << 20  # ... holding at most this many option values in all

Chain = tuple[tuple[str, str | None], ...]  # each file compiled from: its text's digest, its base
Stamp = tuple[int, int, int, int, int]  # a file's device, inode, size, modification, change
Stamps = tuple[Stamp | None, ...]  # the chain's files' stamps when read; None: not to be trusted
SETTLED_NS = 2_000_000_000  # a file unchanged this long before it is looked at keeps its stamp
_LOADED: dict[tuple[str, tuple[tuple[str, str], ...]], tuple[Chain, Stamps, GameSpec]] = memo(
    "referee.language.loader._LOADED")


def load_spec(path: Path, options: Mapping[str, str] | None = None) -> GameSpec:
    """Compile the rule file at ``path`` (and its bases) with option values set.

    A spec is remembered, in this process and on disk (referee/language/cache.py), with the
    chain of files it was compiled from: a digest of each file's text and the base its
    ``extends`` names. It is used again only while the files found now, from ``path``
    through each ``extends``, read the same (a file rewritten in place, or a base that
    appears beside a rule file, is compiled): what a check compiles never depends on
    what was compiled before. A file is not read again while its stamp (``os.stat``,
    its change time included) is the one taken when it was last read, at least
    ``SETTLED_NS`` after it last changed: a write then changes the stamp, however coarse
    the file system's clock."""
    chosen = tuple(sorted((options or {}).items()))
    key = (str(path), chosen)
    found = _LOADED.get(key)
    if found is not None:
        stamps = _chain_holds(str(path), found[0], found[1])
        if stamps is not None:
            if stamps != found[1]:
                _LOADED[key] = (found[0], stamps, found[2])
            return found[2]
    stored = _from_disk(path, chosen)
    if stored is not None:
        chain, stamps, spec = stored
        if spec.source != str(path):  # compiled from another spelling of the same file
            spec = replace(spec, source=str(path))
    else:
        from referee.language.extends import load_layers  # only to compile: a hit reads no layer

        layers = load_layers(path)
        spec = rule_book(tuple(layers)).spec(dict(chosen))
        chain, stamps = _chain(layers)
        _to_disk(path, chosen, chain, spec)
    _remember(key, chain, stamps, spec)
    return spec


def _remember(key: tuple[str, tuple[tuple[str, str], ...]], chain: Chain, stamps: Stamps,
              spec: GameSpec) -> None:
    """Keep ``spec`` for this process, within a bound on the specs kept and on the option
    values they hold (a file may declare thousands of options)."""
    held = sum(len(kept.options) for _, _, kept in _LOADED.values())
    if len(_LOADED) >= MAX_REMEMBERED or held + len(spec.options) > MAX_REMEMBERED_OPTIONS:
        _LOADED.clear()
    _LOADED[key] = (chain, stamps, spec)


def _text(path: Path | str) -> str | None:
    """A rule file's text, or None when it cannot be read within its cap."""
    try:
        data = read_rule_file(Path(path))
        return decode(data, str(path), Kind.RULES)
    except RefereeError:
        return None


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _stamp(file: str) -> Stamp | None:
    """A file's stamp, or None when it cannot be seen."""
    try:
        status = os.stat(file)
    except (OSError, ValueError):
        return None
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns,
            status.st_ctime_ns)


def _settled(stamp: Stamp | None) -> Stamp | None:
    """``stamp``, if the file last changed long enough ago for any later write to change
    it; else None (its text is to be read again)."""
    if stamp is None or stamp[4] > time.time_ns() - SETTLED_NS:
        return None
    return stamp


def _chain(layers: list[RuleFile]) -> tuple[Chain, Stamps]:
    """What a spec compiled from ``layers`` (the furthest base first) depends on, the
    rule file itself first, and the files' stamps; empty (nothing is remembered) when a
    file cannot be read again or no longer reads as it was parsed (it changed while it
    was compiled)."""
    from referee.language.syntax import parse_rules_text  # loaded: the layers were just parsed

    chain = []
    stamps = []
    for layer in reversed(layers):
        stamp = _stamp(layer.path)  # before the text: a write after it changes the stamp
        text = _text(layer.path)
        try:
            if text is None or parse_rules_text(text, layer.path, layer.name) is not layer:
                return (), ()  # parses are remembered by text: the same text, the same layer
        except RefereeError:
            return (), ()
        base = next((s.words[0].text for s in layer.statements if s.kind == "extends"), None)
        chain.append((_digest(text), base))
        stamps.append(_settled(stamp))
    return tuple(chain), tuple(stamps)


def _chain_holds(path: str, chain: Chain, stamps: Stamps) -> Stamps | None:
    """Whether the files found now, from ``path`` through each ``extends``, read as the
    files ``chain`` was made from: then their stamps, else None. A file whose stamp is
    the one in ``stamps`` is not read again."""
    file = path
    seen: list[Stamp | None] = []
    for index, (digest, base) in enumerate(chain):
        stamp = _stamp(file)  # before the text: a write after it changes the stamp
        if stamp is None or index >= len(stamps) or stamp != stamps[index]:
            text = _text(file)
            if text is None or _digest(text) != digest:
                return None
        seen.append(_settled(stamp))
        if base is None:
            return tuple(seen) if index + 1 == len(chain) else None
        found = find_rule_file(base, Path(file).parent)
        if found is None:
            return None
        file = str(found)
    return None


def _disk_key(path: Path, chosen: tuple[tuple[str, str], ...]) -> str | None:
    text = _text(path)
    if text is None:
        return None
    return cache.key("spec", str(path.resolve()), text, repr(chosen))


def _from_disk(path: Path, chosen: tuple[tuple[str, str], ...]
               ) -> tuple[Chain, Stamps, GameSpec] | None:
    """A spec compiled by an earlier run from a chain of files that still holds."""
    name = _disk_key(path, chosen)
    entry = cache.load(name) if name is not None else None
    if not (isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[1], GameSpec)):
        return None
    chain, spec = entry
    stamps = _chain_holds(str(path), chain, ())
    return None if stamps is None else (chain, stamps, spec)


def _to_disk(path: Path, chosen: tuple[tuple[str, str], ...], chain: Chain,
             spec: GameSpec) -> None:
    name = _disk_key(path, chosen)
    if name is not None and chain:
        cache.store(name, (chain, spec))
