"""What a token may do at its table: a seat plays its own moves and answers and enters
its own hand; the host plays any event, decides contradictions (accept, undo), says
``done``, deals a match's next hand and issues a fresh link for a lost phone.

Each action returns the API's :class:`referee.Result` as JSON, worded for whoever
sent it; the screen and every page get a notice of refusals and contradictions that
names no card, and a contradiction's proof leaves out the hands entered privately.
"""

from __future__ import annotations

import re
from typing import Any

import referee
from referee.serve.tables import HOST, MAX_EVENT_CHARS, Access, Table, TableError

_FIRST_WORD = re.compile(r"\s*([^\s:>]+)")
_LINE_CITED = re.compile(r"\s*\(also on line \d+\)")
_KIND_WORDS = {
    "syntax": "could not be read", "unknown": "names no such player or card",
    "turn": "was out of turn", "illegal": "is against the rules",
    "over": "came after the end", "usage": "was not taken",
    "header": "does not fit the deal",
}


def play(table: Table, access: Access, text: object) -> dict[str, Any]:
    """Play ``text`` (one or more events) for ``access``; a seat only its own."""
    if not isinstance(text, str) or not text.strip():
        raise TableError(400, "text is the event, in the transcript notation")
    if len(text) > MAX_EVENT_CHARS:
        raise TableError(413, "that is more events than one request takes")
    if access.role not in ("seat", HOST):
        raise TableError(403, "the screen shows the table; it plays no event")
    if access.player is not None:
        text = _with_seat_named(access.player, table.game.players, text)
        _own_events_only(access.player, text)
    before = table.game.transcript()
    result = table.game.play(text)
    if result.accepted and access.player is not None and not _all_by(
            table.game.transcript()[len(before):], access.player):
        while table.game.transcript() != before and table.game.undo():
            pass
        raise TableError(403, f"{access.player}'s page enters {access.player}'s own moves "
                         "and answers only; the host enters the others'")
    return _answered(table, access, result, text=text)


def enter_hand(table: Table, access: Access, cards: object) -> dict[str, Any]:
    """Enter the hand of ``access``'s seat (the host may not: a hand is its holder's)."""
    if access.player is None:
        raise TableError(403, "a hand is entered from its own seat's page")
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards) or len(
            cards) > len(table.rules.cards):
        raise TableError(400, "cards is a list of cards, such as [\"7H\", \"QS\"]")
    try:
        result = table.game.enter_hand(access.player, [c.strip() for c in cards])
    except referee.RefereeError as error:
        raise TableError(400, error.message) from None
    if result.accepted:
        table.save()
        return result.to_json()
    return _hand_refused(result, access.player)


def _hand_refused(result: referee.Result, player: str) -> dict[str, Any]:
    """Why a hand was not entered, naming no other hand: that a card was entered by
    someone else too is the check itself, but not whose hand holds it (the line
    cited), nor a contradiction's proof, which may cite the hands entered."""
    answer = result.to_json()
    answer["because"] = []
    if result.kind == "contradiction":
        answer["message"] = (f"{player}'s hand is not entered: those cards contradict what "
                             "the table has seen")
    else:
        answer["message"] = _LINE_CITED.sub("", result.message)
    return answer


def undo(table: Table, access: Access) -> dict[str, Any]:
    """Take back the contradiction waiting or the last event (the host only)."""
    _host_only(access)
    done = table.game.undo()
    if done:
        table.save()
        table.notice("undo", "the host took the last event back")
    return {"accepted": done, "kind": None if done else "usage",
            "message": "taken back" if done else "nothing to take back", "because": []}


def accept(table: Table, access: Access) -> dict[str, Any]:
    """Record the contradiction waiting as the table's word (the host only)."""
    _host_only(access)
    try:
        result = table.game.accept()
    except referee.RefereeError as error:
        raise TableError(409, error.message) from None
    if result.accepted:
        table.save()
        table.notice("accepted", "the host accepted the event the cards contradict")
    return _answered(table, access, result, notice=False)


def done(table: Table, access: Access) -> dict[str, Any]:
    """Nobody lays down more sets now (the host only)."""
    _host_only(access)
    result = table.game.done()
    if result.accepted:
        table.save()
    return _answered(table, access, result)


