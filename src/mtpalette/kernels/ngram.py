"""Clipped n-gram matches between candidates and their references, exactly (no hashing).

For every candidate position ``i`` and reference position ``j`` the kernel computes the length
``L(i, j)`` of the common run of tokens starting there (capped at ``max_n``), one row of the
table at a time from the end. The n-gram of order ``n`` at ``i`` occurs ``#{j : L(i, j) >= n}``
times in a reference and ``#{i' : L(i, i') >= n}`` times in the candidate itself; it is counted
once, at its first occurrence in the candidate. The clipped count of an n-gram is
``min(count in candidate, max over references of count in reference)`` as in BLEU
(Papineni et al., 2002). Cost per pair: O(|hyp| * (|hyp| + sum |ref|)), with no dictionary.

With ``per_ref=True`` the kernel instead returns the clipped count against each reference
separately (ROUGE-N scores each reference on its own).
"""

from __future__ import annotations

from collections import Counter

import numba as nb
import numpy as np


@nb.njit(cache=True, nogil=True)
def _runs_hist(a, a0, a1, b, b0, b1, max_n, prev, cur, hist_rows, first):
    """Fill ``hist_rows[i - a0, n]`` with #{j : L(i, j) >= n + 1} for every i of a.

    When ``first`` has room (a matched against itself), also ``first[i]`` = max over j < i of
    L(i, j): the n-gram at i occurred earlier for every order up to that value.
    """
    la = a1 - a0
    lb = b1 - b0
    for j in range(lb + 1):
        prev[j] = 0
    for ii in range(la - 1, -1, -1):
        x = a[a0 + ii]
        cur[lb] = 0
        row = hist_rows[ii]
        for n in range(max_n):
            row[n] = 0
        for jj in range(lb - 1, -1, -1):
            if b[b0 + jj] == x:
                v = prev[jj + 1] + 1
                if v > max_n:
                    v = max_n
                cur[jj] = v
                row[v - 1] += 1
            else:
                cur[jj] = 0
        # suffix sums: row[n] = #{j : L >= n + 1}
        for n in range(max_n - 2, -1, -1):
            row[n] += row[n + 1]
        if len(first) > ii:
            m = 0
            for jj in range(ii):
                if cur[jj] > m:
                    m = cur[jj]
            first[ii] = m
        for j in range(lb + 1):
            prev[j] = cur[j]


@nb.njit(cache=True, nogil=True)
def _pair_matches(
    hyp_ids,
    h0,
    h1,
    ref_ids,
    ref_off,
    seg,
    n_seg,
    n_refs,
    ref_mask,
    max_n,
    per_ref,
    out,
    prev,
    cur,
    self_hist,
    first,
    ref_hist,
    best,
):
    H = h1 - h0
    no_first = first[:0]
    # self matches: count of each n-gram in the hypothesis, and its first occurrence
    _runs_hist(hyp_ids, h0, h1, hyp_ids, h0, h1, max_n, prev, cur, self_hist, first)
    if not per_ref:
        for ii in range(H):
            for n in range(max_n):
                best[ii, n] = 0
    for k in range(n_refs):
        if not ref_mask[k, seg]:
            continue
        r = k * n_seg + seg
        r0 = ref_off[r]
        r1 = ref_off[r + 1]
        _runs_hist(hyp_ids, h0, h1, ref_ids, r0, r1, max_n, prev, cur, ref_hist, no_first)
        if per_ref:
            for ii in range(H):
                for n in range(first[ii], min(max_n, H - ii)):
                    c = self_hist[ii, n]
                    rc = ref_hist[ii, n]
                    out[k, n] += c if c < rc else rc
        else:
            for ii in range(H):
                for n in range(max_n):
                    if ref_hist[ii, n] > best[ii, n]:
                        best[ii, n] = ref_hist[ii, n]
    if not per_ref:
        for ii in range(H):
            for n in range(first[ii], min(max_n, H - ii)):
                c = self_hist[ii, n]
                rc = best[ii, n]
                out[0, n] += c if c < rc else rc


