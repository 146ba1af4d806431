"""Skip-bigram matches for every maximum skip distance at once (ROUGE-S0..9, S*, SU).

A skip-bigram is an ordered pair of words (x_i, x_j), i < j; its gap is j - i - 1, the number
of words in between. ROUGE-S-d keeps the pairs with gap <= d; ROUGE-S* keeps them all.
For each candidate and reference the kernel lists both sentences' pairs with their gaps
(bucketed 0..max_gap, then one bucket for larger gaps), sorts them, and for every distinct
pair and every d counts min(occurrences in the candidate, occurrences in the reference) among
the pairs with gap <= d - clipped counts as in ROUGE-1.5.5. One pass serves every d.

References
----------
Lin and Och (2004), ORANGE, section 3.3; Lin (2004), ROUGE, section 5.
"""

from __future__ import annotations

from collections import Counter

import numba as nb
import numpy as np


@nb.njit(cache=True, nogil=True)
def _pairs_sorted(tokens, vocab, n_buckets):
    n = len(tokens)
    m = n * (n - 1) // 2
    keys = np.empty(m, dtype=np.int64)
    q = 0
    for i in range(n):
        for j in range(i + 1, n):
            gap = j - i - 1
            if gap > n_buckets - 1:
                gap = n_buckets - 1
            keys[q] = (tokens[i] * vocab + tokens[j]) * n_buckets + gap
            q += 1
    keys.sort()
    return keys


@nb.njit(cache=True, parallel=True, nogil=True)
def _all_keys_sorted(ids, off, vocab, n_buckets):
    """The sorted skip-bigram keys of every row, as one flat array with row offsets."""
    n_rows = len(off) - 1
    key_off = np.zeros(n_rows + 1, dtype=np.int64)
    for r in range(n_rows):
        n = off[r + 1] - off[r]
        key_off[r + 1] = key_off[r] + n * (n - 1) // 2
    keys = np.empty(key_off[n_rows], dtype=np.int64)
    for r in nb.prange(n_rows):
        keys[key_off[r] : key_off[r + 1]] = _pairs_sorted(
            ids[off[r] : off[r + 1]], vocab, n_buckets
        )
    return keys, key_off


@nb.njit(cache=True, parallel=True, nogil=True)
def _matches(hyp_ids, hyp_off, seg, ref_keys, ref_key_off, ref_mask, vocab, n_buckets):
    n_refs, n_seg = ref_mask.shape
    P = len(hyp_off) - 1
    out = np.full((P, n_refs, n_buckets), np.nan)
    for p in nb.prange(P):
        hk = _pairs_sorted(hyp_ids[hyp_off[p] : hyp_off[p + 1]], vocab, n_buckets)
        hc = np.zeros(n_buckets, dtype=np.int64)
        rc = np.zeros(n_buckets, dtype=np.int64)
        s = seg[p]
        for k in range(n_refs):
            if not ref_mask[k, s]:
                continue
            r = k * n_seg + s
            rk = ref_keys[ref_key_off[r] : ref_key_off[r + 1]]
            total = np.zeros(n_buckets, dtype=np.int64)
            i = 0
            j = 0
            while i < len(hk) and j < len(rk):
                gh = hk[i] // n_buckets
                gr = rk[j] // n_buckets
                if gh < gr:
                    i += 1
                elif gh > gr:
                    j += 1
                else:
                    for b in range(n_buckets):
                        hc[b] = 0
                        rc[b] = 0
                    while i < len(hk) and hk[i] // n_buckets == gh:
                        hc[hk[i] % n_buckets] += 1
                        i += 1
                    while j < len(rk) and rk[j] // n_buckets == gh:
                        rc[rk[j] % n_buckets] += 1
                        j += 1
                    ch = 0
                    cr = 0
                    for b in range(n_buckets):
                        ch += hc[b]
                        cr += rc[b]
                        total[b] += ch if ch < cr else cr
            for b in range(n_buckets):
                out[p, k, b] = total[b]
    return out


def skip_matches_kernel(hyp_ids, hyp_off, seg, ref_ids, ref_off, ref_mask, vocab, n_buckets):
    """Clipped matches ``(P, R, n_buckets)``: column d counts pairs with gap <= d (the last
    column: any gap); NaN where the reference is missing. Each reference's pairs are listed
    and sorted once, however many candidates share it."""
    ref_keys, ref_key_off = _all_keys_sorted(ref_ids, ref_off, vocab, n_buckets)
    return _matches(hyp_ids, hyp_off, seg, ref_keys, ref_key_off, ref_mask, vocab, n_buckets)


def skip_pair_totals(lengths: np.ndarray, n_buckets: int) -> np.ndarray:
    """Number of skip-bigrams with gap <= d in sentences of the given lengths, per bucket d
    (the last bucket: all C(n, 2)).

    Examples
    --------
    >>> skip_pair_totals(np.array([4]), 3).tolist()  # gap <= 0: 3, <= 1: 5, all: 6
    [[3.0, 5.0, 6.0]]
    """
    n = lengths.astype(np.float64)[:, None]
    d = np.arange(n_buckets, dtype=np.float64)[None, :]
    # sum over gaps g = 0..d of max(n - 1 - g, 0)
    g_max = np.minimum(d, np.maximum(n - 2, -1))
    count = (g_max + 1) * (n - 1) - g_max * (g_max + 1) / 2
    out = np.where(n >= 2, count, 0.0)
    out[:, -1] = np.where(lengths >= 2, n[:, 0] * (n[:, 0] - 1) / 2, 0.0)
    return out


def skip_matches_slow(hyp, ref, max_gap: int | None) -> int:
    """Clipped skip-bigram matches with gap <= ``max_gap`` (None: no limit), by counting.

    Examples
    --------
    >>> skip_matches_slow("police killed the gunman".split(), "the gunman police killed".split(),
    ...                   None)
    2
    """

    def grams(s):
        return Counter(
            (s[i], s[j])
            for i in range(len(s))
            for j in range(i + 1, len(s))
            if max_gap is None or j - i - 1 <= max_gap
        )

    h, r = grams(list(hyp)), grams(list(ref))
    return sum(min(c, r[g]) for g, c in h.items())
