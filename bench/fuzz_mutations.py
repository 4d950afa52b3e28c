"""The fuzz's mutations (bench/fuzz.py): random changes to a transcript or a rule file,
and hostile names and rule text (markup, control and confusable characters)."""

# ruff: noqa: RUF001 (look-alike letters are what this module is made of)
from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Callable

Mutation = Callable[[str, random.Random], str]

HOSTILE = ("²", "⑤", "٣", "\U0001d7d5", "9" * 5000, "0" * 4400 + "1", "-1", "\u2028",
           "\u2029", "\x85", "\r", "\x0c", "\x0b", "\ufeff", "\u200b", "\x00", "\x1b[2J",
           "\u202e", "\t",
           "/proc/self/environ", "/dev/zero", "/etc/passwd", "/tmp", "..", "a" * 300,
           "b" * 300 + ".rules", "x\x00y.rules", "/dev/zero.rules", "rules/")
WORDS = ("game:", "players:", "deal:", "seed", "given", "hidden", "hand", "stock:", "centre:",
         "target:", "option", "team", "dealer:", "extends:", "asks", "gives", "says", "no",
         "yes", "draws", "books", "claims", "passes", "to", "for", "plays", "takes", "turn",
         "up", "lays", "out", "down", "any", ":", ",", ";", "?", ">", "#", "RJ", "QS", "10H",
         "T♥", "queens", "low", "spades", "when", "is", "set", "sets:", "each", "or", "more",
         "0", "1", "99", "100000", "authors", "go-fish", "literature",
         "A\u2665\ufe0f", "q\u2661", "8\u2019s", "fish!", "no.", "\uff1a", "\uff1b", "\uff1f",
         "\uff03", "a", "an", "the", "of", "hearts", "two", "card", "7s", "7C.", "\u3001",
         "\u3002", "nope", "yep", "- ", "12. ", "3)", "\u2022", "asked", "gave", "drew",
         "declares", "goes fishing", "hands over", "do you have", "if she has", "->", "\u2192",
         "Ann-", ". ", "? ", "and", "no, go fish", '"', "'", "\u201c", "\u2019")
PIECES = ("\n", "\r\n", "\r", "\u2028", " ", ";", ":", ",", "#")

# -- hostile text: what a name or a rule file's words may hold -------------------------

MARKUP = ("[/x]", "[b]", "[/]", "[bold red]", "[/bold]", "[link=https://example.com/x]",
          "[/link]", "[red on white]", ":warning:", "\\[b]", "[[b]]", "[", "]", "[b")
CONTROLS = (*(chr(code) for code in (*range(0, 9), 0x0E, 0x0F, 0x10, 0x1B, 0x7F)),
            *(chr(code) for code in (0x80, 0x81, 0x8D, 0x90, 0x9B, 0x9C, 0x9D, 0x9F)))
ESCAPES = ("\x1b[2J", "\x1b[31m", "\x1b[1;1H", "\x1b[6n", "\x1b]0;owned\x07",
           "\x1b]52;c;ZXZpbA==\x07", "\x1b]8;;https://example.com\x1b\\", "\x9b2J",
           "\x9b31m", "\x9d0;owned\x9c", "\x1bP$q\x1b\\", "\x1bc", "\x1b(0")
BIDI = ("\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068",
        "\u2069", "\u200e", "\u200f", "\u061c")
INVISIBLE = ("\u200b", "\u200c", "\u200d", "\u2060", "\u2061", "\ufeff", "\u00ad", "\u180e",
             "\u034f", "\U000e0041", "\U000e007f", "\ufe0f", "\u3164", "\u115f", "\u2800",
             "\ufffc", "\U0001d173")
COMBINING = ("\u0301", "\u0308", "\u0336", "\u20dd", "\u0301" * 30, "\u0e49" * 8)
MARKDOWN = ("<script>alert(1)</script>", "<b>", "</p>", "&lt;", "&#x202e;", "*x*", "_x_",
            "`x`", "|", "\\", "<!--", "](javascript:x)", "# ", "<img/src=x>")
LETTERLESS = (":", "-", "_", "1", "٣", "⑤", "...", "\u200b", "\u202e", "\u2800", "·", "'",
              '"', "\\", "*", "'\"")
TEXT_PIECES = (*MARKUP, *CONTROLS, *ESCAPES, *BIDI, *INVISIBLE, *COMBINING, *MARKDOWN)

