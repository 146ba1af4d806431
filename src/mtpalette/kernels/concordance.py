"""Pair counts for Kendall-type correlations: inversions by a merge count (``O(n log n)``)
and the enumeration of all pairs of small groups (``O(k^2)``, ties within a tolerance).

Counts come as rows ``[C, D, T_gold, T_metric, T_both]``: concordant and discordant pairs,
pairs tied in gold only, in the metric only, and in both. The statistics built on them are in
:mod:`mtpalette.stats.kendall`.

References
----------
Knight (1966), A computer method for calculating Kendall's tau with ungrouped data (the merge
count); google-research/mt-metrics-eval ``mt_metrics_eval/stats.py``.
"""

from __future__ import annotations

import numpy as np

from mtpalette import _core


def _floats(x, name: str) -> np.ndarray:
    v = np.ascontiguousarray(x, dtype=np.float64)
    if v.ndim != 1:
        raise ValueError(f"{name}: a 1-d array expected")
    return v


def inversions_per_element(values) -> np.ndarray:
    """For each ``j``, the number of ``i < j`` with ``values[i] > values[j]``, int64.

    Examples
    --------
    >>> inversions_per_element([3, 1, 2, 2, 0]).tolist()
    [0, 1, 1, 1, 4]
    """
    return _core.inversions_per_element(_floats(values, "values"))


def grouped_pair_counts(gold, metric, offsets) -> np.ndarray:
    """``(G, 5)`` pair counts of the groups ``offsets[k]:offsets[k + 1]`` by merge counting.

    The entries of each group must be sorted by gold, then metric score (so that no
    inversion remains inside a gold tie); metric ties are exact.

    Examples
    --------
    >>> gold, metric = [1.0, 2.0, 2.0, 3.0], [0.5, 0.1, 0.1, 0.9]
    >>> grouped_pair_counts(gold, metric, [0, 4]).tolist()
    [[3, 2, 0, 0, 1]]
    """
    return _core.grouped_pair_counts(
        _floats(gold, "gold"),
        _floats(metric, "metric"),
        np.ascontiguousarray(offsets, dtype=np.int64),
    )


def pairwise_counts(gold, metric, offsets, use_group, epsilon: float = 0.0) -> np.ndarray:
    """``(G, 5)`` pair counts of the groups flagged in ``use_group`` (zeros elsewhere), by
    enumerating their pairs; metric scores within ``epsilon`` of each other are tied.

    Examples
    --------
    >>> pairwise_counts([1, 2, 3], [0.0, 0.05, 1.0], [0, 3], [True], 0.1).tolist()
    [[2, 0, 0, 1, 0]]
    """
    if not epsilon >= 0:
        raise ValueError("epsilon must be non-negative")
    return _core.pairwise_counts(
        _floats(gold, "gold"),
        _floats(metric, "metric"),
        np.ascontiguousarray(offsets, dtype=np.int64),
        np.ascontiguousarray(use_group, dtype=np.bool_),
        float(epsilon),
    )
