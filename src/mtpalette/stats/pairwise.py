"""System-pair statistics of WMT meta-evaluation: soft pairwise accuracy (SPA), pairwise
difference Pearson (PDP) and system-level pairwise accuracy pooled over language pairs.

* **SPA** (Thompson et al. 2024; the system-level statistic of WMT24 and WMT25): for every
  pair of systems, a paired permutation test on segment scores gives the p-value that system
  ``i`` is better than ``j``, once from human scores and once from metric scores;
  ``SPA = 1 - mean |p_human - p_metric|`` over the pairs ``i < j``. The permutation draws are
  mt-metrics-eval's exactly: ``numpy.random.default_rng(seed).random((k, items), float32)``
  rounded to 0/1 and mapped to -1/+1, shared by all system pairs, system totals summed in
  float32, so the value equals mt-metrics-eval's for any seed and count. Its permuted totals
  are a float32 ``numpy.matmul``, whose last bits depend on the BLAS kernel: OpenBLAS's
  AVX-512 kernel (SkylakeX) and its AVX2 one (Haswell: CPUs without AVX-512, or
  ``OPENBLAS_CORETYPE=Haswell``) add the items in different blocks, and a permuted difference
  that ties the observed one to the last bit moves a p-value by ``1/k``. mtpalette fixes the
  order: every permuted total is the float32 sum in the order of OpenBLAS's AVX-512 sgemm
  (:func:`sign_product_blocks`), the kernel mt-metrics-eval's golden values come from,
  whatever BLAS or CPU runs it (see :func:`pairwise_p_values_batch`).
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

from mtpalette.kernels import sign_sums
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


#: OpenBLAS's blocking of the summed (items) dimension of a float32 product in its blocked
#: sgemm on x86-64 with AVX-512 (the SkylakeX and Cooperlake kernels, as numpy 2.3 and 2.4
#: ship them: OpenBLAS 0.3.30, 0.3.31): blocks of ``SGEMM_Q`` items; a rest between ``Q`` and
#: ``2Q`` is halved, the first half rounded up to a multiple of ``SGEMM_UNROLL_M``. (Its
#: small-matrix kernel, taken when systems x permutations <= 1200 and that x items <= 10^6,
#: sums otherwise; with the default 1000 permutations mt-metrics-eval never takes it.)
SGEMM_Q = 448
SGEMM_UNROLL_M = 16
#: float32's unit roundoff
_U32 = 2.0**-24

_BLAS: list = []


def _one_blas_thread():
    """A context limiting BLAS to one thread (threadpoolctl, a scikit-learn dependency)."""
    if not _BLAS:
        from threadpoolctl import ThreadpoolController

        _BLAS.append(ThreadpoolController())
    return _BLAS[0].limit(limits=1, user_api="blas")


def sign_product_blocks(n_items: int) -> list[tuple[int, int]]:
    """The ``[start, stop)`` item blocks of the reference float32 order (OpenBLAS's level-3
    driver with :data:`SGEMM_Q` and :data:`SGEMM_UNROLL_M`).

    Within a block the items are added one after the other, from zero; the block sums are then
    added to the running total in order.

    Examples
    --------
    >>> sign_product_blocks(529)
    [(0, 272), (272, 529)]
    >>> sign_product_blocks(1000)
    [(0, 448), (448, 736), (736, 1000)]
    """
    blocks, start = [], 0
    while start < n_items:
        size = n_items - start
        if size >= 2 * SGEMM_Q:
            size = SGEMM_Q
        elif size > SGEMM_Q:
            size = (size // 2 + SGEMM_UNROLL_M - 1) // SGEMM_UNROLL_M * SGEMM_UNROLL_M
        blocks.append((start, start + size))
        start += size
    return blocks


def sign_products(
    signs: np.ndarray, values: np.ndarray, rows: np.ndarray, cols: np.ndarray
) -> np.ndarray:
    """``signs[rows[n]] . values[cols[n]]`` for every ``n``, of float32 ``(., items)`` matrices,
    summed in float32 in the reference order (:func:`sign_product_blocks`): one float32
    rounding per addition.

    With +-1 signs every product is exact, so the order of the additions alone decides the
    bits; this is what ``numpy.matmul`` gives with OpenBLAS's AVX-512 kernel, on any machine.

    Examples
    --------
    >>> v = np.array([[1e8, 1.0, -1e8, 1.0]], dtype=np.float32)
    >>> float(sign_products(np.ones_like(v), v, np.array([0]), np.array([0]))[0])
    1.0
    """
    blocks = sign_product_blocks(np.shape(values)[1])
    bounds = [0] + [stop for _, stop in blocks]
    return sign_sums.sign_products(signs, values, rows, cols, bounds)  # compiled, no warnings


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
    """:func:`pairwise_p_values` of a ``(B, systems, items)`` stack, sharing the draws.

    mt-metrics-eval's permuted totals are a float32 matmul, whose last bits depend on the
    order in which the BLAS kernel adds the items (OpenBLAS's Haswell and AVX-512 kernels
    differ), and a permuted difference that equals the observed one up to float32 rounding is
    a hit or a miss by that order. Here the order is fixed (:func:`sign_products`), and paid
    for only where it matters: the float32 product of any BLAS (any kernel, any threads) is
    within :func:`_rounding_margin` of the one in that order, so a draw farther than that from
    the observed difference is a hit, or a miss, as the reference order decides it; the
    others (near-ties, and anything NaN, infinite or near float32's range) are summed in the
    reference order and compared in float32 as mt-metrics-eval compares them.
    """
    n_batch, n_sys, n_items = scores.shape
    if signs is None:
        signs = _spa_signs(n_permutations, n_items, seed)
    s32 = np.ascontiguousarray(scores, dtype=np.float32)
    totals = np.sum(s32, axis=2)  # (B, S), float32 like mt-metrics-eval
    flat = s32.reshape(n_batch * n_sys, n_items)
    # (B * S, k): each column's draws contiguous for the screen (no copy: the product is
    # computed in that layout)
    partial = np.ascontiguousarray(_blas_product(signs, flat).T)
    slack = _rounding_margin(np.abs(flat)).reshape(n_batch, n_sys)
    iu, ju = np.triu_indices(n_sys, 1)
    observed = (totals[:, iu] - totals[:, ju]).astype(np.float64)  # float32 differences
    margin = slack[:, iu] + slack[:, ju]  # (B, pairs)
    above, below = _float32_outward(observed + margin, observed - margin)
    odd = ~np.isfinite(margin)  # NaN, infinite or out of float32's range: every draw
    # every draw of every pair: a hit when above the margin (in BLAS's order, so in the
    # reference order too), a near-tie to sum in the reference order when within it
    if iu.size:
        hits, perm, batch, pair = sign_sums.spa_screen(partial, n_sys, above, below, odd)
    else:  # fewer than two systems: no pair
        hits, perm = np.zeros((n_batch, 0), dtype=np.int64), np.zeros(0, dtype=np.int64)
        batch = pair = perm
    out = np.full((n_batch, n_sys, n_sys), np.nan)
    out[:, iu, ju] = hits
    if perm.size:  # the few near-ties
        _count_near_ties(out, perm, batch, iu[pair], ju[pair], signs, flat, totals, n_sys)
    out /= n_permutations
    return out


def _blas_product(signs: np.ndarray, flat: np.ndarray) -> np.ndarray:
    """``signs @ flat.T`` in float32, summed in whatever order the BLAS takes (only within
    :func:`_rounding_margin` of the reference order matters); on one BLAS thread, as before,
    so that pool workers do not oversubscribe the cores. Computed as ``(flat @ signs.T).T``,
    a transposed view whose columns' draws are contiguous for the screen."""
    with _one_blas_thread():
        return np.matmul(flat, signs.T).T


def _float32_outward(upper: np.ndarray, lower: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """float64 bounds as float32, ``upper`` rounded up and ``lower`` down."""
    with np.errstate(over="ignore", invalid="ignore"):
        up, down = upper.astype(np.float32), lower.astype(np.float32)
        up = np.where(up < upper, np.nextafter(up, np.float32(np.inf)), up)
        down = np.where(down > lower, np.nextafter(down, np.float32(-np.inf)), down)
    return up, down


def _rounding_margin(magnitudes: np.ndarray) -> np.ndarray:
    """Per row ``|x|`` of ``(columns, items)`` magnitudes: ``m(x)`` such that, for any +-1
    signs ``s`` and any other row ``y``, the float32 difference ``fl(fl(s . x) - fl(s . y))``
    of the sign products summed in any order (BLAS's) is within ``m(x) + m(y)`` of the one
    summed in the reference order.

    Every float32 addition errs by at most ``u = 2^-24`` of its result, and a partial sum is
    at most ``1 + g`` times its terms' magnitudes (``g = gamma_n = n u / (1 - n u)``; Higham,
    Accuracy and Stability of Numerical Algorithms, ch. 4). In the reference order
    ``fl(s . x)`` is within ``u (1 + g) sum_l d_l |x_l|`` of ``s . x``, ``d_l`` the additions
    term ``l`` goes through (:func:`_reference_depths`), and the difference adds
    ``u (1 + g) sum |x|``; in an unknown order, within ``g sum |x|``. The weighted sum is
    itself computed in float32, of nonnegative terms, so within ``g`` of its value: it is
    widened by ``2 g``. Rows whose float32 sums could overflow, or holding NaN or infinities,
    get ``inf``.

    Examples
    --------
    >>> m = _rounding_margin(np.ones((1, 3), dtype=np.float32))  # depths 4, 3, 2 (+1 each)
    >>> bool((12 + 3 * 4) * 2.0**-24 < m[0] < (12 + 3 * 4) * 1.001 * 2.0**-24)
    True
    """
    n_items = magnitudes.shape[1]
    nu = (n_items + 1) * _U32
    gamma = nu / (1.0 - nu)
    weights = ((_reference_depths(n_items) + 1.0) * (_U32 * (1.0 + gamma)) + gamma) * 1.0001
    weights = weights.astype(np.float32)  # 1.0001 covers its rounding
    with np.errstate(over="ignore", invalid="ignore"):
        margin = (magnitudes @ weights).astype(np.float64) * (1.0 + 2.0 * gamma)
        mass = magnitudes.sum(axis=1)
    margin[~(mass < 2.0**125)] = np.inf
    return margin


def _reference_depths(n_items: int) -> np.ndarray:
    """How many float32 additions each item's term goes through in the reference order: the
    rest of its block (its own addition to the block's running sum included), then one per
    block sum added to the total from its block on.

    Examples
    --------
    >>> _reference_depths(4).tolist()
    [5.0, 4.0, 3.0, 2.0]
    """
    blocks = sign_product_blocks(n_items)
    depths = np.empty(n_items)
    for b, (start, stop) in enumerate(blocks):
        depths[start:stop] = np.arange(stop - start, 0, -1) + (len(blocks) - b)
    return depths


def _count_near_ties(
    out: np.ndarray,
    perm: np.ndarray,
    batch: np.ndarray,
    sys_i: np.ndarray,
    sys_j: np.ndarray,
    signs: np.ndarray,
    flat: np.ndarray,
    totals: np.ndarray,
    n_sys: int,
) -> None:
    """Add to the hit counts ``out[b, i, j]`` the near-tie draws ``perm`` of ``(batch,
    sys_i, sys_j)``, decided with the permuted totals summed in the reference float32
    order."""
    n_cols = flat.shape[0]
    first = perm * n_cols + batch * n_sys
    keys = np.concatenate([first + sys_i, first + sys_j])  # (draw, column) of each total
    unique, inverse = np.unique(keys, return_inverse=True)
    rows, cols = np.divmod(unique, n_cols)
    exact = sign_products(signs, flat, rows, cols)[inverse]
    with np.errstate(over="ignore", invalid="ignore"):  # warned of in the screening already
        null = exact[: perm.size] - exact[perm.size :]  # float32, as mt-metrics-eval
        hit = null >= totals[batch, sys_i] - totals[batch, sys_j]
    np.add.at(out, (batch[hit], sys_i[hit], sys_j[hit]), 1)


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
