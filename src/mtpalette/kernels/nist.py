"""NIST's information-weighted n-gram matches (Doddington, 2002), as NLTK computes them.

For one n-gram order, per candidate and per reference: the sum over matched n-grams (clipped
by the count in that reference) of their information weight, and the number of candidate
n-grams. Two weightings are computed at once: weights from the reference n-gram counts of the
whole corpus (``corpus_nist``) and from those of the candidate's own segment (``sentence_nist``,
which NLTK defines as a corpus of one segment). The reference giving the highest precision is
kept, as NLTK does (ties broken by numerator, then denominator, then reference length).
"""

from __future__ import annotations

import math
from collections import Counter

import numba as nb
import numpy as np


@nb.njit(cache=True, nogil=True)
def _count_in(sorted_arr, value):
    lo = np.searchsorted(sorted_arr, value, side="left")
    hi = np.searchsorted(sorted_arr, value, side="right")
    return hi - lo


@nb.njit(cache=True, nogil=True)
def log2_ratio(numer, denom):
    """log2(numer / denom) computed as Python's ``math.log(x, 2)`` does (two natural logs)."""
    return math.log(numer / denom) / math.log(2.0)


@nb.njit(cache=True)
def corpus_information(counts, numer):
    """Information weight per n-gram id from corpus counts (0 where the count is 0)."""
    out = np.zeros(len(counts), dtype=np.float64)
    for g in range(len(counts)):
        if counts[g] > 0:
            out[g] = log2_ratio(numer[g], counts[g])
    return out


@nb.njit(cache=True, parallel=True, nogil=True)
def nist_order_kernel(ids, prev_ids, prefix, off, seg, ref_mask, n_hyp, info, order):
    """Per candidate: ``[num_corpus, refl_corpus, num_segment, refl_segment, denominator]``.

    ``ids`` / ``prev_ids``: n-gram ids of this order and of order - 1 (unused for order 1),
    aligned with the positions of the combined rows (candidates first, then references
    ``k * S + s``); ``prefix``: the prefix id of each n-gram id; ``info``: corpus information
    weights per n-gram id. Matches are summed in the order of first occurrence in the
    candidate, as NLTK does, so that exact ties between references break the same way.
    """
    n_refs, n_seg = ref_mask.shape
    out = np.zeros((n_hyp, 5), dtype=np.float64)
    for p in nb.prange(n_hyp):
        s = seg[p]
        h0 = off[p]
        n_pos = off[p + 1] - h0
        # candidate n-grams in first-occurrence order, with their counts
        firsts = np.empty(n_pos, dtype=np.int64)
        counts = np.zeros(n_pos, dtype=np.int64)
        n_first = 0
        den = 0
        for t in range(h0, h0 + n_pos):
            g = ids[t]
            if g < 0:
                continue
            den += 1
            found = -1
            for q in range(n_first):
                if firsts[q] == g:
                    found = q
                    break
            if found < 0:
                firsts[n_first] = g
                counts[n_first] = 1
                n_first += 1
            else:
                counts[found] += 1
        # the segment's references: all their n-grams of this order and of order - 1
        total_words = 0
        for k in range(n_refs):
            if ref_mask[k, s]:
                r = n_hyp + k * n_seg + s
                total_words += off[r + 1] - off[r]
        seg_grams = np.empty(total_words, dtype=np.int64)
        seg_prev = np.empty(total_words, dtype=np.int64)
        a = 0
        b = 0
        for k in range(n_refs):
            if ref_mask[k, s]:
                r = n_hyp + k * n_seg + s
                for t in range(off[r], off[r + 1]):
                    if ids[t] >= 0:
                        seg_grams[a] = ids[t]
                        a += 1
                    if order > 1 and prev_ids[t] >= 0:
                        seg_prev[b] = prev_ids[t]
                        b += 1
        seg_grams = np.sort(seg_grams[:a])
        seg_prev = np.sort(seg_prev[:b])
        best_c = (-1.0, -1.0, -1.0, -1.0)
        best_s = (-1.0, -1.0, -1.0, -1.0)
        for k in range(n_refs):
            if not ref_mask[k, s]:
                continue
            r = n_hyp + k * n_seg + s
            ref = np.sort(ids[off[r] : off[r + 1]])
            num_c = 0.0
            num_s = 0.0
            for q in range(n_first):
                g = firsts[q]
                cj = _count_in(ref, g)
                if cj == 0:
                    continue
                m = counts[q] if counts[q] < cj else cj
                num_c += info[g] * m
                freq = _count_in(seg_grams, g)
                numer = total_words if order == 1 else _count_in(seg_prev, prefix[g])
                num_s += log2_ratio(numer, freq) * m
            ref_len = float(off[r + 1] - off[r])
            prec_c = num_c / den if den > 0 else 0.0
            prec_s = num_s / den if den > 0 else 0.0
            cand_c = (prec_c, num_c, float(den), ref_len)
            cand_s = (prec_s, num_s, float(den), ref_len)
            if cand_c > best_c:
                best_c = cand_c
            if cand_s > best_s:
                best_s = cand_s
        out[p, 0] = best_c[1]
        out[p, 1] = best_c[3]
        out[p, 2] = best_s[1]
        out[p, 3] = best_s[3]
        out[p, 4] = den
    return out


# ------------------------------------------------------------------ slow reference twin
def nist_order_slow(hyp, refs, order, info):
    """Plain-Python twin for one candidate: ``(numerator, ref_len, denominator)`` of the best
    reference, with ``info`` a dict from n-gram tuple to information weight."""

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
    with the total number of reference words as the prefix count of unigrams."""
    freq = Counter()
    words = 0
    for ref in refs_corpus:
        words += len(ref)
        for k in range(1, max_n + 1):
            freq.update(tuple(ref[i : i + k]) for i in range(len(ref) - k + 1))
    return {g: math.log((freq[g[:-1]] if len(g) > 1 else words) / c, 2) for g, c in freq.items()}
