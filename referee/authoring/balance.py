"""Balance reports: what many self-played games say about a rule file's fairness.

Every figure is computed from a :class:`Tally` of the games' records, added one by
one in game order, so the same games give the same report however many processes
played them; the tally keeps counts and sums, not the records, so its size does not
grow with the number of games. Win rates count a shared win (a tie that stands, or
a draw) as 1/k to each of its k winners, and come with 95% Wilson score intervals.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from referee.authoring.simulate import PlayedGame, PlayedMatch
from referee.authoring.stats import equal_shares_test
from referee.engine.flow import first_seat
from referee.language.spec import GameSpec
from referee.values import factory, frozen, mutable
from referee.words import counted

Z95 = 1.959963984540054  # the standard normal quantile of 97.5%
SHARED_WINS = "a shared win counts 1/k to each of its k winners"
SCHEMA_FILE = Path(__file__).resolve().parents[1] / "balance.schema.json"


@frozen
class GameRecord:
    """What one self-played game (or match) leaves for the report."""

    over: bool
    stopped: bool  # no legal move while not over
    stalled: bool  # over only because nobody could move: no ``end:`` held
    moves: int
    hands: int
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    sets: int
    void: int
    lead_changes: int | None = None  # None: not followed (a match)
    halfway: int | None = None  # the side leading alone half-way


def game_record(played: PlayedGame) -> GameRecord:
    """The record of one self-played game."""
    result = played.result
    lead = played.lead
    return GameRecord(result.over, played.stopped, played.stalled, played.moves, 1,
                      result.winners, result.scores, played.sets, played.void,
                      None if lead is None else lead.changes,
                      None if lead is None else lead.halfway)


def match_record(match: PlayedMatch) -> GameRecord:
    """The record of one self-played match: the sides with the highest total win it."""
    best = max(match.totals)
    winners = tuple(side for side, total in enumerate(match.totals) if total == best) \
        if match.over else ()
    return GameRecord(match.over, match.stopped, match.stalled, match.moves, match.hands,
                      winners, match.totals, match.sets, match.void)


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion.

    >>> low, high = wilson(40, 100)
    >>> round(low, 3), round(high, 3)
    (0.309, 0.498)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if trials <= 0:
        return 0.0, 1.0
    share = successes / trials
    denominator = 1 + z * z / trials
    centre = (share + z * z / (2 * trials)) / denominator
    spread = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials)) \
        / denominator
    return max(0.0, centre - spread), min(1.0, centre + spread)


def nth_smallest(counts: Mapping[int, int], rank: int) -> int:
    """The ``rank``-th smallest (from 1) of numbers given as a count of each.

    >>> nth_smallest({5: 2, 1: 1}, 1), nth_smallest({5: 2, 1: 1}, 3)
    (1, 5)
    """
    seen = 0
    for number in sorted(counts):
        seen += counts[number]
        if seen >= rank:
            return number
    raise ValueError(f"there are {seen} numbers, not {rank}")


def percentile(counts: Mapping[int, int], fraction: float) -> int:
    """The nearest-rank percentile of numbers given as a count of each.

    >>> percentile(dict.fromkeys(range(1, 101), 1), 0.95), percentile({7: 1}, 0.95)
    (95, 7)
    """
    return nth_smallest(counts, max(1, math.ceil(fraction * sum(counts.values()))))


def median(counts: Mapping[int, int]) -> float:
    """The median of numbers given as a count of each.

    >>> median({1: 1, 2: 1, 3: 1, 10: 1}), median({4: 1}), median({3: 2, 9: 1})
    (2.5, 4, 3)
    """
    total = sum(counts.values())
    if total % 2:
        return nth_smallest(counts, total // 2 + 1)
    return (nth_smallest(counts, total // 2) + nth_smallest(counts, total // 2 + 1)) / 2


@mutable
class Tally:
    """What the report needs of the games played so far, a game at a time: counts and
    sums by side, and the finished games' lengths as a count of each length (exact
    medians and percentiles in a size bounded by the longest game, not the games)."""

    sides: int
    games: int = 0
    unfinished: int = 0
    stopped: int = 0
    stalled: int = 0
    moves: int = 0  # over every game played, finished or not
    finished: int = 0
    shared: int = 0
    hands: int = 0  # the finished games' (or matches')
    sets: int = 0
    void: int = 0
    wins: list[float] = factory(list)
    points: list[int] = factory(list)
    lengths: dict[int, int] = factory(dict)
    length_squares: int = 0  # the finished games' lengths squared, summed
    led: int = 0  # finished games whose lead was followed
    lead_changes: int = 0
    lead_change_squares: int = 0
    halfway_led: int = 0  # of those, the games with a side leading alone half-way
    halfway_won: float = 0.0  # and that side's wins (a shared win 1/k)

    def add(self, record: GameRecord) -> None:
        """Count one more game, in game order."""
        self.games += 1
        self.moves += record.moves
        self.stopped += record.stopped
        self.stalled += record.stalled
        if not record.over:
            self.unfinished += 1
            return
        if not self.wins:
            self.wins, self.points = [0.0] * self.sides, [0] * self.sides
        self.finished += 1
        self.shared += len(record.winners) > 1
        for side in record.winners:
            self.wins[side] += 1 / len(record.winners)
        for side, score in enumerate(record.scores):
            self.points[side] += score
        self.hands += record.hands
        self.sets += record.sets
        self.void += record.void
        self.lengths[record.moves] = self.lengths.get(record.moves, 0) + 1
        self.length_squares += record.moves * record.moves
        if record.lead_changes is not None:
            self.led += 1
            self.lead_changes += record.lead_changes
            self.lead_change_squares += record.lead_changes * record.lead_changes
            if record.halfway is not None:
                self.halfway_led += 1
                if record.halfway in record.winners:
                    self.halfway_won += 1 / len(record.winners)

    def add_all(self, records: Iterable[GameRecord]) -> Tally:
        """Count these games, in order; the tally itself."""
        for record in records:
            self.add(record)
        return self


@frozen
class Side:
    """One side's figures: a seat, or a team in team games."""

    label: str
    seats: tuple[int, ...]  # counted from 1
    wins: float
    win_rate: float
    ci95: tuple[float, float]
    points: float  # mean per finished game


