"""chrF's n-gram statistics against each reference separately, exactly (no hashing of text).

For every candidate, reference and order ``n``: ``[candidate n-grams, reference n-grams,
matches]``, where matches are ``sum over n-grams g of min(count in candidate, count in
reference)``. As sacrebleu, the candidate count of an order is 0 when the reference has no
n-gram of that order. The same kernel serves characters (chrF) and words (chrF++): it only
sees int32 ids.

Method: the n-grams are numbered inside each candidate. Order-1 ids are the candidate's
distinct tokens (an array indexed by global token id maps them); the id of an order-k n-gram
is looked up by the exact integer key ``(id of its (k-1)-gram prefix) * A + (id of its last
token)`` (``A`` distinct tokens), below ``|hyp| * A``: in a table indexed directly by the key
when that is small (the usual case), else in an open-addressing table of the candidate's keys
compared exactly. A reference n-gram whose key is not found does not occur in the candidate
and needs no id. No hashing of text, so no collisions. Cost per pair: O(max_n * (|hyp| +
sum |ref|)) array operations, independent of how often a character repeats (unlike a scan of
equal-token cells, costly on the ~30-letter alphabet of characters).

References
----------
Popović (2015), chrF: character n-gram F-score for automatic MT evaluation; Popović (2017),
chrF++. sacrebleu ``metrics/chrf.py`` (``CHRF._get_match_statistics``, Post, 2018) counts the
same with Counters; the slow twin below does it that way.
"""

from __future__ import annotations

from collections import Counter

import numba as nb
import numpy as np

from mtpalette.kernels.tables import chunk_starts, slot, vocab_bound

#: below this many candidate tokens the serial kernel is used (a parallel region costs a
#: thread wake-up)
PARALLEL_MIN_TOKENS = 20000
#: the largest table of n-gram keys indexed directly (larger candidates use a hash table)
DIRECT_MAX = 1 << 18


@nb.njit(cache=True, nogil=True)
def _pair_stats(
    hyp_ids, h0, H, ref_ids, ref_off, seg, n_seg, ref_mask, max_n, out,
    loc, tl, hid, rid, hc, rc, touched, keys, vals, used,
):  # fmt: skip
    """Statistics of one candidate ``hyp_ids[h0:h0+H]`` against each reference, into ``out``
    (``(n_refs, max_n, 3)``). Scratch arrays come clean and are left clean."""
    n_refs = ref_mask.shape[0]
    vocab = len(loc)
    # order 1: local ids of the candidate's distinct tokens
    A = 0
    for i in range(H):
        t = hyp_ids[h0 + i]
        if loc[t] < 0:
            loc[t] = A
            A += 1
        tl[i] = loc[t]
        hid[i] = tl[i]
    # n-gram keys are below H * A: index a table directly when it is small enough
    direct = H * A <= len(vals)
    # the present references' tokens, one after the other in ``rid``, as candidate-local ids
    # (-1: not in the candidate); ``rid[b + j]`` then holds the id of the n-gram at ``j``
    b = 0
    for k in range(n_refs):
        if ref_mask[k, seg]:
            r = k * n_seg + seg
            for j in range(ref_off[r], ref_off[r + 1]):
                t = ref_ids[j]
                rid[b] = loc[t] if t < vocab else -1
                b += 1
    for n in range(max_n):
        n_used = 0
        if n > 0:  # n-gram ids of order n + 1 from those of order n, in place
            for i in range(H - n):
                key = hid[i] * A + tl[i + n]
                if direct:
                    s = key
                    if vals[s] == -1:
                        vals[s] = n_used
                        used[n_used] = s
                        n_used += 1
                else:
                    s = slot(keys, key)
                    if keys[s] == -1:
                        keys[s] = key
                        vals[s] = n_used
                        used[n_used] = s
                        n_used += 1
                hid[i] = vals[s]
        n_hyp = H - n if H > n else 0
        for i in range(n_hyp):
            hc[hid[i]] += 1
        b = 0
        for k in range(n_refs):
            if not ref_mask[k, seg]:
                continue
            r = k * n_seg + seg
            r0 = ref_off[r]
            R = ref_off[r + 1] - r0
            n_ref = R - n if R > n else 0
            n_touched = 0
            for j in range(n_ref):
                g = rid[b + j]
                if n > 0 and g >= 0:
                    t = ref_ids[r0 + j + n]
                    last = loc[t] if t < vocab else -1
                    g = -1
                    if last >= 0:
                        key = rid[b + j] * A + last
                        if direct:
                            g = vals[key]
                        else:
                            s = slot(keys, key)
                            if keys[s] != -1:
                                g = vals[s]
                    rid[b + j] = g
                if g >= 0:
                    if rc[g] == 0:
                        touched[n_touched] = g
                        n_touched += 1
                    rc[g] += 1
            matches = 0
            for q in range(n_touched):
                g = touched[q]
                matches += hc[g] if hc[g] < rc[g] else rc[g]
                rc[g] = 0
            out[k, n, 0] = n_hyp if n_ref > 0 else 0
            out[k, n, 1] = n_ref
            out[k, n, 2] = matches
            b += R
        for i in range(n_hyp):
            hc[hid[i]] = 0
        for q in range(n_used):
            vals[used[q]] = -1
            if not direct:
                keys[used[q]] = -1
    for i in range(H):
        loc[hyp_ids[h0 + i]] = -1


