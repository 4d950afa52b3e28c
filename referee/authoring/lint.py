"""``referee lint``: a rule file's errors, and the warnings a designer needs.

The compiler refuses what cannot be played (its errors end the lint, exit 2).
Lint warns about what compiles but is probably not meant, each at its line:

- ``unused``: a statement nothing uses (card values without plays, ``after a
  question`` without questions, an option no value of which changes the game);
- ``repeats-base``: a variant's statement that its base already says, word for word;
- ``option``: an option value that the rules cannot be played with, or a number
  used only as 0 and 1 (a switch reads better as yes or no);
- ``no-stock``: a deal that leaves no stock in a game that draws from it;
- ``unfinished``: random self-play that cannot finish its games.

Only statements of the file linted are judged; its bases are linted on their own.

Some warnings come with a hint: lines to write in the file (a statement added at its
end, or a line rewritten). A hint is only ever one that lint has tried: the file is
linted again with it written, with the same self-play games, and the hint is given
only when that warning is gone and no other warning has come.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from enum import Enum
from pathlib import Path

from referee.authoring.simulate import play_one, seeds
from referee.engine.core import Engine
from referee.errors import Kind, RefereeError, Span, bounded, printable
from referee.language.ast import Node, RuleFile
from referee.language.compiler import SET_KINDS, RuleBook, rule_book, slot_of
from referee.language.extends import load_layers
from referee.language.spec import (
    Condition,
    EndWhen,
    GameSpec,
    Handover,
    LayDown,
    TieRule,
    WhenStuck,
)
from referee.language.syntax import parse_rules_text
from referee.reading import ascii_number, decode, read_rule_file
from referee.values import frozen, replace
from referee.words import counted
from referee.words import player_counts as counts_text

SELF_PLAY_GAMES = 200
MAX_HINTS_TRIED = 8  # hints tried on one file, each by linting the file again
MIN_MOVE_LIMIT = 2_000
MOVES_PER_CARD = 40  # the move limit of a lint game grows with the deck
ASK_DETAILS = ("must_hold", "must_not_hold", "gives", "if_given", "if_not_given")
NO_PLAYS = "the rules have no plays"
QUESTIONS = "questions: any card of a rank, a suit or a colour"
PLAY = ("play: one card from the hand, capturing groups of centre cards that sum to its "
        "value, otherwise to the centre")
STUCK = ("a player who cannot ask: draws from the stock and goes on",
         "a player who cannot ask: draws from the stock, then turn passes to the next player")
MISSING = {"after_question": QUESTIONS, "card_values": PLAY, "after_play": PLAY}


class Code(Enum):
    """The kinds of warning."""

    UNUSED = "unused"
    REPEATS_BASE = "repeats-base"
    OPTION = "option"
    NO_STOCK = "no-stock"
    UNFINISHED = "unfinished"


@frozen
class Edit:
    """A line of the rule file rewritten as ``text``, or, when ``line`` is 0, ``text``
    added as a new last line."""

    line: int
    text: str

    def words(self) -> str:
        """``add 'TEXT'`` or ``line N: 'TEXT'``."""
        return f"add '{self.text}'" if not self.line else f"line {self.line}: '{self.text}'"


Hint = tuple[Edit, ...]


@frozen
class Finding:
    """One warning: its kind, what it says, and the statement it is about; ``hint``,
    lines whose writing lint has seen clear it, and ``tries``, hints not yet tried."""

    code: Code
    message: str
    span: Span
    hint: Hint = ()
    tries: tuple[Hint, ...] = ()

    def report(self) -> str:
        """``file:line:column: warning: message (hint: ...) [code]`` and the line with a
        caret."""
        where = f"{self.span.source}:{self.span.line}:{self.span.column}: "
        hint = f" (hint: {'; '.join(e.words() for e in self.hint)})" if self.hint else ""
        text = printable(f"{where}warning: {bounded(self.message)}{hint} [{self.code.value}]")
        caret = self.span.caret()
        return f"{text}\n{caret}" if caret else text


@frozen
class LintResult:
    """What lint found in one rule file: the compiler's error, or warnings."""

    source: str
    findings: tuple[Finding, ...] = ()
    error: RefereeError | None = None

    @property
    def status(self) -> int:
        """0 clean, 1 warnings, 2 an error."""
        return 2 if self.error is not None else 1 if self.findings else 0