# A few Latin letters and the Cyrillic, Greek, fullwidth or letter-like characters that
# look the same (Unicode TS #39's confusables, a sample), and case-fold pairs.
LOOK_ALIKES = {
    "A": "АΑＡ", "a": "аａ", "B": "ВΒ", "C": "СϹ", "c": "сϲ", "E": "ЕΕ", "e": "е", "H": "НΗ",
    "I": "ІΙӀ", "i": "іı", "J": "Ј", "K": "КΚK", "M": "МΜ", "N": "Ν", "O": "ОΟ０", "o": "оο",
    "P": "РΡ", "p": "р", "S": "Ѕ", "s": "ѕſ", "T": "ТΤ", "X": "ХΧ", "x": "х", "y": "уγ",
    "Y": "ΥҮ", "Z": "Ζ", "l": "ӏ1I", "n": "ո", "v": "ν", "d": "ԁ", "h": "һ", "j": "ј",
}
CASE_FOLDS = (("ss", "ß"), ("SS", "ß"), ("ss", "ẞ"), ("i", "ı"), ("I", "İ"), ("s", "ſ"),
              ("k", "\u212a"), ("K", "\u212a"), ("st", "ﬆ"), ("ffi", "ﬃ"))

# Words from a rule file's lines that name nothing the author chose.
RULE_KEYWORDS = frozenset((
    "in", "each", "suit", "to", "of", "books", "cards", "card", "one", "rank", "a", "an",
    "the", "and", "or", "pairs", "set", "sets", "by", "with", "from", "is", "no", "yes"))


def mutate(text: str, rng: random.Random) -> str:
    """``text`` with one to three random changes."""
    for _ in range(rng.randint(1, 3)):
        text = rng.choice(MUTATIONS)(text, rng)
    return text


def _at(text: str, rng: random.Random) -> int:
    return rng.randint(0, len(text))


def _cut(text: str, rng: random.Random) -> str:
    return text[:_at(text, rng)]


def _hole(text: str, rng: random.Random) -> str:
    start = _at(text, rng)
    return text[:start] + text[start + rng.randint(1, 60):]


def _splice(text: str, rng: random.Random) -> str:
    where = _at(text, rng)
    kind = rng.random()
    if kind < 0.3:
        piece = rng.choice(HOSTILE)
    elif kind < 0.45:
        piece = rng.choice(TEXT_PIECES)
    elif kind < 0.7:
        piece = rng.choice(WORDS) + " "
    else:
        piece = "".join(chr(rng.choice((rng.randint(0, 127), rng.randint(0, 0x2FFF))))
                        for _ in range(rng.randint(1, 8)))
    return text[:where] + piece + text[where:]


def _swap_word(text: str, rng: random.Random) -> str:
    words = text.split(" ")
    words[rng.randrange(len(words))] = rng.choice(WORDS + HOSTILE)
    return " ".join(words)


def _number(text: str, rng: random.Random) -> str:
    """A number of the text turned into a Unicode, huge or odd one."""
    digits = [i for i, c in enumerate(text) if c.isdigit()]
    if not digits:
        return text
    where = rng.choice(digits)
    return text[:where] + rng.choice(HOSTILE[:7]) + text[where + 1:]


def _lines(text: str, rng: random.Random) -> str:
    """Lines repeated, moved, or ended differently."""
    lines = text.split("\n")
    kind = rng.random()
    if kind < 0.3:
        line = rng.randrange(len(lines))
        lines[line:line] = [lines[line]] * rng.choice((2, 5, 200))
    elif kind < 0.6:
        first, second = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[first], lines[second] = lines[second], lines[first]
    else:
        return rng.choice(PIECES[:4]).join(lines)
    return "\n".join(lines)


def _bom(text: str, rng: random.Random) -> str:
    return "\ufeff" + text


MUTATIONS: tuple[Mutation, ...] = (
    _cut, _hole, _splice, _splice, _swap_word, _swap_word, _number, _lines, _bom)


# -- hostile names --------------------------------------------------------------------


def hostile_word(word: str, rng: random.Random, others: tuple[str, ...] = ()) -> str:
    """``word`` (a name, a title, a set's name) made hostile: markup, a control or
    escape sequence, a bidi or invisible character spliced in; its letters swapped for
    look-alikes, fullwidth forms or case-fold partners; decomposed; or another of
    ``others`` in disguise, or a word with no letter at all."""
    kind = rng.randrange(9)
    if kind == 0:
        where = rng.randint(0, len(word))
        return word[:where] + rng.choice(TEXT_PIECES) + word[where:]
    if kind == 1:
        piece = rng.choice((*MARKUP, *BIDI, *INVISIBLE, *ESCAPES))
        return piece + word if rng.random() < 0.5 else word + piece
    if kind == 2:
        return _look_alike(word, rng, every=rng.random() < 0.3)
    if kind == 3:
        return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in word)
    if kind == 4:
        return _case_folded(word, rng)
    if kind == 5:
        accented = word + rng.choice(("é", "ü", "ñ", "Å"))
        return unicodedata.normalize(rng.choice(("NFD", "NFC", "NFKD")), accented)
    if kind == 6 and others:
        other = rng.choice(others)
        return rng.choice((_look_alike(other, rng, every=False), _case_folded(other, rng),
                           other.upper(), other + "\u200b", unicodedata.normalize("NFD", other)))
    if kind == 7:
        return rng.choice(LETTERLESS)
    return rng.choice(MARKUP[:7]) + word


