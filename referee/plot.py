"""``simulate --plot``: the length distribution and the wins by side, as SVG or PNG.

matplotlib is an optional extra (``pip install 'referee[plot]'``); without it,
asking for a plot is a usage error with the command that installs it.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

from referee.balance import Report
from referee.errors import Kind, RefereeError
from referee.files import write_file
from referee.reading import quoted

PLOT_SUFFIXES = (".svg", ".png")
MISSING = "--plot needs matplotlib: pip install 'referee[plot]' (or pip install matplotlib)"


def check_plot_path(path: Path) -> None:
    """Refuse a plot file that is neither ``.svg`` nor ``.png``, before any game is played."""
    if path.suffix.lower() not in PLOT_SUFFIXES:
        raise RefereeError(Kind.USAGE, "a plot is written as .svg or .png, not "
                           f"{quoted(path.name, 80)}")


def plot_report(report: Report, lengths: Sequence[int], path: Path, *, force: bool = False
                ) -> None:
    """Draw the games' lengths (a histogram) and each side's win rate with its 95%
    interval into ``path``, a new file (with ``force``, in place of what is there)."""
    check_plot_path(path)
    try:
        import matplotlib
    except ImportError:
        raise RefereeError(Kind.USAGE, MISSING) from None
    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, (left, right) = pyplot.subplots(1, 2, figsize=(11, 4.2))
    left.hist(lengths or [0], bins=min(40, max(1, len(set(lengths)))), color="#4a7ab5")
    left.set_title(f"Length of {len(lengths)} finished {report.unit}s")
    left.set_xlabel("moves")
    left.set_ylabel(f"{report.unit}s")
    labels = [side.label.split(" (")[0] for side in report.sides]
    rates = [side.win_rate * 100 for side in report.sides]
    below = [max(0.0, rate - side.ci95[0] * 100) for rate, side in zip(rates, report.sides,
                                                                        strict=True)]
    above = [max(0.0, side.ci95[1] * 100 - rate) for rate, side in zip(rates, report.sides,
                                                                        strict=True)]
    right.bar(labels, rates, yerr=[below, above], capsize=4, color="#d98c3f")
    right.axhline(report.fair * 100, color="#555", linestyle="--", linewidth=1,
                  label=f"fair share {report.fair:.1%}")
    top = max([side.ci95[1] * 100 for side in report.sides] + [report.fair * 100])
    right.set_ylim(0, min(100.0, top * 1.25) or 1.0)
    right.set_title("Wins by side (95% Wilson intervals)")
    right.set_ylabel("% of finished games")
    right.legend(loc="upper right")
    figure.suptitle(f"{report.title}: {report.games} {report.unit}s, {report.players} players, "
                    f"seed {report.seed}", parse_math=False)  # a rule file's '$' is no TeX
    figure.tight_layout()
    drawn = io.BytesIO()  # drawn here, then written as a new file: never through a link
    suffix = path.suffix.lower()
    try:
        figure.savefig(drawn, format=suffix[1:], metadata={"Date": None} if suffix == ".svg"
                       else None)
    finally:
        pyplot.close(figure)
    write_file(path, drawn.getvalue(), force=force, hint="add --force to replace it")
