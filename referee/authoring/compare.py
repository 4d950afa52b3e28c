"""Comparing two balance reports: two rule files, or one with an option changed,
played with the same seeds and policies; the difference in each figure (first minus
second) with its 95% interval (Newcombe's for rates, a normal one for means)."""

from __future__ import annotations

from typing import Any

from referee.authoring.balance import Report, Tally, wilson
from referee.authoring.stats import mean_difference, proportion_difference
from referee.values import frozen


@frozen
class Difference:
    """One figure in both runs, and the first's minus the second's with its interval."""

    figure: str
    first: float | None
    second: float | None
    difference: float | None
    ci95: tuple[float, float] | None

    def line(self) -> str:
        """The difference for people; rates in percentage points."""
        if self.difference is None or self.ci95 is None:
            return f"  {self.figure}: not comparable (too few games)"
        scale, unit = (100, " pp") if self.figure.endswith("rate") else (1, "")
        low, high = self.ci95
        mark = "" if low <= 0 <= high else "  (the interval excludes 0)"
        first, second = (self.first or 0.0) * scale, (self.second or 0.0) * scale
        return (f"  {self.figure}: {first:.2f} against {second:.2f}, difference "
                f"{self.difference * scale:+.2f}{unit} (95% CI {low * scale:+.2f} to "
                f"{high * scale:+.2f}){mark}")

    def to_json(self) -> dict[str, Any]:
        """The difference as a JSON object (balance.schema.json, ``comparison``)."""
        return {"figure": self.figure, "first": self.first, "second": self.second,
                "difference": self.difference,
                "ci95": list(self.ci95) if self.ci95 is not None else None}


def _rate(figure: str, first: tuple[float, tuple[float, float]] | None,
          second: tuple[float, tuple[float, float]] | None) -> Difference:
    if first is None or second is None:
        return Difference(figure, first and first[0], second and second[0], None, None)
    difference, ci95 = proportion_difference(first, second)
    return Difference(figure, first[0], second[0], difference, ci95)


def _mean(figure: str, first: tuple[float, float, int], second: tuple[float, float, int]
          ) -> Difference:
    means = [s / n if n else None for s, _, n in (first, second)]
    found = mean_difference(first, second)
    if found is None:
        return Difference(figure, means[0], means[1], None, None)
    return Difference(figure, means[0], means[1], found[0], found[1])


def differences(first: Report, first_tally: Tally, second: Report, second_tally: Tally
                ) -> list[Difference]:
    """Every figure the two reports share, first minus second."""
    out = []
    if len(first.sides) == len(second.sides):
        for mine, theirs in zip(first.sides, second.sides, strict=True):
            label = mine.label.split(" (")[0]
            out.append(_rate(f"{label} win rate", (mine.win_rate, mine.ci95),
                             (theirs.win_rate, theirs.ci95)))
    if first.edge_ci95 is not None and second.edge_ci95 is not None:
        a, b = first.sides[first.first_side], second.sides[second.first_side]
        out.append(_rate("first player's win rate", (a.win_rate, a.ci95),
                         (b.win_rate, b.ci95)))
    out.append(_rate("tie rate", _share(first.shared, first.finished),
                     _share(second.shared, second.finished)))
    out.append(_mean("length in moves", _sums(first_tally), _sums(second_tally)))
    out.append(_mean("lead changes per game",
                     (first_tally.lead_changes, first_tally.lead_change_squares,
                      first_tally.led),
                     (second_tally.lead_changes, second_tally.lead_change_squares,
                      second_tally.led)))
    out.append(_rate("half-way leader's win rate",
                     _share(first_tally.halfway_won, first_tally.halfway_led),
                     _share(second_tally.halfway_won, second_tally.halfway_led)))
    return out


def _share(count: float, total: int) -> tuple[float, tuple[float, float]] | None:
    return (count / total, wilson(count, total)) if total else None


def _sums(tally: Tally) -> tuple[float, float, int]:
    return (float(sum(n * k for n, k in tally.lengths.items())), float(tally.length_squares),
            tally.finished)
