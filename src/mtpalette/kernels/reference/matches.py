"""Slow twins of :mod:`mtpalette.kernels.matches`: compare-mt's clipped matches with a
``Counter`` per sentence, NLTK's method2 sentence BLEU with ``math`` line by line."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence


def clipped_matches_slow(
    ref: Sequence[Sequence[int]], systems: Sequence[Sequence[Sequence[int]]], n_ids: int
) -> list[list[int]]:
    """Per system and id, ``min(count in the system's sentence, count in the reference's)``
    summed over the sentences; negative ids are skipped.

    Examples
    --------
    >>> clipped_matches_slow([[1, 1, 2], [3]], [[[1, 2, 2], [3, 3]]], 4)
    [[0, 1, 1, 1]]
    """
    out = []
    for rows in systems:
        counts = [0] * n_ids
        for h, r in zip(rows, ref, strict=True):
            in_ref = Counter(x for x in r if x >= 0)
            for x, c in Counter(x for x in h if x >= 0).items():
                counts[x] += min(c, in_ref[x])
        out.append(counts)
    return out


def nltk_sentence_bleu_slow(row: Sequence[float], n: int = 4) -> float:
    """One row ``[hyp_len, ref_len, correct_1..n, total_1..n]`` as NLTK's ``sentence_bleu``
    with method2 computes it (compare-mt 0.2.10 times 100): ``math.log`` of each precision,
    ``math.fsum`` of the weighted logs, ``math.exp``.

    Examples
    --------
    >>> round(nltk_sentence_bleu_slow([4, 5, 3, 1, 4, 3], 2), 6)
    47.691613
    """
    hyp_len, ref_len = row[0], row[1]
    if row[2] == 0:
        return 0.0
    logs = []
    for i in range(n):
        correct, total = row[2 + i], max(row[2 + n + i], 1.0)
        if i > 0:
            correct, total = correct + 1.0, total + 1.0
        logs.append(math.log(correct / total) * (1.0 / n))
    if hyp_len > ref_len:
        bp = 1.0
    elif hyp_len == 0:
        bp = 0.0
    else:
        bp = math.exp(1.0 - ref_len / hyp_len)
    return 100.0 * (bp * math.exp(math.fsum(logs)))
