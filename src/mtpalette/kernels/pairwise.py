"""Pairwise n-gram statistics within segments, each text's n-grams counted once (Rust core).

For every segment, every candidate against every reference of that segment and every order
n: ``[candidate n-grams, reference n-grams, matches]``, matches being the sum over n-grams of
min(count in candidate, count in reference). The compiled kernel numbers each segment's
n-grams once and gives every text a bit set of its n-gram occurrences (the k-th occurrence
of an n-gram is one bit), so that a pair's matches are the bits the two sets share (see
``rust/src/pairwise.rs``). Counting with Counters, as sacrebleu does, is the slow twin.
:func:`aggregate_ngram_stats` is the same kernel's entry for reference aggregation (each
candidate against weighted sums of the references' counts, :mod:`mtpalette.metrics.mbr_aggregate`).
Both count each distinct text of a segment once.

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


def aggregate_ngram_stats(
    hyp,
    hyp_seg: np.ndarray,
    ref,
    ref_seg: np.ndarray,
    weight: np.ndarray,
    group: np.ndarray,
    count: np.ndarray,
    max_n: int,
) -> list[np.ndarray]:
    """Reference aggregation: one ``(N_s, G_s, max_n, 3)`` float64 array per segment ``s``.

    Reference row ``j`` has weight ``weight[j]`` in group ``group[j]`` of its segment (-1: in
    none); segment ``s`` has ``count[s]`` groups. For every candidate ``i``, group ``G`` and
    order: ``[candidate n-grams, sum_j w_j (reference j's n-grams), matches]``, the matches
    being the sum over the candidate's n-grams g of ``min(c_i(g), sum_{j in G} w_j c_j(g))``
    (Vamvas and Sennrich 2024: the candidate against the weighted mean of the references'
    n-gram counts). A group of one reference of weight 1 gives :func:`pairwise_ngram_stats`'s
    numbers exactly.

    Examples
    --------
    >>> from mtpalette.text.ragged import Ragged
    >>> hyp = Ragged.from_rows([[1, 2, 1]])
    >>> ref = Ragged.from_rows([[1, 2], [1, 1, 1]])
    >>> out = aggregate_ngram_stats(
    ...     hyp, np.array([0, 1]), ref, np.array([0, 2]),
    ...     np.array([0.5, 0.5]), np.array([0, 0]), np.array([1]), 1)
    >>> out[0].tolist()  # 1: min(2, (1 + 3) / 2), 2: min(1, 1 / 2)
    [[[[3.0, 2.5, 2.5]]]]
    """
    if max_n < 1:
        raise ValueError("max_n must be at least 1")
    hyp_seg = np.ascontiguousarray(hyp_seg, dtype=np.int64)
    ref_seg = np.ascontiguousarray(ref_seg, dtype=np.int64)
    count = np.ascontiguousarray(count, dtype=np.int64)
    flat, offsets = _core.aggregate_ngram_stats(
        hyp.ids,
        hyp.offsets,
        hyp_seg,
        ref.ids,
        ref.offsets,
        ref_seg,
        np.ascontiguousarray(weight, dtype=np.float64),
        np.ascontiguousarray(group, dtype=np.int64),
        count,
        int(max_n),
    )
    n = np.diff(hyp_seg)
    return [
        flat[offsets[s] : offsets[s + 1]].reshape(int(n[s]), int(count[s]), max_n, 3)
        for s in range(len(n))
    ]


def aggregate_ngram_stats_slow(
    hyps: Sequence[Sequence],
    refs: Sequence[Sequence],
    weight: Sequence[float],
    group: Sequence[int],
    n_groups: int,
    max_n: int,
) -> np.ndarray:
    """Plain-Python twin of :func:`aggregate_ngram_stats` for one segment, with Counters as
    mbrs's ``expected_scores_reference_aggregation`` counts: ``(len(hyps), n_groups, max_n,
    3)``.

    Examples
    --------
    >>> aggregate_ngram_stats_slow(["aba"], ["ab", "aaa"], [0.5, 0.5], [0, 0], 1, 1).tolist()
    [[[[3.0, 2.5, 2.5]]]]
    """

    def counts(tokens, n):
        tokens = list(tokens)
        return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))

    out = np.zeros((len(hyps), n_groups, max_n, 3))
    for n in range(1, max_n + 1):
        agg = [Counter() for _ in range(n_groups)]
        total = [0.0] * n_groups
        for r, w, g in zip(refs, weight, group, strict=True):
            if g < 0:
                continue
            c = counts(r, n)
            for gram, k in c.items():
                agg[g][gram] += w * k
            total[g] += w * sum(c.values())
        for i, h in enumerate(hyps):
            a = counts(h, n)
            for g in range(n_groups):
                matches = sum(min(k, agg[g][gram]) for gram, k in a.items() if gram in agg[g])
                out[i, g, n - 1] = sum(a.values()), total[g], matches
    return out
