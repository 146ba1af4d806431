"""The kernels of the grouped statistics: Pearson's r and Spearman's rho of two vectors, and
each statistic's values in every group at once (its *vectorised group kernel*), averaged
(macro) or pooled over the groups. No statistic names here: the catalogue
(:mod:`mtpalette.stats.catalogue`) gives every statistic its kernel, and
:func:`mtpalette.stats.correlation.correlation` computes one by name.

A group kernel takes :class:`~mtpalette.stats.grouping.Groups` and the keywords ``epsilon``
(the metric tie threshold of the pair-count statistics) and ``threshold`` (the minimum human
difference of a ``kendall-like`` pair), and returns the value of every group, NaN where
undefined; a pooled kernel (``kendall-like``) returns the rows ``[C, D]`` of every group.
The conventions (orientation, unrated entries, groupings) are those of
:mod:`mtpalette.stats.correlation`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mtpalette.stats.grouping import Groups, as_vectors, make_groups
from mtpalette.stats.kendall import _tau_c, _tau_from_counts, group_pair_counts, kendall_like_counts
from mtpalette.stats.tie_calibration import tie_calibration


def pearson(gold: Any, metric: Any) -> float:
    """Pearson's r; NaN when a vector is constant or has fewer than 2 entries.

    Examples
    --------
    >>> round(pearson([1, 2, 3, 4], [2, 4, 6, 9]), 6)
    0.994377
    >>> import math; math.isnan(pearson([1, 1, 1], [1, 2, 3]))
    True
    """
    g, m = as_vectors(gold, metric)
    if g.size < 2:
        return float("nan")
    gc = g - g.mean()
    mc = m - m.mean()
    ng = np.sqrt(np.dot(gc, gc))
    nm = np.sqrt(np.dot(mc, mc))
    if ng == 0.0 or nm == 0.0 or _constant(g) or _constant(m):
        return float("nan")
    r = float(np.dot(gc / ng, mc / nm))
    return max(-1.0, min(1.0, r))


def _constant(x: np.ndarray) -> bool:
    return bool(np.all(x == x[0]))


def average_ranks(x: Any) -> np.ndarray:
    """Ranks 1..n, tied values sharing their average rank (as ``scipy.stats.rankdata``).

    Examples
    --------
    >>> average_ranks([10, 20, 20, 5]).tolist()
    [2.0, 3.5, 3.5, 1.0]
    """
    v = np.asarray(x, dtype=np.float64).ravel()
    n = v.size
    order = np.argsort(v, kind="mergesort")
    sv = v[order]
    starts = np.flatnonzero(np.r_[True, sv[1:] != sv[:-1]])
    ends = np.r_[starts[1:], n]
    avg = (starts + ends + 1) / 2.0  # mean of the 1-based positions start+1..end
    ranks = np.empty(n)
    ranks[order] = np.repeat(avg, ends - starts)
    return ranks


def spearman(gold: Any, metric: Any) -> float:
    """Spearman's rho: Pearson's r of the average ranks; NaN for a constant vector.

    Examples
    --------
    >>> spearman([1, 2, 3, 4], [1, 3, 2, 4])
    0.8
    """
    g, m = as_vectors(gold, metric)
    if g.size < 2 or _constant(g) or _constant(m):
        return float("nan")
    return pearson(average_ranks(g), average_ranks(m))


def _group_pearson(groups: Groups, ranks: bool = False) -> np.ndarray:
    vals = np.empty(groups.n_groups)
    for k in range(groups.n_groups):
        g, m = groups.group(k)
        vals[k] = spearman(g, m) if ranks else pearson(g, m)
    return vals


def _group_pearson_fast(groups: Groups) -> np.ndarray:
    """Pearson of every group at once (same values as :func:`pearson` up to rounding)."""
    sizes = groups.sizes.astype(np.float64)
    gid = np.repeat(np.arange(groups.n_groups), groups.sizes)
    g, m = groups.gold, groups.metric
    mg = np.bincount(gid, g, groups.n_groups) / sizes
    mm = np.bincount(gid, m, groups.n_groups) / sizes
    gc = g - mg[gid]
    mc = m - mm[gid]
    sgg = np.bincount(gid, gc * gc, groups.n_groups)
    smm = np.bincount(gid, mc * mc, groups.n_groups)
    sgm = np.bincount(gid, gc * mc, groups.n_groups)
    const_g = _group_constant(g, gid, groups.n_groups)
    const_m = _group_constant(m, gid, groups.n_groups)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = sgm / (np.sqrt(sgg) * np.sqrt(smm))
    r[const_g | const_m | (sgg == 0) | (smm == 0)] = np.nan
    return np.clip(r, -1.0, 1.0)


def _group_constant(x: np.ndarray, gid: np.ndarray, n: int) -> np.ndarray:
    lo = np.full(n, np.inf)
    hi = np.full(n, -np.inf)
    np.minimum.at(lo, gid, x)
    np.maximum.at(hi, gid, x)
    return lo == hi


def pearson_groups(groups: Groups, *, epsilon: float = 0.0, threshold: float = 25.0) -> np.ndarray:
    """Pearson's r of every group (NaN where a vector is constant)."""
    if groups.n_groups > 8:
        return _group_pearson_fast(groups)
    return _group_pearson(groups)


