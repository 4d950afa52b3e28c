"""Where the bundled grammar, rule files and schema live, installed or not."""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


@cache  # the folders stay where they are while the referee runs
def _find(folder: str) -> Path:
    # A wheel carries the folders inside the package; a source checkout has
    # them at the top, beside the package.
    for base in (_PACKAGE, _PACKAGE.parent):
        candidate = base / folder
        if candidate.is_dir():
            return candidate
    return _PACKAGE / folder


def grammar_path(name: str) -> Path:
    """A grammar file of the bundled ``grammar/`` folder."""
    return _find("grammar") / name


def rules_dir() -> Path:
    """The bundled ``rules/`` folder."""
    return _find("rules")


def schema_path() -> Path:
    """The JSON Schema of ``referee check --json``."""
    return _PACKAGE / "verdict.schema.json"
