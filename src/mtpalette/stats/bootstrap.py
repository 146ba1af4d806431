"""Bootstrap resampling over the first axis of an array: confidence intervals and paired tests.

The resampling unit is the first axis of ``data`` (segments for ORANGE and segment-level
correlation, systems or documents elsewhere). A statistic maps a resampled array (same shape,
rows drawn with replacement) to a number or a vector; when no statistic is given it is the
mean over the first axis, computed for all resamples at once as ``counts @ data / n``.

Randomness is explicit: every function takes ``seed`` (an int, a ``np.random.Generator`` or
``None`` for fresh entropy, in which case the drawn seed is recorded in the result). For one
seed, resample count and sample size the resampled rows are the same whatever the statistic,
so intervals computed by separate calls with the same seed are *paired*: they use the same
resampled segments.

Intervals are percentile intervals by default (``method="basic"`` gives the basic bootstrap
interval ``2 * value - quantiles``). The paired test of two statistics on the same units
resamples the difference; it is significant at level ``1 - confidence`` when the interval of
the difference excludes 0. The two-sided p-value is the shifted-bootstrap estimate
``(1 + #{|d* - d| >= |d|}) / (B + 1)``.

References
----------
Efron and Tibshirani (1993), An Introduction to the Bootstrap, ch. 13 and 16. Davison and
Hinkley (1997), Bootstrap Methods and their Application, ch. 5 (percentile and basic
intervals; Lin and Och (2004) cite this book for ORANGE's 95% intervals without saying which
interval they used). Koehn (2004),
Statistical significance tests for machine translation evaluation (paired bootstrap).
scipy.stats.bootstrap (interface ideas: ``rng``, result dataclasses).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from mtpalette.stats.resampling import INTERVAL_METHODS as METHODS
from mtpalette.stats.resampling import Seed as Seed
from mtpalette.stats.resampling import (
    bootstrap_interval,
    index_batches,
    p_value,
    resample_counts,
)
from mtpalette.stats.resampling import resolve_seed as resolve_seed

Statistic = Callable[[np.ndarray], Any]


@dataclass(frozen=True)
class BootstrapCI:
    """A statistic with its bootstrap confidence interval.

    Attributes
    ----------
    value:
        The statistic on the original sample.
    low, high:
        The interval bounds.
    n:
        Number of resampling units (e.g. segments).
    n_resamples, confidence, method:
        How the interval was obtained.
    seed:
        The integer seed of the resampling, or ``None`` when a caller's Generator was used.
    """

    value: float
    low: float
    high: float
    n: int
    n_resamples: int
    confidence: float
    method: str
    seed: int | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class PairedDiff:
    """The difference ``stat(a) - stat(b)`` on the same resampled units, with its interval.

    ``significant`` is True when the interval excludes 0.
    """

    diff: float
    low: float
    high: float
    p_value: float
    n: int
    n_resamples: int
    confidence: float
    method: str
    seed: int | None

    @property
    def significant(self) -> bool:
        return not (self.low <= 0.0 <= self.high)

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "significant": self.significant}


@dataclass(frozen=True)
class BestComparison:
    """Each column's statistic compared with the best column's, on the same resamples.

    Attributes
    ----------
    best:
        Index of the best column (the first one on a tie).
    values:
        The statistic of every column on the original sample.
    diffs:
        ``diffs[j]`` is column ``j`` minus the best column (all zeros for the best itself).
    equivalent:
        Boolean per column: the interval of its difference with the best includes 0, i.e. it
        is not significantly worse than the best at level ``1 - confidence``.
    """

    best: int
    values: np.ndarray
    diffs: list[PairedDiff]
    equivalent: np.ndarray
    higher_is_better: bool
    seed: int | None


def _check(
    data: Any, n_resamples: int, confidence: float = 0.95, method: str = "percentile"
) -> np.ndarray:
    x = np.asarray(data, dtype=np.float64)
    if x.ndim == 0 or x.shape[0] == 0:
        raise ValueError("the data must have at least one row to resample")
    if n_resamples < 1:
        raise ValueError("n_resamples must be at least 1")
    if not 0.0 < confidence < 1.0:
        raise ValueError("confidence must be between 0 and 1")
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}")
    return x


def bootstrap_distribution(
    data: Any,
    statistic: Statistic | None = None,
    *,
    n_resamples: int = 1000,
    rng: np.random.Generator,
) -> np.ndarray:
    """The statistic on ``n_resamples`` resamples of the rows of ``data``.

    Parameters
    ----------
    data:
        Array whose first axis is the resampling unit.
    statistic:
        Maps a resampled array to a number or a 1-D vector; ``None`` means the mean over the
        first axis (one value per remaining component), computed without copying rows.
    n_resamples:
        Number of bootstrap resamples ``B``.
    rng:
        The random generator.

    Returns
    -------
    np.ndarray
        Shape ``(B,)`` for a scalar statistic, ``(B, *shape)`` otherwise.

    Examples
    --------
    >>> d = bootstrap_distribution([1.0, 2.0, 3.0], n_resamples=4, rng=np.random.default_rng(0))
    >>> d.shape, bool(((d >= 1) & (d <= 3)).all())
    ((4,), True)
    """
    x = _check(data, n_resamples)
    n = x.shape[0]
    if statistic is None:
        flat = x.reshape(n, -1)
        out = np.empty((n_resamples, flat.shape[1]))
        done = 0
        for idx in index_batches(n, n_resamples, rng):
            m = idx.shape[0]
            out[done : done + m] = resample_counts(idx, n) @ flat / n
            done += m
        return out.reshape((n_resamples, *x.shape[1:]))
    rows = [
        np.asarray(statistic(x[r]), dtype=np.float64)
        for idx in index_batches(n, n_resamples, rng)
        for r in idx
    ]
    return np.stack(rows)


def _value(x: np.ndarray, statistic: Statistic | None) -> np.ndarray:
    if statistic is None:
        return x.mean(axis=0)
    return np.asarray(statistic(x), dtype=np.float64)


def _values_and_draws(
    data: Any, statistic: Statistic | None, n_resamples: int, confidence: float, method: str,
    seed: Seed,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int | None]:  # fmt: skip
    """``data`` checked, the statistic on it (flat: one value per component) and on
    ``n_resamples`` resamples of its rows ``(n_resamples, components)``, and the recorded seed;
    the statistic sees the sample before its resamples."""
    x = _check(data, n_resamples, confidence, method)
    rng, recorded = resolve_seed(seed)
    values = np.atleast_1d(_value(x, statistic)).reshape(-1)
    dist = bootstrap_distribution(x, statistic, n_resamples=n_resamples, rng=rng)
    return x, values, dist.reshape(n_resamples, -1), recorded


def bootstrap_cis(
    data: Any,
    statistic: Statistic | None = None,
    *,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    method: str = "percentile",
    seed: Seed = None,
) -> list[BootstrapCI]:
    """One interval per component of a vector statistic, all from the same resamples.

    With no statistic, ``data`` of shape ``(n, M)`` gives the interval of each column's mean.

    Examples
    --------
    >>> x = np.column_stack([np.arange(10.0), 2 * np.arange(10.0)])
    >>> a, b = bootstrap_cis(x, n_resamples=200, seed=1)
    >>> a.value, b.value, round(b.low / a.low, 6), round(b.high / a.high, 6)
    (4.5, 9.0, 2.0, 2.0)
    """
    x, value, dist, recorded = _values_and_draws(
        data, statistic, n_resamples, confidence, method, seed
    )
    lo, hi = bootstrap_interval(dist, confidence, method=method, value=value, omit_nan=False)
    return [
        BootstrapCI(
            float(value[j]),
            float(lo[j]),
            float(hi[j]),
            x.shape[0],
            n_resamples,
            confidence,
            method,
            recorded,
        )
        for j in range(value.shape[0])
    ]


def bootstrap_ci(
    data: Any,
    statistic: Statistic | None = None,
    *,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    method: str = "percentile",
    seed: Seed = None,
) -> BootstrapCI:
    """The bootstrap confidence interval of a scalar statistic (default: the mean).

    Parameters
    ----------
    data:
        Array whose first axis is the resampling unit (1-D for the default mean).
    statistic:
        Maps a resampled array to a number.
    n_resamples, confidence, method:
        ``B``, the coverage (0.95) and ``"percentile"`` or ``"basic"``.
    seed:
        An int, a Generator, or ``None`` (a fresh seed, recorded in the result).

    Examples
    --------
    >>> ci = bootstrap_ci([2.0, 4.0, 6.0, 8.0], n_resamples=500, seed=7)
    >>> ci.value, ci.low >= 2.0, ci.high <= 8.0, ci.seed
    (5.0, True, True, 7)
    >>> ci == bootstrap_ci([2.0, 4.0, 6.0, 8.0], n_resamples=500, seed=7)
    True
    """
    x = _check(data, n_resamples, confidence, method)
    if statistic is None and x.ndim != 1:
        raise ValueError("the default statistic (the mean) needs 1-D data; use bootstrap_cis")
    cis = bootstrap_cis(
        x, statistic, n_resamples=n_resamples, confidence=confidence, method=method, seed=seed
    )
    if len(cis) != 1:
        raise ValueError("the statistic returned a vector; use bootstrap_cis")
    return cis[0]


def _paired(
    dist_a: np.ndarray,
    dist_b: np.ndarray,
    diff: float,
    n: int,
    n_resamples: int,
    confidence: float,
    method: str,
    recorded: int | None,
) -> PairedDiff:
    d = dist_a - dist_b
    lo, hi = bootstrap_interval(d, confidence, method=method, value=diff, omit_nan=False)
    extreme = int(np.count_nonzero(np.abs(d - diff) >= abs(diff) - 1e-12 * abs(diff)))
    return PairedDiff(
        float(diff),
        float(lo),
        float(hi),
        min(1.0, p_value(extreme, n_resamples)),
        n,
        n_resamples,
        confidence,
        method,
        recorded,
    )


def paired_bootstrap(
    a: Any,
    b: Any,
    statistic: Statistic | None = None,
    *,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    method: str = "percentile",
    seed: Seed = None,
) -> PairedDiff:
    """Paired bootstrap of ``stat(a) - stat(b)``: both resampled with the same row indices.

    Examples
    --------
    >>> a = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    >>> r = paired_bootstrap(a, a + 10.0, n_resamples=300, seed=3)
    >>> r.diff, r.low, r.high, r.significant
    (-10.0, -10.0, -10.0, True)
    """
    xa = _check(a, n_resamples, confidence, method)
    xb = _check(b, n_resamples, confidence, method)
    if xa.shape != xb.shape:
        raise ValueError(f"paired data must have the same shape, got {xa.shape} and {xb.shape}")
    rng, recorded = resolve_seed(seed)
    stacked = np.stack([xa, xb], axis=1)
    if statistic is None:
        dist = bootstrap_distribution(stacked, n_resamples=n_resamples, rng=rng)
        dist = dist.reshape(n_resamples, 2, -1)
        if dist.shape[2] != 1:
            raise ValueError("the default statistic (the mean) needs 1-D data")
        da, db = dist[:, 0, 0], dist[:, 1, 0]
        diff = float(xa.mean() - xb.mean())
    else:

        def both(sample: np.ndarray) -> np.ndarray:
            return np.array([float(statistic(sample[:, 0])), float(statistic(sample[:, 1]))])

        dist = bootstrap_distribution(stacked, both, n_resamples=n_resamples, rng=rng)
        da, db = dist[:, 0], dist[:, 1]
        diff = float(statistic(xa)) - float(statistic(xb))
    return _paired(da, db, diff, xa.shape[0], n_resamples, confidence, method, recorded)


def compare_with_best(
    data: Any,
    statistic: Statistic | None = None,
    *,
    higher_is_better: bool,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    method: str = "percentile",
    seed: Seed = None,
) -> BestComparison:
    """Which columns are statistically equivalent to the best one (paired bootstrap).

    The best column is chosen on the original sample. Every other column's difference with it
    is resampled with the same rows; a column is *equivalent* to the best when the interval of
    that difference includes 0 (not significantly worse at level ``1 - confidence``). This
    is our reading of the grey cells of Lin and Och (2004)'s tables (the paper names no test).

    Parameters
    ----------
    data:
        Array of shape ``(n, M)``: one column per competitor (metric), one row per unit.
    statistic:
        Maps a resampled ``(n, M)`` array to ``M`` values; default: column means.
    higher_is_better:
        Direction of the statistic (False for ORANGE, where lower is better).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> base = rng.normal(size=200)
    >>> x = np.column_stack([base, base + 0.001 * rng.normal(size=200), base + 1.0])
    >>> c = compare_with_best(x, higher_is_better=False, n_resamples=500, seed=1)
    >>> c.best in (0, 1), c.equivalent.tolist()[2]
    (True, False)
    """
    x, values, dist, recorded = _values_and_draws(
        data, statistic, n_resamples, confidence, method, seed
    )
    if dist.shape[1] != values.shape[0]:
        raise ValueError("the statistic must return one value per column")
    best = int(np.argmax(values) if higher_is_better else np.argmin(values))
    diffs = [
        _paired(
            dist[:, j],
            dist[:, best],
            float(values[j] - values[best]),
            x.shape[0],
            n_resamples,
            confidence,
            method,
            recorded,
        )
        for j in range(values.shape[0])
    ]
    equivalent = np.array([not d.significant for d in diffs], dtype=bool)
    return BestComparison(best, values, diffs, equivalent, higher_is_better, recorded)
