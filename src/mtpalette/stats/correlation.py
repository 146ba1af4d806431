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
  and reported with it;
* pairwise accuracy (Kocmi et al. 2021): the share of system pairs ordered the same way by
  metric and humans, ``sign`` equality, so a pair tied by both counts as agreement; it equals
  acc-eq with ``epsilon = 0``;
* kendall-like (WMT DARR, 2017-2020): only pairs whose gold scores differ by at least
  ``threshold`` (25 DA points) count; concordant when the metric orders them like gold
  (strictly), discordant otherwise (a metric tie is discordant); tau = ``(C - D) / (C + D)``;
* relative-ranking tau (WMT12, :func:`rr_kendall`): from human pairwise preferences with
  human ties excluded; a metric tie is discordant (WMT12) or left out.

Kendall counts take ``O(n log n)`` time for large vectors (a merge count of inversions in the
Rust core, with a plain-Python twin for tests) and are computed for all small groups at once
by broadcasting. (:mod:`mtpalette.kernels.concordance` is the one dependency of this module
besides numpy and scipy: the bootstrap and permutation tests recount pairs thousands of times.)

References
----------
Kendall (1945), The treatment of ties in ranking problems (tau-b); Stuart (1953) (tau-c).
Deutsch, Foster and Freitag (2023), Ties Matter: Meta-Evaluating Modern Metrics with Pairwise
Accuracy and Tie Calibration (acc-eq, tie calibration). Kocmi et al. (2021), To Ship or Not
to Ship (pairwise accuracy). Callison-Burch et al. (2012), Findings of WMT12, section 6
(relative-ranking tau). Mathur et al. (2020), Results of the WMT20 Metrics Shared Task
(Kendall-like tau on DARR). Reference implementation: google-research/mt-metrics-eval,
``mt_metrics_eval/stats.py`` and ``tau_optimization.py``; scipy.stats.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mtpalette.kernels import concordance
from mtpalette.kernels.ragged import Delimited

GROUPINGS = ("none", "item", "system")
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
#: groups up to this size are counted by broadcasting, larger ones by merge counting
_SMALL_GROUP = 64
#: tie calibration enumerates pairs; refuse beyond this many
MAX_CALIBRATION_PAIRS = 5_000_000


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


@dataclass(frozen=True)
class TieCalibration:
    """A tie-calibrated statistic: its value at the best metric tie threshold ``epsilon``."""

    value: float
    epsilon: float
    variant: str
    n_groups: int
    n_pairs: int


# ----------------------------------------------------------------------------------------
# vectors
# ----------------------------------------------------------------------------------------
def _vectors(gold: Any, metric: Any) -> tuple[np.ndarray, np.ndarray]:
    g = np.asarray(gold, dtype=np.float64).ravel()
    m = np.asarray(metric, dtype=np.float64).ravel()
    if g.shape != m.shape:
        raise ValueError(f"gold and metric need the same length, got {g.size} and {m.size}")
    if not (np.isfinite(g).all() and np.isfinite(m).all()):
        raise ValueError("scores must be finite (drop unrated entries first)")
    return g, m


def pearson(gold: Any, metric: Any) -> float:
    """Pearson's r; NaN when a vector is constant or has fewer than 2 entries.

    Examples
    --------
    >>> round(pearson([1, 2, 3, 4], [2, 4, 6, 9]), 6)
    0.994377
    >>> import math; math.isnan(pearson([1, 1, 1], [1, 2, 3]))
    True
    """
    g, m = _vectors(gold, metric)
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
    g, m = _vectors(gold, metric)
    if g.size < 2 or _constant(g) or _constant(m):
        return float("nan")
    return pearson(average_ranks(g), average_ranks(m))


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
    g, m = _vectors(gold, metric)
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
    g, m = _vectors(gold, metric)
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
    g, m = _vectors(gold, metric)
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
    g, m = _vectors(gold, metric)
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