def lint_file(path: Path, games: int = SELF_PLAY_GAMES, seed: int = 0) -> LintResult:
    """Lint the rule file at ``path``: compile it, then look for what is probably not
    meant, playing ``games`` random games (none when 0) started from ``seed``."""
    try:
        layers = load_layers(path)
        findings = _findings(rule_book(tuple(layers)), layers, games, seed)
    except RefereeError as exc:
        return LintResult(str(path), error=exc)
    if any(f.tries for f in findings):
        findings = _with_hints(path, layers, findings, games, seed)
    return LintResult(str(path), tuple(findings))


def _findings(book: RuleBook, layers: Sequence[RuleFile], games: int,
              seed: int) -> list[Finding]:
    """Every warning about the top layer, in the order of its lines (hints untried)."""
    spec = book.spec()
    findings = [
        *_unused_statements(layers[-1], spec),
        *_repeats(layers),
        *_options(book, layers, spec),
        *_no_stock(book, spec),
    ]
    if games:
        findings += _self_play(book, spec, games, seed)
    findings.sort(key=lambda f: (f.span.line, f.span.column))
    return findings


# -- hints ------------------------------------------------------------------------------

def _with_hints(path: Path, layers: Sequence[RuleFile], findings: list[Finding],
                games: int, seed: int) -> list[Finding]:
    """The findings, each with the first of its hints that clears it, tried in order
    (at most MAX_HINTS_TRIED in all); the others with none."""
    try:
        text = decode(read_rule_file(path), str(path), Kind.RULES)
    except RefereeError:
        text = None
    left = MAX_HINTS_TRIED
    result = []
    for finding in findings:
        hint: Hint = ()
        for tried in finding.tries:
            if text is None or left <= 0:
                break
            left -= 1
            if _clears(text, layers, findings, finding, tried, games, seed):
                hint = tried
                break
        result.append(replace(finding, hint=hint, tries=()))
    return result


def _clears(text: str, layers: Sequence[RuleFile], findings: list[Finding],
            finding: Finding, hint: Hint, games: int, seed: int) -> bool:
    """Whether the file with ``hint`` written lints without ``finding`` and without any
    warning it did not have."""
    top = layers[-1]
    try:
        edited = parse_rules_text(edited_text(text, hint), top.path, top.name)
        after = _findings(RuleBook([*layers[:-1], edited]), [*layers[:-1], edited], games,
                          seed)
    except RefereeError:
        return False
    before = {_identity(f) for f in findings}
    gone = not any(f.code is finding.code and (f.span.line, f.span.column) ==
                   (finding.span.line, finding.span.column) for f in after)
    return gone and all(_identity(f) in before for f in after)


def _identity(finding: Finding) -> tuple[object, ...]:
    return finding.code, finding.span.line, finding.span.column, finding.message


