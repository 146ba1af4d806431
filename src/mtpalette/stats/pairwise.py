"""System-pair statistics of WMT meta-evaluation: soft pairwise accuracy (SPA), pairwise
difference Pearson (PDP) and system-level pairwise accuracy pooled over language pairs.

* **SPA** (Thompson et al. 2024; the system-level statistic of WMT24 and WMT25): for every
  pair of systems, a paired permutation test on segment scores gives the p-value that system
  ``i`` is better than ``j``, once from human scores and once from metric scores;
  ``SPA = 1 - mean |p_human - p_metric|`` over the pairs ``i < j``. The permutation draws are
  mt-metrics-eval's exactly: ``numpy.random.default_rng(seed).random((k, items), float32)``
  rounded to 0/1 and mapped to -1/+1, shared by all system pairs, system totals summed in
  float32, so the value equals mt-metrics-eval's for any seed and count.
* **PDP** (``Pearson(pdp=True)`` of mt-metrics-eval): Pearson's r between the human and the
  metric differences ``x[b] - x[a]`` of every ordered pair ``(a, b)`` of columns, diagonal
  included, of each row of the grouped matrix (``item``: rows are items, columns systems).
* **Pooled accuracy** (Kocmi et al. 2021; the ``accuracy`` task of WMT22/23): the share of
  system pairs, over all language pairs together, that metric and humans order the same way
  (``sign`` equality, so a pair tied by both agrees).

Human scores are oriented higher-is-better; a NaN human score means "not rated".

References
----------
Thompson, Mathur, Deutsch and Lipton (2024), Improving Statistical Significance in Human
Evaluation of Automatic Metrics via Soft Pairwise Accuracy. Kocmi et al. (2021), To Ship or
Not to Ship. Reference implementation: google-research/mt-metrics-eval at 68a481a,
``mt_metrics_eval/pce.py`` (``compute_pairwise_p_values``, ``compute_one_minus_pce``),
``stats.py`` (``PairwiseConfidenceError``, ``AverageCorrelation._enumerate_pairwise_diffs``,
``Agreement``) and ``data.py`` (``CompareMetricsWithGlobalAccuracy``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from mtpalette.stats.averaging import grouped_rows
from mtpalette.stats.grouping import as_matrix

#: mt-metrics-eval's defaults for SPA
SPA_PERMUTATIONS = 1000
SPA_SEED = 4


def _spa_signs(n_permutations: int, n_items: int, seed: int) -> np.ndarray:
    """The ``(k, items)`` float32 +-1 draws of mt-metrics-eval's ``compute_pairwise_p_values``."""
    rng = np.random.default_rng(seed)
    signs = rng.random(size=(n_permutations, n_items), dtype=np.float32)
    np.rint(signs, out=signs, casting="same_kind")
    signs *= 2.0
    signs -= 1.0
    return signs


_BLAS: list = []


def _one_blas_thread():
    """A context limiting BLAS to one thread (threadpoolctl, a scikit-learn dependency)."""
    if not _BLAS:
        from threadpoolctl import ThreadpoolController

        _BLAS.append(ThreadpoolController())
    return _BLAS[0].limit(limits=1, user_api="blas")


def rated_rows(human: np.ndarray, *others: np.ndarray) -> tuple[np.ndarray, ...]:
    """Drop the unrated items of ``(systems, items)`` matrices; every system must share them.

    SPA pairs the systems item by item, so a system whose rated items differ from another's
    is refused (mt-metrics-eval would pair different items, or fail to reshape).

    Examples
    --------
    >>> h = np.array([[1.0, np.nan, 2.0], [3.0, np.nan, 4.0]])
    >>> rated_rows(h, h * 10)[1].tolist()
    [[10.0, 20.0], [30.0, 40.0]]
    """
    rated = ~np.isnan(human)
    if not (rated == rated[:1]).all():
        bad = int(np.flatnonzero((rated != rated[:1]).any(axis=1))[0])
        raise ValueError(
            f"SPA needs the same rated items for every system: system row {bad} differs from "
            "row 0 (drop the items some systems lack)"
        )
    keep = rated[0]
    return (human[:, keep],) + tuple(o[:, keep] for o in others)