# ----------------------------------------------------------------------------------------
# grouping
# ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Groups(Delimited):
    """The rated entries of a ``(S, I)`` matrix, group after group.

    ``gold[offsets[k]:offsets[k + 1]]`` and ``metric[...]`` are group ``k``; ``labels[k]`` is
    its row (``system``) or column (``item``) index, or 0 (``none``); ``entries`` holds each
    value's flat index in the matrix.
    """

    gold: np.ndarray
    metric: np.ndarray
    offsets: np.ndarray
    labels: np.ndarray
    entries: np.ndarray
    grouping: str

    def group(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        lo, hi = self.offsets[k], self.offsets[k + 1]
        return self.gold[lo:hi], self.metric[lo:hi]


def check_grouping(grouping: str) -> str:
    if grouping not in GROUPINGS:
        raise ValueError(f"unknown grouping {grouping!r}; expected one of {', '.join(GROUPINGS)}")
    return grouping


def as_matrix(x: Any) -> np.ndarray:
    """A float64 2-D matrix; a vector becomes one row (a single system / system level)."""
    a = np.asarray(x, dtype=np.float64)
    if a.ndim == 1:
        a = a[None, :]
    if a.ndim != 2:
        raise ValueError("scores must be a vector or a (systems, items) matrix")
    return a


def as_matrices(human: Any, *metrics: Any) -> tuple[np.ndarray, ...]:
    """``human`` and each of ``metrics`` by :func:`as_matrix`, all of one shape.

    Examples
    --------
    >>> [m.shape for m in as_matrices([1, 2, 3], [3, 2, 1], [0, 0, 1])]
    [(1, 3), (1, 3), (1, 3)]
    """
    out = tuple(as_matrix(x) for x in (human, *metrics))
    if any(m.shape != out[0].shape for m in out[1:]):
        raise ValueError("human and metric scores must have the same shape")
    return out


def make_groups(human: Any, metric: Any, grouping: str = "none", *, min_size: int = 2) -> Groups:
    """Split matrices into the groups of ``grouping``, dropping unrated (NaN human) entries.

    Groups with fewer than ``min_size`` entries are dropped.

    Examples
    --------
    >>> h = [[1.0, 2.0, np.nan], [3.0, 1.0, 2.0]]
    >>> m = [[0.1, 0.2, 0.3], [0.3, 0.1, 0.2]]
    >>> g = make_groups(h, m, "item")
    >>> g.labels.tolist(), g.sizes.tolist()  # item 2 has one rating: dropped
    ([0, 1], [2, 2])
    """
    check_grouping(grouping)
    h = as_matrix(human)
    m = as_matrix(metric)
    if h.shape != m.shape:
        raise ValueError(f"human {h.shape} and metric {m.shape} shapes differ")
    rated = ~np.isnan(h)
    if not np.isfinite(m[rated]).all():
        raise ValueError("the metric has a NaN or infinite score where a human score exists")
    if np.isinf(h).any():
        raise ValueError("human scores must be finite or NaN (unrated)")
    flat = np.arange(h.size, dtype=np.int64).reshape(h.shape)
    if grouping == "item":
        h, m, rated, flat = h.T, m.T, rated.T, flat.T
    if grouping == "none":
        h, m, rated, flat = (a.reshape(1, -1) for a in (h, m, rated, flat))
    sizes = rated.sum(axis=1)
    keep = sizes >= min_size
    h, m, rated, flat = h[keep], m[keep], rated[keep], flat[keep]
    labels = np.flatnonzero(keep)
    offsets = np.zeros(len(labels) + 1, dtype=np.int64)
    np.cumsum(sizes[keep], out=offsets[1:])
    return Groups(h[rated], m[rated], offsets, labels, flat[rated], grouping)


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


def system_means(scores: Any, weights: Any | None = None) -> np.ndarray:
    """Each system's mean over its rated items (NaN ignored); ``weights`` per item.

    Examples
    --------
    >>> system_means([[1.0, 3.0, np.nan], [2.0, 2.0, 5.0]]).tolist()
    [2.0, 3.0]
    """
    s = as_matrix(scores)
    rated = ~np.isnan(s)
    w = np.ones(s.shape[1]) if weights is None else np.asarray(weights, dtype=np.float64)
    num = np.where(rated, s, 0.0) @ w
    den = rated.astype(np.float64) @ w
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / den, np.nan)


