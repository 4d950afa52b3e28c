"""Text from files made safe to write, to a terminal, a pipe or a JSON reader.

A name, a rule file's ``name:`` or ``about:`` line, a set, a comment or a file name
may hold anything: an escape sequence that clears the screen, sets the window title
or the clipboard (ESC, OSC 0 and 52, the 8-bit CSI U+009B), a bidi override that
turns the rest of the line around, an invisible character. The data keep the raw
text; what is written goes through one of two functions, at the few places every
command writes (referee/cli/output.py, the live table's writer in referee/live/prompt.py):
:func:`printable` for text, :func:`json_escaped` for JSON. A table rich draws in
colour is made of cells made printable first (referee/live/display.py), so that its own
escapes are kept.
"""

from __future__ import annotations

import re

# Printable ASCII and newlines need no look; every other character is looked at.
_SUSPECT = re.compile(r"[^\n\x20-\x7e]")
REPLACEMENT = "\ufffd"


def printable(text: str) -> str:
    r"""``text`` safe to show, one character for one: a character that is not printable
    (a control, C0 or C1; a format character: bidi controls, zero-width ones; a line
    separator; a surrogate or unassigned code point) becomes ``\ufffd``, and one that is
    whitespace (a tab, a no-break space, NEL) a space, as the notation and the rules
    language read it between words; so a hostile line cannot rewrite the screen, words
    stay apart and a caret stays under its column. Newlines stay.

    >>> printable("Ann\x1b[2J\tasks\u202e\n\x9b31m") == "Ann\ufffd[2J asks\ufffd\n\ufffd31m"
    True
    """
    if text.isprintable():
        return text
    return _SUSPECT.sub(_shown, text)


def _shown(match: re.Match[str]) -> str:
    character = match.group()
    if character.isprintable():
        return character
    return " " if character.isspace() else REPLACEMENT


def json_escaped(text: str) -> str:
    r"""JSON text with every character that is not printable written as a ``\u``
    escape (``json.dumps`` escapes only the C0 controls): the same JSON value, safe to
    show. Such a character can only stand inside a string, where the escape means it.

    >>> json_escaped('{"name": "Ann\u202e\x9b", "x": "\U000e0041"}')
    '{"name": "Ann\\u202e\\u009b", "x": "\\udb40\\udc41"}'
    """
    if text.isprintable():
        return text
    return _SUSPECT.sub(_escaped, text)


def _escaped(match: re.Match[str]) -> str:
    character = match.group()
    if character.isprintable():
        return character
    code = ord(character)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000  # beyond the BMP: a UTF-16 surrogate pair, as JSON writes it
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
