"""referee: a rules-as-data interpreter and referee for the fishing card games.

The public API (docs/api.md): :func:`load_rules`, :func:`check` and :func:`check_file`,
and :class:`Game` (with :class:`Deal`) to referee a game event by event; plain data
out (:class:`Verdict`, :class:`Result`, :class:`View`, :class:`Outcome`), and one
error, :class:`RefereeError`, a ``ValueError``. Each name is loaded when first used,
so that ``import referee`` (and a cold ``referee check``) stays cheap.
"""

import os as _os

if _os.environ.get("REFEREE_PURE_PYTHON"):  # compiled modules left for their source
    from referee.compiled import load_source_only

    load_source_only()

TYPE_CHECKING = False  # not typing's: importing typing here would cost a bare import
if TYPE_CHECKING:
    from referee.api import Problem, Rules, Verdict, check, check_file, load_rules
    from referee.caches import clear_caches
    from referee.errors import RefereeError
    from referee.game import Awaiting, Deal, Game, Result
    from referee.views import Outcome, View

__all__ = [
    "Awaiting",
    "Deal",
    "Game",
    "Outcome",
    "Problem",
    "RefereeError",
    "Result",
    "Rules",
    "Verdict",
    "View",
    "check",
    "check_file",
    "clear_caches",
    "load_rules",
]

_HOMES = {
    "Awaiting": "referee.game", "Deal": "referee.game", "Game": "referee.game",
    "Result": "referee.game", "Outcome": "referee.views", "View": "referee.views",
    "Problem": "referee.api", "Rules": "referee.api", "Verdict": "referee.api",
    "check": "referee.api", "check_file": "referee.api", "load_rules": "referee.api",
    "RefereeError": "referee.errors", "clear_caches": "referee.caches",
}


def __getattr__(name: str) -> object:
    """A public name, imported from its module when first asked for."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'referee' has no attribute {name!r}")
    found = getattr(__import__(home, fromlist=[name]), name)
    globals()[name] = found  # the next look-up is a plain one
    return found


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
