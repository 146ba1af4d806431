"""Slow twin of :mod:`mtpalette.kernels.ngram`: clipped n-gram matches with Counters."""

from __future__ import annotations

from collections import Counter

import numpy as np


def ngram_counts_slow(tokens, max_n: int) -> Counter:
    """Counter of every n-gram (as a tuple) of order 1..max_n."""
    tokens = list(tokens)
    return Counter(
        tuple(tokens[i : i + n]) for n in range(1, max_n + 1) for i in range(len(tokens) - n + 1)
    )


def ngram_matches_slow(hyp, refs, max_n: int, *, per_ref: bool = False) -> np.ndarray:
    """Plain-Python twin of :func:`ngram_matches` for one candidate and its references.

    Examples
    --------
    >>> ngram_matches_slow([1, 2, 1], [[1, 2], [1, 1]], 2).tolist()
    [[3, 1]]
    """
    hyp_counts = ngram_counts_slow(hyp, max_n)
    ref_counts = [ngram_counts_slow(r, max_n) for r in refs]
    if per_ref:
        out = np.zeros((len(refs), max_n), dtype=np.int64)
        for k, rc in enumerate(ref_counts):
            for g, c in hyp_counts.items():
                out[k, len(g) - 1] += min(c, rc.get(g, 0))
        return out
    out = np.zeros((1, max_n), dtype=np.int64)
    for g, c in hyp_counts.items():
        out[0, len(g) - 1] += min(c, max((rc.get(g, 0) for rc in ref_counts), default=0))
    return out
