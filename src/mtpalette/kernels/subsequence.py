"""Per-reference dynamic programmes over int ids: Levenshtein distance, LCS, weighted LCS.

Each kernel returns one value per (candidate, reference) pair, ``(P, R)``, with NaN where the
reference is missing; metrics then apply their multi-reference policy. The tables are one
row long, so memory does not grow with sentence length squared.

References
----------
Levenshtein (1966); Lin and Och (2004), ORANGE, section 3.2 (the WLCS recurrence).
"""

from __future__ import annotations

import numba as nb
import numpy as np


@nb.njit(cache=True, nogil=True)
def _levenshtein(a, b, row):
    n = len(b)
    for j in range(n + 1):
        row[j] = j
    for i in range(1, len(a) + 1):
        diag = row[0]
        row[0] = i
        x = a[i - 1]
        for j in range(1, n + 1):
            up = row[j]
            best = diag if b[j - 1] == x else diag + 1
            if up + 1 < best:
                best = up + 1
            if row[j - 1] + 1 < best:
                best = row[j - 1] + 1
            row[j] = best
            diag = up
    return row[n]


@nb.njit(cache=True, nogil=True)
def _lcs(a, b, row):
    n = len(b)
    for j in range(n + 1):
        row[j] = 0
    for i in range(len(a)):
        diag = 0
        x = a[i]
        for j in range(1, n + 1):
            up = row[j]
            if b[j - 1] == x:
                row[j] = diag + 1
            elif row[j - 1] > up:
                row[j] = row[j - 1]
            diag = up
    return row[n]


@nb.njit(cache=True, nogil=True)
def _wlcs(a, b, alpha, c_row, w_row):
    """Weighted LCS of the paper with f(k) = k ** alpha (a is the reference X, b is Y)."""
    n = len(b)
    for j in range(n + 1):
        c_row[j] = 0.0
        w_row[j] = 0
    for i in range(len(a)):
        c_diag = 0.0
        w_diag = 0
        x = a[i]
        for j in range(1, n + 1):
            c_up = c_row[j]
            w_up = w_row[j]
            if b[j - 1] == x:
                k = w_diag
                c_row[j] = c_diag + (k + 1) ** alpha - k**alpha
                w_row[j] = k + 1
            elif c_up > c_row[j - 1]:
                c_row[j] = c_up
                w_row[j] = 0
            else:
                c_row[j] = c_row[j - 1]
                w_row[j] = 0
            c_diag = c_up
            w_diag = w_up
    return c_row[n]


@nb.njit(cache=True, nogil=True)
def _wlcs_rouge155(a, b, alpha):
    """ROUGE-1.5.5's ROUGE-W hit (a is the reference): the WLCS table with its tie rule
    ("up" when c[i-1][j] >= c[i][j-1]), one traceback from the corner marking the matched
    reference positions, and f summed over runs consecutive in the reference."""
    m = len(a)
    n = len(b)
    c = np.zeros((m + 1, n + 1))
    w = np.zeros((m + 1, n + 1), dtype=np.int64)
    move = np.zeros((m + 1, n + 1), dtype=np.int8)  # 1 diagonal, 2 up (i - 1), 3 left (j - 1)
    for i in range(1, m + 1):
        x = a[i - 1]
        for j in range(1, n + 1):
            if b[j - 1] == x:
                k = w[i - 1, j - 1]
                c[i, j] = c[i - 1, j - 1] + (k + 1) ** alpha - k**alpha
                w[i, j] = k + 1
                move[i, j] = 1
            elif c[i - 1, j] >= c[i, j - 1]:
                c[i, j] = c[i - 1, j]
                move[i, j] = 2
            else:
                c[i, j] = c[i, j - 1]
                move[i, j] = 3
    marked = np.zeros(m + 1, dtype=np.bool_)
    i = m
    j = n
    while i > 0 and j > 0:
        if move[i, j] == 1:
            marked[i] = True
            i -= 1
            j -= 1
        elif move[i, j] == 2:
            i -= 1
        else:
            j -= 1
    hit = 0.0
    run = 0
    for i in range(1, m + 2):
        if i <= m and marked[i]:
            run += 1
        elif run > 0:
            hit += run**alpha
            run = 0
    return hit


