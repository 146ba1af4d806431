"""Is metric ``a``'s correlation with humans significantly higher than metric ``b``'s? The
``scores`` (PERM-BOTH) and ``pairs`` permutation tests of :mod:`mtpalette.stats.permutation`
on ``(systems, items)`` matrices, for any grouped correlation, as mt-metrics-eval's
``PermutationSigDiff`` and ``PairwisePermutationSigDiff``.

Entries enter the tests in mt-metrics-eval's order (``_ReshapeAndFilter``): groups of
``grouping`` one after the other (``item``: item by item, the systems of each in row order),
unrated entries (NaN human scores) left out; that order decides which draw swaps which
entry, so equal seeds give mt-metrics-eval's permutations.

Functions (``function``): ``pearson``, ``spearman``, ``kendall`` (``variant`` b or c),
``kendall-like`` (``thresh``), ``kendall-variants`` (``variant`` b, 23 or acc23,
``epsilon``), ``tie-calibrated`` (``variant`` 23 or acc23, the metric tie threshold
recalibrated on every permutation), or a statistic's vectorised group kernel (a function of
:class:`~mtpalette.stats.grouping.Groups`: the tests of the catalogue's statistics that have
no function here). The statistic of a set of groups is the plain average
of the defined group values (NaN dropped, or 0 with ``replace_nans_with_zeros``; 0 when
none is defined).

References
----------
google-research/mt-metrics-eval at 68a481a, ``mt_metrics_eval/stats.py``
(``PermutationSigDiff``, ``PairwisePermutationSigDiff``, ``_ReshapeAndFilter``).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from mtpalette.stats import pairwise as pw
from mtpalette.stats import permutation as perm
from mtpalette.stats.averaging import _function
from mtpalette.stats.grouping import Groups, as_matrices, as_matrix
from mtpalette.stats.kendall import kendall
from mtpalette.stats.tie_calibration import tie_calibration

FUNCTIONS = (
    "pearson",
    "spearman",
    "kendall",
    "kendall-like",
    "kendall-variants",
    "tie-calibrated",
)
_GROUPINGS = ("none", "system", "item")


def filter_order(human: np.ndarray, grouping: str) -> tuple[np.ndarray, np.ndarray]:
    """Flat indices of the rated entries of a ``(systems, items)`` matrix in group order, and
    the offsets of the groups that keep at least one entry (``_ReshapeAndFilter``).

    Examples
    --------
    >>> h = np.array([[1, 2], [np.nan, np.nan], [5, np.nan]])
    >>> e, off = filter_order(h, "item")
    >>> e.tolist(), off.tolist()  # item 0: systems 0 and 2; item 1: system 0
    ([0, 4, 1], [0, 2, 3])
    """
    if grouping not in _GROUPINGS:
        raise ValueError(f"unknown grouping {grouping!r}; expected none, system or item")
    flat = np.arange(human.size).reshape(human.shape)
    rows = {"none": flat.reshape(1, -1), "system": flat, "item": flat.T}[grouping]
    rated = ~np.isnan(human.ravel()[rows])
    sizes = rated.sum(axis=1)
    return rows[rated], np.r_[0, np.cumsum(sizes[sizes > 0])].astype(np.int64)


def zscore(x: np.ndarray) -> np.ndarray:
    """``(x - mean) / std`` (population std) of a vector, the floating-point operations of
    ``scipy.stats.zscore`` (1.17: ``mean``, the mean of the squared deviations, ``** 0.5``;
    NaN everywhere when ``std <= |eps * mean|``), bit for bit, without importing
    ``scipy.stats`` (0.3-0.5 s of a process's start).

    Examples
    --------
    >>> zscore([1.0, 2.0, 3.0]).round(6).tolist()
    [-1.224745, 0.0, 1.224745]
    """
    a = np.asarray(x, dtype=np.float64)
    if a.ndim != 1:
        raise ValueError(f"zscore takes a vector, not an array of shape {a.shape}")
    if a.size == 0:
        return a.copy()
    mean = np.mean(a, keepdims=True)
    dev = a - mean
    std = np.mean(dev * dev, keepdims=True) ** 0.5
    with np.errstate(invalid="ignore", divide="ignore"):
        z = dev / std
    if std[0] <= abs(np.finfo(np.float64).eps * mean[0]):
        z[:] = np.nan
    return z


def group_statistic(
    gold: np.ndarray, offsets: np.ndarray, function: str, args: dict[str, Any]
) -> Callable[[np.ndarray], np.ndarray]:
    """Per-group values ``(B, groups)`` of a ``(B, n)`` stack of metric vectors in group
    order (NaN where undefined)."""
    n_groups = len(offsets) - 1
    bounds = list(zip(offsets[:-1], offsets[1:], strict=True))
    if function == "pearson":
        from scipy import stats as _scipy_stats

        def values(v: np.ndarray) -> np.ndarray:
            # scipy's pearsonr along an axis: the same floating-point operations as one call
            # per vector, so resampled values equal mt-metrics-eval's bit for bit
            out = np.full((v.shape[0], n_groups), np.nan)
            for k, (lo, hi) in enumerate(bounds):
                g = gold[lo:hi]
                if hi - lo < 2 or np.all(g == g[0]):
                    continue
                x = v[:, lo:hi]
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    r = _scipy_stats.pearsonr(np.broadcast_to(g, x.shape), x, axis=1)[0]
                r = np.array(r, dtype=np.float64, ndmin=1)
                r[np.all(x == x[:, :1], axis=1)] = np.nan
                out[:, k] = r
            return out

        return values
    if function == "kendall-variants":
        variant = args.get("variant", "b")
        eps = float(args.get("epsilon", 0.0))

        def values(v: np.ndarray) -> np.ndarray:
            out = np.full((v.shape[0], n_groups), np.nan)
            for b in range(v.shape[0]):
                for k, (lo, hi) in enumerate(bounds):
                    if hi - lo >= 2:
                        out[b, k] = kendall(gold[lo:hi], v[b, lo:hi], variant, epsilon=eps)
            return out

        return values
    fn = _function(function, args)
    constant_nan = function in ("pearson", "spearman")

    def values(v: np.ndarray) -> np.ndarray:
        out = np.full((v.shape[0], n_groups), np.nan)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for b in range(v.shape[0]):
                for k, (lo, hi) in enumerate(bounds):
                    g, x = gold[lo:hi], v[b, lo:hi]
                    if hi - lo < 2 or (constant_nan and (np.all(g == g[0]) or np.all(x == x[0]))):
                        continue
                    out[b, k] = fn(g, x)[0]
        return out

    return values


def sig_diff(
    human: Any,
    metric_a: Any,
    metric_b: Any,
    function: str | Callable[..., np.ndarray] = "pearson",
    *,
    grouping: str = "none",
    k: int = 1000,
    stopping: perm.EarlyStopping = perm.EarlyStopping(),
    seed: perm.Source = None,
    replace_nans_with_zeros: bool = False,
    macro: bool = True,
    plus_one: bool = False,
    **args: Any,
) -> perm.PermutationTest:
    """PERM-BOTH test that ``metric_a`` correlates better than ``metric_b``
    (mt-metrics-eval's ``PermutationSigDiff(corr_b, corr_a, ...)``): the one permutation
    test of every correlation, whichever command asks.

    The draws are mt-metrics-eval's legacy stream for an integer ``seed`` (or None, or a
    ``RandomState``), or independent draws of a ``np.random.Generator``; ``plus_one`` is the
    p-value convention (:func:`~mtpalette.stats.permutation.perm_both`). ``macro=False``
    (``kendall-like`` only) pools the groups: every permutation's statistic is
    ``(concordant - discordant) / (concordant + discordant)`` summed over all groups, as
    WMT's DARR pools them.

    Examples
    --------
    >>> h = [[1, 2], [3, 4], [5, 5], [7, 8]]  # mt-metrics-eval's PermutationSigDiffTest
    >>> a = [[2, 1], [2, 6], [8, 8], [7, 6]]
    >>> b = [[1, 2], [3, 3], [7, 3], [5, 5]]
    >>> r = sig_diff(h, a, b, "pearson", k=1000, seed=100)  # as np.random.seed(100) there
    >>> round(r.delta, 6), r.p_value, r.n_used
    (-0.002484, 0.516, 1000)
    """
    if not callable(function) and function not in FUNCTIONS:
        raise ValueError(f"unknown function {function!r}; expected one of {', '.join(FUNCTIONS)}")
    H, A, B = as_matrices(human, metric_a, metric_b)
    if function == "tie-calibrated":
        # mt-metrics-eval z-scores and swaps every entry, rated or not, for this statistic
        variant = args.get("variant", "acc23")

        def stat(v: np.ndarray) -> np.ndarray:
            return np.array(
                [
                    tie_calibration(
                        H, row.reshape(H.shape), grouping=grouping, variant=variant
                    ).value
                    for row in v
                ]
            )

        return perm.perm_both(stat, zscore(A.ravel()), zscore(B.ravel()), k=k,
                              stopping=stopping, seed=seed, plus_one=plus_one)  # fmt: skip
    entries, offsets = filter_order(H, grouping)
    gold = H.ravel()[entries]
    if callable(function):  # a statistic's group kernel: its groups of two or more entries
        values = kernel_values(gold, offsets, function)
    elif not macro:
        if function != "kendall-like":
            raise ValueError("pooled groups (macro=False) are defined for kendall-like only")
        values = _pooled_kendall_like(gold, offsets, float(args.get("thresh", 25.0)))
    else:
        values = group_statistic(gold, offsets, function, args)

    def stat(v: np.ndarray) -> np.ndarray:
        return perm.average_values(values(v), replace_nans_with_zeros)

    za, zb = zscore(A.ravel()[entries]), zscore(B.ravel()[entries])
    return perm.perm_both(stat, za, zb, k=k, stopping=stopping, seed=seed, plus_one=plus_one)


def kernel_values(
    gold: np.ndarray, offsets: np.ndarray, kernel: Callable[[Groups], np.ndarray]
) -> Callable[[np.ndarray], np.ndarray]:
    """Per-group values ``(B, groups)`` of a ``(B, n)`` stack of metric vectors in group order
    from a vectorised group kernel (``kernel(groups)``, a statistic of the catalogue without a
    function here); groups of fewer than two entries are NaN."""
    sizes = np.diff(offsets)
    keep = np.flatnonzero(sizes >= 2)
    idx = np.concatenate([np.arange(offsets[g], offsets[g + 1]) for g in keep] or [[]])
    idx = idx.astype(np.int64)
    sub = np.r_[0, np.cumsum(sizes[keep])].astype(np.int64)

    def values(v: np.ndarray) -> np.ndarray:
        out = np.full((v.shape[0], len(sizes)), np.nan)
        for b in range(v.shape[0]):
            groups = Groups(gold[idx], v[b, idx], sub, keep, idx, "kernel")
            out[b, keep] = kernel(groups)
        return out

    return values


def _pooled_kendall_like(gold: np.ndarray, offsets: np.ndarray, thresh: float):
    """``(B, 1)`` pooled Kendall-like values of a stack of metric vectors (NaN: no pair)."""
    from mtpalette.stats.kendall import kendall_like_counts

    bounds = list(zip(offsets[:-1], offsets[1:], strict=True))

    def values(v: np.ndarray) -> np.ndarray:
        out = np.full((v.shape[0], 1), np.nan)
        for b in range(v.shape[0]):
            con = dis = 0
            for lo, hi in bounds:
                c, d = kendall_like_counts(gold[lo:hi], v[b, lo:hi], threshold=thresh)
                con, dis = con + c, dis + d
            if con + dis:
                out[b, 0] = (con - dis) / (con + dis)
        return out

    return values


def pairs_sig_diff(
    human: Any,
    metric_a: Any,
    metric_b: Any,
    *,
    variant: str = "acc23",
    grouping: str = "none",
    k: int = 1000,
    stopping: perm.EarlyStopping = perm.EarlyStopping(),
    seed: perm.Source = None,
    epsilon_a: float | None = None,
    epsilon_b: float | None = None,
    replace_nans_with_zeros: bool = False,
    plus_one: bool = False,
) -> perm.PermutationTest:
    """The ``pairs`` test that ``metric_a`` beats ``metric_b`` on a Kendall variant, each
    metric with its own tie threshold (calibrated when None; mt-metrics-eval's
    ``PairwisePermutationSigDiff(corr_b, corr_a, ...)``).

    Examples
    --------
    >>> h = [[1, 3], [3, 3], [1, 2], [1, 2]]
    >>> a = [[1, 5], [4, 4], [4, 3], [2, 1]]
    >>> b = [[2, 4], [6, 6], [2, 6], [3, 7]]
    >>> r = pairs_sig_diff(h, a, b, grouping="item", k=10, seed=200)
    >>> round(r.delta, 6), r.p_value, r.n_used  # mt-metrics-eval after np.random.seed(200)
    (-0.083333, 0.7, 10)
    """
    if variant == "c":
        raise ValueError("tau-c is not defined once pairs are swapped")
    H, A, B = as_matrices(human, metric_a, metric_b)
    if epsilon_a is None:
        epsilon_a = tie_calibration(H, A, grouping=grouping, variant=variant).epsilon
    if epsilon_b is None:
        epsilon_b = tie_calibration(H, B, grouping=grouping, variant=variant).epsilon
    if epsilon_a < 0 or epsilon_b < 0:
        raise ValueError("tie thresholds must be non-negative")
    entries, offsets = filter_order(H, grouping)
    gold = H.ravel()[entries]
    layout = perm.pair_layout(offsets)
    ca = perm.pair_classes(layout, gold, A.ravel()[entries], epsilon_a)
    cb = perm.pair_classes(layout, gold, B.ravel()[entries], epsilon_b)
    return perm.pairs_test(
        layout,
        ca,
        cb,
        variant=variant,
        k=k,
        stopping=stopping,
        seed=seed,
        replace_nans_with_zeros=replace_nans_with_zeros,
        plus_one=plus_one,
    )


def spa_sig_diff(
    human: Any,
    metric_a: Any,
    metric_b: Any,
    *,
    k: int = 1000,
    stopping: perm.EarlyStopping = perm.EarlyStopping(),
    seed: perm.Source = None,
    scorer: pw.SpaScorer | None = None,
    plus_one: bool = False,
) -> perm.PermutationTest:
    """PERM-BOTH test that ``metric_a``'s soft pairwise accuracy beats ``metric_b``'s, over the
    rated segment scores (mt-metrics-eval's ``PermutationSigDiff`` with
    ``PairwiseConfidenceError``, as its ``pce`` task runs it). ``scorer`` (for ``human``)
    saves recomputing the human p-values across tests.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> h = rng.normal(size=(5, 60)) + np.arange(5)[:, None] * 0.3
    >>> good, bad = h + rng.normal(size=h.shape), rng.normal(size=h.shape)
    >>> r = spa_sig_diff(h, good, bad, k=50, seed=1)
    >>> r.delta > 0, r.p_value < 0.05
    (True, True)
    """
    sc = scorer if scorer is not None else pw.SpaScorer(human)
    shape = sc.human.shape
    za = zscore(as_matrix(metric_a)[sc.rated])
    zb = zscore(as_matrix(metric_b)[sc.rated])

    def stat(v: np.ndarray) -> np.ndarray:
        return sc.score(v.reshape(len(v), *shape))

    return perm.perm_both(stat, za, zb, k=k, stopping=stopping, seed=seed, plus_one=plus_one)


class PooledAccuracy:
    """System-level pairwise accuracy pooled over language pairs, for stacks of metric
    vectors: ``human`` holds one system vector per language pair (no NaN).

    Examples
    --------
    >>> acc = PooledAccuracy([[1, 2, 3], [1, 2]])
    >>> acc.score(acc.join([[1, 3, 2], [0, 5]])[None]).tolist()  # (2 + 1) / (3 + 1)
    [0.75]
    """

    def __init__(self, human: Any):
        blocks = [np.asarray(h, dtype=np.float64).ravel() for h in human]
        if any(np.isnan(b).any() for b in blocks):
            raise ValueError("pooled accuracy: every system needs its human score")
        self.sizes = [b.size for b in blocks]
        starts = np.r_[0, np.cumsum(self.sizes)[:-1]]
        pairs = [np.triu_indices(n, 1) for n in self.sizes]
        self.iu = np.concatenate([p[0] + s for p, s in zip(pairs, starts, strict=True)])
        self.ju = np.concatenate([p[1] + s for p, s in zip(pairs, starts, strict=True)])
        h = np.concatenate(blocks)
        self.human_sign = np.sign(h[self.iu] - h[self.ju])

    def join(self, metric: Any) -> np.ndarray:
        """One metric's per-pair vectors joined in language-pair order."""
        return np.concatenate([np.asarray(m, dtype=np.float64).ravel() for m in metric])

    def score(self, stack: np.ndarray) -> np.ndarray:
        agree = np.sign(stack[:, self.iu] - stack[:, self.ju]) == self.human_sign
        return agree.sum(axis=1) / self.iu.size


def accuracy_sig_diff(
    human: Any,
    metric_a: Any,
    metric_b: Any,
    *,
    k: int = 1000,
    stopping: perm.EarlyStopping = perm.EarlyStopping(),
    seed: perm.Source = None,
    plus_one: bool = False,
) -> perm.PermutationTest:
    """PERM-BOTH test of pooled system-level pairwise accuracy (mt-metrics-eval's
    ``CompareMetricsWithGlobalAccuracy``): one system vector per language pair in ``human``,
    ``metric_a`` and ``metric_b``; the metric scores are z-normalised over all pairs together.

    Examples
    --------
    >>> h = [[1, 2, 3, 4], [4, 3, 2, 1, 0]]
    >>> a = [[1, 2, 3, 5], [5, 3, 2, 1, 0]]
    >>> b = [[4, 3, 2, 1], [0, 1, 2, 3, 4]]
    >>> r = accuracy_sig_diff(h, a, b, k=100, seed=0)
    >>> r.delta, r.p_value < 0.05
    (1.0, True)
    """
    acc = PooledAccuracy(human)
    za, zb = zscore(acc.join(metric_a)), zscore(acc.join(metric_b))
    return perm.perm_both(acc.score, za, zb, k=k, stopping=stopping, seed=seed,
                          plus_one=plus_one)  # fmt: skip
