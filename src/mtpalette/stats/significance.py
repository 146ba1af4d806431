"""Uncertainty of correlations: bootstrap intervals, permutation and Williams tests, clusters.

* :func:`bootstrap_correlations` - the correlation of several metrics with the same human
  scores on the same bootstrap resamples (so differences are paired). The resampling unit
  is the *item* (segment): a resample draws items with replacement and keeps every system's
  score of each drawn item. At system level the system means (human and metric, or a
  caller-supplied corpus score) are recomputed on each resample. With human scores only at
  system level, :func:`bootstrap_system_correlations` resamples systems instead (a pair of
  two copies of one system is not a pair).
* the permutation test between two metrics is not here: every command runs the one
  PERM-BOTH engine, :func:`mtpalette.stats.sigdiff.sig_diff` (by a statistic's name:
  :func:`mtpalette.stats.catalogue.sig_diff`).
* :func:`williams_test` - Williams (1959) test of two dependent Pearson correlations sharing a
  variable (Graham and Baldwin 2014), one-sided by default.
* :func:`significance_clusters` - mt-metrics-eval's ``AssignRanks``: metrics sorted by
  decreasing correlation; a metric starts a new cluster when one of the metrics of the
  current cluster is significantly better than it (p <= alpha). Only the comparisons that
  rule needs are computed.

Randomness is explicit: ``seed`` is an int (recorded), a ``np.random.Generator`` or ``None``
(a fresh seed, recorded). Every draw comes from :mod:`mtpalette.stats.resampling`: resampled
item indices are ``rng.integers(0, n, (B, n))`` in batches (:func:`index_batches`).

References
----------
Efron and Tibshirani (1993), An Introduction to the Bootstrap. Deutsch, Dror and Roth (2021),
A Statistical Analysis of Summarization Evaluation Metrics using Resampling Methods
(PERM-BOTH). Williams (1959), Regression Analysis; Graham and Baldwin (2014), Testing for
Significance of Increased Correlation with Human Judgment. Reference implementation:
google-research/mt-metrics-eval ``stats.PermutationSigDiff``, ``stats.WilliamsTest``,
``data.AssignRanks``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mtpalette.stats import catalogue
from mtpalette.stats.bootstrap import BootstrapCI
from mtpalette.stats.catalogue import Statistic
from mtpalette.stats.group_kernels import grouped_value
from mtpalette.stats.grouping import GROUPINGS, as_matrix, make_groups
from mtpalette.stats.kendall import _tau_from_counts
from mtpalette.stats.resampling import (
    Seed,
    bootstrap_interval,
    index_batches,
    resample_counts,
    resolve_seed,
)
from mtpalette.stats.tie_calibration import calibrate, pair_events

LEVELS = ("segment", "system")
TESTS = ("permutation", "bootstrap", "williams", "none")
#: the engine's functions under the names this module exported before it existed
counts_of = resample_counts
percentile_interval = bootstrap_interval

#: maps item counts ``(m, I)`` to system scores ``(m, S)`` for one metric
SystemScoreFn = Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True)
class CorrelationResamples:
    """Correlations of several metrics and their bootstrap distributions (same resamples).

    Attributes
    ----------
    values:
        ``(M,)`` correlations on the original data.
    dist:
        ``(B, M)`` correlations on each resample (NaN where undefined).
    cis:
        One :class:`~mtpalette.stats.bootstrap.BootstrapCI` per metric (percentile).
    unit:
        What was resampled: ``items`` or ``systems``.
    epsilons:
        The calibrated tie thresholds (tie-calibrated statistics), else ``None``.
    """

    statistic: str
    grouping: str
    level: str
    values: np.ndarray
    dist: np.ndarray = field(repr=False)
    cis: list[BootstrapCI]
    unit: str
    n_units: int
    n_resamples: int
    confidence: float
    seed: int | None
    epsilons: list[float] | None = None

    @classmethod
    def percentile(
        cls,
        statistic: str,
        grouping: str,
        level: str,
        values: np.ndarray,
        dist: np.ndarray,
        *,
        unit: str,
        n_units: int,
        confidence: float,
        seed: int | None,
        epsilons: list[float] | None = None,
    ) -> CorrelationResamples:
        """The resamples ``dist`` (``(B, M)``) with a percentile interval for each of the
        ``M`` metrics (NaN bounds when ``B`` is 0)."""
        n_resamples = dist.shape[0]
        cis = []
        for j in range(len(values)):
            lo, hi = bootstrap_interval(dist[:, j], confidence) if n_resamples else (np.nan,) * 2
            ci = BootstrapCI(
                float(values[j]), lo, hi, n_units, n_resamples, confidence, "percentile", seed
            )
            cis.append(ci)
        return cls(
            statistic,
            grouping,
            level,
            values,
            dist,
            cis,
            unit,
            n_units,
            n_resamples,
            confidence,
            seed,
            epsilons,
        )

    def paired_p_value(self, a: int, b: int) -> float:
        """One-sided bootstrap p-value that metric ``a`` correlates better than ``b``: the
        share of resamples where it does not (ties count half)."""
        d = self.dist[:, a] - self.dist[:, b]
        d = d[~np.isnan(d)]
        if d.size == 0:
            return float("nan")
        return float((np.count_nonzero(d < 0) + 0.5 * np.count_nonzero(d == 0)) / d.size)


def _check_level(level: str, grouping: str) -> None:
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; expected one of {', '.join(LEVELS)}")
    if grouping not in GROUPINGS:
        raise ValueError(f"unknown grouping {grouping!r}; expected one of {', '.join(GROUPINGS)}")
    if level == "system" and grouping != "none":
        raise ValueError("system-level correlations take no grouping (use grouping='none')")


def _calibrated(statistic: Statistic, epsilon: float | None) -> str | None:
    """The tie-calibration variant of a tie-calibrated ``statistic`` when ``epsilon`` is None
    (calibrate), else None."""
    if statistic.calibrated and epsilon is None:
        return statistic.variant
    return None


def _stat_value(
    h: np.ndarray,
    m: np.ndarray,
    statistic: Statistic,
    grouping: str,
    epsilon: float | None,
    threshold: float,
    *,
    point: bool = False,
) -> tuple[float, float | None]:
    """The statistic's value, and the calibrated tie threshold where the statistic is
    tie-calibrated (``make_groups``, ``pair_events`` and ``calibrate``, as the catalogue's
    ``tie_calibration``, computed once here for the value and its threshold).

    ``point``: the value as the catalogue computes it for every command and task
    (:func:`mtpalette.stats.catalogue.value`), for the point estimate; else the grouped
    value of the statistic's kernel, for a resample."""
    variant = _calibrated(statistic, epsilon)
    if variant is not None:
        events = pair_events(make_groups(h, m, grouping))
        value, eps = calibrate(events, variant)
        return value, eps
    if point:
        value = catalogue.value(
            statistic, h, m, grouping=grouping, epsilon=epsilon, threshold=threshold
        )
        return value, None
    return grouped_value(
        statistic, h, m, grouping=grouping, epsilon=epsilon or 0.0, threshold=threshold
    ), None


