"""The tables one server keeps: each a :class:`referee.Game`, the tokens of its seats,
host and screen, and its files under ``--data`` (restored from there at start).

Every method here is synchronous and touches one table's game: the app calls them in a
worker thread while it holds the table's lock, so that the hidden-deal solver never
blocks the event loop and two requests never change one game at once.
"""

from __future__ import annotations

import hmac
import re
import secrets
import sys
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio

import referee
from referee.serve.storage import TranscriptFile, read_metadata, write_metadata

TABLE_ID = re.compile(r"[0-9a-f]{16}")
MAX_TABLES = 2_000  # one server's tables: memory stays bounded
MAX_RULES_BYTES = 200_000  # an uploaded rule file
MAX_EVENT_CHARS = 2_000  # one request's events
PENDING_MARK = "# contradicted, for the host to decide:"  # the journal's last line
MAX_NOTICES = 12  # the refusals and contradictions a screen keeps
HOST, SCREEN = "host", "screen"
_SEAT_PREFIX = "seat "
_NEW_HAND = re.compile(r"hand \d+$")
_HAND_LINE = re.compile(r"hand (\S+):")


class TableError(Exception):
    """A request the server refuses: ``status`` (HTTP) and a message for the user."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True, slots=True)
class Access:
    """Who a token lets in: a seat (``player``), the host or the screen."""

    role: str  # "seat", "host" or "screen"
    player: str | None = None


@dataclass(eq=False)
class Table:
    """One table: its game, tokens and files, and what the screen shows of refusals."""

    id: str
    game: referee.Game
    title: str
    rules: referee.Rules
    tokens: dict[str, str]
    transcript_file: TranscriptFile
    metadata_path: Path
    created: str
    deal: Any = "hidden"  # how each hand is dealt: "hidden" or {"seed": N} (the first's)
    lock: anyio.Lock = field(default_factory=anyio.Lock)
    version: int = 0
    notices: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=MAX_NOTICES))
    listeners: set[Any] = field(default_factory=set)
    # The game as each seat may know it (None: as the table saw it), kept in step.
    _known: dict[str | None, referee.Game] = field(default_factory=dict)

    def public_game(self) -> referee.Game:
        """The game as the table saw it, without the hands entered privately: a seat
        whose own hand is not entered is offered the moves this game allows, so that
        what the others entered never shapes them."""
        return self.known_game(None)

    def known_game(self, seat: str | None) -> referee.Game:
        """The game with only ``seat``'s own hand entered (none for None): what that
        seat may know, from which its moves are found, so that the hands the others
        entered never shape them. Kept in step event by event."""
        text = without_hands(self.game.transcript(), keep=seat)
        if text == self.game.transcript():
            return self.game
        known_game = self._known.get(seat)
        if known_game is not None:
            known = known_game.transcript()
            if text.startswith(known) and text != known:
                result = known_game.play(text[len(known):])
                if not result.accepted and result.kind == "contradiction":
                    known_game.accept()  # the host accepted it at the table
            elif known.startswith(text):
                while len(known_game.transcript()) > len(text) and known_game.undo():
                    pass
        if known_game is None or known_game.transcript() != text:
            known_game = referee.Game.from_transcript(text,
                                                      source=str(self.transcript_file.path))
        self._known[seat] = known_game
        return known_game

    def forget_known(self) -> None:
        """Let the games as each seat knows them go (no page is open to need them):
        they are played again from the transcript when a page asks."""
        self._known.clear()

    def access(self, token: object) -> Access | None:
        """Whom ``token`` lets in, or None; every token is compared in constant time."""
        if not isinstance(token, str) or not token.isascii():
            return None
        found: Access | None = None
        for key, known in self.tokens.items():
            if hmac.compare_digest(known.encode(), token.encode()):
                found = (Access("seat", key.removeprefix(_SEAT_PREFIX))
                         if key.startswith(_SEAT_PREFIX) else Access(key))
        return found

    def save(self) -> None:
        """Bring the transcript file up to the game, and count a change for listeners. A
        contradiction waiting for the host is kept as a last comment line, which a
        restarted server plays again (``referee check`` reads past it)."""
        text, pending = self.game.transcript(), self.game.pending
        if pending is not None:
            text += f"{PENDING_MARK} {pending}\n"
        self.transcript_file.write(text)
        self.version += 1

    def save_metadata(self) -> None:
        """Write the tokens and what the table is, whole, in place of the last."""
        write_metadata(self.metadata_path, {
            "table": self.id, "title": self.title, "created": self.created,
            "tokens": self.tokens, "rules": Path(self.rules.reference).name
            if self.rules.reference.endswith(".rules") else self.rules.reference,
            "options": self.rules.chosen, "deal": self.deal})

    def next_deal(self, number: int) -> str:
        """The deal line of hand ``number`` of a match: dealt as the first was (seeds
        counted on from the first's)."""
        if isinstance(self.deal, dict):
            return f"deal: seed {int(self.deal['seed']) + number - 1}"
        return "deal: hidden"

    def notice(self, kind: str, text: str) -> None:
        """Note a refusal or contradiction for every page (no card in ``text``)."""
        self.notices.append({"id": self.version, "kind": kind, "text": text})

    def dealt_hidden(self) -> bool:
        """Whether the hand being played was dealt hidden (seats enter their hands);
        else the referee dealt it, and knows every hand from the start."""
        deals = [line.strip() for line in self.game.transcript().splitlines()
                 if line.strip().startswith("deal:")]
        return bool(deals) and deals[-1] == "deal: hidden"

    def entered(self) -> list[str]:
        """The players whose hands are entered in this hand's deal, when it is hidden."""
        block = [line.strip() for line in
                 _hands_dealt(self.game.transcript().splitlines())[-1]]
        if "deal: hidden" not in block:
            return []
        return [match.group(1) for match in map(_HAND_LINE.match, block) if match]

    def relink(self, player: str) -> str:
        """A fresh token for ``player``'s seat (a lost phone): the old one stops working."""
        if player not in self.game.players:
            raise TableError(404, f"no player is named {player!r}")
        token = secrets.token_urlsafe(32)
        self.tokens[_SEAT_PREFIX + player] = token
        self.save_metadata()
        self.version += 1  # a change: the old link's open pages are closed at once
        return token


class Tables:
    """Every table of one server, kept under ``data``."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.tables: dict[str, Table] = {}

    def get(self, table_id: str) -> Table:
        """The table ``table_id``; a 404 when there is none."""
        table = self.tables.get(table_id) if TABLE_ID.fullmatch(table_id) else None
        if table is None:
            raise TableError(404, "there is no such table")
        return table

    def create(self, request: dict[str, Any]) -> Table:
        """A new table as ``POST /api/tables`` asks for it (docs/serve.md)."""
        if len(self.tables) >= MAX_TABLES:
            raise TableError(503, "this server keeps as many tables as it can")
        table_id = secrets.token_hex(8)
        rules, reference = self._rules(request, table_id)
        players = request.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise TableError(400, "players is a list of names, in seat order")
        dealer = request.get("dealer") or None
        asked_deal = request.get("deal", "hidden")
        deal = _deal(asked_deal)
        target = request.get("target")
        try:
            game = referee.Game.new(rules, players, dealer=dealer, deal=deal)
            text = game.transcript()
            if reference is not None or target is not None:
                text = _header(text, reference, target)
            path = self.data / f"{table_id}.txt"
            game = referee.Game.from_transcript(text, source=str(path))
        except referee.RefereeError as error:
            raise TableError(400, error.message) from None
        tokens = {HOST: secrets.token_urlsafe(32), SCREEN: secrets.token_urlsafe(32)}
        tokens.update({_SEAT_PREFIX + name: secrets.token_urlsafe(32) for name in game.players})
        table = Table(table_id, game, rules.title, rules, tokens,
                      TranscriptFile.create(path, game.transcript()),
                      self.data / f"{table_id}.json", _now(), asked_deal)
        table.save_metadata()
        self.tables[table_id] = table
        return table

    def _rules(self, request: dict[str, Any], table_id: str
               ) -> tuple[referee.Rules, str | None]:
        """The rules asked for: a bundled name, or a rule file's text saved beside the
        table (its transcript names it by its file name)."""
        options = request.get("options") or {}
        if not isinstance(options, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in options.items()):
            raise TableError(400, "options maps each option's name to its value")
        uploaded = request.get("rules_text")
        try:
            if isinstance(uploaded, str) and uploaded.strip():
                if len(uploaded.encode()) > MAX_RULES_BYTES:
                    raise TableError(413, "a rule file is at most 200 kB")
                path = self.data / f"{table_id}.rules"
                TranscriptFile.create(path, uploaded).close()
                return referee.load_rules(str(path), options), path.name
            name = request.get("game")
            if not isinstance(name, str) or name not in bundled_names():
                raise TableError(400, f"game is one of the bundled rule files: "
                                 f"{', '.join(bundled_names())}")
            return referee.load_rules(name, options), None
        except referee.RefereeError as error:
            raise TableError(400, error.report() if error.span else error.message) from None

    def restore(self) -> list[str]:
        """Load every table kept under ``data``; what could not be loaded, worded."""
        problems: list[str] = []
        for metadata_path in sorted(self.data.glob("*.json")):
            table_id = metadata_path.stem
            if not TABLE_ID.fullmatch(table_id):
                continue
            try:
                self.tables[table_id] = _restored(self.data, table_id, metadata_path)
            except (OSError, ValueError, KeyError, TypeError) as error:
                message = error.message if isinstance(error, referee.RefereeError) else error
                problems.append(f"table {table_id} is not served: {message}")
        return problems


def _restored(data: Path, table_id: str, metadata_path: Path) -> Table:
    metadata = read_metadata(metadata_path)
    path = data / f"{table_id}.txt"
    transcript_file, text = TranscriptFile.reopen(path)
    try:
        text, pending = _pending_cut(text)
        game = referee.Game.from_transcript(text, source=str(path))
        if pending is not None:
            game.play(pending)  # the contradiction waits for the host again
        reference = str(metadata["rules"])
        options = {str(k): str(v) for k, v in dict(metadata.get("options") or {}).items()}
        rules = referee.load_rules(str(data / Path(reference).name)
                                   if reference.endswith(".rules") else reference, options)
    except BaseException:
        transcript_file.close()
        raise
    tokens = {str(k): str(v) for k, v in dict(metadata["tokens"]).items()}
    return Table(table_id, game, str(metadata["title"]), rules, tokens, transcript_file,
                 metadata_path, str(metadata["created"]), metadata.get("deal", "hidden"))


def _pending_cut(text: str) -> tuple[str, str | None]:
    """A journal without its last line when that holds a contradiction waiting for the
    host, and that event."""
    head, _, last = text.rstrip("\n").rpartition("\n")
    if not last.startswith(PENDING_MARK):
        return text, None
    return head + "\n", last.removeprefix(PENDING_MARK).strip()


def without_hands(text: str, *, keep: str | None = None) -> str:
    """A transcript without the ``hand NAME:`` lines of its hidden deals (those entered
    privately; a given deal's hands stay), but for ``keep``'s own."""
    kept: list[str] = []
    for block in _hands_dealt(text.splitlines(keepends=True)):
        hidden = any(line.strip() == "deal: hidden" for line in block)
        kept += [line for line in block if not hidden
                 or not (entered := _HAND_LINE.match(line.strip()))
                 or entered.group(1) == keep]
    return "".join(kept)


def _hands_dealt(lines: list[str]) -> list[list[str]]:
    """The transcript's lines cut where each new hand (``hand N``) begins."""
    blocks: list[list[str]] = [[]]
    for line in lines:
        if _NEW_HAND.fullmatch(line.strip()):
            blocks.append([])
        blocks[-1].append(line)
    return blocks


def bundled_names() -> list[str]:
    """The bundled rule files' names."""
    from referee.language.rulefiles import bundled_rule_names

    return bundled_rule_names()


def _deal(asked: object) -> referee.Deal | str:
    if asked == "hidden":
        return "hidden"
    if isinstance(asked, dict) and set(asked) == {"seed"}:
        try:
            return referee.Deal.seed(asked["seed"])
        except referee.RefereeError as error:
            raise TableError(400, error.message) from None
    raise TableError(400, 'deal is "hidden" or {"seed": N}')


def _header(text: str, reference: str | None, target: object) -> str:
    """The new game's transcript naming an uploaded rule file, with a match's target."""
    lines = text.splitlines()
    if reference is not None:
        lines[0] = f"game: {reference}"
    if target is not None:
        if isinstance(target, bool) or not isinstance(target, int) or not 0 < target < 100_000:
            raise TableError(400, "target is a whole number of points, from 1")
        lines.insert(next(i for i, t in enumerate(lines) if t.startswith("players:")) + 1,
                     f"target: {target}")
    return "\n".join(lines) + "\n"


def _now() -> str:
    import datetime

    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def warn(message: str) -> None:
    """A line for whoever runs the server."""
    print(message, file=sys.stderr, flush=True)
