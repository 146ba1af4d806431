"""Translation edit rate with shifts, decided as sacrebleu's ``lib_ter`` (a port of Tercom).

Per candidate and reference the edits are the number of shifts plus the final edit distance:

1. The edit distance is computed within a beam of 25 cells on each side of the length-scaled
   diagonal (wider when the reference is over 50 times longer), choosing among equal costs a
   match or substitution first, then a deletion of a candidate word, then an insertion; its
   trace gives an alignment of the two sides and which words are in error.
2. A shift candidate moves a block of at most 10 candidate words that equals a block of the
   reference starting at most 50 positions away, both blocks holding an error and the
   reference block's first word not aligned inside the candidate block, to just after the
   candidate word aligned with the reference word before the reference block or with one of
   its words (or to the front).
3. The candidate with the largest drop in edit distance wins (ties: the longer block, then
   the earlier block, then the earlier target); shifting stops when no candidate lowers the
   distance, or, as in sacrebleu, once 1,000 candidates have been tried in all (the shift
   found in that round is then not applied).

Speed: a shifted candidate agrees with the unshifted words up to the first moved position, so
the rows of the distance table before that position are taken from the table of the unshifted
words (computed once per round) and only the rest is recomputed, two rows at a time and
without the trace (sacrebleu gets the same effect from its prefix cache). Pairs run in
parallel.

References
----------
Snover, Dorr, Schwartz, Micciulla and Makhoul (2006), A study of translation edit rate with
targeted human annotation; Tercom (Snover); sacrebleu ``metrics/lib_ter.py`` (Post, 2018).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numba as nb
import numpy as np

MAX_SHIFT_SIZE = 10
MAX_SHIFT_DIST = 50
BEAM_WIDTH = 25
MAX_SHIFT_CANDIDATES = 1000
_INF = 10**16
_NOP, _SUB, _INS, _DEL = 0, 1, 2, 3  # ops on the table's (candidate row, reference column)


@nb.njit(cache=True, nogil=True)
def _beam(n_h, n_r):
    ratio = n_r / n_h if n_h > 0 else 1.0
    beam = BEAM_WIDTH
    if BEAM_WIDTH < ratio / 2:
        beam = math.ceil(ratio / 2 + BEAM_WIDTH)
    return ratio, beam


@nb.njit(cache=True, nogil=True)
def _fill_row(i, x, r, prev, cur, ops, track, ratio, beam, n_h):
    """Row ``i`` (candidate word ``x``) of the beam table from row ``i - 1``.

    ``cur`` must hold _INF; with ``track`` the chosen operations go to ``ops``.
    """
    n_r = len(r)
    diag = math.floor(i * ratio)
    lo = max(0, diag - beam)
    hi = n_r + 1 if i == n_h else min(n_r + 1, diag + beam)
    for j in range(lo, hi):
        if j == 0:
            cur[0] = prev[0] + 1
            if track:
                ops[0] = _DEL
            continue
        if x == r[j - 1]:
            c, o = prev[j - 1], _NOP
        else:
            c, o = prev[j - 1] + 1, _SUB
        if cur[j] > c:
            cur[j] = c
            if track:
                ops[j] = o
        c = prev[j] + 1
        if cur[j] > c:
            cur[j] = c
            if track:
                ops[j] = _DEL
        c = cur[j - 1] + 1
        if cur[j] > c:
            cur[j] = c
            if track:
                ops[j] = _INS


@nb.njit(cache=True, nogil=True)
def _table(h, r):
    """The full beam table of costs and its trace (operations rewriting r into h)."""
    n_h, n_r = len(h), len(r)
    ratio, beam = _beam(n_h, n_r)
    cost = np.full((n_h + 1, n_r + 1), _INF, dtype=np.int64)
    ops = np.full((n_h + 1, n_r + 1), -1, dtype=np.int8)
    for j in range(n_r + 1):
        cost[0, j] = j
        ops[0, j] = _INS
    for i in range(1, n_h + 1):
        _fill_row(i, h[i - 1], r, cost[i - 1], cost[i], ops[i], True, ratio, beam, n_h)
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
    return cost, trace[t:]


@nb.njit(cache=True, nogil=True)
def _cost_row(i, x, r, prev, cur, ratio, beam, n_h):
    """Costs only of row ``i``: the values of :func:`_fill_row`, without its bookkeeping.

    Cells outside the beam are set to _INF, as are computed values above it.
    """
    n_r = len(r)
    diag = math.floor(i * ratio)
    lo = max(0, diag - beam)
    hi = n_r + 1 if i == n_h else min(n_r + 1, diag + beam)
    for j in range(lo):
        cur[j] = _INF
    for j in range(hi, n_r + 1):
        cur[j] = _INF
    if lo == 0:
        cur[0] = min(prev[0] + 1, _INF)
        lo = 1
    for j in range(lo, hi):
        v = prev[j - 1] if x == r[j - 1] else prev[j - 1] + 1
        up = prev[j] + 1
        if up < v:
            v = up
        left = cur[j - 1] + 1
        if left < v:
            v = left
        cur[j] = v if v < _INF else _INF


@nb.njit(cache=True, nogil=True)
def _cost_from(words, r, cost, first, prev, cur):
    """Edit distance of ``words``, equal to the table's words before position ``first``."""
    n_h, n_r = len(words), len(r)
    if first >= n_h:
        return cost[n_h, n_r]
    ratio, beam = _beam(n_h, n_r)
    prev[:] = cost[first]
    for i in range(first + 1, n_h + 1):
        _cost_row(i, words[i - 1], r, prev, cur, ratio, beam, n_h)
        prev, cur = cur, prev
    return prev[n_r]


