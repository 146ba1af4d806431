"""Pairwise n-gram statistics within segments, each text's n-grams counted once (Rust core).

For every segment, every candidate against every reference of that segment and every order
n: ``[candidate n-grams, reference n-grams, matches]``, matches being the sum over n-grams of
min(count in candidate, count in reference). The compiled kernel numbers each segment's
n-grams once and gives every text a bit set of its n-gram occurrences (the k-th occurrence
of an n-gram is one bit), so that a pair's matches are the bits the two sets share (see
``rust/src/pairwise.rs``). Counting with Counters, as sacrebleu does, is the slow twin.

References
----------
Popović (2015), chrF; sacrebleu ``metrics/chrf.py`` (``CHRF._get_match_statistics``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from mtpalette import _core


def pairwise_ngram_stats(
    hyp, hyp_seg: np.ndarray, ref, ref_seg: np.ndarray, max_n: int
) -> list[np.ndarray]:
    """One ``(N_s, M_s, max_n, 3)`` float64 array per segment ``s``.

    ``hyp`` and ``ref`` are ragged rows of token ids (:class:`mtpalette.text.ragged.Ragged`:
    ``ids`` and ``offsets``); ``hyp_seg`` and ``ref_seg`` are the offsets of each segment's
    rows in them (length S + 1, starting at 0).

    Examples
    --------
    >>> from mtpalette.text.ragged import Ragged
    >>> hyp = Ragged.from_rows([[1, 2, 1], [2]])
    >>> ref = Ragged.from_rows([[1, 2]])
    >>> out = pairwise_ngram_stats(hyp, np.array([0, 2]), ref, np.array([0, 1]), 2)
    >>> out[0][:, 0].tolist()  # [hyp n-grams, ref n-grams, matches] per order
    [[[3.0, 2.0, 2.0], [2.0, 1.0, 1.0]], [[1.0, 2.0, 1.0], [0.0, 1.0, 0.0]]]
    """
    if max_n < 1:
        raise ValueError("max_n must be at least 1")
    hyp_seg = np.ascontiguousarray(hyp_seg, dtype=np.int64)
    ref_seg = np.ascontiguousarray(ref_seg, dtype=np.int64)
    flat, offsets = _core.pairwise_ngram_stats(
        hyp.ids, hyp.offsets, hyp_seg, ref.ids, ref.offsets, ref_seg, int(max_n)
    )
    n = np.diff(hyp_seg)
    m = np.diff(ref_seg)
    return [
        flat[offsets[s] : offsets[s + 1]].reshape(int(n[s]), int(m[s]), max_n, 3)
        for s in range(len(n))
    ]


def pairwise_ngram_stats_slow(
    hyps: Sequence[Sequence], refs: Sequence[Sequence], max_n: int
) -> np.ndarray:
    """Plain-Python twin for one segment: ``(len(hyps), len(refs), max_n, 3)``, counted with
    Counters as sacrebleu does.

    Examples
    --------
    >>> pairwise_ngram_stats_slow(["aba"], ["ab"], 2).tolist()
    [[[[3.0, 2.0, 2.0], [2.0, 1.0, 1.0]]]]
    """

    def counts(tokens, n):
        tokens = list(tokens)
        return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))

    out = np.zeros((len(hyps), len(refs), max_n, 3))
    for i, h in enumerate(hyps):
        for j, r in enumerate(refs):
            for n in range(1, max_n + 1):
                a, b = counts(h, n), counts(r, n)
                matches = sum(min(c, b[g]) for g, c in a.items())
                out[i, j, n - 1] = sum(a.values()), sum(b.values()), matches
    return out
