"""The ``referee`` command: thin click wrappers over the checker and self-play."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, NoReturn

import click

from referee.cli.check_command import check_transcripts, status_of
from referee.cli.output import INTERRUPTED, echo, json_text
from referee.errors import Kind, RefereeError
from referee.files import refuse_existing
from referee.language.loader import load_spec
from referee.language.rulefiles import (
    bundled_rule_names,
    find_rule_file,
    no_rule_file,
    rule_reference,
)
from referee.language.spec import GameSpec
from referee.reading import STDIN, ascii_number, quoted
from referee.transcript.check import format_text, read_transcript_file
from referee.transcript.setup import MAX_SEED_DIGITS
from referee.transcript.writer import write_game
from referee.words import counted

LONG_RUN = 500  # games from which a run shows a progress bar (on a terminal)
MATCH_WEIGHT = 10  # a match counts as this many games towards a long run
LINT_GAMES = 200  # lint's self-play games (referee.authoring.lint.SELF_PLAY_GAMES)
MAX_MOVES = 20_000  # self-play's moves per game (referee.authoring.simulate.DEFAULT_MAX_MOVES)
MOST_GAMES = 1_000_000_000  # games (or matches) one simulate may play
MOST_LINT_GAMES = 1_000_000  # self-play games lint may play for one rule file
MOST_MOVES = 1_000_000  # --max-moves: a game's transcript stays a few tens of megabytes
ISMCTS_NO_MATCH = ("ismcts plays single games, not the hands of a match: random or "
                   "counting play matches (--target, or a rule file's match:)")
MOST_TARGET = 100_000  # a match's target, as a transcript's 'target:' takes it
MOST_PLAYERS_DIGITS = 6  # --players is judged by the rules: any count they refuse is refused
SHEET_FORMATS = ("md", "html")  # referee.authoring.sheet.FORMATS; both imported only when used


class _Commands(click.Group):
    """The command group; Ctrl-C anywhere ends with status 130, not 1 (a bad transcript),
    and a command line click cannot read is one line, as every usage error is."""

    def main(self, args: Any = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> NoReturn:
        """Run the command line and exit with its status."""
        try:
            status = super().main(args, prog_name, complete_var, standalone_mode=False,
                                  **extra)
        except click.ClickException as exc:
            message = exc.format_message()
            if "\n" in message:  # the help itself (a command line with no command)
                exc.show()
                sys.exit(exc.exit_code)
            hint = (f" ('{exc.ctx.command_path} --help' says more)"
                    if isinstance(exc, click.UsageError) and exc.ctx is not None
                    and not isinstance(exc, _OutOfRange) else "")
            echo(RefereeError(Kind.USAGE, message + hint).report(), err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            echo("interrupted", err=True)
            sys.exit(INTERRUPTED)
        sys.exit(status if isinstance(status, int) else 0)

    def invoke(self, ctx: click.Context) -> object:
        """Run the command; a Ctrl-C it does not handle itself exits 130."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            echo("interrupted", err=True)
            sys.exit(INTERRUPTED)


class _OutOfRange(click.UsageError):
    """A value an option does not take: the message says what it takes."""


class _Whole(click.types.IntParamType):
    """A whole number in ASCII digits from ``low`` to ``high``; anything else is a usage
    error that says what the option takes."""

    name = "integer"

    def __init__(self, low: int, high: int, takes: str = "") -> None:
        self.low, self.high = low, high
        self.takes = takes or f"a whole number from {low} to {high}"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> int:
        """The number ``value`` writes, within the bounds."""
        if isinstance(value, int):  # a default
            return value
        text = str(value).strip()
        number = ascii_number(text, len(str(self.high)))
        if number is None or not self.low <= number <= self.high:
            option = param.opts[0] if param is not None and param.opts else "the value"
            raise _OutOfRange(f"{option} takes {self.takes}, not {quoted(text, 24)}", ctx)
        return number


@click.group(cls=_Commands)
@click.version_option(package_name="referee")
def main() -> None:
    """A rules-as-data referee for Authors, Go Fish and their kin."""


@main.command()
@click.argument("transcripts", nargs=-1, required=True,
                type=click.Path(path_type=Path, allow_dash=True))
@click.option("--json", "as_json", is_flag=True,
              help="Print each verdict as one JSON object, a line each.")
@click.option("--knowledge", is_flag=True,
              help="Also say where every card is, or who may hold it, after the last "
              "accepted event (hidden deals).")