def spearman_groups(groups: Groups, *, epsilon: float = 0.0, threshold: float = 25.0) -> np.ndarray:
    """Spearman's rho of every group."""
    return _group_pearson(groups, ranks=True)


def kendall_c_groups(
    groups: Groups, *, epsilon: float = 0.0, threshold: float = 25.0
) -> np.ndarray:
    """Kendall's tau-c of every group."""
    out = np.empty(groups.n_groups)
    counts = group_pair_counts(groups)
    for k in range(groups.n_groups):
        g, m = groups.group(k)
        out[k] = _tau_c(g, m, counts[k])
    return out


def kendall_like_groups(
    groups: Groups, *, epsilon: float = 0.0, threshold: float = 25.0
) -> np.ndarray:
    """The rows ``[C, D]`` of every group: WMT's Kendall-like pairs (human difference at least
    ``threshold``), pooled rather than averaged."""
    out = np.zeros((groups.n_groups, 2))
    for k in range(groups.n_groups):
        g, m = groups.group(k)
        out[k] = kendall_like_counts(g, m, threshold=threshold)
    return out


def pair_count_groups(
    groups: Groups, *, variant: str, epsilon: float = 0.0, threshold: float = 25.0
) -> np.ndarray:
    """The Kendall ``variant`` (``b``, ``23``: tau-eq, ``acc23``: acc-eq and pairwise accuracy)
    of every group from its pair counts, metric differences up to ``epsilon`` tied; tau-b is
    NaN where a side ties every pair."""
    counts = group_pair_counts(groups, epsilon=epsilon)
    vals = _tau_from_counts(counts, variant)
    if variant == "b":
        total = counts.sum(axis=1)
        degenerate = (counts[:, 2] + counts[:, 4] == total) | (counts[:, 3] + counts[:, 4] == total)
        vals[degenerate] = np.nan
    return vals


def average_groups(
    values: np.ndarray, pooled: bool = False, weights: np.ndarray | None = None
) -> float:
    """Average of group values: macro over defined groups; ``pooled`` (rows ``[C, D]``,
    ``kendall-like``): ``sum(C - D) / sum(C + D)``."""
    if pooled:
        v = values.reshape(-1, 2)
        w = np.ones(len(v)) if weights is None else weights
        con, dis = (w[:, None] * v).sum(axis=0)
        return float((con - dis) / (con + dis)) if con + dis else 0.0
    v = np.asarray(values, dtype=np.float64)
    w = np.ones(v.size) if weights is None else np.asarray(weights, dtype=np.float64)
    ok = ~np.isnan(v)
    den = w[ok].sum()
    return float((w[ok] * v[ok]).sum() / den) if den > 0 else float("nan")


def grouped_value(
    statistic: Any,
    human: Any,
    metric: Any,
    *,
    grouping: str = "none",
    epsilon: float | None = 0.0,
    threshold: float = 25.0,
) -> float:
    """The value of a catalogue entry ``statistic`` (a
    :class:`~mtpalette.stats.catalogue.Statistic`) from its group kernel: the groups of
    ``grouping``, averaged (or pooled); ``epsilon=None`` calibrates the metric tie threshold
    of a tie-calibrated statistic (:func:`tie_calibration`)."""
    if statistic.calibrated and epsilon is None:
        return tie_calibration(human, metric, grouping=grouping, variant=statistic.variant).value
    if statistic.group is None:
        raise ValueError(f"{statistic.name} has no group kernel (it is a task of the engine)")
    groups = make_groups(human, metric, grouping)
    if groups.n_groups == 0:
        return float("nan")
    vals = statistic.group(groups, epsilon=epsilon or 0.0, threshold=threshold)
    return average_groups(vals, statistic.pooled)