@frozen
class Report:
    """A balance report over self-played games (or matches)."""

    title: str
    rules: str
    players: int
    seed: int
    max_moves: int
    target: int | None
    options: tuple[tuple[str, str], ...]
    games: int
    finished: int
    unfinished: int  # not over: at the move limit, or stopped with no legal move
    stopped: int
    stalled: int
    interrupted: bool
    sides: tuple[Side, ...]
    first_seat: int  # counted from 1
    first_side: int  # an index into sides
    fair: float
    edge: float | None
    edge_ci95: tuple[float, float] | None
    shared: int
    moves_mean: float  # over every game played, finished or not
    length_mean: float | None
    length_median: float | None
    length_p95: int | None
    hands_mean: float | None
    sets_mean: float | None
    void_mean: float | None
    policies: tuple[str, ...] = ()  # by seat; () every seat random
    chi_square: tuple[float, int, float] | None = None  # statistic, df, p
    unfair: tuple[int, ...] = ()  # the sides whose interval excludes the fair share
    led: int = 0  # the finished games whose lead was followed (not matches)
    lead_changes_mean: float | None = None
    halfway_led: int = 0  # of those, the games with a side leading alone half-way
    halfway_rate: float | None = None  # how often that side won
    halfway_ci95: tuple[float, float] | None = None

    @property
    def policy_text(self) -> str:
        """``random``, ``counting``, or the policies by seat: ``counting,random,...``."""
        policies = self.policies or ("random",)
        return policies[0] if len(set(policies)) == 1 else ",".join(policies)

    @property
    def unit(self) -> str:
        """``game``, or ``match`` with a target."""
        return "match" if self.target is not None else "game"

    @property
    def units(self) -> str:
        """``games``, or ``matches`` with a target."""
        return "matches" if self.target is not None else "games"

    def lines(self) -> list[str]:
        """The report for people, line by line."""
        unit, units = self.unit, self.units
        finished = self.finished
        to = f" to {counted(self.target, 'point')}" if self.target is not None else ""
        options = "".join(f" [{name}={value}]" for name, value in self.options)
        out = [f"{self.title}{options}: {counted(self.games, unit, units)}{to}, "
               f"{self.players} players, seed {self.seed}"
               + (f", policy {self.policy_text}" if self.policy_text != "random" else "")]
        stopped = f" ({self.stopped} with no legal move)" if self.stopped else ""
        out.append(f"moves per {unit}: {self.moves_mean:.1f}; unfinished after "
                   f"{counted(self.max_moves, 'move')}: {self.unfinished}{stopped}")
        if self.stalled:
            out.append(f"ended because nobody could move, before 'end:' held: {self.stalled}")
        rate = f" of {finished} ({self.shared / finished:.1%})" if finished else ""
        out.append(f"{units} with more than one winner (ties, draws): {self.shared}{rate}; "
                   f"{SHARED_WINS}")
        for side in self.sides:
            low, high = side.ci95
            out.append(f"  {side.label}: wins {side.win_rate:6.1%}, points {side.points:5.2f}"
                       f"  (95% CI for wins: {low:.1%} to {high:.1%})")
        if self.edge is not None and self.edge_ci95 is not None:
            label = self.sides[self.first_side].label
            low, high = self.edge_ci95
            first = f"the first player (seat {self.first_seat})"
            if self.players != len(self.sides):
                first += f", {label.split(' (')[0]}"
            out.append(f"{first}: wins {self.sides[self.first_side].win_rate:.1%} against a "
                       f"fair {self.fair:.1%}, an edge of {self.edge * 100:+.1f} percentage "
                       f"points (95% CI {low * 100:+.1f} to {high * 100:+.1f})")
        if self.length_median is not None:
            out.append(f"length in moves (finished {units}): mean {self.length_mean:.1f}, "
                       f"median {self.length_median:g}, 95th percentile {self.length_p95}")
        if self.hands_mean is not None and self.target is not None:
            out.append(f"hands per match: {self.hands_mean:.2f}")
        if self.sets_mean is not None and self.void_mean is not None:
            void = f", {self.void_mean:.2f} void" if self.void_mean else ""
            out.append(f"sets per {unit}: {self.sets_mean:.2f} won{void}")
        if self.chi_square is not None:
            statistic, df, p = self.chi_square
            out.append(f"wins against equal shares: chi-square {statistic:.2f}, {df} df, "
                       f"p = {p:.3g}")
            unfair = "; ".join(
                f"{self.sides[i].label.split(' (')[0]} ({self.sides[i].win_rate:.1%})"
                for i in self.unfair)
            out.append(f"sides whose 95% CI excludes the fair {self.fair:.1%}: "
                       f"{unfair or 'none'}")
        if self.lead_changes_mean is not None:
            halfway = ""
            if self.halfway_rate is not None and self.halfway_ci95 is not None:
                low, high = self.halfway_ci95
                halfway = (f"; the side leading alone half-way won {self.halfway_rate:.1%} "
                           f"of {self.halfway_led} (95% CI {low:.1%} to {high:.1%})")
            out.append(f"lead changes per {unit}: {self.lead_changes_mean:.2f}{halfway}")
        return out

    def to_json(self) -> dict[str, Any]:
        """The report as one JSON object (see ``balance.schema.json``)."""
        return {
            "rules": self.rules, "title": self.title, "players": self.players,
            "seed": self.seed, "max_moves": self.max_moves, "target": self.target,
            "options": dict(self.options), "unit": self.unit, "games": self.games,
            "finished": self.finished, "unfinished": self.unfinished,
            "stopped": self.stopped, "stalled": self.stalled,
            "interrupted": self.interrupted,
            "sides": [{"label": s.label, "seats": list(s.seats), "wins": s.wins,
                       "win_rate": s.win_rate, "ci95": list(s.ci95), "points": s.points}
                      for s in self.sides],
            "first_player": {
                "seat": self.first_seat, "side": self.first_side, "fair": self.fair,
                "edge": self.edge, "ci95": list(self.edge_ci95) if self.edge_ci95 else None},
            "ties": {"games": self.shared, "rate": self.shared / self.finished
                     if self.finished else None, "counted": SHARED_WINS},
            "moves": self.moves_mean,
            "length": {"unit": "moves", "mean": self.length_mean,
                       "median": self.length_median, "p95": self.length_p95},
            "hands": self.hands_mean,
            "sets": {"won": self.sets_mean, "void": self.void_mean},
            "policies": list(self.policies or ("random",) * self.players),
            "chi_square": None if self.chi_square is None else {
                "statistic": self.chi_square[0], "df": self.chi_square[1],
                "p": self.chi_square[2]},
            "unfair_sides": list(self.unfair),
            "closeness": {
                "games": self.led, "lead_changes": self.lead_changes_mean,
                "halfway": {"games": self.halfway_led, "leader_won": self.halfway_rate,
                            "ci95": list(self.halfway_ci95) if self.halfway_ci95 else None}},
        }


