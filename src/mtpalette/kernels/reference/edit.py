"""Slow twins of :mod:`mtpalette.kernels.edit` (and of the Levenshtein programme of
:mod:`mtpalette.kernels.subsequence`): the full-table edit distance and two Counters.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence


def levenshtein_slow(a: Sequence, b: Sequence) -> int:
    """The textbook full-table Levenshtein distance.

    Examples
    --------
    >>> levenshtein_slow("kitten", "sitting")
    3
    """
    d = [[i + j if i == 0 or j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            substitute = d[i - 1][j - 1] + (a[i - 1] != b[j - 1])
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, substitute)
    return d[len(a)][len(b)]


def bag_matches_slow(a: Sequence, b: Sequence) -> int:
    """``sum_w min(count_a(w), count_b(w))`` with two Counters.

    Examples
    --------
    >>> bag_matches_slow("abca", "aab")
    3
    """
    return sum((Counter(a) & Counter(b)).values())
