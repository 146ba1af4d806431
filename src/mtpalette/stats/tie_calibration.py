"""Tie calibration (Deutsch et al. 2023): acc-eq or tau-eq with the metric tie threshold
``epsilon`` chosen to maximise the statistic (averaged over groups) and reported with it; and
the whole curve of the statistic over every candidate threshold.

A pair is a metric tie when ``|m_i - m_j| <= epsilon`` (the pair counts and both statistics are
defined in :mod:`mtpalette.stats.kendall`). Every pair of every group is enumerated once,
sorted by its metric difference (:func:`pair_events`), and the statistic is swept over the
thresholds in one pass (:func:`calibration_curve`).

References
----------
Deutsch, Foster and Freitag (2023), Ties Matter: Meta-Evaluating Modern Metrics with Pairwise
Accuracy and Tie Calibration. Reference implementation: google-research/mt-metrics-eval,
``mt_metrics_eval/tau_optimization.py``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from mtpalette.stats.grouping import Groups, as_matrix, make_groups

#: tie calibration enumerates pairs; refuse beyond this many
MAX_CALIBRATION_PAIRS = 5_000_000


@dataclass(frozen=True)
class TieCalibration:
    """A tie-calibrated statistic: its value at the best metric tie threshold ``epsilon``."""

    value: float
    epsilon: float
    variant: str
    n_groups: int
    n_pairs: int


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


def _pair_counts(sizes: np.ndarray) -> tuple[np.ndarray, int]:
    """Each group's number of pairs and their total, refused above the enumeration limit."""
    n_pairs = sizes * (sizes - 1) // 2
    total = int(n_pairs.sum())
    if total > MAX_CALIBRATION_PAIRS:
        raise ValueError(
            f"tie calibration would enumerate {total:,} pairs (limit "
            f"{MAX_CALIBRATION_PAIRS:,}); group by item or system"
        )
    return n_pairs, total


@dataclass(frozen=True)
class _HumanSide:
    """The human side of :func:`pair_events`, shared by every metric scored on the same
    human scores and groups: every pair ``(i, j)`` of every group in row-major pair order
    (group by group, ``i < j``), its group, and whether the humans tie it or order it up."""

    i: np.ndarray
    j: np.ndarray
    group: np.ndarray
    tie_g: np.ndarray
    up_g: np.ndarray


@functools.lru_cache(maxsize=8)
def _human_side(gold: bytes, offsets: bytes) -> _HumanSide:
    """:class:`_HumanSide` of the grouped gold vector ``gold`` delimited by ``offsets`` (their
    bytes: the tasks of a task set ask for the same human pairs metric after metric)."""
    g = np.frombuffer(gold, dtype=np.float64)
    off = np.frombuffer(offsets, dtype=np.int64)
    sizes = np.diff(off)
    n_pairs = sizes * (sizes - 1) // 2
    first_pair = np.r_[0, np.cumsum(n_pairs)].astype(np.int64)
    total = int(first_pair[-1])
    i, j = np.empty(total, dtype=np.int64), np.empty(total, dtype=np.int64)
    for size in np.unique(sizes):  # groups of equal size share one pair index set
        ks = np.flatnonzero(sizes == size)
        iu, ju = np.triu_indices(int(size), k=1)
        at = (first_pair[ks][:, None] + np.arange(iu.size)).ravel()
        i[at] = (off[ks][:, None] + iu).ravel()
        j[at] = (off[ks][:, None] + ju).ravel()
    group = np.repeat(np.arange(sizes.size, dtype=np.int64), n_pairs)
    dg = g[i] - g[j]
    side = _HumanSide(i, j, group, dg == 0.0, dg > 0)
    for a in (side.i, side.j, side.group, side.tie_g, side.up_g):
        a.setflags(write=False)
    return side


