"""The balance report's tests and comparisons: the chi-square test of wins, the sides
whose interval excludes a fair share, how close games are, --policy and --compare."""

from __future__ import annotations

import json
import math
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from referee.authoring.balance import GameRecord, Tally, report, report_schema
from referee.authoring.stats import (
    chi_square_sf,
    equal_shares_test,
    mean_difference,
    proportion_difference,
)
from referee.cli.commands import main
from referee.language.loader import load_spec

RULES = Path(__file__).parent.parent / "rules"
SCHEMA = report_schema()

# (df, x, upper tail) from the standard chi-square table
TABLE = [(1, 3.841, 0.05), (1, 6.635, 0.01), (2, 5.991, 0.05), (2, 9.210, 0.01),
         (3, 7.815, 0.05), (3, 11.345, 0.01), (4, 9.488, 0.05), (5, 15.086, 0.01),
         (6, 12.592, 0.05), (10, 18.307, 0.05), (15, 30.578, 0.01)]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(("df", "x", "tail"), TABLE)
def test_the_chi_square_tail_matches_the_table(df: int, x: float, tail: float) -> None:
    assert chi_square_sf(x, df) == pytest.approx(tail, abs=2e-4)


@pytest.mark.parametrize("df", range(2, 12))  # df 1 (infinite at 0): the table
def test_the_chi_square_tail_is_one_minus_its_integral(df: int) -> None:
    """Against the density integrated numerically (Simpson's rule) from 0 to x."""
    x, steps = 4.0, 4000

    def density(t: float) -> float:
        if t <= 0:
            return 0.5 if df == 2 else 0.0
        return math.exp((df / 2 - 1) * math.log(t) - t / 2 - df / 2 * math.log(2)
                        - math.lgamma(df / 2))

    h = x / steps
    total = density(0.0) + density(x) + sum(
        (4 if i % 2 else 2) * density(i * h) for i in range(1, steps))
    assert chi_square_sf(x, df) == pytest.approx(1 - total * h / 3, abs=1e-5)


def test_equal_shares_and_differences() -> None:
    assert equal_shares_test([25, 25, 25, 25], 100) == (0.0, 3, 1.0)
    statistic, df, p = equal_shares_test([40, 20, 20, 20], 100)  # type: ignore[misc]
    assert (statistic, df) == (12.0, 3) and p == pytest.approx(0.00738, abs=1e-5)
    assert equal_shares_test([0, 0], 0) is None
    difference, (low, high) = proportion_difference((0.6, (0.5, 0.7)), (0.4, (0.3, 0.5)))
    assert difference == pytest.approx(0.2) and low < 0.2 < high
    assert mean_difference((1.0, 1.0, 1), (1.0, 1.0, 5)) is None


def record(winners: tuple[int, ...], changes: int | None = 1, halfway: int | None = 0
           ) -> GameRecord:
    return GameRecord(True, False, False, 10, 1, winners, (0, 0, 0), 4, 0, changes, halfway)


def test_the_report_names_the_unfair_sides_and_how_close_games_are() -> None:
    spec = load_spec(RULES / "go-fish.rules")
    records = ([record((0,), 2, 0)] * 60 + [record((1,), 0, 0)] * 20
               + [record((2,), 1, None)] * 20)
    figures = report(spec, 3, Tally(3).add_all(records), seed=0, max_moves=99,
                     policies=("counting", "random", "random"))
    assert figures.chi_square is not None
    statistic, df, p = figures.chi_square
    assert df == 2 and statistic == pytest.approx(32.0) and p < 1e-6
    assert figures.unfair == (0, 1, 2)
    assert figures.lead_changes_mean == pytest.approx(1.4)
    assert figures.halfway_led == 80 and figures.halfway_rate == pytest.approx(0.75)
    lines = figures.lines()
    assert lines[0].endswith("policy counting,random,random")
    assert "wins against equal shares: chi-square 32.00, 2 df, p = " in "\n".join(lines)
    assert ("sides whose 95% CI excludes the fair 33.3%: seat 1 (60.0%); seat 2 (20.0%); "
            "seat 3 (20.0%)") in lines
    assert lines[-1].startswith("lead changes per game: 1.40; the side leading alone "
                                "half-way won 75.0% of 80 (95% CI ")
    fair = report(spec, 3, Tally(3).add_all([record((s,)) for s in (0, 1, 2)] * 10),
                  seed=0, max_moves=99)
    assert fair.unfair == () and "excludes the fair 33.3%: none" in "\n".join(fair.lines())
    assert fair.lines()[0] == "Go Fish: 30 games, 3 players, seed 0"


