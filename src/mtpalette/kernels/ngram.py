"""Clipped n-gram matches between candidates and their references, exactly (no hashing).

Let ``L(i, j)`` be the length of the common run of tokens starting at candidate position
``i`` and reference position ``j`` (capped at ``max_n``): ``L(i, j) = 1 + L(i + 1, j + 1)``
when the tokens are equal, else 0. The n-gram of order ``n`` at ``i`` occurs
``#{j : L(i, j) >= n}`` times in a reference and ``#{i' : L(i, i') >= n}`` times in the
candidate itself; it is counted once, at its first occurrence in the candidate (no ``i' < i``
with ``L(i, i') >= n``). The clipped count of an n-gram is ``min(count in candidate, max over
references of count in reference)`` as in BLEU (Papineni et al., 2002).

Only the cells with equal tokens are visited: the candidate's positions are chained by token
(a linked list per distinct token, ascending), and each reference token walks the chain of its
equal candidate tokens, reference positions from the end so that ``L(i + 1, j + 1)`` is
known. Cost per pair: O(|hyp| * max_n + sum |ref| + number of equal-token cells), with an
array indexed by token id as the only lookup: no hashing, no collisions.

With ``per_ref=True`` the kernel instead returns the clipped count against each reference
separately (ROUGE-N scores each reference on its own).

References
----------
Papineni et al. (2002), BLEU: clipped n-gram precision. sacrebleu's
``BLEU._compute_segment_statistics`` (Post, 2018) counts the same with Counters; the slow
twin below does it that way.
"""

from __future__ import annotations

from collections import Counter

import numba as nb
import numpy as np

from mtpalette.kernels.tables import chunk_starts, vocab_bound


@nb.njit(cache=True, nogil=True)
def _run_counts(a, h0, H, b, b0, B, head, nxt, max_n, lval, lstamp, hist, rows, is_self, first):
    """``hist[i, n]`` += #{j : L(i, j) = n + 1} for candidate ``a[h0:h0+H]`` against ``b``
    (without the diagonal ``j = i`` when ``b`` is the candidate itself).

    ``head``/``nxt`` chain the candidate's positions by token, ascending. ``lval[i]`` holds
    L(i, j) of the column ``j = lstamp[i]``. The candidate positions whose row of ``hist`` was
    untouched (all zero) before are appended to ``rows``; returns their number. With
    ``is_self`` (``b`` is the candidate), ``first[i]`` becomes max over j < i of L(i, j).
    """
    for i in range(H + 1):
        lstamp[i] = -1
    n_rows = 0
    for j in range(B - 1, -1, -1):
        t = b[b0 + j]
        if t >= len(head):
            continue
        i = head[t]
        while i >= 0:  # ascending: L(i + 1, j + 1) is read before column j overwrites it
            if is_self and i == j:  # the diagonal is counted by the caller
                i = nxt[i]
                continue
            v = 1
            if lstamp[i + 1] == j + 1:
                v = lval[i + 1] + 1
                if v > max_n:
                    v = max_n
            lval[i] = v
            lstamp[i] = j
            if not is_self:
                seen = False
                for n in range(max_n):
                    if hist[i, n] != 0:
                        seen = True
                        break
                if not seen:
                    rows[n_rows] = i
                    n_rows += 1
            hist[i, v - 1] += 1
            if is_self and j < i and v > first[i]:
                first[i] = v
            i = nxt[i]
    return n_rows


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
    head,
    nxt,
    lval,
    lstamp,
    self_hist,
    ref_hist,
    best,
    first,
    rows,
    best_rows,
):
    H = h1 - h0
    if H == 0:
        return
    for i in range(H - 1, -1, -1):
        t = hyp_ids[h0 + i]
        nxt[i] = head[t]
        head[t] = i
    for i in range(H):
        first[i] = 0
        for n in range(max_n):
            self_hist[i, n] = 0
    # count of each n-gram in the candidate, and whether position i is its first occurrence
    _run_counts(
        hyp_ids,
        h0,
        H,
        hyp_ids,
        h0,
        H,
        head,
        nxt,
        max_n,
        lval,
        lstamp,
        self_hist,
        rows,
        True,
        first,
    )
    for i in range(H):  # self_hist[i, n] = #{i' : L(i, i') >= n + 1}
        for n in range(max_n - 2, -1, -1):
            self_hist[i, n] += self_hist[i, n + 1]
        for n in range(min(max_n, H - i)):  # the diagonal: L(i, i) = min(max_n, H - i)
            self_hist[i, n] += 1
    n_best = 0
    for k in range(n_refs):
        if not ref_mask[k, seg]:
            continue
        r = k * n_seg + seg
        r0 = ref_off[r]
        n_rows = _run_counts(
            hyp_ids,
            h0,
            H,
            ref_ids,
            r0,
            ref_off[r + 1] - r0,
            head,
            nxt,
            max_n,
            lval,
            lstamp,
            ref_hist,
            rows,
            False,
            first,
        )
        for q in range(n_rows):
            i = rows[q]
            top = min(max_n, H - i)
            acc = 0
            if per_ref:
                for n in range(max_n - 1, -1, -1):
                    acc += ref_hist[i, n]
                    ref_hist[i, n] = 0
                    if first[i] <= n < top:
                        c = self_hist[i, n]
                        out[k, n] += c if c < acc else acc
            else:
                if best[i, 0] == 0:
                    best_rows[n_best] = i
                    n_best += 1
                for n in range(max_n - 1, -1, -1):
                    acc += ref_hist[i, n]
                    ref_hist[i, n] = 0
                    if acc > best[i, n]:
                        best[i, n] = acc
    for q in range(n_best):
        i = best_rows[q]
        for n in range(first[i], min(max_n, H - i)):
            c = self_hist[i, n]
            rc = best[i, n]
            out[0, n] += c if c < rc else rc
        for n in range(max_n):
            best[i, n] = 0
    for i in range(H):
        head[hyp_ids[h0 + i]] = -1


