"""Cards, ranks and suits as people write them, read into canonical strings.

A card is its rank symbol followed by its suit letter (``"QS"``, ``"10H"``);
a joker is ``"RJ"`` or ``"BJ"``. Canonical strings keep cards cheap to hash
and print.

>>> parse_card("t♥"), parse_card("as"), parse_rank("queens")
('10H', 'AS', 'Q')
"""

from __future__ import annotations

from typing import Final, NewType

from referee.caches import memoized
from referee.reading import is_digits

Card = NewType("Card", str)
Rank = NewType("Rank", str)
Suit = NewType("Suit", str)

STANDARD_RANKS: Final[tuple[Rank, ...]] = tuple(
    Rank(r) for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
)
STANDARD_SUITS: Final[tuple[Suit, ...]] = tuple(Suit(s) for s in ("S", "H", "D", "C"))
JOKERS: Final[tuple[Card, ...]] = (Card("RJ"), Card("BJ"))

SUIT_SYMBOLS: Final = {"♠": "S", "♥": "H", "♦": "D", "♣": "C",
                       "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
PLURAL_MARKS: Final = ("'s", "\u2019s")  # 8's, also with the closing quote phones put in
PRESENTATION_SELECTORS: Final = ("\ufe0e", "\ufe0f")  # text and emoji style, after a symbol
SUIT_WORDS: Final = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}
RANK_WORDS: Final = {
    "2": ("two", "twos"), "3": ("three", "threes"), "4": ("four", "fours"),
    "5": ("five", "fives"), "6": ("six", "sixes"), "7": ("seven", "sevens"),
    "8": ("eight", "eights"), "9": ("nine", "nines"), "10": ("ten", "tens"),
    "J": ("jack", "jacks"), "Q": ("queen", "queens"), "K": ("king", "kings"),
    "A": ("ace", "aces"),
}
_RANK_BY_WORD: Final = {word: rank for rank, words in RANK_WORDS.items() for word in words}


def parse_rank(word: str, *, digit_plurals: bool = False) -> Rank | None:
    """The rank a word names (``Q``, ``10``, ``T``, ``queens``), or None.

    A rank symbol with ``'s`` (``8's``, or with a phone's closing quote U+2019) is its
    plural. With ``digit_plurals``, ``2s`` and ``10s`` also name ranks; transcripts
    read those as cards instead.
    """
    low = word.lower()
    if low in _RANK_BY_WORD:
        return Rank(_RANK_BY_WORD[low])
    if low.endswith(PLURAL_MARKS):  # 8's: a plural no card spells
        low = low[:-2]
    elif digit_plurals and low.endswith("s") and is_digits(low[:-1]):
        low = low[:-1]
    up = low.upper()
    if up == "T":
        return Rank("10")
    if up in RANK_WORDS:
        return Rank(up)
    return None


def plain_symbols(text: str) -> str:
    """``text`` without the variation selector that a phone's keyboard may put after a
    suit symbol (``♥️``, drawn as an emoji): a card reads the same with or without it."""
    text_style, emoji_style = PRESENTATION_SELECTORS  # each searched for natively
    if text.isascii() or (text_style not in text and emoji_style not in text):
        return text
    kept = [c for i, c in enumerate(text)
            if c not in PRESENTATION_SELECTORS or i == 0 or text[i - 1] not in SUIT_SYMBOLS]
    return "".join(kept)


def parse_suit(word: str) -> Suit | None:
    """The suit a letter, symbol or word names, or None."""
    word = plain_symbols(word)
    low = word.lower()
    if low in SUIT_WORDS:
        return Suit(SUIT_WORDS[low])
    if word in SUIT_SYMBOLS:
        return Suit(SUIT_SYMBOLS[word])
    up = word.upper()
    return Suit(up) if up in STANDARD_SUITS else None


