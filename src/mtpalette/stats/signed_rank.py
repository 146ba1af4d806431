"""The Wilcoxon signed-rank test of many samples at once: one sort for all of them, and the
exact and normal p-values without a Python call per test.

A sample is a group of paired differences (the items two systems share, or those of one
domain of a pair: WMT24's tests). The two-sided p-value of every group equals, bit for bit,
``scipy.stats.wilcoxon(d, method=..., correction=False, zero_method="wilcox")`` called on
that group alone with the method that scipy <= 1.14's ``method="auto"`` chose (the scipy
WMT24's organisers ran: 1.14.1). That rule, :data:`RULE`, is written into the signature of a
ranking that uses it, since scipy 1.15 changed its default (a permutation test for small
samples with ties or zeros, the normal approximation up to 50 differences with ties):

* zero differences are dropped (``zero_method="wilcox"``); a group whose differences are all
  zero has p-value 1 (nothing tells the two apart), an empty group NaN;
* the **exact** null distribution of ``R+`` when the group has at most 50 differences and no
  zero; ties are kept, and a half-integer ``R+`` is rounded conservatively (up for the lower
  tail, down for the upper tail), as scipy does;
* otherwise the **normal approximation** on the non-zero differences, tie-corrected
  variance, no continuity correction: ``p = 2 Phi(-|R+ - n(n+1)/4| / se)``.

The tail sums of the exact distribution are taken as scipy takes them (numpy's pairwise sum
of the same slices, once per sample size and statistic, cached), which is what makes the
p-values equal to the last bit rather than to rounding.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

#: the exact-or-normal rule, as written into signatures
RULE = "exact-if-n<=50-and-no-zero(ties-rounded)-else-normal(no-cc)-zeros-dropped"
#: the largest sample (zeros included) that gets the exact distribution
EXACT_MAX = 50


@dataclass(frozen=True)
class SignedRankTests:
    """Per group: the two-sided ``p``, ``R+`` (sum of the ranks of the positive
    differences), the number of differences ``n`` and of non-zero ones ``n_nonzero``, and
    whether the exact distribution was used."""

    p: np.ndarray
    r_plus: np.ndarray
    n: np.ndarray
    n_nonzero: np.ndarray
    exact: np.ndarray


def signed_rank_tests(differences, groups, n_groups: int) -> SignedRankTests:
    """Two-sided Wilcoxon signed-rank tests of the ``differences`` of each group
    (``groups[i]`` in ``0 .. n_groups - 1``), by the rule of the module docstring.

    Examples
    --------
    >>> d = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, -1.0, 0.0, 2.0, 0.0, 0.0]
    >>> t = signed_rank_tests(d, [0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2], 4)
    >>> t.p.round(4).tolist()[:3], t.exact.tolist(), t.n.tolist()
    ([0.0312, 0.6547, 1.0], [True, False, False, False], [6, 3, 2, 0])
    >>> bool(np.isnan(t.p[3]))  # an empty group
    True
    """
    d = np.asarray(differences, dtype=np.float64).ravel()
    g = np.asarray(groups, dtype=np.intp).ravel()
    if d.shape != g.shape:
        raise ValueError(f"{d.size} differences for {g.size} group numbers")
    if np.isnan(d).any():
        raise ValueError("a difference is NaN: leave unpaired items out")
    n = np.bincount(g, minlength=n_groups)
    keep = d != 0
    d, g = d[keep], g[keep]
    n_nonzero = np.bincount(g, minlength=n_groups)
    r_plus, ties = _ranks(d, g, n_nonzero)
    exact = (n <= EXACT_MAX) & (n_nonzero == n) & (n > 0)
    p = np.full(n_groups, np.nan)
    p[(n > 0) & (n_nonzero == 0)] = 1.0
    normal = (n_nonzero > 0) & ~exact
    p[normal] = _normal_p(r_plus[normal], n_nonzero[normal], ties[normal])
    p[exact] = _exact_p(r_plus[exact], n_nonzero[exact])
    return SignedRankTests(p, r_plus, n, n_nonzero, exact)


def _ranks(d: np.ndarray, g: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``R+`` of every group (average ranks of ``|d|`` within the group) and the tie term
    ``sum(t^3 - t)`` over its runs of equal ``|d|``. Ranks are multiples of 1/2, so every
    sum is exact whatever its order."""
    n_groups = counts.size
    if d.size == 0:
        return np.zeros(n_groups), np.zeros(n_groups)
    a = np.abs(d)
    order = np.lexsort((a, g))
    a, g, positive = a[order], g[order], d[order] > 0
    starts_run = np.empty(a.size, dtype=bool)
    starts_run[0] = True
    starts_run[1:] = (g[1:] != g[:-1]) | (a[1:] != a[:-1])
    start = np.flatnonzero(starts_run)
    end = np.append(start[1:], a.size)  # exclusive
    first = np.concatenate([[0], np.cumsum(counts)[:-1]])[g[start]]  # the group's offset
    mean_rank = (start - first + end - first + 1) / 2.0
    rank = np.repeat(mean_rank, end - start)
    r_plus = np.bincount(g, weights=np.where(positive, rank, 0.0), minlength=n_groups)
    t = (end - start).astype(np.float64)
    ties = np.bincount(g[start], weights=t**3 - t, minlength=n_groups)
    return r_plus, ties


def _normal_p(r_plus: np.ndarray, n: np.ndarray, ties: np.ndarray) -> np.ndarray:
    from scipy.special import ndtr

    count = n.astype(np.float64)
    mean = count * (count + 1.0) * 0.25
    var = count * (count + 1.0) * (2.0 * count + 1.0)
    se = np.sqrt((var - ties / 2) / 24)
    z = (r_plus - mean) / se
    return 2 * ndtr(-np.abs(z))


def _exact_p(r_plus: np.ndarray, n: np.ndarray) -> np.ndarray:
    out = np.empty(r_plus.size)
    low, high = np.floor(r_plus).astype(np.intp), np.ceil(r_plus).astype(np.intp)
    for size in np.unique(n):
        at = n == size
        head, tail = _tail_sums(int(size))
        mean = size * (size + 1) / 4
        lo, hi = low[at], high[at]
        # P(R+ >= lo) and P(R+ <= hi), each from the shorter side as scipy sums them
        upper = np.where(lo <= mean, tail[lo], 1 - head[lo])
        lower = np.where(hi <= mean, head[hi + 1], 1 - tail[hi + 1])
        out[at] = np.clip(2 * np.minimum(upper, lower), 0, 1)
    return out


@lru_cache(maxsize=EXACT_MAX + 1)
def _tail_sums(n: int) -> tuple[np.ndarray, np.ndarray]:
    """``head[k] = pmf[:k].sum()`` and ``tail[k] = pmf[k:].sum()`` for ``k = 0 .. M + 1``
    (``M = n(n+1)/2``) of the null distribution of ``R+`` for ``n`` differences, each a
    numpy sum of that slice."""
    pmf = _null_pmf(n)
    top = pmf.size + 1
    head = np.array([pmf[:k].sum() for k in range(top)])
    tail = np.array([pmf[k:].sum() for k in range(top)])
    return head, tail


def _null_pmf(n: int) -> np.ndarray:
    """P(R+ = r), r = 0 .. n(n+1)/2: the number of subsets of {1..n} with sum r over 2^n,
    built one rank at a time (every value is exact in binary)."""
    pmf = np.ones(1)
    for k in range(1, n + 1):
        grown = np.zeros(pmf.size + k)
        grown[: pmf.size] += 0.5 * pmf
        grown[k:] += 0.5 * pmf
        pmf = grown
    return pmf