def pairwise_p_values(
    seg_scores: Any, *, n_permutations: int = SPA_PERMUTATIONS, seed: int = SPA_SEED
) -> np.ndarray:
    """Paired permutation p-values that system ``i`` is better than ``j`` (upper triangle).

    ``p[i, j]`` is the share of the ``n_permutations`` sign flips whose difference of system
    totals is at least the observed one; entries on and below the diagonal are NaN.

    Examples
    --------
    >>> s = np.array([[0.8, 0.9, 0.7, 1.0, 0.6], [0.2, 0.3, 0.1, 0.4, 0.0]])
    >>> float(pairwise_p_values(s, n_permutations=1000)[0, 1])  # as mt-metrics-eval's pce
    0.036
    """
    return pairwise_p_values_batch(as_matrix(seg_scores)[None], n_permutations, seed)[0]


def pairwise_p_values_batch(
    scores: np.ndarray, n_permutations: int, seed: int, signs: np.ndarray | None = None
) -> np.ndarray:
    """:func:`pairwise_p_values` of a ``(B, systems, items)`` stack, sharing the draws."""
    n_batch, n_sys, n_items = scores.shape
    if signs is None:
        signs = _spa_signs(n_permutations, n_items, seed)
    s32 = np.ascontiguousarray(scores, dtype=np.float32)
    totals = np.sum(s32, axis=2)  # (B, S), float32 like mt-metrics-eval
    # one matmul for the whole stack: (k, items) @ (items, B*S); equal, column by column,
    # to mt-metrics-eval's matmul per matrix. OpenBLAS rounds float32 products differently
    # with one thread and with several, so the product runs on one BLAS thread: the same
    # bits in every process and worker (and as mt-metrics-eval with OPENBLAS_NUM_THREADS=1)
    with _one_blas_thread():
        partial = np.matmul(signs, s32.reshape(n_batch * n_sys, n_items).T)
    # (S, k, B), contiguous per system: each pair's comparison runs on whole rows
    partial = np.ascontiguousarray(
        partial.reshape(n_permutations, n_batch, n_sys).transpose(2, 0, 1)
    )
    out = np.full((n_batch, n_sys, n_sys), np.nan)
    null = np.empty((n_permutations, n_batch), dtype=np.float32)
    hit = np.empty((n_permutations, n_batch), dtype=bool)
    # hits counted as bytes into a 16-bit sum (4x count_nonzero's speed) when k allows
    count_dtype = np.uint16 if n_permutations < 2**16 else np.int64
    for i in range(n_sys):
        for j in range(i + 1, n_sys):
            np.subtract(partial[i], partial[j], out=null)  # float32, as mt-metrics-eval
            np.greater_equal(null, totals[:, i] - totals[:, j], out=hit)
            counts = np.add.reduce(hit.view(np.uint8), axis=0, dtype=count_dtype)
            out[:, i, j] = counts / n_permutations
    return out


def one_minus_pce(human_p: np.ndarray, metric_p: np.ndarray) -> np.ndarray:
    """``1 - mean |p_human - p_metric|`` over the upper triangle (last two axes).

    Examples
    --------
    >>> nan = np.nan
    >>> one_minus_pce(np.array([[nan, 0.0], [nan, nan]]), np.array([[nan, 0.25], [nan, nan]]))
    np.float64(0.75)
    """
    n = human_p.shape[-1]
    iu, ju = np.triu_indices(n, 1)
    diff = np.ascontiguousarray(np.abs(human_p - metric_p)[..., iu, ju])
    return 1.0 - np.mean(diff, axis=-1)


class SpaScorer:
    """SPA of metrics against one human ``(systems, items)`` matrix: the human p-values and
    the draws are computed once, then :meth:`score` takes stacks of metric matrices.

    Examples
    --------
    >>> sc = SpaScorer([[1, 2, 3], [2, 3, 4]])
    >>> stack = np.array([[[2, 2, 4], [1, 3, 5]], [[1, 2, 3], [2, 3, 4]]])
    >>> [round(float(v), 3) for v in sc.score(stack)]
    [0.872, 1.0]
    """

    def __init__(self, human: Any, *, n_permutations: int = SPA_PERMUTATIONS, seed: int = SPA_SEED):
        h = as_matrix(human)
        self.rated = ~np.isnan(h)
        self.human = rated_rows(h)[0]
        if self.human.shape[0] < 2:
            raise ValueError("SPA needs at least two systems")
        self.n_permutations, self.seed = n_permutations, seed
        self.signs = _spa_signs(n_permutations, self.human.shape[1], seed)
        self.human_p = self._p_values(self.human[None])[0]

    def _p_values(self, stack: np.ndarray) -> np.ndarray:
        return pairwise_p_values_batch(stack, self.n_permutations, self.seed, self.signs)

    def rated_columns(self, metric: Any) -> np.ndarray:
        """A metric's ``(systems, items)`` matrix restricted to the rated items."""
        return as_matrix(metric)[:, self.rated[0]]

    def score(self, stack: np.ndarray) -> np.ndarray:
        """SPA of each ``(systems, rated items)`` matrix of a ``(B, systems, rated items)``
        stack."""
        return one_minus_pce(self.human_p[None], self._p_values(np.asarray(stack)))


