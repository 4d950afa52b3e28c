"""The public API's rules and checking: :func:`load_rules`, :func:`check`,
:func:`check_file`, and the plain data they give (docs/api.md walks through it)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from referee.arguments import options_argument, path_argument, text_argument
from referee.errors import Kind, RefereeError
from referee.language.loader import load_spec
from referee.language.rulefiles import find_rule_file, no_rule_file
from referee.language.spec import GameSpec
from referee.transcript.check import Verdict as CheckVerdict
from referee.transcript.check import check_file as check_path
from referee.transcript.check import check_text
from referee.values import frozen
from referee.views import Outcome


class Rules:
    """A compiled rule file: ``name``, ``title``, ``players`` (the counts it allows),
    ``options`` (every option's value, defaults included) and its :meth:`sheet`."""

    __slots__ = ("chosen", "path", "reference", "spec")

    def __init__(self, reference: str, path: Path, spec: GameSpec,
                 chosen: Mapping[str, str]) -> None:
        self.reference = reference  # the name or path as given: what a header writes
        self.path = path
        self.spec = spec
        self.chosen = dict(chosen)  # the options set when loaded

    @property
    def name(self) -> str:
        """The rule file's name (``go-fish``)."""
        return self.spec.name

    @property
    def title(self) -> str:
        """The game's title (``Go Fish``)."""
        return self.spec.title

    @property
    def players(self) -> tuple[int, ...]:
        """The numbers of players the rules allow, smallest first."""
        return tuple(sorted(self.spec.player_counts))

    @property
    def options(self) -> dict[str, str]:
        """Every option's value, the defaults included."""
        return dict(self.spec.options)

    @property
    def cards(self) -> tuple[str, ...]:
        """The deck, in the rule file's order."""
        return tuple(str(card) for card in self.spec.cards)

    @property
    def sets(self) -> dict[str, tuple[str, ...]]:
        """Every set to collect, by name: its cards, in deck order."""
        order = {card: index for index, card in enumerate(self.spec.cards)}
        return {s.name: tuple(str(c) for c in sorted(s.cards, key=order.__getitem__))
                for s in self.spec.sets}

    def sheet(self, format: str = "md") -> str:
        """The rule sheet in plain English: ``md`` (Markdown) or ``html``."""
        if format not in ("md", "html"):
            raise RefereeError(Kind.USAGE, f"a sheet's format is 'md' or 'html', not "
                               f"{format!r}")
        from referee.authoring.sheet import sheet_for

        return sheet_for(self.path, self.chosen).render(format)

    def __repr__(self) -> str:
        return f"<Rules {self.name}: {self.title}>"


def load_rules(name_or_path: str | Path, options: Mapping[str, str] | None = None) -> Rules:
    """The rules a bundled name (``go-fish``) or a ``.rules`` path names, with
    ``options`` set; a :class:`RefereeError` when there is none, or it does not
    compile."""
    reference = path_argument(name_or_path, "a rule file's name or path")
    chosen = options_argument(options)
    path = find_rule_file(reference)
    if path is None:
        raise RefereeError(Kind.USAGE, no_rule_file(reference))
    return Rules(reference, path, load_spec(path, chosen), chosen)


@frozen
class Problem:
    """Why a transcript is not legal: its ``kind`` (``syntax``, ``header``, ``unknown``,
    ``turn``, ``illegal``, ``contradiction``, ``over``, ``rules``, ``usage``), where
    (``line`` and ``column``, 0 when nowhere), the ``message`` and, for a
    contradiction, ``because``: (line, reason) of the earlier events that prove it."""

    kind: str
    line: int
    column: int
    message: str
    because: tuple[tuple[int, str], ...] = ()

    def __str__(self) -> str:
        return f"{self.line}:{self.column}: {self.kind}: {self.message}"


@frozen
class Verdict:
    """What ``referee check`` decides of a transcript: ``ok``, the ``events`` accepted,
    the ``error`` (a :class:`Problem`, None when legal), the ``outcome`` (None unless the
    game is over), and :meth:`to_json`, the ``--json`` object."""

    ok: bool
    events: int
    error: Problem | None
    outcome: Outcome | None
    checked: CheckVerdict

    def to_json(self) -> dict[str, Any]:
        """The object ``referee check --json`` prints (``referee/verdict.schema.json``)."""
        return self.checked.to_json()

    def report(self) -> str:
        """The report ``referee check`` prints."""
        return self.checked.report()


def check(text: str, *, source: str = "<text>", knowledge: bool = False) -> Verdict:
    """Check transcript text as ``referee check`` does (a rule file it names is looked
    for beside ``source`` when that is a path, then bundled); with ``knowledge``, the
    JSON says where every card may be."""
    text = text_argument(text, "a transcript's text")
    source = text_argument(source, "a transcript's source")
    near = None if source.startswith("<") else Path(source).parent
    return _public(check_text(text, source, near, knowledge=knowledge))


def check_file(path: str | Path, *, knowledge: bool = False) -> Verdict:
    """Check the transcript at ``path`` as ``referee check`` does."""
    return _public(check_path(Path(path_argument(path, "a transcript's path")),
                              knowledge=knowledge))


def _public(verdict: CheckVerdict) -> Verdict:
    error = verdict.error
    problem = None
    if error is not None:
        span = error.span
        problem = Problem(error.kind.value, span.line if span else 0,
                          span.column if span else 0, error.message, error.because)
    outcome = None
    state = verdict.state
    if state is not None and state["over"]:
        by_player = set(state["scores"]) == set(state["hands"])  # else by team
        outcome = Outcome(tuple(state["winners"]), dict(state["scores"]),
                          "player" if by_player else "team", state.get("hand"))
    return Verdict(verdict.ok, verdict.events, problem, outcome, verdict)
