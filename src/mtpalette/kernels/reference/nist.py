"""Slow twins of :mod:`mtpalette.kernels.nist`: NIST's matches and information weights
with Counters, as NLTK computes them.
"""

from __future__ import annotations

import math
from collections import Counter


def nist_order_slow(hyp, refs, order, info):
    """Plain-Python twin for one candidate: ``(numerator, ref_len, denominator)`` of the best
    reference, with ``info`` a dict from n-gram tuple to information weight.

    Examples
    --------
    >>> info = information_weights_slow([["a", "b", "c"]], 2)
    >>> num, ref_len, den = nist_order_slow(["a", "b"], [["a", "b", "c"]], 1, info)
    >>> round(num, 6), ref_len, den  # two unigrams of weight log2(3 / 1)
    (3.169925, 3, 2)
    """

    def grams(toks):
        return Counter(tuple(toks[i : i + order]) for i in range(len(toks) - order + 1))

    h = grams(hyp)
    den = sum(h.values())
    best = None
    for ref in refs:
        overlap = h & grams(ref)
        num = sum(info[g] * c for g, c in overlap.items())
        cand = (num / den if den else 0.0, num, den, len(ref))
        best = cand if best is None or cand > best else best
    return best[1], best[3], den


def information_weights_slow(refs_corpus, max_n):
    """Information weight of every reference n-gram: log2(count(prefix) / count(n-gram)),
    with the total number of reference words as the prefix count of unigrams.

    Examples
    --------
    >>> w = information_weights_slow([["a", "b", "a"]], 2)
    >>> w[("a",)], w[("a", "b")]  # log2(3 / 2); log2(count("a") / count("a b")) = log2(2)
    (0.5849625007211562, 1.0)
    """
    freq = Counter()
    words = 0
    for ref in refs_corpus:
        words += len(ref)
        for k in range(1, max_n + 1):
            freq.update(tuple(ref[i : i + k]) for i in range(len(ref) - k + 1))
    return {g: math.log((freq[g[:-1]] if len(g) > 1 else words) / c, 2) for g, c in freq.items()}


def corpus_information_slow(counts, numer) -> list[float]:
    """Information weight per n-gram id, ``math.log(numer / count) / math.log(2)`` one by one
    (0 where the count is 0): the twin of :func:`mtpalette.kernels.nist.corpus_information`.

    Examples
    --------
    >>> corpus_information_slow([2, 0, 1], [4.0, 4.0, 2.0])
    [1.0, 0.0, 1.0]
    """
    ln2 = math.log(2.0)
    return [math.log(x / c) / ln2 if c > 0 else 0.0 for c, x in zip(counts, numer, strict=True)]
