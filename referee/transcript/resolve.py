"""Written events to engine moves: names, cards and sets resolved against the table
and the rules, and the answers an open deal leaves out filled in from the cards."""

from __future__ import annotations

import itertools
from typing import Final, TypeVar, cast

from referee.caches import memo
from referee.engine.asks import cards_due
from referee.engine.moves import (
    Answer,
    Ask,
    Claim,
    Draw,
    Give,
    LayDown,
    Move,
    Pass,
    Play,
    Question,
    Refuse,
    Show,
    TurnUp,
)
from referee.engine.questions import read_question
from referee.engine.state import PHASE_ANSWER, GameState
from referee.engine.wording import describe_question
from referee.errors import Kind, RefereeError, Span
from referee.language.cards import (
    ARTICLES,
    RANK_ARTICLES,
    Card,
    Rank,
    parse_asked,
    parse_card,
    parse_plural_rank,
    parse_rank,
    rank_of,
    rank_plural,
    small_s_plural,
)
from referee.language.spec import (
    ASK_FOR_RANK,
    HANDOVER_ONE_OF_RANK,
    HANDOVER_TO_CENTRE,
    GameSpec,
    SetSpec,
)
from referee.reading import quoted
from referee.transcript.events import (
    EVENT_ASK,
    EVENT_BOOK,
    EVENT_CLAIM,
    EVENT_GIVE,
    EVENT_NEW_HAND,
    EVENT_PASS,
    EVENT_PLAY,
    EVENT_REFUSE,
    EVENT_SHOW,
    EVENT_TURN_UP,
    Event,
    Token,
)
from referee.transcript.setup import Game

_OF_THE_MOMENT: Final = (EVENT_GIVE, EVENT_REFUSE, EVENT_TURN_UP, EVENT_NEW_HAND)
MAX_REMEMBERED_MOVES = 20_000  # moves remembered by their text, for one table's rules


class Remembered:
    """The moves remembered for games of one spec at one table: by an event's text
    (the same text read as the same event, events.Event.key), and answers also by
    who answers and whether a question is open; and what an ask's item words name.
    Text alone keys a dict of strings, the quickest to look up."""

    __slots__ = ("answers", "by_words", "items", "number", "spec")

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec  # kept, so that its id stays its own while these are
        self.number = next(_NUMBERS)  # its own: no other in this process has it
        self.by_words: dict[str, Move] = {}
        self.answers: dict[tuple[object, ...], Move] = {}
        # the rank and card an ask's item words name (``K♦``, ``kd``, ``kings``): the
        # same for every ask under these rules, however its other words are written
        self.items: dict[str, tuple[Rank, Card | None]] = {}


_NUMBERS: Final = itertools.count(1)


_TABLES: Final[dict[tuple[int, tuple[str, ...]], Remembered]] = memo(
    "referee.transcript.resolve._TABLES")


def _remembered_moves(game: Game) -> Remembered:
    """The moves remembered for games of these rules at this table, shared by every
    transcript checked in one process (a corpus, ``referee check`` of many files).

    A move is remembered by the spec, the players and the event's text (an answer also
    by who answers and whether a question is open): all it is resolved from. Moves are
    values nobody changes, and the spec is kept with them, so its ``id`` is not reused
    while they are: no file checked before changes what an event means."""
    key = (id(game.spec), game.table.players)
    found = _TABLES.get(key)
    if found is None or found.spec is not game.spec:  # the spec is kept: its id stays its own
        if len(_TABLES) > 64:
            _TABLES.clear()
        found = _TABLES[key] = Remembered(game.spec)
    return found


