"""Balance reports: win rates with Wilson intervals, the first player's edge, ties,
lengths and sets; the same figures from one process or several; matches, JSON,
progress and plots."""

from __future__ import annotations

import builtins
import importlib.util
import io
import json
import multiprocessing
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from rich.console import Console

from referee.authoring import runs
from referee.authoring.balance import GameRecord, Tally, report, report_schema, wilson
from referee.authoring.runs import Settings, play_games, progress_bar
from referee.authoring.simulate import play_match, play_match_record
from referee.cli.commands import main
from referee.engine.core import Engine
from referee.language.loader import load_spec

RULES = Path(__file__).parent.parent / "rules"
SCHEMA = report_schema()


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, result.stderr


def record(winners: tuple[int, ...], moves: int = 10, over: bool = True,
           sides: int = 3) -> GameRecord:
    return GameRecord(over, False, False, moves, 1, winners if over else (), (0,) * sides, 4, 1)


def settings(name: str, players: int, **extra: Any) -> tuple[Any, Settings]:
    spec = load_spec(RULES / f"{name}.rules")
    return spec, Settings(spec.source, (), spec.name, players, **extra)


def test_shared_wins_split_and_the_first_players_edge() -> None:
    spec = load_spec(RULES / "go-fish.rules")
    records = [record((0,), 10), record((0, 1), 20), record((2,), 30), record((0,), 40),
               record((), 99, over=False)]
    figures = report(spec, 3, Tally(3).add_all(records), seed=0, max_moves=99)
    assert [side.wins for side in figures.sides] == [2.5, 0.5, 1.0]
    assert figures.sides[0].win_rate == 2.5 / 4
    assert figures.sides[0].ci95 == wilson(2.5, 4)
    assert figures.first_seat == 1 and figures.fair == 1 / 3
    assert figures.edge == pytest.approx(2.5 / 4 - 1 / 3)
    assert figures.shared == 1 and figures.unfinished == 1 and figures.finished == 4
    assert (figures.length_mean, figures.length_median, figures.length_p95) == (25, 25, 40)
    assert figures.moves_mean == pytest.approx((100 + 99) / 5)
    assert (figures.sets_mean, figures.void_mean) == (4, 1)


def test_the_first_player_follows_the_rules_and_the_teams() -> None:
    diplomat = report(load_spec(RULES / "diplomat.rules"), 4,
                      Tally(4).add_all([record((2,), sides=4)]), seed=0, max_moves=1)
    assert diplomat.first_seat == 3 and diplomat.first_side == 2 and diplomat.edge == 0.75
    strict = report(load_spec(RULES / "literature-strict.rules"), 6,
                    Tally(2).add_all([record((1,), sides=2)]), seed=0, max_moves=1)
    assert strict.first_seat == 6 and strict.first_side == 1 and strict.fair == 0.5


def test_the_text_report_keeps_its_lines_and_adds_the_balance() -> None:
    status, out, _ = run("simulate", "go-fish", "-p", "3", "-g", "40", "-s", "2")
    lines = out.splitlines()
    assert status == 0
    assert lines[0] == "Go Fish: 40 games, 3 players, seed 2"
    assert lines[1].startswith("moves per game: ") and "unfinished after 20000 moves: 0" in lines[1]
    assert lines[2].startswith("games with more than one winner (ties, draws): ")
    assert "a shared win counts 1/k to each of its k winners" in lines[2]
    assert lines[3].startswith("  seat 1 (player): wins ") and "95% CI for wins: " in lines[3]
    assert lines[5].startswith("  seat 3 (dealer): wins ")
    assert lines[6].startswith("the first player (seat 1): wins ")
    assert "an edge of " in lines[6] and "percentage points (95% CI " in lines[6]
    assert lines[7].startswith("length in moves (finished games): mean ")
    assert "median " in lines[7] and "95th percentile " in lines[7]
    assert lines[8].startswith("sets per game: ")


@pytest.mark.parametrize("args", [["go-fish", "-p", "4", "-g", "30"],
                                  ["literature", "-p", "6", "-g", "10"],
                                  ["chinese-fish", "-p", "2", "-g", "10"],
                                  ["go-fish", "-p", "3", "-g", "4", "--target", "8"],
                                  ["tests/rules_support/partners.rules", "-p", "4", "-g", "2",
                                   "--max-moves", "30"]])
def test_the_json_report_matches_its_schema(args: list[str]) -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    status, out, _ = run("simulate", *args, "--json")
    assert status == 0
    data = json.loads(out)
    jsonschema.validate(data, SCHEMA)
    assert data["ties"]["counted"] == "a shared win counts 1/k to each of its k winners"


def test_two_jobs_give_the_tally_of_one() -> None:
    spec, plain = settings("authors", 4)
    one = play_games(spec, plain, 5, 60)
    two = play_games(spec, plain, 5, 60, jobs=2)
    assert one.tally == two.tally and one.tally.games == 60
    assert not one.interrupted and not two.interrupted


