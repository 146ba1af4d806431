"""WMT26's pairwise test of the human ranking: is system ``a`` significantly better than ``b``?

The organisers' rule (wmt-conference/wmt26-general-mt ``humeval/02b-analyze_results.py``,
``is_significantly_better``) has two one-sided bootstrap tests of the mean difference, each a
95% BCa interval (``scipy.stats.bootstrap``'s default method) with 100 resamples:

1. paired, on the items both systems have, when there are two or more and ``a`` is ahead on
   at least one of them: significant if the interval's lower end is above 0;
2. otherwise (fewer than two shared items, ``a`` never ahead, or the paired test not
   significant), unpaired: each system's own items resampled independently, significant if
   the lower end of the interval of ``mean(a) - mean(b)`` is above 0 (each system needs two
   items or more).

A pair is significant if either test is. Their bootstrap is unseeded (a fresh random stream
per call); here each test draws its resample indices from ``numpy.random.default_rng(seed)``
afresh, as a call of ``scipy.stats.bootstrap(..., rng=numpy.random.default_rng(seed))`` would:
``integers(0, n, (resamples, n))`` for a paired test on ``n`` items, and for an unpaired one
those of ``a`` (``n_a`` items) then, from the same stream, those of ``b``. Every pair with the
same counts therefore uses the same indices, and all pairs' resamples are computed at once, as
matrix products of the scores with the resamples' counts.

:func:`significance` returns every ordered pair's outcome; :func:`bca_lower` is the interval's
lower end (Efron and Tibshirani 1993, 14.3 and 15.4, as scipy computes it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.special import ndtr, ndtri

#: the organisers' settings: resamples per test and the one-sided level
N_RESAMPLES = 100
ALPHA = 0.05


@dataclass(frozen=True)
class PairwiseBootstrap:
    """Every ordered pair ``(a, b)``: ``better[a, b]`` whether ``a`` is significantly better
    than ``b``; ``paired[a, b]`` whether the paired test decided it (False: the unpaired test,
    or neither); ``n_shared`` the items the two share."""

    better: np.ndarray
    paired: np.ndarray
    n_shared: np.ndarray
    n_resamples: int
    seed: int | None


def bca_lower(theta_hat: np.ndarray, theta_b: np.ndarray, jackknife: Sequence[np.ndarray], *,
              alpha: float = ALPHA) -> np.ndarray:  # fmt: skip
    """The lower end of the one-sided BCa interval at level ``1 - alpha``, row by row.

    ``theta_hat`` ``(P,)`` the statistic, ``theta_b`` ``(P, B)`` its bootstrap values,
    ``jackknife`` one ``(P, n_j)`` array per sample of its leave-one-out values. NaN where the
    interval is undefined (every jackknife value equal), as scipy's (a NaN is never above 0).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> d = rng.normal(1.0, 1.0, 30)
    >>> idx = np.random.default_rng(1).integers(0, 30, (200, 30))
    >>> jack = (d.sum() - d) / 29
    >>> low = bca_lower(np.array([d.mean()]), d[idx].mean(-1)[None], [jack[None]])
    >>> import scipy.stats
    >>> ref = scipy.stats.bootstrap((d,), np.mean, n_resamples=200, alternative="greater",
    ...                             rng=np.random.default_rng(1))
    >>> bool(np.isclose(low[0], ref.confidence_interval.low, rtol=1e-12))
    True
    """
    from scipy.stats import quantile

    B = theta_b.shape[-1]
    th = theta_hat[:, None]
    below = np.count_nonzero(theta_b < th, axis=-1) + np.count_nonzero(theta_b <= th, axis=-1)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        z0 = ndtri(below / (2 * B))
        nums, dens = 0.0, 0.0
        for values in jackknife:
            n = float(values.shape[-1])
            u = (n - 1) * (values.mean(axis=-1, keepdims=True) - values)
            nums = nums + np.sum(u**3, axis=-1) / n**3
            dens = dens + np.sum(u**2, axis=-1) / n**2
        a_hat = 1 / 6 * nums / dens ** (3 / 2)
        num = z0 + float(ndtri(alpha))
        level = ndtr(z0 + num / (1 - a_hat * num))
    return np.asarray(quantile(theta_b, level[:, None], axis=-1)).reshape(-1)


def _counts(rng: np.random.Generator, n: int, n_resamples: int) -> np.ndarray:
    """``(resamples, n)``: how often each of ``n`` items is drawn in each resample."""
    idx = rng.integers(0, n, (n_resamples, n))
    flat = (idx + n * np.arange(n_resamples)[:, None]).ravel()
    return np.bincount(flat, minlength=n_resamples * n).reshape(n_resamples, n).astype(float)


def _paired(x, pairs, n_resamples, seed, alpha):
    """The paired test of ``pairs`` (rows ``(a, b)``, all with the same number of shared
    items): significant or not."""
    shared = ~np.isnan(x[pairs[:, 0]]) & ~np.isnan(x[pairs[:, 1]])
    n = int(shared[0].sum())
    d = (x[pairs[:, 0]] - x[pairs[:, 1]])[shared].reshape(len(pairs), n)
    theta_b = d @ _counts(np.random.default_rng(seed), n, n_resamples).T / n
    total = d.sum(axis=-1, keepdims=True)
    low = bca_lower(total[:, 0] / n, theta_b, [(total - d) / (n - 1)], alpha=alpha)
    return low > 0


def _unpaired(x, pairs, n_resamples, seed, alpha):
    """The unpaired test of ``pairs`` (all with the same item counts ``n_a``, ``n_b``)."""
    own_a = [row[~np.isnan(row)] for row in x[pairs[:, 0]]]
    own_b = [row[~np.isnan(row)] for row in x[pairs[:, 1]]]
    va, vb = np.vstack(own_a), np.vstack(own_b)
    na, nb = va.shape[1], vb.shape[1]
    rng = np.random.default_rng(seed)
    ca = _counts(rng, na, n_resamples)
    cb = _counts(rng, nb, n_resamples)
    theta_b = (va @ ca.T) / na - (vb @ cb.T) / nb
    sa, sb = va.sum(axis=-1, keepdims=True), vb.sum(axis=-1, keepdims=True)
    ma, mb = sa / na, sb / nb
    jack = [(sa - va) / (na - 1) - mb, ma - (sb - vb) / (nb - 1)]
    low = bca_lower((ma - mb)[:, 0], theta_b, jack, alpha=alpha)
    return low > 0


def significance(scores: np.ndarray, *, n_resamples: int = N_RESAMPLES, seed: int | None = 0,
                 alpha: float = ALPHA) -> PairwiseBootstrap:  # fmt: skip
    """WMT26's test for every ordered pair of the rows of ``scores`` (``(systems, items)``,
    higher is better, NaN where a system has no score).

    Examples
    --------
    >>> x = np.array([[80.0, 90, 85, 70, 95, 88], [60.0, 65, 70, 55, 62, 58],
    ...               [81.0, 89, 86, 71, 94, 87]])
    >>> r = significance(x, seed=1)
    >>> r.better.astype(int).tolist()
    [[0, 1, 0], [0, 0, 0], [0, 1, 0]]
    """
    x = np.asarray(scores, dtype=np.float64)
    S = x.shape[0]
    scored = ~np.isnan(x)
    n_shared = (scored[:, None, :] & scored[None, :, :]).sum(axis=-1)
    own = scored.sum(axis=1)
    better = np.zeros((S, S), dtype=bool)
    paired = np.zeros((S, S), dtype=bool)
    pairs = np.array([(a, b) for a in range(S) for b in range(S) if a != b], dtype=int)
    pairs = pairs.reshape(-1, 2)
    ahead = np.array([np.any((x[a] - x[b])[scored[a] & scored[b]] > 0) for a, b in pairs],
                     dtype=bool)  # fmt: skip
    can_pair = (n_shared[pairs[:, 0], pairs[:, 1]] >= 2) & ahead
    for n in np.unique(n_shared[pairs[:, 0], pairs[:, 1]][can_pair]):
        group = pairs[can_pair & (n_shared[pairs[:, 0], pairs[:, 1]] == n)]
        sig = _paired(x, group, n_resamples, seed, alpha)
        better[group[sig, 0], group[sig, 1]] = True
        paired[group[sig, 0], group[sig, 1]] = True
    rest = pairs[~better[pairs[:, 0], pairs[:, 1]]]
    rest = rest[(own[rest[:, 0]] >= 2) & (own[rest[:, 1]] >= 2)]
    for na, nb in {(int(own[a]), int(own[b])) for a, b in rest}:
        group = rest[(own[rest[:, 0]] == na) & (own[rest[:, 1]] == nb)]
        sig = _unpaired(x, group, n_resamples, seed, alpha)
        better[group[sig, 0], group[sig, 1]] = True
    return PairwiseBootstrap(better, paired, n_shared, n_resamples, seed)
