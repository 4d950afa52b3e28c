"""Every rule file as an OpenSpiel game (the ``openspiel`` extra).

Importing this package registers the game ``referee`` with pyspiel, so that
``pyspiel.load_game("referee(rules=literature,players=6)")`` works for every bundled
rule file and any ``.rules`` path; ``import referee`` alone never loads pyspiel.
"""

from __future__ import annotations

import pyspiel

from referee.openspiel.game import GAME_TYPE, RefereeGame, RefereeState

if GAME_TYPE.short_name not in pyspiel.registered_names():
    pyspiel.register_game(GAME_TYPE, RefereeGame)

__all__ = ["RefereeGame", "RefereeState"]