@nb.njit(cache=True, nogil=True)
def _insert_at(n, start, length, target):
    """Where the block lands among the other ``n - length`` words, as Tercom's shift does.

    ``target`` counts the unshifted words: before the block it is kept, after the block it
    loses the block's length; a target inside the block (or just behind it) counts the words
    that follow the block, up to their end.
    """
    if target <= start + length:
        return min(target, n - length)
    return target - length


@nb.njit(cache=True, nogil=True)
def _shifted(words, start, length, target, out):
    """``words`` with the block words[start:start + length] moved to ``target``."""
    n = len(words)
    at = _insert_at(n, start, length, target)
    q = 0
    for x in range(n):  # the other words, with the block inserted before the at-th of them
        if start <= x < start + length:
            continue
        if q == at:
            for y in range(start, start + length):
                out[q] = words[y]
                q += 1
        out[q] = words[x]
        q += 1
    if q == at:
        for y in range(start, start + length):
            out[q] = words[y]
            q += 1


@nb.njit(cache=True, nogil=True)
def _any(flags, a, b):
    for x in range(a, b):
        if flags[x]:
            return True
    return False


@nb.njit(cache=True, nogil=True)
def _best_shift(h, r, checked, best_words, trial, prev, cur):
    """One round of the shift search.

    Returns (distance before, gain, candidates checked so far); the winning words are left in
    ``best_words`` when the gain is positive.
    """
    cost, trace = _table(h, r)
    n_h, n_r = len(h), len(r)
    before = cost[n_h, n_r]
    # alignment from the trace read the other way round (insertions become deletions)
    align = np.empty(n_r, dtype=np.int64)
    hyp_err = np.zeros(n_h, dtype=np.bool_)
    ref_err = np.zeros(n_r, dtype=np.bool_)
    ph = -1
    pr = -1
    for op in trace:
        if op == _NOP or op == _SUB:
            ph += 1
            pr += 1
            align[pr] = ph
            if op == _SUB:
                hyp_err[ph] = True
                ref_err[pr] = True
        elif op == _DEL:  # a candidate word the reference lacks
            ph += 1
            hyp_err[ph] = True
        else:  # a reference word the candidate lacks
            pr += 1
            align[pr] = ph
            ref_err[pr] = True
    found = False
    best_gain, best_len, best_start, best_target = 0, 0, 0, 0
    for start_h in range(n_h):
        for start_r in range(
            max(0, start_h - MAX_SHIFT_DIST), min(n_r, start_h + MAX_SHIFT_DIST + 1)
        ):
            length = 0
            while (
                length < MAX_SHIFT_SIZE
                and start_h + length < n_h
                and start_r + length < n_r
                and h[start_h + length] == r[start_r + length]
            ):
                length += 1
                if not _any(hyp_err, start_h, start_h + length):
                    continue
                if not _any(ref_err, start_r, start_r + length):
                    continue
                if start_h <= align[start_r] < start_h + length:
                    continue
                last_target = -1
                for offset in range(-1, length):
                    target = 0 if start_r + offset == -1 else align[start_r + offset] + 1
                    if target == last_target:
                        continue
                    last_target = target
                    _shifted(h, start_h, length, target, trial)
                    first = min(start_h, target)  # the first moved position
                    gain = before - _cost_from(trial, r, cost, first, prev, cur)
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
                            better = target < best_target
                    if better:
                        found = True
                        best_gain, best_len, best_start, best_target = gain, length, start_h, target
                        best_words[:] = trial
                if checked >= MAX_SHIFT_CANDIDATES:
                    return before, best_gain, checked
    return before, best_gain, checked


