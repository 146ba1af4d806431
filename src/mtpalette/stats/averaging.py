"""Grouped correlations with their p-values, as mt-metrics-eval averages them: macro or
weighted (``macro=False``) averages, NaN groups dropped or counted as 0
(``replace_nans_with_zeros``), and Williams' test on such averaged correlations.

A ``(systems, items)`` matrix is split into groups by ``grouping`` (``none``: one vector;
``system``: one row per system; ``item``: one column per item); in every group the unrated
entries (NaN human scores) are dropped, groups left with fewer than 2 entries are skipped,
and the correlation function gives ``(r, p)``. Pearson and Spearman of a group with a
constant vector are NaN (as scipy before 1.4 and mt-metrics-eval). The average weights each
group by 1 (``macro``), or by its size (``macro=False``; by its number of pairs for
``kendall-like``); the p-value is averaged the same way.

References
----------
Reference implementation: google-research/mt-metrics-eval at 68a481a,
``mt_metrics_eval/stats.py`` (``AverageCorrelation``, ``KendallLike``, ``WilliamsSigDiff``).
Williams (1959); Graham and Baldwin (2014), Testing for Significance of Increased
Correlation with Human Judgment.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from mtpalette.stats.group_kernels import pearson
from mtpalette.stats.grouping import as_matrix
from mtpalette.stats.kendall import kendall, kendall_like_counts

#: correlation functions of :func:`average_correlation`
FUNCTIONS = ("pearson", "spearman", "kendall", "kendall-like", "kendall-variants")


@dataclass(frozen=True)
class AveragedCorrelation:
    """An averaged correlation, its averaged p-value and the total weight of its groups."""

    value: float
    p_value: float
    weight: float


def _kendall_like(g: np.ndarray, m: np.ndarray, thresh: float = 25.0) -> tuple[float, float, int]:
    con, dis = kendall_like_counts(g, m, threshold=thresh)
    n = con + dis
    return ((con - dis) / n if n else 0, 0.0, n)


def _function(name: str, args: dict[str, Any]) -> Callable[[np.ndarray, np.ndarray], tuple]:
    from scipy import stats as _scipy_stats

    if name == "pearson":
        return lambda g, m: tuple(_scipy_stats.pearsonr(g, m))
    if name == "spearman":
        return lambda g, m: tuple(_scipy_stats.spearmanr(g, m))
    if name == "kendall":
        variant = args.get("variant", "b")
        return lambda g, m: tuple(_scipy_stats.kendalltau(g, m, variant=variant))
    if name == "kendall-like":
        thresh = float(args.get("thresh", 25.0))
        return lambda g, m: _kendall_like(g, m, thresh)
    if name == "kendall-variants":
        variant, eps = args.get("variant", "b"), float(args.get("epsilon", 0.0))
        return lambda g, m: (kendall(g, m, variant, epsilon=eps), 0.0)
    raise ValueError(f"unknown correlation {name!r}; expected one of {', '.join(FUNCTIONS)}")


def grouped_rows(x: np.ndarray, grouping: str) -> np.ndarray:
    """The rows of ``grouping``: ``none`` one row, ``system`` the matrix, ``item`` its
    transpose."""
    if grouping == "none":
        return x.reshape(1, -1)
    if grouping == "system":
        return x
    if grouping == "item":
        return x.T
    raise ValueError(f"unknown grouping {grouping!r}; expected none, item or system")


def average_correlation(
    human: Any,
    metric: Any,
    function: str = "pearson",
    *,
    grouping: str = "none",
    macro: bool = True,
    replace_nans_with_zeros: bool = False,
    **args: Any,
) -> AveragedCorrelation:
    """A correlation averaged over groups, with its p-value (mt-metrics-eval's
    ``AverageCorrelation``).

    ``function`` is ``pearson``, ``spearman``, ``kendall`` (scipy's, ``variant='b'`` or
    ``'c'``), ``kendall-like`` (``thresh``, weighted by its number of pairs when
    ``macro=False``) or ``kendall-variants`` (``variant`` b, c, 23 or acc23, ``epsilon``:
    mt-metrics-eval's ``KendallVariants``).
    Returns ``(0, 0, 0)`` when no group is defined.

    Examples
    --------
    >>> h = [[1, np.nan, 3], [4, 5, 6]]  # mt-metrics-eval's stats_test, testMicroAveraging
    >>> m = [[2, 1, 8], [3, 5, 6]]
    >>> r = average_correlation(h, m, grouping="system", macro=False)
    >>> round(r.value, 6), round(r.p_value, 6), r.weight  # weights 2 and 3
    (0.989188, 0.472623, 5.0)
    """
    fn = _function(function, args)
    H = grouped_rows(as_matrix(human), grouping)
    M = grouped_rows(as_matrix(metric), grouping)
    if H.shape != M.shape:
        raise ValueError(f"human {H.shape} and metric {M.shape} shapes differ")
    tot_corr = tot_p = n = 0.0
    weight = 1.0
    for h, m in zip(H, M, strict=True):
        ok = ~np.isnan(h)
        h, m = h[ok], m[ok]
        if h.size < 2:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ret = fn(h, m)
        if function in ("pearson", "spearman") and (np.all(h == h[0]) or np.all(m == m[0])):
            ret = (np.nan, np.nan)
        if not macro:
            weight = float(ret[2]) if len(ret) > 2 else float(h.size)
        if not np.isnan(ret[0]):
            tot_corr += weight * ret[0]
            tot_p += weight * ret[1]
            n += weight
        elif replace_nans_with_zeros:
            n += weight
    if not n:
        return AveragedCorrelation(0.0, 0.0, 0.0)
    return AveragedCorrelation(float(tot_corr / n), float(tot_p / n), float(n))


def williams_averaged(
    human: Any,
    metric_a: Any,
    metric_b: Any,
    function: str = "pearson",
    *,
    grouping: str = "item",
    one_sided: bool = True,
    **args: Any,
) -> tuple[float, float, float]:
    """Williams' test on averaged correlations: ``(p, r_a, r_b)`` (mt-metrics-eval's
    ``WilliamsSigDiff`` with an ``AverageCorrelation`` function).

    ``r_ab`` is the same average of the two metrics' correlation (all entries, as
    mt-metrics-eval); ``n`` counts every entry of the matrix, rated or not, as it does.

    Examples
    --------
    >>> h = [[1, np.nan], [3, 4], [5, 6]]  # mt-metrics-eval's stats_test
    >>> a = [[1, 2], [3, 3], [7, 3]]
    >>> b = [[2, 1], [2, 6], [8, 8]]
    >>> [round(x, 3) for x in williams_averaged(h, a, b, grouping="item")]
    [0.121, 0.982, 0.933]
    """

    H, A, B = as_matrix(human), as_matrix(metric_a), as_matrix(metric_b)
    ra = average_correlation(H, A, function, grouping=grouping, **args).value
    rb = average_correlation(H, B, function, grouping=grouping, **args).value
    rab = average_correlation(A, B, function, grouping=grouping, **args).value
    return williams_test(ra, rb, rab, H.size, one_sided=one_sided), ra, rb


def williams_test(r12: float, r13: float, r23: float, n: int, *, one_sided: bool = True) -> float:
    """p-value of Williams' test that ``r12`` (human-metric 1) exceeds ``r13`` (human-metric 2),
    given ``r23`` (metric 1-metric 2) on ``n`` items.

    Examples
    --------
    >>> round(williams_test(0.6, 0.4, 0.5, 100), 6)
    0.008066
    """
    if n <= 3:
        raise ValueError("Williams' test needs more than 3 items")
    k = 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r23 * r13
    rbar = (r12 + r13) / 2
    t = (
        (r12 - r13)
        * np.sqrt((n - 1) * (1 + r23))
        / np.sqrt(2 * (n - 1) / (n - 3) * k + rbar**2 * (1 - r23) ** 3)
    )
    from scipy import stats as _scipy_stats

    p = float(_scipy_stats.t.sf(abs(t), n - 3))
    return p if one_sided else 2 * p


def williams_sig_diff(
    human: Any, metric_a: Any, metric_b: Any, *, one_sided: bool = True
) -> tuple[float, float, float]:
    """Williams' test on the rated entries (Pearson, no grouping): ``(p, r_a, r_b)``.

    The p-value is for "a correlates better than b" when ``r_a > r_b`` (the test is
    symmetric in the absolute difference).
    """
    H = as_matrix(human)
    rated = ~np.isnan(H)
    h = H[rated]
    a = as_matrix(metric_a)[rated]
    b = as_matrix(metric_b)[rated]
    ra, rb, rab = pearson(h, a), pearson(h, b), pearson(a, b)
    return williams_test(ra, rb, rab, h.size, one_sided=one_sided), ra, rb
