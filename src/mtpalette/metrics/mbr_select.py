"""Diverse n-best selection from expected utilities, as mbrs's ``SelectorDiverse`` defines it.

An n-best list of MBR's k best candidates is often k near-copies. The diverse selector picks
the set S of k candidates maximising

    mean_{i in S} u_i + lambda * sum_{i != j in S} d_ij / (k * max(k - 1, 1))

where ``u`` are the expected utilities and ``d`` the dissimilarity of two candidates (mbrs: the
negated sentence BLEU of one against the other; the diagonal counts 0). The search is mbrs's:
greedy best-first (add the candidate that raises the objective most, k times), then
``iterations`` rounds of local search, each removing ``neighbors`` members drawn at random and
adding back greedily, the change kept only when the objective does not fall. The draws use
numpy's ``default_rng(seed)`` (mbrs: torch's generator), so the local search may visit other
sets; the greedy part is deterministic (ties to the first candidate).

References
----------
mbrs 0.1.8, ``mbrs/selectors/diverse.py``; Jinnai et al. (2024), Generating diverse and
high-quality texts by minimum Bayes risk decoding.
"""

from __future__ import annotations

import numpy as np


def diverse_objective(u: np.ndarray, d: np.ndarray, mask: np.ndarray, lam: float) -> float:
    """The objective of the set ``mask`` (mbrs's ``compute_objective``).

    Examples
    --------
    >>> d = np.tile(np.arange(5.0), (5, 1))
    >>> mask = np.array([True, True, False, True, False])
    >>> diverse_objective(np.arange(5.0), d, mask, 0.5)  # (0+1+3)/3 + 0.5 * (1+3+0+3+0+1)/6
    2.0
    """
    d = d.copy()
    np.fill_diagonal(d, 0.0)
    k = int(mask.sum())
    m = mask.astype(np.float64)
    return float(u[mask].sum() / k + lam * (m @ d @ m) / k / max(k - 1, 1))


def greedy_best_first(
    u: np.ndarray, d: np.ndarray, selected: np.ndarray, lam: float, times: int
) -> np.ndarray:
    """Add to ``selected`` (changed in place), ``times`` times, the candidate that gives the
    highest objective (ties: the first).

    Examples
    --------
    >>> u, d = np.arange(4.0) + 1, np.tile(np.arange(4.0, 0.0, -1.0), (4, 1))
    >>> greedy_best_first(u, d, np.zeros(4, dtype=bool), 1.1, 2).tolist()
    [True, False, False, True]
    """
    for _ in range(times):
        best, best_i = -np.inf, -1
        for i in np.flatnonzero(~selected):
            trial = selected.copy()
            trial[i] = True
            score = diverse_objective(u, d, trial, lam)
            if score > best:
                best, best_i = score, i
        selected[best_i] = True
    return selected


def diverse_nbest(
    u: np.ndarray,
    d: np.ndarray,
    nbest: int,
    *,
    lam: float = 0.1,
    iterations: int = 20,
    neighbors: int = 1,
    seed: int = 0,
) -> np.ndarray:
    """The positions of the diverse n-best set, by expected utility (best first).

    Examples
    --------
    >>> u = np.array([10.0, 9.9, 5.0])
    >>> d = -np.array([[100, 99, 10], [99, 100, 12], [10, 12, 100]], dtype=float)
    >>> diverse_nbest(u, d, 2, lam=0.0).tolist(), diverse_nbest(u, d, 2, lam=0.1).tolist()
    ([0, 1], [0, 2])
    """
    n = len(u)
    k = min(nbest, n)
    if k == 0:
        return np.zeros(0, dtype=np.int64)
    selected = greedy_best_first(u, d, np.zeros(n, dtype=bool), lam, k)
    selected = local_search(u, d, selected, lam=lam, iterations=iterations,
                            neighbors=neighbors, seed=seed)  # fmt: skip
    chosen = np.flatnonzero(selected)
    return chosen[np.argsort(-u[chosen], kind="stable")]


def local_search(
    u: np.ndarray,
    d: np.ndarray,
    selected: np.ndarray,
    *,
    lam: float = 0.1,
    iterations: int = 20,
    neighbors: int = 1,
    seed: int = 0,
) -> np.ndarray:
    """mbrs's local search from the set ``selected`` (a boolean mask): each round removes
    ``neighbors`` members at random and adds back greedily, keeping the change unless the
    objective falls.

    Examples
    --------
    >>> u = np.arange(4.0) + 1
    >>> d = np.tile(np.arange(4.0, 0.0, -1.0), (4, 1))
    >>> local_search(u, d, np.array([True, False, False, True]), lam=1.1).tolist()  # 5.25 -> 5.35
    [True, True, False, False]
    """
    selected = selected.copy()
    k = int(selected.sum())
    rng = np.random.default_rng(seed)
    drop = min(neighbors, k)
    for _ in range(iterations):
        before = selected.copy()
        members = np.flatnonzero(selected)
        selected[members[rng.permutation(k)[:drop]]] = False
        selected = greedy_best_first(u, d, selected, lam, drop)
        if diverse_objective(u, d, before, lam) > diverse_objective(u, d, selected, lam):
            selected = before
    return selected