# ----------------------------------------------------------------------------------------
# tie calibration
# ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PairEvents:
    """Every pair of every group, sorted by the metric difference, for tie calibration.

    ``delta[e]`` is how the pair's "correct" indicator (concordant or tied in both) changes
    when the metric is made to tie it: -1 (a concordant pair whose gold differs), +1 (a pair
    tied in gold only), 0 otherwise. ``group[e]`` is its group; ``base[k]`` the number of
    correct pairs of group ``k`` without new ties, ``n_pairs[k]`` its number of pairs.
    """

    diff: np.ndarray
    delta: np.ndarray
    group: np.ndarray
    base: np.ndarray
    n_pairs: np.ndarray
    counts: np.ndarray


def pair_events(groups: Groups) -> PairEvents:
    """The sorted pair events of :func:`tie_calibration` (``O(pairs)`` memory)."""
    sizes = groups.sizes
    n_pairs = sizes * (sizes - 1) // 2
    total = int(n_pairs.sum())
    if total > MAX_CALIBRATION_PAIRS:
        raise ValueError(
            f"tie calibration would enumerate {total:,} pairs (limit "
            f"{MAX_CALIBRATION_PAIRS:,}); group by item or system"
        )
    diff = np.empty(total)
    delta = np.empty(total, dtype=np.int8)
    group = np.empty(total, dtype=np.int64)
    rank = np.empty(total, dtype=np.int64)  # row-major position of the pair
    counts = np.zeros((groups.n_groups, 5), dtype=np.int64)
    first_pair = np.r_[0, np.cumsum(n_pairs)[:-1]]
    pos = 0
    # groups of equal size share one pair index set
    for size in np.unique(sizes):
        ks = np.flatnonzero(sizes == size)
        iu, ju = np.triu_indices(int(size), k=1)
        starts = groups.offsets[ks][:, None]
        gi, gj = groups.gold[starts + iu], groups.gold[starts + ju]
        mi, mj = groups.metric[starts + iu], groups.metric[starts + ju]
        dg = gi - gj
        dm = mi - mj
        tie_g = dg == 0.0
        tie_m = dm == 0.0
        con = ~tie_g & ~tie_m & ((dg > 0) == (dm > 0))
        correct_before = con | (tie_g & tie_m)
        d = tie_g.astype(np.int8) - correct_before.astype(np.int8)
        m = dg.size
        diff[pos : pos + m] = np.abs(dm).ravel()
        delta[pos : pos + m] = d.ravel()
        group[pos : pos + m] = np.repeat(ks, iu.size)
        rank[pos : pos + m] = (first_pair[ks][:, None] + np.arange(iu.size)).ravel()
        counts[ks, 0] = con.sum(axis=1)
        counts[ks, 1] = (~tie_g & ~tie_m & ~con).sum(axis=1)
        counts[ks, 2] = (tie_g & ~tie_m).sum(axis=1)
        counts[ks, 3] = (~tie_g & tie_m).sum(axis=1)
        counts[ks, 4] = (tie_g & tie_m).sum(axis=1)
        pos += m
    # by difference, then in row-major pair order: mt-metrics-eval's stable sort of its pairs
    order = np.lexsort((rank, diff))
    base = counts[:, 0] + counts[:, 4]
    return PairEvents(diff[order], delta[order], group[order], base, n_pairs, counts)


def calibrate(
    events: PairEvents, variant: str = "acc23", weights: np.ndarray | None = None
) -> tuple[float, float]:
    """Best ``(value, epsilon)``: the macro average over groups of acc-eq (``acc23``) or
    tau-eq (``23``) when every pair with ``|metric diff| <= epsilon`` is a metric tie.

    ``weights`` (per group, e.g. bootstrap counts) weight the average. Candidate thresholds
    are 0 and every pair's difference; the smallest best threshold is returned.
    """
    thresholds, values = calibration_curve(events, variant, weights)
    if values.size == 0:
        return float("nan"), 0.0
    best = int(np.nanargmax(values))
    return float(values[best]), float(thresholds[best])


