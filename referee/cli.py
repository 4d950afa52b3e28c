"""The ``referee`` command: thin click wrappers over the checker and self-play."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import NoReturn

import click

from referee.checker import check_file
from referee.compile import bundled_rule_names, find_rule_file, load_spec
from referee.display import knowledge_table, print_table
from referee.errors import Kind, RefereeError
from referee.simulate import DEFAULT_MAX_MOVES, summarize
from referee.spec import GameSpec


@click.group()
@click.version_option(package_name="referee")
def main() -> None:
    """A rules-as-data referee for Authors, Go Fish and their kin."""


@main.command()
@click.argument("transcript", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as one JSON object.")
@click.option("--knowledge", is_flag=True,
              help="Also say where every card is, or who may hold it, after the last "
              "accepted event (hidden deals).")
def check(transcript: Path, as_json: bool, knowledge: bool) -> None:
    """Check a game transcript; exit 0 if legal, 1 if not, 2 on bad usage or rules."""
    verdict = check_file(transcript, knowledge=knowledge)
    if as_json:
        click.echo(json.dumps(verdict.to_json(), ensure_ascii=False))
    else:
        click.echo(verdict.report(), err=not verdict.ok)
        if verdict.knowledge is not None:
            print_table(knowledge_table(verdict.knowledge, verdict.state))
    sys.exit(0 if verdict.ok else verdict.error.exit_status if verdict.error else 1)


@main.command(name="format")
@click.argument("transcript", type=click.Path(dir_okay=False, path_type=Path))
def format_transcript(transcript: Path) -> None:
    """Print a transcript in canonical notation, with every answer, draw and book that
    the referee filled in written out, up to the first error."""
    verdict = check_file(transcript)
    if verdict.canonical:
        click.echo("\n".join(verdict.canonical))
    if verdict.error is not None:
        click.echo(verdict.error.report(), err=True)
    sys.exit(0 if verdict.ok else verdict.error.exit_status if verdict.error else 1)


@main.command()
@click.argument("rules")
@click.option("--players", "-p", type=click.IntRange(2, 16), required=True)
@click.option("--games", "-g", type=click.IntRange(1), default=100, show_default=True)
@click.option("--seed", "-s", type=int, default=0, show_default=True)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Also write each game as a transcript into this folder.")
@click.option("--max-moves", type=click.IntRange(1), default=DEFAULT_MAX_MOVES,
              show_default=True, help="Stop a game that runs longer than this.")
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
              help="Set an option of the rules, as a transcript's header would.")
@click.option("--hidden", is_flag=True,
              help="With --out, write the games as the table saw them (deal: hidden).")
def simulate(rules: str, players: int, games: int, seed: int, out: Path | None,
             max_moves: int, options: tuple[str, ...], hidden: bool) -> None:
    """Play random legal games of RULES (a name or a path) and print figures."""
    values = {}
    for option in options:
        name, equals, value = option.partition("=")
        if not equals or not name or not value:
            _exit(RefereeError(Kind.USAGE, f"an option reads NAME=VALUE, not {option!r}"))
        values[name.strip()] = value.strip()
    spec = _load_or_exit(rules, values)
    if players not in spec.player_counts:
        _exit(RefereeError(Kind.USAGE, f"{spec.title} is not for {players} players"))
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    summary = summarize(spec, players, games, seed, max_moves, out, hidden)
    finished = summary.games - summary.unfinished
    click.echo(f"{spec.title}: {summary.games} games, {players} players, seed {seed}")
    click.echo(f"moves per game: {summary.moves / summary.games:.1f}; "
               f"unfinished after {max_moves} moves: {summary.unfinished}")
    if summary.shared:
        click.echo(f"games with more than one winner (ties, draws): {summary.shared}")
    for side, label in enumerate(_side_labels(spec, players)):
        share = summary.wins[side] / finished if finished else 0.0
        points = summary.points[side] / finished if finished else 0.0
        click.echo(f"  {label}: wins {share:6.1%}, points {points:5.2f}")


def _side_labels(spec: GameSpec, players: int) -> list[str]:
    """``seat 3 (dealer)``, or ``team 1 (seats 1, 3, 5)`` in team games."""
    if not spec.teams:
        return [f"seat {seat + 1} ({'dealer' if seat == players - 1 else 'player'})"
                for seat in range(players)]
    teams = spec.alternate_teams(players)
    return [f"team {team + 1} (seats "
            f"{', '.join(str(s + 1) for s in range(players) if teams[s] == team)})"
            for team in range(spec.teams)]


@main.command(name="rules")
def list_rules() -> None:
    """List the bundled rule files."""
    for name in bundled_rule_names():
        spec = _load_or_exit(name)
        click.echo(f"{name:24} {spec.about}")


def _load_or_exit(rules: str, options: dict[str, str] | None = None) -> GameSpec:
    path = find_rule_file(rules, Path.cwd())
    if path is None:
        _exit(RefereeError(Kind.USAGE, f"no rule file named {rules!r} "
                           f"(bundled: {', '.join(bundled_rule_names())})"))
    try:
        return load_spec(path, options)
    except RefereeError as exc:
        _exit(exc if exc.kind is Kind.RULES else RefereeError(Kind.USAGE, exc.message))


def _exit(error: RefereeError) -> NoReturn:
    click.echo(error.report(), err=True)
    sys.exit(error.exit_status if error.kind is not Kind.UNKNOWN else 2)