def edited_text(text: str, hint: Hint) -> str:
    """A rule file's text with ``hint`` written: lines rewritten, statements added."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # what follows the last newline
    for edit in hint:
        if edit.line:
            lines[edit.line - 1] = edit.text
        else:
            lines.append(edit.text)
    return "\n".join(lines) + "\n"


def _statement_hint(top: RuleFile, statement: str) -> Hint:
    """``statement`` written in the file: over the line of the statement it replaces
    (the same heading), else added at the end."""
    kind = parse_rules_text(statement + "\n", "<hint>", "hint").statements[0]
    line = next((n.span.line for n in top.statements if n.kind != "when"
                 and slot_of(n) == slot_of(kind)), 0)
    return (Edit(line, statement),)


# -- statements nothing uses --------------------------------------------------------

def unused_reason(node: Node, spec: GameSpec) -> str | None:
    """Why ``node`` changes nothing in the game ``spec`` describes, or None."""
    kind = node.kind
    centre_used = centre_is_used(spec)
    reasons = {
        "after_question": None if spec.questions else
        "this says where the turn goes after a question, but the rules have no questions",
        "card_values": None if spec.plays else
        f"card values are summed by captures, but {NO_PLAYS}",
        "after_play": None if spec.plays else f"this says what follows a play, but {NO_PLAYS}",
        "score": None if spec.sets else
        "there are no sets, so points per set are never counted",
        "centre_refill": None if centre_used else
        "nothing in these rules takes cards from the centre (plays, asks that lay the card "
        "out to the centre, or lay-downs with centre cards), so refilling it changes nothing",
    }
    reason = reasons.get(kind)
    if reason is not None:
        return reason
    if kind in ASK_DETAILS and not spec.has_asks:
        return "nobody asks in this game: it has plays and no 'ask:'"
    if kind == "lay_down" and not spec.sets:
        return "there are no sets to lay down"
    if kind == "lay_down" and spec.lay_down is LayDown.WITH_CENTRE and not centre_is_filled(spec):
        return ("no card ever reaches the centre here, so no set can be made with cards of "
                "the centre")
    if kind == "ties" and spec.ties is TieRule.FIRST_SET and not spec.sets:
        return "there are no sets, so nobody lays one down first"
    if kind in ("if_given", "if_not_given") and spec.lay_down is not LayDown.AT_ONCE:
        condition = node.parts[-1].part("phrase_condition")
        if condition is not None and condition.phrase == Condition.SET_COMPLETED.value:
            return ("a set counts as completed by an ask only when sets are laid at once "
                    f"('lay down: {spec.lay_down.value}' lays them by choice), so this never "
                    "holds")
    if kind.startswith("deal") and (spec.centre_deal or spec.deal_rest_to_centre) \
            and not centre_used:
        return ("cards dealt face up to the centre stay there: nothing in these rules takes "
                "cards from the centre")
    if kind == "end" and not spec.sets:
        about_sets = {EndWhen.ALL_SETS_LAID.value, EndWhen.ALL_SETS_DECIDED.value}
        if any(p.phrase in about_sets for p in node.parts):
            return "there are no sets, so 'all sets' never ends the game"
    return None


def centre_is_used(spec: GameSpec) -> bool:
    """Whether any rule takes cards from the centre."""
    return (spec.plays or spec.lay_down is LayDown.WITH_CENTRE
            or (spec.has_asks and spec.ask.handover is Handover.TO_CENTRE))


def centre_is_filled(spec: GameSpec) -> bool:
    """Whether any rule puts cards in the centre."""
    uneven = spec.deal_rest_to_centre and any(len(spec.cards) % n for n in spec.player_counts)
    return bool(spec.centre_deal or uneven or spec.plays or spec.centre_refill
                or (spec.has_asks and spec.ask.handover is Handover.TO_CENTRE))


def _unused_statements(top: RuleFile, spec: GameSpec) -> Iterator[Finding]:
    for node in top.statements:
        if node.kind in ("option", "when", "extends", *SET_KINDS):
            continue
        reason = unused_reason(node, spec)
        if reason is not None:
            missing = MISSING.get(node.kind)
            tries = (_statement_hint(top, missing),) if missing else ()
            yield Finding(Code.UNUSED, reason, node.span, tries=tries)


# -- statements the base already says -----------------------------------------------

def _canon(node: Node) -> tuple[object, ...]:
    return (node.kind, tuple(w.text.lower() for w in node.words), node.phrase,
            tuple(_canon(p) for p in node.parts))


def _key(node: Node) -> tuple[str, ...]:
    """What a statement replaces in its base: its slot, an option's or a when's name."""
    if node.kind == "option":
        return ("option", node.words[0].text.lower())
    if node.kind == "when":
        value = _value(node.words[1].text) if len(node.words) > 1 else "yes"
        return ("when", node.words[0].text.lower(), value, slot_of(node.parts[0]))
    return (slot_of(node),)


def _repeats(layers: Sequence[RuleFile]) -> Iterator[Finding]:
    if len(layers) < 2:
        return
    said: dict[tuple[str, ...], Node] = {}
    base_sets: list[Node] = []
    for layer in layers[:-1]:
        layer_sets = [n for n in layer.statements if n.kind in SET_KINDS]
        base_sets = layer_sets or base_sets
        for node in layer.statements:
            if node.kind not in ("extends", *SET_KINDS):
                said[_key(node)] = node
    top = layers[-1]
    base = Path(layers[-2].path).stem
    for node in top.statements:
        if node.kind in ("extends", *SET_KINDS):
            continue
        before = said.get(_key(node))
        if before is not None and _canon(before) == _canon(node):
            yield Finding(Code.REPEATS_BASE, f"{base} already says this "
                          f"({Path(before.span.source).name}, line {before.span.line}); "
                          "a variant needs only what it changes", node.span)
    top_sets = [n for n in top.statements if n.kind in SET_KINDS]
    if top_sets and [_canon(n) for n in top_sets] == [_canon(n) for n in base_sets]:
        yield Finding(Code.REPEATS_BASE, f"{base} already gives these sets "
                      f"({Path(base_sets[0].span.source).name}, line "
                      f"{base_sets[0].span.line}); a variant needs only what it changes",
                      top_sets[0].span)


# -- options ------------------------------------------------------------------------

def _value(text: str) -> str:
    low = text.lower()
    number = ascii_number(text)
    return low if number is None else str(number)


def _tested(layers: Sequence[RuleFile]) -> dict[str, list[str]]:
    """The values each option's ``when`` statements test, in every layer."""
    tested: dict[str, list[str]] = {}
    for layer in layers:
        for node in layer.statements:
            if node.kind == "when":
                value = _value(node.words[1].text) if len(node.words) > 1 else "yes"
                tested.setdefault(node.words[0].text.lower(), []).append(value)
    return tested