def test_two_jobs_print_the_report_of_one() -> None:
    args = ["simulate", "literature", "-p", "4", "-g", "40", "-s", "3", "--json"]
    assert run(*args)[1] == run(*args, "--jobs", "2")[1]
    matches = ["simulate", "go-fish", "-p", "3", "-g", "6", "--target", "10", "--json"]
    assert run(*matches)[1] == run(*matches, "-j", "2")[1]


def test_two_jobs_write_the_transcripts_of_one(tmp_path: Path) -> None:
    for jobs in ("1", "2"):
        status, _, _ = run("simulate", "go-fish", "-p", "3", "-g", "6", "--out",
                           str(tmp_path / jobs), "-j", jobs, "--hidden")
        assert status == 0
    names = sorted(p.name for p in (tmp_path / "1").iterdir())
    assert names == [f"go-fish-{n:04d}.txt" for n in range(1, 7)]
    for name in names:
        assert (tmp_path / "1" / name).read_text() == (tmp_path / "2" / name).read_text()


def test_a_worker_that_cannot_write_is_a_clean_error(tmp_path: Path) -> None:
    (tmp_path / "go-fish-0002.txt").mkdir()
    status, _, err = run("simulate", "go-fish", "-p", "3", "-g", "4", "--out", str(tmp_path),
                         "-j", "2", "--force")  # without: refused before any game
    assert status == 2 and "cannot write" in err and "go-fish-0002.txt" in err


def test_ctrl_c_with_several_jobs_keeps_the_chunks_played(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real = runs.Workers.results

    def interrupted(self: Any, tasks: Any, ahead: int) -> Any:
        """The first chunk's records, then Ctrl-C while the parent waits for the next."""
        results = real(self, tasks, ahead)
        yield next(results)
        raise KeyboardInterrupt

    monkeypatch.setattr(runs.Workers, "results", interrupted)
    status, out, err = run("simulate", "go-fish", "-p", "3", "-g", "32", "-j", "2")
    assert status == 130
    assert out.startswith("Go Fish: 2 games, 3 players")
    assert "interrupted: the figures count the 2 games played of 32" in err
    assert not multiprocessing.active_children()  # the workers were ended, not left


def test_matches_play_as_play_match_does() -> None:
    engine = Engine(load_spec(RULES / "go-fish.rules"))
    totals, lines = play_match(engine, 3, 11, target=12)
    match = play_match_record(engine, 3, 11, 12, transcript=False)
    assert list(match.totals) == totals and match.over and max(totals) >= 12
    assert match.hands == 1 + sum(line.split()[:1] == ["hand"] and line.split()[-1].isdigit()
                                  for line in lines)
    status, out, _ = run("simulate", "go-fish", "-p", "3", "-g", "5", "--target", "12")
    assert status == 0 and out.startswith("Go Fish: 5 matches to 12 points, 3 players")
    assert "hands per match: " in out and "sets per match: " in out


def test_a_progress_bar_shows_on_a_terminal() -> None:
    spec, plain = settings("go-fish", 3)
    screen = io.StringIO()
    bar = progress_bar(Console(file=screen, force_terminal=True, width=80))
    done = play_games(spec, plain, 0, 30, jobs=2, progress=bar)
    assert done.tally.games == 30 and "playing" in screen.getvalue()


def test_no_progress_bar_when_standard_error_is_not_a_terminal() -> None:
    status, _, err = run("simulate", "go-fish", "-p", "3", "-g", "500")
    assert status == 0 and err == ""


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None,
                    reason="matplotlib (the 'plot' extra) is not installed")
def test_plot_draws_an_svg(tmp_path: Path) -> None:
    path = tmp_path / "balance.svg"
    status, _, _ = run("simulate", "go-fish", "-p", "3", "-g", "30", "--plot", str(path))
    assert status == 0
    text = path.read_text(encoding="utf-8")
    assert text.lstrip().startswith("<?xml") and "<svg" in text


def test_plot_refuses_other_files_before_playing(tmp_path: Path) -> None:
    status, out, err = run("simulate", "go-fish", "-p", "3", "--plot", str(tmp_path / "a.pdf"))
    assert status == 2 and out == "" and "a plot is written as .svg or .png" in err


def test_plot_without_matplotlib_is_a_clean_error(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    real_import = builtins.__import__

    def no_matplotlib(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    def no_game(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a game was played before --plot was refused")

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    monkeypatch.setattr(runs, "play_games", no_game)  # refused before any game is played
    status, out, err = run("simulate", "go-fish", "-p", "3", "-g", "1000000000", "--plot",
                           str(tmp_path / "a.svg"))
    assert status == 2 and "pip install 'referee[plot]'" in err and "Traceback" not in err
    assert out == "" and not (tmp_path / "a.svg").exists()