def test_matches_follow_no_lead() -> None:
    status, out, _ = run("simulate", "go-fish", "-p", "3", "-g", "3", "--target", "8",
                         "--json")
    data = json.loads(out)
    assert status == 0 and data["closeness"]["games"] == 0
    assert data["closeness"]["lead_changes"] is None


@pytest.mark.parametrize("args", [
    ["go-fish", "-p", "4", "-g", "20", "--policy", "counting"],
    ["literature", "-p", "6", "-g", "6", "--policy", "counting,random"],
    ["chinese-fish", "-p", "2", "-g", "6", "--policy", "counting"],
    ["go-fish", "-p", "3", "-g", "20", "--policy", "counting", "--compare", "go-fish-pairs"],
    ["literature", "-p", "6", "-g", "6", "--compare-option", "wrong-claim-to-opponents=yes"],
])
def test_the_json_reports_match_the_schema(args: list[str]) -> None:
    status, out, _ = run("simulate", *args, "--json")
    assert status == 0, out
    data = json.loads(out)
    jsonschema.validate(data, SCHEMA)
    policy = args[args.index("--policy") + 1].split(",") if "--policy" in args else ["random"]
    assert data["policies"] == [policy[s % len(policy)] for s in range(data["players"])]
    if "--compare" in args or "--compare-option" in args:
        assert data["comparison"]["report"]["games"] == data["games"]
        figures = [d["figure"] for d in data["comparison"]["differences"]]
        assert "first player's win rate" in figures and "tie rate" in figures


def test_a_comparison_of_a_file_with_itself_differs_by_nothing() -> None:
    status, out, _ = run("simulate", "go-fish", "-p", "3", "-g", "30", "--policy",
                         "counting", "--compare", "go-fish", "--json")
    assert status == 0
    for difference in json.loads(out)["comparison"]["differences"]:
        assert difference["difference"] in (0, None), difference


def test_the_text_comparison_ends_with_the_differences() -> None:
    status, out, _ = run("simulate", "go-fish", "-p", "3", "-g", "20", "--compare",
                         "go-fish-pairs")
    assert status == 0
    tail = out[out.index("differences, go-fish minus go-fish-pairs"):].splitlines()
    assert tail[1].startswith("  seat 1 win rate: ") and "(95% CI " in tail[1]


def test_each_report_of_a_comparison_names_the_options_it_was_played_with() -> None:
    status, out, _ = run("simulate", "literature", "-p", "6", "-g", "4", "-o", "history=yes",
                         "--compare-option", "wrong-claim-to-opponents=yes")
    assert status == 0
    headings = [line for line in out.splitlines() if line.startswith("Literature")]
    assert headings == [
        "Literature [history=yes]: 4 games, 6 players, seed 0",
        "Literature [history=yes] [wrong-claim-to-opponents=yes]: 4 games, 6 players, seed 0"]


@pytest.mark.parametrize(("args", "message"), [
    (["--policy", "clever"], "--policy takes"),
    (["--policy", "random,random,random,random"], "--policy takes"),
    (["--compare", "go-fish", "--compare-option", "a=b"], "give one of them"),
    (["--compare", "go-fish", "--plot", "x.svg"], "leave out --out and --plot"),
    (["--compare", "no-such-rules"], "there is no rule file named"),
    (["--compare-option", "nothing"], "an option reads NAME=VALUE"),
    (["--compare-option", "colour=red"], "has no option 'colour'"),
])
def test_bad_policies_and_comparisons_are_usage_errors(args: list[str], message: str) -> None:
    status, out, err = run("simulate", "go-fish", "-p", "3", "-g", "2", *args)
    assert status == 2 and message in err and not out
