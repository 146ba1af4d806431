"""Slow twin of :func:`mtpalette.kernels.scores.closest_ref_lengths` (the twins of the score
rows are the metrics' own definitions; see :mod:`mtpalette.kernels.reference`)."""

from __future__ import annotations

from collections.abc import Sequence


def closest_ref_length_slow(hyp_len: int, ref_lens: Sequence[int]) -> int:
    """The reference length closest to ``hyp_len``, the shorter on ties; 0 without one.

    Examples
    --------
    >>> closest_ref_length_slow(3, [4, 2, 5])
    2
    """
    return min(ref_lens, key=lambda r: (abs(hyp_len - r), r), default=0)
