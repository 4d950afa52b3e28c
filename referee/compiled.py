"""The modules a build may compile with mypyc, and the switch back to their source.

A wheel built where a C compiler is found carries these modules compiled as well as
their source (``setup.py``); the source stays the reference. ``REFEREE_PURE_PYTHON=1``
in the environment makes ``import referee`` load every module from its source, as
tests/test_compiled.py does to hold the compiled modules to it.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

PURE_PYTHON = "REFEREE_PURE_PYTHON"  # the environment variable that turns compiling off
COMPILED = (  # the per-event path: reading a line, replaying it, the engine's rules
    "engine/asks.py", "engine/captures.py", "engine/claims.py", "engine/core.py",
    "engine/draws.py", "engine/facts.py", "engine/flow.py", "engine/laying.py",
    "engine/lookups.py", "engine/moves.py", "engine/plays.py", "engine/questions.py",
    "engine/refills.py", "engine/state.py", "engine/wording.py", "language/cards.py",
    "spans.py",
    "transcript/described.py", "transcript/event_words.py", "transcript/events.py",
    "transcript/notation.py", "transcript/segments.py",
    "transcript/record.py", "transcript/resolve.py", "transcript/session.py",
    "authoring/policies.py", "authoring/selfplay.py",  # self-play's players, a move each
)


def is_compiled(module: ModuleType) -> bool:
    """Whether ``module`` was loaded from a compiled extension."""
    return not str(getattr(module, "__file__", "")).endswith(".py")


class _SourceFirst:
    """A finder that loads each ``referee`` module from its ``.py`` file."""

    @staticmethod
    def find_spec(name: str, path: Sequence[str] | None, target: object = None
                  ) -> ModuleSpec | None:
        if not name.startswith("referee.") or path is None:
            return None
        leaf = name.rpartition(".")[2]
        for folder in path:
            source = Path(folder) / f"{leaf}.py"
            if source.is_file():
                return importlib.util.spec_from_file_location(name, source)
        return None


def load_source_only() -> None:
    """Load every ``referee`` module imported from now on from its source."""
    if not any(isinstance(finder, _SourceFirst) for finder in sys.meta_path):
        sys.meta_path.insert(0, _SourceFirst())