def check(transcripts: tuple[Path, ...], as_json: bool, knowledge: bool) -> None:
    """Check game transcripts (- reads standard input). Exit 0 if all are legal, 1 if
    one is not, 2 on bad usage or rules: the worst status of them all."""
    sys.exit(check_transcripts(transcripts, as_json, knowledge))


@main.command(name="format")
@click.argument("transcript", type=click.Path(path_type=Path, allow_dash=True))
def format_transcript(transcript: Path) -> None:
    """Print a transcript in canonical notation, with every answer, draw and book that
    the referee filled in written out; comments are kept, and from the first error on
    every line is printed as typed."""
    source = "<stdin>" if str(transcript) == STDIN else str(transcript)
    try:
        text = read_transcript_file(transcript, source)
    except RefereeError as error:
        _exit(error)
    lines, verdict = format_text(text, source,
                                 Path() if str(transcript) == STDIN else transcript.parent)
    if lines:
        echo("\n".join(lines))
    if verdict.error is not None:
        echo(verdict.error.report(), err=True)
    sys.exit(status_of(verdict))


@main.command()
@click.argument("rules")
@click.option("--players", "-p", required=True,
              type=_Whole(0, 10**MOST_PLAYERS_DIGITS - 1, "a number of players"))
@click.option("--games", "-g", type=_Whole(1, MOST_GAMES), default=100, show_default=True,
              help="How many games (or matches, with --target) to play.")
@click.option("--seed", "-s", default=0, show_default=True,
              type=_Whole(0, 10**MAX_SEED_DIGITS - 1,
                          f"a whole number of at most {MAX_SEED_DIGITS} digits"))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Also write each game as a transcript into this folder.")
@click.option("--max-moves", type=_Whole(1, MOST_MOVES), default=MAX_MOVES,
              show_default=True, help="Stop a game (or a match's hand) longer than this.")
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
              help="Set an option of the rules, as a transcript's header would.")
@click.option("--hidden", is_flag=True,
              help="With --out, write the games as the table saw them (deal: hidden).")
@click.option("--target", type=_Whole(1, MOST_TARGET),
              help="Play matches: hands until a side reaches this many points.")
@click.option("--jobs", "-j", default=1, show_default=True,
              type=_Whole(0, 10**6, "a number of processes (0: one per core)"),
              help="Processes to play in (0: one per core, at most 4 per core); the "
              "results are those of one.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON object.")
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path),
              help="Draw the lengths and the wins by side into FILE.svg or FILE.png "
              "(needs matplotlib: pip install 'referee[plot]').")
@click.option("--force", is_flag=True,
              help="Replace files --out and --plot would write that exist already.")
@click.option("--policy", default="random", show_default=True,
              metavar="random|counting|ismcts[:N]",
              help="How the seats choose: one policy for all, or a comma list by seat "
              "(counting,random). counting remembers every public event and asks for what "
              "an opponent surely or most probably holds; ismcts needs the openspiel extra.")
@click.option("--compare", "compare_rules", metavar="RULES2",
              help="Also play RULES2 with the same seeds, options and policies, and report "
              "the difference (RULES minus RULES2) in each figure with its 95% interval.")
@click.option("--compare-option", "compare_option", metavar="NAME=VALUE",
              help="Also play RULES with this option set, with the same seeds and "
              "policies, and report the difference in each figure with its 95% interval.")
