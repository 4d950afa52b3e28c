"""``referee check``: a transcript's events through a Session, to a verdict."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

from referee.errors import Kind, RefereeError, Span, printable
from referee.knowledge.budgets import DEFAULT_BUDGETS, Budgets
from referee.live.announce import standing
from referee.reading import MAX_TRANSCRIPT_BYTES, STDIN, decode, lines_of, read_capped
from referee.reading import first_line as first_line_of
from referee.transcript.notation import DONE_MARK, TranscriptReader, done_marks
from referee.transcript.record import Record
from referee.transcript.session import Session
from referee.transcript.setup import Game, set_up
from referee.values import frozen


@frozen
class Verdict:
    """What ``referee check`` found: legal or the first error, and the state reached."""

    source: str
    ok: bool
    game: str | None
    events: int
    error: RefereeError | None
    state: dict[str, Any] | None
    record: Record | None = None  # the accepted moves, filled in
    notes: tuple[tuple[int, str], ...] = ()  # (line, what the referee found), e.g. on claims
    knowledge: dict[str, list[str]] | None = None  # each card's possible places
    events_from: int = 1  # the transcript's first line after its header
    stopped_at: int | None = None  # the line of the event (or text) checking stopped at
    standing: str | None = None  # the state in words: what the game waits for, or its end

    @property
    def canonical(self) -> list[str]:
        """The accepted events, filled in, in canonical notation."""
        return self.record.lines() if self.record else []

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` object of NOTATION.md."""
        result: dict[str, Any] = {"ok": self.ok, "game": self.game, "events": self.events}
        if self.error is not None:
            span = self.error.span
            result["error"] = {
                "line": span.line if span else 0, "column": span.column if span else 0,
                "kind": self.error.kind.value, "message": self.error.message,
            }
            if self.error.because:
                result["error"]["because"] = [{"line": line, "reason": reason}
                                              for line, reason in self.error.because]
            if span is not None and span.source and span.source != self.source:
                result["error"]["file"] = span.source  # the rule file the error is in
        result["state"] = self.state
        if self.notes:
            result["notes"] = [{"line": line, "message": text} for line, text in self.notes]
        if self.knowledge is not None:
            result["knowledge"] = self.knowledge
        return result

    def summary(self) -> str:
        """The verdict in one line: ``game.txt: legal, 12 events``, or the error's place
        and message (after the transcript's name if the error is in its rule file)."""
        error = self.error
        if error is None:
            events = f"{self.events} {'event' if self.events == 1 else 'events'}"
            return printable(f"{self.source}: legal, {events}")
        first = error.report().split("\n", 1)[0]
        if error.span is None or error.span.source != self.source:
            return f"{printable(self.source)}: {first}"
        return first

    def report(self) -> str:
        """A short human report: the notes, the verdict (an error with its line marked),
        and the state of the game in words."""
        lines = [f"{self.source}:{line}: {text}" for line, text in self.notes]
        lines.append(self.summary() if self.error is None else self.error.report())
        if self.standing is not None:
            lines.append(self.standing)
        return "\n".join(printable(line) for line in "\n".join(lines).split("\n"))


def check_file(path: Path, *, knowledge: bool = False, record: bool = False) -> Verdict:
    """Check the transcript at ``path`` (``-``: standard input); with ``knowledge``, say
    where every card may be; with ``record``, keep the moves for ``format``."""
    source = "<stdin>" if str(path) == STDIN else str(path)
    try:
        text = read_transcript_file(path, source)
    except RefereeError as error:
        return Verdict(source, False, None, 0, error, None)
    return check_text(text, source, Path() if str(path) == STDIN else path.parent,
                      knowledge=knowledge, record=record)


def read_transcript_file(path: Path, source: str) -> str:
    """A transcript file's text, read within its cap."""
    data = read_capped(path, MAX_TRANSCRIPT_BYTES, Kind.USAGE, "a transcript")
    return decode(data, source, Kind.SYNTAX)


def check_text(text: str, source: str = "<transcript>", near: Path | None = None, *,
               knowledge: bool = False, record: bool = False,
               budgets: Budgets = DEFAULT_BUDGETS) -> Verdict:
    """Check transcript text; rule files named in it are looked for ``near`` first;
    ``budgets``: how long the hidden-card search may work on one question."""
    with gc_paused():
        return _check(text, source, near, knowledge, record, budgets)


def filled_at_marks(driver: Session, dones: list[int], before: int | None, source: str
                    ) -> None:
    """Fill in what the cards force at each ``# done`` mark before line ``before`` (all
    of them: None), taking them from ``dones``, as the live table did when ``done`` was
    typed there (and ``--resume`` does again)."""
    while dones and (before is None or dones[0] < before):
        line = dones.pop(0)
        error = driver.settle()
        if error is not None:
            raise error.located(Span(line, 1, DONE_MARK, source))


def format_text(text: str, source: str = "<transcript>", near: Path | None = None
                ) -> tuple[list[str], Verdict]:
    """The transcript in canonical notation, with its comments kept and every line from
    the first error on as typed; and the verdict."""
    verdict = check_text(text, source, near, record=True)
    if verdict.record is None:
        return lines_of(text.removeprefix("\ufeff")), verdict
    return verdict.record.merged(text, verdict.events_from, verdict.stopped_at), verdict


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector: checking makes no reference cycles, and its
    full passes over a long game's many objects only cost time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


# container objects made (net) that a paused collector lets pile up: above what the
# bounded memos hold when full (a few hundred thousand: 200,000 was reached by the lines
# of 300 terse games, and its one pass, which found 141 objects of garbage, took an
# eighth of the run)
PILED_UP = 1_000_000


def collect_if_piled_up() -> None:
    """While the collector is paused for a whole run of checks (``referee check
    FILE...``): collect once more than :data:`PILED_UP` container objects were made,
    net, since the last collection. Checking makes no reference cycles, and the memos
    are bounded, so this is rare; it keeps memory bounded should a check ever leave a
    cycle."""
    if gc.get_count()[0] > PILED_UP:
        gc.collect()


def _check(text: str, source: str, near: Path | None, knowledge: bool,
           record: bool, budgets: Budgets) -> Verdict:
    game: Game | None = None
    driver: Session | None = None
    reader = TranscriptReader(text, source)
    try:
        if reader.error is not None:
            raise reader.error
        first_line = first_line_of(text)
        game = set_up(reader.headers, Span(1, 1, first_line, source, len(first_line)), near)
        driver = Session(game, record=record, budgets=budgets)
        dones = done_marks(text)
        at_marks = partial(filled_at_marks, driver, dones, source=source) if dones else None
        driver.play_all(reader.events(), at_marks)  # filling in at each '# done' mark
        if reader.error is not None:
            raise reader.error
        filled_at_marks(driver, dones, None, source)
        driver.finish()
    except RefereeError as exc:
        name = game.spec.name if game else None
        summary = driver.describe() if driver else None
        notes = tuple(driver.notes) if driver else ()
        known = driver.where_cards() if driver and knowledge else None
        playing = driver.playing if driver else None  # the line of the event being played
        stopped = playing or (exc.span.line if exc.span and exc.span.source == source else 1)
        events = driver.events_played if driver else 0
        return Verdict(source, False, name, events, exc, summary,
                       driver.record if driver else None, notes, known, reader.events_from,
                       stopped, standing(driver, summary) if driver else None)
    known = driver.where_cards() if knowledge else None
    described = driver.describe()
    return Verdict(source, True, game.spec.name, driver.events_played, None, described,
                   driver.record, tuple(driver.notes), known, reader.events_from,
                   standing=standing(driver, described))
