"""Where the bundled grammar, rule files and schema live, installed or not."""

from __future__ import annotations

from pathlib import Path

from referee.caches import memoized

# The package's own folder, wherever in it this module stands.
_PACKAGE = Path(__file__).resolve().parents[__name__.count(".") - 1]


def package_dir() -> Path:
    """The folder of the ``referee`` package (its subpackages are under it)."""
    return _PACKAGE


@memoized()  # the folders stay where they are while the referee runs
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
