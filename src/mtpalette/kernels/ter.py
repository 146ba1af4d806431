"""Translation edit rate with shifts, as sacrebleu's ``lib_ter`` (a port of Tercom) decides it.

Per candidate and reference: greedy shifts of word blocks, each chosen as the one that lowers
the edit distance most (ties: longer block, earlier start, earlier target), at most 1,000
candidate shifts in all, blocks of at most 10 words moved at most 50 positions; the edit
distance is computed within a beam of 25 cells around the length-scaled diagonal, with
Tercom's operation order. The result is the number of shifts plus the final edit distance.
sacrebleu caches rows of the edit-distance table; the cache changes no result and is not
needed here.

References
----------
Snover et al. (2006), A study of translation edit rate with targeted human annotation.
sacrebleu ``metrics/lib_ter.py`` (Post, 2018), Tercom (Snover).
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

MAX_SHIFT_SIZE = 10
MAX_SHIFT_DIST = 50
BEAM_WIDTH = 25
MAX_SHIFT_CANDIDATES = 1000
_INF = 10**16
_NOP, _SUB, _INS, _DEL, _UNDEF = 0, 1, 2, 3, 4


@nb.njit(cache=True, nogil=True)
def _edit_distance(h, r):
    """Beam edit distance and its trace (ops on rewriting r into h, as Tercom's table)."""
    n_h = len(h)
    n_r = len(r)
    cost = np.full((n_h + 1, n_r + 1), _INF, dtype=np.int64)
    ops = np.full((n_h + 1, n_r + 1), _UNDEF, dtype=np.int8)
    for j in range(n_r + 1):
        cost[0, j] = j
        ops[0, j] = _INS
    ratio = n_r / n_h if n_h > 0 else 1.0
    beam = BEAM_WIDTH
    if BEAM_WIDTH < ratio / 2:
        beam = math.ceil(ratio / 2 + BEAM_WIDTH)
    for i in range(1, n_h + 1):
        diag = math.floor(i * ratio)
        lo = max(0, diag - beam)
        hi = min(n_r + 1, diag + beam)
        if i == n_h:
            hi = n_r + 1
        for j in range(lo, hi):
            if j == 0:
                cost[i, 0] = cost[i - 1, 0] + 1
                ops[i, 0] = _DEL
                continue
            if h[i - 1] == r[j - 1]:
                c, o = cost[i - 1, j - 1], _NOP
            else:
                c, o = cost[i - 1, j - 1] + 1, _SUB
            if cost[i, j] > c:
                cost[i, j] = c
                ops[i, j] = o
            c = cost[i - 1, j] + 1
            if cost[i, j] > c:
                cost[i, j] = c
                ops[i, j] = _DEL
            c = cost[i, j - 1] + 1
            if cost[i, j] > c:
                cost[i, j] = c
                ops[i, j] = _INS
    trace = np.empty(n_h + n_r, dtype=np.int8)
    t = n_h + n_r
    i, j = n_h, n_r
    while i > 0 or j > 0:
        op = ops[i, j]
        t -= 1
        trace[t] = op
        if op == _NOP or op == _SUB:
            i -= 1
            j -= 1
        elif op == _INS:
            j -= 1
        else:
            i -= 1
    return cost[n_h, n_r], trace[t:]


@nb.njit(cache=True, nogil=True)
def _perform_shift(words, start, length, target):
    out = np.empty_like(words)
    n = len(words)
    q = 0
    if target < start:
        order = [(0, target), (start, start + length), (target, start), (start + length, n)]
    elif target > start + length:
        order = [(0, start), (start + length, target), (start, start + length), (target, n)]
    else:
        order = [
            (0, start),
            (start + length, length + target),
            (start, start + length),
            (length + target, n),
        ]
    for a, b in order:
        for x in range(a, b):
            out[q] = words[x]
            q += 1
    return out


@nb.njit(cache=True, nogil=True)
def _best_shift(h, r, checked):
    """One round of Tercom's shift search: (gain, shifted words, candidates checked)."""
    pre, inv_trace = _edit_distance(h, r)
    n_h = len(h)
    n_r = len(r)
    # alignment from the flipped trace: insertions and deletions swap roles
    align = np.full(n_r, -2, dtype=np.int64)
    hyp_err = np.zeros(n_h, dtype=np.int64)
    ref_err = np.zeros(n_r, dtype=np.int64)
    ph = -1
    pr = -1
    for op in inv_trace:
        if op == _NOP or op == _SUB:
            ph += 1
            pr += 1
            align[pr] = ph
            if op == _SUB:
                hyp_err[ph] = 1
                ref_err[pr] = 1
        elif op == _DEL:  # flipped: an insertion, one more hypothesis word
            ph += 1
            hyp_err[ph] = 1
        else:  # flipped: a deletion, one more reference word
            pr += 1
            align[pr] = ph
            ref_err[pr] = 1
    found = False
    best_gain, best_len, best_start, best_idx = 0, 0, 0, 0
    best_words = h
    for start_h in range(n_h):
        for start_r in range(n_r):
            if abs(start_r - start_h) > MAX_SHIFT_DIST:
                continue
            length = 0
            while h[start_h + length] == r[start_r + length] and length < MAX_SHIFT_SIZE:
                length += 1
                ok = False
                for x in range(start_h, start_h + length):
                    if hyp_err[x]:
                        ok = True
                if ok:
                    ok = False
                    for x in range(start_r, start_r + length):
                        if ref_err[x]:
                            ok = True
                if ok and not (start_h <= align[start_r] < start_h + length):
                    prev_idx = -1
                    for offset in range(-1, length):
                        if start_r + offset == -1:
                            idx = 0
                        else:
                            idx = align[start_r + offset] + 1
                        if idx == prev_idx:
                            continue
                        prev_idx = idx
                        shifted = _perform_shift(h, start_h, length, idx)
                        gain = pre - _edit_distance(shifted, r)[0]
                        checked += 1
                        better = not found
                        if not better:
                            if gain != best_gain:
                                better = gain > best_gain
                            elif length != best_len:
                                better = length > best_len
                            elif start_h != best_start:
                                better = start_h < best_start
                            else:
                                better = idx < best_idx
                        if better:
                            found = True
                            best_gain, best_len, best_start, best_idx = gain, length, start_h, idx
                            best_words = shifted
                if n_h == start_h + length or n_r == start_r + length:
                    break
            if checked >= MAX_SHIFT_CANDIDATES:
                break
        if checked >= MAX_SHIFT_CANDIDATES:
            break
    if not found:
        return 0, h, checked
    return best_gain, best_words, checked


@nb.njit(cache=True, nogil=True)
def ter_edits(h, r):
    """Number of edits (shifts + edit distance) turning candidate ``h`` into reference ``r``."""
    if len(r) == 0:
        return len(h)
    shifts = 0
    checked = 0
    words = h
    while True:
        gain, shifted, checked = _best_shift(words, r, checked)
        if checked >= MAX_SHIFT_CANDIDATES or gain <= 0:
            break
        shifts += 1
        words = shifted
    return shifts + _edit_distance(words, r)[0]


@nb.njit(cache=True, parallel=True, nogil=True)
def ter_per_ref(hyp_ids, hyp_off, seg, ref_ids, ref_off, ref_mask):
    """TER edits of every candidate against every reference, ``(P, R)``, NaN where missing."""
    n_refs, n_seg = ref_mask.shape
    P = len(hyp_off) - 1
    out = np.full((P, n_refs), np.nan)
    for p in nb.prange(P):
        h = hyp_ids[hyp_off[p] : hyp_off[p + 1]]
        for k in range(n_refs):
            if ref_mask[k, seg[p]]:
                row = k * n_seg + seg[p]
                out[p, k] = ter_edits(h, ref_ids[ref_off[row] : ref_off[row + 1]])
    return out