def simulate(rules: str, players: int, games: int, seed: int, out: Path | None,
             max_moves: int, options: tuple[str, ...], hidden: bool, target: int | None,
             jobs: int, as_json: bool, plot: Path | None, force: bool, policy: str,
             compare_rules: str | None, compare_option: str | None) -> None:
    """Play legal games of RULES (a name or a path) and report on their balance: wins by
    seat (or team) with 95% intervals and a chi-square test against equal shares, the
    first player's edge, ties, lengths, lead changes and how often the half-way leader
    wins; with --compare or --compare-option, two runs and their differences."""
    from referee.authoring.balance import report  # statistics, processes and rich: lazily
    from referee.authoring.plot import check_plot_path, plot_report
    from referee.authoring.policies import parse_policies
    from referee.authoring.runs import Settings, job_count, play_games, progress_bar
    from referee.authoring.simulate import refuse_earlier_run

    try:
        if compare_rules is not None and compare_option is not None:
            raise RefereeError(Kind.USAGE, "--compare and --compare-option compare with "
                               "one other run: give one of them")
        if (compare_rules or compare_option) and (out is not None or plot is not None):
            raise RefereeError(Kind.USAGE, "a comparison writes no transcripts or plot: "
                               "leave out --out and --plot")
        policies = parse_policies(policy, max(2, min(players, 64)))
        job_count(jobs, games)  # before anything else: no run starts that cannot
        if plot is not None:
            check_plot_path(plot)  # and matplotlib is there: before a game is played
            if not force:
                refuse_existing(plot, "add --force to replace it")
    except RefereeError as exc:
        _exit(exc)
    spec = _load_or_exit(rules, _option_values(options))
    refused = spec.refuses_players(players)
    if refused is not None:
        _exit(RefereeError(Kind.USAGE, refused))
    policies = parse_policies(policy, players)
    _refuse_ismcts_matches(target or spec.match_target, policies)
    if compare_rules is not None or compare_option is not None:
        _simulate_comparison(spec, rules, compare_rules, compare_option, options, players,
                             games, seed, max_moves, target, jobs, as_json, policies)
        return
    try:
        if out is not None:
            write_game(rule_reference(spec))  # a name it cannot write: before any game
            _make_folder(out)
            if not force:
                refuse_earlier_run(out, spec.name, games)
        settings = Settings(spec.source, tuple(sorted(spec.options_set.items())), spec.name,
                            players, max_moves, None if out is None else str(out), hidden,
                            target, force=force, policies=_played(policies))
        target = target or spec.match_target  # a rule file's match: plays whole matches
        long_run = games * (MATCH_WEIGHT if target else 1) >= LONG_RUN
        bar = progress_bar() if long_run and sys.stderr.isatty() else None
        run = play_games(spec, settings, seed, games, jobs=jobs, progress=bar)
        figures = report(spec, players, run.tally, seed=seed, max_moves=max_moves,
                         target=target, interrupted=run.interrupted or bool(run.broken),
                         policies=policies)
        if as_json:
            echo(json_text(figures.to_json()))
        else:
            for line in figures.lines():
                echo(line)
        if plot is not None and run.tally.games:
            plot_report(figures, run.tally.lengths, plot, force=force)
    except RefereeError as exc:
        _exit(exc)
    if run.interrupted or run.broken:
        played = counted(run.tally.games, *(("match", "matches") if target else ("game",)))
        stopped = f"stopped: {run.broken}" if run.broken else "interrupted"
        echo(f"{stopped}: the figures count the {played} played of {games}", err=True)
        sys.exit(2 if run.broken else INTERRUPTED)


def _played(policies: tuple[str, ...]) -> tuple[str, ...]:
    """The policies a run plays with: () when every seat is random (the old games)."""
    return () if all(p == "random" for p in policies) else policies


def _simulate_comparison(
    spec: GameSpec, rules: str, compare_rules: str | None, compare_option: str | None,
    options: tuple[str, ...], players: int, games: int, seed: int, max_moves: int,
    target: int | None, jobs: int, as_json: bool, policies: tuple[str, ...],
) -> None:
    """Two runs with the same seeds and policies, their reports and the differences."""
    from referee.authoring.balance import report
    from referee.authoring.compare import differences
    from referee.authoring.runs import Settings, play_games

    values = _option_values(options)
    if compare_option is not None:
        name, value = next(iter(_option_values((compare_option,)).items()))
        other = _load_or_exit(rules, {**values, name: value})
    else:
        assert compare_rules is not None
        other = _load_or_exit(compare_rules, values)
    refused = other.refuses_players(players)
    if refused is not None:
        _exit(RefereeError(Kind.USAGE, refused))
    _refuse_ismcts_matches(other.match_target, policies)
    reports, tallies, stopped = [], [], False
    try:
        for one in (spec, other):
            settings = Settings(one.source, tuple(sorted(one.options_set.items())), one.name,
                                players, max_moves, None, False, target,
                                policies=_played(policies))
            run = play_games(one, settings, seed, games, jobs=jobs)
            stopped = stopped or run.interrupted or bool(run.broken)
            reports.append(report(one, players, run.tally, seed=seed, max_moves=max_moves,
                                  target=target or one.match_target,
                                  interrupted=run.interrupted or bool(run.broken),
                                  policies=policies))
            tallies.append(run.tally)
            if stopped:
                break
    except RefereeError as exc:
        _exit(exc)
    if len(reports) < 2:
        echo("interrupted: no comparison", err=True)
        sys.exit(INTERRUPTED)
    found = differences(reports[0], tallies[0], reports[1], tallies[1])
    if as_json:
        document = reports[0].to_json()
        document["comparison"] = {"report": reports[1].to_json(),
                                  "differences": [d.to_json() for d in found]}
        echo(json_text(document))
    else:
        for figures in reports:
            for line in figures.lines():
                echo(line)
            echo("")
        first = reports[0].options or ()
        second = reports[1].options or ()
        echo(f"differences, {reports[0].rules} {_options_text(first)}minus "
             f"{reports[1].rules} {_options_text(second)}(same seeds and policies):")
        for difference in found:
            echo(difference.line())
    if stopped:
        sys.exit(INTERRUPTED)


