"""Ranking systems with significance between every pair, as WMT ranks them: pairwise
p-values, their correction for many pairs, rank ranges and clusters.

Pure array statistics; the systems' scores come in as a ``(systems, items)`` matrix (NaN:
no score for that item), higher is better (negate an error metric before).

* **Pairwise tests on item scores**, each pair joined on the items both systems have:
  ``wilcoxon`` (two-sided Wilcoxon signed-rank test on the paired differences, scipy's
  defaults: zero differences dropped; the exact distribution for at most 50 differences
  without a zero, else the normal approximation without continuity correction, as scipy <=
  1.14 chose them and WMT24's code ran), ``ttest`` (two-sided paired t-test; both as comet-
  compare reports them), ``mannwhitney`` (two-sided Mann-Whitney U, the Wilcoxon rank-sum
  test: unpaired, on all of each system's scored items, for ratings that share no items, as
  WMT's DA rankings of 2019-2021 compared systems), and ``wmt24`` (WMT24 General MT's human
  ranking: a Wilcoxon test per domain, the domains' p-values combined by Stouffer's method;
  the system score is the mean over each domain's items, then the unweighted mean over
  domains). The corpus-level tests (paired bootstrap and approximate randomization of any
  metric from its sufficient statistics) are :func:`mtpalette.stats.paired.all_pairs`.
* **Correction** over all ``S (S - 1) / 2`` pairs: ``holm`` (family-wise error, Holm 1979),
  ``bh`` (false discovery rate, Benjamini and Hochberg 1995; scipy's
  ``false_discovery_control``) or ``none``.
* **Rank range** of a system (WMT's): from ``1 + (systems significantly better)`` to
  ``S - (systems significantly worse)``.
* **Clusters**: the finest cut of the systems sorted by score into contiguous blocks such
  that any two systems in different blocks differ significantly (a cut after position ``k``
  needs every system up to ``k`` to be significantly better than every system after it).

References
----------
Kocmi et al. (2024), Findings of the WMT24 General Machine Translation Shared Task
(Section 5: system ranking; wmt-conference/wmt24-news-systems ``humeval/``, read, not copied).
Stouffer et al. (1949); Holm (1979); Benjamini and Hochberg (1995).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mtpalette.stats.signed_rank import signed_rank_tests

#: tests on item scores (see the module docstring)
ITEM_TESTS = ("wmt24", "wilcoxon", "ttest", "mannwhitney")
CORRECTIONS = ("none", "holm", "bh")


@dataclass(frozen=True)
class PairwiseTests:
    """Every pair's test: ``p[a, b]`` (symmetric, NaN on the diagonal), the number of items
    the pair shares, and for ``wmt24`` each domain's p-value (``by_domain[d][a, b]``)."""

    p: np.ndarray
    n_shared: np.ndarray
    by_domain: dict[str, np.ndarray] | None = None


