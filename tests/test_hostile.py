"""Hostile input that fixture files cannot hold: devices, FIFOs, folders, oversized
files, full disks, Ctrl-C, and files that must never be read or quoted.

Each ends in a clean error with a place, or a clean exit status, never a traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

import jsonschema
import pytest
from click.testing import CliRunner

import referee.authoring.simulate
import referee.cli.check_command
from referee.authoring.simulate import PlayedGame
from referee.cli.commands import INTERRUPTED, main
from referee.errors import Kind, RefereeError
from referee.language.loader import load_spec
from referee.language.resources import schema_path
from referee.reading import MAX_RULE_FILE_BYTES, MAX_TRANSCRIPT_BYTES
from referee.transcript.check import check_file, check_text

TESTS = Path(__file__).parent
LEGAL = TESTS / "transcripts" / "go-fish" / "whole-game.txt"
ILLEGAL = TESTS / "transcripts" / "bad-input" / "garbled-line.txt"
BAD_INPUT = TESTS / "transcripts" / "bad-input"
SCHEMA = json.loads(schema_path().read_text(encoding="utf-8"))
ONE_EVENT = "game: go-fish\nplayers: Ann Bob\ndeal: seed 3\n\nAnn asks Bob for 4\n"


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, result.stderr


def referee_process(*args: str, stdout: int | IO[str] = subprocess.PIPE
                    ) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "referee", *args], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, check=False, timeout=30)
    assert "Traceback" not in done.stderr, done.stderr
    return done


# -- files that are not regular files, or too big -----------------------------------

@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_device_is_refused_not_read() -> None:
    verdict = check_file(Path("/dev/zero"))
    assert verdict.error is not None and verdict.error.kind is Kind.USAGE
    assert "it is a device, not a regular file" in verdict.error.message


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "game.txt"
    os.mkfifo(fifo)
    done = referee_process("check", str(fifo))
    assert done.returncode == 2
    assert "it is a pipe (FIFO), not a regular file" in done.stdout


def test_a_folder_is_refused(tmp_path: Path) -> None:
    verdict = check_file(tmp_path)
    assert verdict.error is not None and "it is a folder" in verdict.error.message


def test_a_transcript_over_the_cap_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    huge = tmp_path / "huge.txt"
    with huge.open("wb") as file:
        file.truncate(MAX_TRANSCRIPT_BYTES + 1)  # sparse: costs no disk
    verdict = check_file(huge)
    assert verdict.error is not None and verdict.error.exit_status == 2
    assert "is over 64 MiB, the most a transcript may hold" in verdict.error.message
    assert verdict.error.span is not None and verdict.error.span.line == 1


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
def test_the_environment_is_never_quoted(tmp_path: Path) -> None:
    for fixture in ("game-proc-environ.txt",):
        status, out, err = run("check", "--json", str(BAD_INPUT / fixture))
        assert status == 1
        assert "PATH=" not in out + err and "HOME=" not in out + err
    rules = tmp_path / "mine.rules"
    rules.write_text("extends: /proc/self/environ\n")
    with pytest.raises(RefereeError) as caught:
        load_spec(rules)
    assert "PATH=" not in caught.value.report()


def test_a_rule_file_linked_to_another_kind_of_file_is_not_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("hunter2 is the password\n")
    (tmp_path / "base.rules").symlink_to(secret)
    (tmp_path / "real.rules").write_text("name: Real\n")
    (tmp_path / "fine.rules").symlink_to(tmp_path / "real.rules")
    mine = tmp_path / "mine.rules"
    mine.write_text("extends: base.rules\n")
    with pytest.raises(RefereeError) as caught:
        load_spec(mine)
    report = caught.value.report()
    assert "hunter2" not in report and "does not end in .rules" in report
    assert report.startswith(f"{mine}:1:10: rules: ")
    status, out, err = run("check", "--json", str(write_game(tmp_path, "base.rules")))
    assert status == 2 and "hunter2" not in out + err and "does not end in .rules" in out
    mine.write_text("extends: fine.rules\n")  # a link to a rule file is read
    with pytest.raises(RefereeError) as caught:
        load_spec(mine)
    assert "does not end in .rules" not in caught.value.report()


def write_game(folder: Path, rules: str) -> Path:
    game = folder / "game.txt"
    game.write_text(f"game: {rules}\nplayers: Ann Bob\ndeal: hidden\n\nAnn asks Bob for 7\n")
    return game


def test_a_base_over_the_cap_is_blamed_on_the_extends_line(tmp_path: Path) -> None:
    (tmp_path / "big.rules").write_text("name: Big\n" + "#" * MAX_RULE_FILE_BYTES + "\n")
    mine = tmp_path / "mine.rules"
    mine.write_text("name: Mine\nextends: big.rules\n")
    with pytest.raises(RefereeError) as caught:
        load_spec(mine)
    error = caught.value
    assert error.kind is Kind.RULES and "over 256 KiB" in error.message
    assert error.report().startswith(f"{mine}:2:10: rules: ")
    assert "^^^^^^^^^" in error.report()


def test_a_rule_file_over_the_cap_that_nobody_names_is_placed_past_the_cap(
        tmp_path: Path) -> None:
    big = tmp_path / "big.rules"
    big.write_text("name: Big\n" + "#" * MAX_RULE_FILE_BYTES + "\n")
    with pytest.raises(RefereeError) as caught:
        load_spec(big)
    assert caught.value.span is not None
    assert (caught.value.span.line, caught.value.span.column) == (2, MAX_RULE_FILE_BYTES - 9)
    assert caught.value.report().startswith(f"{big}:2:{MAX_RULE_FILE_BYTES - 9}: rules: ")


def test_a_base_that_is_a_folder_is_blamed_on_the_extends_line(tmp_path: Path) -> None:
    (tmp_path / "folder.rules").mkdir()
    mine = tmp_path / "mine.rules"
    mine.write_text("extends: folder.rules\n")
    with pytest.raises(RefereeError) as caught:
        load_spec(mine)
    assert caught.value.report().startswith(f"{mine}:1:10: rules: cannot read ")
    assert "it is a folder" in caught.value.message


def test_a_rule_file_too_big_for_a_transcript_is_blamed_on_the_game_line(
        tmp_path: Path) -> None:
    (tmp_path / "big.rules").write_text("#" * (MAX_RULE_FILE_BYTES + 1))
    verdict = check_text("players: Ann Bob\ngame: big\n", "game.txt", tmp_path)
    assert verdict.error is not None and verdict.error.kind is Kind.RULES
    assert verdict.error.report().startswith("game.txt:2:7: rules: ")


# -- output that cannot be written, Ctrl-C ------------------------------------------

@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["check", "--json", str(LEGAL)], ["check", str(LEGAL)],
                                  ["format", str(LEGAL)], ["rules"]])
def test_a_full_disk_is_one_line_and_status_2(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        done = referee_process(*args, stdout=full)
    assert done.returncode == 2
    assert done.stderr == "referee: cannot write the output: No space left on device\n"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_knowledge_table_to_a_full_disk(tmp_path: Path) -> None:
    game = tmp_path / "game.txt"  # not legal: the verdict, then the table, to the full disk
    game.write_text("game: go-fish\nplayers: Ann Bob\ndeal: hidden\nBob asks Ann for 7\n")
    with open("/dev/full", "w") as full:
        done = referee_process("check", "--knowledge", str(game), stdout=full)
    assert done.returncode == 2
    assert done.stderr.endswith("referee: cannot write the output: No space left on device\n")


def test_output_in_an_encoding_without_the_names_letters(tmp_path: Path) -> None:
    game = tmp_path / "game.txt"
    game.write_text("game: go-fish\nplayers: Ann Bob Zoë\ndeal: hidden\nAnn asks Zoë for 7\n")
    done = subprocess.run([sys.executable, "-m", "referee", "check", "--knowledge", str(game)],
                          capture_output=True, text=True, check=False, timeout=30,
                          env={**os.environ, "PYTHONIOENCODING": "ascii"})
    assert "Traceback" not in done.stderr and done.returncode == 0, done.stderr
    assert "| Zo? " in done.stdout  # rich's ASCII table, the letter replaced


def test_simulate_into_a_folder_that_cannot_be_made(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    status, _, err = run("simulate", "authors", "-p", "3", "-g", "1",
                         "--out", str(blocker / "games"))
    assert status == 2 and err.startswith("usage: cannot make the folder ")


def test_simulate_into_a_file_that_cannot_be_written(tmp_path: Path) -> None:
    (tmp_path / "authors-0002.txt").mkdir()
    status, _, err = run("simulate", "authors", "-p", "3", "-g", "3", "--out", str(tmp_path))
    assert status == 2 and "authors-0002.txt exists already" in err  # before any game
    status, _, err = run("simulate", "authors", "-p", "3", "-g", "3", "--out", str(tmp_path),
                         "--force")
    assert status == 2 and "cannot write" in err and "authors-0002.txt" in err
    assert (tmp_path / "authors-0001.txt").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["authors-0001.txt", "authors-0002.txt"]


def test_ctrl_c_in_simulate_keeps_the_games_played(monkeypatch: pytest.MonkeyPatch) -> None:
    real = referee.authoring.simulate.play_one
    calls = []

    def interrupted_on_the_fourth(*args: Any, **kwargs: Any) -> PlayedGame:
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(referee.authoring.simulate, "play_one", interrupted_on_the_fourth)
    status, out, err = run("simulate", "authors", "-p", "3", "-g", "100")
    assert status == INTERRUPTED
    assert "3 games, 3 players" in out and "seat 1 (player): wins" in out
    assert "interrupted" in err


def test_ctrl_c_in_check_exits_130(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(path: Path, **options: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(referee.cli.check_command, "check_file", interrupted)
    status, _, err = run("check", str(LEGAL), str(LEGAL))
    assert status == INTERRUPTED and "interrupted after 0 of 2 files" in err


# -- many files, standard input, the JSON verdict ------------------------------------

def test_many_files_give_a_line_each_a_summary_and_the_worst_status() -> None:
    status, out, _ = run("check", str(LEGAL), str(ILLEGAL), str(LEGAL))
    lines = out.splitlines()
    assert lines[0] == f"{LEGAL}: legal, 143 events"
    assert lines[1].startswith(f"{ILLEGAL}:9:5: syntax: cannot read")
    assert lines[3] == "3 files: 2 legal, 1 not"
    assert status == 1
    status, out, _ = run("check", str(LEGAL), str(LEGAL / "missing.txt"), str(ILLEGAL))
    assert status == 2 and "usage: cannot read" in out


def test_many_files_in_json_give_an_object_a_line() -> None:
    status, out, _ = run("check", "--json", str(LEGAL), str(ILLEGAL))
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["file"] for r in records] == [str(LEGAL), str(ILLEGAL)]
    assert [r["ok"] for r in records] == [True, False]
    for record in records:
        jsonschema.validate(record, SCHEMA)
    assert status == 1
    one = json.loads(run("check", "--json", str(LEGAL))[1])
    assert "file" not in one  # one file: the verdict exactly as before


def test_standard_input_is_a_transcript() -> None:
    status, out, _ = run("check", "-", stdin=LEGAL.read_text())
    assert status == 0 and out.startswith("<stdin>: legal, 143 events")
    status, out, _ = run("format", "-", stdin=ONE_EVENT)
    assert status == 0 and "Bob gives 4D" in out


def test_one_event_is_one_event(tmp_path: Path) -> None:
    game = tmp_path / "one.txt"
    game.write_text(ONE_EVENT)
    assert run("check", str(game))[1].startswith(f"{game}: legal, 1 event\n")


def test_a_broken_rule_file_is_named_in_json(tmp_path: Path) -> None:
    (tmp_path / "mine.rules").write_text("extends: authors\nplayers: 3 too 6\n")
    game = tmp_path / "game.txt"
    game.write_text("game: mine\nplayers: Ann Bob Cy\ndeal: seed 1\n")
    status, out, _ = run("check", "--json", str(game))
    error = json.loads(out)["error"]
    assert status == 2
    assert error == {"line": 2, "column": 12, "kind": "rules", "file": str(tmp_path / "mine.rules"),
                     "message": error["message"]}
    jsonschema.validate(json.loads(out), SCHEMA)


def test_control_characters_are_not_sent_to_the_terminal(tmp_path: Path) -> None:
    game = tmp_path / "game.txt"
    game.write_text("game: go-fish\nplayers: Ann Bob\ndeal: seed 3\n\x1b[2J\u202eAnn x\n")
    _, out, _ = run("check", str(game))
    assert "\x1b" not in out and "\u202e" not in out and "\ufffd[2J\ufffdAnn x" in out


# -- rule files named as given, never as an absolute path ------------------------------

def test_format_writes_the_rule_file_as_the_header_names_it() -> None:
    fixture = TESTS / "transcripts" / "sum-six" / "whole-game.txt"
    status, out, _ = run("format", str(fixture))
    lines = out.splitlines()
    assert status == 0 and "game: ../../rules_support/sum-six.rules" in lines
    assert lines[0].startswith("#")  # the fixture's comments are kept


def test_simulate_writes_the_rule_file_as_given(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(TESTS)
    status, _, _ = run("simulate", "rules_support/tiny.rules", "-p", "2", "-g", "1",
                       "--out", str(tmp_path))
    assert status == 0
    written = next(tmp_path.glob("*.txt")).read_text()
    assert written.startswith("game: rules_support/tiny.rules\n")
    assert run("check", str(next(tmp_path.glob("*.txt"))))[0] == 0


# -- speed -----------------------------------------------------------------------------

def test_many_deal_lines_after_a_new_hand_are_read_in_linear_time() -> None:
    head = "game: go-fish\nplayers: Ann Bob\ntarget: 5\ndeal: seed 1\nhand 2\n"
    started = time.perf_counter()
    verdict = check_text(head + "stock: 2S\n" * 40_000)
    assert time.perf_counter() - started < 3  # 10 s when each line rebuilt the event
    assert verdict.error is not None and "not over yet" in verdict.error.message
