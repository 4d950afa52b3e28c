"""Rule files' statements to GameSpec: apply options, check the rules.

Every statement fills a slot; a variant's statement replaces its base's
statement of the same kind, and a variant's set statements replace all of its
base's. ``when OPTION:`` statements apply last, so an option always wins.
Every problem is raised through :func:`fail` with the statement's span.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import Enum
from types import MappingProxyType
from typing import TYPE_CHECKING, NoReturn, TypeVar, cast

from referee.caches import memoized
from referee.errors import Kind, RefereeError, Span
from referee.language.cards import (
    JOKERS,
    RANK_WORDS,
    STANDARD_RANKS,
    STANDARD_SUITS,
    SUIT_SYMBOLS,
    SUIT_WORDS,
    Card,
    Rank,
    Suit,
    make_card,
    parse_card,
    parse_rank,
    parse_suit,
    rank_of,
    rank_plural,
    suit_of,
)
from referee.language.spec import (
    AskFor,
    AskSpec,
    ClaimSpec,
    Condition,
    Continuation,
    EmptyHand,
    EndWhen,
    Fate,
    FirstSeat,
    GameSpec,
    Handover,
    Holding,
    LayDown,
    Outcome,
    PassTo,
    QuestionKind,
    SetSpec,
    Shown,
    Target,
    TieRule,
    WhenStuck,
)
from referee.reading import (
    ascii_number,
    quoted,
)
from referee.values import replace

if TYPE_CHECKING:  # the syntax tree is only built when a rule file is parsed
    from referee.language.ast import Node, RuleFile, Word

E = TypeVar("E", bound=Enum)
P = TypeVar("P")

SET_KINDS = ("book_sets", "suit_sets", "listed_set")
SHORT_LABELS = MappingProxyType({"high": "hi", "low": "lo"})  # a range's label as people shorten it
MAX_PLAYERS = 16
REQUIRED = {
    "players": "how many players (players: 3 to 6)",
    "deck": "the deck (deck: standard 52 cards)",
    "deal": "the deal (deal: all cards)",
    "sets": "the sets (sets: books of 4 cards of one rank)",
    "ask": "the ask (ask: any other player who holds cards, for a card)",
    "gives": "what an asked player gives (asked player gives: the card)",
    "if_given": "what a yes does (if given: ask again)",
    "if_not_given": "what a no does (if not given: turn passes to the next player)",
    "end": "when the game ends (end: when all sets are laid)",
    "card_values": "the cards' values for summing (card values: A 1, 2 2, ..., K 13)",
}
NO_ASK = AskSpec(Target.ANY_OTHER, True, AskFor.CARD, Holding.NOTHING, True, Handover.THE_CARD)
NO_OUTCOME = Outcome(False, Continuation(False, None, PassTo.NEXT))
NO_OPTIONS: Mapping[str, str] = MappingProxyType({})


def fail(message: str, span: Span | None) -> NoReturn:
    """Raise the one kind of error a rule file can cause."""
    raise RefereeError(Kind.RULES, message, span)


BETWEEN_WORDS = ";?>"  # what a transcript line reads as separators, besides ',' and ':'
DASHES = "-\u2013\u2014"  # a word of these alone parts two events in a transcript line


def nameable(word: Word, what: str) -> None:
    """Refuse a name the rule file gives that a transcript must write (a set's, an
    option's) when it holds a character a transcript reads between words: no
    transcript could name it, and every transcript written of the game would not read
    back (``#``, ``,``, ``:`` and spaces already end a word of a rule file)."""
    if not word.text.strip(DASHES):  # ('Ann claims - spades: ...' reads as two events)
        fail(f"{what} cannot be {quoted(word.text)}: a transcript reads a dash alone "
             "between two events", word.span)
    place = next((i for i, c in enumerate(word.text) if c in BETWEEN_WORDS), None)
    if place is not None:
        span = word.span
        fail(f"{what} cannot hold {word.text[place]!r}, which a transcript reads between "
             f"words: {quoted(word.text)}",
             Span(span.line, span.column + place, span.text, span.source))


@memoized(maxsize=1)
def rule_book(layers: tuple[RuleFile, ...]) -> RuleBook:
    """The :class:`RuleBook` of these layers (the last one made is kept: a parsed file
    stands as the same RuleFile while its text is unchanged)."""
    return RuleBook(layers)


def _int(word: Word, what: str, low: int = 0, high: int = 10_000) -> int:
    number = ascii_number(word.text, len(str(high)))
    if number is None or not low <= number <= high:
        fail(f"{what} must be a whole number from {low} to {high}, not {quoted(word.text)}",
             word.span)
    return number


SETS = "sets"  # the slot of set statements under ``when`` (they replace all sets at once)


class _When:
    """A checked ``when``: its place among all of them, the option it tests, the value
    it wants, and the statement it puts in force, with that statement's slot. (A plain
    class: a NamedTuple or a record would compile code at every start.)"""

    __slots__ = ("option", "place", "slot", "statement", "value")

    def __init__(self, place: int, option: str, value: str, statement: Node,
                 slot: str) -> None:
        self.place = place
        self.option = option
        self.value = value
        self.statement = statement
        self.slot = slot


class RuleBook:
    """A rule file and its bases read once: every statement checked and put in its
    slot, the options declared, and every ``when`` checked and filed under its option
    and value.

    The spec for any option values is then put together from the statements those
    values change, never by going through the layers again: lint and the sheet try
    each of a file's thousands of options at the cost of that option's own ``when``
    statements, and an option that changes no statement costs no compile at all.
    """

    def __init__(self, layers: Sequence[RuleFile]) -> None:
        self.top = layers[-1]
        self.defaults: dict[str, str] = {}
        plain: dict[str, Node] = {}
        plain_sets: tuple[Node, ...] = ()
        written: list[Node] = []
        for layer in layers:
            _refuse_repeats(layer)
            layer_sets: list[Node] = []
            for node in layer.statements:
                if node.kind == "option":
                    self._declare_option(node)
                elif node.kind == "when":
                    written.append(node)
                elif node.kind in SET_KINDS:
                    layer_sets.append(node)
                elif node.kind != "extends":
                    plain[_slot(node)] = node
            if layer_sets:
                plain_sets = tuple(layer_sets)
        self._plain = plain
        self._plain_sets = plain_sets
        self._by_value: dict[tuple[str, str], list[_When]] = {}
        self._active: dict[str, list[_When]] = {}  # by slot: in force at the defaults
        for index, node in enumerate(written):
            when = self._checked(index, node)
            self._by_value.setdefault((when.option, when.value), []).append(when)
            if self.defaults[when.option] == when.value:
                self._active.setdefault(when.slot, []).append(when)
        self._slots = dict(plain)
        for slot, whens in self._active.items():
            if slot != SETS:
                self._slots[slot] = whens[-1].statement
        active_sets = self._active.get(SETS)
        self._sets = tuple(w.statement for w in active_sets) if active_sets else plain_sets
        self._pieces: dict[tuple[object, ...], object] = {}  # deck and sets, by statements
        self._played: GameSpec | None = None  # the game at the defaults

    def _declare_option(self, node: Node) -> None:
        name, default = node.words
        nameable(name, "an option's name")
        value = _option_value(default.text)
        if value is None:
            fail(f"option {name.text} needs a default of yes, no or a whole number, "
                 f"not {quoted(default.text)}", default.span)
        self.defaults[name.text.lower()] = value

    def _checked(self, index: int, node: Node) -> _When:
        """A ``when`` statement whose option is declared and whose value can be given."""
        name = node.words[0]
        key = name.text.lower()
        if key not in self.defaults:
            fail(f"no option named {quoted(name.text)} is declared (option {name.text}: no)",
                 name.span)
        written = node.words[1] if len(node.words) > 1 else None
        wanted = self._fitting(key, written.text if written else "yes")
        if wanted is None:
            value = written.text if written else "yes"
            fail(f"option {name.text} is {_option_kind(self.defaults[key])}, so 'when "
                 f"{name.text} is {value}' can never apply", (written or name).span)
        inner = node.parts[0]
        return _When(index, key, wanted, inner, SETS if inner.kind in SET_KINDS else _slot(inner))

    def _fitting(self, key: str, given: str) -> str | None:
        """``given`` in canonical form if it is a value of option ``key``'s kind, else None."""
        value = _option_value(given)
        if value is None or (value in ("yes", "no")) != (self.defaults[key] in ("yes", "no")):
            return None
        return value

    def _chosen(self, options: Mapping[str, str]) -> dict[str, str]:
        """The option values set, by option, in canonical form; an option the rules do
        not declare, or a value of the wrong kind, raises :class:`OptionError`."""
        chosen: dict[str, str] = {}
        for name, given in options.items():
            key = name.lower()
            if key not in self.defaults:
                raise OptionError(name, Kind.UNKNOWN, f"{self.top.name} has no option "
                                  f"{quoted(name)} (options: {_listed(self.defaults)})")
            value = self._fitting(key, given)
            if value is None:
                raise OptionError(name, Kind.HEADER, f"option {name} is "
                                  f"{_option_kind(self.defaults[key])}, not {quoted(given)}")
            chosen[key] = value
        return chosen

    def spec(self, options: Mapping[str, str] | None = None) -> GameSpec:
        """The spec with ``options`` set, every other option at its default."""
        chosen = self._chosen(options or {})
        values = dict(self.defaults)
        values.update(chosen)
        return replace(self._played_with(chosen), options=MappingProxyType(values),
                       options_set=MappingProxyType(chosen))

    def played(self, options: Mapping[str, str] | None = None) -> GameSpec:
        """The game ``options`` give, without the option values themselves (its
        ``options`` and ``options_set`` are empty): what two settings are compared by."""
        return self._played_with(self._chosen(options or {}))

    def in_force(self, options: Mapping[str, str] | None = None
                 ) -> tuple[dict[str, Node], tuple[Node, ...]]:
        """The statement that fills each slot once ``extends``, options and ``when`` are
        applied (keyed by :func:`slot_of`), and the set statements in force."""
        slots, sets, _ = self._in_force(self._chosen(options or {}))
        return slots, sets

    def _played_with(self, chosen: dict[str, str]) -> GameSpec:
        slots, sets, changed = self._in_force(chosen)
        if not changed and self._played is not None:
            return self._played
        played = _Compiler(self.top, slots, sets, self._pieces).compile()
        if not changed:
            self._played = played
        return played

    def _in_force(self, chosen: dict[str, str]
                  ) -> tuple[dict[str, Node], tuple[Node, ...], bool]:
        """The statements in force with ``chosen`` values, and whether any differs from
        the defaults'. Only the slots that the changed options' ``when`` statements fill
        are worked out again: the cost is theirs, not the file's."""
        changed = {key: value for key, value in chosen.items() if value != self.defaults[key]}
        slots = dict(self._slots)
        if not changed:
            return slots, self._sets, False
        coming: dict[str, list[_When]] = {}
        touched: set[str] = set()
        for key, value in changed.items():
            touched.update(w.slot for w in self._by_value.get((key, self.defaults[key]), ()))
            for when in self._by_value.get((key, value), ()):
                coming.setdefault(when.slot, []).append(when)
        touched.update(coming)
        sets = self._sets
        for slot in touched:
            active = self._active.get(slot, [])
            if slot == SETS:
                now = sorted([w for w in active if w.option not in changed]
                             + coming.get(SETS, []), key=lambda w: w.place)
                sets = tuple(w.statement for w in now) or self._plain_sets
                continue
            last = next((w for w in reversed(active) if w.option not in changed), None)
            for when in coming.get(slot, ()):
                if last is None or when.place > last.place:
                    last = when
            node = last.statement if last is not None else self._plain.get(slot)
            if node is None:
                slots.pop(slot, None)
            else:
                slots[slot] = node
        differs = (len(sets) != len(self._sets)
                   or any(a is not b for a, b in zip(sets, self._sets, strict=True))
                   or any(slots.get(slot) is not self._slots.get(slot) for slot in touched))
        return slots, sets, differs


def _listed(names: Iterable[str], most: int = 20) -> str:
    """Names for a message, sorted, the first ``most`` of them: ``a, b and 40 more``."""
    ordered = sorted(names)
    if not ordered:
        return "none"
    shown = ", ".join(ordered[:most])
    return shown if len(ordered) <= most else f"{shown} and {len(ordered) - most:,} more"


class _Compiler:
    """Turns the statements in force of one rule file into a GameSpec, without option
    values (see :meth:`RuleBook.spec`). The deck and the sets, the costliest parts,
    are kept in ``pieces`` by the statements they come from."""

    def __init__(self, top: RuleFile, slots: Mapping[str, Node], set_nodes: Sequence[Node],
                 pieces: dict[tuple[object, ...], object]) -> None:
        self.top = top
        self.slots = slots
        self.set_nodes = list(set_nodes)
        self.pieces = pieces

    def need(self, slot: str) -> Node:
        node = self.slots.get(slot)
        if node is None:
            self.missing(slot)
        return node

    def missing(self, slot: str) -> NoReturn:
        span = Span(1, 1, self.top.first_line, self.top.path, len(self.top.first_line))
        fail(f"the rules never say {REQUIRED[slot]}", span)

    # -- the whole spec -------------------------------------------------------

    def compile(self) -> GameSpec:
        player_counts = self._player_counts(self.need("players"))
        teams = self._teams(player_counts)
        deck = self.need("deck")
        ranks, suits, cards = self._piece(("deck", id(deck)), lambda: self._deck(deck))
        plays = "play" in self.slots
        has_asks = "ask" in self.slots or not plays
        # only a game of plays without asks may do without sets: an ask is for a set's card
        sets = self._piece(("sets", id(deck), *map(id, self.set_nodes)),
                           lambda: self._sets(ranks, cards)) if self.set_nodes or has_asks else ()
        deal_node = self.need("deal")
        deal_all, deal_sizes = self._deal(deal_node, player_counts, len(cards))
        ask = self._ask() if has_asks else NO_ASK
        on_given = self._outcome(self.need("if_given"), ask) if has_asks else NO_OUTCOME
        on_refused = self._outcome(self.need("if_not_given"), ask) if has_asks else NO_OUTCOME
        centre_refill = self.slots.get("centre_refill")
        title = self.slots["name"].words[0].text if "name" in self.slots else self.top.name
        about = self.slots["about"].words[0].text if "about" in self.slots else ""
        self._check_partial_sets(sets)
        self._check_claims_without_stock(deal_node, deal_sizes, len(cards))
        per_set, by_kind = self._scores(sets)
        match_target, match_by_hands = self._match()
        return GameSpec(
            name=self.top.name, title=title, about=about, source=self.top.path,
            player_counts=frozenset(player_counts), teams=teams,
            ranks=ranks, suits=suits, cards=cards, sets=sets,
            set_of_card=MappingProxyType({c: s for s in sets for c in s.cards}),
            deal_all=deal_all, deal_sizes=MappingProxyType(deal_sizes),
            deal_rest_to_centre=deal_node.kind == "deal_even",
            centre_deal=self._centre_deal(deal_node, player_counts, deal_sizes, len(cards)),
            lay_down=self._phrase("lay_down", LayDown, LayDown.AT_ONCE),
            claims=self._claims(),
            empty_hand=self._empty_hand(),
            questions=self._questions(),
            has_asks=has_asks, plays=plays,
            draw_after_play="after_play" in self.slots,
            centre_refill=_int(centre_refill.words[0], "the centre's size", 1, 52)
            if centre_refill else 0,
            card_values=MappingProxyType(self._rank_table("card_values", ranks)),
            card_points=MappingProxyType(self._rank_table("card_points", ranks)),
            after_question=self._phrase("after_question", PassTo, PassTo.NEXT),
            ask=ask, on_given=on_given, on_refused=on_refused,
            when_stuck=self._phrase("cannot_ask", WhenStuck, WhenStuck.SIT_OUT),
            refill_deal=self._refill(),
            refill_not_last=bool(self.slots.get("refill")
                                 and self.slots["refill"].part("refill_unless")),
            first_seat=self._phrase("first_player", FirstSeat, FirstSeat.LEFT_OF_DEALER),
            end_when=frozenset(
                [*self._end(), EndWhen.ALL_SETS_LAID]),
            points_per_set=per_set, points_by_kind=MappingProxyType(by_kind),
            points_by_set=MappingProxyType(self._scores_by_rank(sets)),
            match_target=match_target, match_by_hands=match_by_hands,
            winner=self.slots["winner"].parts[0].phrase if "winner" in self.slots
            else "most points",
            ties=self._phrase("ties", TieRule, TieRule.STAND),
            options=NO_OPTIONS, options_set=NO_OPTIONS,
            shown=self._phrase("shown", Shown, Shown.EVERY_EVENT),
        )

    def _end(self) -> list[EndWhen]:
        """The conditions of ``end:``, each said once."""
        ends: list[EndWhen] = []
        for part in self.need("end").parts:
            end = EndWhen(part.phrase)
            if end in ends:
                fail(f"'when {part.phrase}' is said twice", part.span)
            ends.append(end)
        return ends

    def _piece(self, key: tuple[object, ...], make: Callable[[], P]) -> P:
        """``make()``, kept under ``key`` (statements' identities: the book that keeps
        the pieces keeps the statements, so an identity is never reused)."""
        if key not in self.pieces:
            self.pieces[key] = make()
        return cast(P, self.pieces[key])

    def _phrase(self, slot: str, enum: type[E], default: E) -> E:
        node = self.slots.get(slot)
        return enum(node.parts[0].phrase) if node else default

    # -- players, deck, sets, deal ------------------------------------------

    def _player_counts(self, node: Node) -> list[int]:
        count = node.parts[0]
        numbers: list[int] = []
        for word in count.words:
            number = _int(word, "a number of players", 2, MAX_PLAYERS)
            if number in numbers:
                fail(f"{number} players are named twice", word.span)
            numbers.append(number)
        if count.kind == "count_range":
            if numbers[0] > numbers[1]:
                fail(f"{numbers[0]} to {numbers[1]} is an empty range", count.span)
            return list(range(numbers[0], numbers[1] + 1))
        if count.kind == "count_at_least":
            return list(range(numbers[0], MAX_PLAYERS + 1))
        return sorted(numbers)

    def _teams(self, player_counts: list[int]) -> int:
        node = self.slots.get("teams")
        if node is None:
            return 0
        teams = _int(node.words[0], "the number of teams", 2, MAX_PLAYERS)
        uneven = [n for n in player_counts if n % teams]
        if uneven:
            fail(f"{uneven[0]} players cannot sit alternately in {teams} teams", node.span)
        return teams

    def _deck(self, node: Node) -> tuple[tuple[Rank, ...], tuple[Suit, ...], tuple[Card, ...]]:
        base = node.parts[0]
        ranks: list[Rank] = list(STANDARD_RANKS)
        suits: list[Suit] = list(STANDARD_SUITS)
        if base.kind == "listed_deck":
            rank_words, suit_words = base.parts
            ranks = self._rank_list(rank_words.words)
            suits = []
            for word in suit_words.words:
                suit = parse_suit(word.text)
                if suit is None or suit in suits:
                    fail(f"{quoted(word.text)} is not a new suit (S, H, D, C)", word.span)
                suits.append(suit)
        jokers: list[Card] = []
        for change in node.parts[1:]:
            if change.kind == "without_ranks":
                for rank, word in zip(self._rank_list(change.words), _words(change), strict=True):
                    if rank not in ranks:
                        fail(f"the deck has no {rank_plural(rank)} to remove", word.span)
                    ranks.remove(rank)
            else:
                for word in _words(change):
                    card = parse_card(word.text)
                    if card not in JOKERS or card in jokers:
                        fail(f"{quoted(word.text)} is not a joker; jokers are RJ and BJ", word.span)
                    jokers.append(card)
        if not ranks:
            fail("the deck has no cards left", node.span)
        cards = [make_card(r, s) for r in ranks for s in suits] + jokers
        return tuple(ranks), tuple(suits), tuple(cards)

    @staticmethod
    def _rank_list(words: tuple[Word, ...]) -> list[Rank]:
        ranks: list[Rank] = []
        for word in _without_and(words):
            rank = parse_rank(word.text, digit_plurals=True)
            if rank is None:
                fail(f"{quoted(word.text)} is not a rank (2 to 10, J, Q, K, A, or twos .. aces)",
                     word.span)
            if rank in ranks:
                fail(f"the rank {rank} is named twice", word.span)
            ranks.append(rank)
        return ranks

    def _sets(self, ranks: tuple[Rank, ...], cards: tuple[Card, ...]) -> tuple[SetSpec, ...]:
        if not self.set_nodes:
            self.missing("sets")
        kinds = {n.kind for n in self.set_nodes}
        if "book_sets" in kinds and len(kinds) > 1:
            fail("give the sets either as books or as sets of your own, not both",
                 self.set_nodes[-1].span)
        if len([n for n in self.set_nodes if n.kind != "listed_set"]) > 1:
            fail("the sets of every suit or rank are given twice", self.set_nodes[-1].span)
        if "book_sets" in kinds:
            node = self.set_nodes[-1]
            size = _int(node.words[0], "a book's size", 1, 100)
            sets = []
            for rank in sorted({rank_of(c) for c in cards}, key=_rank_key(ranks)):
                members = frozenset(c for c in cards if rank_of(c) == rank)
                if len(members) % size:
                    fail(f"a book is {size} cards of one rank, but the deck has "
                         f"{len(members)} of rank {rank}: {size} does not divide it",
                         node.span)
                aliases = {rank.lower(), *RANK_WORDS.get(rank, ())}
                if rank == "10":
                    aliases.add("t")
                sets.append(SetSpec(rank, members, frozenset(aliases), "book", size,
                                    len(members) // size))
            return tuple(sets)
        return self._own_sets(ranks, cards)

    def _own_sets(self, ranks: tuple[Rank, ...], cards: tuple[Card, ...]) -> tuple[SetSpec, ...]:
        owner: dict[Card, str] = {}
        sets: list[SetSpec] = []
        in_deck = set(cards)
        for node in self.set_nodes:
            if node.kind == "suit_sets":
                for spec in self._suit_sets(node, ranks, in_deck):
                    clash = next((c for c in spec.cards if c in owner), None)
                    if clash is not None:
                        fail(f"{clash} is already in the set {quoted(owner[clash])}", node.span)
                    owner.update(dict.fromkeys(spec.cards, spec.name))
                    sets.append(spec)
                continue
            colon = node.span.text.index(":") + 1 if ":" in node.span.text else 0
            name_words = [w for w in node.words if w.span.column < colon]
            for word in name_words:
                nameable(word, "a set's name")
            name = " ".join(w.text.lower() for w in name_words)
            if any(s.name == name for s in sets):
                fail(f"there are two sets named {quoted(name)}", node.span)
            members: set[Card] = set()
            for word in node.words[len(name_words):]:
                card = parse_card(word.text)
                if card is None or card not in in_deck:
                    fail(f"{quoted(word.text)} is not a card of this deck", word.span)
                if card in owner or card in members:
                    fail(f"{card} is already in the set {quoted(owner.get(card, name))}", word.span)
                members.add(card)
            owner.update(dict.fromkeys(members, name))
            sets.append(SetSpec(name, frozenset(members), frozenset([name]), name))
        missing = [c for c in cards if c not in owner]
        if missing:
            fail(f"these cards are in no set: {' '.join(missing)}", self.set_nodes[0].span)
        return tuple(sets)

    def _suit_sets(
        self, node: Node, ranks: tuple[Rank, ...], in_deck: set[Card]
    ) -> list[SetSpec]:
        """``in each suit, low 3 to 8, high 9 to A``: one set per range and suit."""
        suit_word = {suit: word for word, suit in SUIT_WORDS.items()}
        suits = sorted({suit_of(c) for c in in_deck if c not in JOKERS}, key="SHDC".index)
        sets: list[SetSpec] = []
        names: set[str] = set()
        for part in node.parts:
            label, first, last = part.words
            nameable(label, "a set's name")
            kind = label.text.lower()
            if kind in names:
                fail(f"two ranges are named {quoted(kind)}", label.span)
            names.add(kind)
            members = self._rank_range(first, last, ranks)
            for suit in suits:
                cards = frozenset(c for c in (make_card(r, suit) for r in members)
                                  if c in in_deck)
                word = suit_word[suit]
                name = f"{kind} {word}"
                aliases = {name, f"{kind} {suit.lower()}", f"{kind} {word[:-1]}",
                           f"{word} {kind}"}
                aliases |= {f"{kind} {sym}" for sym, s in SUIT_SYMBOLS.items() if s == suit}
                short = SHORT_LABELS.get(kind)  # 'hi hearts', 'lo spades'
                if short is not None:
                    aliases |= {alias.replace(kind, short) for alias in aliases}
                sets.append(SetSpec(name, cards, frozenset(aliases), kind))
        return sets

    @staticmethod
    def _rank_range(first: Word, last: Word, ranks: tuple[Rank, ...]) -> list[Rank]:
        """The deck's ranks from ``first`` to ``last``; an ace that starts a range is low."""
        ends = []
        for word in (first, last):
            rank = parse_rank(word.text, digit_plurals=True)
            if rank is None or rank not in ranks:
                fail(f"{quoted(word.text)} is not a rank of this deck", word.span)
            ends.append(rank)
        order = ["A", *STANDARD_RANKS[:-1]] if ends[0] == "A" else list(STANDARD_RANKS)
        start, stop = order.index(ends[0]), order.index(ends[1])
        if stop < start:
            fail(f"{first.text} to {last.text} runs backwards (an ace starts a range low "
                 "or ends it high)", last.span)
        return [Rank(r) for r in order[start:stop + 1] if r in ranks]

    def _deal(self, node: Node, counts: list[int], deck_size: int) -> tuple[bool, dict[int, int]]:
        if node.kind in ("deal_all", "deal_even"):
            return True, {}
        sizes: dict[int, int] = {}
        for part in (p for p in node.parts if p.kind == "deal_count"):
            each = _int(part.words[0], "the cards dealt to each player", 1, 1000)
            applies = counts if not part.parts else self._player_counts(part)
            for players in applies:
                if players in sizes:
                    fail(f"the deal for {players} players is given twice", part.span)
                if players in counts and each * players > deck_size:
                    fail(f"{each} cards each for {players} players needs "
                         f"{each * players} cards; the deck has {deck_size}", part.span)
                sizes[players] = each
        missing = [n for n in counts if n not in sizes]
        if missing:
            fail(f"the deal does not say how many cards {missing[0]} players get", node.span)
        return False, sizes

    # -- asking and answering -----------------------------------------------

    def _ask(self) -> AskSpec:
        node = self.need("ask")
        whom, item_phrase = node.parts
        item = AskFor(item_phrase.phrase)
        must_not = self.slots.get("must_not_hold")
        may_hold = not must_not or must_not.parts[0].phrase == "nothing"
        if item is AskFor.RANK and not may_hold:
            fail("an ask for a rank names no card, so 'the card' cannot be forbidden",
                 must_not.span if must_not else node.span)
        gives = self.need("gives")
        handover = Handover(gives.parts[0].phrase)
        if item is AskFor.RANK and handover in (Handover.THE_CARD, Handover.TO_CENTRE):
            fail("an ask for a rank names no card to give; say 'every card of the rank' or "
                 "'one card of the rank'", gives.span)
        if item is AskFor.CARD and handover is Handover.ONE_OF_RANK:
            fail("an ask for a card is answered with that card; 'one card of the rank' "
                 "answers an ask for a rank", gives.span)
        target = Target.OPPONENT if whom.phrase.startswith("an opponent") else Target.ANY_OTHER
        if target is Target.OPPONENT and "teams" not in self.slots:
            fail("asks go to opponents, but the rules never say the teams "
                 "(teams: 2, seated alternately)", whom.span)
        return AskSpec(
            target=target,
            target_needs_cards=whom.phrase.endswith("who holds cards"),
            item=item,
            must_hold=self._phrase("must_hold", Holding, Holding.NOTHING),
            may_hold_card=may_hold,
            handover=handover,
        )

    def _claims(self) -> ClaimSpec | None:
        node = self.slots.get("claims")
        if node is None:
            stray = self.slots.get("misplaced") or self.slots.get("opposed")
            if stray is not None:
                fail("this says what a wrong claim does, but the rules have no claims "
                     "(claims: a whole set in turn, naming the teammate who holds each card)",
                     stray.span)
            return None
        if "teams" not in self.slots:
            fail("claims name teammates, but the rules never say the teams "
                 "(teams: 2, seated alternately)", node.span)
        if "play" in self.slots:
            fail("a claim names where every card of a set is, but plays capture cards out of "
                 "the hands: the two do not go together", node.span)
        teams = self.slots["teams"]
        if teams.words[0].text != "2":
            fail("claims are for two teams: a wrong claim's set goes to 'the other team', "
                 f"and with {quoted(teams.words[0].text)} teams there is no one other team",
                 teams.words[0].span)
        return ClaimSpec(misplaced=self._phrase("misplaced", Fate, Fate.VOID),
                         opposed=self._phrase("opposed", Fate, Fate.OTHER_TEAM))

    def _rank_table(self, slot: str, ranks: tuple[Rank, ...]) -> dict[Rank, int]:
        """``card values: A 1, 2 2, ...``: a number for every rank of the deck."""
        node = self.slots.get(slot)
        if node is not None and slot == "card_points" and "play" not in self.slots:
            fail("card points score captured cards, but nothing is ever captured: the "
                 "rules have no play (play: one card from the hand, capturing ...)", node.span)
        if node is None:
            if slot == "card_values" and "play" in self.slots:
                self.missing(slot)
            return {}
        table: dict[Rank, int] = {}
        for pair in node.parts:
            rank_word, number = pair.words
            rank = parse_rank(rank_word.text, digit_plurals=True)
            if rank is None or rank not in ranks:
                fail(f"{quoted(rank_word.text)} is not a rank of this deck", rank_word.span)
            if rank in table:
                fail(f"the rank {rank} is given twice", rank_word.span)
            table[rank] = _int(number, "a card's number", 0, 1000)
        missing = [r for r in ranks if r not in table]
        if missing:
            fail(f"the table gives no number for {', '.join(missing)}", node.span)
        return table

    @staticmethod
    def _centre_deal(node: Node, counts: list[int], sizes: dict[int, int], deck: int) -> int:
        part = node.part("centre_deal")
        if part is None:
            return 0
        centre = _int(part.words[0], "the cards turned up to the centre", 1, 100)
        for players in counts:
            if sizes[players] * players + centre > deck:
                fail(f"{sizes[players]} cards each for {players} players and {centre} to the "
                     f"centre need {sizes[players] * players + centre} cards; the deck has "
                     f"{deck}", part.span)
        return centre

    def _questions(self) -> frozenset[QuestionKind]:
        node = self.slots.get("questions")
        if node is None:
            return frozenset()
        kinds: set[QuestionKind] = set()
        for word in node.words:
            try:
                kind = QuestionKind(word.text.lower().replace("color", "colour"))
            except ValueError:
                fail(f"a question names a rank, a suit or a colour, not {quoted(word.text)}",
                     word.span)
            if kind in kinds:
                fail(f"questions name a {kind.value} twice", word.span)
            kinds.add(kind)
        return frozenset(kinds)

    def _empty_hand(self) -> EmptyHand:
        rule = self._phrase("empty_hand", EmptyHand, EmptyHand.NEXT)
        if rule is EmptyHand.CHOSEN and "teams" not in self.slots:
            fail("the turn passes to a teammate, but the rules never say the teams "
                 "(teams: 2, seated alternately)", self.slots["empty_hand"].span)
        return rule

    def _scores(self, sets: tuple[SetSpec, ...]) -> tuple[int, dict[str, int]]:
        """Points per set, and per kind of set where the score names one."""
        node = self.slots.get("score")
        if node is None:
            return 1, {}
        per_set: int | None = None
        by_kind: dict[str, int] = {}
        kinds = sorted({s.kind for s in sets})
        for item in node.parts:
            if item.part("of_ranks") is not None:
                continue  # scored by _scores_by_rank
            points = _int(item.words[0], "points per set", 0, 1000)
            if len(item.words) == 1:
                if per_set is not None:
                    fail("the points per set are given twice", item.span)
                per_set = points
                continue
            kind = item.words[1]
            if kind.text.lower() not in kinds:
                fail(f"no set is a {quoted(kind.text)} set (kinds: {', '.join(kinds)})", kind.span)
            if kind.text.lower() in by_kind:
                fail(f"the points of {quoted(kind.text)} sets are given twice", kind.span)
            by_kind[kind.text.lower()] = points
        return (1 if per_set is None else per_set), by_kind

    def _scores_by_rank(self, sets: tuple[SetSpec, ...]) -> dict[str, int]:
        """``3 points per set of aces``: the points of each set whose cards are all of
        the ranks named."""
        node = self.slots.get("score")
        by_set: dict[str, int] = {}
        for item in node.parts if node is not None else ():
            of = item.part("of_ranks")
            if of is None:
                continue
            ranks = set()
            for word in of.words:
                rank = parse_rank(word.text, digit_plurals=True)
                if rank is None:
                    fail(f"{quoted(word.text)} is not a rank (2 to 10, J, Q, K, A, or twos .. "
                         "aces)", word.span)
                if rank in ranks:
                    fail(f"the rank {rank} is named twice", word.span)
                ranks.add(rank)
            chosen = [s.name for s in sets if {rank_of(c) for c in s.cards} <= ranks]
            if not chosen:
                fail(f"no set is made of {' '.join(w.text for w in of.words)}", of.span)
            for name in chosen:
                if name in by_set:
                    fail(f"the set {name} is given points twice", item.span)
                by_set[name] = _int(item.words[0], "points per set", 0, 1000)
        return by_set

    def _check_partial_sets(self, sets: tuple[SetSpec, ...]) -> None:
        """Sets of part of a rank (pairs) are laid from the hand, and never claimed."""
        if all(s.whole for s in sets):
            return
        node = self.slots.get("claims")
        if node is not None:
            fail("a claim names where every card of a set is, but these sets are part of "
                 "a rank (any cards of it make one)", node.span)
        lay_down = self.slots.get("lay_down")
        if lay_down is not None and self._phrase("lay_down", LayDown,
                                                  LayDown.AT_ONCE) is LayDown.WITH_CENTRE:
            fail("sets of part of a rank are laid from the hand, not with cards of the "
                 "centre", lay_down.span)

    def _check_claims_without_stock(self, deal: Node, sizes: dict[int, int], deck: int) -> None:
        """A claim is judged by the holders showing the set's cards, so no card may lie
        unseen in a stock."""
        node = self.slots.get("claims")
        if node is None or deal.kind != "deal_each":
            return
        centre = self._centre_deal(deal, list(sizes), sizes, deck)
        stocked = [n for n, each in sorted(sizes.items()) if each * n + centre < deck]
        if stocked:
            fail(f"a claim is judged by the holders showing the set's cards, but with "
                 f"{stocked[0]} players this deal leaves a stock, where nobody can show "
                 f"them (deal: all cards)", node.span)

    def _refill(self) -> bool:
        """Whether a set laid from the deal is replaced from the stock."""
        node = self.slots.get("refill")
        if node is None:
            return False
        if self._phrase("lay_down", LayDown, LayDown.AT_ONCE) is not LayDown.AT_ONCE:
            fail("only sets laid at once are laid from the deal (lay down: at once)",
                 node.span)
        deal = self.slots.get("deal")
        if deal is not None and deal.kind != "deal_each":
            fail("a set laid from the deal is replaced from the stock, but this deal leaves "
                 "no stock (deal: 7 each with 2 players, ...)", node.span)
        return True

    def _match(self) -> tuple[int | None, bool]:
        """A match's target, and whether it counts hands won rather than points."""
        node = self.slots.get("match")
        if node is None:
            return None, False
        target = _int(node.words[0], "a match's target", 1, 100_000)
        return target, node.parts[0].phrase == "hands won"

    def _outcome(self, node: Node, ask: AskSpec) -> Outcome:
        draw = node.part("draw_first") is not None
        cont = node.parts[-1]
        pass_node = cont.part("phrase_pass")
        pass_to = PassTo(pass_node.phrase) if pass_node else PassTo.NEXT
        condition_node = cont.part("phrase_condition")
        condition = Condition(condition_node.phrase) if condition_node else None
        if condition in (Condition.DRAWN_IS_CARD, Condition.DRAWN_IS_RANK) and not draw:
            fail("this answer draws no card, so there is no card drawn to test",
                 condition_node.span if condition_node else node.span)
        if condition is Condition.DRAWN_IS_CARD and ask.item is AskFor.RANK:
            fail("an ask for a rank names no card for the draw to match",
                 condition_node.span if condition_node else node.span)
        return Outcome(draw, Continuation(cont.kind != "pass_turn", condition, pass_to))


def _words(node: Node) -> list[Word]:
    """A list's words without the ``and`` that may join two of them (``twos and
    eights``); an ``and`` that joins nothing is refused."""
    return _without_and(node.words)


def _without_and(words: Sequence[Word]) -> list[Word]:
    kept: list[Word] = []
    for index, word in enumerate(words):
        if word.text.lower() != "and":
            kept.append(word)
        elif not kept or index + 1 == len(words) or words[index - 1].text.lower() == "and":
            fail("'and' stands between two words of a list", word.span)
    return kept


def _rank_key(ranks: tuple[Rank, ...]) -> Callable[[Rank], int]:
    order = {r: i for i, r in enumerate(ranks)}
    return lambda rank: order.get(rank, len(order))


class OptionError(RefereeError):
    """An option set from outside (a transcript's header) that the rules refuse;
    ``name`` is the option as it was written, so that the error can be placed."""

    def __init__(self, name: str, kind: Kind, message: str) -> None:
        super().__init__(kind, message)
        self.name = name


def _slot(node: Node) -> str:
    return "deal" if node.kind.startswith("deal") else node.kind


def slot_of(node: Node) -> str:
    """The slot a statement fills: its kind, with every form of ``deal:`` one slot."""
    return _slot(node)


def _option_value(text: str) -> str | None:
    """An option's value in canonical form (``yes``, ``no``, ``3``), or None."""
    low = text.lower()
    if low in ("yes", "no"):
        return low
    number = ascii_number(text)
    return None if number is None else str(number)


def _option_kind(value: str) -> str:
    return "yes or no" if value in ("yes", "no") else "a number"


def _refuse_repeats(layer: RuleFile) -> None:
    """A statement may stand once in a rule file: a second one is an error, not a silent
    replacement (``set NAME:`` lines and ``when`` lines for other values aside)."""
    seen: dict[tuple[str, ...], Node] = {}
    for node in layer.statements:
        if node.kind == "option":
            key: tuple[str, ...] = ("option", node.words[0].text.lower())
        elif node.kind == "when":
            value = node.words[1].text.lower() if len(node.words) > 1 else "yes"
            key = ("when", node.words[0].text.lower(), value, _slot(node.parts[0]))
        elif node.kind in SET_KINDS:
            continue  # the sets have checks of their own
        else:
            key = (_slot(node),)
        if key in seen:
            fail(f"{quoted(_heading(node))} is given twice in this file (first on line "
                 f"{seen[key].span.line}); say it once", node.span)
        seen[key] = node


def _heading(node: Node) -> str:
    """The words of a statement before its colon (``lay down``, ``when fast``)."""
    text = node.span.text[node.span.column - 1:]
    return " ".join(text.split(":", 1)[0].split()) + ":"
