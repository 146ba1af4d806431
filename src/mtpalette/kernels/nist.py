"""NIST's information-weighted n-gram matches (Doddington, 2002), as NLTK computes them.

Per candidate, order and reference: the sum over matched n-grams (clipped by the count in that
reference) of their information weight, and the number of candidate n-grams. Two weightings at
once: weights from the reference n-gram counts of the whole corpus (``corpus_nist``) and from
those of the candidate's own segment (``sentence_nist``, a corpus of one segment). The
reference giving the highest precision is kept, as NLTK does (ties broken by numerator, then
denominator, then reference length).

n-grams come as exact global ids (:mod:`mtpalette.kernels.interning`). Inside a candidate
they get local ids in order of first occurrence, through a small open-addressing table keyed
by the exact global id; counts in the candidate, in the segment's references and in each
reference are arrays indexed by local id. Matched n-grams are summed in first-occurrence
order, the order of NLTK's ``Counter`` intersection, so that sums, and exact ties between
references, come out bit for bit as NLTK's. Cost per candidate: O(n * (|hyp| + sum |ref|)).

References
----------
Doddington (2002). NLTK ``nltk/translate/nist_score.py`` (``corpus_nist``).
"""

from __future__ import annotations

import math

import numpy as np

from mtpalette import _core
from mtpalette.kernels.arrays import f64, idx64, mask


def log2_ratio(numer, denom):
    """log2(numer / denom) computed as Python's ``math.log(x, 2)`` does (two natural logs).

    Examples
    --------
    >>> log2_ratio(8.0, 2.0) == math.log(8.0 / 2.0, 2)
    True
    """
    return math.log(numer / denom) / math.log(2.0)


def corpus_information(counts, numer) -> np.ndarray:
    """Information weight per n-gram id: ``log2(numer / count)`` (0 where the count is 0),
    compiled: each weight is two natural logs of the C library's ``log``, as Python's
    ``math.log(x, 2)`` in NLTK, bit for bit (numpy's vectorised log may differ in the last
    bit). Its plain-Python twin is
    :func:`mtpalette.kernels.reference.nist.corpus_information_slow`.

    Examples
    --------
    >>> corpus_information(np.array([2, 0, 1]), np.array([4.0, 4.0, 2.0])).tolist()
    [1.0, 0.0, 1.0]
    """
    return _core.nist_information(idx64(counts), f64(numer))


def nist_kernel(
    ids, prefix, info, off, seg, ref_mask, n_hyp: int, *, leave_out: bool = False
) -> np.ndarray:
    """NIST's matches for every candidate and order, with corpus and with segment weights.

    Parameters
    ----------
    ids:
        int64 ``(max_n, T)``: the global id of the n-gram of each order starting at each
        position (-1 where it runs past its row) of the stacked rows: the ``n_hyp``
        candidates first, then the references (row ``n_hyp + k * S + s``).
    prefix:
        int64 ``(max_n, M)``: the id of the (n-1)-gram prefix of each n-gram id (row 0
        unused).
    info:
        float64 ``(max_n, M)``: the corpus information weight of each n-gram id.
    off:
        Row offsets of the stacked rows.
    seg, ref_mask:
        As :class:`~mtpalette.metrics.base.Pairs`.
    n_hyp:
        The number of candidates.
    leave_out:
        ORANGE's leave-one-out: ``info`` is ``(R * max_n, M)``, rows ``k * max_n ...`` the
        weights from every reference but ``k``, and the result ``(n_hyp, R, 5 * max_n)``
        holds, for each ``k``, the statistics a pass without reference ``k`` would give.

    Returns
    -------
    numpy.ndarray
        float64 ``(n_hyp, 5 * max_n)``: blocks of ``max_n`` columns: the information-weighted
        matches with corpus weights, the length of the reference they were taken from, the
        same two with the segment's own weights, then the number of candidate n-grams. Per
        order the reference with the highest precision is kept, ties broken by numerator,
        then the larger reference length, as NLTK's ``max`` over tuples.

    Examples
    --------
    >>> # candidate "a b" (ids 0 1), one reference "a b c" (ids 0 1 2), orders 1-2
    >>> ids = np.array([[0, 1, 0, 1, 2], [0, -1, 0, 1, -1]])
    >>> prefix = np.array([[-1, -1, -1], [0, 1, -1]])
    >>> info = np.array([[math.log2(3)] * 3, [0.0, 0.0, 0.0]])
    >>> out = nist_kernel(ids, prefix, info, np.array([0, 2, 5]), np.array([0]),
    ...                   np.ones((1, 1), bool), 1)
    >>> out.round(6).tolist()  # 2 log2(3) and 0 for both weightings; lengths 3; 2 and 1
    [[3.169925, 0.0, 3.0, 3.0, 3.169925, 0.0, 3.0, 3.0, 2.0, 1.0]]
    """
    return _core.nist_stats(
        idx64(ids),
        idx64(prefix),
        f64(info),
        idx64(off),
        idx64(seg),
        mask(ref_mask),
        int(n_hyp),
        bool(leave_out),
    )
