"""NIST (Doddington, 2002): information-weighted n-gram precision with NIST's length penalty.

Equal to NLTK's ``corpus_nist`` (corpus score) and ``sentence_nist`` (sentence scores).
The information weight of an n-gram, log2(count(prefix) / count(n-gram)), is estimated from
the references being scored: for the corpus score from all references of the call, for a
sentence score from that segment's references alone (NLTK's ``sentence_nist`` is a corpus of
one segment). A corpus score is therefore defined relative to the references given with it.

Per order, the reference with the highest information-weighted precision is kept (NLTK's
rule); the length penalty uses that reference's length, summed over orders and segments.
An order the candidate is too short for contributes 0 (NLTK divides by zero there).

References
----------
Doddington (2002), Automatic evaluation of machine translation quality using n-gram
co-occurrence statistics. NLTK ``nltk/translate/nist_score.py``.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np

from mtpalette.kernels.interning import intern_ngrams
from mtpalette.kernels.nist import corpus_information, nist_order_kernel
from mtpalette.metrics.base import Metric, Pairs
from mtpalette.metrics.registry import register
from mtpalette.text.ragged import Ragged


def _stack(first: Ragged, second: Ragged) -> Ragged:
    offsets = np.concatenate([first.offsets, second.offsets[1:] + first.offsets[-1]])
    return Ragged(np.concatenate([first.ids, second.ids]), offsets)


def length_penalty(ref_len: float, hyp_len: float) -> float:
    """NIST's brevity penalty: 0.5 when the candidate is 2/3 of the reference length.

    Examples
    --------
    >>> round(length_penalty(3.0, 2.0), 6), length_penalty(3.0, 4.0)
    (0.5, 1.0)
    """
    ratio = hyp_len / ref_len if ref_len > 0 else 0.0
    if 0 < ratio < 1:
        beta = math.log(0.5) / math.log(1.5) ** 2
        return math.exp(beta * math.log(ratio) ** 2)
    return max(min(ratio, 1.0), 0.0)


@register
class NIST(Metric):
    """NIST score (raw, not 0-100): ``nist``, ``nist:n=4``.

    Statistics per candidate and order k: the information-weighted matches with corpus
    weights and with segment weights, the chosen reference's length for each, and the number
    of candidate k-grams; then the candidate length.
    """

    name = "nist"
    scale = "raw"
    options: ClassVar[dict[str, Any]] = {"n": int}

    def __init__(self, *, n: int = 5, **common: Any) -> None:
        super().__init__(**common)
        if not 1 <= n <= 20:
            raise ValueError("the n-gram order must be between 1 and 20")
        self.n = n

    def params(self) -> dict[str, Any]:
        return {"n": self.n} if self.n != 5 else {}

    def signature_fields(self) -> dict[str, Any]:
        return {"order": self.n, "info": "from-refs", "multiref": "best-precision"}

    def compute(self, pairs: Pairs) -> np.ndarray:
        n = self.n
        rows = _stack(pairs.hyp, pairs.refs)
        grams = intern_ngrams(rows, n)
        n_hyp = len(pairs.hyp)
        ref_part = slice(int(rows.offsets[n_hyp]), None)
        total_words = float(pairs.refs.lengths().sum())
        out = np.zeros((n_hyp, 5 * n + 1))
        for k, g in enumerate(grams):
            counts = np.bincount(g.ids[ref_part][g.ids[ref_part] >= 0], minlength=g.n_ids)
            if k == 0:
                numer = np.full(g.n_ids, total_words, dtype=np.float64)
            else:
                prev = grams[k - 1].ids[ref_part]
                prev_counts = np.bincount(prev[prev >= 0], minlength=grams[k - 1].n_ids)
                numer = prev_counts[g.prefix].astype(np.float64)
            info = corpus_information(counts, numer)
            prev_ids = grams[k - 1].ids if k > 0 else g.ids
            block = nist_order_kernel(
                g.ids,
                prev_ids,
                g.prefix,
                rows.offsets,
                pairs.seg,
                pairs.ref_mask,
                n_hyp,
                info,
                k + 1,
            )
            out[:, k::n][:, :5] = block
        out[:, 5 * n] = pairs.hyp.lengths()
        return out

    def _score(self, row: np.ndarray, which: int) -> float:
        n = self.n
        num = row[(0 if which == 0 else 2) * n : (1 if which == 0 else 3) * n]
        refl = row[(1 if which == 0 else 3) * n : (2 if which == 0 else 4) * n]
        den = row[4 * n : 5 * n]
        precision = sum(a / b for a, b in zip(num, den, strict=True) if b > 0)
        return precision * length_penalty(float(refl.sum()), float(row[5 * n]) * n)

    def sentence_scores(self, stats: np.ndarray) -> np.ndarray:
        return np.array([self._score(row, 1) for row in stats])

    def corpus_score(self, stats: np.ndarray) -> float:
        return self._score(stats.sum(axis=0), 0)
