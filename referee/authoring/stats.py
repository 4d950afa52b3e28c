"""The tests a balance report makes, in closed form (no scipy): the chi-square test of
wins against equal shares, and 95% intervals of the difference of two figures."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054  # the standard normal quantile of 97.5%


def chi_square_sf(statistic: float, df: int) -> float:
    """The chance that a chi-square variable with ``df`` (whole) degrees of freedom is
    at least ``statistic``: a finite sum for whole degrees of freedom.

    >>> round(chi_square_sf(3.841458820694124, 1), 6), round(chi_square_sf(5.991464547, 2), 6)
    (0.05, 0.05)
    >>> round(chi_square_sf(11.070497693516351, 5), 6), chi_square_sf(0.0, 3)
    (0.05, 1.0)
    """
    if df < 1:
        raise ValueError(f"degrees of freedom are a whole number from 1, not {df}")
    if statistic <= 0:
        return 1.0
    half = statistic / 2
    if df % 2 == 0:  # exp(-x/2) * sum of (x/2)^i / i! for i < df/2
        term = total = 1.0
        for i in range(1, df // 2):
            term *= half / i
            total += term
        return min(1.0, math.exp(-half) * total)
    total = math.erfc(math.sqrt(half))  # df 1; each further 2 adds a term
    term = math.sqrt(half) * math.exp(-half) / math.gamma(1.5)
    for i in range(1, (df - 1) // 2 + 1):
        total += term
        term *= half / (i + 0.5)
    return min(1.0, total)


def equal_shares_test(wins: Sequence[float], games: int) -> tuple[float, int, float] | None:
    """Pearson's chi-square test of wins by side against equal shares: the statistic,
    its degrees of freedom and its p-value; None with no finished game.

    >>> statistic, df, p = equal_shares_test([50, 50], 100)
    >>> statistic, df, p
    (0.0, 1, 1.0)
    >>> round(equal_shares_test([70, 30], 100)[2], 6)
    6.3e-05
    """
    if games <= 0 or len(wins) < 2:
        return None
    expected = games / len(wins)
    statistic = sum((won - expected) ** 2 / expected for won in wins)
    df = len(wins) - 1
    return statistic, df, chi_square_sf(statistic, df)


def proportion_difference(
    first: tuple[float, tuple[float, float]], second: tuple[float, tuple[float, float]],
) -> tuple[float, tuple[float, float]]:
    """The difference of two proportions, each given with its Wilson interval, and
    Newcombe's 95% interval of it (method 10: the hybrid score interval).

    >>> d, (low, high) = proportion_difference((0.5, (0.4, 0.6)), (0.5, (0.4, 0.6)))
    >>> d, round(low, 4), round(high, 4)
    (0.0, -0.1414, 0.1414)
    """
    p1, (l1, u1) = first
    p2, (l2, u2) = second
    difference = p1 - p2
    return difference, (difference - math.hypot(p1 - l1, u2 - p2),
                        difference + math.hypot(u1 - p1, p2 - l2))


def mean_difference(
    first: tuple[float, float, int], second: tuple[float, float, int],
) -> tuple[float, tuple[float, float]] | None:
    """The difference of two means, each given as (sum, sum of squares, count), with a
    normal 95% interval; None when either has fewer than two values.

    >>> mean_difference((10.0, 50.0, 2), (4.0, 8.0, 2))
    (3.0, (3.0, 3.0))
    """
    (s1, q1, n1), (s2, q2, n2) = first, second
    if n1 < 2 or n2 < 2:
        return None
    m1, m2 = s1 / n1, s2 / n2
    v1 = max(0.0, (q1 - n1 * m1 * m1) / (n1 - 1))
    v2 = max(0.0, (q2 - n2 * m2 * m2) / (n2 - 1))
    spread = Z95 * math.sqrt(v1 / n1 + v2 / n2)
    difference = m1 - m2
    return difference, (difference - spread, difference + spread)
