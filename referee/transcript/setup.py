"""From transcript header lines to a started game: rules, players, dealer, deal."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from referee.caches import memo
from referee.engine.core import Engine
from referee.errors import Kind, RefereeError, Span
from referee.language.cards import Card, parse_card
from referee.language.compiler import OptionError, rule_book
from referee.language.extends import load_layers
from referee.language.loader import load_spec
from referee.language.rulefiles import bundled_alias, find_rule_file, no_rule_file
from referee.language.spec import GameSpec
from referee.reading import Unreadable, ascii_number, quoted
from referee.transcript.events import Header, Token
from referee.transcript.names import NameIndex, refusal, unreadable
from referee.values import frozen
from referee.words import counted

MAX_SEED_DIGITS = 100
DEAL_KEYS = ("deal", "hand", "stock", "centre", "center")


class Table:
    """Who sits where: names in seat order, and which player a written name names
    (referee/transcript/names.py: as written, case-folded, by its look, or by a unique prefix)."""

    __slots__ = ("_names", "_seats", "players")

    def __init__(self, players: tuple[str, ...]) -> None:
        self.players = players
        self._seats = {name: seat for seat, name in enumerate(players)}  # as written
        self._names = NameIndex(players)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Table) and other.players == self.players

    def __hash__(self) -> int:
        return hash(self.players)

    def __repr__(self) -> str:
        return f"Table({self.players!r})"

    def names(self, text: str) -> bool:
        """Whether ``text`` names a player in full (not by a prefix)."""
        return self._names.find(text) is not None

    def find(self, text: str) -> int | None:
        """The seat a written name (or a unique prefix of one) names, or None."""
        seat = self._seats.get(text)  # the usual case
        if seat is None:
            seat = self._names.find(text)
        if seat is not None:
            return seat
        matches = self._names.prefixed(text)
        return matches[0] if len(matches) == 1 else None

    def seat(self, text: str, at: Span) -> int:
        """The seat a written name (or a unique prefix of one) names; ``at`` is where
        the name is written, for errors: an unknown name, or a prefix of two."""
        seat = self.find(text)
        if seat is not None:
            return seat
        matches = self._names.prefixed(text)
        if matches:
            names = " or ".join(self.players[i] for i in matches)
            raise RefereeError(Kind.UNKNOWN, f"{quoted(text)} could be {names}", at)
        why = unreadable(text)
        raise RefereeError(Kind.UNKNOWN, f"no player is named {quoted(text, 40)} "
                           f"({why + '; ' if why else ''}players: {', '.join(self.players)})",
                           at)


@frozen
class Deal:
    """One hand's deal as the header gives it. With ``hidden``, a hand nobody typed is
    None and a stock card nobody typed is None; ``lines`` gives the header line of each
    hand typed (by seat) and of the stock (key -1)."""

    hands: tuple[tuple[Card, ...] | None, ...]
    stock: tuple[Card | None, ...]
    centre: tuple[Card, ...] = ()
    hidden: bool = False
    lines: tuple[tuple[int, int], ...] = ()


@frozen
class Game:
    """A game ready to check: its rules, engine, table, dealer and deal."""

    spec: GameSpec
    engine: Engine
    table: Table
    dealer: int
    deal: Deal
    rules: str  # the rule file as the header names it
    options: tuple[tuple[str, str], ...]  # the options the header sets
    team_names: tuple[str, ...] = ()
    teams: tuple[int, ...] = ()  # each seat's team, an index into team_names
    target: int | None = None  # match play: hands go on until a side reaches it

    @property
    def side_names(self) -> tuple[str, ...]:
        """What scores are keyed by: the team names in team games, else the players."""
        return self.team_names if self.spec.teams else self.table.players


_ENGINES: dict[int, Engine] = memo("referee.transcript.setup._ENGINES")


def engine_for(spec: GameSpec) -> Engine:
    """The engine of ``spec``, made once: its tables and what it learns are shared by
    every game played under the same compiled rules. The engine keeps its spec, so an
    ``id`` is not reused while remembered; what it learns (the facts of a move, by the
    players, the move and the ask it answers; deal orders, by the table) depends on
    nothing else, and no file checked before changes a verdict."""
    engine = _ENGINES.get(id(spec))
    if engine is None or engine.spec is not spec:  # the engine keeps its spec: ids stay
        if len(_ENGINES) > 64:
            _ENGINES.clear()
        engine = _ENGINES[id(spec)] = Engine(spec)
    return engine


def set_up(headers: tuple[Header, ...], first_line: Span, near: Path | None) -> Game:
    """Read the header lines into a Game; any problem raises with its line.

    ``first_line`` is where a missing header line is reported.
    """
    by_key: dict[str, list[Header]] = {}
    for header in headers:
        by_key.setdefault(header.key, []).append(header)

    def optional(key: str) -> Header | None:
        found = by_key.get(key, [])
        if len(found) > 1:
            raise RefereeError(Kind.HEADER, f"the header {quoted(key)} is given twice",
                               found[1].span)
        return found[0] if found else None

    def required(key: str) -> Header:
        header = optional(key)
        if header is None:
            raise RefereeError(Kind.HEADER, f"the header needs a '{key}:' line", first_line)
        return header

    game_header = required("game")
    spec = _load_rules(game_header, by_key.get("option", []), near)
    table = _read_players(required("players"), spec)
    dealer_header = optional("dealer")
    dealer = len(table.players) - 1
    if dealer_header is not None:
        if len(dealer_header.values) != 1:
            raise RefereeError(Kind.HEADER, "name one dealer", dealer_header.span)
        dealer_name = dealer_header.values[0]
        dealer = table.seat(dealer_name.text, dealer_header.place(dealer_name))
    team_names, teams = _read_teams(by_key.get("team", []), spec, table)
    target = _read_target(optional("target"))
    if target is None:
        target = spec.match_target  # the rule file's own match, unless the header says
    engine = engine_for(spec)
    _check_seed(optional("deal"))
    deal = _read_deal(optional("deal"), by_key, spec, engine, table, dealer, first_line)
    options = tuple((o.name.text, o.values[0].text) for o in by_key.get("option", [])
                    if o.name is not None)
    written = " ".join(v.text for v in game_header.values)  # as written: it reads back so
    return Game(spec, engine, table, dealer, deal, written, options, team_names, teams, target)


def deal_next_hand(game: Game, headers: tuple[Header, ...], dealer: int, at: Span) -> Deal:
    """The hands, stock and centre of a match's next hand, from the lines after ``hand N``;
    ``at`` is where a missing line is reported."""
    by_key: dict[str, list[Header]] = {}
    for header in headers:
        if header.key not in DEAL_KEYS:
            raise RefereeError(Kind.HEADER, f"after 'hand N' only the deal follows "
                               f"({', '.join(DEAL_KEYS)}), not {quoted(header.key)}", header.span)
        by_key.setdefault(header.key, []).append(header)
    deals = by_key.get("deal", [])
    if len(deals) > 1:
        raise RefereeError(Kind.HEADER, "the header 'deal' is given twice", deals[1].span)
    if not deals and not game.deal.hidden:
        raise RefereeError(Kind.HEADER, "a new hand needs its deal: 'deal: given' with the "
                           "hands, 'deal: seed N' or 'deal: hidden'", at)
    _check_seed(deals[0] if deals else None)
    return _read_deal(deals[0] if deals else None, by_key, game.spec, game.engine,
                      game.table, dealer, at)


def _seed(text: str) -> int | None:
    return ascii_number(text, MAX_SEED_DIGITS)


def _check_seed(header: Header | None) -> None:
    """A seeded deal's number: ASCII digits, not too many of them."""
    if header is None or not header.values or header.values[0].low != "seed":
        return
    number = header.values[1] if len(header.values) == 2 else None
    if number is None or _seed(number.text) is None:
        at = header.span if number is None else header.place(number)
        raise RefereeError(Kind.HEADER, "a seeded deal reads 'deal: seed 7', a whole number "
                           f"in digits 0 to 9, at most {MAX_SEED_DIGITS} of them", at)


