"""Exact n-gram ids: every distinct n-gram of a corpus gets one int id, order by order.

The id of an n-gram of order k is found from the exact pair (id of its (k-1)-gram prefix,
last token): in the Rust core (:func:`intern_ngrams`) by a hash map, ids in order of first
occurrence (a hash only places a key, so no collisions); in the numpy twin
(:func:`~mtpalette.kernels.reference.interning.intern_ngrams_slow`) as the rank of the pair
among all pairs, one sort per order (ten times slower on a million sentences). The two
number the n-grams differently and partition them identically; NIST does not depend on the
numbering.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mtpalette import _core


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


def intern_ngrams(corpus, max_n: int) -> list[NgramIds]:
    """Ids of every n-gram of order 1..max_n in ``corpus`` (first-occurrence order).

    ``corpus`` is a ragged array of token ids: anything with ``ids`` and ``offsets`` (row
    ``i`` is ``ids[offsets[i]:offsets[i + 1]]``), such as :class:`mtpalette.text.ragged.Ragged`.

    Examples
    --------
    >>> from mtpalette.text.ragged import Ragged
    >>> grams = intern_ngrams(Ragged.from_rows([[5, 6, 5, 6], [6, 5]]), 2)
    >>> grams[1].ids.tolist()  # (5,6) (6,5) (5,6) -  (6,5) -
    [0, 1, 0, -1, 1, -1]
    >>> grams[1].prefix.tolist()  # both bigram prefixes are unigram ids (tokens)
    [5, 6]
    """
    if max_n < 1:
        raise ValueError("max_n must be at least 1")
    grams, prefixes = _core.intern_ngrams(
        np.ascontiguousarray(corpus.ids, dtype=np.int32),
        np.ascontiguousarray(corpus.offsets, dtype=np.int64),
        int(max_n),
    )
    return [NgramIds(k + 1, grams[k], prefixes[k]) for k in range(max_n)]