def _masked(metric: np.ndarray, human: np.ndarray) -> np.ndarray:
    return np.where(np.isnan(human), np.nan, metric)


def bootstrap_correlations(
    human: Any,
    metrics: Sequence[Any],
    statistic: str = "pearson",
    *,
    grouping: str = "none",
    level: str = "segment",
    system_scores: Sequence[SystemScoreFn | None] | None = None,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: Seed = None,
    epsilon: float | None = 0.0,
    threshold: float = 25.0,
    progress: Callable[[int], None] | None = None,
) -> CorrelationResamples:
    """Correlations of several metrics with bootstrap intervals, resampling items.

    Parameters
    ----------
    human:
        ``(S, I)`` human scores, NaN where unrated.
    metrics:
        One ``(S, I)`` matrix per metric, oriented so that higher is better.
    statistic, grouping, epsilon, threshold:
        As :func:`mtpalette.stats.correlation.correlation` (``epsilon=None``: tie calibration,
        re-calibrated on every resample).
    level:
        ``segment`` or ``system`` (system means of the rated entries, or ``system_scores``).
    system_scores:
        Optional, per metric, a function from item counts ``(m, I)`` to system scores
        ``(m, S)`` (e.g. corpus BLEU of each system on the resampled items); ``None`` entries
        use the mean of the metric's scores on the rated entries.
    n_resamples, confidence, seed:
        Number of resamples (0: no interval), coverage and seed.
    progress:
        Called with the work done as it is done: resamples times metrics.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> h = rng.normal(size=(4, 60))
    >>> good, bad = h + 0.5 * rng.normal(size=h.shape), rng.normal(size=h.shape)
    >>> r = bootstrap_correlations(h, [good, bad], "pearson", n_resamples=200, seed=1)
    >>> r.cis[0].low > r.cis[1].high, r.seed, r.dist.shape
    (True, 1, (200, 2))
    """
    entry = catalogue.statistic(statistic, interval=True)
    _check_level(level, grouping)
    H = as_matrix(human)
    Ms = [as_matrix(m) for m in metrics]
    for m in Ms:
        if m.shape != H.shape:
            raise ValueError(f"metric scores {m.shape} and human scores {H.shape} differ")
    fns = list(system_scores) if system_scores is not None else [None] * len(Ms)
    if len(fns) != len(Ms):
        raise ValueError("one system_scores entry per metric")
    rng, recorded = resolve_seed(seed)
    n_items = H.shape[1]
    if level == "system":
        values, dist, eps = _system_level(H, Ms, fns, entry, epsilon, threshold, n_resamples, rng)
        if progress is not None:
            progress(n_resamples * len(Ms))
    else:
        batches = index_batches(n_items, n_resamples, rng)
        values, dist, eps = resampled_correlations(
            H,
            Ms,
            entry,
            grouping=grouping,
            epsilon=epsilon,
            threshold=threshold,
            batches=batches,
            n_resamples=n_resamples,
            progress=progress,
        )
    return CorrelationResamples.percentile(
        entry.name,
        grouping,
        level,
        values,
        dist,
        unit="items",
        n_units=n_items,
        confidence=confidence,
        seed=recorded,
        epsilons=eps,
    )


