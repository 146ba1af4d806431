"""Exact n-gram ids: every distinct n-gram of a corpus gets one int id, order by order.

The id of an n-gram of order k is found from the exact pair (id of its (k-1)-gram prefix,
last token): in the Rust core (:func:`intern_ngrams`) by a hash map, ids in order of first
occurrence (a hash only places a key, so no collisions); in the numpy twin
(:func:`intern_ngrams_slow`) as the rank of the pair among all pairs, one sort per order
(ten times slower on a million sentences). The two number the n-grams differently and
partition them identically; NIST does not depend on the numbering.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mtpalette import _core
from mtpalette.text.ragged import Ragged


@dataclass(frozen=True)
class NgramIds:
    """n-gram ids of one order, aligned with the token positions of a :class:`Ragged`.

    Attributes
    ----------
    order:
        The n-gram order k.
    ids:
        int64 array, one entry per token position: the id of the n-gram starting there, or -1
        where it would run past the end of its sentence.
    prefix:
        For each n-gram id, the id of its (k-1)-gram prefix (order k-1); -1 for order 1.
    """

    order: int
    ids: np.ndarray
    prefix: np.ndarray

    @property
    def n_ids(self) -> int:
        return len(self.prefix)


def intern_ngrams(corpus: Ragged, max_n: int) -> list[NgramIds]:
    """Ids of every n-gram of order 1..max_n in ``corpus`` (first-occurrence order).

    Examples
    --------
    >>> r = Ragged.from_rows([[5, 6, 5, 6], [6, 5]])
    >>> grams = intern_ngrams(r, 2)
    >>> grams[1].ids.tolist()  # (5,6) (6,5) (5,6) -  (6,5) -
    [0, 1, 0, -1, 1, -1]
    >>> grams[1].prefix.tolist()  # both bigram prefixes are unigram ids (tokens)
    [5, 6]
    """
    ids, prefixes = _core.intern_ngrams(corpus.ids, corpus.offsets, int(max_n))
    return [NgramIds(k + 1, ids[k], prefixes[k]) for k in range(max_n)]


def intern_ngrams_slow(corpus: Ragged, max_n: int) -> list[NgramIds]:
    """The numpy twin of :func:`intern_ngrams`: ids in sorted order of (prefix, token).

    Examples
    --------
    >>> r = Ragged.from_rows([[6, 5, 5, 6], [6, 5]])
    >>> intern_ngrams_slow(r, 2)[1].ids.tolist()  # (5,5) (5,6) (6,5) sorted: 0, 1, 2
    [2, 0, 1, -1, 2, -1]
    """
    tokens = corpus.ids.astype(np.int64)
    n_tok = len(tokens)
    sentence = np.repeat(np.arange(len(corpus)), corpus.lengths())
    end = corpus.offsets[1:][sentence] if n_tok else np.zeros(0, np.int64)
    position = np.arange(n_tok)
    vocab = int(tokens.max()) + 1 if n_tok else 1
    out = [NgramIds(1, tokens.copy(), np.full(vocab, -1, dtype=np.int64))]
    for k in range(2, max_n + 1):
        prev = out[-1].ids
        valid = position + k <= end
        where = np.nonzero(valid)[0]
        keys = prev[where] * vocab + tokens[where + k - 1]
        uniq, inverse = np.unique(keys, return_inverse=True)
        ids = np.full(n_tok, -1, dtype=np.int64)
        ids[where] = inverse
        out.append(NgramIds(k, ids, uniq // vocab))
    return out