def _options(book: RuleBook, layers: Sequence[RuleFile], spec: GameSpec) -> Iterator[Finding]:
    tested = _tested(layers)
    played = book.played()

    def with_option(name: str, value: str) -> GameSpec | RefereeError:
        """The game with one option's value changed, put together from the statements
        that value changes (nothing is compiled when it changes none), or why it cannot
        be played. Each is looked at and let go: none is kept or cached."""
        try:
            return book.played({name: value})
        except RefereeError as exc:
            return exc

    top = layers[-1].statements
    declared = {n.words[0].text.lower() for n in top if n.kind == "option"}
    whens: dict[str, list[Node]] = {}
    for node in top:
        if node.kind == "when":
            whens.setdefault(node.words[0].text.lower(), []).append(node)
    for node in top:
        if node.kind == "option":
            yield from _option_findings(node, whens, spec, tested, played, with_option)
        elif node.kind == "when":
            name = node.words[0].text.lower()
            value = _value(node.words[1].text) if len(node.words) > 1 else "yes"
            other = with_option(name, value)
            if isinstance(other, RefereeError):
                if name not in declared:
                    yield Finding(Code.OPTION, _cannot_play(name, value, other), node.span)
                continue
            reason = unused_reason(node.parts[0], other)
            if reason is not None:
                yield Finding(Code.UNUSED, f"with {name}: {value}, {reason}", node.span)


def _option_findings(
    node: Node, whens: dict[str, list[Node]], spec: GameSpec, tested: dict[str, list[str]],
    played: GameSpec, with_option: Callable[[str, str], GameSpec | RefereeError],
) -> Iterator[Finding]:
    name = node.words[0].text.lower()
    default = spec.options[name]
    values = list(dict.fromkeys(tested.get(name, [])))
    if default not in ("yes", "no") and values and {default, *values} <= {"0", "1"}:
        yield Finding(Code.OPTION, f"option {name} is a number used only as 0 and 1; a "
                      "switch reads better as yes or no", node.span,
                      tries=(_switch_hint(node, whens.get(name, [])),))
    others = ["no" if default == "yes" else "yes"] if default in ("yes", "no") else values
    changes = False
    for value in (v for v in others if v != default):
        other = with_option(name, value)
        if isinstance(other, RefereeError):
            yield Finding(Code.OPTION, _cannot_play(name, value, other), node.span)
            changes = True
        elif other is not played and other != played:
            changes = True
    if not changes:
        yield Finding(Code.UNUSED, f"no value of option {name} changes the game: "
                      + ("no 'when' statement tests it" if not values else
                         "its 'when' statements say what the rules already say"), node.span)


def _switch_hint(option: Node, whens: list[Node]) -> Hint:
    """Option ``option``, a number used as 0 and 1, declared yes or no instead, and its
    ``when`` statements in the file (``whens``) testing it so: ``when NAME:`` for 1."""
    name = option.words[0].text
    switch = {"0": "no", "1": "yes"}
    edits = [Edit(option.span.line, f"option {name}: {switch[_value(option.words[1].text)]}")]
    for node in whens:
        value = switch.get(_value(node.words[1].text) if len(node.words) > 1 else "", "")
        statement = node.span.text[node.span.column - 1:].split(":", 1)[1].strip()
        tested = "" if value == "yes" else f" is {value or node.words[1].text}"
        edits.append(Edit(node.span.line, f"when {name}{tested}: {statement}"))
    return tuple(edits)


