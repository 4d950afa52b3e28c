"""One event's words read as an :class:`Event`, in any form the notation allows (the
reference reader: referee/transcript/notation.py reads lines, remembers segments and
reads the forms people type most on its own, the same way).

Besides the notation's forms, an event reads as a record of the game says it: in the
past tense (``Bob asked Cy for 7s``, ``Cy gave 2``, ``Bob drew``), with the words
players use (``Ann declares low spades: ...``, ``Bob fishes``, ``Bob goes fishing``,
``Cy hands over 2``, ``Fay calls high diamonds: ...``), an ask as said at the table
(``Ann: Bob, do you have any sevens?``, ``Ann asks Bob if he has any sevens``, ``Ann
asks Bob: sevens?``, ``Ann to Bob: sevens?``, ``Ann > Bob lay out 7S``), a give naming
whom it gives to (``Cy gives Bob 2``, ``Cy gives 2 to Bob``, ``Cy gives him 2``) or
giving ``them``, cards said in words (``Cy gives the seven of spades and the seven of
hearts``) or parted by ``/``, an answer said as what the asked player has (``Cy has
2``, ``Cy has no sevens``, ``Cy doesn't have any``), ``none``, ``y`` and ``n``, a tick
and a cross, ``no, go fish``, a draw from the stock (``Bob picks up 9C``, ``Bob draws
from the pond``), a book made (``Ann makes a book of 7s``, ``Ann puts down 7s``), a verb
without its ``s`` (``Bob draw``), and an arrow for ``>`` (``Ann -> Bob 7``). None of
these words is a card, a rank, a set or a count, so reading them so changes what no
other words mean.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from referee.errors import Kind, RefereeError, Span
from referee.language.cards import (
    ARTICLES,
    RANK_ARTICLES,
    parse_card,
    parse_plural_rank,
    parse_rank,
    parse_suit,
)
from referee.reading import ascii_number, is_digits, quoted
from referee.transcript.events import (
    EVENT_ASK,
    EVENT_BOOK,
    EVENT_CLAIM,
    EVENT_DRAW,
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

MAX_COUNT_DIGITS: Final = 6  # a hand's number, a give's count
ANSWER_HINT: Final = ("expected an event such as 'Ann asks Bob for QS', 'Ann: Bob, QS?', "
               "'Ann > Bob QS', 'Bob gives QS', 'Bob says no', 'Ann draws', 'Ann books Q'")

# the verbs as a record of the game writes them (the past tense) and as players say
# them, each to the notation's verb
VERBS: Final = {"asked": "asks", "gave": "gives", "hands": "gives", "handed": "gives",
                "said": "says", "drew": "draws", "fishes": "draws", "fished": "draws",
                "picks": "draws", "picked": "draws", "booked": "books", "laid": "lays",
                "puts": "lays", "put": "lays", "claimed": "claims", "declares": "claims",
                "declared": "claims", "calls": "claims", "called": "claims",
                "passed": "passes", "played": "plays", "showed": "shows",
                # without the 's', as typed in a hurry: 'Bob draw 9C'
                "ask": "asks", "give": "gives", "draw": "draws", "book": "books",
                "lay": "lays", "claim": "claims", "declare": "claims", "call": "claims",
                "pass": "passes", "play": "plays", "show": "shows", "say": "says"}
# the verbs and colours an event may end with ('Bob draws.', 'Bob went fishing.', 'any red.')
_ENDING_WORDS: Final = frozenset({"draws", "drew", "fishes", "fished", "fishing", "gives",
                                  "gave", "red", "black", "reds", "blacks"})
_FISHING: Final = (["goes", "fishing"], ["went", "fishing"])  # a draw, its card unnamed
_TURNED_UP: Final = frozenset({"turn", "turns", "turned"})  # before 'up'
_TAKES: Final = frozenset({"takes", "took"})  # a play's capture
# the words of a pass before whom it passes to: 'Ann passes (the turn) to Cy', 'passes Cy'
_PASSED: Final[tuple[list[str], ...]] = ([], ["to"], ["turn", "to"], ["the", "turn", "to"])
# the words of an ask as asked at the table, before what is asked for ('do you have
# any sevens?'), longest first
ASKING: Final = (("do", "you", "have"), ("have", "you", "got"), ("have", "you"),
                  ("you", "got"), ("got",))
_HOLDS: Final = frozenset({"has", "have", "holds", "hold", "had"})  # 'if he has', 'Bob has 9H'
# what people say, type or tick for yes and no
SAID: Final = {"yep": "yes", "yeah": "yes", "yup": "yes", "y": "yes", "nope": "no", "nah": "no",
               "n": "no", "none": "no", "nothing": "no",
               **{mark: "yes" for mark in ("\u2713", "\u2714", "\u2714\ufe0f", "\u2705")},
               **{mark: "no" for mark in ("\u2717", "\u2718", "\u274c", "\u2716",
                                          "\u2716\ufe0f")}}
_LONGEST_ANSWER: Final = 7  # words: 'Bob says no , go fish !'
_REFUSALS: Final = (["no"], ["go", "fish"], ["no", ",", "go", "fish"], ["no", "go", "fish"],
                    ["fish"])
_MADE: Final = frozenset({"makes", "made", "gets", "got", "has", "had", "completes",
                          "completed"})  # before 'a book of': a book
_HAS: Final = frozenset({"has", "had"})  # 'Cy has 2', 'Cy has no sevens': an answer
# the words of a refusal said as what the asked player lacks, after the name, before
# what was asked if it is named: 'Cy has no sevens', 'Cy doesn't have any', 'Cy has none'
_LACKS: Final = tuple(phrase.split() for phrase in (
    "has none", "has nothing", "had none", "had nothing", "has no", "had no",
    *(f"{does} have {article}" for does in ("doesn't", "doesnt", "doesn\u2019t", "does not",
                                        "didn't", "didnt", "didn\u2019t", "did not")
      for article in ("any", "the", "a", "an", "it", "one"))))
_LACKS_ALL: Final = frozenset({"none", "nothing", "it", "one"})  # the phrase says it all
_LACKS_NAMED: Final = frozenset({"no", "the", "a", "an"})  # a word follows: 'has no 7s'
_LACK_STARTS: Final = frozenset(phrase[0] for phrase in _LACKS)
# words no ask asks for, but an answer says: an ask's words holding one may be an ask
# and its answer written without ';' (referee/transcript/notation.py, _answered_ask)
ANSWER_WORDS: Final = frozenset({"no", "yes", "fish", "says", "gives", *_HAS, *SAID, *_LACK_STARTS,
                                 *(word for word, verb in VERBS.items()
                                   if verb in ("gives", "says"))})
_STOCK_WORDS: Final = frozenset({"stock", "pond", "pile", "deck", "pool", "lake", "sea",
                                 "ocean", "talon"})  # 'Bob draws from the pond'
_PRONOUNS: Final = frozenset({"him", "her", "them"})  # whom a give goes to: 'gives him 2'
_THE_CARDS_ASKED: Final = (["it"], ["them"], ["them", "all"], ["all"], ["all", "of", "them"])
# a count in words (digits are read as digits); 'a' and 'an' count one card named after
COUNT_WORDS: Final = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
                      "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11,
                      "twelve": 12}
_CARD_WORDS: Final = frozenset({"card", "cards"})
_ARTICLES: Final = ARTICLES - RANK_ARTICLES  # 'the', 'a', 'an' before a card given, drawn
_ONE_CARD: Final = (["a", "card"], ["one"], ["1"], ["one", "card"], ["1", "card"])
_NOT_A_NAME: Final = ARTICLES | {"all", "its", "his", "her", "their", ",", "?", ":",
                                  ">"}  # words a give's cards may start with

Fail = Callable[[str, int | None], RefereeError]  # an error at a word's index


def tokens_at(texts: list[str], columns: list[int]) -> list[Token]:
    """The tokens of the words ``texts`` at ``columns``, offset from the first."""
    first = columns[0] if columns else 0
    return [Token(text, column - first) for text, column in zip(texts, columns, strict=True)]


def read_event(segment: str, texts: list[str], columns: list[int], number: int, line: str,
               source: str) -> Event:
    """The event of a segment (of words ``texts`` at ``columns``, notation's ``_words``),
    in any form, or its error."""
    tokens = _in_notation(tokens_at(_without_full_stop(texts), columns))
    words = [t.low for t in tokens]
    if len(words) > 1:
        words[1] = VERBS.get(words[1], words[1])
        if len(words) == 3 and words[1:] in _FISHING:  # 'Bob goes fishing'
            words, tokens = [words[0], "draws"], tokens[:2]
        if words[0] in _TURNED_UP and words[1] == "up":
            words[0] = "turn"
    span = Span(number, columns[0], line, source, len(segment.strip()))

    def fail(message: str, at: int | None = None) -> RefereeError:
        if at is None or at >= len(tokens):
            return RefereeError(Kind.SYNTAX, message, Span(number, len(line) + 1, line,
                                                            source, 1))
        return RefereeError(Kind.SYNTAX, message, Span(
            number, columns[0] + tokens[at].offset, line, source, len(tokens[at].text)))

    answer = _answer_words(words)
    if answer == ["yes"]:
        return Event(EVENT_GIVE, span)
    if _is_yes(words[0]) and _names_what_is_given(tokens[1:]):  # 'yes, 7S 7H'
        return _read_give(None, _after_comma(tokens[1:]), span, line, fail)
    if answer in _REFUSALS:
        return Event(EVENT_REFUSE, span)
    if words[:2] == ["turn", "up"]:
        return Event(EVENT_TURN_UP, span, items=_without(tokens[2:], ","))
    if words[0] == "hand" and len(words) == 2 and is_digits(words[1]):
        return Event(EVENT_NEW_HAND, span, count=_count(words[1], fail, 1))
    if len(tokens) < 2:
        raise fail(f"cannot read {quoted(segment.strip(), 60)}; {ANSWER_HINT}", 0)
    player, verb = tokens[0], words[1]
    rest = tokens[2:]
    if len(words) > 4 and words[2:5] == ["a", "book", "of"] and words[1] in _MADE:
        return Event(EVENT_BOOK, span, player, items=tuple(rest))  # 'Ann makes a book of 7s'
    lacked = _lacked(words)
    if lacked is not None:  # 'Cy has no sevens', 'Cy doesn't have any': a refusal
        return Event(EVENT_REFUSE, span, player,
                     counted=tokens[lacked] if lacked < len(tokens) else None)
    if verb in _HAS:  # 'Cy has 2', 'Cy has an ace': a give
        return _read_give(player, rest, span, line, fail)
    if verb == "to" and len(rest) > 2 and rest[1].text in (":", ","):  # 'Ann to Bob: 7s?'
        asked = _without(_unasked(rest[2:]), "?")
        if asked:
            return _ask_of(span, player, rest[0], asked)
    if verb == "asks":
        lows = words[2:]
        if lows[1:4] == ["to", "lay", "out"] and len(rest) > 4:
            return Event(EVENT_ASK, span, player, rest[0], _without(rest[4:], "?"), lay_out=True)
        asked = _asked_for(rest)
        if not asked:
            raise fail("an ask reads 'Ann asks Bob for QS', 'Ann asks Bob to lay out QS' or "
                       "'Ann asks Bob: any hearts?'", 2 + min(len(rest), 1))
        return Event(EVENT_ASK, span, player, rest[0], asked)
    if verb == ">":
        if len(rest) > 2 and rest[1].text in (":", ","):  # 'Ann > Bob: 7', 'Ann > Bob, 7?'
            rest = [rest[0], *rest[2:]]
        if len(rest) < 2:
            raise fail("an ask reads 'Ann > Bob QS'", 2 + len(rest))
        return _ask_of(span, player, rest[0], _without(rest[1:], "?"))
    if verb == ":":
        if answer[2:] in _REFUSALS:
            return Event(EVENT_REFUSE, span, player)
        if answer[2:] == ["yes"]:
            return Event(EVENT_GIVE, span, player)
        if rest and _is_yes(rest[0].low) and _names_what_is_given(rest[1:]):  # 'Bob: yes, 7S'
            return _read_give(player, _after_comma(rest[1:]), span, line, fail)
        asked = _without(_unasked(rest[2:]), "?") if len(rest) > 2 and rest[1].text == "," \
            else ()
        if not asked:
            raise fail("an ask reads 'Ann: Bob, QS?' and a refusal 'Bob: no'",
                       2 + (1 if rest else 0))
        return _ask_of(span, player, rest[0], asked)
    if verb == "gives":
        return _read_give(player, rest, span, line, fail)
    if verb == "says":
        if answer[2:3] in ([","], [":"]):  # 'Bob said, "no"'
            answer = [*answer[:2], *answer[3:]]
        if answer[2:] == ["yes"]:
            return Event(EVENT_GIVE, span, player)
        if rest and _is_yes(rest[0].low) and _names_what_is_given(rest[1:]):  # 'says yes, 7S'
            return _read_give(player, _after_comma(rest[1:]), span, line, fail)
        if answer[2:] not in _REFUSALS:
            raise fail("an answer reads 'Bob says no' or 'Bob says yes'", 2)
        return Event(EVENT_REFUSE, span, player)
    if verb == "draws":
        rest = _from_the_stock(rest)
        if [t.low for t in rest] in _ONE_CARD:  # 'Ann draws a card': the card not named
            return Event(EVENT_DRAW, span, player)
        drawn = _named_cards(rest, line, span.column)
        if len(drawn) > 1:
            raise fail("a draw names at most one card: 'Ann draws 7C'", 3)
        return Event(EVENT_DRAW, span, player, items=drawn)
    if verb == "lays" and len(rest) > 1 and rest[0].low == "out":
        return Event(EVENT_GIVE, span, player, items=tuple(rest[1:]), lay_out=True)
    if verb == "books" or (verb == "lays" and len(rest) > 1 and rest[0].low == "down"):
        items = _without(rest if verb == "books" else rest[1:], ",")
        if not items:
            raise fail("say which set: 'Ann books Q'", 2)
        return Event(EVENT_BOOK, span, player, items=items)
    if verb == "passes":  # 'passes to Cy', as people say it 'passes the turn to Cy'
        said = [t.low for t in rest[:-1]]
        if not rest or said not in _PASSED or rest[-1].low in ("to", "turn"):
            raise fail("a pass reads 'Ann passes to Cy'", 2)
        return Event(EVENT_PASS, span, player, rest[-1])
    if verb == "plays":
        return _read_play(player, rest, span, fail)
    if verb == "claims":
        return _read_claim(tokens, span, fail)
    if verb == "shows":
        if not rest:
            raise fail("a show names the cards: 'Dee shows 3S 5S'", 2)
        return Event(EVENT_SHOW, span, player, items=_named_cards(rest, line, span.column))
    raise fail(f"cannot read {quoted(segment.strip(), 60)}; {ANSWER_HINT}", 1)


def _ask_of(span: Span, player: Token, target: Token, asked: tuple[Token, ...]) -> Event:
    """An ask of ``asked``: to lay them out where they start ``lay out`` (``Ann > Bob lay
    out 7S``, ``Ann: Bob, lay out 7S?``)."""
    if len(asked) > 2 and asked[0].low == "lay" and asked[1].low == "out":
        return Event(EVENT_ASK, span, player, target, asked[2:], lay_out=True)
    return Event(EVENT_ASK, span, player, target, asked)


def _in_notation(tokens: list[Token]) -> list[Token]:
    """``tokens`` without the words a record of the game may add to the notation's: the
    ``-`` of an arrow (``Ann -> Bob 7``, ``Ann->Bob 7``), ``over`` after ``hands``, ``up``
    after ``picks``."""
    if len(tokens) > 2:
        first, second = tokens[0], tokens[1]
        if second.text == "-" and tokens[2].text == ">":  # 'Ann -> Bob 7'
            return [first, *tokens[2:]]
        if second.text == ">" and len(first.text) > 1 and first.text.endswith("-"):
            return [Token(first.text[:-1], 0), *tokens[1:]]  # 'Ann->Bob 7'
        particle = _PARTICLES.get(second.low)
        if particle is not None and tokens[2].low == particle:  # 'hands over', 'picks up'
            return [first, second, *tokens[3:]]
    return tokens


_PARTICLES: Final = {"hands": "over", "handed": "over", "picks": "up", "picked": "up",
                     "pick": "up"}


def _lacked(words: list[str]) -> int | None:
    """Where a refusal said as what the asked player lacks (``words``, in lower case)
    names what was asked: 3 in ``Cy has no sevens``, ``len(words)`` where it names
    nothing (``Cy has none``, ``Cy doesn't have any``); None for other words."""
    if len(words) < 3 or words[1] not in _LACK_STARTS:
        return None
    said = [*words[:-1], words[-1].rstrip("!.")]  # 'Cy has none!'
    for phrase in _LACKS:
        end = 1 + len(phrase)
        if said[1:end] == phrase:
            if end == len(said):  # nothing named: 'has none', 'doesn't have any'
                return None if phrase[-1] in _LACKS_NAMED else end
            if end + 1 == len(said) and phrase[-1] not in _LACKS_ALL:
                return end  # one word names it: 'has no sevens', 'doesn't have the 7H'
            return None
    return None


def _from_the_stock(rest: list[Token]) -> list[Token]:
    """A draw's words (after ``draws``) without where it draws from, at their end: ``from
    the stock``, ``from the pond``, ``from pile``."""
    if len(rest) > 1 and rest[-1].low in _STOCK_WORDS:
        if rest[-2].low == "from":
            return rest[:-2]
        if len(rest) > 2 and rest[-2].low == "the" and rest[-3].low == "from":
            return rest[:-3]
    return rest


def _asked_for(rest: list[Token]) -> tuple[Token, ...]:
    """What ``P asks Q ...`` asks for (``rest``: the words after ``asks``): the words
    after ``for``, ``:`` or ``,`` (``Ann asks Bob for 7``, ``Ann asks Bob: any hearts?``,
    ``Ann asks Bob, do you have any 7s?``), or after ``if`` or ``whether`` and who holds
    (``Ann asks Bob if he has any 7s``); () if none."""
    if len(rest) < 3:
        return ()
    joiner = rest[1].low
    if joiner in ("for", ":", ","):
        asked = rest[2:]
    elif joiner in ("if", "whether") and len(rest) > 4 and rest[3].low in _HOLDS:
        asked = rest[4:]
    else:  # 'Ann asks Bob do you have any 7s', once its quotation marks are read
        asked = _unasked(rest[1:])
        if len(asked) == len(rest) - 1:
            return ()
    return _without(_unasked(asked), "?")


def _unasked(words: list[Token]) -> list[Token]:
    """``words``, what an ask asks for, without the words of the question that may come
    first (``do you have any sevens``, ``got any 7s``)."""
    lows = tuple(t.low for t in words[:3])
    for asking in ASKING:
        if lows[:len(asking)] == asking and len(words) > len(asking):
            return words[len(asking):]
    return words


def _is_yes(word: str) -> bool:
    """Whether ``word`` (in lower case) says yes: ``yes``, ``yep``, ``yeah``, ``yup``."""
    return word == "yes" or SAID.get(word) == "yes"


def _names_what_is_given(after_yes: list[Token]) -> bool:
    """Whether the words after an answer's ``yes`` name what is given: a comma and
    more (``yes, 7S 7H``, ``yes, two``), or a card or a count (``yes 7S``, ``yes 2``)."""
    if not after_yes:
        return False
    first = after_yes[0].text
    return (first == "," and len(after_yes) > 1) or parse_card(first) is not None or \
        is_digits(first)


def _after_comma(words: list[Token]) -> list[Token]:
    """``words`` without the comma they may start with."""
    return words[1:] if words and words[0].text == "," else words


def _read_give(player: Token | None, rest: list[Token], span: Span, line: str, fail: Fail
               ) -> Event:
    """A give: its cards (``Bob gives 7S 7H``), a count (``Bob gives 2``, ``two sevens``)
    or nothing; whom it gives to, if named (``Bob gives Ann 2``, ``Bob gives 2 to Ann``)."""
    receiver: Token | None = None
    if len(rest) > 1 and rest[0].low in _PRONOUNS:  # 'Cy gives him 2': to who asked
        rest = rest[1:]
    if [t.low for t in rest] in _THE_CARDS_ASKED:  # 'Cy gives them', 'gives it'
        rest = []
    if len(rest) > 2 and rest[-2].low == "to":  # 'Cy gives 2 to Bob'
        receiver, rest = rest[-1], rest[:-2]
    elif rest and _may_be_a_name(rest[0]):  # 'Cy gives Bob 2', 'Cy gives Bob'
        receiver, rest = rest[0], rest[1:]
    if rest and (is_digits(rest[0].text) or rest[0].low in COUNT_WORDS):
        counted = _counted(rest, fail)
        if counted is not None:
            return Event(EVENT_GIVE, span, player, receiver, count=counted[0],
                         counted=counted[1])
    return Event(EVENT_GIVE, span, player, receiver,
                 items=_named_cards(rest, line, span.column))


def _named_cards(words: list[Token], line: str, start: int) -> tuple[Token, ...]:
    """The cards ``words`` name (in ``line``, their event's first word at column
    ``start``): each a word (``7S``) or said in words (``the seven of spades``, one
    token of those words as typed, which the resolver reads with
    :func:`referee.language.cards.parse_asked`), listed with commas or ``and``; an
    article before a card is dropped."""
    cards: list[Token] = []
    words = _slashed(words, line)
    index = 0
    while index < len(words):
        word = words[index]
        low = word.low
        if low == "," or (low == "and" and cards and index + 1 < len(words)) or (
                low in _ARTICLES and index + 1 < len(words) and words[index + 1].text != ","):
            index += 1
            continue
        if index + 2 < len(words) and words[index + 1].low == "of" and \
                parse_rank(word.text) is not None and parse_suit(words[index + 2].text):
            last = words[index + 2]
            at = start + word.offset - 1  # the index of its first character in the line
            cards.append(Token(line[at:start + last.offset - 1 + len(last.text)], word.offset))
            index += 3
            continue
        cards.append(word)
        index += 1
    return tuple(cards)


def _slashed(words: list[Token], line: str) -> list[Token]:
    """``words`` (of ``line``) with each word of cards parted by ``/`` read as those cards
    (``9D/JD``, ``9D / JD``: ``9D`` and ``JD``), as a comma lists them."""
    if "/" not in line:  # (a line's one search, where most hold none)
        return words
    parted: list[Token] = []
    for word in words:
        if "/" not in word.text:
            parted.append(word)
            continue
        at = word.offset
        for part in word.text.split("/"):
            if part:
                parted.append(Token(part, at))
            at += len(part) + 1
    return parted


def _may_be_a_name(token: Token) -> bool:
    """Whether ``token``, the first word after ``gives``, may name whom the cards go to:
    it is no card, rank, count, or word a give's cards may start with."""
    low = token.low
    return not (is_digits(low) or low in COUNT_WORDS or low in _CARD_WORDS
                or low in _NOT_A_NAME or parse_card(token.text) is not None
                or parse_plural_rank(token.text) is not None)


def _read_play(player: Token, rest: list[Token], span: Span, fail: Fail) -> Event:
    """A play, and what it takes: ``Ann plays 7S`` or ``Ann plays 7S takes 3H 4D, 7C``."""
    if not rest:
        raise fail("a play reads 'Ann plays 7S' or 'Ann plays 7S takes 3H 4D, 7C'", 2)
    groups: list[tuple[Token, tuple[Token, ...]]] = []
    if len(rest) > 1:
        if rest[1].low not in _TAKES or len(rest) < 3:
            raise fail("a capture reads 'Ann plays 7S takes 3H 4D, 7C'", 3)
        current: list[Token] = []
        for index, token in enumerate([*rest[2:], Token(",", 0)], start=4):
            if token.text != ",":
                current.append(token)
                continue
            if not current:
                raise fail("a group of cards is missing between commas", index - 1)
            groups.append((current[0], tuple(current)))
            current = []
    return Event(EVENT_PLAY, span, player, items=(rest[0],), groups=tuple(groups))


def _without_full_stop(texts: list[str]) -> list[str]:
    """``texts`` without the ``.`` or ``!`` that may end a sentence (``Ann draws 7C.``,
    ``Bob gives 2.``, ``Ann books low spades!``): dropped from the last word where what
    is left reads as a card, a rank, a suit, a colour, a count or a verb (``Bob drew.``). A name
    may end in ``.`` (``Ann passes to Dr.``) and is kept so (the resolver reads it
    without when only that names a player); an answer's ``no.`` is
    :func:`_answer_words`'s."""
    last = texts[-1]
    if last[-1] not in "!." or len(texts) < 2 or \
            VERBS.get(texts[1].lower(), texts[1].lower()) == "passes":
        return texts
    bare = last.rstrip("!.")
    low = bare.lower()
    if bare and (is_digits(bare) or low in COUNT_WORDS or low in _CARD_WORDS
                 or low in _ENDING_WORDS
                 or parse_card(bare) is not None or parse_rank(bare) is not None
                 or parse_suit(bare) is not None):
        return [*texts[:-1], bare]
    return texts


def _answer_words(words: list[str]) -> list[str]:
    """``words`` (in lower case) read as an answer may be read: without the ``!`` or
    ``.`` a player may end one with (``Go fish!``, ``No.``, ``Bob: go fish!``), and
    with ``yep``, ``yeah`` or ``yup`` for yes, ``nope`` or ``nah`` for no (``Nope, go
    fish``)."""
    if len(words) > _LONGEST_ANSWER:
        return words
    last = words[-1]
    bare = last.rstrip("!.")
    if not bare:  # marks alone: 'go fish !'
        words = words[:-1]
    elif bare != last:
        words = [*words[:-1], bare]
    return [SAID.get(word, word) for word in words]

def _counted(rest: list[Token], fail: Fail
             ) -> tuple[int, Token | None] | None:
    """The count a give's words say, as people say one (``2``, ``two``, ``2 cards``,
    ``2 sevens``, ``two 7s``, ``a seven``), and the rank word after it if any, to be
    checked against the rank asked for; None for a give that names cards. After a
    count, ``7s`` is the plural of 7 (:func:`parse_plural_rank`)."""
    words = _without(rest, ",")
    first = words[0]
    if len(words) > 2 or (len(words) == 1 and first.low in ("a", "an")):
        return None
    count = _count(first.text, fail, 2) if is_digits(first.text) else COUNT_WORDS[first.low]
    if len(words) == 1 or words[1].low in _CARD_WORDS:
        return count, None
    what = words[1]
    if parse_plural_rank(what.text) is not None:
        return count, what
    return None


def _count(text: str, fail: Fail, at: int) -> int:
    """A count written in ASCII digits; a hand number or a count of cards is small."""
    count = ascii_number(text, MAX_COUNT_DIGITS)
    if count is None:
        raise fail(f"{quoted(text, 12)} is too big a number here "
                   f"(at most {MAX_COUNT_DIGITS} digits)", at)
    return count


def _without(tokens: list[Token], mark: str) -> tuple[Token, ...]:
    """``tokens`` but those written ``mark``: an ask's ``?``, or the ``,`` that may list
    the cards of a give, a show, a turn-up or a book (``Bob gives 7S, 7H``), as a
    header's cards may be listed."""
    return tuple(t for t in tokens if t.text != mark)


def _read_claim(
    tokens: list[Token], span: Span, fail: Fail
) -> Event:
    colon = next((i for i, t in enumerate(tokens) if t.text == ":"), None)
    if colon is None or colon < 3:
        raise fail("a claim reads 'Ann claims low spades: Ann 3S 4S, Cy 5S 6S 7S 8S'", 2)
    groups: list[tuple[Token, tuple[Token, ...]]] = []
    current: list[Token] = []  # a holder's name, then the cards it holds
    closing = False  # a comma was read: the holder's cards end, unless a card follows
    previous = tokens[colon]
    holders = tokens[colon + 1:]  # and their cards
    for token in _slashed(holders, span.text):
        said = token.low  # a word said between names and cards: 'and', 'has'
        if token.text == "," or (said == "and" and len(current) > 1):
            closing = True  # ('Dee JH and Fay 10H': 'and' as a comma; '10H and QH' too)
        elif said in _HOLDS and len(current) == 1 and not closing:
            pass  # 'Bob has 9H KH', read as 'Bob 9H KH'
        elif closing and not (current and parse_card(token.text) is not None):
            if current:
                groups.append((current[0], tuple(current[1:])))
            current = [token]
            closing = False
        elif token.text == ":" and len(current) == 1 and current[0] is previous:
            pass  # a holder's name and a colon, 'Bob: 9D', read as 'Bob 9D'
        else:
            current.append(token)
            closing = False
        previous = token
    if current:
        groups.append((current[0], tuple(current[1:])))
    named = 3 if tokens[2].low == "the" and colon > 3 else 2  # 'claims the high hearts'
    return Event(EVENT_CLAIM, span, tokens[0], items=tuple(tokens[named:colon]),
                 groups=tuple(groups))
