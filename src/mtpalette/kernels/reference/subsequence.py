"""Slow twins of :mod:`mtpalette.kernels.subsequence`: the WLCS recurrence with full tables
and ROUGE-1.5.5's ROUGE-W hit with its traceback (the Levenshtein programme's twin is
:func:`mtpalette.kernels.reference.edit.levenshtein_slow`).
"""

from __future__ import annotations


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