def _read_target(header: Header | None) -> int | None:
    if header is None:
        return None
    values = [t.text for t in header.values]
    target = ascii_number(values[0], 6) if len(values) == 1 else None
    if target is None or not 0 < target <= 100_000:
        raise RefereeError(Kind.HEADER, "a match's target reads 'target: 100', a whole "
                           "number of points up to 100000", header.span)
    return target


def _read_teams(
    lines: list[Header], spec: GameSpec, table: Table
) -> tuple[tuple[str, ...], tuple[int, ...]]:
    count = len(table.players)
    if not spec.teams:
        if lines:
            raise RefereeError(Kind.HEADER, f"{spec.title} has no teams", lines[0].span)
        return (), ()
    if not lines:
        names = tuple(str(team + 1) for team in range(spec.teams))
        return names, spec.alternate_teams(count)
    if len(lines) != spec.teams:
        raise RefereeError(Kind.HEADER, f"{spec.title} is played in {spec.teams} teams, "
                           f"not {len(lines)}", lines[-1].span)
    named = [line.name for line in lines if line.name is not None]
    if len(named) < len(lines):
        raise RefereeError(Kind.HEADER, "a team reads 'team NAME: A C E'",
                           next(line.span for line in lines if line.name is None))
    refused = refusal([name.text for name in named], "team")
    if refused is not None:
        raise _at_name(refused.message, named[refused.index], lines[refused.index])
    teams: list[int | None] = [None] * count
    for index, line in enumerate(lines):
        for token in _listed(line.values):
            seat = table.seat(token.text, line.place(token))
            if teams[seat] is not None:
                raise RefereeError(Kind.HEADER, f"{table.players[seat]} is in two teams",
                                   line.span)
            teams[seat] = index
    alone = [table.players[s] for s, team in enumerate(teams) if team is None]
    if alone:
        raise RefereeError(Kind.HEADER, f"{alone[0]} is in no team", lines[-1].span)
    return tuple(n.text for n in named), tuple(t for t in teams if t is not None)