def soft_pairwise_accuracy(
    human: Any,
    metric: Any,
    *,
    n_permutations: int = SPA_PERMUTATIONS,
    seed: int = SPA_SEED,
) -> float:
    """Soft pairwise accuracy of a metric's segment scores against human segment scores.

    Parameters
    ----------
    human, metric:
        ``(systems, items)`` segment scores; NaN human scores mark unrated items, which must
        be the same for every system.
    n_permutations, seed:
        The permutation draws (mt-metrics-eval's defaults: 1000 and 4).

    Examples
    --------
    >>> h = [[1, 2, 3], [2, 3, 4]]
    >>> m = [[2, 2, 4], [1, 3, 5]]
    >>> round(soft_pairwise_accuracy(h, m), 3)  # mt-metrics-eval's stats_test: 0.872
    0.872
    """
    sc = SpaScorer(human, n_permutations=n_permutations, seed=seed)
    return float(sc.score(sc.rated_columns(metric)[None])[0])


def pairwise_differences(x: np.ndarray) -> np.ndarray:
    """``d[r, a * C + b] = x[r, b] - x[r, a]`` for every row ``r`` and column pair ``(a, b)``.

    Examples
    --------
    >>> pairwise_differences(np.array([[1.0, 3.0]])).tolist()
    [[0.0, 2.0, -2.0, 0.0]]
    """
    if x.shape[1] < 2:
        raise ValueError("pairwise differences need at least 2 columns (systems)")
    return (x[:, None, :] - x[:, :, None]).reshape(x.shape[0], -1)


def pdp(human: Any, metric: Any, *, grouping: str = "item") -> tuple[float, float]:
    """Pairwise difference Pearson: ``(r, p_value)`` over all intra-row score differences.

    ``grouping`` chooses the rows: ``item`` (differences between the systems of each item,
    as WMT uses it), ``system`` or ``none`` (one row of all entries). Pairs involving an
    unrated (NaN human) entry are dropped.

    Examples
    --------
    >>> h = [[1, 2, 3], [4, 5, 6]]
    >>> m = [[2, 1, 4], [3, 3, 7]]
    >>> round(pdp(h, m, grouping="item")[0], 3)  # mt-metrics-eval's stats_test: 0.926
    0.926
    """
    H = grouped_rows(as_matrix(human), grouping)
    M = grouped_rows(as_matrix(metric), grouping)
    if H.shape != M.shape:
        raise ValueError(f"human {H.shape} and metric {M.shape} shapes differ")
    dh = pairwise_differences(H).ravel()
    dm = pairwise_differences(M).ravel()
    ok = ~np.isnan(dh)
    dh, dm = dh[ok], dm[ok]
    if dh.size < 2 or np.all(dh == dh[0]) or np.all(dm == dm[0]):
        return float("nan"), float("nan")
    from scipy import stats as _scipy_stats

    res = _scipy_stats.pearsonr(dh, dm)
    return float(res[0]), float(res[1])


def agreement(human: Any, metric: Any) -> tuple[int, int]:
    """``(agreeing pairs, pairs)`` of a system-level vector; NaN human entries are skipped.

    Examples
    --------
    >>> agreement([1, 2, 3, 3, 4], [1, 1, 2, 1, 2])
    (5, 10)
    """
    h = np.asarray(human, dtype=np.float64).ravel()
    m = np.asarray(metric, dtype=np.float64).ravel()
    ok = ~np.isnan(h)
    h, m = h[ok], m[ok]
    iu, ju = np.triu_indices(h.size, 1)
    agree = np.sign(h[iu] - h[ju]) == np.sign(m[iu] - m[ju])
    return int(agree.sum()), int(iu.size)


def pooled_accuracy(blocks: Sequence[tuple[Any, Any]]) -> float:
    """System-level pairwise accuracy pooled over language pairs: ``sum agree / sum pairs``.

    ``blocks`` holds one ``(human, metric)`` pair of system-score vectors per language pair;
    systems are compared only within their block.

    Examples
    --------
    >>> pooled_accuracy([([1, 2, 3], [1, 3, 2]), ([1, 2], [0, 5])])  # (2 + 1) / (3 + 1)
    0.75
    """
    agree = pairs = 0
    for h, m in blocks:
        a, p = agreement(h, m)
        agree += a
        pairs += p
    return agree / pairs if pairs else float("nan")
