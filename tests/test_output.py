"""What reaches the terminal: text from files (names, teams, a rule file's ``name:`` and
``about:``, set and option names, comments, file names) is data, never rich markup,
never a terminal control sequence, and never quoted without bound. Every command is run
for real: check, check --json and --knowledge, format, sheet, show, simulate, lint, and
play through its line-by-line handler, standard input and a pseudo-terminal."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import pty
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.cli.commands import main
from referee.errors import Kind, RefereeError
from referee.language.loader import load_spec
from referee.live.start import Seating, start
from referee.live.table import LiveTable
from referee.transcript.check import check_text

# Every way a terminal can be told to do something: clear the screen, set the window
# title (OSC 0), write the clipboard (OSC 52), the 8-bit CSI, a bell, a right-to-left
# override and isolate, invisible characters.
PAYLOAD = ("\x1b[2J\x1b]0;owned\x07\x1b]52;c;cHduZWQ=\x07\x9b31m\x07\u202erevo\u2066"
           "\u200b\u200e\u061c\x00\x7f\x85")
TOKEN_PAYLOAD = "\x1b[2J\x1b]0\x07\x9b31m\u202e\u2066\u200b\u200f\x7f"  # no space, ';', ':'
MARKUP = "[/x] [b]bold[/b] [red on blue]x [link=https://example.com]y :smile:"
BOUND = 1000  # the most characters a message quoting an enormous token may have
HUGE = "Q" * 1_000_000
RULES = Path(__file__).parent.parent / "rules"


def unsafe(text: str) -> set[str]:
    """The characters of ``text`` that must never reach a terminal: everything that is
    not printable (controls C0 and C1, bidi and other format characters, separators),
    but the newline."""
    return {c for c in text if not c.isprintable() and c != "\n"}


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    """A command, run in this process; its status, standard output and error."""
    result = CliRunner().invoke(main, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        result.exception, result.stderr)
    assert result.exit_code in (0, 1, 2), result.stderr
    return result.exit_code, result.stdout, result.stderr


def hostile_rules(folder: Path, name: str = "evil") -> Path:
    """A legal rule file whose title, about line and option name hold every payload."""
    path = folder / f"{name}.rules"
    path.write_text(f"extends: go-fish\nname: Fish {MARKUP} {PAYLOAD} game\n"
                    f"about: <script>alert(1)</script> &copy; {PAYLOAD} {MARKUP} end\n"
                    f"option x{TOKEN_PAYLOAD}y: no\n", encoding="utf-8")
    return path


def hostile_game(folder: Path) -> Path:
    """A legal transcript of such a game, in a rule file whose name holds payloads; its
    names are markup, its comments payloads."""
    hostile_rules(folder)
    hostile_rules(folder, f"fish{TOKEN_PAYLOAD}")
    path = folder / "game.txt"
    path.write_text(f"game: ./fish{TOKEN_PAYLOAD}.rules\nplayers: [b]Ann [/x] Cy\ndeal: seed 7\n"
                    f"# {PAYLOAD}\n\n"
                    f"[b]Ann asks [/x] for 4  # {PAYLOAD} {MARKUP}\n", encoding="utf-8")
    return path


def live_table(tmp_path: Path, players: tuple[str, ...], game: str = "go-fish") -> LiveTable:
    return start(Seating(game, players, deal="seed", seed=3), tmp_path / "live.txt",
                 tmp_path)


# -- rich markup: names and rule text are data ----------------------------------------


def test_markup_in_names_is_shown_as_typed_by_check_knowledge(tmp_path: Path) -> None:
    game = tmp_path / "game.txt"
    game.write_text("game: go-fish\nplayers: [b]Bob [/x] Cy\ndeal: seed 7\n")
    status, out, _ = run("check", "--knowledge", str(game))
    assert status == 0
    assert "[b]Bob" in out and "[/x]" in out


def test_the_knowledge_table_keeps_its_colours_on_a_terminal(tmp_path: Path) -> None:
    game = tmp_path / "game.txt"
    game.write_text("game: go-fish\nplayers: [b]Bob [/x] Cy\ndeal: seed 7\n")
    main_end, terminal = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "referee", "check", "--knowledge",
                                str(game)], stdout=terminal, stderr=terminal,
                               env=dict(os.environ, TERM="xterm", COLUMNS="100"))
    os.close(terminal)
    shown = b""
    with contextlib.suppress(OSError):  # the program has ended
        while chunk := os.read(main_end, 65536):
            shown += chunk
    os.close(main_end)
    assert process.wait(30) == 0, shown
    assert b"\x1b[1m" in shown  # rich's own escapes: bold
    assert b"[b]Bob" in shown and b"[/x]" in shown and b"Traceback" not in shown


@pytest.mark.parametrize("command", ["status", "known", "legal", "history", "last"])
def test_markup_in_names_and_title_is_shown_as_typed_at_a_live_table(
        tmp_path: Path, command: str) -> None:
    (tmp_path / "fish.rules").write_text("extends: go-fish\nname: Fish [/bold] game [b]\n")
    table = live_table(tmp_path, ("[b]Bob", "[/x]", "Cy"), "fish")
    reply = table.handle(command)
    assert not reply.refused
    shown = f"{reply.line}\n{reply.output}"
    if command in ("status", "known", "legal"):
        assert "[b]Bob" in shown and "[/x]" in shown
    if command == "status":
        assert "Fish [/bold] game [b]" in shown


def test_markup_in_team_names_is_shown_as_typed_when_a_game_is_resumed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "fish.rules").write_text("extends: literature\nname: Fish [/bold] game\n")
    (tmp_path / "game.txt").write_text(
        "game: fish\nplayers: [b]Ann Bob [/x] Dee\nteam [/x]: [b]Ann [/x]\n"
        "team [red]: Bob Dee\ndeal: seed 3\n")
    status, out, err = run("play", "--resume", "game.txt", stdin="status\nknown\nquit\n")
    assert status == 0, err
    assert "[/x]" in out and "[red]" in out and "[b]Ann" in out
    assert "Fish [/bold] game" in out


# -- control sequences: one sanitising path for all output ------------------------------


COMMANDS = {
    "sheet": ["sheet", "{rules}"],
    "sheet html": ["sheet", "--format", "html", "{rules}"],
    "show": ["show", "{rules}"],
    "show json": ["show", "--json", "{rules}"],
    "simulate": ["simulate", "{rules}", "-p", "2", "-g", "2"],
    "simulate json": ["simulate", "{rules}", "-p", "2", "-g", "2", "--json"],
    "lint": ["lint", "--games", "0", "{rules}"],
    "check": ["check", "{game}"],
    "check json": ["check", "--json", "{game}"],
    "check knowledge": ["check", "--knowledge", "{game}"],
    "check two": ["check", "{game}", "{game}"],
    "format": ["format", "{game}"],
}


@pytest.mark.parametrize("command", COMMANDS)
def test_no_control_character_of_a_file_reaches_the_output(
        tmp_path: Path, command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    game = hostile_game(tmp_path)
    args = [a.format(rules="evil.rules", game=game.name) for a in COMMANDS[command]]
    status, out, err = run(*args)
    assert status == (1 if command == "lint" else 0), err  # lint: the option is unused
    assert unsafe(out + err) == set()
    if command in ("sheet html", "show", "simulate"):
        assert "Fish [/x] [b]bold[/b]" in out  # markup shown as written
    if command == "sheet":
        assert "<script>" not in out and "\\<script\\>" in out and "\\&copy;" in out
    if command == "sheet html":
        assert "<script>" not in out and "&amp;copy;" in out


@pytest.mark.parametrize("command", ["show json", "simulate json", "check json"])
def test_json_escapes_control_characters_and_keeps_their_value(
        tmp_path: Path, command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    game = hostile_game(tmp_path)
    args = [a.format(rules="evil.rules", game=game.name) for a in COMMANDS[command]]
    _, out, _ = run(*args)
    assert unsafe(out) == set() and "\\u009b" in out and "\\u202e" in out
    title = load_spec(tmp_path / "evil.rules").title
    data = json.loads(out)
    if command == "check json":
        assert data["ok"] and list(data["state"]["hands"]) == ["[b]Ann", "[/x]", "Cy"]
        assert data["game"] == f"fish{TOKEN_PAYLOAD}"
    else:
        assert data["title"] == title and "\x9b" in title and "\u202e" in title


def test_show_writes_control_characters_escaped_as_its_json_values(tmp_path: Path) -> None:
    _, out, _ = run("show", str(hostile_rules(tmp_path)))
    line = next(line for line in out.split("\n") if line.startswith("title: "))
    assert json.loads(line.removeprefix("title: ")) == load_spec(tmp_path / "evil.rules").title


def test_the_markdown_sheet_escapes_what_would_read_as_html(tmp_path: Path) -> None:
    _, out, _ = run("sheet", str(hostile_rules(tmp_path)))
    about = out.split("\n")[2]
    assert about.startswith("\\<script\\>alert(1)\\</script\\> \\&copy;")
    assert "\\[link=https://example.com\\]" in about
    _, page, _ = run("sheet", "--format", "html", str(tmp_path / "evil.rules"))
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>" not in page


def test_a_file_name_with_control_characters_is_shown_printable(tmp_path: Path) -> None:
    game = tmp_path / f"game{TOKEN_PAYLOAD}.txt"
    game.write_text("game: go-fish\nplayers: Ann Bob\ndeal: seed 3\n\nAnn asks Bob for Z\n")
    for args in (["check", str(game)], ["check", str(game), str(game)], ["format", str(game)],
                 ["check", "--json", str(game), str(game)]):
        status, out, err = run(*args)
        assert status == 1 and unsafe(out + err) == set(), args
    rules = tmp_path / f"fish{TOKEN_PAYLOAD}.rules"
    rules.write_text("extends: go-fish\n")
    for args in (["lint", "--games", "0", str(rules)], ["show", str(rules)],
                 ["sheet", str(rules)]):
        status, out, err = run(*args)
        assert status == 0 and unsafe(out + err) == set(), args


def test_a_live_table_writes_nothing_a_terminal_would_obey(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    hostile_rules(tmp_path)
    typed = (f"status\nknown\nlegal\nhistory\n# {PAYLOAD}\n[b]Ann asks Bob for 4{TOKEN_PAYLOAD}\n"
             f"Bob asks [b]Ann for 4  # {PAYLOAD}\n{PAYLOAD}\nsave x{TOKEN_PAYLOAD}.txt\nquit\n")
    game = f"game{TOKEN_PAYLOAD}.txt"
    status, out, err = run("play", "evil", "-p", "[b]Ann Bob", "--deal", "seed", "3",
                           "--out", game, stdin=typed)
    assert status == 1, err  # two lines refused
    assert unsafe(out + err) == set()
    assert err.startswith("Fish [/x] [b]bold[/b]")  # the title, shown as written
    status, out, err = run("play", "--resume", game, stdin="status\nquit\n")
    assert status == 0 and unsafe(out + err) == set()


def test_completions_are_displayed_printable(tmp_path: Path) -> None:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from referee.live.completion import TableCompleter

    (tmp_path / "two.rules").write_text(
        "extends: go-fish\nplayers: 2\ndeck: ranks A 2, suits S H\n"
        f"set a{TOKEN_PAYLOAD}: AS AH\nset b: 2S 2H\ndeal: 1 each\n")
    table = live_table(tmp_path, ("Ann", "Bob"), "two")
    completer = TableCompleter(table)
    for text in ("Ann lays down ", "Ann claims ", "Ann asks Bob for ", ""):
        for completion in completer.get_completions(Document(text), CompleteEvent()):
            assert unsafe(completion.display_text) == set()


# -- the property: any hostile text, any command ---------------------------------------

CONTROLS = [chr(c) for c in range(0x20) if c != 0x0A] + ["\x7f"] + [chr(c) for c in
                                                                    range(0x80, 0xA0)]
BIDI = [*"\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"]
INVISIBLE = [*"\u200b\u200c\u200d\u2060\ufeff\u00ad\u2028\u2029\u00a0\u3000"]
PIECES = ["\x1b[2J", "\x1b]0;t\x07", "\x1b]52;c;cHduZWQ=\x07", "\x9b31m", "\x1bP1\x1b\\",
          "[b]", "[/x]", "[/]", "[red]", "[link=x]", ":smile:", "<script>", "&amp;", "$x$",
          "*", "_", "\\", "`"]
hostile = st.lists(st.one_of(st.sampled_from(CONTROLS + BIDI + INVISIBLE),
                             st.sampled_from(PIECES), st.text("abXY", max_size=2)),
                   min_size=1, max_size=8).map("".join)


def as_text(text: str) -> str:
    """What fits in a rule file's ``name:`` line or a comment."""
    return text.replace("\n", "").replace("#", "").replace("\r", "")


