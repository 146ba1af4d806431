"""Slow twin of :mod:`mtpalette.kernels.skipbigram`: skip-bigrams counted one by one."""

from __future__ import annotations

from collections import Counter


def skip_matches_slow(hyp, ref, max_gap: int | None) -> int:
    """Clipped skip-bigram matches with gap <= ``max_gap`` (None: no limit), by counting.

    Examples
    --------
    >>> skip_matches_slow("police killed the gunman".split(), "the gunman police killed".split(),
    ...                   None)
    2
    """

    def grams(s):
        return Counter(
            (s[i], s[j])
            for i in range(len(s))
            for j in range(i + 1, len(s))
            if max_gap is None or j - i - 1 <= max_gap
        )

    h, r = grams(list(hyp)), grams(list(ref))
    return sum(min(c, r[g]) for g, c in h.items())
