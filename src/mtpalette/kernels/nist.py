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
from collections import Counter

import numba as nb
import numpy as np

from mtpalette.kernels.tables import slot


@nb.njit(cache=True, nogil=True)
def log2_ratio(numer, denom):
    """log2(numer / denom) computed as Python's ``math.log(x, 2)`` does (two natural logs).

    Examples
    --------
    >>> log2_ratio(8.0, 2.0) == math.log(8.0 / 2.0, 2)
    True
    """
    return math.log(numer / denom) / math.log(2.0)


@nb.njit(cache=True)
def corpus_information(counts, numer):
    """Information weight per n-gram id: ``log2(numer / count)`` (0 where the count is 0).

    Examples
    --------
    >>> corpus_information(np.array([2, 0, 1]), np.array([4.0, 4.0, 2.0])).tolist()
    [1.0, 0.0, 1.0]
    """
    out = np.zeros(len(counts), dtype=np.float64)
    for g in range(len(counts)):
        if counts[g] > 0:
            out[g] = log2_ratio(numer[g], counts[g])
    return out


@nb.njit(cache=True, nogil=True)
def _candidate(
    ids, prefix, info, off, p, s, n_hyp, n_seg, ref_mask, out,
    keys, vals, glob, hcount, seg_count, prev_keys, prev_vals, prev_seg, rcount, used,
    prev_used,
):  # fmt: skip
    """All orders of candidate ``p`` (segment ``s``) into ``out`` (its row of statistics).

    The candidate's distinct n-grams of the current order get local ids in order of first
    occurrence (a table from global n-gram id to local id); the table of the previous order
    is kept for the prefix counts of the segment's references. Scratch comes and goes clean.
    """
    max_n = ids.shape[0]
    n_refs = ref_mask.shape[0]
    h0 = off[p]
    H = off[p + 1] - h0
    seg_words = 0
    for k in range(n_refs):
        if ref_mask[k, s]:
            r = n_hyp + k * n_seg + s
            seg_words += off[r + 1] - off[r]
    n_prev = 0
    for n in range(max_n):
        # the candidate's n-grams: local ids in first-occurrence order, counts
        n_loc = 0
        den = 0
        for t in range(h0, h0 + H):
            g = ids[n, t]
            if g < 0:
                continue
            den += 1
            q = slot(keys, g)
            if keys[q] == -1:
                keys[q] = g
                vals[q] = n_loc
                used[n_loc] = q
                glob[n_loc] = g
                n_loc += 1
            hcount[vals[q]] += 1
        # their counts in the segment's references (all of them together)
        for k in range(n_refs):
            if ref_mask[k, s]:
                r = n_hyp + k * n_seg + s
                for t in range(off[r], off[r + 1]):
                    g = ids[n, t]
                    if g >= 0:
                        q = slot(keys, g)
                        if keys[q] != -1:
                            seg_count[vals[q]] += 1
        best_c = (-1.0, -1.0, -1.0, -1.0)
        best_s = (-1.0, -1.0, -1.0, -1.0)
        for k in range(n_refs):
            if not ref_mask[k, s]:
                continue
            r = n_hyp + k * n_seg + s
            for t in range(off[r], off[r + 1]):
                g = ids[n, t]
                if g >= 0:
                    q = slot(keys, g)
                    if keys[q] != -1:
                        rcount[vals[q]] += 1
            num_c = 0.0
            num_s = 0.0
            for a in range(n_loc):  # first-occurrence order, as NLTK's Counter intersection
                if rcount[a] == 0:
                    continue
                m = hcount[a] if hcount[a] < rcount[a] else rcount[a]
                rcount[a] = 0
                g = glob[a]
                num_c += info[n, g] * m
                if n == 0:
                    numer = seg_words
                else:
                    numer = prev_seg[prev_vals[slot(prev_keys, prefix[n, g])]]
                num_s += log2_ratio(numer, seg_count[a]) * m
            ref_len = float(off[r + 1] - off[r])
            prec_c = num_c / den if den > 0 else 0.0
            prec_s = num_s / den if den > 0 else 0.0
            cand_c = (prec_c, num_c, float(den), ref_len)
            cand_s = (prec_s, num_s, float(den), ref_len)
            if cand_c > best_c:
                best_c = cand_c
            if cand_s > best_s:
                best_s = cand_s
        out[n] = best_c[1]
        out[max_n + n] = best_c[3]
        out[2 * max_n + n] = best_s[1]
        out[3 * max_n + n] = best_s[3]
        out[4 * max_n + n] = den
        # this order's table becomes the previous one (same size, same keys inserted in the
        # same order: the same slots); the old previous one is cleared
        for a in range(n_prev):
            prev_keys[prev_used[a]] = -1
        for a in range(n_loc):
            q = used[a]
            prev_keys[q] = keys[q]
            prev_vals[q] = a
            prev_seg[a] = seg_count[a]
            prev_used[a] = q
            keys[q] = -1
            hcount[a] = 0
            seg_count[a] = 0
        n_prev = n_loc
    for a in range(n_prev):
        prev_keys[prev_used[a]] = -1


