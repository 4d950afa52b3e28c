"""What the program would write for a verdict, a rule file or a live table's answer,
and whether it is safe (bench/fuzz.py): no control, bidi or format character but the
newline (referee/sanitize.py's definition of printable), JSON that reads back as the
same value, messages of a readable length (referee/errors.py's bounds), and names and
titles shown as data, never taken as markup.

Each check returns the problems it found, as words for the fuzz's report."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from referee.authoring.sheet import sheet_for
from referee.cli.output import json_text
from referee.errors import MAX_MESSAGE, MAX_WORD, RefereeError
from referee.language.spec import GameSpec
from referee.language.spec_json import spec_text, spec_to_json
from referee.live.display import knowledge_table, table_text
from referee.sanitize import printable
from referee.transcript.check import Verdict

RICH_COLOUR = re.compile(r"\x1b\[[0-9;]*m")  # rich's own colours, on a terminal
LONGEST_WORD = MAX_WORD + 40  # a word errors.bounded cut: its two ends and its length
LONGEST_LINE = MAX_MESSAGE + 400  # a message, its place and kind, and the cut's note
SHOWN_NAME = 12  # names this short are never wrapped in a table: they must show whole
_SUSPECT = re.compile(r"[^\n\x20-\x7e]")
_LONG_WORD = re.compile(rf"\S{{{LONGEST_WORD + 1},}}")


def unsafe(what: str, text: str) -> list[str]:
    """``text``, as written, holds a character that is neither printable nor a newline."""
    if text.isprintable():
        return []
    for found in _SUSPECT.finditer(text):
        character = found.group()
        if not character.isprintable():
            return [f"unsafe: {what} writes U+{ord(character):04X} at {found.start()}"]
    return []


def echoed(what: str, text: str) -> list[str]:
    """What ``referee.cli.output.echo`` writes of ``text`` (every command's plain output)."""
    return unsafe(what, printable(text))


def unreadable(what: str, text: str) -> list[str]:
    """A message longer than the bounds of referee/errors.py, or quoting a word whole
    beyond them."""
    for line in text.split("\n"):
        if len(line) > LONGEST_LINE:
            return [f"unsafe: {what} has a line of {len(line)} characters"]
        word = _LONG_WORD.search(line)
        if word is not None:
            return [f"unsafe: {what} quotes a word of {len(word.group())} characters whole"]
    return []


def json_problems(what: str, value: Any, indent: int | None = None) -> list[str]:
    """``json_text`` of ``value``: printable as it is (so that ``echo`` changes none of
    it), and the same value read back."""
    text = json_text(value, indent=indent)
    problems = unsafe(what, text)
    if json.loads(text) != json.loads(json.dumps(value)):
        problems.append(f"unsafe: {what} does not read back as the same value")
    return problems


def error_problems(error: RefereeError, what: str = "the error") -> list[str]:
    """An error's report and message, as written: printable and of a readable length."""
    report = error.report()
    problems = echoed(f"{what}'s report", report) + unreadable(f"{what}'s message",
                                                                error.message)
    problems += unreadable(f"{what}'s report", report)
    for _, reason in error.because:
        problems += unreadable(f"{what}'s reasons", reason)
    return problems


def verdict_problems(verdict: Verdict) -> list[str]:
    """Everything ``referee check`` writes of a verdict (its report, its summary among
    several files, ``--json``, the ``--knowledge`` table)."""
    problems = echoed("the report", verdict.report()) + echoed("the summary", verdict.summary())
    problems += json_problems("the JSON verdict", verdict.to_json())
    if verdict.error is not None:
        problems += error_problems(verdict.error)
    for _, note in verdict.notes:
        problems += unreadable("a note", note)
    if verdict.knowledge is not None:
        drawn = table_text(knowledge_table(verdict.knowledge, verdict.state))
        problems += unsafe("the knowledge table", RICH_COLOUR.sub("", drawn))
        hands = verdict.state["hands"] if verdict.state else {}
        problems += names_shown("the knowledge table", drawn, hands)
    return problems


def names_shown(what: str, drawn: str, names: Any) -> list[str]:
    """Each short name is in the drawn table as it is, made printable: data, not markup
    (``[b]Bob`` stays ``[b]Bob``)."""
    for name in names:
        shown = printable(name)
        if len(shown) <= SHOWN_NAME and shown.strip() and shown not in drawn:
            return [f"unsafe: {what} does not show the name {shown!r} as it is"]
    return []


def spec_problems(spec: GameSpec, path: Path) -> list[str]:
    """What ``referee show`` (and ``--json``) and ``referee sheet`` (Markdown and HTML)
    write of a rule file that compiles."""
    problems = echoed("show", spec_text(spec))
    problems += json_problems("show --json", spec_to_json(spec), indent=2)
    sheet = sheet_for(path, {})
    markdown = sheet.render("md")
    page = sheet.render("html")
    problems += echoed("the Markdown sheet", markdown) + echoed("the HTML sheet", page)
    if re.search(r"(?<!\\)<(?!!DOCTYPE)", markdown):
        problems.append("unsafe: the Markdown sheet passes '<' through unescaped")
    body = page.split("<body>", 1)[-1]
    if re.search(r"<(?!/?(?:h1|h2|p|ul|li|section|body|html)\b)", body):
        problems.append("unsafe: the HTML sheet passes a tag of the rule file through")
    return problems
