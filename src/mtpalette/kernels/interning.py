"""Exact n-gram ids: every distinct n-gram of a corpus gets one int id, order by order.

The id of an n-gram of order k is the rank of the pair (id of its (k-1)-gram prefix, last
token) among all such pairs in the corpus, found with :func:`numpy.unique`. No hashing, so no
collisions; the cost is one sort per order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

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
    """Ids of every n-gram of order 1..max_n in ``corpus``.

    Examples
    --------
    >>> r = Ragged.from_rows([[5, 6, 5, 6], [6, 5]])
    >>> grams = intern_ngrams(r, 2)
    >>> grams[1].ids.tolist()  # (5,6) (6,5) (5,6) -  (6,5) -
    [0, 1, 0, -1, 1, -1]
    >>> grams[1].prefix.tolist()  # both bigram prefixes are unigram ids (tokens)
    [5, 6]
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
