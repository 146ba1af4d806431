"""Sentence scores from rows of sufficient statistics, and the closest reference length.

The compiled loops repeat the Python definitions operation for operation and in the same
order (:func:`mtpalette.metrics.bleu.bleu_from_stats`, ``NIST.score_row`` in
:mod:`mtpalette.metrics.nist`), so the scores agree bit for bit; the tests check it.

References
----------
Papineni et al. (2002), BLEU; sacrebleu ``metrics/bleu.py`` (``compute_bleu``, its smoothing
methods and ``_get_closest_ref_len``, Post, 2018); Doddington (2002), NIST; NLTK
``nltk/translate/nist_score.py``.
"""

from __future__ import annotations

import numpy as np

from mtpalette import _core


def bleu_rows(
    stats: np.ndarray, max_n: int, smooth: int, value: float, effective: bool
) -> np.ndarray:
    """BLEU of every row ``[hyp_len, ref_len, correct_1..n, total_1..n]`` of ``stats``.

    ``smooth`` is sacrebleu's smoothing method by code (0 none, 1 floor, 2 add-k, 3 exp),
    ``value`` the smoothing value (floor, add-k), ``effective`` sacrebleu's effective order.

    Examples
    --------
    >>> rows = np.array([[4, 4, 3, 1, 0, 0, 4, 3, 2, 1]], float)
    >>> bleu_rows(rows, 4, 2, 1.0, False).round(6).tolist()  # add-k, k = 1
    [50.0]
    """
    stats = np.ascontiguousarray(stats, dtype=np.float64)
    if stats.ndim != 2:
        raise ValueError("stats: a 2-d array of rows expected")
    if smooth not in (0, 1, 2, 3):
        raise ValueError("smooth: 0 (none), 1 (floor), 2 (add-k) or 3 (exp)")
    return _core.bleu_rows(stats, int(max_n), int(smooth), float(value), bool(effective))


def nist_rows(stats: np.ndarray, n: int, which: int) -> np.ndarray:
    """NIST of every row of NIST statistics (:func:`mtpalette.kernels.nist.nist_kernel`, then
    the candidate length in the last column); ``which``: 0 corpus weights, 1 segment weights.

    Examples
    --------
    >>> # one order: matches 2.0 of 2 n-grams, reference length 2; hyp length 2
    >>> nist_rows(np.array([[2.0, 2.0, 2.0, 2.0, 2.0, 2.0]]), 1, 0).tolist()
    [1.0]
    """
    stats = np.ascontiguousarray(stats, dtype=np.float64)
    if stats.ndim != 2:
        raise ValueError("stats: a 2-d array of rows expected")
    if which not in (0, 1):
        raise ValueError("which: 0 (corpus weights) or 1 (segment weights)")
    return _core.nist_rows(stats, int(n), int(which))


def closest_ref_lengths(pairs) -> np.ndarray:
    """The reference length closest to each candidate's (the shorter on ties; 0 without a
    reference), int64 ``(P,)``, as sacrebleu chooses BLEU's reference length.

    Examples
    --------
    >>> from mtpalette.metrics.base import Pairs
    >>> pairs = Pairs.of_segment([1, 2, 3], [[1, 2], [1, 2, 3, 4]])
    >>> closest_ref_lengths(pairs).tolist()  # 2 and 4 are both 1 away: the shorter
    [2]
    """
    return _core.closest_ref_lengths(pairs.arrays())


def best_of_references(
    p: np.ndarray,
    r: np.ndarray,
    f: np.ndarray,
    key: np.ndarray,
    present: np.ndarray,
    *,
    leave_out: bool = False,
) -> np.ndarray:
    """``[P, R, F]`` of each candidate's present reference with the largest ``key`` (the first
    on ties, as ``np.argmax``): ``(1, P, 3)``; with ``leave_out``, ``(R, P, 3)``, block ``k``
    chosen among the references but ``k`` (ORANGE's leave-one-out in one call).

    Examples
    --------
    >>> p = np.array([[0.1, 0.9, 0.5]]); key = np.array([[0.2, 0.8, 0.8]])
    >>> ok = np.ones((1, 3), bool)
    >>> best_of_references(p, p, p, key, ok)[0, 0].tolist()  # reference 1: first of the ties
    [0.9, 0.9, 0.9]
    >>> best_of_references(p, p, p, key, ok, leave_out=True)[:, 0, 0].tolist()
    [0.9, 0.5, 0.9]
    """
    grids = [np.ascontiguousarray(np.broadcast_to(x, key.shape), dtype=np.float64)
             for x in (p, r, f, key)]  # fmt: skip
    mask = np.ascontiguousarray(present, dtype=np.bool_)
    return _core.best_of_references(*grids, mask, bool(leave_out))
