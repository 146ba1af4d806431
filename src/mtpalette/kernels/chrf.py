"""chrF's n-gram statistics against each reference separately, exactly (no hashing of text).

For every candidate, reference and order ``n``: ``[candidate n-grams, reference n-grams,
matches]``, where matches are ``sum over n-grams g of min(count in candidate, count in
reference)``. As sacrebleu, the candidate count of an order is 0 when the reference has no
n-gram of that order. The same kernel serves characters (chrF) and words (chrF++): it only
sees int32 ids.

Method: the n-grams are numbered inside each candidate, order by order. Order-1 ids are the
candidate's distinct tokens, ``1..A`` (an array indexed by global token id maps them; 0 is
"not in the candidate"); the id of an order-k n-gram is looked up by the exact integer key
``(id of its (k-1)-gram prefix) * (A + 1) + (id of its last token)``, below
``(|hyp| + 1) * (A + 1)``: in a table indexed directly by the key when that is small (the usual
case), else in an open-addressing table of the candidate's keys compared exactly. A reference
n-gram gets the id of the equal candidate n-gram, or 0 when there is none (with the direct
table, keys with a 0 part are never set, so the lookup needs no branch). The candidate's
n-grams are counted in an array indexed by id; each reference n-gram then takes one of the
candidate's remaining copies, which sums ``min(count in candidate, count in reference)``. No
hashing of text, so no collisions; no allocation per pair (scratch arrays per block of pairs).
Cost per pair: O(max_n * (|hyp| + sum |ref|)) array operations, independent of how often a
character repeats (unlike a scan of equal-token cells, costly on the ~30-letter alphabet of
characters). The Rust module ``local_ngrams.rs`` does the numbering for this kernel and for
BLEU's clipped counts (:mod:`mtpalette.kernels.ngram`).

References
----------
Popović (2015), chrF: character n-gram F-score for automatic MT evaluation; Popović (2017),
chrF++. sacrebleu ``metrics/chrf.py`` (``CHRF._get_match_statistics``, Post, 2018) counts the
same with Counters; the slow twin (:mod:`mtpalette.kernels.reference.chrf`) does it that way.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mtpalette import _core

#: the largest table of n-gram keys indexed directly (larger candidates use a hash table)
DIRECT_MAX = 1 << 18


def chrf_ngram_stats(pairs, max_n: int, *, direct_max: int = DIRECT_MAX) -> np.ndarray:
    """``[candidate n-grams, reference n-grams, matches]`` per pair, reference and order.

    Parameters
    ----------
    pairs:
        Encoded candidates and references (:class:`~mtpalette.metrics.base.Pairs`); the ids
        may be characters or words.
    max_n:
        The highest n-gram order.
    direct_max:
        The largest key table indexed directly; candidates needing more use a hash table
        (the result is the same; tests lower it to exercise that path).

    Returns
    -------
    numpy.ndarray
        int64 array ``(P, R, max_n, 3)``; ``out[p, k, n - 1]`` holds the statistics of order
        ``n`` of candidate ``p`` against its ``k``-th reference (zeros where that reference
        is missing). The candidate count is 0 where the reference has no n-gram of the order.

    Examples
    --------
    >>> from mtpalette.metrics.base import Pairs
    >>> pairs = Pairs.of_segment([1, 2, 1], [[1, 2], [1]])
    >>> chrf_ngram_stats(pairs, 2).tolist()  # ref 2 has no bigram: candidate bigrams count 0
    [[[[3, 2, 2], [2, 1, 1]], [[3, 1, 1], [0, 0, 0]]]]
    """
    if max_n < 1:
        raise ValueError("max_n must be at least 1")
    return _core.chrf_stats(pairs.arrays(), int(max_n), int(direct_max))


def chrf_text_stats(
    hyps: Sequence[str],
    seg: np.ndarray,
    refs: Sequence[Sequence[str | None]],
    flags: np.ndarray,
    chars: int,
    words: int,
    *,
    keep_space: bool = False,
    parallel: bool = False,
    direct_max: int = DIRECT_MAX,
) -> np.ndarray:
    """:func:`chrf_ngram_stats` of characters (orders ``1..chars``) then chrF++'s words
    (orders ``1..words``) straight from text, in one compiled call: each distinct string
    (one Python string passed several times is one) is read once; characters leave
    whitespace out (the SPACE class of ``flags``, ``str.isspace``) unless ``keep_space``;
    words are those of :func:`mtpalette.metrics.chrf.chrf_words`. Candidate ``p`` is of
    segment ``seg[p]``; ``refs[k][s]`` is the ``k``-th reference of segment ``s`` or None.

    Returns int64 ``(P, R, chars + words, 3)``. A string with a lone surrogate (not UTF-8)
    raises UnicodeEncodeError.

    Examples
    --------
    >>> from mtpalette.text.bulk import char_flags
    >>> out = chrf_text_stats(["ab c."], np.array([0]), [["ab c"]], char_flags(False), 2, 1)
    >>> out[0, 0].tolist()  # chars a b c . / a b c; bigrams ab bc c. / ab bc; words ab c .
    [[4, 3, 3], [3, 2, 2], [3, 2, 2]]
    """
    seg = np.ascontiguousarray(seg, dtype=np.int64)
    return _core.chrf_text_stats(
        hyps, seg, refs, flags, int(chars), int(words), bool(keep_space), int(direct_max),
        bool(parallel),
    )  # fmt: skip
