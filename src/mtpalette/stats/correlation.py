"""Correlation of metric scores with human scores: Pearson, Spearman, Kendall variants,
pairwise accuracy, tie calibration, WMT's "Kendall-like" taus; grouping by item or system.

Conventions (those of mt-metrics-eval):

* Arguments come as ``(gold, metric)``: human scores first. Both are oriented so that higher
  is better; an error metric (WER, TER) is negated by the caller before it gets here, so a
  good error metric has a *positive* correlation.
* Segment-level scores form a matrix ``(S systems, I items)``; a NaN *human* score means
  "not rated" and drops that entry (with its metric score). A NaN metric score is an error.
* ``grouping`` turns the matrix into vectors: ``none`` flattens it into one vector; ``item``
  correlates the systems' scores of each item (segment) and averages over items; ``system``
  correlates each system's scores over items and averages over systems. Groups with fewer
  than two entries are skipped; so are groups whose correlation is undefined (NaN, e.g. a
  constant vector for Pearson) - a plain (macro) average over the rest. ``kendall-like`` is
  the exception: its groups are pooled (micro), ``sum(C - D) / sum(C + D)``, as WMT does.
* System level: average each system's segment scores (:func:`system_means`) and correlate the
  two vectors (``grouping="none"``).

The statistics (:data:`STATISTICS`): Pearson's r and Spearman's rho are computed here, the
Kendall family (tau-b, tau-c, acc-eq / tau-eq, pairwise accuracy, kendall-like) from pair
counts in :mod:`mtpalette.stats.kendall`, which defines each; acc-eq and tau-eq with a
calibrated metric tie threshold in :mod:`mtpalette.stats.tie_calibration`; the matrices and
their groups in :mod:`mtpalette.stats.grouping`.

* relative-ranking tau (WMT12, :func:`rr_kendall`): from human pairwise preferences with
  human ties excluded; a metric tie is discordant (WMT12) or left out.

References
----------
Callison-Burch et al. (2012), Findings of WMT12, section 6 (relative-ranking tau). Reference
implementation: google-research/mt-metrics-eval, ``mt_metrics_eval/stats.py``; scipy.stats.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mtpalette.stats.grouping import Groups, as_vectors, make_groups
from mtpalette.stats.kendall import _tau_c, _tau_from_counts, group_pair_counts, kendall_like_counts
from mtpalette.stats.tie_calibration import tie_calibration

#: statistic names; "kendall" is tau-b
STATISTICS = (
    "pearson",
    "spearman",
    "kendall",
    "kendall-b",
    "kendall-c",
    "kendall-like",
    "acc-eq",
    "tau-eq",
    "pairwise-accuracy",
)
#: statistics computed from pair counts
PAIR_STATISTICS = ("kendall", "kendall-b", "acc-eq", "tau-eq", "pairwise-accuracy")


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


def rr_kendall(better: Any, worse: Any, *, metric_ties: str = "discordant") -> float:
    """Tau of relative-ranking judgments: per human preference pair, the metric scores of the
    preferred and of the other translation.

    ``(C - D) / (C + D)`` with ``C`` the pairs where the metric also prefers the preferred one;
    human ties must be left out by the caller; a metric tie is discordant (WMT12) or, with
    ``metric_ties="exclude"``, not counted.

    Examples
    --------
    >>> rr_kendall([0.9, 0.5, 0.3], [0.1, 0.5, 0.4])  # 1 concordant, 1 tie, 1 discordant
    -0.3333333333333333
    >>> rr_kendall([0.9, 0.5, 0.3], [0.1, 0.5, 0.4], metric_ties="exclude")
    0.0
    """
    b = np.asarray(better, dtype=np.float64).ravel()
    w = np.asarray(worse, dtype=np.float64).ravel()
    if b.shape != w.shape:
        raise ValueError("better and worse need the same length")
    if metric_ties not in ("discordant", "exclude"):
        raise ValueError("metric_ties must be 'discordant' or 'exclude'")
    con = int(np.count_nonzero(b > w))
    tie = int(np.count_nonzero(b == w))
    dis = int(np.count_nonzero(b < w)) + (tie if metric_ties == "discordant" else 0)
    return (con - dis) / (con + dis) if con + dis else float("nan")


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


def group_values(
    groups: Groups, statistic: str, *, epsilon: float = 0.0, threshold: float = 25.0
) -> np.ndarray:
    """The statistic of every group (NaN where undefined), before averaging.

    For ``kendall-like`` the rows are ``[C, D]`` per group (pooled, not averaged).
    """
    statistic = canonical_statistic(statistic)
    if statistic == "pearson":
        if groups.n_groups > 8:
            return _group_pearson_fast(groups)
        return _group_pearson(groups)
    if statistic == "spearman":
        return _group_pearson(groups, ranks=True)
    if statistic == "kendall-c":
        out = np.empty(groups.n_groups)
        counts = group_pair_counts(groups)
        for k in range(groups.n_groups):
            g, m = groups.group(k)
            out[k] = _tau_c(g, m, counts[k])
        return out
    if statistic == "kendall-like":
        out = np.zeros((groups.n_groups, 2))
        for k in range(groups.n_groups):
            g, m = groups.group(k)
            out[k] = kendall_like_counts(g, m, threshold=threshold)
        return out
    counts = group_pair_counts(groups, epsilon=epsilon)
    variant = {"kendall-b": "b", "acc-eq": "acc23", "tau-eq": "23", "pairwise-accuracy": "acc23"}[
        statistic
    ]
    vals = _tau_from_counts(counts, variant)
    if variant == "b":
        total = counts.sum(axis=1)
        degenerate = (counts[:, 2] + counts[:, 4] == total) | (counts[:, 3] + counts[:, 4] == total)
        vals[degenerate] = np.nan
    return vals


def average_groups(values: np.ndarray, statistic: str, weights: np.ndarray | None = None) -> float:
    """Average of group values: macro over defined groups; pooled for ``kendall-like``."""
    if canonical_statistic(statistic) == "kendall-like":
        v = values.reshape(-1, 2)
        w = np.ones(len(v)) if weights is None else weights
        con, dis = (w[:, None] * v).sum(axis=0)
        return float((con - dis) / (con + dis)) if con + dis else 0.0
    v = np.asarray(values, dtype=np.float64)
    w = np.ones(v.size) if weights is None else np.asarray(weights, dtype=np.float64)
    ok = ~np.isnan(v)
    den = w[ok].sum()
    return float((w[ok] * v[ok]).sum() / den) if den > 0 else float("nan")


def canonical_statistic(statistic: str) -> str:
    """The canonical name of a statistic (``kendall`` is ``kendall-b``).

    Examples
    --------
    >>> canonical_statistic("kendall")
    'kendall-b'
    """
    if statistic not in STATISTICS:
        raise ValueError(
            f"unknown statistic {statistic!r}; expected one of {', '.join(STATISTICS)}"
        )
    return "kendall-b" if statistic == "kendall" else statistic


def correlation(
    human: Any,
    metric: Any,
    statistic: str = "pearson",
    *,
    grouping: str = "none",
    epsilon: float | None = 0.0,
    threshold: float = 25.0,
) -> float:
    """One correlation of metric with human scores, grouped and averaged.

    Parameters
    ----------
    human, metric:
        Vectors, or ``(systems, items)`` matrices; NaN human scores mark unrated entries.
    statistic:
        One of :data:`STATISTICS`.
    grouping:
        ``none``, ``item`` or ``system`` (see the module docstring).
    epsilon:
        Metric tie threshold of ``acc-eq`` / ``tau-eq``; ``None`` calibrates it
        (:func:`tie_calibration`).
    threshold:
        Minimum human score difference of a ``kendall-like`` pair.

    Examples
    --------
    >>> h = [[1.0, 2.0, 3.0], [2.0, 2.0, 1.0]]
    >>> m = [[0.1, 0.3, 0.2], [0.2, 0.2, 0.1]]
    >>> round(correlation(h, m, "kendall", grouping="system"), 6)  # mean of 1/3 and 1
    0.666667
    """
    statistic = canonical_statistic(statistic)
    if statistic in ("acc-eq", "tau-eq") and epsilon is None:
        variant = "acc23" if statistic == "acc-eq" else "23"
        return tie_calibration(human, metric, grouping=grouping, variant=variant).value
    groups = make_groups(human, metric, grouping)
    if groups.n_groups == 0:
        return float("nan")
    vals = group_values(groups, statistic, epsilon=epsilon or 0.0, threshold=threshold)
    return average_groups(vals, statistic)
