"""Completion at the live prompt: the words that fit where the cursor is, at this moment
of the game.

:func:`candidates` reads the text before the cursor as far as the transcript notation
goes (``Ann asks Bob for ``) and asks :class:`~referee.live.choices.Choices` what may come
next: after the start of a line, the players who may act, the bare answers and the
commands; after a name, that player's verbs; after ``asks``, the players who may be
asked; after ``for``, the ranks or cards that may be asked for; after ``books``,
``lays down`` or ``claims``, set names. :class:`TableCompleter` hands them to
prompt_toolkit.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from referee.engine.state import Phase
from referee.live.choices import Choices
from referee.live.replies import Command
from referee.live.table import LiveTable
from referee.sanitize import printable

_TOKEN = re.compile(r"[^\s:,?>;]+|[:,?>]")  # as referee/transcript/notation.py reads a line
SET_VERBS = ("books", "lays down", "claims")


def candidates(table: LiveTable, before: str) -> tuple[str, list[str]]:
    """The word being typed (its start, as typed) and the words that may complete it."""
    segment = before.rsplit(";", 1)[-1]
    tokens = _TOKEN.findall(segment)
    partial = "" if not segment or segment[-1].isspace() or segment[-1] in ":,?>" else (
        tokens.pop() if tokens else "")
    words = [t.lower() for t in tokens]
    found = _after(table, words, tokens)
    if found is None:
        return partial, []
    kind, options = found
    if kind == "set":  # a set's name may run over several words: complete it whole
        typed = _set_text(segment)
        return typed, _fitting(options, typed)
    return partial, _fitting(options, partial)


def _fitting(options: Iterable[str], partial: str) -> list[str]:
    low = partial.lower()
    return list(dict.fromkeys(o for o in options if o.lower().startswith(low)))


def _set_text(segment: str) -> str:
    """What is typed of a set's name after its verb."""
    for verb in SET_VERBS:
        spot = segment.lower().rfind(f" {verb} ")
        if spot >= 0:
            return segment[spot + len(verb) + 2:].lstrip()
    return ""


def _after(table: LiveTable, words: list[str], tokens: list[str]
           ) -> tuple[str, list[str]] | None:
    """What may follow ``words`` (the whole words typed of the current event)."""
    choices = table.choices()
    names = list(table.players())
    if not words:
        return "word", _first_words(table, choices)
    if words[0] == "turn":
        return ("word", ["up"]) if len(words) == 1 else ("card", [*choices.may_be_in_stock()])
    seat = _seat(names, words[0])
    if seat is None:
        return None
    rest, held = words[1:], tokens[1:]
    if not rest:
        verbs = choices.verbs(seat)
        return "word", [*verbs, ">", ":"] if "asks" in verbs else verbs
    verb = rest[0]
    if verb in (">", ":") and len(rest) == 1:
        return "word", [names[s] for s in choices.whom(seat)]
    if verb in (">", ":") and len(rest) >= 2:
        if verb == ":" and rest[-1] != ",":
            return "word", [","]
        return "card", choices.ask_items(seat)
    if verb == "asks":
        return _ask_words(choices, names, seat, rest[1:])
    if verb in ("gives", "lays") and (verb == "gives" or rest[1:2] == ["out"]):
        return "card", choices.answer_items()
    if verb == "says":
        return ("word", choices.answer_words()) if len(rest) == 1 else None
    if verb == "lays" and len(rest) == 1:
        return "word", ["down", "out"]
    if verb == "draws":
        return ("card", choices.draw_items()) if len(rest) == 1 else None
    if verb in ("books", "lays"):
        return "set", choices.whole_sets(seat) if choices.whole_sets(seat) else [
            s.name for s in table.session.engine.spec.sets
            if not choices.state.decided(s.name)]
    if verb == "claims":
        return _claim_words(choices, names, seat, rest[1:], held[1:])
    if verb == "passes":
        return ("word", ["to"]) if len(rest) == 1 else (
            ("word", [names[s] for s in choices.pass_to()]) if len(rest) == 2 else None)
    if verb == "shows":
        shown = set(rest[1:])
        return "card", [c for c in choices.show_items(seat) if c.lower() not in shown]
    if verb == "plays":
        return _play_words(choices, rest[1:])
    return None


