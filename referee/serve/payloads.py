"""What each token sees of its table, as one JSON-ready dict: a seat the API's
``view(seat)`` and its own legal moves, the screen and the host ``public_view()``.

Nothing here reads a hand but through ``view``: a card can reach a page from one
place only. Legal moves are a seat's own: the referee tries each against the cards it
knows, so a seat whose hand is entered gets the moves its hand allows, and a seat
whose hand is not gets those of the game without the hands entered (what the others
entered must not shape them). A named draw is left out, since which cards it may name
tells what the stock may hold: the seat picks the card it drew itself.
"""

from __future__ import annotations

from typing import Any

from referee.serve.tables import HOST, Access, Table


def payload(table: Table, access: Access) -> dict[str, Any]:
    """Everything ``access`` may see of ``table`` now."""
    game = table.game
    awaiting = game.awaiting
    seat = access.player
    view = game.view(seat) if seat is not None else game.public_view()
    shown = view.to_json()
    result: dict[str, Any] = {
        "table": table.id, "version": table.version, "role": access.role, "player": seat,
        "title": table.title, "players": list(game.players),
        "teams": {team: list(names) for team, names in game.teams.items()},
        "view": shown, "awaiting": awaiting.to_json(), "entered": table.entered(),
        "hidden": _hidden(table), "notices": list(table.notices),
        "outcome": _outcome(table)}
    if seat is not None:
        result["legal"] = _seat_moves(table, seat) if seat in awaiting.players else []
        result["claims"] = _claimable(table, seat, shown, awaiting.words)
        result["cards"] = list(table.rules.cards)
        result["sets"] = {name: list(cards) for name, cards in table.rules.sets.items()}
    else:
        result["legal"] = []
    if access.role == HOST:
        result["next_hand"] = (shown.get("match_hand") is not None
                               and awaiting.phase == "over" and result["outcome"] is None)
    return result


def _seat_moves(table: Table, seat: str) -> list[str]:
    """``seat``'s moves, from what it may know: its own hand where entered."""
    game = table.game if seat in table.entered() else table.public_game()
    moves = game.legal_moves(seat, claims=False)
    draw = f"{seat} draws"
    named = [move for move in moves if move.startswith(draw + " ")]
    kept = [move for move in moves if move not in named]
    if (named or game.awaiting.phase == "draw") and draw not in kept:
        kept.append(draw)  # offered whatever the stock may hold: the referee decides
    return kept


def _claimable(table: Table, seat: str, shown: dict[str, Any], words: str) -> dict[str, Any]:
    """The sets ``seat`` may try to claim now (none decided yet), and its teammates."""
    teams = table.game.teams
    if not teams or "claim" not in words or seat not in table.game.awaiting.players:
        return {}
    decided = {name for names in shown["sets"].values() for name in names}
    team = next(names for names in teams.values() if seat in names)
    return {"sets": [name for name in table.rules.sets if name not in decided],
            "teammates": list(team)}


def _hidden(table: Table) -> bool:
    """Whether the hand being played was dealt hidden (seats enter their hands)."""
    lines = table.game.transcript().splitlines()
    deals = [line.strip() for line in lines if line.strip().startswith("deal:")]
    return bool(deals) and deals[-1] == "deal: hidden"


def _outcome(table: Table) -> dict[str, Any] | None:
    """How the game (the match) ended, once it has."""
    if table.game.awaiting.phase != "over":
        return None
    outcome = table.game.outcome
    return outcome.to_json() if outcome is not None else None
