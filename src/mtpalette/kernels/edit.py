"""Word edit distance and bag-of-words matches of every candidate against each reference.

* :func:`edit_distances` - the Levenshtein distance over words (unit cost substitutions,
  insertions, deletions) with the bit-parallel algorithm of Myers (1999) in Hyyrö's (2001)
  form: the shorter side, when it has at most 64 words, becomes the "pattern", one bit per
  word, and each word of the other side costs a handful of 64-bit operations instead of a row of
  the table. Pairs where both sides exceed 64 words fall back to the one-row table.
* :func:`bag_matches` - ``sum over words of min(count in candidate, count in reference)``,
  PER's matches, by counting the reference's words in a table indexed by word id.

Both return ``(P, R)`` float arrays, NaN where a reference is missing. The work is split into
chunks of candidates run in parallel; each chunk owns one word-indexed scratch table (the size
of the vocabulary), cleared word by word after each pair.

Measured here against rapidfuzz (``process.cpdist`` with ``Levenshtein.distance`` on token
ids mapped to characters, all cores) on 54,000 WMT21 pairs x references: 9.1M distances/s
against rapidfuzz's 1.2M/s counting the conversion of id arrays to strings that rapidfuzz
needs (``bench/bench_edit.py`` repeats the comparison), so WER uses this kernel.

References
----------
Levenshtein (1966); Myers (1999), A fast bit-vector algorithm for approximate string matching
based on dynamic programming; Hyyrö (2001), Explaining and extending the bit-parallel
approximate string matching algorithm of Myers. Tillmann et al. (1997) and Popović and Ney
(2007) for PER's bag-of-words count.
"""

from __future__ import annotations

import numpy as np

from mtpalette import _core


def edit_distances(pairs) -> np.ndarray:
    """Word-level Levenshtein distance of each candidate to each reference, ``(P, R)``.

    Examples
    --------
    >>> from mtpalette.metrics.base import Pairs
    >>> pairs = Pairs.of_segment([1, 2, 3], [[1, 3], [3, 2, 1]])
    >>> edit_distances(pairs).tolist()
    [[1.0, 2.0]]
    """
    return _core.edit_per_ref(pairs.arrays(), False)


def bag_matches(pairs) -> np.ndarray:
    """Bag-of-words matches of each candidate with each reference, ``(P, R)``.

    Examples
    --------
    >>> from mtpalette.metrics.base import Pairs
    >>> pairs = Pairs.of_segment([1, 1, 2], [[2, 1, 3]])
    >>> bag_matches(pairs).tolist()
    [[2.0]]
    """
    return _core.edit_per_ref(pairs.arrays(), True)
