"""The Kendall family of correlations, from pair counts: tau-b, tau-c, acc-eq and tau-eq,
pairwise accuracy and WMT's "Kendall-like" tau. The conventions (argument order, orientation,
unrated entries, grouping) are those of :mod:`mtpalette.stats.correlation`.

Pair counts (Kendall family), for a pair of entries ``i < j``: *concordant* when gold and
metric order them the same way, *discordant* when the opposite way, ``ties_gold`` when only
gold ties, ``ties_metric`` when only the metric ties, ``ties_both`` when both tie. A metric
tie is ``|m_i - m_j| <= epsilon`` (``epsilon = 0``: equality); a gold tie is equality.

* tau-b = ``(C - D) / sqrt((N - Tm) (N - Tg))`` with ``Tm``, ``Tg`` all pairs tied in metric
  / gold (including those tied in both), ``N`` all pairs (scipy, mt-metrics-eval);
* tau-c = ``2 (C - D) / (n^2 (m - 1) / m)``, ``m`` the smaller number of distinct values;
* acc-eq = ``(C + T_both) / N`` and tau-eq = ``(C + T_both - D - T_gold - T_metric) / N``
  (Deutsch et al. 2023, "acc23" / "tau23" in mt-metrics-eval); with *tie calibration* the
  metric tie threshold ``epsilon`` is chosen to maximise the statistic (averaged over groups)
  and reported with it (:mod:`mtpalette.stats.tie_calibration`);
* pairwise accuracy (Kocmi et al. 2021): the share of system pairs ordered the same way by
  metric and humans, ``sign`` equality, so a pair tied by both counts as agreement; it equals
  acc-eq with ``epsilon = 0``;
* kendall-like (WMT DARR, 2017-2020): only pairs whose gold scores differ by at least
  ``threshold`` (25 DA points) count; concordant when the metric orders them like gold
  (strictly), discordant otherwise (a metric tie is discordant); tau = ``(C - D) / (C + D)``.

Kendall counts take ``O(n log n)`` time for large vectors (a merge count of inversions in the
Rust core, with a plain-Python twin for tests) and are computed for all small groups at once
by broadcasting. (:mod:`mtpalette.kernels.concordance` holds the compiled counts: the bootstrap
and permutation tests recount pairs thousands of times.)

References
----------
Kendall (1945), The treatment of ties in ranking problems (tau-b); Stuart (1953) (tau-c).
Deutsch, Foster and Freitag (2023), Ties Matter: Meta-Evaluating Modern Metrics with Pairwise
Accuracy and Tie Calibration (acc-eq). Kocmi et al. (2021), To Ship or Not to Ship (pairwise
accuracy). Mathur et al. (2020), Results of the WMT20 Metrics Shared Task (Kendall-like tau on
DARR). Reference implementation: google-research/mt-metrics-eval, ``mt_metrics_eval/stats.py``;
scipy.stats.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mtpalette.kernels import concordance
from mtpalette.stats.grouping import Groups, as_vectors

#: groups up to this size are counted by broadcasting, larger ones by merge counting
_SMALL_GROUP = 64


@dataclass(frozen=True)
class PairCounts:
    """Kendall sufficient statistics of two vectors (see the module docstring).

    Examples
    --------
    >>> c = pair_counts([1, 2, 2, 3], [1, 1, 2, 3])
    >>> c.concordant, c.discordant, c.ties_gold, c.ties_metric, c.ties_both, c.n_pairs
    (4, 0, 1, 1, 0, 6)
    """

    concordant: int
    discordant: int
    ties_gold: int
    ties_metric: int
    ties_both: int

    @property
    def n_pairs(self) -> int:
        return (
            self.concordant + self.discordant + self.ties_gold + self.ties_metric + self.ties_both
        )

    def as_array(self) -> np.ndarray:
        return np.array(
            [self.concordant, self.discordant, self.ties_gold, self.ties_metric, self.ties_both],
            dtype=np.int64,
        )


def dense_ranks(x: np.ndarray) -> np.ndarray:
    """0-based dense ranks (equal values share a rank)."""
    return np.unique(x, return_inverse=True)[1].reshape(-1).astype(np.int64)


def count_inversions(a: Any) -> int:
    """Number of pairs ``i < j`` with ``a[i] > a[j]`` (a merge count, ``O(n log n)``).

    Examples
    --------
    >>> count_inversions([3, 1, 2, 2, 0])
    7
    """
    v = np.asarray(a)
    if v.size < 2:
        return 0
    return int(inversions_per_element(v).sum())


def inversions_per_element(r: Any) -> np.ndarray:
    """For each ``j``, the number of ``i < j`` with ``r[i] > r[j]`` (``O(n log n)``).

    Examples
    --------
    >>> inversions_per_element(np.array([3, 1, 2, 2, 0])).tolist()
    [0, 1, 1, 1, 4]
    """
    v = np.ascontiguousarray(np.asarray(r, dtype=np.float64).ravel())
    return concordance.inversions_per_element(v)


def inversions_slow(r: Any) -> np.ndarray:
    """Plain-Python twin of :func:`inversions_per_element` (``O(n^2)``), for tests."""
    v = [float(x) for x in np.asarray(r).ravel()]
    return np.array(
        [sum(1 for i in range(j) if v[i] > v[j]) for j in range(len(v))], dtype=np.int64
    )


def grouped_pair_counts_merge(
    g: np.ndarray, m: np.ndarray, gid: np.ndarray, n_groups: int
) -> np.ndarray:
    """``(G, 5)`` pair counts of every group (``gid``: group of each entry), ``O(n log n)``.

    Sorting by (group, gold, metric) leaves no inversion inside a gold tie; the merge count
    of each group's metric values is then its number of discordant pairs. Slow twin:
    :func:`_pair_counts_matrix`.
    """
    order = np.lexsort((m, g, gid))
    sizes = np.bincount(gid, minlength=n_groups)
    offsets = np.zeros(n_groups + 1, dtype=np.int64)
    np.cumsum(sizes, out=offsets[1:])
    return concordance.grouped_pair_counts(
        np.ascontiguousarray(g[order], dtype=np.float64),
        np.ascontiguousarray(m[order], dtype=np.float64),
        offsets,
    )


def _pair_counts_merge(g: np.ndarray, m: np.ndarray) -> np.ndarray:
    return grouped_pair_counts_merge(g, m, np.zeros(g.size, dtype=np.int64), 1)[0]


def _pair_counts_matrix(g: np.ndarray, m: np.ndarray, epsilon: float) -> np.ndarray:
    """Slow twin of the compiled counts: numpy over all pairs, in row blocks (``O(n^2)``)."""
    n = g.size
    out = np.zeros(5, dtype=np.int64)
    step = max(1, 2_000_000 // max(n, 1))
    for lo in range(0, n, step):
        hi = min(n, lo + step)
        dg = g[lo:hi, None] - g[None, :]
        dm = m[lo:hi, None] - m[None, :]
        upper = np.arange(lo, hi)[:, None] < np.arange(n)[None, :]
        out += _classify(dg, dm, upper, epsilon)
    return out


def _classify(dg: np.ndarray, dm: np.ndarray, valid: np.ndarray, epsilon: float) -> np.ndarray:
    tie_g = dg == 0.0
    tie_m = np.abs(dm) <= epsilon
    both = valid & tie_g & tie_m
    only_g = valid & tie_g & ~tie_m
    only_m = valid & ~tie_g & tie_m
    rest = valid & ~tie_g & ~tie_m
    con = rest & ((dg > 0) == (dm > 0))
    dis = rest & ~con
    return np.array([con.sum(), dis.sum(), only_g.sum(), only_m.sum(), both.sum()], dtype=np.int64)


def pair_counts(gold: Any, metric: Any, *, epsilon: float = 0.0) -> PairCounts:
    """Concordant, discordant and tied pairs of two vectors.

    Parameters
    ----------
    gold, metric:
        Vectors of the same length.
    epsilon:
        Metric scores closer than or equal to this count as tied (0: exact ties only).

    Examples
    --------
    >>> pair_counts([1, 2, 3], [0.0, 0.05, 1.0], epsilon=0.1).ties_metric
    1
    """
    g, m = as_vectors(gold, metric)
    if epsilon < 0:
        raise ValueError("epsilon must be non-negative")
    if epsilon == 0.0 and g.size > _SMALL_GROUP:
        counts = _pair_counts_merge(g, m)
    else:
        out = concordance.pairwise_counts(
            np.ascontiguousarray(g, dtype=np.float64),
            np.ascontiguousarray(m, dtype=np.float64),
            np.array([0, g.size], dtype=np.int64),
            np.ones(1, dtype=np.bool_),
            float(epsilon),
        )
        counts = out[0]
    return PairCounts(*(int(c) for c in counts))


def _tau_from_counts(counts: np.ndarray, variant: str) -> np.ndarray:
    """Taus from rows of counts ``[C, D, Tg, Tm, Tb]`` (NaN where undefined)."""
    c = np.asarray(counts, dtype=np.float64).reshape(-1, 5)
    con, dis, tg, tm, tb = c.T
    total = c.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        if variant == "b":
            den = np.sqrt(total - (tm + tb)) * np.sqrt(total - (tg + tb))
            out = np.where(den > 0, (con - dis) / den, np.nan)
        elif variant == "23":
            out = np.where(total > 0, (con + tb - dis - tg - tm) / total, np.nan)
        elif variant == "acc23":
            out = np.where(total > 0, (con + tb) / total, np.nan)
        else:
            raise ValueError(f"unknown Kendall variant {variant!r}")
    return out


def kendall(gold: Any, metric: Any, variant: str = "b", *, epsilon: float = 0.0) -> float:
    """Kendall's tau: ``b``, ``c``, or Deutsch et al.'s ``23`` (tau-eq) / ``acc23`` (acc-eq).

    NaN when undefined (tau-b/c with a constant vector; fewer than 2 entries).

    Examples
    --------
    >>> round(kendall([1, 2, 2, 3], [1, 1, 2, 3]), 6)  # 4 concordant, 1 tie each side
    0.8
    >>> kendall([1, 2, 2, 3], [1, 1, 2, 3], "acc23")  # (C + T_both) / N = 4 / 6
    0.6666666666666666
    """
    g, m = as_vectors(gold, metric)
    if variant == "c":
        if epsilon != 0.0:
            raise ValueError("tau-c is not defined with a metric tie threshold")
        return _tau_c(g, m, pair_counts(g, m).as_array())
    if g.size < 2:
        return float("nan")
    counts = pair_counts(g, m, epsilon=epsilon).as_array()
    if variant == "b" and (
        counts[2] + counts[4] == counts.sum() or counts[3] + counts[4] == counts.sum()
    ):
        return float("nan")
    return float(_tau_from_counts(counts, variant)[0])


def _tau_c(g: np.ndarray, m: np.ndarray, counts: np.ndarray) -> float:
    n = g.size
    if n < 2:
        return float("nan")
    classes = min(np.unique(g).size, np.unique(m).size)
    if classes < 2:
        return float("nan")
    return float(2.0 * (counts[0] - counts[1]) / (n * n * (classes - 1) / classes))


def pairwise_accuracy(gold: Any, metric: Any) -> float:
    """Share of pairs that metric and humans order the same way (``sign`` equality).

    A pair tied in both counts as agreement, a pair tied in one only as disagreement (as
    mt-metrics-eval's ``Agreement``). Used at system level (Kocmi et al. 2021).

    Examples
    --------
    >>> pairwise_accuracy([3, 2, 1], [30, 10, 20])  # (3,2) and (3,1) agree, (2,1) does not
    0.6666666666666666
    """
    g, m = as_vectors(gold, metric)
    if g.size < 2:
        return float("nan")
    dg = np.sign(g[:, None] - g[None, :])
    dm = np.sign(m[:, None] - m[None, :])
    upper = np.triu(np.ones((g.size, g.size), dtype=bool), k=1)
    return float((dg == dm)[upper].mean())


def kendall_like_counts(gold: Any, metric: Any, *, threshold: float = 25.0) -> tuple[int, int]:
    """WMT DARR pairs: ``(concordant, discordant)`` over pairs with ``|gold diff| >= threshold``.

    A metric tie is discordant (WMT20's "Kendall-like" tau, as mt-metrics-eval).

    Examples
    --------
    >>> kendall_like_counts([0, 30, 100], [0.1, 0.1, 0.9], threshold=25)
    (2, 1)
    """
    g, m = as_vectors(gold, metric)
    n = g.size
    if n < 2:
        return 0, 0
    iu, ju = np.triu_indices(n, k=1)
    dg = g[iu] - g[ju]
    dm = m[iu] - m[ju]
    use = np.abs(dg) >= threshold
    con = use & (((dg > 0) & (dm > 0)) | ((dg < 0) & (dm < 0)))
    return int(con.sum()), int(use.sum() - con.sum())


def kendall_like(gold: Any, metric: Any, *, threshold: float = 25.0) -> float:
    """WMT's DARR "Kendall-like" tau ``(C - D) / (C + D)`` (0 when no pair qualifies).

    Examples
    --------
    >>> kendall_like([0, 30, 100], [0.1, 0.1, 0.9], threshold=25)
    0.3333333333333333
    """
    con, dis = kendall_like_counts(gold, metric, threshold=threshold)
    return (con - dis) / (con + dis) if con + dis else 0.0


def group_pair_counts(groups: Groups, *, epsilon: float = 0.0) -> np.ndarray:
    """``(G, 5)`` pair counts ``[C, D, T_gold, T_metric, T_both]`` of every group.

    Small groups (and any group when ``epsilon > 0``) enumerate their pairs in a compiled
    loop; larger ones use merge counting.
    """
    sizes = groups.sizes
    out = np.zeros((groups.n_groups, 5), dtype=np.int64)
    small = (sizes <= _SMALL_GROUP) | (epsilon > 0)
    if small.any():
        out += concordance.pairwise_counts(
            np.ascontiguousarray(groups.gold, dtype=np.float64),
            np.ascontiguousarray(groups.metric, dtype=np.float64),
            np.ascontiguousarray(groups.offsets, dtype=np.int64),
            np.ascontiguousarray(small, dtype=np.bool_),
            float(epsilon),
        )
    large = np.flatnonzero(~small)
    if large.size:
        gid_all = np.repeat(np.arange(groups.n_groups), sizes)
        sel = ~small[gid_all]
        out[large] = grouped_pair_counts_merge(
            groups.gold[sel], groups.metric[sel], gid_all[sel], groups.n_groups
        )[large]
    return out