def calibration_curve(
    events: PairEvents, variant: str = "acc23", weights: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The whole tie-calibration curve: every candidate threshold and the statistic there.

    Thresholds are 0 and every distinct pair difference, increasing (mt-metrics-eval's
    ``TauOptimizationResult.thresholds`` / ``taus``); empty when no group has a pair.
    """
    if variant not in ("acc23", "23"):
        raise ValueError("tie calibration supports the variants 'acc23' and '23'")
    has = events.n_pairs > 0
    w = np.ones(len(events.n_pairs)) if weights is None else np.asarray(weights, np.float64)
    w = np.where(has, w, 0.0)
    den = w.sum()
    if den == 0:
        return np.zeros(0), np.zeros(0)
    last = np.r_[events.diff[1:] != events.diff[:-1], True]
    thresholds = np.r_[0.0, events.diff[last]]
    if weights is None:
        values = _mtme_running_curve(events, variant, has)[np.r_[0, 1 + np.flatnonzero(last)]]
        if thresholds.size > 1 and thresholds[1] == 0.0:
            thresholds, values = thresholds[1:], values[1:]
        return thresholds, values
    scale = np.zeros_like(w)
    scale[has] = w[has] / events.n_pairs[has]
    if variant == "acc23":
        start = float((scale * events.base).sum())
        step = events.delta * scale[events.group]
    else:
        start = float((scale * (2 * events.base - events.n_pairs)).sum())
        step = 2.0 * events.delta * scale[events.group]
    curve = start + np.cumsum(step)
    # value at a threshold = after the last pair with that difference
    values = np.r_[start, curve[last]] / den
    if thresholds.size > 1 and thresholds[1] == 0.0:  # exact ties were already ties
        thresholds, values = thresholds[1:], values[1:]
    return thresholds, values


def _mtme_running_curve(events: PairEvents, variant: str, has: np.ndarray) -> np.ndarray:
    """The statistic before any new tie and after each pair event, with mt-metrics-eval's
    floating-point operations: a running sum of per-group values, each event subtracting its
    group's old value and adding the new one (``tau_optimization``). Values that tie in exact
    arithmetic then compare (and rank metrics) as they do there. (The starting sum is
    sequential, as Python's ``sum`` before 3.12; from 3.12 on, ``sum`` compensates rounding,
    so mt-metrics-eval run there may differ in the last bit.)"""
    n = events.n_pairs
    num_rows = int(has.sum())

    def tau(correct: np.ndarray, pairs: np.ndarray) -> np.ndarray:
        num = correct if variant == "acc23" else 2 * correct - pairs
        return num / pairs

    start = np.cumsum(tau(events.base[has], n[has]))[-1]
    g = events.group
    # each event's group count of correct pairs after it: base + running delta in the group
    by_group = np.argsort(g, kind="stable")
    cs = np.cumsum(events.delta[by_group].astype(np.int64))
    sizes = np.bincount(g, minlength=len(n))
    group_start = np.r_[0, np.cumsum(sizes)[:-1]]
    before_group = np.r_[0, cs][group_start]
    incl = np.empty_like(cs)
    incl[by_group] = cs - np.repeat(before_group, sizes)
    after = events.base[g] + incl
    before = after - events.delta
    seq = np.empty(2 * g.size + 1)
    seq[0] = start
    seq[1::2] = -tau(before, n[g])
    seq[2::2] = tau(after, n[g])
    running = np.cumsum(seq)
    return np.r_[running[0], running[2::2]] / num_rows


def tie_calibration(
    human: Any, metric: Any, *, grouping: str = "none", variant: str = "acc23"
) -> TieCalibration:
    """acc-eq or tau-eq with the metric tie threshold that maximises it (Deutsch et al. 2023).

    Examples
    --------
    >>> # the metric's small differences are noise: calling them ties helps
    >>> h = [1.0, 1.0, 2.0, 3.0]
    >>> m = [0.50, 0.51, 0.80, 0.90]
    >>> round(kendall(h, m, "acc23"), 6), round(tie_calibration(h, m).value, 6)
    (0.833333, 1.0)
    >>> round(tie_calibration(h, m).epsilon, 6)
    0.01
    """
    groups = make_groups(human, metric, grouping)
    events = pair_events(groups)
    value, eps = calibrate(events, variant)
    return TieCalibration(value, eps, variant, groups.n_groups, int(events.n_pairs.sum()))


@dataclass(frozen=True)
class CalibrationCurve:
    """Every candidate metric tie threshold and the tie-calibrated statistic there; the best
    point is the first maximum (mt-metrics-eval's ``TauOptimizationResult``)."""

    thresholds: np.ndarray
    values: np.ndarray
    best_threshold: float
    best_value: float
    variant: str


def _sampled_pair_events(groups: Groups, rate: float, stream: np.random.RandomState) -> PairEvents:
    """Pair events of a random subset of pairs: group by group, pair ``(i, j)``, ``i < j``,
    in order, each kept when a uniform draw is ``<= rate`` (mt-metrics-eval's
    ``_enumerate_pairs``); groups left without a pair are dropped."""
    diffs, deltas, gids, counts = [], [], [], []
    for k in range(groups.n_groups):
        g, m = groups.group(k)
        iu, ju = np.triu_indices(g.size, 1)
        keep = stream.random_sample(iu.size) <= rate
        iu, ju = iu[keep], ju[keep]
        dg, dm = g[iu] - g[ju], m[iu] - m[ju]
        tie_g, tie_m = dg == 0.0, dm == 0.0
        con = ~tie_g & ~tie_m & ((dg > 0) == (dm > 0))
        correct = con | (tie_g & tie_m)
        diffs.append(np.abs(dm))
        deltas.append(tie_g.astype(np.int8) - correct.astype(np.int8))
        gids.append(np.full(iu.size, len(counts)))
        counts.append(
            [con.sum(), (~tie_g & ~tie_m & ~con).sum(), (tie_g & ~tie_m).sum(),
             (~tie_g & tie_m).sum(), (tie_g & tie_m).sum()]
        )  # fmt: skip
        if not iu.size:
            counts.pop()
            gids.pop()
            diffs.pop()
            deltas.pop()
    c = np.asarray(counts, dtype=np.int64).reshape(-1, 5)
    diff = np.concatenate(diffs) if diffs else np.zeros(0)
    order = np.argsort(diff, kind="stable")
    cat = lambda xs, t: np.concatenate(xs).astype(t) if xs else np.zeros(0, t)  # noqa: E731
    return PairEvents(
        diff[order], cat(deltas, np.int8)[order], cat(gids, np.int64)[order],
        c[:, 0] + c[:, 4], c.sum(axis=1), c,
    )  # fmt: skip


def tie_calibration_curve(
    human: Any,
    metric: Any,
    *,
    grouping: str = "none",
    variant: str = "acc23",
    sample_rate: float = 1.0,
    seed: int | np.random.RandomState | None = None,
) -> CalibrationCurve:
    """The whole threshold curve of tie calibration, not only its best point.

    ``sample_rate < 1`` calibrates on a random subset of the pairs, drawn from a legacy
    ``RandomState(seed)`` as mt-metrics-eval draws them from numpy's global state.

    Examples
    --------
    >>> c = tie_calibration_curve([1, 2, 2, 3, 4], [2, 1, 1.5, 5, 3])
    >>> c.thresholds.tolist()
    [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 3.5, 4.0]
    >>> c.values.tolist()  # mt-metrics-eval's tau_optimization gives the same
    [0.6, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1]
    >>> c.best_threshold, c.best_value
    (0.5, 0.7)
    """
    if not 0.0 < sample_rate <= 1.0:
        raise ValueError(f"sample_rate must be in (0, 1], got {sample_rate}")
    groups = make_groups(human, metric, grouping)
    if sample_rate == 1.0:
        events = pair_events(groups)
    else:
        stream = seed if isinstance(seed, np.random.RandomState) else np.random.RandomState(seed)
        events = _sampled_pair_events(groups, sample_rate, stream)
    thresholds, values = calibration_curve(events, variant)
    if values.size == 0:
        return CalibrationCurve(thresholds, values, 0.0, float("nan"), variant)
    best = int(np.nanargmax(values))
    return CalibrationCurve(
        thresholds, values, float(thresholds[best]), float(values[best]), variant
    )