def next_hand(table: Table, access: Access) -> dict[str, Any]:
    """Deal a match's next hand, as the first was dealt (the host only)."""
    _host_only(access)
    number = table.game.public_view().match_hand
    if number is None:
        raise TableError(409, "this game is one hand; a match has a target")
    return play(table, access, f"hand {number + 1}\n{table.next_deal(number + 1)}")


def relink(table: Table, access: Access, player: object) -> str:
    """A fresh token for ``player``'s seat (the host only)."""
    _host_only(access)
    if not isinstance(player, str):
        raise TableError(400, "player names the seat")
    return table.relink(player)


def _answered(table: Table, access: Access, result: referee.Result, *,
              notice: bool = True, text: str = "") -> dict[str, Any]:
    """``result`` for its sender, and the table's notice of a refusal."""
    answer = result.to_json()
    if result.accepted:
        table.save()
        return answer
    who = access.player or "the host"
    if result.kind == "contradiction" and table.game.pending is None:
        # Not even the table's word could make it so (a card in two hands at once):
        # refused, with nothing left for the host to decide.
        answer["message"] = ("no deal of the cards explains that event, nor could the "
                             "table take it as its word: it is not recorded")
        answer["because"] = _public_proof(table, result)
        if notice:
            table.version += 1
            table.notice("refused", f"an event from {who} contradicts the cards and "
                         "cannot be taken")
        return answer
    if result.kind == "contradiction":
        answer["message"] = ("no deal of the cards explains that event with the ones "
                             "before it; the host accepts it or takes it back")
        answer["because"] = _public_proof(table, result)
        if notice:
            table.notice("contradiction", f"an event from {who} contradicts the cards: "
                         "the host decides")
        table.save()  # the event waiting is journaled too
    else:
        actor = _FIRST_WORD.match(text)
        if (access.player is None and result.kind == "illegal" and actor is not None
                and (actor.group(1) in table.entered() or not table.dealt_hidden())
                and actor.group(1) in table.game.players):  # the rule may tell of that hand
            answer["message"] = (f"against the rules: the reason tells of {actor.group(1)}'s "
                                 f"hand, which only {actor.group(1)}'s page shows")
        if notice:
            table.version += 1
            table.notice("refused", f"an event from {who} "
                         f"{_KIND_WORDS.get(result.kind or '', 'was refused')}")
    return answer


def _public_proof(table: Table, result: referee.Result) -> list[dict[str, Any]]:
    """A contradiction's proof without the hands entered privately."""
    lines = table.game.transcript().splitlines()
    proof = []
    for line, reason in result.because:
        text = lines[line - 1].strip() if 0 < line <= len(lines) else ""
        proof.append({"line": line, "reason": "a hand entered privately"
                      if text.startswith("hand ") and ":" in text else reason})
    return proof


def _with_seat_named(player: str, players: tuple[str, ...] | list[str], text: str) -> str:
    """A seat's events as typed, with its own name put before each that leaves it out:
    ``asks Bob for 7`` and ``> Bob 7`` are ``Ann``'s, ``Bob, sevens?`` is ``Ann: Bob,
    sevens?``; an event that begins with a player's name is left as it is."""
    names = {name.casefold() for name in players}
    parts = re.split(r"([;\n])", text)
    for index in range(0, len(parts), 2):
        event = parts[index].strip()
        match = _FIRST_WORD.match(event)
        first = match.group(1).casefold() if match else ""
        if not event or first in names:
            continue
        parts[index] = (f"{player}: {event}" if first.endswith(",") and first[:-1] in names
                        else f"{player} {event}")
    return "".join(parts)


def _own_events_only(player: str, text: str) -> None:
    for part in re.split(r"[;\n]", text):
        if not part.strip():
            continue
        match = _FIRST_WORD.match(part)
        if match is None or match.group(1).casefold() != player.casefold():
            raise TableError(403, f"{player}'s page enters {player}'s own moves and "
                             f"answers, each beginning with {player}")


def _all_by(added: str, player: str) -> bool:
    return all(line.split()[0] == player for line in added.splitlines() if line.strip()
               and not line.startswith("#"))


def _host_only(access: Access) -> None:
    if access.role != HOST:
        raise TableError(403, "only the host page does that")