@nb.njit(cache=True, nogil=True)
def ter_edits(h, r):
    """Edits (shifts + edit distance) turning candidate ids ``h`` into reference ids ``r``.

    Examples
    --------
    >>> ter_edits(np.array([2, 3, 1]), np.array([1, 2, 3]))  # one shift of word 1
    1
    """
    if len(r) == 0:
        return len(h)
    words = h.copy()
    best_words = np.empty_like(h)
    trial = np.empty_like(h)
    prev = np.empty(len(r) + 1, dtype=np.int64)
    cur = np.empty(len(r) + 1, dtype=np.int64)
    shifts = 0
    checked = 0
    while True:
        before, gain, checked = _best_shift(words, r, checked, best_words, trial, prev, cur)
        if checked >= MAX_SHIFT_CANDIDATES or gain <= 0:
            return shifts + before
        shifts += 1
        words, best_words = best_words, words


@nb.njit(cache=True, parallel=True, nogil=True)
def _per_ref(hyp_ids, hyp_off, seg, ref_ids, ref_off, ref_mask):
    n_refs, n_seg = ref_mask.shape
    P = len(hyp_off) - 1
    out = np.full((P, n_refs), np.nan)
    for p in nb.prange(P):
        h = hyp_ids[hyp_off[p] : hyp_off[p + 1]]
        for k in range(n_refs):
            if ref_mask[k, seg[p]]:
                q = k * n_seg + seg[p]
                out[p, k] = ter_edits(h, ref_ids[ref_off[q] : ref_off[q + 1]])
    return out


def ter_per_ref(pairs) -> np.ndarray:
    """TER edits of every candidate against every reference, ``(P, R)``, NaN where missing.

    Examples
    --------
    >>> from mtpalette.metrics.base import Pairs
    >>> from mtpalette.text.ragged import Ragged
    >>> pairs = Pairs(Ragged.from_rows([[2, 3, 1]]), np.array([0]),
    ...               Ragged.from_rows([[1, 2, 3], [2, 3]]), np.ones((2, 1), bool))
    >>> ter_per_ref(pairs).tolist()
    [[1.0, 1.0]]
    """
    return _per_ref(*pairs.arrays())