@nb.njit(cache=True, nogil=True)
def _chunk(
    hyp_ids, hyp_off, seg, ref_ids, ref_off, ref_mask, max_n, p0, p1, vocab, direct_max, out
):
    """Pairs ``p0..p1-1`` into ``out``, with their own scratch arrays."""
    n_refs, n_seg = ref_mask.shape
    max_h = 1
    max_r = 1
    for p in range(p0, p1):
        max_h = max(max_h, hyp_off[p + 1] - hyp_off[p])
        total = 0
        for k in range(n_refs):
            if ref_mask[k, seg[p]]:
                r = k * n_seg + seg[p]
                total += ref_off[r + 1] - ref_off[r]
        max_r = max(max_r, total)
    size = 1
    while size < 2 * max_h:
        size *= 2
    loc = np.full(vocab, -1, dtype=np.int64)
    tl = np.empty(max_h, dtype=np.int64)
    hid = np.empty(max_h, dtype=np.int64)
    rid = np.empty(max_r, dtype=np.int64)
    hc = np.zeros(max_h, dtype=np.int64)
    rc = np.zeros(max_h, dtype=np.int64)
    touched = np.empty(max_h, dtype=np.int64)
    keys = np.full(size, -1, dtype=np.int64)
    vals = np.full(max(size, min(max_h * max_h, direct_max)), -1, dtype=np.int64)
    used = np.empty(max_h, dtype=np.int64)
    for p in range(p0, p1):
        _pair_stats(
            hyp_ids, hyp_off[p], hyp_off[p + 1] - hyp_off[p], ref_ids, ref_off, seg[p], n_seg,
            ref_mask, max_n, out[p], loc, tl, hid, rid, hc, rc, touched, keys, vals, used,
        )  # fmt: skip


@nb.njit(cache=True, nogil=True)
def _setup(hyp_ids, hyp_off, n_refs, max_n, n_chunks):
    """The output array, the vocabulary bound and chunks of about equal numbers of tokens."""
    P = len(hyp_off) - 1
    out = np.zeros((P, n_refs, max_n, 3), dtype=np.int64)
    return out, vocab_bound(hyp_ids), chunk_starts(hyp_off, n_chunks)


@nb.njit(cache=True, parallel=True, nogil=True)
def _stats_parallel(hyp_ids, hyp_off, seg, ref_ids, ref_off, ref_mask, max_n, direct_max, n_chunks):
    out, vocab, starts = _setup(hyp_ids, hyp_off, ref_mask.shape[0], max_n, n_chunks)
    for c in nb.prange(n_chunks):
        _chunk(
            hyp_ids, hyp_off, seg, ref_ids, ref_off, ref_mask, max_n, starts[c], starts[c + 1],
            vocab, direct_max, out,
        )  # fmt: skip
    return out


@nb.njit(cache=True, nogil=True)
def _stats_serial(hyp_ids, hyp_off, seg, ref_ids, ref_off, ref_mask, max_n, direct_max):
    out, vocab, _ = _setup(hyp_ids, hyp_off, ref_mask.shape[0], max_n, 1)
    P = len(hyp_off) - 1
    _chunk(hyp_ids, hyp_off, seg, ref_ids, ref_off, ref_mask, max_n, 0, P, vocab, direct_max, out)
    return out


def chrf_ngram_stats(pairs, max_n: int, *, direct_max: int = DIRECT_MAX) -> np.ndarray:
    """``[candidate n-grams, reference n-grams, matches]`` per pair, reference and order.

    Parameters
    ----------
    pairs:
        Encoded candidates and references (:class:`~mtpalette.metrics.base.Pairs`); the ids
        may be characters or words.
    max_n:
        The highest n-gram order.
    direct_max:
        The largest key table indexed directly; candidates needing more use a hash table
        (the result is the same; tests lower it to exercise that path).

    Returns
    -------
    numpy.ndarray
        int64 array ``(P, R, max_n, 3)``; ``out[p, k, n - 1]`` holds the statistics of order
        ``n`` of candidate ``p`` against its ``k``-th reference (zeros where that reference
        is missing). The candidate count is 0 where the reference has no n-gram of the order.

    Examples
    --------
    >>> from mtpalette.metrics.base import Pairs
    >>> from mtpalette.text.ragged import Ragged
    >>> pairs = Pairs(Ragged.from_rows([[1, 2, 1]]), np.array([0]),
    ...               Ragged.from_rows([[1, 2], [1]]), np.ones((2, 1), bool))
    >>> chrf_ngram_stats(pairs, 2).tolist()  # ref 2 has no bigram: candidate bigrams count 0
    [[[[3, 2, 2], [2, 1, 1]], [[3, 1, 1], [0, 0, 0]]]]
    """
    arrays = pairs.arrays()
    if max_n < 1:
        raise ValueError("max_n must be at least 1")
    if len(pairs.hyp.ids) < PARALLEL_MIN_TOKENS:
        return _stats_serial(*arrays, max_n, direct_max)
    n_chunks = max(1, min(len(pairs.hyp), 16 * nb.get_num_threads()))
    return _stats_parallel(*arrays, max_n, direct_max, n_chunks)


# ------------------------------------------------------------------ slow reference twin
def chrf_ngram_stats_slow(hyp, refs, max_n: int) -> np.ndarray:
    """Plain-Python twin of :func:`chrf_ngram_stats` for one candidate: ``(len(refs), max_n,
    3)``, counted with Counters as sacrebleu does.

    Examples
    --------
    >>> chrf_ngram_stats_slow("aba", ["ab", "a"], 2).tolist()
    [[[3, 2, 2], [2, 1, 1]], [[3, 1, 1], [0, 0, 0]]]
    """

    def counts(tokens, n):
        tokens = list(tokens)
        return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))

    out = np.zeros((len(refs), max_n, 3), dtype=np.int64)
    for k, ref in enumerate(refs):
        for n in range(1, max_n + 1):
            h, r = counts(hyp, n), counts(ref, n)
            matches = sum(min(c, r[g]) for g, c in h.items() if g in r)
            out[k, n - 1] = [sum(h.values()) if r else 0, sum(r.values()), matches]
    return out