def resampled_correlations(
    human: Any,
    metrics: Sequence[Any],
    statistic: str | Statistic,
    *,
    grouping: str = "none",
    epsilon: float | None = 0.0,
    threshold: float = 25.0,
    batches: Iterable[np.ndarray],
    n_resamples: int,
    progress: Callable[[int], None] | None = None,
) -> tuple[np.ndarray, np.ndarray, list[float] | None]:
    """Segment-level correlations on given resamples of the items.

    ``batches`` yields index arrays ``(m, I)`` (rows: resamples) summing to ``n_resamples``
    rows, so that other statistics (ORANGE) can be resampled with the same items. Returns
    the values ``(M,)``, the resampled values ``(B, M)`` and the calibrated thresholds;
    ``progress`` is told the resamples times metrics done as they are done.
    """
    statistic = catalogue.statistic(statistic, interval=True)
    H = as_matrix(human)
    Ms = [as_matrix(m) for m in metrics]
    M = len(Ms)
    variant = _calibrated(statistic, epsilon)
    values = np.empty(M)
    eps_out: list[float] | None = [] if variant is not None else None
    dist = np.full((n_resamples, M), np.nan)
    n_items = H.shape[1]
    per_item = grouping == "item"
    prepared = []
    for j, m in enumerate(Ms):
        groups = make_groups(H, m, grouping)
        if variant is not None:  # the catalogue's tie calibration, computed once
            events = pair_events(groups)
            values[j], e = calibrate(events, variant)
            eps_out.append(e)
            prepared.append((groups, events))
            continue
        vals = statistic.group(groups, epsilon=epsilon or 0.0, threshold=threshold)
        prepared.append((groups, vals))
        values[j] = (
            _stat_value(H, m, statistic, grouping, epsilon, threshold, point=True)[0]
            if groups.n_groups
            else np.nan
        )
    if n_resamples == 0:
        return values, dist[:0], eps_out
    tell = progress or (lambda n: None)
    done = 0
    for idx in batches:
        b = idx.shape[0]
        if per_item:
            counts = resample_counts(idx, n_items)
            for j, (groups, data) in enumerate(prepared):
                w = counts[:, groups.labels]
                if variant is not None:
                    for r in range(b):
                        dist[done + r, j] = calibrate(data, variant, weights=w[r])[0]
                else:
                    dist[done : done + b, j] = _weighted_group_average(data, statistic, w)
                tell(b)
        elif statistic.name == "pearson":
            counts = resample_counts(idx, n_items)
            for j, (groups, _) in enumerate(prepared):
                dist[done : done + b, j] = _weighted_pearson(groups, counts, n_items)
                tell(b)
        else:
            for r in range(b):
                cols = idx[r]
                h = H[:, cols]
                for j, m in enumerate(Ms):
                    dist[done + r, j] = _stat_value(
                        h, m[:, cols], statistic, grouping, epsilon, threshold
                    )[0]
                tell(M)
        done += b
    if done != n_resamples:
        raise ValueError(f"the batches hold {done} resamples, expected {n_resamples}")
    return values, dist, eps_out