@nb.njit(cache=True, nogil=True)
def _chunk(ids, prefix, info, off, seg, ref_mask, n_hyp, p0, p1, out):
    max_h = 1
    for p in range(p0, p1):
        max_h = max(max_h, off[p + 1] - off[p])
    size = 1
    while size < 2 * max_h:
        size *= 2
    keys = np.full(size, -1, dtype=np.int64)
    prev_keys = np.full(size, -1, dtype=np.int64)
    vals = np.empty(size, dtype=np.int64)
    prev_vals = np.empty(size, dtype=np.int64)
    glob = np.empty(max_h, dtype=np.int64)
    hcount = np.zeros(max_h, dtype=np.int64)
    seg_count = np.zeros(max_h, dtype=np.int64)
    prev_seg = np.zeros(max_h, dtype=np.int64)
    rcount = np.zeros(max_h, dtype=np.int64)
    used = np.empty(max_h, dtype=np.int64)
    prev_used = np.empty(max_h, dtype=np.int64)
    n_seg = ref_mask.shape[1]
    for p in range(p0, p1):
        _candidate(
            ids, prefix, info, off, p, seg[p], n_hyp, n_seg, ref_mask, out[p],
            keys, vals, glob, hcount, seg_count, prev_keys, prev_vals, prev_seg, rcount, used,
            prev_used,
        )  # fmt: skip


@nb.njit(cache=True, parallel=True, nogil=True)
def _nist_parallel(ids, prefix, info, off, seg, ref_mask, n_hyp, n_chunks):
    out = np.zeros((n_hyp, 5 * ids.shape[0]), dtype=np.float64)
    starts = np.zeros(n_chunks + 1, dtype=np.int64)
    starts[1:-1] = np.searchsorted(off[: n_hyp + 1], np.linspace(0, off[n_hyp], n_chunks + 1)[1:-1])
    starts[-1] = n_hyp
    for c in nb.prange(n_chunks):
        _chunk(ids, prefix, info, off, seg, ref_mask, n_hyp, starts[c], starts[c + 1], out)
    return out


@nb.njit(cache=True, nogil=True)
def _nist_serial(ids, prefix, info, off, seg, ref_mask, n_hyp):
    out = np.zeros((n_hyp, 5 * ids.shape[0]), dtype=np.float64)
    _chunk(ids, prefix, info, off, seg, ref_mask, n_hyp, 0, n_hyp, out)
    return out


#: below this many candidate tokens the serial kernel is used
PARALLEL_MIN_TOKENS = 20000


def nist_kernel(ids, prefix, info, off, seg, ref_mask, n_hyp: int) -> np.ndarray:
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
    args = (
        np.ascontiguousarray(ids, dtype=np.int64),
        np.ascontiguousarray(prefix, dtype=np.int64),
        np.ascontiguousarray(info, dtype=np.float64),
        np.ascontiguousarray(off, dtype=np.int64),
        np.ascontiguousarray(seg, dtype=np.int64),
        np.ascontiguousarray(ref_mask, dtype=np.bool_),
        int(n_hyp),
    )
    if off[n_hyp] < PARALLEL_MIN_TOKENS:
        return _nist_serial(*args)
    n_chunks = max(1, min(n_hyp, 16 * nb.get_num_threads()))
    return _nist_parallel(*args, n_chunks)


# ------------------------------------------------------------------ slow reference twin
def nist_order_slow(hyp, refs, order, info):
    """Plain-Python twin for one candidate: ``(numerator, ref_len, denominator)`` of the best
    reference, with ``info`` a dict from n-gram tuple to information weight.

    Examples
    --------
    >>> info = information_weights_slow([["a", "b", "c"]], 2)
    >>> num, ref_len, den = nist_order_slow(["a", "b"], [["a", "b", "c"]], 1, info)
    >>> round(num, 6), ref_len, den  # two unigrams of weight log2(3 / 1)
    (3.169925, 3, 2)
    """

    def grams(toks):
        return Counter(tuple(toks[i : i + order]) for i in range(len(toks) - order + 1))

    h = grams(hyp)
    den = sum(h.values())
    best = None
    for ref in refs:
        overlap = h & grams(ref)
        num = sum(info[g] * c for g, c in overlap.items())
        cand = (num / den if den else 0.0, num, den, len(ref))
        best = cand if best is None or cand > best else best
    return best[1], best[3], den


def information_weights_slow(refs_corpus, max_n):
    """Information weight of every reference n-gram: log2(count(prefix) / count(n-gram)),
    with the total number of reference words as the prefix count of unigrams.

    Examples
    --------
    >>> w = information_weights_slow([["a", "b", "a"]], 2)
    >>> w[("a",)], w[("a", "b")]  # log2(3 / 2); log2(count("a") / count("a b")) = log2(2)
    (0.5849625007211562, 1.0)
    """
    freq = Counter()
    words = 0
    for ref in refs_corpus:
        words += len(ref)
        for k in range(1, max_n + 1):
            freq.update(tuple(ref[i : i + k]) for i in range(len(ref) - k + 1))
    return {g: math.log((freq[g[:-1]] if len(g) > 1 else words) / c, 2) for g, c in freq.items()}