@nb.njit(cache=True, parallel=True, nogil=True)
def _per_ref(kind, hyp_ids, hyp_off, seg, ref_ids, ref_off, ref_mask, alphas):
    n_refs, n_seg = ref_mask.shape
    P = len(hyp_off) - 1
    n_out = len(alphas) if kind >= 2 else 1
    out = np.full((P, n_refs, n_out), np.nan)
    width = 1  # one table row, as long as the longest sentence of either side plus one
    for r in range(len(ref_off) - 1):
        width = max(width, ref_off[r + 1] - ref_off[r] + 1)
    for q in range(P):
        width = max(width, hyp_off[q + 1] - hyp_off[q] + 1)
    for p in nb.prange(P):
        row = np.empty(width, dtype=np.int64)
        c_row = np.empty(width, dtype=np.float64)
        hyp = hyp_ids[hyp_off[p] : hyp_off[p + 1]]
        s = seg[p]
        for k in range(n_refs):
            if not ref_mask[k, s]:
                continue
            r = k * n_seg + s
            ref = ref_ids[ref_off[r] : ref_off[r + 1]]
            if kind == 0:
                out[p, k, 0] = _levenshtein(hyp, ref, row)
            elif kind == 1:
                out[p, k, 0] = _lcs(ref, hyp, row)
            elif kind == 2:
                for q in range(len(alphas)):
                    out[p, k, q] = _wlcs(ref, hyp, alphas[q], c_row, row)
            else:
                for q in range(len(alphas)):
                    out[p, k, q] = _wlcs_rouge155(ref, hyp, alphas[q])
    return out


def _run(kind: int, pairs, alphas=None) -> np.ndarray:
    alphas = np.zeros(1) if alphas is None else np.asarray(alphas, dtype=np.float64)
    return _per_ref(
        kind,
        *pairs.arrays(),
        alphas,
    )


def levenshtein_per_ref(pairs) -> np.ndarray:
    """Word-level Levenshtein distance of each candidate to each reference, ``(P, R)``."""
    return _run(0, pairs)[:, :, 0]


def lcs_per_ref(pairs) -> np.ndarray:
    """Length of the longest common subsequence with each reference, ``(P, R)``."""
    return _run(1, pairs)[:, :, 0]


def wlcs_per_ref(pairs, alphas) -> np.ndarray:
    """Weighted LCS with f(k) = k ** a for each a in ``alphas``, ``(P, R, len(alphas))``."""
    return _run(2, pairs, alphas)


def wlcs_rouge155_per_ref(pairs, alphas) -> np.ndarray:
    """ROUGE-1.5.5's ROUGE-W hit for each a in ``alphas``, ``(P, R, len(alphas))``."""
    return _run(3, pairs, alphas)


# ------------------------------------------------------------------ slow reference twins
def levenshtein_slow(a, b) -> int:
    """Textbook full-table Levenshtein distance.

    Examples
    --------
    >>> levenshtein_slow([1, 2, 3], [1, 3])
    1
    """
    table = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            table[i][j] = min(
                table[i - 1][j] + 1,
                table[i][j - 1] + 1,
                table[i - 1][j - 1] + (a[i - 1] != b[j - 1]),
            )
    return table[len(a)][len(b)]


def wlcs_slow(x, y, f) -> float:
    """The paper's WLCS recurrence verbatim, with full c and w tables and weight function f.

    Examples
    --------
    >>> wlcs_slow("ABCDEFG", "ABCDHIK", lambda k: k**2)  # one run of 4: f(4)
    16
    """
    m, n = len(x), len(y)
    c = [[0] * (n + 1) for _ in range(m + 1)]
    w = [[0] * (n + 1) for _ in range(m + 1)]
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            if x[i - 1] == y[j - 1]:
                k = w[i - 1][j - 1]
                c[i][j] = c[i - 1][j - 1] + f(k + 1) - f(k)
                w[i][j] = k + 1
            elif c[i - 1][j] > c[i][j - 1]:
                c[i][j] = c[i - 1][j]
                w[i][j] = 0
            else:
                c[i][j] = c[i][j - 1]
                w[i][j] = 0
    return c[m][n]


def wlcs_rouge155_slow(x, y, f) -> float:
    """ROUGE-1.5.5's ROUGE-W hit, written from the script's rules (x is the reference).

    Examples
    --------
    >>> f = lambda k: k**2
    >>> wlcs_rouge155_slow("ABCDEFG", "AHBKCID", f)  # a, b, c, d consecutive in x: f(4)
    16
    >>> wlcs_rouge155_slow("AHBKCID", "ABCDEFG", f)  # the same matches, apart in x
    4
    """
    m, n = len(x), len(y)
    c = [[0] * (n + 1) for _ in range(m + 1)]
    w = [[0] * (n + 1) for _ in range(m + 1)]
    move = [[""] * (n + 1) for _ in range(m + 1)]
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            if x[i - 1] == y[j - 1]:
                k = w[i - 1][j - 1]
                c[i][j], w[i][j], move[i][j] = c[i - 1][j - 1] + f(k + 1) - f(k), k + 1, "diag"
            elif c[i - 1][j] >= c[i][j - 1]:
                c[i][j], move[i][j] = c[i - 1][j], "up"
            else:
                c[i][j], move[i][j] = c[i][j - 1], "left"
    marked = set()
    i, j = m, n
    while i > 0 and j > 0:
        if move[i][j] == "diag":
            marked.add(i)
            i, j = i - 1, j - 1
        elif move[i][j] == "up":
            i -= 1
        else:
            j -= 1
    hit, run = 0, 0
    for i in range(1, m + 2):
        if i in marked:
            run += 1
        elif run:
            hit, run = hit + f(run), 0
    return hit