def _options_text(options: tuple[tuple[str, str], ...]) -> str:
    return "".join(f"[{name}={value}] " for name, value in options)


def _refuse_ismcts_matches(target: int | None, policies: tuple[str, ...]) -> None:
    """Exit with a usage error if ISMCTS seats would play a match (to ``target``)."""
    if target and any(policy.startswith("ismcts") for policy in policies):
        _exit(RefereeError(Kind.USAGE, ISMCTS_NO_MATCH))


def _make_folder(out: Path) -> None:
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        if out.is_symlink() and not out.exists():  # mkdir says only "File exists"
            raise RefereeError(Kind.USAGE, f"cannot make the folder {out}: it is a "
                               "symbolic link that leads nowhere; make the folder it "
                               "names, or name another with --out") from None
        raise RefereeError(Kind.USAGE, f"cannot make the folder {out}: "
                           f"{exc.strerror or exc}") from None


def _option_values(options: tuple[str, ...]) -> dict[str, str]:
    """``-o NAME=VALUE`` options as a mapping; a malformed one is a usage error."""
    values = {}
    for option in options:
        name, equals, value = option.partition("=")
        if not equals or not name or not value:
            _exit(RefereeError(Kind.USAGE, f"an option reads NAME=VALUE, not {quoted(option, 80)}"))
        values[name.strip()] = value.strip()
    return values


@main.command()
@click.argument("rules", nargs=-1, required=True)
@click.option("--games", "-g", type=_Whole(0, MOST_LINT_GAMES), default=LINT_GAMES,
              show_default=True, help="Random self-play games that must finish (0: none).")
def lint(rules: tuple[str, ...], games: int) -> None:
    """Check rule files (names or paths): the compiler's errors (exit 2), and warnings
    about what compiles but is probably not meant (exit 1); exit 0 when clean."""
    from referee.authoring.lint import lint_file  # self-play and the sheet: only when linting

    statuses = []
    for ref in rules:
        path = find_rule_file(ref, Path())
        if path is None:
            echo(RefereeError(Kind.USAGE, no_rule_file(ref)).report(), err=True)
            statuses.append(2)
            continue
        result = lint_file(path, games)
        statuses.append(result.status)
        if result.error is not None:
            echo(result.error.report(), err=True)
            continue
        for finding in result.findings:
            echo(finding.report())
        count = len(result.findings)
        played = f" ({counted(games, 'self-play game')} finished)" if games else ""
        echo(f"{path}: {counted(count, 'warning')}" if count else f"{path}: clean{played}")
    sys.exit(max(statuses))


@main.command()
@click.argument("rules")
@click.option("--format", "fmt", type=click.Choice(SHEET_FORMATS), default="md", show_default=True,
              help="Markdown, or one HTML page to print.")
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
              help="Set an option of the rules, as a transcript's header would.")
def sheet(rules: str, fmt: str, options: tuple[str, ...]) -> None:
    """Print the rule sheet of RULES in plain English, generated from the compiled rules:
    players, deck, deal, sets, a turn, answers, claims, the end, scoring, ties, options."""
    values = _option_values(options)
    path = _find_or_exit(rules)
    try:
        from referee.authoring.sheet import sheet_for

        text = sheet_for(path, values).render(fmt)
    except RefereeError as exc:
        _exit(exc if exc.kind is Kind.RULES else RefereeError(Kind.USAGE, exc.message))
    echo(text.rstrip("\n"))


@main.command()
@click.argument("rules")
@click.option("--json", "as_json", is_flag=True,
              help="Print the compiled rules as JSON (schema: referee/spec.schema.json).")
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
              help="Set an option of the rules, as a transcript's header would.")
def show(rules: str, as_json: bool, options: tuple[str, ...]) -> None:
    """Print the compiled rules of RULES, field by field."""
    from referee.language.spec_json import spec_text, spec_to_json

    spec = _load_or_exit(rules, _option_values(options))
    echo(json_text(spec_to_json(spec), indent=2) if as_json
          else spec_text(spec))


