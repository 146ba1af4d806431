"""Per-reference dynamic programmes over int ids: Levenshtein distance, LCS, weighted LCS.

Each kernel returns one value per (candidate, reference) pair, ``(P, R)``, with NaN where the
reference is missing; metrics then apply their multi-reference policy. The tables are one
row long, so memory does not grow with sentence length squared.

References
----------
Levenshtein (1966); Lin and Och (2004), ORANGE, section 3.2 (the WLCS recurrence).
"""

from __future__ import annotations

import numpy as np

from mtpalette import _core


def _run(kind: str, pairs, alphas=None) -> np.ndarray:
    alphas = np.zeros(1) if alphas is None else np.asarray(alphas, dtype=np.float64)
    return _core.dp_per_ref(kind, pairs.arrays(), np.ascontiguousarray(alphas))


def levenshtein_per_ref(pairs) -> np.ndarray:
    """Word-level Levenshtein distance of each candidate to each reference, ``(P, R)``."""
    return _run("levenshtein", pairs)[:, :, 0]


def lcs_per_ref(pairs) -> np.ndarray:
    """Length of the longest common subsequence with each reference, ``(P, R)``."""
    return _run("lcs", pairs)[:, :, 0]


def wlcs_per_ref(pairs, alphas) -> np.ndarray:
    """Weighted LCS with f(k) = k ** a for each a in ``alphas``, ``(P, R, len(alphas))``."""
    return _run("wlcs", pairs, alphas)


def wlcs_increments_per_ref(pairs, increments) -> np.ndarray:
    """Weighted LCS with any weight function, given by its increments, ``(P, R)``.

    ``increments[k]`` is f(k + 1) - f(k), the credit of the (k + 1)-th consecutive match (the
    last value is used for longer runs); f(k) = a k - b (ROUGE-W's linear form) is
    ``[a - b, a]``. The same compiled recurrence as :func:`wlcs_per_ref`, on this table.

    Examples
    --------
    >>> from mtpalette.metrics.scoring import TextPairs
    >>> from mtpalette.text.encode import TextView
    >>> pairs = TextPairs.parallel(["A B C D H I K"], [["A B C D E F G"]]).encoded(
    ...     TextView("none"))
    >>> wlcs_increments_per_ref(pairs, [1.0, 2.0]).tolist()  # f(k) = 2k - 1, one run of 4
    [[7.0]]
    """
    inc = np.asarray(increments, dtype=np.float64)
    if inc.ndim != 1 or not len(inc):
        raise ValueError("increments: a non-empty 1-d array")
    return _run("wlcs-table", pairs, inc)[:, :, 0]


def wlcs_rouge155_per_ref(pairs, alphas) -> np.ndarray:
    """ROUGE-1.5.5's ROUGE-W hit for each a in ``alphas``, ``(P, R, len(alphas))``."""
    return _run("wlcs-rouge155", pairs, alphas)


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
