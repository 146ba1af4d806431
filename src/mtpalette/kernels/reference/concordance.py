"""Slow twins of :mod:`mtpalette.kernels.concordance`: every pair looked at, in plain Python."""

from __future__ import annotations

from collections.abc import Sequence


def inversions_slow(values: Sequence[float]) -> list[int]:
    """For each ``j``, the number of ``i < j`` with ``values[i] > values[j]``.

    Examples
    --------
    >>> inversions_slow([3, 1, 2, 2, 0])
    [0, 1, 1, 1, 4]
    """
    v = [float(x) for x in values]
    return [sum(1 for i in range(j) if v[i] > v[j]) for j in range(len(v))]


def pair_counts_slow(gold: Sequence[float], metric: Sequence[float], epsilon: float) -> list[int]:
    """``[C, D, T_gold, T_metric, T_both]`` of one group: gold ties exact, metric ties within
    ``epsilon``, a pair concordant when both order it the same way.

    Examples
    --------
    >>> pair_counts_slow([1, 2, 3], [0.0, 0.05, 1.0], 0.1)
    [2, 0, 0, 1, 0]
    """
    counts = [0] * 5
    n = len(gold)
    for i in range(n):
        for j in range(i + 1, n):
            tie_g = gold[i] == gold[j]
            tie_m = abs(metric[i] - metric[j]) <= epsilon
            if tie_g and tie_m:
                counts[4] += 1
            elif tie_g:
                counts[2] += 1
            elif tie_m:
                counts[3] += 1
            elif (gold[i] > gold[j]) == (metric[i] > metric[j]):
                counts[0] += 1
            else:
                counts[1] += 1
    return counts
