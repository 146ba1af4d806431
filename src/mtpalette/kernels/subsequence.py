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