def _first_words(table: LiveTable, choices: Choices) -> list[str]:
    state = choices.state
    names = table.players()
    first = [names[s] for s in choices.actors()]
    if state.phase is Phase.ANSWER:
        first += choices.answer_words() + (["go fish"] if "no" in choices.answer_words()
                                           and state.questioning is None else [])
    if state.phase is Phase.TURN_UP:
        first.append("turn up")
    if table.pending is not None:
        first = [Command.ACCEPT.value, Command.UNDO.value, *first]
    return [*first, *(c.value for c in Command if _fits(table, c))]


def _fits(table: LiveTable, command: Command) -> bool:
    """Whether ``command`` means something now (completion offers only those)."""
    session = table.session
    state = session.state
    if command is Command.ACCEPT:
        return table.pending is not None
    if command is Command.UNDO:
        return table.pending is not None or bool(table.journal.entries)
    if command in (Command.HISTORY, Command.KNOWN):
        return table.knowing
    if command is Command.HAND:
        return session.game.target is not None and state.over and not session.match_over()
    if command is Command.DONE:
        return not state.over and session.engine.forced_move(state) is not None
    return True


def _seat(names: list[str], word: str) -> int | None:
    """The seat a typed name (or unique prefix) names."""
    exact = [s for s, n in enumerate(names) if n.lower() == word]
    if exact:
        return exact[0]
    matches = [s for s, n in enumerate(names) if n.lower().startswith(word)]
    return matches[0] if len(matches) == 1 else None


def _ask_words(choices: Choices, names: list[str], seat: int, rest: list[str]
               ) -> tuple[str, list[str]] | None:
    if not rest:
        return "word", [names[s] for s in choices.whom(seat)]
    spec = choices.spec
    if len(rest) == 1:
        options = ["for"]
        if spec.ask.handover.value.endswith("centre"):
            options.append("to lay out")
        if spec.questions:
            options.append(": any")
        return "word", options
    if rest[1] == "for" or rest[1:4] == ["to", "lay", "out"]:
        return ("card", choices.ask_items(seat)) if len(rest) in (2, 4) else None
    if rest[1] == ":":
        return ("word", ["any"]) if len(rest) == 2 else (
            ("word", choices.question_items()) if len(rest) == 3 else None)
    return None


def _claim_words(choices: Choices, names: list[str], seat: int, rest: list[str],
                 typed: list[str]) -> tuple[str, list[str]] | None:
    """A claim: the set, then ``:``, then teammates each followed by cards."""
    if ":" not in rest:
        return "set", choices.open_sets()
    chosen = " ".join(typed[: rest.index(":")])
    spec = choices.spec.find_set(chosen)
    if spec is None:
        return None
    after = rest[rest.index(":") + 1:]
    mates = [names[s] for s in choices.team_of(seat)]
    if not after or after[-1] == ",":
        return "word", mates
    named = {w.upper() for w in after}
    cards = [c for c in choices.lk.in_deck_order(spec.cards) if c not in named]
    return "card", [*cards, ","]


def _play_words(choices: Choices, rest: list[str]) -> tuple[str, list[str]] | None:
    seat = choices.state.turn
    if not rest:
        return "card", choices.play_items(seat)
    if len(rest) == 1:
        return "word", ["takes"]
    taken = {w.upper() for w in rest[2:]}
    return "card", [c for c in choices.state.centre if c not in taken]


class TableCompleter(Completer):
    """prompt_toolkit's view of :func:`candidates`."""

    def __init__(self, table: LiveTable) -> None:
        self.table = table

    def get_completions(self, document: Document, complete_event: CompleteEvent
                        ) -> Iterator[Completion]:
        """The completions of the word before the cursor."""
        typed, options = candidates(self.table, document.text_before_cursor)
        for option in options:  # a whole word, so the next can be typed at once
            yield Completion(option + " ", start_position=-len(typed),
                             display=printable(option))  # the menu is written as shown