class Resolver:
    """Turns the events of one game's transcript into moves."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.spec = game.spec
        self.engine = game.engine
        remembered = _remembered_moves(game)
        self._moves = remembered.by_words
        self._answers = remembered.answers
        self._items = remembered.items
        self._number = remembered.number
        # the seat each name written so far names; a player's name as the table has it
        # names its own (Table.seat's usual case, asked here of no interpreted code)
        self._seats: dict[str, int] = {name: seat for seat, name
                                       in enumerate(game.table.players)}

    def move(self, event: Event, state: GameState) -> Move:
        """The move ``event`` stands for now; an unknown name, card or set raises.

        Most events mean the same move wherever they stand (``Ann asks Bob for 7``), so
        their moves are remembered by their text; answers and turn-ups depend on the
        moment and are resolved each time."""
        kind = event.kind
        if kind is EVENT_GIVE or kind is EVENT_REFUSE:
            return self._answer(event, state)  # remembered with whom it answers
        words = event.key  # the same text read as the same event, of the same kind
        if words is None or kind in _OF_THE_MOMENT:
            return self._resolve(event, state)
        resolved = words.resolved  # one object: a check of it cannot be torn by another
        if resolved is not None and resolved[0] == self._number:  # for these rules here
            return cast(Move, resolved[1])
        found = self._moves.get(words.text)
        if found is None:
            found = _remember(self._moves, words.text,
                              self.engine.same_move(self._resolve(event, state)))
        words.resolved = (self._number, found)
        return found

    def _resolve(self, event: Event, state: GameState) -> Move:
        kind = event.kind
        if kind is EVENT_ASK:
            return self._ask(event)
        if kind is EVENT_BOOK:
            assert event.player is not None
            seat = self._seat(event, event.player)
            plural = self._set_of_plural(event)
            if plural is not None:  # 'Bob books 2s', where a set is a rank: twos
                return LayDown(seat, plural.name)
            written = [parse_card(t.text) for t in event.items if t.low != "and"]
            named = [c for c in written if c is not None and c in self.engine.deck]
            owner = self.spec.set_of_card.get(named[0]) if named else None
            if owner is not None and len(named) == len(written):  # 'Ann books 7S 7H'
                if owner.whole and len(named) == len(owner.cards) and \
                        set(named) == owner.cards:  # 'Ann books 7S 7H 7D 7C': all of it
                    return LayDown(seat, owner.name)
                return LayDown(seat, owner.name, tuple(named))
            return LayDown(seat, self._set(event).name)  # a card in no set names none
        if kind is EVENT_CLAIM:
            return self._claim(event)
        if kind is EVENT_PLAY:
            assert event.player is not None
            groups = tuple(tuple(self._card(event, t) for t in group)
                           for _, group in event.groups)
            return Play(self._seat(event, event.player), self._card(event, event.items[0]),
                        groups)
        if kind is EVENT_TURN_UP:
            cards = tuple(self._card(event, t) for t in event.items)
            forced = self.engine.forced_move(state) if not cards else None
            return forced if isinstance(forced, TurnUp) else TurnUp(state.turn, cards)
        if kind is EVENT_PASS:
            assert event.player is not None and event.target is not None
            return Pass(self._seat(event, event.player), self._seat(event, event.target))
        if kind is EVENT_SHOW:
            assert event.player is not None
            return Show(self._seat(event, event.player),
                        tuple(self._card(event, t) for t in event.items))
        if kind in (EVENT_GIVE, EVENT_REFUSE):
            return self._answer(event, state)
        assert event.player is not None
        card = self._card(event, event.items[0]) if event.items else None
        return Draw(self._seat(event, event.player), card)

    # -- names, cards, sets -----------------------------------------------------------

    def _seat(self, event: Event, token: Token) -> int:
        """The seat a written name names (``Table.seat``), found once for each way of
        writing it in this game."""
        seat = self._seats.get(token.text)
        if seat is None:
            seat = self._seats[token.text] = self.game.table.seat(
                self._name_in(token.text), event.place(token))
        return seat

    def _name_in(self, text: str) -> str:
        """The name ``text`` writes: itself, or without the ``.`` or ``!`` ending a
        sentence after it (``Ann passes to Bob.``) when only that names a player (a
        name may end in ``.``: ``Dr.``)."""
        if text[-1] not in ".!":
            return text
        table = self.game.table
        bare = text.rstrip(".!")
        return bare if bare and table.find(text) is None and table.find(bare) is not None \
            else text

    def _card(self, event: Event, token: Token) -> Card:
        """The card ``token`` names: ``7S``, or in words, ``the seven of spades``."""
        text = token.text
        card = parse_card(text) if " " not in text else parse_asked(text.split())[1]
        if card is None or card not in self.engine.deck:
            raise RefereeError(Kind.UNKNOWN, f"{quoted(token.text)} is not a card of this deck",
                               event.place(token))
        return card

    def _set_of_plural(self, event: Event) -> SetSpec | None:
        """The set a book's one word names as a rank in the plural with a small ``s``
        (``2s``: twos), where a set is that rank; None otherwise (``2s`` is then the two
        of spades)."""
        if len(event.items) != 1:
            return None
        rank = small_s_plural(event.items[0].text)
        return self.spec.find_set(rank) if rank is not None else None

    def _set(self, event: Event) -> SetSpec:
        """The set an event's items name (``low spades``, ``queens``, ``Q``)."""
        spec = self.spec
        text = event.item_text()
        found = spec.find_set(text)
        if found is None:
            found = self._set_as_said(text)
        if found is None:
            names = f"sets: {', '.join(s.name for s in spec.sets)}" if spec.sets else "it has none"
            at = event.span
            if event.items:
                first, last = event.items[0], event.items[-1]
                at = Span(event.span.line, event.span.column + first.offset, event.span.text,
                          event.span.source, last.offset + len(last.text) - first.offset)
            raise RefereeError(Kind.UNKNOWN, f"{quoted(text)} names no set of {spec.title} "
                               f"({names})", at)
        return found

    def _set_as_said(self, text: str) -> SetSpec | None:
        """The set ``text`` names as people say it: at a sentence's end (``jokers.``),
        after words before its name (``the fours``, ``a book of 4s``), or by its rank
        (``Q``)."""
        spec = self.spec
        bare = text.rstrip(".!")
        found = spec.find_set(bare) if bare != text else None
        said = _set_said(bare) if found is None else ""
        if found is None and said:
            found = spec.find_set(said)
            if found is None:
                rank = small_s_plural(said) or parse_rank(said)  # ('the 4S' is no set)
                found = spec.find_set(rank) if rank else None
        if found is None:
            rank = parse_rank(text)
            found = spec.find_set(rank) if rank else None
        return found

    # -- asks and questions ------------------------------------------------------------

    def _ask(self, event: Event) -> Ask | Question:
        assert event.player is not None and event.target is not None
        player = self._seat(event, event.player)
        target = self._seat(event, event.target)
        items = event.items
        if len(items) > 1 and items[0].low in RANK_ARTICLES and self.spec.questions and \
                not event.lay_out:  # 'Ann: Bob, any hearts?' where questions are asked
            return self._question(event, player, target, items[1:])
        if event.lay_out and self.spec.ask.handover is not HANDOVER_TO_CENTRE:
            raise self._no_lay_outs(event)
        rank, card = self._ask_item(event)
        return Ask(player, target, rank, card)

    def _no_lay_outs(self, event: Event) -> RefereeError:
        """The error for an ask to lay out, or a lay-out, where cards are handed over."""
        return RefereeError(Kind.ILLEGAL, f"in {self.spec.title} the asked player hands "
                            "cards over; nobody lays cards out", event.span)

    def _question(self, event: Event, player: int, target: int, items: tuple[Token, ...]
                  ) -> Question:
        """The question ``items`` (the words after ``any`` or ``some``) ask, where the
        rules have questions."""
        spec = self.spec
        text = " ".join(t.text for t in items)
        question = read_question(spec, player, target, text)
        if question is None:
            raise RefereeError(Kind.UNKNOWN, f"{quoted(text)} is not a rank, a suit "
                               "(spades) or a colour (red, black)", event.place(items[0]))
        return question

    def _ask_item(self, event: Event) -> tuple[Rank, Card | None]:
        """The rank and card (None for a rank alone) an ask's items name, remembered by
        their words."""
        items = event.items
        text = items[0].text if len(items) == 1 else event.item_text()
        found = self._items.get(text)
        if found is None:
            found = _remember(self._items, text, self._named_item(event, text))
        return found

    def _named_item(self, event: Event, text: str) -> tuple[Rank, Card | None]:
        """The rank and card ``text``, an ask's items, names (``QS``, ``queens``, ``an
        ace``, ``the queen of hearts``: :func:`parse_asked`); one not of the deck raises."""
        spec = self.spec
        rank, card = parse_asked([t.text for t in event.items])
        if card is not None and spec.ask.item is ASK_FOR_RANK and len(event.items) == 1 \
                and small_s_plural(text) is not None:  # 'Ann: Bob, 7s?' where ranks are asked
            card = None
        if card is not None and card in self.engine.deck:
            return rank_of(card), card
        if card is None and rank is not None and rank in spec.ranks:
            return rank, None
        if card is not None:
            problem = f"{card} is not in the deck of {spec.title}"
        elif rank is not None:
            problem = f"the deck of {spec.title} has no rank {rank}"
        elif self._asks_a_question(event):
            raise RefereeError(Kind.ILLEGAL, f"{spec.title} has no questions", event.span)
        else:
            problem = f"{quoted(text)} is not a card or a rank"
        at = event.place(event.items[0]) if event.items else event.span
        raise RefereeError(Kind.UNKNOWN, problem, at)

    def _asks_a_question(self, event: Event) -> bool:
        """Whether an ask's items, read as a question, ask one (``any hearts``)."""
        items = event.items
        return len(items) == 2 and items[0].low in RANK_ARTICLES and read_question(
            self.spec, 0, 0, items[1].text) is not None

    def _answer(self, event: Event, state: GameState) -> Move:
        if state.phase is not PHASE_ANSWER:
            who = state.players[state.turn]
            raise RefereeError(Kind.TURN, f"nobody has been asked; it is {who}'s turn "
                               "to ask", event.span)
        if event.target is not None:  # 'Cy gives Bob 2': Bob must be who asked
            self._check_receiver(event, event.target, state)
        if event.lay_out and self.spec.ask.handover is not HANDOVER_TO_CENTRE:
            raise self._no_lay_outs(event)
        asked = self.engine.current_player(state)
        assert asked is not None
        questioned = state.questioning is not None
        if event.kind is EVENT_REFUSE and event.counted is not None:  # 'Cy has no 7s'
            self._check_refused(event, event.counted, state)
        key = (event.kind, event.key.text if event.key else "", asked, questioned)
        found = self._answers.get(key)  # a yes or no, or cards named: the same each time
        if found is not None:
            return found
        player = self._seat(event, event.player) if event.player else asked
        if questioned:
            if event.items or event.count is not None:
                raise RefereeError(Kind.SYNTAX, "a question is answered 'yes' or 'no'",
                                   event.span)
            move: Move = Answer(player, event.kind is EVENT_GIVE)
        elif event.kind is EVENT_REFUSE:
            move = Refuse(player)
        elif event.items and not self._gives_a_rank(event, state):
            move = Give(player, tuple(self._card(event, t) for t in event.items))
        else:  # the cards of the rank asked for, filled in: kept as one object
            return self.engine.same_move(self._give(event, player, state))
        return _remember(self._answers, key, self.engine.same_move(move))

    def _check_receiver(self, event: Event, receiver: Token, state: GameState) -> None:
        """Raise unless ``receiver``, whom a give says it gives to, is the player who asked
        (``Cy gives QX 7S`` may mean a card by ``QX``)."""
        seat = self.game.table.find(self._name_in(receiver.text))
        if seat is None:
            raise RefereeError(Kind.UNKNOWN, f"{quoted(receiver.text)} is not a card of "
                               "this deck, nor a player's name", event.place(receiver))
        if seat != state.turn:
            asker = state.players[state.turn]
            raise RefereeError(Kind.ILLEGAL, f"{asker} asked, so the cards go to {asker}, "
                               f"not to {receiver.text}", event.place(receiver))

    def _give(self, event: Event, player: int, state: GameState) -> Give:
        """A give naming no card (``Bob gives``, ``Bob gives 2``, ``Bob gives sevens``);
        an open deal fills in the cards of the rank asked for."""
        ask = state.asking
        assert ask is not None
        if event.counted is not None:  # 'Cy gives 2 sevens': sevens must be what was asked
            self._check_counted(event, event.counted, ask.rank, state)
        if ask.card is not None:
            if event.count is not None and event.count != 1:
                return Give(player, count=event.count)
            return Give(player, (ask.card,))
        known = not state.hidden and not state.unknown[player]
        due = cards_due(self.engine.lookups, state, ask) if known else ()
        if self.engine.lookups.handover is HANDOVER_ONE_OF_RANK:
            due = due[:1]
        if event.count is not None:
            return Give(player, due) if due and len(due) == event.count else Give(
                player, count=event.count)
        return Give(player, due)

    def _gives_a_rank(self, event: Event, state: GameState) -> bool:
        """Whether a give names, for its cards, only the rank asked for (``Bob gives
        sevens``, ``the sevens``, ``Q``): they are then left to the deal, as a bare ``Bob
        gives`` leaves them; another rank raises. A card (``7s``: the seven of spades)
        or a count (``2``) is no rank here."""
        items, ask = event.items, state.asking
        if ask is None or len(items) != 1:
            return False
        text = items[0].text
        # (the usual give names a card; digits are a count, as reading.is_digits tells,
        # written out here where that module runs interpreted; 'a' is no ace)
        if parse_card(text) is not None or (text.isascii() and text.isdigit()) or \
                text.lower() in ARTICLES:
            return False
        rank = parse_plural_rank(text)
        if rank is None:
            return False
        self._check_counted(event, items[0], ask.rank, state)
        return True

    def _check_counted(self, event: Event, counted: Token, asked: Rank, state: GameState
                       ) -> None:
        """Raise unless ``counted``, the rank a give's count counts, is the rank asked."""
        if parse_plural_rank(counted.text) != asked:
            asker = state.players[state.turn]
            raise RefereeError(Kind.ILLEGAL, f"{asker} asked for {rank_plural(asked)}, so "
                               f"the cards given are {rank_plural(asked)}, not "
                               f"{quoted(counted.text)}", event.place(counted))

    def _check_refused(self, event: Event, named: Token, state: GameState) -> None:
        """Raise unless ``named``, what a refusal says the asked player has none of
        (``Cy has no sevens``, ``Cy doesn't have the 7H``), is what was asked: the card
        asked for, or the rank (in the plural or not, ``7s`` too where no card may be
        asked), or what a question asks about (``Cy has no hearts``)."""
        text = named.text
        asker = state.players[state.turn]
        question = state.questioning
        if question is not None:
            if read_question(self.spec, question.player, question.target, text) == question:
                return
            raise RefereeError(Kind.ILLEGAL, f"{asker} asked about "
                               f"{describe_question(question)}, not {quoted(text)}",
                               event.place(named))
        ask = state.asking
        assert ask is not None
        card = parse_card(text)
        if ask.card is not None:
            right, what = card == ask.card, str(ask.card)
        else:  # a rank: '7s' too, but not '7S'
            rank = parse_plural_rank(text) if card is None or small_s_plural(text) else None
            right, what = rank == ask.rank, rank_plural(ask.rank)
        if right:
            return
        raise RefereeError(Kind.ILLEGAL, f"{asker} asked for {what}, not "
                           f"{quoted(text)}", event.place(named))

    # -- claims ----------------------------------------------------------------------

    def _is_player(self, token: Token) -> bool:
        return self.game.table.names(token.text)

    def _claim(self, event: Event) -> Claim:
        assert event.player is not None
        player = self._seat(event, event.player)
        chosen = self._set(event)
        holders: dict[int, list[Card]] = {}
        for name, cards in event.groups:
            seat = self._seat(event, name)
            if not cards:
                raise RefereeError(Kind.SYNTAX, f"name the cards {name.text} holds: "
                                   f"'{name.text} 3S 4S'", event.place(name))
            for token in cards:
                if parse_card(token.text) is None and self._is_player(token):
                    raise RefereeError(Kind.SYNTAX, f"put a comma before {token.text}: "
                                       f"'{name.text} 3S 4S, {token.text} 5S'",
                                       event.place(token))
                holders.setdefault(seat, []).append(self._card(event, token))
        if not holders:
            raise RefereeError(Kind.SYNTAX, "a claim names who holds each card: "
                               "'Ann claims low spades: Ann 3S 4S, Cy 5S 6S 7S 8S'", event.span)
        return Claim(player, chosen.name, tuple((s, tuple(c)) for s, c in holders.items()))


_BEFORE_A_SET: Final = frozenset({"the", "a", "an", "all", "his", "her", "their", "my"})
_A_SET_OF: Final = (["book", "of"], ["set", "of"], ["books", "of"])


def _set_said(text: str) -> str:
    """A set's name as people say it, without the words before it: ``the fours``, ``a
    book of 4s``, ``the set of high hearts``; "" where no word is left out."""
    words = text.split()
    start = 0
    while start < len(words) - 1 and words[start].lower() in _BEFORE_A_SET:
        start += 1
    if [word.lower() for word in words[start:start + 2]] in _A_SET_OF and \
            len(words) > start + 2:
        start += 2
        while start < len(words) - 1 and words[start].lower() in _BEFORE_A_SET:
            start += 1
    return " ".join(words[start:]) if start else ""


K = TypeVar("K")
V = TypeVar("V")


def _remember(memo: dict[K, V], key: K, value: V) -> V:
    """Remember ``value`` (a move, an item's rank and card) by ``key``, within a bound:
    words typed in ever new ways (a terse claim names its cards as it likes) forget all
    at once when it is reached."""
    if len(memo) >= MAX_REMEMBERED_MOVES:
        memo.clear()
    memo[key] = value
    return value