# ------------------------------------------------------------------ slow reference twin
def _table_slow(h: Sequence, r: Sequence) -> tuple[int, list[str]]:
    """Beam edit distance and trace with full Python tables ('n', 's', 'i', 'd')."""
    n_h, n_r = len(h), len(r)
    ratio = n_r / n_h if n_h else 1.0
    beam = math.ceil(ratio / 2 + BEAM_WIDTH) if BEAM_WIDTH < ratio / 2 else BEAM_WIDTH
    cost = [[_INF] * (n_r + 1) for _ in range(n_h + 1)]
    op = [["?"] * (n_r + 1) for _ in range(n_h + 1)]
    cost[0] = list(range(n_r + 1))
    op[0] = ["i"] * (n_r + 1)
    for i in range(1, n_h + 1):
        diag = math.floor(i * ratio)
        hi = n_r + 1 if i == n_h else min(n_r + 1, diag + beam)
        for j in range(max(0, diag - beam), hi):
            if j == 0:
                cost[i][0], op[i][0] = cost[i - 1][0] + 1, "d"
                continue
            options = [
                (cost[i - 1][j - 1] + (h[i - 1] != r[j - 1]), "n" if h[i - 1] == r[j - 1] else "s"),
                (cost[i - 1][j] + 1, "d"),
                (cost[i][j - 1] + 1, "i"),
            ]
            for c, o in options:  # the first of equal costs wins
                if c < cost[i][j]:
                    cost[i][j], op[i][j] = c, o
    trace = []
    i, j = n_h, n_r
    while i > 0 or j > 0:
        trace.append(op[i][j])
        i, j = {"n": (i - 1, j - 1), "s": (i - 1, j - 1), "i": (i, j - 1), "d": (i - 1, j)}[
            op[i][j]
        ]
    return cost[n_h][n_r], trace[::-1]


def ter_edits_slow(h: Sequence, r: Sequence) -> int:
    """The same edits as :func:`ter_edits`, recomputing every table in plain Python.

    Examples
    --------
    >>> ter_edits_slow("bca", "abc")
    1
    """
    if not r:
        return len(h)
    words, shifts, checked = list(h), 0, 0
    while True:
        before, trace = _table_slow(words, r)
        align, hyp_err, ref_err = [], [], []  # align: candidate position of each ref word
        for o in trace:
            if o in "ns":
                hyp_err.append(o == "s")
                ref_err.append(o == "s")
                align.append(len(hyp_err) - 1)
            elif o == "d":  # a candidate word the reference lacks
                hyp_err.append(True)
            else:  # a reference word the candidate lacks
                ref_err.append(True)
                align.append(len(hyp_err) - 1)
        candidates = []
        for sh in range(len(words)):
            for sr in range(len(r)):
                if abs(sr - sh) > MAX_SHIFT_DIST:
                    continue
                length = 0
                while (
                    length < MAX_SHIFT_SIZE
                    and sh + length < len(words)
                    and sr + length < len(r)
                    and words[sh + length] == r[sr + length]
                ):
                    length += 1
                    if not (any(hyp_err[sh : sh + length]) and any(ref_err[sr : sr + length])):
                        continue
                    if sh <= align[sr] < sh + length:
                        continue
                    targets = [0 if sr + o == -1 else align[sr + o] + 1 for o in range(-1, length)]
                    for k, target in enumerate(targets):
                        if k and target == targets[k - 1]:
                            continue
                        block = words[sh : sh + length]
                        rest = words[:sh] + words[sh + length :]
                        at = _insert_at(len(words), sh, length, target)
                        trial = rest[:at] + block + rest[at:]
                        gain = before - _table_slow(trial, r)[0]
                        candidates.append(((gain, length, -sh, -target), trial))
                    if len(candidates) + checked >= MAX_SHIFT_CANDIDATES:
                        return shifts + before
        checked += len(candidates)
        if not candidates:
            return shifts + before
        key, trial = max(candidates, key=lambda c: c[0])  # the first of equal keys
        if key[0] <= 0:
            return shifts + before
        words, shifts = trial, shifts + 1