def pair_events(groups: Groups) -> PairEvents:
    """The sorted pair events of :func:`tie_calibration` (``O(pairs)`` memory). The human
    side is enumerated once per human scores and grouping (:func:`_human_side`); a metric
    adds its differences and one stable sort."""
    n_pairs, _ = _pair_counts(groups.sizes)
    gold = np.ascontiguousarray(groups.gold, dtype=np.float64)
    offsets = np.ascontiguousarray(groups.offsets, dtype=np.int64)
    side = _human_side(gold.tobytes(), offsets.tobytes())
    metric = np.asarray(groups.metric, dtype=np.float64)
    dm = metric[side.i] - metric[side.j]
    tie_g, tie_m = side.tie_g, dm == 0.0
    untied = ~tie_g & ~tie_m
    con = untied & (side.up_g == (dm > 0))
    both = tie_g & tie_m
    delta = tie_g.astype(np.int8) - (con | both).astype(np.int8)
    n_groups = groups.n_groups

    def per_group(x: np.ndarray) -> np.ndarray:
        return np.bincount(side.group[x], minlength=n_groups).astype(np.int64)

    counts = np.zeros((n_groups, 5), dtype=np.int64)
    if n_groups:
        counts[:, 0] = per_group(con)
        counts[:, 1] = per_group(untied & ~con)
        counts[:, 2] = per_group(tie_g & ~tie_m)
        counts[:, 3] = per_group(~tie_g & tie_m)
        counts[:, 4] = per_group(both)
    diff = np.abs(dm)
    # by difference, then in row-major pair order (the pairs' order here): mt-metrics-eval's
    # stable sort of its pairs
    order = _stable_order(diff)
    base = counts[:, 0] + counts[:, 4]
    return PairEvents(diff[order], delta[order], side.group[order], base, n_pairs, counts)