def _cannot_play(name: str, value: str, error: RefereeError) -> str:
    where = f" ({Path(error.span.source).name}, line {error.span.line})" if error.span else ""
    return f"with {name}: {value} the rules cannot be played: {error.message}{where}"


# -- a deal that leaves no stock ----------------------------------------------------

def stockless_counts(spec: GameSpec) -> list[int]:
    """The player counts for which the deal leaves no stock."""
    return [n for n in sorted(spec.player_counts)
            if len(spec.cards) - sum(spec.hand_sizes(n, n - 1)) - spec.centre_size(n) <= 0]


def _drawers(slots: dict[str, Node], spec: GameSpec) -> list[tuple[Node, str]]:
    """The statements in force that take cards from the stock, and what they do."""
    found = []
    refused = slots.get("if_not_given")
    if spec.has_asks and spec.on_refused.draw and refused is not None:
        found.append((refused, "a failed ask draws from it"))
    if spec.when_stuck is WhenStuck.DRAW_AND_PASS and "cannot_ask" in slots:
        found.append((slots["cannot_ask"], "a player who cannot ask draws from it"))
    if spec.plays and spec.draw_after_play and "after_play" in slots:
        found.append((slots["after_play"], "a play is followed by a draw from it"))
    if spec.centre_refill and "centre_refill" in slots:
        found.append((slots["centre_refill"], "the centre is refilled from it"))
    if EndWhen.STOCK_EMPTY in spec.end_when and "end" in slots:
        found.append((slots["end"], "the game ends when it is empty, that is at once"))
    return found


def _no_stock(book: RuleBook, spec: GameSpec) -> Iterator[Finding]:
    counts = stockless_counts(spec)
    if not counts:
        return
    slots, _ = book.in_force()
    drawers = _drawers(slots, spec)
    if not drawers:
        return
    top = book.top.path
    deal = slots["deal"]
    which = ("for any number of players" if len(counts) == len(spec.player_counts)
             else f"with {counts_text(counts)} players")
    uses = "; ".join(f"{what} ({_place(node.span, top)})" for node, what in drawers)
    if deal.span.source == top:
        yield Finding(Code.NO_STOCK, f"the deal leaves no stock {which}, but {uses}", deal.span)
    for node, what in drawers:
        if node.span.source == top and deal.span.source != top:
            yield Finding(Code.NO_STOCK, f"{what}, but the deal leaves no stock {which} "
                          f"({_place(deal.span, top)})", node.span)


def _place(span: Span, top: str) -> str:
    """``line 4`` in the file linted, ``go-fish.rules, line 4`` in a base."""
    return f"line {span.line}" if span.source == top else \
        f"{Path(span.source).name}, line {span.line}"


# -- self-play ------------------------------------------------------------------------

def move_limit(spec: GameSpec) -> int:
    """The moves a lint game may take before it counts as one that cannot finish."""
    return max(MIN_MOVE_LIMIT, MOVES_PER_CARD * len(spec.cards))


def _self_play(book: RuleBook, spec: GameSpec, games: int, seed: int) -> Iterator[Finding]:
    engine = Engine(spec)
    counts = sorted(spec.player_counts)
    limit = move_limit(spec)
    at_limit = stopped = stalled = 0
    for number, game_seed in enumerate(seeds(seed, games)):
        played = play_one(engine, counts[number % len(counts)], game_seed, max_moves=limit)
        if played.stopped:
            stopped += 1
        elif not played.result.over:
            at_limit += 1
        elif played.stalled:
            stalled += 1
    failed = at_limit + stopped + stalled
    if not failed:
        return
    parts = [f"{at_limit} ended at the move limit of {limit:,} moves"]
    if stopped:
        parts.append(f"{stopped} stopped with no legal move")
    if stalled:
        parts.append(f"{stalled} stopped because nobody could move, before 'end:' held")
    slots, _ = book.in_force()
    end = slots.get("end")
    top = book.top
    span = end.span if end is not None and end.span.source == top.path else top.statements[0].span
    stuck = slots.get("cannot_ask")
    tries = tuple(_statement_hint(top, statement) for statement in STUCK
                  if stuck is None or stuck.parts[0].phrase not in statement)
    yield Finding(Code.UNFINISHED, f"random self-play could not finish {failed} of "
                  f"{counted(games, 'game')} ({counts_text(counts)} players): "
                  f"{'; '.join(parts)}", span, tries=tries if stalled or stopped else ())