def _weighted_group_average(values: np.ndarray, statistic: Statistic, w: np.ndarray) -> np.ndarray:
    """:func:`~mtpalette.stats.group_kernels.average_groups` for every row of group weights
    ``w`` ``(b, G)`` at once."""
    with np.errstate(invalid="ignore", divide="ignore"):
        if statistic.pooled:
            v = values.reshape(-1, 2)
            num = w @ (v[:, 0] - v[:, 1])
            den = w @ (v[:, 0] + v[:, 1])
            return np.where(den > 0, num / den, 0.0)
        ok = ~np.isnan(values)
        num = w[:, ok] @ values[ok]
        den = w[:, ok].sum(axis=1)
        return np.where(den > 0, num / den, np.nan)


def _weighted_pearson(groups, counts: np.ndarray, n_items: int) -> np.ndarray:
    """Pearson on resamples, each given as item counts: the mean of the group values, every
    group's entries weighted by their item's count (equal to materialising the resample)."""
    item = groups.entries % n_items
    w_all = counts[:, item]  # (b, n_entries)
    out = np.zeros(counts.shape[0])
    den = np.zeros(counts.shape[0])
    for k in range(groups.n_groups):
        lo, hi = groups.offsets[k], groups.offsets[k + 1]
        g = groups.gold[lo:hi] - groups.gold[lo:hi].mean()
        m = groups.metric[lo:hi] - groups.metric[lo:hi].mean()
        w = w_all[:, lo:hi]
        sw = w.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            mg = (w @ g) / sw
            mm = (w @ m) / sw
            cov = (w @ (g * m)) / sw - mg * mm
            vg = (w @ (g * g)) / sw - mg * mg
            vm = (w @ (m * m)) / sw - mm * mm
            r = cov / np.sqrt(vg * vm)
        # a resample whose drawn entries are constant has an undefined correlation
        scale_g = max(1.0, float(np.abs(groups.gold[lo:hi]).max()))
        scale_m = max(1.0, float(np.abs(groups.metric[lo:hi]).max()))
        r = np.where(
            (sw >= 2) & (vg > 1e-12 * scale_g**2) & (vm > 1e-12 * scale_m**2),
            np.clip(r, -1.0, 1.0),
            np.nan,
        )
        ok = ~np.isnan(r)
        out += np.where(ok, r, 0.0)
        den += ok
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, out / den, np.nan)