def side_labels(spec: GameSpec, players: int) -> list[tuple[str, tuple[int, ...]]]:
    """``seat 3 (dealer)``, or ``team 1 (seats 1, 3, 5)`` in team games, with the seats
    (from 1) of each side."""
    if not spec.teams:
        return [(f"seat {seat + 1} ({'dealer' if seat == players - 1 else 'player'})",
                 (seat + 1,)) for seat in range(players)]
    teams = spec.alternate_teams(players)
    labels = []
    for team in range(spec.teams):
        seats = tuple(s + 1 for s in range(players) if teams[s] == team)
        labels.append((f"team {team + 1} (seats {', '.join(map(str, seats))})", seats))
    return labels


def report(
    spec: GameSpec, players: int, tally: Tally, *, seed: int, max_moves: int,
    target: int | None = None, interrupted: bool = False, policies: tuple[str, ...] = (),
) -> Report:
    """The balance report of the games in ``tally``, games of ``spec`` for ``players``."""
    labels = side_labels(spec, players)
    count = tally.finished
    wins = tally.wins or [0.0] * len(labels)
    points = tally.points or [0] * len(labels)
    sides = tuple(
        Side(label, seats, wins[i], wins[i] / count if count else 0.0, wilson(wins[i], count),
             points[i] / count if count else 0.0)
        for i, (label, seats) in enumerate(labels))
    seat = first_seat(spec, players, players - 1)  # self-play's dealer: the last seat
    side = spec.alternate_teams(players)[seat] if spec.teams else seat
    fair = 1 / len(labels)
    low, high = wilson(wins[side], count)
    lengths = tally.lengths
    return Report(
        title=spec.title, rules=spec.name, players=players, seed=seed, max_moves=max_moves,
        target=target, options=tuple(sorted(spec.options_set.items())), games=tally.games,
        finished=count, unfinished=tally.unfinished, stopped=tally.stopped,
        stalled=tally.stalled, interrupted=interrupted, sides=sides, first_seat=seat + 1,
        first_side=side, fair=fair,
        edge=sides[side].win_rate - fair if count else None,
        edge_ci95=(low - fair, high - fair) if count else None,
        shared=tally.shared,
        moves_mean=tally.moves / tally.games if tally.games else 0.0,
        length_mean=sum(n * k for n, k in lengths.items()) / count if count else None,
        length_median=median(lengths) if count else None,
        length_p95=percentile(lengths, 0.95) if count else None,
        hands_mean=tally.hands / count if count else None,
        sets_mean=tally.sets / count if count else None,
        void_mean=tally.void / count if count else None,
        policies=policies,
        chi_square=equal_shares_test(wins, count),
        unfair=tuple(i for i, s in enumerate(sides) if count and not
                     s.ci95[0] <= fair <= s.ci95[1]),
        led=tally.led,
        lead_changes_mean=tally.lead_changes / tally.led if tally.led else None,
        halfway_led=tally.halfway_led,
        halfway_rate=tally.halfway_won / tally.halfway_led if tally.halfway_led else None,
        halfway_ci95=wilson(tally.halfway_won, tally.halfway_led) if tally.halfway_led
        else None,
    )


def report_schema() -> dict[str, Any]:
    """The published JSON Schema of :meth:`Report.to_json`."""
    schema: dict[str, Any] = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    return schema