def _stable_order(x: np.ndarray) -> np.ndarray:
    """``np.argsort(x, kind="stable")`` of a NaN-free vector, from numpy's (vectorised,
    unstable) quicksort, several times faster: equal values are runs of the sorted
    vector, and the positions inside each run are put in increasing order by sorting the
    unique keys ``run * n + position``.

    Examples
    --------
    >>> _stable_order(np.array([0.5, 0.0, 0.5, 0.0, -0.0, 0.2])).tolist()
    [1, 3, 4, 5, 0, 2]
    """
    n = x.size
    if n < 2:
        return np.arange(n, dtype=np.int64)
    o = np.argsort(x)
    xs = x[o]
    run = np.empty(n, dtype=np.int64)
    run[0] = 0
    np.cumsum(xs[1:] != xs[:-1], out=run[1:])
    key = run * n + o
    key.sort()
    return key % n


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
    # group labels fit in 16 bits but for huge runs: numpy's stable sort of uint16 is a radix
    # sort (10x the merge sort of int64), the same order
    by_group = np.argsort(g.astype(np.uint16) if len(n) <= 2**16 else g, kind="stable")
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
    >>> from mtpalette.stats.kendall import kendall
    >>> round(kendall(h, m, "acc23"), 6), round(tie_calibration(h, m).value, 6)
    (0.833333, 1.0)
    >>> round(tie_calibration(h, m).epsilon, 6)
    0.01
    """
    groups = make_groups(human, metric, grouping)
    events = pair_events(groups)
    value, eps = calibrate(events, variant)
    return TieCalibration(value, eps, variant, groups.n_groups, int(events.n_pairs.sum()))


class HumanPairs:
    """The human side of tie calibration, enumerated once for many metrics scored on the same
    human scores (the random metrics of a chance level): every pair of every group (of
    ``grouping``, unrated entries left out), whether the humans tie it or order it up, and
    its weight in the average over groups.

    :meth:`best_value` gives a metric's tie-calibrated statistic, the value of
    :func:`tie_calibration` (to rounding: counts are summed exactly, not in mt-metrics-eval's
    running order), without sorting every pair: only the pairs near the best threshold are.

    Examples
    --------
    >>> h = [[1.0, 1.0, 2.0, 3.0]]
    >>> m = [[0.50, 0.51, 0.80, 0.90]]
    >>> HumanPairs(h).best_value(m), tie_calibration(h, m).value
    (1.0, 1.0)
    """

    def __init__(self, human: Any, *, grouping: str = "none") -> None:
        h = as_matrix(human)
        groups = make_groups(h, np.zeros_like(h), grouping)
        sizes = groups.sizes
        n_pairs, total = _pair_counts(sizes)
        kind = np.int32 if h.size < 2**31 else np.int64
        i, j = np.empty(total, dtype=kind), np.empty(total, dtype=kind)
        weight = np.empty(total)
        pos = 0
        for size in np.unique(sizes):  # groups of equal size share one pair index set
            ks = np.flatnonzero(sizes == size)
            iu, ju = np.triu_indices(int(size), k=1)
            starts = groups.offsets[ks][:, None]
            m = ks.size * iu.size
            i[pos : pos + m] = (starts + iu).ravel()
            j[pos : pos + m] = (starts + ju).ravel()
            weight[pos : pos + m] = 1.0 / iu.size
            pos += m
        dg = groups.gold[i] - groups.gold[j]
        self.shape = h.shape
        self.entries = groups.entries
        self.i, self.j = i, j
        self.gold_tie, self.gold_up = dg == 0.0, dg > 0.0
        self.n_groups = groups.n_groups
        self.n_pairs = total
        # one size: every pair weighs the same, and counts are summed as integers
        self.weight = None if np.unique(sizes).size <= 1 else weight
        per_pair = 1 if self.weight is not None else int(n_pairs.max(initial=1))
        self.scale = 1.0 / max(self.n_groups * per_pair, 1)

    def best_value(self, metric: Any, variant: str = "acc23") -> float:
        """The tie-calibrated acc-eq (``acc23``) or tau-eq (``23``) of ``metric`` (a matrix
        of the human scores' shape): the average over groups at the best threshold."""
        if variant not in ("acc23", "23"):
            raise ValueError("tie calibration supports the variants 'acc23' and '23'")
        if self.n_groups == 0:
            return float("nan")
        m = as_matrix(metric)
        if m.shape != self.shape:
            raise ValueError(f"human {self.shape} and metric {m.shape} shapes differ")
        m = m.ravel()[self.entries]
        if not np.isfinite(m).all():
            raise ValueError("the metric has a NaN or infinite score where a human score exists")
        dm = m[self.i] - m[self.j]
        tie_m = dm == 0.0
        correct = np.where(self.gold_tie, tie_m, ~tie_m & ((dm > 0.0) == self.gold_up))
        step = self.gold_tie.astype(np.float64) - correct  # +1, -1 or 0 when made a tie
        if self.weight is None:
            base = float(np.count_nonzero(correct))
        else:
            step *= self.weight
            base = float(self.weight[correct].sum())
        mean = (base + _max_prefix(np.abs(dm), step)) * self.scale
        return mean if variant == "acc23" else 2.0 * mean - 1.0


def _max_prefix(key: np.ndarray, step: np.ndarray) -> float:
    """The largest sum of ``step`` over the pairs with ``key <= t``, over every ``t`` (0 for
    none): the pairs are cut into buckets of increasing key, each bucket's sum and rise
    (sum of its positive steps) bound what it can reach, and only the buckets that might
    beat the best bucket end are sorted."""
    n = key.size
    if n == 0:
        return 0.0
    n_buckets = int(np.sqrt(n)) + 1
    top = float(key.max())
    if n <= 4096 or top == 0.0:
        return _sorted_max_prefix(key, step, np.zeros(n, dtype=np.intp), np.zeros(1))
    bucket = (key * (n_buckets / top)).astype(np.intp)  # monotone in key: runs stay whole
    np.minimum(bucket, n_buckets - 1, out=bucket)
    sums = np.bincount(bucket, weights=step, minlength=n_buckets)
    rise = np.bincount(bucket, weights=np.maximum(step, 0.0), minlength=n_buckets)
    ends = np.cumsum(sums)
    before = ends - sums
    low = max(0.0, float(ends.max()))
    maybe = before + rise > low - 1e-9 * (1.0 + abs(low))
    chosen = np.flatnonzero(maybe[bucket])
    if chosen.size == 0:
        return low
    return max(low, _sorted_max_prefix(key[chosen], step[chosen], bucket[chosen], before))


def _sorted_max_prefix(key, step, bucket, before) -> float:
    """The best prefix sum at the end of a run of equal keys, the pairs sorted by key, each
    bucket's prefix starting from ``before[bucket]``."""
    order = np.argsort(key, kind="stable")
    key, step, bucket = key[order], step[order], bucket[order]
    running = np.cumsum(step)
    first = np.r_[True, bucket[1:] != bucket[:-1]]
    start = np.flatnonzero(first)
    offset = np.r_[0.0, running][start]  # the running sum before each bucket's first pair
    within = running - np.repeat(offset, np.diff(np.r_[start, key.size]))
    prefix = before[bucket] + within
    last = np.r_[key[1:] != key[:-1], True]
    return max(0.0, float(prefix[last].max()))


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