def _load_rules(header: Header, options: list[Header], near: Path | None) -> GameSpec:
    if not header.values:
        raise RefereeError(Kind.HEADER, "name one rule file: 'game: authors'", header.span)
    name = header.values[0]
    at_name = header.place(name)
    written = " ".join(v.text for v in header.values)  # 'Go Fish', as people name it
    path = find_rule_file(written, near) if len(header.values) == 1 else None
    if path is None:  # 'Go Fish', 'Go-Fish': the bundled go-fish
        alias = bundled_alias(written)
        path = find_rule_file(alias) if alias is not None else None
    if path is None:
        if len(header.values) != 1:
            raise RefereeError(Kind.HEADER, "name one rule file: 'game: authors'", header.span)
        raise RefereeError(Kind.UNKNOWN, no_rule_file(name.text), at_name)
    values: dict[str, str] = {}
    for option in options:
        if option.name is None or len(option.values) != 1:
            raise RefereeError(Kind.HEADER, "an option reads 'option NAME: VALUE'", option.span)
        values[option.name.text] = option.values[0].text
    try:
        return load_spec(path, values)
    except OptionError as exc:
        at = next((o for o in reversed(options) if o.name and o.name.text == exc.name),
                  options[0])
        raise exc.located(at.span) from None
    except Unreadable as exc:
        raise RefereeError(exc.kind, exc.message, at_name) from None
    except RefereeError as exc:
        if exc.kind is Kind.RULES:
            raise _option_misfit(path, values, options, exc).located(at_name) from None
        raise exc.located(at_name) from None


def _option_misfit(
    path: Path, values: dict[str, str], options: list[Header], error: RefereeError
) -> RefereeError:
    """A rule file that compiles alone but not with an option set: blame the option.
    Each option is tried alone on the rules read once, and nothing tried is kept."""
    try:
        book = rule_book(tuple(load_layers(path)))
        book.played()
    except RefereeError:
        return error
    for option in options:
        assert option.name is not None
        try:
            book.played({option.name.text: values[option.name.text]})
        except RefereeError:
            return RefereeError(Kind.HEADER, f"option {option.name.text} does not fit "
                                f"{path.stem}: {error.message}", option.span)
    return error


def _at_name(message: str, token: Token, line: Header) -> RefereeError:
    """A header error with its caret under the name ``token`` of the line ``line``."""
    return RefereeError(Kind.HEADER, message, line.place(token))


_AND: Final = ("and", "&")  # before a list's last name: 'players: Ann, Bob and Cy'


def _listed(values: tuple[Token, ...]) -> tuple[Token, ...]:
    """The names a header's ``values`` list, an ``and`` (or ``&``, in small letters)
    before the last one left out, as people end a list: ``Ann, Bob and Cy``. A name
    ``And`` is still a name."""
    if len(values) > 2 and values[-2].text in _AND:
        return (*values[:-2], values[-1])
    return values


def _read_players(header: Header, spec: GameSpec) -> Table:
    values = _listed(header.values)
    names = [t.text for t in values]
    refused = refusal(names)  # referee/transcript/names.py: readable names, no two alike
    if refused is not None:
        raise _at_name(refused.message, values[refused.index], header)
    counted = spec.refuses_players(len(names))
    if counted is not None:
        raise RefereeError(Kind.HEADER, counted, header.span)
    return Table(tuple(names))


