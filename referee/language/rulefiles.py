"""Finding a rule file by the name or path a transcript or command gives, and naming it
again: the bundled names, the closest ones when none fits, how a written transcript
names the rules it was played under."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from referee.language.resources import rules_dir
from referee.reading import RULE_SUFFIX, quoted

if TYPE_CHECKING:
    from referee.language.spec import GameSpec


def find_rule_file(ref: str, near: Path | None = None) -> Path | None:
    """The rule file ``ref`` names: a path (which must end in ``.rules``), or a name
    beside ``near`` or bundled. The first candidate that exists is returned, even if
    it is not a regular file: reading it then says why it cannot be read."""
    if not ref or "\0" in ref:
        return None
    if is_path(ref):
        as_path = Path(ref)
        if as_path.suffix != RULE_SUFFIX:
            return None
        candidates = [str(as_path)] + ([str(near / as_path)] if near else [])
    else:
        file = ref + RULE_SUFFIX
        candidates = ([os.path.join(near, file)] if near else []) + [
            os.path.join(rules_dir(), file)]
    found = next((c for c in candidates if _exists(c)), None)  # plain strings: pathlib's
    return None if found is None else Path(found)  # joins cost more than the stat


def bundled_alias(ref: str) -> str | None:
    """The bundled rule file ``ref`` names as people write a game's name, in any case
    and with spaces or ``_`` for ``-`` (``Go Fish``, ``GO-FISH``, ``canadian_fish``):
    its name, or None (a path, or no such bundled file). Only where the name as written
    finds no file: a rule file of that very name beside a transcript comes first."""
    if is_path(ref):
        return None
    name = "-".join(ref.replace("_", " ").lower().split())
    return name if name in bundled_rule_names() else None


def is_path(ref: str) -> bool:
    """Whether a rule file is named by a path (``../mine.rules``) rather than by name."""
    return ref.endswith(RULE_SUFFIX) or "/" in ref or "\\" in ref


def no_rule_file(ref: str) -> str:
    """Why no rule file was found for ``ref``, with the bundled names closest to it."""
    if is_path(ref) and not ref.endswith(RULE_SUFFIX):
        return f"{quoted(ref, 80)} is not a rule file: a rule file's name ends in {RULE_SUFFIX}"
    names = bundled_rule_names()
    close = closest_names(Path(ref).stem if is_path(ref) else ref, names)
    if close:
        words = [repr(name) for name in close]
        meant = words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"
        return (f"there is no rule file named {quoted(ref, 80)}; did you mean {meant}? "
                "('referee rules' lists the bundled ones)")
    return f"there is no rule file named {quoted(ref, 80)} (bundled: {', '.join(names)})"


def closest_names(word: str, names: list[str], most: int = 3) -> list[str]:
    """The names most like ``word`` (spelling, case aside), best first; none for a
    word far longer than any name.

    >>> closest_names("GoFish", ["authors", "go-fish", "go-fish-pairs"])
    ['go-fish', 'go-fish-pairs']
    """
    if len(word) > 2 * max(map(len, names), default=0):
        return []  # difflib's time and memory grow with the word: no name is that long
    import difflib  # only on this error's path: not loaded for a check

    return difflib.get_close_matches(word.lower(), names, n=most, cutoff=0.6)


def _exists(path: str) -> bool:
    try:
        os.stat(path)
    except (OSError, ValueError):  # missing, a name too long, a NUL in it
        return False
    return True


def rule_reference(spec: GameSpec) -> str:
    """How a written-out transcript names its rule file: by name when bundled, else by
    the path it was read from, as the user gave it (never made absolute)."""
    try:
        bundled = Path(spec.source).resolve().parent == rules_dir().resolve()
    except OSError:
        bundled = False
    return spec.name if bundled else spec.source


def bundled_rule_names() -> list[str]:
    """The names of the rule files that ship with the referee."""
    return sorted(p.stem for p in rules_dir().glob("*" + RULE_SUFFIX))
