"""What each token sees of its table, as one JSON-ready dict: a seat the API's
``view(seat)`` and its own legal moves, the screen and the host ``public_view()``.

Nothing here reads a hand but through ``view``: a card can reach a page from one
place only. Legal moves are a seat's own: found in the game with only that seat's hand
entered (or none), so that what the others entered never shapes them, not even which
cards an unseen draw may have brought. A named draw is left out, since which cards it
may name tells what the stock may hold: the seat picks the card it drew itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import referee
from referee.serve.tables import HOST, Access, Table

if TYPE_CHECKING:
    from referee import Awaiting


def payload(table: Table, access: Access) -> dict[str, Any]:
    """Everything ``access`` may see of ``table`` now."""
    return payloads(table, [access])[access]


def payloads(table: Table, accesses: Iterable[Access], *, moves: bool = True
             ) -> dict[Access, dict[str, Any]]:
    """What each of ``accesses`` may see of ``table`` now (what all share worded once).
    Without ``moves``, the seats' moves are left for later (``legal_ready`` false):
    finding them may take the hidden-deal solver a while, and the view goes first."""
    game = table.game
    real = game.awaiting
    try:
        public_game = table.public_game()
    except referee.RefereeError:  # the table's word on a contradiction, read again
        public_game = None  # without the hands: then only the counts and the words
    awaiting = _public_awaiting(real, public_game)
    public = (public_game or game).public_view().to_json()
    public["awaiting"] = awaiting.words
    entered = table.entered()
    hidden = table.dealt_hidden()
    acting = {seat for seat in game.players if seat in (
        table.known_game(seat).awaiting.players if moves and seat in entered
        else awaiting.players)}  # the view goes first: the seats' own games with the moves
    finder = _MoveFinder()
    legal = _moves_by_seat(table, public_game, entered, acting, finder) if moves else {}
    shared: dict[str, Any] = {
        "table": table.id, "version": table.version, "title": table.title,
        "players": list(game.players),
        "teams": {team: list(names) for team, names in game.teams.items()},
        "awaiting": awaiting.to_json(), "entered": entered, "hidden": hidden,
        "notices": list(table.notices), "outcome": _outcome(table, real)}
    found: dict[Access, dict[str, Any]] = {}
    for access in accesses:
        seat = access.player
        result = {**shared, "role": access.role, "player": seat, "legal": [],
                  "legal_ready": moves, "acting": seat in acting}
        if seat is None:
            result["view"] = public
            if access.role == HOST:
                result["next_hand"] = (public.get("match_hand") is not None
                                       and real.phase == "over"
                                       and result["outcome"] is None)
                # Found without the hands: of a hand the referee dealt, which
                # moves are legal tells what the mover holds, so none are offered.
                result["legal"] = ([move for seat in awaiting.players
                                    for move in finder(public_game, seat)]
                                   if moves and public_game is not None and hidden else [])
        else:
            shown = _seat_view(table, public_game, seat, seat in entered, awaiting)
            result.update({
                "view": shown,
                "legal": legal.get(seat, []),
                "claims": _claimable(table, seat, shown, awaiting) if seat in acting else {},
                "cards": list(table.rules.cards),
                "sets": {name: list(cards) for name, cards in table.rules.sets.items()}})
        found[access] = result
    return found


def _public_awaiting(real: Awaiting, public_game: referee.Game | None) -> Awaiting:
    """What the table waits for, as the game without the hands entered says it (the
    hands must not shape it: with them, the referee may know that nobody can lay a set
    down, which the table does not); a contradiction waiting, in words that repeat no
    event (a give typed may name cards the table saw as a count)."""
    from referee import Awaiting

    if real.phase == "contradiction":
        return Awaiting("the host decides on the event the cards contradict: accept it, "
                        "or drop it", (), "contradiction")
    if public_game is None or real.phase == "over":
        return real
    return public_game.awaiting


def _seat_view(table: Table, public_game: referee.Game | None, seat: str, entered: bool,
               awaiting: Awaiting) -> dict[str, Any]:
    """``seat``'s view: of the game without the hands entered, with its own hand from
    the game with them when it entered it."""
    own = table.game.view(seat).to_json()
    if public_game is None or public_game is table.game:
        shown = own
    else:
        shown = public_game.view(seat).to_json()
        if entered:
            shown["hand"], shown["unknown"] = own["hand"], own["unknown"]
    shown["awaiting"] = awaiting.words
    return shown


class _MoveFinder:
    """A seat's moves in a game, found once however many pages show them (a seat whose
    hand is not entered and the host are offered the same)."""

    def __init__(self) -> None:
        self._found: dict[tuple[int, str], list[str]] = {}

    def __call__(self, game: referee.Game, seat: str) -> list[str]:
        key = (id(game), seat)
        if key not in self._found:
            self._found[key] = _offered(game.legal_moves(seat, claims=False), seat)
        return self._found[key]


def _moves_by_seat(table: Table, public_game: referee.Game | None, entered: list[str],
                   acting: set[str], finder: _MoveFinder) -> dict[str, list[str]]:
    """Each acting seat's moves, from what it may know: those of the game with only its
    own hand entered, else those of the game without the hands entered."""
    found: dict[str, list[str]] = {}
    for seat in acting:
        game = table.known_game(seat) if seat in entered else public_game
        if game is not None:
            found[seat] = finder(game, seat)
    return found


def _offered(moves: list[str], seat: str) -> list[str]:
    """``seat``'s moves as its page offers them: a draw without the card (the seat
    picks the card it drew itself, when it must show it)."""
    draw = f"{seat} draws"
    kept = [move for move in moves if not move.startswith(draw + " ")]
    if draw not in kept and len(kept) < len(moves):
        kept.append(draw)  # a dealt game names the card: the referee fills it in
    return kept


def _claimable(table: Table, seat: str, shown: dict[str, Any], awaiting: Awaiting
               ) -> dict[str, Any]:
    """The sets ``seat`` may try to claim now (none decided yet), and its teammates."""
    teams = table.game.teams
    if not teams or "claim" not in awaiting.words:
        return {}
    decided = {name for names in shown["sets"].values() for name in names}
    team = next(names for names in teams.values() if seat in names)
    return {"sets": [name for name in table.rules.sets if name not in decided],
            "teammates": list(team)}


def _outcome(table: Table, awaiting: Awaiting) -> dict[str, Any] | None:
    """How the game (the match) ended, once it has."""
    if awaiting.phase != "over":
        return None
    outcome = table.game.outcome
    return outcome.to_json() if outcome is not None else None