def _look_alike(word: str, rng: random.Random, every: bool) -> str:
    places = [i for i, c in enumerate(word) if c in LOOK_ALIKES]
    if not places:
        return word + rng.choice("АΑо")
    chosen = places if every else [rng.choice(places)]
    letters = list(word)
    for place in chosen:
        letters[place] = rng.choice(LOOK_ALIKES[letters[place]])
    return "".join(letters)


def _case_folded(word: str, rng: random.Random) -> str:
    for plain, folded in rng.sample(CASE_FOLDS, len(CASE_FOLDS)):
        if plain in word:
            return word.replace(plain, folded, 1)
    return word + rng.choice(("ß", "SS", "ı", "İ"))


def renamed(text: str, old: str, new: str) -> str:
    """``text`` with every whole word ``old`` (a name) written ``new``."""
    pattern = re.compile(rf"(?<![\w\-]){re.escape(old)}(?![\w\-])")
    return pattern.sub(lambda _: new, text)


_PLAYERS = re.compile(r"^[ \t]*players[ \t]*:(.*)$", re.MULTILINE | re.IGNORECASE)
_TEAM = re.compile(r"^[ \t]*team[ \t]+(\S+)[ \t]*:", re.MULTILINE | re.IGNORECASE)


def players_of(text: str) -> tuple[str, ...]:
    """The names on a transcript's ``players:`` line."""
    found = _PLAYERS.search(text)
    return tuple(found.group(1).split("#", 1)[0].split()) if found else ()


def hostile_names(text: str, rng: random.Random) -> str:
    """A transcript whose players (in every line: the header, the dealer, the hands,
    the events) or teams are renamed hostile, or with hostile pieces spliced in."""
    players = players_of(text)
    teams = _TEAM.findall(text)
    for _ in range(rng.randint(1, 2)):
        kind = rng.random()
        if players and kind < 0.75:
            old = rng.choice(players)
            text = renamed(text, old, hostile_word(old, rng, tuple(p for p in players
                                                                    if p != old)))
            players = players_of(text)
        elif teams and kind < 0.9:
            old = rng.choice(teams)
            text = renamed(text, old, hostile_word(old, rng, tuple(teams)))
            teams = _TEAM.findall(text)
        else:
            where = _at(text, rng)
            text = text[:where] + rng.choice(TEXT_PIECES) + text[where:]
    return text


# -- hostile rule text ----------------------------------------------------------------

_LINE_VALUE = re.compile(r"^([ \t]*(?:name|about)[ \t]*:[ \t]*)(.*)$", re.MULTILINE)
_OPTION = re.compile(r"^[ \t]*option[ \t]+([^:\s]+)[ \t]*:[ \t]*(\S*)", re.MULTILINE)
_SETS = re.compile(r"^[ \t]*sets[ \t]*:(.*)$", re.MULTILINE)


def hostile_rule_text(text: str, rng: random.Random) -> str:
    """A rule file whose ``name:`` or ``about:``, an option's name or value, or a set's
    name (in every line that uses it) is made hostile."""
    for _ in range(rng.randint(1, 2)):
        kind = rng.random()
        options = _OPTION.findall(text)
        set_names = [word for found in _SETS.findall(text)
                     for word in re.findall(r"[A-Za-z][\w-]*", found)
                     if word.lower() not in RULE_KEYWORDS]
        if kind < 0.45:
            text = _LINE_VALUE.sub(lambda m: m.group(1) + _hostile_value(m.group(2), rng),
                                   text, count=1 if rng.random() < 0.5 else 0)
        elif kind < 0.65 and options:
            name, _ = rng.choice(options)
            text = renamed(text, name, hostile_word(name, rng, tuple(o for o, _ in options)))
        elif kind < 0.75 and options:
            name, value = rng.choice(options)
            if value:
                text = renamed(text, value, hostile_word(value, rng))
        elif kind < 0.9 and set_names:
            name = rng.choice(set_names)
            text = renamed(text, name, hostile_word(name, rng, tuple(set_names)))
        else:
            where = _at(text, rng)
            text = text[:where] + rng.choice(TEXT_PIECES) + text[where:]
    return text


def _hostile_value(value: str, rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.5:
        words = value.split(" ")
        place = rng.randrange(len(words))
        words[place] = hostile_word(words[place], rng)
        return " ".join(words)
    if kind < 0.7:
        return rng.choice(("Fish [/bold] game", "[b]Fish[/b]", "Fish <script>alert(1)</script>",
                           "\x1b]0;owned\x07Fish", "\u202eFish", "\x9b2JFish",
                           "[link=https://example.com]Fish[/link]", "Fish " + "A" * 5000))
    return value + " " + "".join(rng.choice(TEXT_PIECES) for _ in range(rng.randint(1, 4)))
