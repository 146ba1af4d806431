"""Slow twin of :mod:`mtpalette.kernels.gtm`: gtm 1.4's recipe, every block listed."""

from __future__ import annotations

import math
from collections.abc import Sequence


def gtm_mms_slow(hyp: Sequence, refs: Sequence[Sequence], exponent: float) -> float:
    """The same number by gtm 1.4's own recipe: list every block, sort, take greedily.

    Examples
    --------
    >>> gtm_mms_slow("abcde", ["abxcde"], 2.0) == 13 ** 0.5
    True
    """
    brk = object()  # equal to no word
    ref = [w for r in refs for w in (*r, brk)]
    n_h, width = len(hyp), len(ref)
    if not refs or n_h == 0:
        return 0.0
    budget = min(float(n_h), sum(len(r) for r in refs) / len(refs))

    def hit(i: int, c: int) -> bool:
        return i < n_h and c < width and hyp[i] == ref[c]

    blocks = []
    for i in range(n_h):
        for c in range(width):
            length = 0
            while hit(i + length, c + length):
                length += 1
                blocks.append((length, i * width + c, i, c))
    blocks.sort(key=lambda b: (-b[0], -b[1]))
    rows, cols, total = set(), set(), 0.0
    for length, _, i, c in blocks:
        if budget <= 0:
            break
        size = min(float(length), budget)
        cells = range(math.ceil(size))
        if any(i + d in rows or c + d in cols for d in cells):
            continue
        rows.update(i + d for d in cells)
        cols.update(c + d for d in cells)
        budget -= size
        total += size**exponent
    return total ** (1 / exponent)
