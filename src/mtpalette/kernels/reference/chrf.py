"""Slow twin of :mod:`mtpalette.kernels.chrf`: chrF's n-gram statistics with Counters."""

from __future__ import annotations

from collections import Counter

import numpy as np


def chrf_ngram_stats_slow(hyp, refs, max_n: int) -> np.ndarray:
    """Plain-Python twin of :func:`chrf_ngram_stats` for one candidate: ``(len(refs), max_n,
    3)``, counted with Counters as sacrebleu does.

    Examples
    --------
    >>> chrf_ngram_stats_slow("aba", ["ab", "a"], 2).tolist()
    [[[3, 2, 2], [2, 1, 1]], [[3, 1, 1], [0, 0, 0]]]
    """

    def counts(tokens, n):
        tokens = list(tokens)
        return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))

    out = np.zeros((len(refs), max_n, 3), dtype=np.int64)
    for k, ref in enumerate(refs):
        for n in range(1, max_n + 1):
            h, r = counts(hyp, n), counts(ref, n)
            matches = sum(min(c, r[g]) for g, c in h.items() if g in r)
            out[k, n - 1] = [sum(h.values()) if r else 0, sum(r.values()), matches]
    return out
