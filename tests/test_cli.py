"""The command line: exit statuses, the JSON verdict against its schema, no tracebacks."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from referee.cli.commands import main
from referee.language.resources import schema_path
from referee.sanitize import printable
from referee.transcript.check import check_text

TESTS = Path(__file__).parent
ROOT = TESTS.parent
LEGAL = TESTS / "transcripts" / "go-fish" / "whole-game.txt"
SCHEMA = json.loads(schema_path().read_text(encoding="utf-8"))


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, result.stderr


def test_schema_is_a_valid_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("path", sorted((TESTS / "transcripts").rglob("*.txt")),
                         ids=lambda p: str(p.relative_to(TESTS)))
def test_every_json_verdict_matches_the_schema(path: Path) -> None:
    status, out, _ = run("check", "--json", str(path))
    verdict = json.loads(out)
    jsonschema.validate(verdict, SCHEMA)
    assert status == (0 if verdict["ok"] else 1)


def test_legal_game_exits_0_with_a_report() -> None:
    status, out, _ = run("check", str(LEGAL))
    assert status == 0
    assert "legal, 143 events" in out
    assert "Bob won" in out


def test_illegal_game_exits_1_pointing_at_the_line(tmp_path: Path) -> None:
    text = LEGAL.read_text().replace("Bob: Ann, 8?; no", "Bob: Ann, 7?; no")
    bad = tmp_path / "bad.txt"
    bad.write_text(text)
    status, out, err = run("check", str(bad))
    assert status == 1
    line = text.splitlines().index("Bob: Ann, 7?; no") + 1
    assert out.startswith(f"{bad}:{line}:1: illegal: Bob holds no 7")
    assert "^^^" in out
    assert err == ""


def test_missing_file_is_bad_usage(tmp_path: Path) -> None:
    status, out, _ = run("check", "--json", str(tmp_path / "nope.txt"))
    assert status == 2
    assert json.loads(out)["error"]["kind"] == "usage"


def test_broken_rule_file_named_by_a_transcript_exits_2(tmp_path: Path) -> None:
    (tmp_path / "mine.rules").write_text("extends: authors\nplayers: 3 too 6\n")
    game = tmp_path / "game.txt"
    game.write_text("game: mine\nplayers: Ann Bob Cy\ndeal: seed 1\n")
    status, out, _ = run("check", str(game))
    assert status == 2
    assert out.startswith(f"{tmp_path / 'mine.rules'}:2:12: rules: unexpected 'too'")


def test_non_utf8_transcript_is_a_syntax_error(tmp_path: Path) -> None:
    game = tmp_path / "game.txt"
    game.write_bytes(b"game: authors\nplayers: Ann \xff Cy\n")
    status, out, _ = run("check", "--json", str(game))
    assert status == 1
    assert json.loads(out)["error"] == {
        "line": 2, "column": 14, "kind": "syntax", "message": "this line is not UTF-8 text"}


@pytest.mark.parametrize(("encoding", "mark", "named"), [
    ("utf-16", "", "UTF-16"), ("utf-16-le", "\ufeff", "UTF-16"),
    ("utf-16-be", "\ufeff", "UTF-16"), ("utf-32", "", "UTF-32"),
    ("utf-32-be", "\ufeff", "UTF-32"), ("utf-16-le", "", "UTF-16"),
    ("utf-16-be", "", "UTF-16"), ("utf-32-le", "", "UTF-32")])
def test_a_utf16_or_utf32_file_is_told_as_such(tmp_path: Path, encoding: str, mark: str,
                                               named: str) -> None:
    """Notepad's "Unicode" and PowerShell's ``>`` write UTF-16 with a byte-order mark;
    other programs may leave it out. The error names the encoding and shows the first
    line readably (no control sequence the file holds reaches the terminal)."""
    game = tmp_path / "game.txt"
    game.write_bytes(f"{mark}game: go\x1b[31mfish\nplayers: Ann Bob\n".encode(encoding))
    status, out, _ = run("check", "--json", str(game))
    assert status == 1
    error = json.loads(out)["error"]
    assert (error["line"], error["column"], error["kind"]) == (1, 1, "syntax")
    assert error["message"].startswith(f"this file is {named} text (")
    assert error["message"].endswith("); save it as UTF-8")
    assert ("byte-order mark" in error["message"]) == (mark != "" or encoding in (
        "utf-16", "utf-32"))
    status, out, _ = run("check", str(game))
    assert status == 1
    assert "\x1b" not in out and "game: go" in out.split("\n")[1]
    (tmp_path / "mine.rules").write_bytes(f"{mark}extends: go-fish\n".encode(encoding))
    status, out, err = run("lint", str(tmp_path / "mine.rules"))
    assert status == 2 and f"this file is {named} text" in out + err


def test_a_utf8_file_with_zero_bytes_is_not_read_as_utf16(tmp_path: Path) -> None:
    game = tmp_path / "game.txt"
    game.write_bytes(b"game: go-fish\nplayers: Ann B\x00b\n")
    status, out, _ = run("check", "--json", str(game))
    assert status == 1 and "UTF-16" not in json.loads(out)["error"]["message"]


def test_a_file_with_classic_mac_line_ends_reads_line_by_line(tmp_path: Path) -> None:
    """``\\r`` alone ends a line in a file without one ``\\n`` (classic Mac OS), as in an
    editor; it was read as one line: a header error naming the whole file."""
    game = tmp_path / "game.txt"
    game.write_bytes(LEGAL.read_bytes().replace(b"\n", b"\r"))
    status, out, _ = run("check", "--json", str(game))
    assert status == 0 and json.loads(out)["events"] == 143
    broken = LEGAL.read_text(encoding="utf-8").replace("Bob draws 10S", "Bob drawz 10S")
    game.write_bytes(broken.replace("\n", "\r").encode())
    status, out, _ = run("check", "--json", str(game))
    error = json.loads(out)["error"]
    assert status == 1 and (error["line"], error["column"]) == (14, 5), error
    rules = tmp_path / "mine.rules"
    rules.write_bytes((ROOT / "rules" / "go-fish.rules").read_bytes().replace(b"\n", b"\r"))
    status, out, err = run("lint", str(rules))
    assert status == 0, out + err


def test_simulate_prints_figures_and_writes_checkable_games(tmp_path: Path) -> None:
    status, out, _ = run("simulate", "authors", "--players", "4", "--games", "5",
                         "--seed", "3", "--out", str(tmp_path))
    assert status == 0
    assert "5 games, 4 players" in out
    files = sorted(tmp_path.glob("*.txt"))
    assert len(files) == 5
    for file in files:
        assert run("check", str(file))[0] == 0


def test_simulate_refuses_a_player_count_the_rules_forbid() -> None:
    status, _, err = run("simulate", "authors", "--players", "2")
    assert status == 2
    assert "Authors is for 3 to 6 players, not 2" in err


def test_simulate_unknown_rules_is_bad_usage() -> None:
    status, _, err = run("simulate", "old-maid", "--players", "3")
    assert status == 2
    assert "no rule file named 'old-maid'" in err


def test_rules_lists_every_bundled_file() -> None:
    status, out, _ = run("rules")
    assert status == 0
    assert [line.split()[0] for line in out.splitlines()] == sorted(
        p.stem for p in (TESTS.parent / "rules").glob("*.rules"))


@pytest.mark.parametrize("data", [b"", b"\x00\x01\x02", b"game: authors\nplayers: A\n",
                                  b"game: go-fish\nplayers: Ann Bob\ndeal: seed x\n",
                                  b";;;\n", b"hand 2\n", b"Ann claims: ,,\n"])
def test_odd_input_never_shows_a_traceback(tmp_path: Path, data: bytes) -> None:
    game = tmp_path / "odd.txt"
    game.write_bytes(data)
    done = subprocess.run([sys.executable, "-m", "referee", "check", str(game)],
                          capture_output=True, text=True, check=False)
    assert done.returncode in (1, 2)
    assert "Traceback" not in done.stderr
    assert f"{game}:" in done.stdout


@pytest.mark.parametrize("path", sorted((TESTS / "transcripts").rglob("*.txt")),
                         ids=lambda p: str(p.relative_to(TESTS)))
def test_the_canonical_form_checks_to_the_same_state(path: Path) -> None:
    status, out, _ = run("format", str(path))
    original = json.loads(run("check", "--json", str(path))[1])
    if not out:
        assert status != 0 and original["state"] is None
        return
    # the canonical form names the rule file as the original does, so it is read
    # from the original's folder; it keeps the lines from the first error on as typed,
    # so it checks to the same verdict (filled-in moves may add events before the error)
    again = check_text(out, "canonical.txt", path.parent).to_json()
    assert again["ok"] == original["ok"], again
    assert again["state"] == original["state"]
    if not original["ok"]:
        lineless = [re.sub(r"line \d+", "line", verdict["error"]["message"])
                    for verdict in (again, original)]
        assert again["error"]["kind"] == original["error"]["kind"]
        assert again["error"]["column"] == original["error"]["column"]
        if printable(path.read_text()) == path.read_text():  # else it is shown printable
            assert lineless[0] == lineless[1]
    assert status == (0 if original["ok"] else 1)
    comments = [line for line in path.read_text().splitlines() if "#" in line]
    assert all(line.partition("#")[2] in out for line in comments)  # nothing typed is lost


def test_simulated_games_of_a_rule_file_outside_rules_check_from_anywhere(
        tmp_path: Path) -> None:
    partners = TESTS / "rules_support" / "partners.rules"
    status, out, _ = run("simulate", str(partners), "-p", "4", "-g", "2", "--max-moves", "40",
                         "--out", str(tmp_path))
    assert status == 0 and "unfinished after 40 moves: 2" in out
    for file in tmp_path.glob("*.txt"):
        assert run("check", str(file))[0] == 0


def test_format_keeps_comments_and_the_lines_from_the_first_error_as_typed(
        tmp_path: Path) -> None:
    text = LEGAL.read_text().replace("Bob: Ann, 8?; no", "Bob: Ann, 7?; no   # a slip")
    bad = tmp_path / "bad.txt"
    bad.write_text(text + "\n# the rest of the evening\nAnn   asks   Bob for Q\n")
    status, out, _ = run("format", str(bad))
    assert status == 1
    error_line = text.splitlines().index("Bob: Ann, 7?; no   # a slip")
    tail = out.splitlines()[-3:]
    assert tail == ["", "# the rest of the evening", "Ann   asks   Bob for Q"] or tail[-2:] == [
        "# the rest of the evening", "Ann   asks   Bob for Q"]
    assert "Bob: Ann, 7?; no   # a slip" in out.splitlines()
    assert out.splitlines().count("Bob: Ann, 7?; no   # a slip") == 1 and error_line > 0
