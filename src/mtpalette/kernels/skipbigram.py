"""Skip-bigram matches for every maximum skip distance at once (ROUGE-S0..9, S*, SU).

A skip-bigram is an ordered pair of words (x_i, x_j), i < j; its gap is j - i - 1, the number
of words in between. ROUGE-S-d keeps the pairs with gap <= d; ROUGE-S* keeps them all.
For each candidate and reference the kernel lists both sentences' pairs with their gaps
(bucketed 0..max_gap, then one bucket for larger gaps), sorts them, and for every distinct
pair and every d counts min(occurrences in the candidate, occurrences in the reference) among
the pairs with gap <= d - clipped counts as in ROUGE-1.5.5. One pass serves every d.

References
----------
Lin and Och (2004), ORANGE, section 3.3; Lin (2004), ROUGE, section 5.
"""

from __future__ import annotations

import numpy as np

from mtpalette import _core


def skip_matches_kernel(
    hyp_ids, hyp_off, seg, ref_ids, ref_off, ref_mask, vocab, n_buckets, *, any_gap=True
):
    """Clipped matches ``(P, R, n_buckets)``: column d counts pairs with gap <= d (the last
    column: any gap); NaN where the reference is missing. Each reference's pairs are listed
    and sorted once, however many candidates share it. Without ``any_gap`` only the pairs of
    the first ``n_buckets - 1`` gaps are listed (O(n d) work and memory instead of O(n^2)),
    and the last column is the one before it."""
    arrays = (hyp_ids, hyp_off, seg, ref_ids, ref_off, ref_mask)  # as Pairs.arrays() gives them
    return _core.skip_matches(arrays, int(vocab), int(n_buckets), bool(any_gap))


def skip_pair_totals(lengths: np.ndarray, n_buckets: int) -> np.ndarray:
    """Number of skip-bigrams with gap <= d in sentences of the given lengths, per bucket d
    (the last bucket: all C(n, 2)).

    Examples
    --------
    >>> skip_pair_totals(np.array([4]), 3).tolist()  # gap <= 0: 3, <= 1: 5, all: 6
    [[3.0, 5.0, 6.0]]
    """
    n = lengths.astype(np.float64)[:, None]
    d = np.arange(n_buckets, dtype=np.float64)[None, :]
    # sum over gaps g = 0..d of max(n - 1 - g, 0)
    g_max = np.minimum(d, np.maximum(n - 2, -1))
    count = (g_max + 1) * (n - 1) - g_max * (g_max + 1) / 2
    out = np.where(n >= 2, count, 0.0)
    out[:, -1] = np.where(lengths >= 2, n[:, 0] * (n[:, 0] - 1) / 2, 0.0)
    return out
