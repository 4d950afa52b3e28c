"""Wording a new user meets: a count agrees with its noun (``1 game``, not ``1 games``) in
every command's output; a wrong number of players is worded one way everywhere; an
unknown rule name gets the closest bundled names."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from referee.authoring import runs
from referee.cli import check_command
from referee.cli.commands import main
from referee.transcript.check import check_file

HERE = Path(__file__).parent
ONE_PLURAL = re.compile(r"(?<![\d.,])1 (games|matches|events|files|sets|cards|points|moves|"
                        r"hands|warnings|players|books|lines)\b")


def run(*args: str, typed: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=typed)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(("args", "words"), [
    (["simulate", "go-fish", "-p", "3", "-g", "1"], "Go Fish: 1 game, 3 players"),
    (["simulate", "go-fish", "-p", "3", "-g", "1", "--target", "1"], "1 match to 1 point,"),
    (["simulate", "go-fish", "-p", "3", "-g", "2", "--max-moves", "1"],
     "unfinished after 1 move: 2"),
    (["lint", "go-fish", "-g", "1"], "clean (1 self-play game finished)"),
    (["lint", str(HERE / "lint" / "stalls.rules"), "-g", "1"], "could not finish 1 of 1 game "),
])
def test_a_count_of_one_takes_the_singular(args: list[str], words: str) -> None:
    _, out, err = run(*args)
    assert words in out + err
    assert not ONE_PLURAL.search(out + err), out + err


def test_an_interrupted_run_of_one_game_says_game(monkeypatch: pytest.MonkeyPatch) -> None:
    real = runs.play_game
    played = 0

    def stop_after_one(*args: Any) -> Any:
        nonlocal played
        played += 1
        if played > 1:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(runs, "play_game", stop_after_one)
    status, _, err = run("simulate", "go-fish", "-p", "3", "-g", "5")
    assert status == 130 and "the figures count the 1 game played of 5" in err


def test_an_interrupted_check_of_one_file_says_file(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(check_command, "check_file", interrupted)
    status = check_command.check_transcripts((Path("game.txt"),))
    assert status == 130 and capsys.readouterr().err == "interrupted after 0 of 1 file\n"


def test_no_error_of_a_fixture_says_one_with_a_plural() -> None:
    for path in sorted((HERE / "transcripts").rglob("*.txt")):
        report = check_file(path).report()
        assert not ONE_PLURAL.search(report), f"{path}: {report}"


def test_the_live_legal_list_counts_one_card_to_turn_up(tmp_path: Path) -> None:
    given = tmp_path / "deal.txt"
    given.write_text("hand Ann: 7S 10S KS 2H 9C\nhand Bob: 8D 5C QH 3C JD\n"
                     "hand Cy: 4H 6S AD 10D 9H\nstock: 5H JS 2D QD 8S AC 6H KD 9S 3S 10H 4D 7D "
                     "QS JH AH 5D 8H KH 6D 9D 2C 7C 8C 10C JC QC KC AS 4S 5S 3H\n"
                     "centre: 7H 3D 4C 6C 2S\n", encoding="utf-8")
    status, out, _ = run("play", "chinese-fish", "-p", "Ann Bob Cy", "--dealer", "Cy",
                         "--deal", "given", str(given), "--out", str(tmp_path / "g.txt"),
                         typed="Ann plays 7S takes 7H\nAnn draws 5H\nlegal\nquit\n")
    assert status == 0, out
    assert "turn up 1 card from the stock" in out and "1 card to turn up" in out
    assert not ONE_PLURAL.search(out), out


WRONG_COUNTS = [
    (["simulate", "go-fish", "-p", "7"], "Go Fish is for 2 to 6 players, not 7"),
    (["simulate", "literature", "-p", "5"], "Literature is for 4, 6, 8, 10 or 12 players, not 5"),
    (["play", "go-fish", "-p", "A B C D E F G"], "Go Fish is for 2 to 6 players, not 7"),
    (["play", "literature", "-p", "A B C"], "Literature is for 4, 6, 8, 10 or 12 players, not 3"),
]


@pytest.mark.parametrize(("args", "words"), WRONG_COUNTS)
def test_a_wrong_number_of_players_is_worded_one_way(
        tmp_path: Path, args: list[str], words: str) -> None:
    status, _, err = run(*args, "--out" if args[0] == "play" else "-g",
                         str(tmp_path / "g.txt") if args[0] == "play" else "1", typed="quit\n")
    assert status == 2 and words in err, err


def test_a_transcript_with_a_wrong_number_of_players_says_the_same(tmp_path: Path) -> None:
    path = tmp_path / "g.txt"
    path.write_text("game: literature\nplayers: A B C\n\nA asks B for 9H\n", encoding="utf-8")
    error = check_file(path).error
    assert error is not None and error.kind.value == "header"
    assert error.message == "Literature is for 4, 6, 8, 10 or 12 players, not 3"
    assert (error.span.line if error.span else 0) == 2


MEANT = "there is no rule file named 'gofish'; did you mean 'go-fish'"


@pytest.mark.parametrize("args", [
    ["simulate", "gofish", "-p", "3"], ["lint", "gofish"], ["sheet", "gofish"],
    ["show", "gofish"], ["play", "gofish", "-p", "Ann Bob"],
])
def test_an_unknown_rule_name_gets_the_closest_names(tmp_path: Path, args: list[str]) -> None:
    extra = ["--out", str(tmp_path / "g.txt")] if args[0] == "play" else []
    status, _, err = run(*args, *extra, typed="quit\n")
    assert status == 2 and MEANT in err, err
    assert err.count("\n") == 1


def test_a_transcript_naming_an_unknown_rule_file_gets_them_at_its_place(tmp_path: Path) -> None:
    path = tmp_path / "g.txt"
    path.write_text("game: GoFish\nplayers: Ann Bob\n\nAnn asks Bob for 4\n", encoding="utf-8")
    error = check_file(path).error
    assert error is not None and error.kind.value == "unknown"
    assert "did you mean 'go-fish'" in error.message
    assert error.span is not None and (error.span.line, error.span.column) == (1, 7)
    assert error.report().splitlines()[-1] == "        ^^^^^^"


def test_a_name_like_none_lists_the_bundled_names() -> None:
    status, _, err = run("show", "zzzz")
    assert status == 2 and "(bundled: authors, " in err and "did you mean" not in err