def _read_deal(
    header: Header | None, by_key: dict[str, list[Header]], spec: GameSpec, engine: Engine,
    table: Table, dealer: int, first_line: Span,
) -> Deal:
    count = len(table.players)
    kind = [t.low for t in header.values] if header else ["hidden"]
    centre_lines = by_key.get("centre", []) + by_key.get("center", [])
    centre_size = spec.centre_size(count)
    if centre_lines and not centre_size:
        raise RefereeError(Kind.HEADER, f"{spec.title} deals no cards to the centre",
                           centre_lines[0].span)
    if kind[:1] == ["seed"] and len(kind) == 2 and (seed := _seed(kind[1])) is not None:
        dealt, rest = engine.shuffled_deal(count, dealer, seed)
        return Deal(tuple(tuple(h) for h in dealt), *engine.split_rest(count, rest))
    span = header.span if header else first_line
    if kind not in (["given"], ["hidden"]):
        raise RefereeError(Kind.HEADER, "the deal is 'seed N', 'given' or 'hidden'", span)
    hidden = kind == ["hidden"]
    seen: dict[Card, int] = {}  # the line each card is dealt on
    deck = set(spec.cards)

    def cards_of(line: Header) -> tuple[Card, ...]:
        cards = []
        number = line.span.line
        for token in line.values:
            card = parse_card(token.text)
            if card is None or card not in deck or card in seen:
                at = line.place(token)
                if card is not None and card in seen:
                    raise RefereeError(Kind.HEADER, f"{card} is dealt twice (also on line "
                                       f"{seen[card]})", at)
                what = "not a card" if card is None else f"not in the deck of {spec.title}"
                raise RefereeError(Kind.UNKNOWN, f"{quoted(token.text)} is {what}", at)
            seen[card] = number
            cards.append(card)
        return tuple(cards)

    hands: list[tuple[Card, ...] | None] = [None] * count
    lines: dict[int, int] = {}
    hand_lines: dict[int, Header] = {}
    for line in by_key.get("hand", []):
        if line.name is None:
            raise RefereeError(Kind.HEADER, "a hand reads 'hand NAME: CARDS'", line.span)
        seat = table.seat(line.name.text, line.place(line.name))
        if hands[seat] is not None:
            raise RefereeError(Kind.HEADER, f"{table.players[seat]}'s hand is given twice",
                               line.span)
        hands[seat] = cards_of(line)
        hand_lines[seat] = line
        lines[seat] = line.span.line
    stock_lines = by_key.get("stock", [])
    stock: tuple[Card | None, ...] = cards_of(stock_lines[0]) if stock_lines else ()
    centre = cards_of(centre_lines[0]) if centre_lines else ()
    if len(centre) != centre_size:
        where = centre_lines[0].span if centre_lines else span
        faces = " (face up: write them in a 'centre:' line)" if hidden and not centre else ""
        raise RefereeError(Kind.HEADER, f"{spec.title} deals {counted(centre_size, 'card')} "
                           f"face up to the centre with {count} players, not {len(centre)}"
                           f"{faces}", where)
    sizes = spec.hand_sizes(count, dealer)
    for seat, hand in enumerate(hands):
        if hand is None:
            if hidden:
                continue
            raise RefereeError(Kind.HEADER, f"deal: given needs 'hand {table.players[seat]}:'",
                               span)
        if len(hand) != sizes[seat]:
            raise RefereeError(Kind.HEADER, f"{table.players[seat]} is dealt "
                               f"{counted(sizes[seat], 'card')} in {spec.title}, not {len(hand)}",
                               hand_lines[seat].span)
    stock_size = len(spec.cards) - sum(sizes) - centre_size
    if stock_lines:
        lines[-1] = stock_lines[0].span.line
        if hidden and len(stock) != stock_size:
            raise RefereeError(Kind.HEADER, f"the stock holds {counted(stock_size, 'card')} in "
                               f"{spec.title} with {count} players, not {len(stock)}",
                               stock_lines[0].span)
    elif hidden:
        stock = (None,) * stock_size
    missing = [c for c in spec.cards if c not in seen]
    if missing and not hidden:
        where = stock_lines[0].span if stock_lines else span
        are = "is" if len(missing) == 1 else "are"
        more = " ..." if len(missing) > 8 else ""
        raise RefereeError(Kind.HEADER, f"{counted(len(missing), 'card')} of the deck {are} "
                           f"not dealt: {' '.join(missing[:8])}{more}", where)
    return Deal(tuple(hands), stock, centre, hidden, tuple(sorted(lines.items())))