def _system_level(H, Ms, fns, statistic, epsilon, threshold, n_resamples, rng):
    n_items = H.shape[1]
    M = len(Ms)

    def sys_scores(weights: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        hs = _system_means_batch(H, weights)
        ms = []
        for m, fn in zip(Ms, fns, strict=True):
            if fn is None:
                ms.append(_system_means_batch(_masked(m, H), weights))
            else:
                ms.append(np.asarray(fn(weights), dtype=np.float64))
        return hs, ms

    ones = np.ones((1, n_items))
    hs0, ms0 = sys_scores(ones)
    values = np.empty(M)
    eps_out: list[float] | None = [] if _calibrated(statistic, epsilon) else None
    for j in range(M):
        values[j], e = _vector_stat(hs0[0], ms0[j][0], statistic, epsilon, threshold, point=True)
        if eps_out is not None:
            eps_out.append(e)
    dist = np.full((n_resamples, M), np.nan)
    done = 0
    for idx in index_batches(n_items, n_resamples, rng):
        counts = resample_counts(idx, n_items)
        hs, ms = sys_scores(counts)
        for r in range(counts.shape[0]):
            for j in range(M):
                dist[done + r, j] = _vector_stat(hs[r], ms[j][r], statistic, epsilon, threshold)[0]
        done += counts.shape[0]
    return values, dist, eps_out


def _system_means_batch(scores: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """:func:`system_means` for every row of item weights ``(b, I)``: ``(b, S)``."""
    rated = ~np.isnan(scores)
    num = weights @ np.where(rated, scores, 0.0).T
    den = weights @ rated.T.astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / den, np.nan)


def _vector_stat(
    h: np.ndarray,
    m: np.ndarray,
    statistic: Statistic,
    epsilon: float | None,
    threshold: float,
    *,
    point: bool = False,
) -> tuple[float, float | None]:
    ok = ~np.isnan(h) & ~np.isnan(m)
    if ok.sum() < 2:
        return float("nan"), None
    return _stat_value(h[ok], m[ok], statistic, "none", epsilon, threshold, point=point)


def bootstrap_system_correlations(
    human: Any,
    metrics: Sequence[Any],
    statistic: str = "pearson",
    *,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: Seed = None,
    epsilon: float | None = 0.0,
) -> CorrelationResamples:
    """System-level correlations with intervals from resampling *systems*.

    For human scores that exist only per system (WMT system rankings). Pair-based statistics
    (Kendall tau-b, acc-eq, tau-eq, pairwise accuracy) count the pairs of distinct original
    systems, each weighted by the product of the two systems' draw counts; other statistics
    are computed on the resampled vectors.

    Examples
    --------
    >>> h = np.arange(10.0)
    >>> r = bootstrap_system_correlations(h, [h + 3 * np.sin(h)], "pairwise-accuracy",
    ...                                   n_resamples=100, seed=0)
    >>> float(r.values[0]), r.unit, r.cis[0].low < 0.8 < r.cis[0].high
    (0.8, 'systems', True)
    """
    statistic = catalogue.statistic(statistic, interval=True)
    h = np.asarray(human, dtype=np.float64).ravel()
    Ms = [np.asarray(m, dtype=np.float64).ravel() for m in metrics]
    for m in Ms:
        if m.shape != h.shape:
            raise ValueError("one metric score per system")
    rng, recorded = resolve_seed(seed)
    S = h.size
    variant = _calibrated(statistic, epsilon)
    values = np.empty(len(Ms))
    eps_out: list[float] | None = [] if variant is not None else None
    for j, m in enumerate(Ms):
        values[j], e = _stat_value(h, m, statistic, "none", epsilon, 25.0, point=True)
        if eps_out is not None:
            eps_out.append(e)
    dist = np.full((n_resamples, len(Ms)), np.nan)
    pair_based = statistic.pairs
    iu, ju = np.triu_indices(S, k=1)
    prepared = []
    for m in Ms:
        if pair_based and variant is None:
            prepared.append(_pair_classes(h, m, iu, ju, epsilon or 0.0))
        elif variant is not None:
            prepared.append(pair_events(make_groups(h, m, "none")))
        else:
            prepared.append(None)
    done = 0
    for idx in index_batches(S, n_resamples, rng):
        counts = resample_counts(idx, S)
        for r in range(idx.shape[0]):
            c = counts[r]
            w_pairs = c[iu] * c[ju]
            for j, m in enumerate(Ms):
                if pair_based and variant is None:
                    weighted = (prepared[j] * w_pairs[:, None]).sum(axis=0)
                    v = _tau_from_counts(weighted, statistic.variant)[0]
                    if statistic.variant == "b" and (
                        weighted[2] + weighted[4] == weighted.sum()
                        or weighted[3] + weighted[4] == weighted.sum()
                    ):
                        v = np.nan
                    dist[done + r, j] = v
                elif variant is not None:
                    dist[done + r, j] = _pair_weighted_calibration(h, m, c, variant)
                else:
                    dist[done + r, j] = _stat_value(
                        h[idx[r]], m[idx[r]], statistic, "none", epsilon, 25.0
                    )[0]
        done += idx.shape[0]
    return CorrelationResamples.percentile(
        statistic.name,
        "none",
        "system",
        values,
        dist,
        unit="systems",
        n_units=S,
        confidence=confidence,
        seed=recorded,
        epsilons=eps_out,
    )


def _pair_classes(h, m, iu, ju, epsilon) -> np.ndarray:
    """One-hot ``(pairs, 5)`` classes ``[C, D, Tg, Tm, Tb]`` of the pairs ``(iu, ju)``."""
    dg = h[iu] - h[ju]
    dm = m[iu] - m[ju]
    tie_g = dg == 0.0
    tie_m = np.abs(dm) <= epsilon
    rest = ~tie_g & ~tie_m
    con = rest & ((dg > 0) == (dm > 0))
    return np.column_stack(
        [con, rest & ~con, tie_g & ~tie_m, ~tie_g & tie_m, tie_g & tie_m]
    ).astype(np.float64)


def _pair_weighted_calibration(h, m, c, variant) -> float:
    """Tie-calibrated statistic on pairs of distinct systems weighted by ``c_i * c_j``."""
    keep = c > 0
    hk, mk, ck = h[keep], m[keep], c[keep]
    n = hk.size
    if n < 2:
        return float("nan")
    iu, ju = np.triu_indices(n, k=1)
    w = ck[iu] * ck[ju]
    dg = hk[iu] - hk[ju]
    dm = mk[iu] - mk[ju]
    tie_g = dg == 0.0
    tie_m = dm == 0.0
    con = ~tie_g & ~tie_m & ((dg > 0) == (dm > 0))
    correct = (con | (tie_g & tie_m)).astype(np.float64)
    delta = tie_g.astype(np.float64) - correct
    order = np.argsort(np.abs(dm), kind="stable")
    diff = np.abs(dm)[order]
    total = w.sum()
    start = (w * correct).sum()
    if variant == "23":
        start = 2 * start - total
        step = 2 * delta[order] * w[order]
    else:
        step = delta[order] * w[order]
    curve = start + np.cumsum(step)
    last = np.r_[diff[1:] != diff[:-1], True]
    values = np.r_[start, curve[last]] / total
    return float(np.nanmax(values))


# ----------------------------------------------------------------------------------------
# tests between two metrics
# ----------------------------------------------------------------------------------------
# ----------------------------------------------------------------------------------------
# clusters
# ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Clusters:
    """Significance clusters: ``rank[j]`` is metric ``j``'s cluster (1 is best).

    ``order`` lists the metrics by decreasing correlation; ``p_values[(i, j)]`` is the
    p-value that metric ``i`` correlates better than ``j`` for every comparison made.
    """

    rank: list[int]
    order: list[int]
    p_values: dict[tuple[int, int], float]
    alpha: float
    test: str


def significance_clusters(
    values: Sequence[float],
    p_value: Callable[[int, int], float],
    *,
    alpha: float = 0.05,
    test: str = "",
    names: Sequence[str] | None = None,
) -> Clusters:
    """Cluster metrics as mt-metrics-eval's ``AssignRanks``, computing only needed tests.

    Metrics are sorted by decreasing value (then by name, or index); walking down the list,
    metric ``i`` starts a new cluster when any metric from the start of the current cluster
    to ``i - 1`` is significantly better than it (``p_value(j, i) <= alpha``).

    Examples
    --------
    >>> sig = {(0, 1): 0.3, (0, 2): 0.01, (1, 2): 0.2, (2, 3): 0.5, (1, 3): 0.04}
    >>> c = significance_clusters([0.9, 0.8, 0.7, 0.6], lambda i, j: sig.get((i, j), 0.0))
    >>> c.rank
    [1, 1, 2, 2]
    """
    vals = [float(v) if v == v else -np.inf for v in values]
    keys = list(names) if names is not None else list(range(len(vals)))
    order = sorted(range(len(vals)), key=lambda j: (-vals[j], keys[j]))
    rank = [0] * len(vals)
    pvals: dict[tuple[int, int], float] = {}
    current, start = 1, 0
    for pos, i in enumerate(order):
        for j in order[start:pos]:
            p = p_value(j, i)
            pvals[(j, i)] = p
            if p <= alpha:
                current += 1
                start = pos
                break
        rank[i] = current
    return Clusters(rank, order, pvals, alpha, test)
