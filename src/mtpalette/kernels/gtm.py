"""The maximum match size of the General Text Matcher, as gtm 1.4 computes it.

Turian, Shen and Melamed (2003) place the candidate against the reference on a grid whose
cells are *hits* where the two words are equal. A matching takes hits no two of which share a
row or a column; its *runs* are maximal diagonal stretches of matched hits (aligned blocks),
and its size is ``(sum over runs of length^e)^(1/e)``. The MMS is the size of the largest
matching. With e = 1 it is the largest number of words matched one to one; for e > 1 finding
it is NP-hard, and the reference implementation (gtm 1.4, ``Bitext.java``) approximates it
greedily. This module computes exactly what gtm 1.4 computes:

1. Several references are concatenated, each followed by a break token that matches nothing,
   so a run never crosses two references but a candidate word may match any of them.
2. Every diagonal stretch of hits is a candidate block (all lengths from every hit). Blocks
   are taken longest first; among equal lengths the one with the larger
   ``candidate position * (concatenated reference length + number of references) + reference
   position`` first, i.e. the later candidate position, then the later reference position.
3. A block is taken when none of its rows and columns is used yet; each taken block of length
   L adds L^e to the sum.
4. At most ``min(candidate length, mean reference length)`` hits are taken in all: a block
   longer than what is left is cut to it, and since the mean reference length can end in .5,
   so can the cut length c; the cut block marks ceil(c) cells as used and adds c^e. Taking
   stops once nothing is left.

Blocks of one length never depend on the exponent, so one pass serves every e: the kernel
records the lengths taken and returns ``(sum L^e)^(1/e)`` for each exponent asked.

For e = 1 the greedy result is the exact maximum: taking every single-hit block in the end
makes the matching maximal, and in the hit grid of one word type (a complete bipartite graph)
every maximal matching has the size of the smaller side, so MMS = min(sum over word types of
min(candidate count, count in all references), candidate length, mean reference length).

References
----------
Turian, Shen and Melamed (2003), Evaluation of machine translation and its evaluation (MT
Summit IX); Melamed, Green and Turian (2003), Precision and recall of machine translation;
gtm 1.4 (New York University) ``Bitext.java``, ``Score.java``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numba as nb
import numpy as np


@nb.njit(cache=True, nogil=True)
def _taken_runs(h, refs_ids, refs_off, rows, n_present, taken):
    """Lengths of the blocks gtm 1.4 takes for candidate ``h`` against the given references.

    ``rows`` lists the reference rows (of refs_ids/refs_off) in order. Returns the number of
    blocks written to ``taken``.
    """
    n_h = len(h)
    total = 0
    for k in range(n_present):
        q = rows[k]
        total += refs_off[q + 1] - refs_off[q]
    width = total + n_present  # one break column after each reference
    if n_h == 0 or total == 0:
        return 0
    mean_len = total / n_present
    budget = min(float(n_h), mean_len)
    # run[i, c] = length of the diagonal stretch of hits starting at (i, c)
    run = np.zeros((n_h + 1, width + 1), dtype=np.int32)
    col0 = 0
    longest = 0
    n_hits = 0
    for k in range(n_present):
        q = rows[k]
        r0 = refs_off[q]
        n_r = refs_off[q + 1] - r0
        for i in range(n_h - 1, -1, -1):
            x = h[i]
            for j in range(n_r - 1, -1, -1):
                if refs_ids[r0 + j] == x:
                    v = run[i + 1, col0 + j + 1] + 1
                    run[i, col0 + j] = v
                    n_hits += 1
                    if v > longest:
                        longest = v
        col0 += n_r + 1
    # the hits in gtm's tie order: later candidate position, then later column
    hit_i = np.empty(n_hits, dtype=np.int32)
    hit_c = np.empty(n_hits, dtype=np.int32)
    q = 0
    for i in range(n_h - 1, -1, -1):
        for c in range(width - 1, -1, -1):
            if run[i, c] > 0:
                hit_i[q] = i
                hit_c[q] = c
                q += 1
    row_used = np.zeros(n_h, dtype=np.bool_)
    col_used = np.zeros(width, dtype=np.bool_)
    n_taken = 0
    for length in range(longest, 0, -1):
        for t in range(n_hits):
            i = hit_i[t]
            c = hit_c[t]
            if run[i, c] < length:
                continue
            size = min(float(length), budget)
            cells = math.ceil(size)
            free = True
            for d in range(cells):
                if row_used[i + d] or col_used[c + d]:
                    free = False
                    break
            if not free:
                continue
            for d in range(cells):
                row_used[i + d] = True
                col_used[c + d] = True
            taken[n_taken] = size
            n_taken += 1
            budget -= size
            if budget <= 0:
                return n_taken
    return n_taken


@nb.njit(cache=True, parallel=True, nogil=True)
def _gtm_kernel(hyp_ids, hyp_off, seg, ref_ids, ref_off, ref_mask, exponents):
    n_refs, n_seg = ref_mask.shape
    P = len(hyp_off) - 1
    n_e = len(exponents)
    out = np.zeros((P, n_e))
    for p in nb.prange(P):
        h = hyp_ids[hyp_off[p] : hyp_off[p + 1]]
        rows = np.empty(n_refs, dtype=np.int64)
        n_present = 0
        for k in range(n_refs):
            if ref_mask[k, seg[p]]:
                rows[n_present] = k * n_seg + seg[p]
                n_present += 1
        taken = np.empty(len(h) + 1, dtype=np.float64)
        n_taken = _taken_runs(h, ref_ids, ref_off, rows, n_present, taken)
        for e in range(n_e):
            acc = 0.0
            for t in range(n_taken):
                acc += taken[t] ** exponents[e]
            out[p, e] = acc ** (1.0 / exponents[e])
    return out


def gtm_mms(pairs, exponents: Sequence[float]) -> np.ndarray:
    """gtm 1.4's maximum match size of each candidate, ``(P, len(exponents))``.

    Examples
    --------
    >>> from mtpalette.metrics.base import Pairs
    >>> from mtpalette.text.ragged import Ragged
    >>> pairs = Pairs(Ragged.from_rows([[1, 2, 3, 4, 5]]), np.array([0]),
    ...               Ragged.from_rows([[1, 2, 9, 3, 4, 5]]), np.ones((1, 1), bool))
    >>> gtm_mms(pairs, [1.0, 2.0]).round(4).tolist()  # runs of 2 and 3: 5 and sqrt(13)
    [[5.0, 3.6056]]
    """
    return _gtm_kernel(*pairs.arrays(), np.asarray(exponents, dtype=np.float64))


# ------------------------------------------------------------------ slow reference twin
def gtm_mms_slow(hyp: Sequence, refs: Sequence[Sequence], exponent: float) -> float:
    """The same number by gtm 1.4's own recipe: list every block, sort, take greedily.

    Examples
    --------
    >>> gtm_mms_slow("abcde", ["abxcde"], 2.0) == 13 ** 0.5
    True
    """
    brk = object()  # equal to no word
    ref = [w for r in refs for w in (*r, brk)]
    n_h, width = len(hyp), len(ref)
    if not refs or n_h == 0:
        return 0.0
    budget = min(float(n_h), sum(len(r) for r in refs) / len(refs))

    def hit(i: int, c: int) -> bool:
        return i < n_h and c < width and hyp[i] == ref[c]

    blocks = []
    for i in range(n_h):
        for c in range(width):
            length = 0
            while hit(i + length, c + length):
                length += 1
                blocks.append((length, i * width + c, i, c))
    blocks.sort(key=lambda b: (-b[0], -b[1]))
    rows, cols, total = set(), set(), 0.0
    for length, _, i, c in blocks:
        if budget <= 0:
            break
        size = min(float(length), budget)
        cells = range(math.ceil(size))
        if any(i + d in rows or c + d in cols for d in cells):
            continue
        rows.update(i + d for d in cells)
        cols.update(c + d for d in cells)
        budget -= size
        total += size**exponent
    return total ** (1 / exponent)
