"""Slow twin of :mod:`mtpalette.kernels.interning`: n-gram ids by sorting, in numpy."""

from __future__ import annotations

import numpy as np

from mtpalette.kernels.interning import NgramIds


def intern_ngrams_slow(corpus, max_n: int) -> list[NgramIds]:
    """The numpy twin of :func:`~mtpalette.kernels.interning.intern_ngrams`: ids in sorted
    order of (prefix, token), one sort per order.

    Examples
    --------
    >>> from mtpalette.text.ragged import Ragged
    >>> grams = intern_ngrams_slow(Ragged.from_rows([[6, 5, 5, 6], [6, 5]]), 2)
    >>> grams[1].ids.tolist()  # (5,5) (5,6) (6,5) sorted: 0, 1, 2
    [2, 0, 1, -1, 2, -1]
    """
    tokens = np.asarray(corpus.ids).astype(np.int64)
    offsets = np.asarray(corpus.offsets, dtype=np.int64)
    n_tok = len(tokens)
    sentence = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    end = offsets[1:][sentence] if n_tok else np.zeros(0, np.int64)
    position = np.arange(n_tok)
    vocab = int(tokens.max()) + 1 if n_tok else 1
    out = [NgramIds(1, tokens.copy(), np.full(vocab, -1, dtype=np.int64))]
    for k in range(2, max_n + 1):
        prev = out[-1].ids
        valid = position + k <= end
        where = np.nonzero(valid)[0]
        keys = prev[where] * vocab + tokens[where + k - 1]
        uniq, inverse = np.unique(keys, return_inverse=True)
        grams = np.full(n_tok, -1, dtype=np.int64)
        grams[where] = inverse
        out.append(NgramIds(k, grams, uniq // vocab))
    return out