def as_word(text: str) -> str:
    """What fits in one word of a transcript or a rule file (a name, an option)."""
    return "".join(c for c in as_text(text) if not c.isspace() and c not in ":,?>;=/\0")


def check_safe(args: list[str], stdin: str | None = None) -> str:
    """Run a command: it raises nothing, and writes nothing unsafe; its output."""
    _, out, err = run(*args, stdin=stdin)
    assert unsafe(out + err) == set(), (args, unsafe(out + err))
    if "--json" in args and out:
        if args[0] == "check":  # a line a file
            for line in out.strip().split("\n"):
                json.loads(line)
        else:
            json.loads(out)
    return out


@settings(max_examples=50, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(title=hostile, about=hostile, option=hostile)
def test_any_rule_text_reaches_no_terminal(title: str, about: str, option: str,
                                           tmp_path: Path) -> None:
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    rules = folder / f"r{as_word(title)}.rules"
    rules.write_text(f"extends: go-fish\nname: N{as_text(title)}Z\nabout: A{as_text(about)}Z\n"
                     f"option o{as_word(option)}: no\n", encoding="utf-8")
    spec = load_spec(rules)
    for args in (["sheet"], ["sheet", "--format", "html"], ["show"], ["lint", "--games", "0"],
                 ["simulate", "-p", "2", "-g", "1"]):
        check_safe([*args, str(rules)])
    for args in (["show", "--json"], ["simulate", "-p", "2", "-g", "1", "--json"]):
        data = json.loads(check_safe([*args, str(rules)]))
        assert data["title"] == spec.title
    assert json.loads(check_safe(["show", "--json", str(rules)]))["about"] == spec.about


@settings(max_examples=50, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=hostile, comment=hostile, card=hostile)
def test_any_transcript_text_reaches_no_terminal(name: str, comment: str, card: str,
                                                 tmp_path: Path) -> None:
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    player = f"B{as_word(name)}b"
    game = folder / f"g{as_word(comment)}.txt"
    game.write_text(f"game: go-fish\nplayers: Ann {player}\ndeal: seed 3\n# {as_text(comment)}\n"
                    f"Ann asks {player} for 4  # {as_text(comment)}\n"
                    f"{player} asks Ann for {as_word(card)}\n", encoding="utf-8")
    for args in (["check"], ["check", "--knowledge"], ["format"]):
        check_safe([*args, str(game)])
    verdict = json.loads(check_safe(["check", "--json", str(game)]))
    if verdict["state"] is not None:  # the name was taken: it comes back as it was typed
        assert list(verdict["state"]["hands"]) == ["Ann", player]
    check_safe(["check", "--json", str(game), str(game)])
    typed = (f"status\nknown\nlegal\nhistory\n# {as_text(comment)}\n"
             f"Ann asks {player} for {as_word(card)}\n{as_text(name)}\nquit\n")
    check_safe(["play", "go-fish", "-p", f"Ann {player}", "--deal", "seed", "3", "--out",
                str(folder / "live.txt")], stdin=typed)


WHITESPACE = [c for c in map(chr, range(0x3001)) if c.isspace() and c != "\n"]


@settings(max_examples=50, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(comment=hostile, gaps=st.lists(st.sampled_from(WHITESPACE), min_size=8, max_size=8))
def test_format_is_shown_printable_and_checks_the_same(comment: str, gaps: list[str],
                                                       tmp_path: Path) -> None:
    """Whitespace between words is shown as a space, so words stay apart; the rest of a
    comment as U+FFFD: the canonical form still checks to the same verdict."""
    game = Path(tempfile.mkdtemp(dir=tmp_path)) / "game.txt"
    one, two, three, four, five, six, seven, eight = gaps
    game.write_text(f"game: go-fish\nplayers: Ann Bob\ndeal: seed 3\n# {as_text(comment)}\n"
                    f"Ann{one}asks{two}Bob{three}for 4  # {as_text(comment)}\n"
                    f"{four}# {as_text(comment)}\n"
                    f"Bob{five}asks{six}Ann{seven}for{eight}7  # {as_text(comment)}\n",
                    encoding="utf-8")
    out = check_safe(["format", str(game)])
    original = json.loads(check_safe(["check", "--json", str(game)]))
    again = check_text(out, str(game), RULES).to_json()
    assert (again["ok"], again["events"], again["state"]) == (
        original["ok"], original["events"], original["state"])
    error, first = again["error"], original["error"]  # the referee's lines come first
    assert (error["kind"], error["column"], error["message"]) == (
        first["kind"], first["column"], first["message"])


# -- long quotes: an enormous token is quoted cut short --------------------------------

HEADER = "game: go-fish\nplayers: Ann Bob Cy\ndeal: seed 7\n\n"
TRANSCRIPTS = {
    "game": "game: {T}\nplayers: Ann Bob\n",
    "rule path": "game: ./{T}.rules\nplayers: Ann Bob\n",
    "player in turn": "game: go-fish\nplayers: Ann Bob {T}\ndeal: seed 7\n\n{T} asks Ann for 7\n",
    "dealer": "game: go-fish\nplayers: Ann Bob\ndealer: {T}\n",
    "deal": "game: go-fish\nplayers: Ann Bob\ndeal: {T}\n",
    "seed": "game: go-fish\nplayers: Ann Bob\ndeal: seed {T}\n",
    "target": "game: go-fish\nplayers: Ann Bob\ntarget: {T}\n",
    "option name": "game: go-fish\noption {T}: yes\nplayers: Ann Bob\n",
    "option value": "game: literature\noption high-double: {T}\nplayers: A B C D\n",
    "team member": "game: literature\nplayers: A B C D\nteam 1: A {T}\nteam 2: B D\n",
    "hand name": "game: go-fish\nplayers: Ann Bob\ndeal: given\nhand {T}: 7S\n",
    "hand card": "game: go-fish\nplayers: Ann Bob\ndeal: given\nhand Ann: {T}\n",
    "stock": "game: go-fish\nplayers: Ann Bob\ndeal: given\nstock: {T}\n",
    "centre": "game: diplomat-centre\nplayers: Ann Bob Cy\ndeal: hidden\ncentre: {T}\n",
    "header key": "game: go-fish\nplayers: Ann Bob\n{T} x\n",
    "header twice": "game: go-fish\nplayers: Ann Bob\n{T}: x\n{T}: y\n",
    "line": HEADER + "{T}\n",
    "asked": HEADER + "Ann asks {T} for 7\n",
    "asker": HEADER + "{T} asks Bob for 7\n",
    "item": HEADER + "Ann asks Bob for {T}\n",
    "draw": HEADER + "Ann asks Bob for 2\nBob says no\nAnn draws {T}\n",
    "set": HEADER + "Ann books {T}\n",
    "set words": HEADER + "Ann lays down {T} {T}\n",
    "hand number": HEADER + "hand {T}\n",
    "verb": HEADER + "Ann {T} Bob\n",
    "question": "game: diplomat\nplayers: Ann Bob Cy\ndeal: seed 3\n\nAnn asks Bob: any {T}?\n",
    "claimed set": "game: literature\nplayers: A B C D\ndeal: seed 3\n\nA claims {T}: A 2S\n",
    "holder": "game: literature\nplayers: A B C D\ndeal: seed 3\n\nA claims low spades: {T} 2S\n",
    "claimed card": "game: literature\nplayers: A B C D\ndeal: seed 3\n\nA claims low spades: "
                    "A {T}\n",
    "play": "game: chinese-fish\nplayers: Ann Bob\ndeal: seed 3\n\nAnn plays {T}\n",
    "takes": "game: chinese-fish\nplayers: Ann Bob\ndeal: seed 3\n\nAnn plays 7S takes {T}\n",
    "passes": "game: literature\nplayers: A B C D\ndeal: seed 3\n\nA passes to {T}\n",
    "shows": "game: literature\nplayers: A B C D\ndeal: hidden\n\nA shows {T}\n",
    "turn up": "game: chinese-fish\nplayers: Ann Bob\ndeal: hidden\n\nturn up {T}\n",
}


def messages(verdict: dict[str, object]) -> list[str]:
    """Every message of a verdict's JSON: the error's, its reasons, the notes."""
    error = verdict.get("error") or {}
    assert isinstance(error, dict)
    notes = verdict.get("notes") or []
    assert isinstance(notes, list)
    return ([error["message"]] if error else []) + [
        b["reason"] for b in error.get("because", [])] + [n["message"] for n in notes]


@pytest.mark.parametrize("where", TRANSCRIPTS)
def test_a_transcript_error_quotes_an_enormous_token_cut_short(where: str) -> None:
    verdict = check_text(TRANSCRIPTS[where].replace("{T}", HUGE), "game.txt", RULES)
    assert verdict.error is not None
    assert all(len(message) < BOUND for message in messages(verdict.to_json())), where
    assert len(verdict.error.report()) < BOUND + 200


RULE_FILES = {
    "extends": "extends: {T}\n",
    "extends path": "extends: ./{T}.rules\n",
    "statement": "extends: go-fish\n{T}: x\n",
    "word": "extends: go-fish\n{T}\n",
    "players": "extends: go-fish\nplayers: 2 to {T}\n",
    "rank": "extends: go-fish\ndeck: ranks {T} 2, suits S H\n",
    "suit": "extends: go-fish\ndeck: ranks A 2, suits {T}\n",
    "without": "extends: go-fish\ndeck: standard 52 cards without {T}\n",
    "jokers": "extends: go-fish\ndeck: standard 52 cards with jokers {T}\n",
    "set card": "extends: go-fish\nset x: {T}\n",
    "set twice": "extends: go-fish\ndeck: ranks A 2, suits S H\nset {T}: AS AH\n"
                 "set {T}: 2S 2H\n",
    "range": "extends: literature\nsets: in each suit, low {T} to 7, high 9 to A\n",
    "range twice": "extends: literature\nsets: in each suit, {T} 2 to 7, {T} 8 to A\n",
    "option default": "extends: go-fish\noption x: {T}\n",
    "when": "extends: go-fish\nwhen {T}: ties: all tied players win\n",
    "when is": "extends: go-fish\noption x: 3\nwhen x is {T}: ties: all tied players win\n",
    "phrase": "extends: go-fish\nties: {T}\n",
    "score": "extends: go-fish\nscore: {T} points per set\n",
    "score kind": "extends: go-fish\nscore: 1 point per {T} set\n",
    "deal": "extends: go-fish\ndeal: {T} each\n",
    "match": "extends: go-fish\nmatch: first to {T} points\n",
    "values": "extends: chinese-fish\ncard values: {T} 1\n",
    "teams": "extends: literature\nteams: {T}, seated alternately\n",
    "name twice": "extends: go-fish\nwhen x{T}: name: a\nwhen x{T}: name: b\n",
}
RULE_TOKEN = "Q" * 100_000  # a rule file holds at most 256 KiB


@pytest.mark.parametrize("where", RULE_FILES)
def test_a_rule_file_error_quotes_an_enormous_word_cut_short(tmp_path: Path,
                                                             where: str) -> None:
    rules = tmp_path / "big.rules"
    rules.write_text(RULE_FILES[where].replace("{T}", RULE_TOKEN))
    with pytest.raises(RefereeError) as caught:
        load_spec(rules)
    assert len(caught.value.message) < BOUND, caught.value.message[:200]
    status, out, err = run("sheet", str(rules))
    assert status == 2 and len(out + err) < BOUND + 200


@pytest.mark.parametrize("args", [
    ["show", "go-fish", "-o", "{T}=yes"], ["show", "go-fish", "-o", "x={T}"],
    ["show", "go-fish", "-o", "{T}"], ["sheet", "{T}"], ["sheet", "./{T}.rules"],
    ["simulate", "go-fish", "-p", "2", "--plot", "{T}.pdf"], ["check", "{T}"],
    ["play", "go-fish", "-p", "Ann Bob", "--dealer", "{T}"],
    ["play", "go-fish", "-p", "Ann Bob", "-o", "{T}=1"],
    ["play", "go-fish", "-p", "Ann Bob", "-o", "x={T}"],
    ["play", "go-fish", "-p", "Ann Bob", "--deal", "seed", "{T}"],
    ["play", "go-fish", "-p", "Ann Bob", "--me", "Ann", "--hand", "{T}"],
    ["play", "go-fish", "-p", "Ann Bob", "--centre", "{T}"],
    ["play", "go-fish", "-p", "Ann Bob", "--deal", "given", "{T}"],
    ["play", "{T}", "-p", "Ann Bob"],
], ids=lambda args: " ".join(args).replace("{T}", "T"))
def test_a_command_line_error_quotes_an_enormous_word_cut_short(
        tmp_path: Path, args: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    token = "Q" * 100_000  # the most a command line holds is about 128 KiB a word
    status, out, err = run(*[a.replace("{T}", token) for a in args], stdin="quit\n")
    assert status == 2 and len(out + err) < BOUND + 200, (out + err)[:300]


@pytest.mark.parametrize("line", [
    "save {T}", "save ./{T}.txt", "hand {T}", "{T}", "Ann asks Bob for {T}",
    "Ann asks {T} for 7", "{T} asks Bob for 7", "Ann books {T}", "Ann asks Bob for 7; {T}",
])
def test_a_live_table_quotes_an_enormous_token_cut_short(tmp_path: Path, line: str) -> None:
    table = live_table(tmp_path, ("Ann", "Bob"))
    reply = table.handle(line.replace("{T}", HUGE))
    assert len(reply.line) < BOUND and len(reply.details) < BOUND + 200


def test_a_twenty_megabyte_token_is_quoted_cut_short_in_json(tmp_path: Path) -> None:
    game = tmp_path / "game.txt"
    game.write_text(HEADER + f"Ann asks Bob for {'Q' * 20_000_000}\n")
    status, out, _ = run("check", "--json", str(game))
    assert status == 1 and len(out) < BOUND + 400
    assert json.loads(out)["error"]["message"].endswith("(20000000 characters) is not a card "
                                                        "or a rank")


def test_every_message_is_bounded_whatever_builds_it() -> None:
    error = RefereeError(Kind.CONTRADICTION, f"it is {HUGE}'s turn, not {HUGE}'s",
                         because=((1, f"{HUGE} held a 7"),))
    assert len(error.message) < BOUND and len(error.because[0][1]) < BOUND
    assert error.message.startswith("it is QQQ") and "(1000002 characters)" in error.message
    many = RefereeError(Kind.RULES, "these cards are in no set: " + "7S " * 1_000_000)
    assert many.message.startswith("these cards are in no set: 7S 7S")
    assert len(many.message) < 20_000 and many.message.endswith("(3000027 characters)")


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None,
                    reason="matplotlib (the 'plot' extra) is not installed")
def test_a_plot_title_is_not_read_as_tex(tmp_path: Path) -> None:
    rules = tmp_path / "tex.rules"
    rules.write_text("extends: go-fish\nname: Fish $\\frac{$ game\n")
    status, _, err = run("simulate", str(rules), "-p", "2", "-g", "3", "--plot",
                         str(tmp_path / "plot.svg"))
    assert status == 0, err
    assert "Fish $\\frac{$ game" in (tmp_path / "plot.svg").read_text()


@pytest.mark.parametrize(("players", "bad"), [
    ("Jose\u0301\t  Bob :", ":"),  # a combining mark takes no column; a tab shows as a space
    ("\U0001f600x Bob \u0410nn Ann", "Ann"),  # an emoji takes two
    ("\u738b \u674e Cy Cy", "Cy"),  # so do Chinese characters
    ("\uff21nn Bob Ann", "Ann"),  # and fullwidth letters
])
def test_the_caret_stands_under_what_it_marks_whatever_the_characters_widths(
        players: str, bad: str) -> None:
    from unicodedata import east_asian_width

    status, out, _ = run("check", "-", stdin=f"game: go-fish\nplayers: {players}\ndeal: hidden\n")
    assert status == 1
    shown, carets = out.splitlines()[1:3]
    column = 0  # the terminal column of each character of the line shown
    columns = []
    for char in shown:
        columns.append(column)
        column += 0 if char == "\u0301" else 2 if east_asian_width(char) in "WF" else 1
    at = shown.rindex(bad)
    assert carets == " " * columns[at] + "^" * len(bad), (shown, carets)
