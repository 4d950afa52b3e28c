"""Events as written in a transcript: their kinds, their words and where each word
stands. Names, cards and sets are left as written (referee/transcript/notation.py reads
them from text; referee/transcript/resolve.py resolves them against the table and the
rules)."""

from __future__ import annotations

from enum import Enum
from typing import Final

from referee.spans import Span
from referee.values import frozen, value


class EventKind(Enum):
    """The kinds of event a transcript line can hold. A question (Diplomat) is an ask
    of ``any`` something: the rules tell which it is (referee/transcript/resolve.py)."""

    __hash__ = object.__hash__  # members are singletons: hash by identity, fast

    ASK = "ask"
    GIVE = "give"
    REFUSE = "refuse"
    DRAW = "draw"
    BOOK = "book"
    CLAIM = "claim"
    PASS = "pass"
    NEW_HAND = "new hand"
    PLAY = "play"
    TURN_UP = "turn up"
    SHOW = "show"


# Every member also as a plain name (as PHASE_ASK and others in referee/engine/state.py)
EVENT_ASK: Final = EventKind.ASK
EVENT_GIVE: Final = EventKind.GIVE
EVENT_REFUSE: Final = EventKind.REFUSE
EVENT_DRAW: Final = EventKind.DRAW
EVENT_BOOK: Final = EventKind.BOOK
EVENT_CLAIM: Final = EventKind.CLAIM
EVENT_PASS: Final = EventKind.PASS
EVENT_NEW_HAND: Final = EventKind.NEW_HAND
EVENT_PLAY: Final = EventKind.PLAY
EVENT_TURN_UP: Final = EventKind.TURN_UP
EVENT_SHOW: Final = EventKind.SHOW


@value
class Token:
    """A word of a transcript line, and where it stands: its ``offset`` in characters
    from the first word of its event or header line (0 for that word). An event read
    once thus stands unchanged wherever it is written again; :meth:`Event.place` and
    :meth:`Header.place` give a word's place in its line."""

    text: str
    offset: int

    # written out, not made by the decorator: compiled, it runs natively
    def __init__(self, text: str, offset: int) -> None:
        self.text = text
        self.offset = offset

    @property
    def low(self) -> str:
        """The word in lower case."""
        return self.text.lower()


class Words:
    """A segment of a transcript line as written (``text``, the white space around it
    stripped) and what it reads as: the fields of its event but for its place, so that
    the same text is the same event wherever it stands (referee/transcript/segments.py
    remembers it, and makes its event anew at each place). Every event read from one
    remembered segment shares one, which also keeps the move the resolver last made of
    it, with the number of the rules and table it was made for
    (referee/transcript/resolve.py): a move found without looking it up. One object a
    segment, where an event, its place and its words kept apart would be several for a
    repeat to touch. Equal by the text alone."""

    __slots__ = ("count", "counted", "groups", "items", "kind", "lay_out", "player",
                 "resolved", "target", "text")

    def __init__(self, text: str, event: Event) -> None:
        self.text = text
        self.resolved: tuple[int, object] | None = None
        self.kind: EventKind = event.kind
        self.player: Token | None = event.player
        self.target: Token | None = event.target
        self.items: tuple[Token, ...] = event.items
        self.count: int | None = event.count
        self.groups: tuple[tuple[Token, tuple[Token, ...]], ...] = event.groups
        self.lay_out: bool = event.lay_out
        self.counted: Token | None = event.counted

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Words) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        return f"Words({self.text!r})"


@frozen
class Header:
    """``key [name]: values`` before the first event."""

    key: str
    name: Token | None
    values: tuple[Token, ...]
    span: Span  # of the key

    def place(self, token: Token) -> Span:
        """Where ``token``, a word of this line, stands."""
        return _placed(self.span, token)


@value
class Event:
    """One event as written: names, cards and sets not yet resolved."""

    kind: EventKind
    span: Span
    player: Token | None
    target: Token | None
    items: tuple[Token, ...]
    count: int | None
    groups: tuple[tuple[Token, tuple[Token, ...]], ...]
    headers: tuple[Header, ...]  # a new hand's deal lines
    lay_out: bool  # an ask written 'asks Q to lay out X'
    key: Words | None  # the event's segment as written: the same text, the same event
    counted: Token | None  # what a give's count counts, if a rank: 'sevens' in 'gives 2 sevens'

    def __init__(self, kind: EventKind, span: Span, player: Token | None = None,
                 target: Token | None = None, items: tuple[Token, ...] = (),
                 count: int | None = None,
                 groups: tuple[tuple[Token, tuple[Token, ...]], ...] = (),
                 headers: tuple[Header, ...] = (), lay_out: bool = False,
                 key: Words | None = None, counted: Token | None = None
                 ) -> None:  # written out: compiled, an event is made natively
        self.kind = kind
        self.span = span
        self.player = player
        self.target = target
        self.items = items
        self.count = count
        self.groups = groups
        self.headers = headers
        self.lay_out = lay_out
        self.key = key
        self.counted = counted

    def item_text(self) -> str:
        """The item words joined (``QS``, ``queens``, ``low spades``)."""
        return " ".join(t.text for t in self.items)

    def place(self, token: Token) -> Span:
        """Where ``token``, a word of this event, stands."""
        return _placed(self.span, token)


def _placed(span: Span, token: Token) -> Span:
    """The place of ``token``, a word of the event or header line that starts at ``span``."""
    return Span(span.line, span.column + token.offset, span.text, span.source,
                len(token.text))
