"""``simulate --plot``: the length distribution and the wins by side, as SVG or PNG.

matplotlib is an optional extra (``pip install 'referee[plot]'``); without it,
asking for a plot is a usage error with the command that installs it.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from pathlib import Path

from referee.authoring.balance import Report
from referee.errors import Kind, RefereeError
from referee.files import write_file
from referee.reading import quoted
from referee.words import counted

PLOT_SUFFIXES = (".svg", ".png")
MISSING = "--plot needs matplotlib: pip install 'referee[plot]' (or pip install matplotlib)"


def check_plot_path(path: Path) -> None:
    """Refuse, before any game is played, a plot file that is neither ``.svg`` nor
    ``.png``, one in a folder that does not exist, and a plot without matplotlib."""
    if path.suffix.lower() not in PLOT_SUFFIXES:
        raise RefereeError(Kind.USAGE, "a plot is written as .svg or .png, not "
                           f"{quoted(path.name, 80)}")
    if not path.parent.is_dir():
        raise RefereeError(Kind.USAGE, f"cannot write the plot {path}: there is no folder "
                           f"{path.parent}")
    try:
        import matplotlib  # noqa: F401 (only whether it is there)
    except ImportError:
        raise RefereeError(Kind.USAGE, MISSING) from None


def plot_report(report: Report, lengths: Mapping[int, int], path: Path, *,
                force: bool = False) -> None:
    """Draw the finished games' lengths (a histogram of ``lengths``, the number of games
    of each length) and each side's win rate with its 95% interval into ``path``, a new
    file (with ``force``, in place of what is there)."""
    check_plot_path(path)
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["text.parse_math"] = False  # a name or title's '$' is no TeX
    from matplotlib import pyplot

    unit, units = report.unit, report.units
    figure, (left, right) = pyplot.subplots(1, 2, figsize=(11, 4.2))
    moves = sorted(lengths) or [0]
    left.hist(moves, weights=[lengths.get(n, 0) for n in moves],
              bins=min(40, len(moves)), color="#4a7ab5")
    left.set_title(f"Length of {counted(report.finished, f'finished {unit}', f'finished {units}')}")
    left.set_xlabel("moves")
    left.set_ylabel(units)
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
    right.set_ylabel(f"% of finished {units}")
    right.legend(loc="upper right")
    figure.suptitle(f"{report.title}: {counted(report.games, unit, units)}, "
                    f"{report.players} players, seed {report.seed}")
    figure.tight_layout()
    drawn = io.BytesIO()  # drawn here, then written as a new file: never through a link
    suffix = path.suffix.lower()
    try:
        figure.savefig(drawn, format=suffix[1:], metadata={"Date": None} if suffix == ".svg"
                       else None)
    finally:
        pyplot.close(figure)
    write_file(path, drawn.getvalue(), force=force, hint="add --force to replace it")