class _PlayCommand(click.Command):
    """``referee play``, whose ``--deal`` takes one or two words: ``hidden``, ``seed N``,
    ``given FILE``."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Join ``--deal seed N`` into one value before click reads the options."""
        joined: list[str] = []
        rest = list(args)
        while rest:
            word = rest.pop(0)
            if word.startswith("--deal=") and rest:  # --deal=seed N
                rest.insert(0, word.removeprefix("--deal="))
                word = "--deal"
            if (word == "--deal" and len(rest) >= 2 and rest[0] in ("seed", "given")
                    and not rest[1].startswith("-")):
                word = f"--deal={rest.pop(0)} {rest.pop(0)}"
            joined.append(word)
        return super().parse_args(ctx, joined)


@main.command(cls=_PlayCommand)
@click.argument("game", required=False)
@click.option("--players", "-p", help='The players in seat order: "Ann Bob Cy".')
@click.option("--dealer", help="The dealer (default: the last player).")
@click.option("--deal", metavar="hidden|seed N|given FILE",
              help="How the cards were dealt: hidden (the default: nobody types the hands), "
              "seed N (the referee deals), given FILE (FILE holds 'hand NAME:', 'stock:' "
              "and 'centre:' lines).")
@click.option("--me", help="With a hidden deal: the player whose hand you know...")
@click.option("--hand", help='...and that hand: --me Ann --hand "7S 7H QD".')
@click.option("--centre", help="With a hidden deal: the cards dealt face up to the centre.")
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
              help="Set an option of the rules.")
@click.option("--target", type=_Whole(1, MOST_TARGET),
              help="Match play: hands until a side reaches this many points.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="The transcript file to write (a new file; default: GAME-TIME.txt).")
@click.option("--resume", type=click.Path(dir_okay=False, path_type=Path),
              help="Go on with the game in this transcript file.")
@click.option("--force", is_flag=True,
              help="Replace the --out file if it exists (never written through a link).")
def play(game: str | None, players: str | None, dealer: str | None, deal: str | None,
         me: str | None, hand: str | None, centre: str | None, options: tuple[str, ...],
         target: int | None, out: Path | None, resume: Path | None, force: bool) -> None:
    """Referee a game live: type each event as it happens and the referee answers at
    once ('help' lists the commands). Every accepted event is written to the transcript
    file at once. Without a terminal, events come on standard input, a verdict line
    each. Exit 0 when every event was accepted, 1 when one was refused, 2 on bad usage,
    130 on Ctrl-C."""
    from referee.live.prompt import PlayArguments
    from referee.live.prompt import play as play_live  # prompt_toolkit: only for live play

    arguments = PlayArguments(game, players, dealer, deal, me, hand, centre, options, target,
                              out, resume, force)
    sys.exit(play_live(arguments, sys.stdin, sys.stdout, sys.stderr))


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to serve at; 0.0.0.0 serves the local network.")
@click.option("--port", type=_Whole(1, 65535), default=8000, show_default=True,
              help="The port to serve at.")
@click.option("--data", type=click.Path(file_okay=False, path_type=Path),
              default=Path("referee-tables"), show_default=True,
              help="The folder keeping every table's transcript and tokens.")
def serve(host: str, port: int, data: Path) -> None:
    """Serve tables on phones: a shared screen, a private page per seat, a host page.
    Every accepted event is written to the table's transcript under --data at once;
    started again on the same --data, the server serves every table where it was."""
    try:
        from referee.serve.run import serve as run_server
    except ImportError as exc:
        _exit(RefereeError(Kind.USAGE, f"referee serve needs its web parts: pip install "
                           f"'referee[serve]' ({exc.name} is missing)"))
    try:
        sys.exit(run_server(host, port, data))
    except RefereeError as error:
        _exit(error)


@main.command(name="rules")
def list_rules() -> None:
    """List the bundled rule files."""
    for name in bundled_rule_names():
        spec = _load_or_exit(name)
        echo(f"{name:24} {spec.about}")


def _find_or_exit(rules: str) -> Path:
    path = find_rule_file(rules, Path())  # a name beside us is written as given, not absolute
    if path is None:
        _exit(RefereeError(Kind.USAGE, no_rule_file(rules)))
    return path


def _load_or_exit(rules: str, options: dict[str, str] | None = None) -> GameSpec:
    path = _find_or_exit(rules)
    try:
        return load_spec(path, options)
    except RefereeError as exc:
        _exit(exc if exc.kind is Kind.RULES else RefereeError(Kind.USAGE, exc.message))


def _exit(error: RefereeError) -> NoReturn:
    echo(error.report(), err=True)
    sys.exit(error.exit_status if error.kind is not Kind.UNKNOWN else 2)
