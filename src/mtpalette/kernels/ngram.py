"""Clipped n-gram matches between candidates and their references, exactly (no hashing).

The clipped count of an n-gram is ``min(count in candidate, count in the reference)``; with
several references BLEU clips by the largest reference count (Papineni et al., 2002). The
candidate's n-grams are numbered order by order as in :mod:`mtpalette.kernels.chrf` (exact
integer keys, no hashing of text) and counted in an array indexed by id; each reference's
n-grams are counted in the same numbering. Three clippings come from these counts in one pass
per candidate:

* ``best`` (BLEU): by the largest count over the references;
* ``per-ref`` (ROUGE-N): by each reference alone;
* ``leave-out`` (ORANGE's leave-one-out): for each reference ``k``, by the largest count over
  every reference but ``k``, from the largest and second largest count of each n-gram.

Cost per pair: O(|hyp| * max_n + sum |ref| * max_n), arrays indexed by id the only lookups.
An order with no match ends the pass (an n-gram in common has its prefix in common).

References
----------
Papineni et al. (2002), BLEU: clipped n-gram precision. sacrebleu's
``BLEU._compute_segment_statistics`` (Post, 2018) counts the same with Counters; the slow
twin (:mod:`mtpalette.kernels.reference.ngram`) does it that way.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mtpalette import _core


def ngram_matches(
    pairs, max_n: int, *, per_ref: bool = False, leave_out: bool = False
) -> np.ndarray:
    """Clipped n-gram match counts, an int64 array ``(P, 1 or R, max_n)``.

    ``out[p, 0, n - 1]`` is BLEU's clipped count of order ``n`` for candidate ``p`` (clipped by
    the maximum count over its references); with ``per_ref=True``, ``out[p, k, n - 1]`` is the
    clipped count against reference ``k`` alone (zero where that reference is missing); with
    ``leave_out=True``, clipped by the maximum over every reference but ``k`` (one pass for
    ORANGE's leave-one-out).

    Examples
    --------
    >>> from mtpalette.metrics.base import Pairs
    >>> pairs = Pairs.of_segment([1, 2, 1], [[1, 2], [1, 1]])
    >>> ngram_matches(pairs, 2).tolist()  # unigrams: 1 twice (clipped by [1, 1]), 2 once
    [[[3, 1]]]
    >>> ngram_matches(pairs, 2, leave_out=True).tolist()  # by [1, 1] alone; by [1, 2] alone
    [[[2, 0], [2, 1]]]
    """
    if per_ref and leave_out:
        raise ValueError("per_ref or leave_out, not both")
    clipping = "per-ref" if per_ref else "leave-out" if leave_out else "best"
    return _core.ngram_matches(pairs.arrays(), int(max_n), clipping)


def ngram_totals(lengths: np.ndarray, max_n: int) -> np.ndarray:
    """Number of n-grams of each order 1..max_n in sentences of the given lengths.

    Examples
    --------
    >>> ngram_totals(np.array([3, 0]), 4).tolist()
    [[3, 2, 1, 0], [0, 0, 0, 0]]
    """
    orders = np.arange(max_n)
    return np.maximum(lengths[:, None] - orders[None, :], 0).astype(np.int64)


def bleu_text_stats(
    hyps: Sequence[str],
    seg: np.ndarray,
    refs: Sequence[Sequence[str | None]],
    mode: int,
    flags: np.ndarray,
    max_n: int,
    parallel: bool,
) -> np.ndarray:
    """BLEU's statistics ``[hyp_len, ref_len, correct_1..max_n, total_1..max_n]`` per
    candidate straight from text, in one compiled call: each distinct string (one Python
    string passed several times is one) is tokenized once by the kernel of
    :mod:`mtpalette.text.bulk` (``mode`` and ``flags`` as there), and the counts are those of
    :func:`ngram_matches` and :func:`~mtpalette.kernels.scores.closest_ref_lengths` on the
    tokens. Candidate ``p`` is of segment ``seg[p]``; ``refs[k][s]`` is the ``k``-th reference
    of segment ``s`` or None.

    A string with a lone surrogate (not UTF-8) raises UnicodeEncodeError.

    Examples
    --------
    >>> from mtpalette.text.bulk import MODES, char_flags
    >>> stats = bleu_text_stats(["a b a"], np.array([0]), [["a b"], ["a a"]], MODES["none"],
    ...                         char_flags(False), 2, False)
    >>> stats.tolist()  # unigrams: a twice (clipped by "a a"), b once; the bigram a b
    [[3.0, 2.0, 3.0, 1.0, 3.0, 2.0]]
    """
    seg = np.ascontiguousarray(seg, dtype=np.int64)
    return _core.bleu_text_stats(hyps, seg, refs, int(mode), flags, int(max_n), bool(parallel))
