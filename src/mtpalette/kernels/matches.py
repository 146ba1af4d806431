"""compare-mt's counts in the Rust core: clipped matches by system and id, NLTK's sentence BLEU.

:func:`clipped_matches` counts, for every system and every token or n-gram id, how often the
system's sentences match it in the reference sentence (``min`` of the two counts per sentence,
summed over the corpus), all systems in one compiled pass over the stacked rows.
:func:`nltk_sentence_bleu` is NLTK's ``sentence_bleu`` with ``SmoothingFunction().method2``
(compare-mt 0.2.10's ``sentbleu``) from statistics rows, in NLTK's own arithmetic: the system's
``log`` and ``exp`` (those Python's ``math`` calls) and the exactly rounded sum of
``math.fsum``, so the scores are equal bit for bit (the tests compare them with the Python
definition, :func:`mtpalette.kernels.reference.matches.nltk_sentence_bleu_slow`).

References
----------
Neubig et al. (2019), compare-mt (``compare_ngrams``, ``word_accuracy``, ``sentbleu``); NLTK
``nltk/translate/bleu_score.py``; Shewchuk (1997), exactly rounded floating-point sums.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mtpalette import _core


def clipped_matches(
    ids: np.ndarray, offsets: np.ndarray, n_rows: int, n_ids: Sequence[int]
) -> np.ndarray:
    """``(systems, sum(n_ids))`` int64: per system and id, ``min(count in the system's
    sentence, count in the reference sentence)`` summed over the sentences, for every layer
    of ``ids`` in one pass.

    ``ids`` is ``(layers, T)`` (or one layer, 1-d), each layer aligned with the rows
    ``ids[k, offsets[i]:offsets[i + 1]]``: parts of ``n_rows`` rows, the reference first, then
    each system. Layer ``k``'s ids are below ``n_ids[k]`` and its columns in the output come
    after those of the layers before it; a negative id (no n-gram starts there) is skipped.

    Examples
    --------
    >>> ids = np.array([1, 1, 2, 3, 1, 2, 2, 3, 3])  # ref [1 1 2] [3]; system [1 2 2] [3 3]
    >>> clipped_matches(ids, np.array([0, 3, 4, 7, 9]), 2, [4]).tolist()
    [[0, 1, 1, 1]]
    """
    ids = np.ascontiguousarray(np.atleast_2d(ids), dtype=np.int64)
    offsets = np.ascontiguousarray(offsets, dtype=np.int64)
    if n_rows < 1:
        raise ValueError("n_rows: 1 or more")
    return _core.clipped_matches(ids, offsets, int(n_rows), [int(n) for n in n_ids])


def nltk_sentence_bleu(stats: np.ndarray, n: int = 4) -> np.ndarray:
    """NLTK's method2 sentence BLEU, 0-100, of rows ``[hyp_len, ref_len, correct_1..n,
    total_1..n]``.

    Examples
    --------
    >>> row = np.array([[4, 5, 3, 1, 4, 3]], dtype=float)  # 3/4 unigrams, 1/3 bigrams
    >>> round(float(nltk_sentence_bleu(row, 2)[0]), 6)  # 100 * exp(1 - 5/4) * sqrt(3/4 * 2/4)
    47.691613
    """
    stats = np.ascontiguousarray(np.atleast_2d(stats), dtype=np.float64)
    if stats.ndim != 2:
        raise ValueError("stats: a 2-d array of rows expected")
    return _core.nltk_sentence_bleu(stats, int(n))