@nb.njit(cache=True, parallel=True, nogil=True)
def _matches_kernel(hyp_ids, hyp_off, seg, ref_ids, ref_off, ref_mask, max_n, per_ref, n_chunks):
    P = len(hyp_off) - 1
    n_refs, n_seg = ref_mask.shape
    n_out = n_refs if per_ref else 1
    out = np.zeros((P, n_out, max_n), dtype=np.int64)
    max_h = 0
    for p in range(P):
        if hyp_off[p + 1] - hyp_off[p] > max_h:
            max_h = hyp_off[p + 1] - hyp_off[p]
    max_r = 0
    for r in range(len(ref_off) - 1):
        if ref_off[r + 1] - ref_off[r] > max_r:
            max_r = ref_off[r + 1] - ref_off[r]
    width = max(max_h, max_r) + 1
    chunk = (P + n_chunks - 1) // n_chunks
    for c in nb.prange(n_chunks):
        prev = np.zeros(width, dtype=np.int64)
        cur = np.zeros(width, dtype=np.int64)
        self_hist = np.zeros((max_h + 1, max_n), dtype=np.int64)
        ref_hist = np.zeros((max_h + 1, max_n), dtype=np.int64)
        best = np.zeros((max_h + 1, max_n), dtype=np.int64)
        first = np.zeros(max_h + 1, dtype=np.int64)
        for p in range(c * chunk, min(P, (c + 1) * chunk)):
            _pair_matches(
                hyp_ids,
                hyp_off[p],
                hyp_off[p + 1],
                ref_ids,
                ref_off,
                seg[p],
                n_seg,
                n_refs,
                ref_mask,
                max_n,
                per_ref,
                out[p],
                prev,
                cur,
                self_hist,
                first,
                ref_hist,
                best,
            )
    return out


def ngram_matches(pairs, max_n: int, *, per_ref: bool = False) -> np.ndarray:
    """Clipped n-gram match counts, an int64 array ``(P, 1 or R, max_n)``.

    ``out[p, 0, n - 1]`` is BLEU's clipped count of order ``n`` for candidate ``p`` (clipped by
    the maximum count over its references); with ``per_ref=True``, ``out[p, k, n - 1]`` is the
    clipped count against reference ``k`` alone (zero where that reference is missing).
    """
    n_chunks = max(1, min(len(pairs.hyp), 64 * nb.get_num_threads()))
    return _matches_kernel(
        *pairs.arrays(),
        max_n,
        per_ref,
        n_chunks,
    )


def ngram_totals(lengths: np.ndarray, max_n: int) -> np.ndarray:
    """Number of n-grams of each order 1..max_n in sentences of the given lengths.

    Examples
    --------
    >>> ngram_totals(np.array([3, 0]), 4).tolist()
    [[3, 2, 1, 0], [0, 0, 0, 0]]
    """
    orders = np.arange(max_n)
    return np.maximum(lengths[:, None] - orders[None, :], 0).astype(np.int64)


# ------------------------------------------------------------------ slow reference twin
def ngram_counts_slow(tokens, max_n: int) -> Counter:
    """Counter of every n-gram (as a tuple) of order 1..max_n."""
    tokens = list(tokens)
    return Counter(
        tuple(tokens[i : i + n]) for n in range(1, max_n + 1) for i in range(len(tokens) - n + 1)
    )


def ngram_matches_slow(hyp, refs, max_n: int, *, per_ref: bool = False) -> np.ndarray:
    """Plain-Python twin of :func:`ngram_matches` for one candidate and its references.

    Examples
    --------
    >>> ngram_matches_slow([1, 2, 1], [[1, 2], [1, 1]], 2).tolist()
    [[3, 1]]
    """
    hyp_counts = ngram_counts_slow(hyp, max_n)
    ref_counts = [ngram_counts_slow(r, max_n) for r in refs]
    if per_ref:
        out = np.zeros((len(refs), max_n), dtype=np.int64)
        for k, rc in enumerate(ref_counts):
            for g, c in hyp_counts.items():
                out[k, len(g) - 1] += min(c, rc.get(g, 0))
        return out
    out = np.zeros((1, max_n), dtype=np.int64)
    for g, c in hyp_counts.items():
        out[0, len(g) - 1] += min(c, max((rc.get(g, 0) for rc in ref_counts), default=0))
    return out