def _paired(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    ok = ~np.isnan(x) & ~np.isnan(y)
    return x[ok], y[ok]


def _two_sided(test: str, x: np.ndarray, y: np.ndarray) -> float:
    """The two-sided p-value of ``test`` on paired scores (1 where every difference is 0:
    nothing tells the two apart); ``wilcoxon`` by :mod:`mtpalette.stats.signed_rank`'s
    rule (scipy <= 1.14's choice between the exact and the normal distribution)."""
    d = x - y
    if d.size == 0:
        return float("nan")
    if not np.any(d != 0):
        return 1.0
    if test == "ttest":
        from scipy import stats as scipy_stats

        if np.all(d == d[0]):  # a constant non-zero difference: t is infinite
            return 0.0
        return float(scipy_stats.ttest_rel(x, y).pvalue)
    return float(signed_rank_tests(d, np.zeros(d.size, dtype=np.intp), 1).p[0])


def _unpaired(xa: np.ndarray, xb: np.ndarray, a: int, b: int, min_items: int) -> float:
    """Two-sided Mann-Whitney U of two systems' scored items (scipy's defaults)."""
    from scipy import stats as scipy_stats

    xa, xb = xa[~np.isnan(xa)], xb[~np.isnan(xb)]
    if min(xa.size, xb.size) < min_items:
        raise ValueError(f"systems {a} and {b}: {xa.size} and {xb.size} scored item(s)")
    if np.all(np.concatenate([xa, xb]) == xa[0]):
        return 1.0
    return float(scipy_stats.mannwhitneyu(xa, xb, alternative="two-sided").pvalue)


def stouffer(p_values: Sequence[float]) -> float:
    """Stouffer's combination of p-values with equal weights, as WMT24's code computes it:
    ``1 - Phi(sum(z_i) / sqrt(k))`` with ``z_i = Phi^-1(1 - p_i)``. WMT24 combines the
    *two-sided* p-values of the domains, so the combination ignores which system each domain
    favours, and a domain with ``p_i = 1`` (one shared item) makes the pair's p-value 1.

    Examples
    --------
    >>> round(stouffer([0.05, 0.05]), 6)
    0.010005
    """
    return float(stouffer_rows(np.asarray(list(p_values), dtype=np.float64)[None, :])[0])


def stouffer_rows(p_values: Any) -> np.ndarray:
    """:func:`stouffer` of every row of a ``(pairs, domains)`` matrix, NaN entries left out
    (a row without a p-value: NaN); each row's sum is taken as numpy sums that row alone.

    Examples
    --------
    >>> stouffer_rows([[0.05, 0.05], [0.05, np.nan]]).round(6).tolist()
    [0.010005, 0.05]
    """
    from scipy.special import ndtr, ndtri  # scipy.stats.norm's cdf and ppf, without scipy.stats

    p = np.atleast_2d(np.asarray(p_values, dtype=np.float64))
    out = np.full(p.shape[0], np.nan)
    present = ~np.isnan(p)
    patterns, inverse = np.unique(present, axis=0, return_inverse=True)
    for k, keep in enumerate(patterns):  # rows with the same domains present, together
        rows = inverse.ravel() == k
        if keep.any():
            z = ndtri(1.0 - np.ascontiguousarray(p[np.ix_(rows, keep)]))
            out[rows] = 1.0 - ndtr(np.sum(z, axis=1) / np.sqrt(int(keep.sum())))
    return out


def pairwise_tests(
    scores: Any,
    test: str = "wilcoxon",
    *,
    domains: Sequence[str] | None = None,
    min_items: int = 2,
) -> PairwiseTests:
    """The two-sided p-value of every pair of systems (rows of ``scores``) by an item test.

    ``domains`` (one name per item) is needed by ``wmt24``: each domain's pairs are tested
    on the items of that domain both systems have, and the domain p-values combined by
    :func:`stouffer`. A pair (or a domain of a pair) with fewer than ``min_items`` shared
    items is a ValueError naming it. ``wilcoxon`` and ``wmt24`` test all pairs (and domains)
    at once (:func:`mtpalette.stats.signed_rank.signed_rank_tests`).

    Examples
    --------
    >>> s = np.array([[3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 2.5, 3.0, 4.0, 5.0]])
    >>> round(float(pairwise_tests(s, "wilcoxon").p[0, 1]), 4)  # 6 of 6 differences > 0
    0.0312
    """
    if test not in ITEM_TESTS:
        raise ValueError(f"unknown test {test!r}; expected one of {', '.join(ITEM_TESTS)}")
    x = np.asarray(scores, dtype=np.float64)
    if test == "wmt24" and domains is None:
        raise ValueError("the wmt24 protocol tests each domain: give the items' domains")
    if test in ("wilcoxon", "wmt24"):
        return _signed_rank_pairs(x, domains if test == "wmt24" else None, min_items)
    S = x.shape[0]
    p = np.full((S, S), np.nan)
    shared = np.zeros((S, S), dtype=np.int64)
    for a in range(S):
        for b in range(a + 1, S):
            xa, xb = _paired(x[a], x[b])
            shared[a, b] = shared[b, a] = xa.size
            if test == "mannwhitney":
                p[a, b] = p[b, a] = _unpaired(x[a], x[b], a, b, min_items)
                continue
            _check_shared(a, b, xa.size, min_items)
            p[a, b] = p[b, a] = _two_sided(test, xa, xb)
    return PairwiseTests(p, shared)


def _check_shared(a: int, b: int, n: int, min_items: int) -> None:
    if n < min_items:
        raise ValueError(
            f"systems {a} and {b} share {n} scored item(s): a paired test needs items both "
            "have (--protocol mannwhitney compares them unpaired)"
        )


def _signed_rank_pairs(x: np.ndarray, domains: Sequence[str] | None,
                       min_items: int) -> PairwiseTests:  # fmt: skip
    """Wilcoxon tests of every pair (of every domain of every pair, with ``domains``), all
    ranked in one sort, the domains' p-values combined by :func:`stouffer_rows`."""
    S, N = x.shape
    a, b = np.triu_indices(S, 1)
    scored = (~np.isnan(x)).astype(np.float64)
    shared = np.rint(scored @ scored.T).astype(np.int64)
    np.fill_diagonal(shared, 0)
    names = list(dict.fromkeys(domains)) if domains is not None else [""]
    at = {d: k for k, d in enumerate(names)}
    of = np.array([at[d] for d in domains], dtype=np.intp) if domains is not None else (
        np.zeros(N, dtype=np.intp))  # fmt: skip
    D = len(names)
    if domains is None:
        for k in np.flatnonzero(shared[a, b] < min_items)[:1]:
            _check_shared(int(a[k]), int(b[k]), int(shared[a[k], b[k]]), min_items)
    p = np.empty(a.size * D)
    n = np.empty(a.size * D, dtype=np.int64)
    step = max(1, 4_000_000 // max(N, 1))  # pairs per block: a few million differences
    for lo in range(0, a.size, step):
        hi = min(lo + step, a.size)
        diff = x[a[lo:hi]] - x[b[lo:hi]]
        ok = ~np.isnan(diff)
        group = np.arange(hi - lo)[:, None] * D + of[None, :]
        t = signed_rank_tests(diff[ok], group[ok], (hi - lo) * D)
        p[lo * D : hi * D], n[lo * D : hi * D] = t.p, t.n
    p, n = p.reshape(a.size, D), n.reshape(a.size, D)
    out = np.full((S, S), np.nan)
    if domains is None:
        out[a, b] = out[b, a] = p[:, 0]
        return PairwiseTests(out, shared)
    for k in np.flatnonzero((n == 0).all(axis=1))[:1]:
        raise ValueError(f"systems {a[k]} and {b[k]} share no scored item in any domain")
    p[n == 0] = np.nan  # a domain without a shared item is left out (as WMT24's code)
    out[a, b] = out[b, a] = stouffer_rows(p)
    by_domain = {}
    for k, d in enumerate(names):
        by_domain[d] = np.full((S, S), np.nan)
        by_domain[d][a, b] = by_domain[d][b, a] = p[:, k]
    return PairwiseTests(out, shared, by_domain)


def system_scores(scores: Any, domains: Sequence[str] | None = None) -> np.ndarray:
    """Each system's mean item score; with ``domains``, the unweighted mean over domains of
    its mean in each domain (WMT24's system score).

    Examples
    --------
    >>> system_scores([[1.0, 2.0, 6.0]], ["a", "a", "b"]).tolist()  # (1.5 + 6) / 2
    [3.75]
    """
    x = np.asarray(scores, dtype=np.float64)
    if domains is None:
        return np.nanmean(x, axis=1)
    of = np.asarray(domains, dtype=object)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a system without a domain: NaN
        per = np.column_stack([np.nanmean(x[:, of == d], axis=1) for d in dict.fromkeys(domains)])
        return np.nanmean(per, axis=1)  # over the domains the system has


def shared_differences(scores: Any, domains: Sequence[str] | None = None) -> np.ndarray:
    """``d[a, b]``: the mean of ``a``'s score minus ``b``'s over the items both have (NaN
    where they share none); with ``domains``, the unweighted mean over the domains where they
    share an item of that mean in each domain (WMT24's system score, on shared items). Its
    sign is the direction a paired test compares, whatever the systems' means over their own
    items say.

    Examples
    --------
    >>> x = np.array([[9.0, 9.0, np.nan, np.nan], [10.0, 10.0, 1.0, 1.0]])
    >>> system_scores(x).tolist(), shared_differences(x)[0, 1].item()
    ([9.0, 5.5], -1.0)
    """
    x = np.asarray(scores, dtype=np.float64)
    if domains is None:
        return _shared_mean_difference(x)
    of = np.asarray(domains, dtype=object)
    parts = np.stack([_shared_mean_difference(x[:, of == d]) for d in dict.fromkeys(domains)])
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a pair without a shared item: NaN
        return np.nanmean(parts, axis=0)


def _shared_mean_difference(x: np.ndarray) -> np.ndarray:
    have = (~np.isnan(x)).astype(np.float64)
    v = np.where(np.isnan(x), 0.0, x)
    total = v @ have.T - have @ v.T  # sum over shared items of x_a - x_b
    count = have @ have.T
    with np.errstate(all="ignore"):
        return np.where(count > 0, total / np.maximum(count, 1.0), np.nan)


def domain_scores(scores: Any, domains: Sequence[str]) -> dict[str, np.ndarray]:
    """Each system's mean item score in every domain."""
    x = np.asarray(scores, dtype=np.float64)
    of = np.asarray(domains, dtype=object)
    return {d: np.nanmean(x[:, of == d], axis=1) for d in dict.fromkeys(domains)}


def adjust(p: Any, method: str = "none") -> np.ndarray:
    """The p-values of the pairs (the upper triangle of a symmetric ``(S, S)`` matrix, or a
    vector) adjusted for their number: ``holm`` or ``bh``; ``none`` returns them as given.

    Examples
    --------
    >>> adjust([0.01, 0.04, 0.03], "holm").round(3).tolist()
    [0.03, 0.06, 0.06]
    >>> adjust([0.01, 0.04, 0.03], "bh").round(3).tolist()
    [0.03, 0.04, 0.04]
    """
    if method not in CORRECTIONS:
        raise ValueError(f"unknown correction {method!r}; expected one of {', '.join(CORRECTIONS)}")
    x = np.asarray(p, dtype=np.float64)
    if x.ndim == 2:
        iu = np.triu_indices(x.shape[0], 1)
        out = np.full_like(x, np.nan)
        out[iu] = adjust(x[iu], method)
        out.T[iu] = out[iu]
        return out
    if method == "none" or x.size == 0:
        return x.copy()
    if method == "bh":
        from scipy.stats import false_discovery_control

        return false_discovery_control(x, method="bh")
    order = np.argsort(x, kind="stable")
    m = x.size
    stepped = np.maximum.accumulate((m - np.arange(m)) * x[order])
    out = np.empty(m)
    out[order] = np.minimum(stepped, 1.0)
    return out


def rank_ranges(significant: Any, better: Any) -> tuple[np.ndarray, np.ndarray]:
    """WMT's rank range of every system: ``1 + #(significantly better systems)`` to
    ``S - #(significantly worse systems)``; ``better[a, b]``: ``a`` scores higher than ``b``.

    Examples
    --------
    >>> sig = np.array([[False, True, True], [True, False, False], [True, False, False]])
    >>> better = np.array([[False, True, True], [False, False, True], [False, False, False]])
    >>> [r.tolist() for r in rank_ranges(sig, better)]
    [[1, 2, 2], [1, 3, 3]]
    """
    sig = np.asarray(significant, dtype=bool)
    b = np.asarray(better, dtype=bool)
    wins = (sig & b).sum(axis=1)
    losses = (sig & b.T).sum(axis=1)
    return 1 + losses, sig.shape[0] - wins


def clusters(significant_in_order: Any) -> np.ndarray:
    """Cluster number (1 = best) of each system in score order: a new cluster starts after
    position ``k`` when every system up to ``k`` differs significantly from every later one.

    Examples
    --------
    >>> sig = np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0]], dtype=bool)
    >>> clusters(sig).tolist()
    [1, 2, 3]
    >>> sig[0, 1] = sig[1, 0] = False
    >>> clusters(sig).tolist()
    [1, 1, 2]
    """
    sig = np.asarray(significant_in_order, dtype=bool)
    S = sig.shape[0]
    out = np.ones(S, dtype=np.int64)
    current = 1
    for k in range(1, S):  # a cut between k - 1 and k
        if sig[:k, k:].all():
            current += 1
        out[k] = current
    return out