@memoized(maxsize=4096)
def parse_card(word: str) -> Card | None:
    """The card a word names (``QS``, ``10h``, ``T♥``, ``10♡``, ``A♥️``, ``RJ``), or None."""
    word = plain_symbols(word)
    up = word.upper()
    if up in JOKERS:
        return Card(up)
    if len(word) < 2:
        return None
    rank = parse_rank(word[:-1])
    suit = parse_suit(word[-1])
    if rank is None or suit is None or word[:-1].lower() in _RANK_BY_WORD:
        return None
    return Card(rank + suit)


def rank_of(card: Card) -> Rank:
    """The rank part of a card (a joker's rank is ``J`` plus its colour letter)."""
    return Rank(card) if card in JOKERS else Rank(card[:-1])


def suit_of(card: Card) -> Suit:
    """The suit letter of a card (a joker has the suit ``*``)."""
    return Suit("*") if card in JOKERS else Suit(card[-1])


def rank_plural(rank: Rank) -> str:
    """``queens`` for ``Q``; the rank itself where no word is known."""
    return RANK_WORDS[rank][1] if rank in RANK_WORDS else rank


def make_card(rank: Rank, suit: Suit) -> Card:
    """The card of ``rank`` and ``suit``."""
    return Card(rank + suit)


def parse_plural_rank(word: str) -> Rank | None:
    """The rank ``word`` names where a plural is meant (after ``any`` or a count):
    also a rank symbol with ``s`` (``7s``, ``Ks``), which alone names a card.

    >>> parse_plural_rank("Ks"), parse_plural_rank("sevens"), parse_plural_rank("KH")
    ('K', '7', None)
    """
    return parse_rank(word) or (parse_rank(word[:-1]) if word[-1:] in ("s", "S") else None)


def small_s_plural(word: str) -> Rank | None:
    """The rank ``word`` writes in the plural with a small ``s`` (``7s``, ``Qs``,
    ``10s``), which also reads as a card of spades: the rank where no card may stand
    (an ask where the rules ask for ranks, a book where a set is a rank); None for
    any other word (``7S``, ``sevens``, ``7``).

    >>> small_s_plural("Qs"), small_s_plural("QS"), small_s_plural("queens")
    ('Q', None, None)
    """
    if len(word) < 2 or word[-1] != "s" or parse_card(word) is None:
        return None
    return parse_rank(word[:-1])


ARTICLES: Final = frozenset({"a", "an", "the", "any", "some"})  # before a card or rank asked for
RANK_ARTICLES: Final = frozenset({"any", "some"})  # before these, '7s' is the rank: 'any 7s'


def parse_asked(words: list[str]) -> tuple[Rank | None, Card | None]:
    """The rank and card (None for a rank alone) an ask's words name, as people ask:
    a card or rank (``QS``, ``queens``), after an article (``a 7``, ``an ace``, ``the
    QS``, ``any 7s``), or a card in words (``the queen of hearts``, ``Q of ♥``). (None,
    None) for words that name neither; a rank alone where they name only a rank.

    After ``any`` or ``some``, ``7s`` and ``Ks`` are the ranks seven and king, plural as in
    a question (``any 7s?``); alone they are the seven and the king of spades, as the
    notation reads them (but where no card may stand: :func:`small_s_plural`).

    >>> parse_asked(["an", "ace"]), parse_asked(["any", "7s"]), parse_asked(["7s"])
    (('A', None), ('7', None), ('7', '7S'))
    >>> parse_asked(["the", "queen", "of", "hearts"])
    ('Q', 'QH')
    """
    article = words[0].lower() if len(words) > 1 else ""
    named = words[1:] if article in ARTICLES else words
    if len(named) == 1:
        word = named[0]
        if article in RANK_ARTICLES:
            rank = parse_plural_rank(word)
            if rank is not None:
                return rank, None
        card = parse_card(word)
        return (rank_of(card), card) if card is not None else (parse_rank(word), None)
    if len(named) == 3 and named[1].lower() == "of" and article not in RANK_ARTICLES:
        rank, suit = parse_rank(named[0]), parse_suit(named[2])
        if rank is not None and suit is not None:
            return rank, make_card(rank, suit)
    return None, None