@nb.njit(cache=True, nogil=True)
def _chunk(hyp_ids, hyp_off, seg, ref_ids, ref_off, ref_mask, max_n, per_ref, p0, p1, vocab, out):
    """Pairs ``p0..p1-1`` into ``out``, with their own scratch arrays."""
    n_refs, n_seg = ref_mask.shape
    max_h = 0
    for p in range(p0, p1):
        if hyp_off[p + 1] - hyp_off[p] > max_h:
            max_h = hyp_off[p + 1] - hyp_off[p]
    head = np.full(vocab, -1, dtype=np.int32)
    nxt = np.empty(max_h + 1, dtype=np.int32)
    lval = np.zeros(max_h + 1, dtype=np.int32)
    lstamp = np.empty(max_h + 1, dtype=np.int32)
    self_hist = np.zeros((max_h + 1, max_n), dtype=np.int32)
    ref_hist = np.zeros((max_h + 1, max_n), dtype=np.int32)
    best = np.zeros((max_h + 1, max_n), dtype=np.int32)
    first = np.zeros(max_h + 1, dtype=np.int64)
    rows = np.empty(max_h + 1, dtype=np.int64)
    best_rows = np.empty(max_h + 1, dtype=np.int64)
    for p in range(p0, p1):
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
            head,
            nxt,
            lval,
            lstamp,
            self_hist,
            ref_hist,
            best,
            first,
            rows,
            best_rows,
        )


@nb.njit(cache=True, nogil=True)
def _setup(hyp_ids, hyp_off, n_refs, max_n, per_ref, n_chunks):
    """The output array, the vocabulary bound and chunks of about equal numbers of tokens."""
    P = len(hyp_off) - 1
    out = np.zeros((P, n_refs if per_ref else 1, max_n), dtype=np.int64)
    return out, vocab_bound(hyp_ids), chunk_starts(hyp_off, n_chunks)


@nb.njit(cache=True, parallel=True, nogil=True)
def _matches_parallel(hyp_ids, hyp_off, seg, ref_ids, ref_off, ref_mask, max_n, per_ref, n_chunks):
    out, vocab, starts = _setup(hyp_ids, hyp_off, ref_mask.shape[0], max_n, per_ref, n_chunks)
    for c in nb.prange(n_chunks):
        _chunk(
            hyp_ids,
            hyp_off,
            seg,
            ref_ids,
            ref_off,
            ref_mask,
            max_n,
            per_ref,
            starts[c],
            starts[c + 1],
            vocab,
            out,
        )
    return out


@nb.njit(cache=True, nogil=True)
def _matches_serial(hyp_ids, hyp_off, seg, ref_ids, ref_off, ref_mask, max_n, per_ref):
    # a parallel region costs a thread wake-up (milliseconds on a busy machine): too much for
    # a handful of pairs
    out, vocab, _ = _setup(hyp_ids, hyp_off, ref_mask.shape[0], max_n, per_ref, 1)
    P = len(hyp_off) - 1
    _chunk(hyp_ids, hyp_off, seg, ref_ids, ref_off, ref_mask, max_n, per_ref, 0, P, vocab, out)
    return out


#: below this many candidate tokens the serial kernel is used
PARALLEL_MIN_TOKENS = 20000


def ngram_matches(pairs, max_n: int, *, per_ref: bool = False) -> np.ndarray:
    """Clipped n-gram match counts, an int64 array ``(P, 1 or R, max_n)``.

    ``out[p, 0, n - 1]`` is BLEU's clipped count of order ``n`` for candidate ``p`` (clipped by
    the maximum count over its references); with ``per_ref=True``, ``out[p, k, n - 1]`` is the
    clipped count against reference ``k`` alone (zero where that reference is missing).

    Examples
    --------
    >>> from mtpalette.metrics.base import Pairs
    >>> from mtpalette.text.ragged import Ragged
    >>> pairs = Pairs(Ragged.from_rows([[1, 2, 1]]), np.array([0]),
    ...               Ragged.from_rows([[1, 2], [1, 1]]), np.ones((2, 1), bool))
    >>> ngram_matches(pairs, 2).tolist()  # unigrams: 1 twice (clipped by [1, 1]), 2 once
    [[[3, 1]]]
    """
    arrays = (
        pairs.hyp.ids,
        pairs.hyp.offsets,
        pairs.seg,
        pairs.refs.ids,
        pairs.refs.offsets,
        pairs.ref_mask,
    )
    if len(pairs.hyp.ids) < PARALLEL_MIN_TOKENS:
        return _matches_serial(*arrays, max_n, per_ref)
    n_chunks = max(1, min(len(pairs.hyp), 16 * nb.get_num_threads()))
    return _matches_parallel(*arrays, max_n, per_ref, n_chunks)


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
