"""Error rates: WER (word-level Levenshtein) and PER (position-independent error rate).

Both are errors (lower is better). Statistics per candidate: ``[errors, reference length]``
against the reference with the lowest error rate (the first on ties); the sentence score is
errors / max(1, reference length) and the corpus score the summed errors over the summed
reference lengths, as jiwer's corpus WER.

* WER: the number of substitutions, insertions and deletions (Levenshtein distance over
  words) that turn the candidate into the reference (Nießen et al., 2000).
* PER: the same without word order: errors = max(|c|, |r|) - matches, with matches the
  bag-of-words overlap (Tillmann et al., 1997; Leusch et al., 2003), i.e.
  PER = 1 - (matches - max(0, |c| - |r|)) / |r|.

References
----------
Nießen, Och, Leusch and Ney (2000), An evaluation tool for machine translation; Leusch, Ueffing
and Ney (2003), A novel string-to-string distance measure with applications to machine
translation evaluation. jiwer ``measures.py`` for WER.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mtpalette.kernels.ngram import ngram_matches
from mtpalette.kernels.subsequence import levenshtein_per_ref
from mtpalette.metrics.base import Metric, Pairs
from mtpalette.metrics.registry import register


class _ErrorRate(Metric):
    higher_is_better = False

    def errors_per_ref(self, pairs: Pairs) -> np.ndarray:
        raise NotImplementedError

    def signature_fields(self) -> dict[str, Any]:
        return {"multiref": "lowest-rate", "corpus": "sum-errors/sum-ref-words"}

    def compute(self, pairs: Pairs) -> np.ndarray:
        errors = self.errors_per_ref(pairs)  # (P, R), NaN where missing
        ref_len = pairs.ref_lengths()
        rate = errors / np.maximum(ref_len, 1)
        best = np.argmin(np.where(np.isnan(rate), np.inf, rate), axis=1)
        idx = np.arange(len(best))
        return np.column_stack([errors[idx, best], ref_len[idx, best]]).astype(np.float64)

    def sentence_scores(self, stats: np.ndarray) -> np.ndarray:
        return stats[:, 0] / np.maximum(stats[:, 1], 1)

    def corpus_score(self, stats: np.ndarray) -> float:
        total = stats.sum(axis=0)
        return float(total[0] / max(total[1], 1))


@register
class WER(_ErrorRate):
    """Word error rate: ``wer``.

    Examples
    --------
    >>> from mtpalette import sentence_scores
    >>> sentence_scores(["the cat sat"], [["the cat sat down"]], ["wer"])["wer"].tolist()
    [0.25]
    """

    name = "wer"

    def errors_per_ref(self, pairs: Pairs) -> np.ndarray:
        return levenshtein_per_ref(pairs)


@register
class PER(_ErrorRate):
    """Position-independent error rate: ``per``.

    Examples
    --------
    >>> from mtpalette import sentence_scores
    >>> sentence_scores(["sat the cat"], [["the cat sat down"]], ["per"])["per"].tolist()
    [0.25]
    """

    name = "per"

    def errors_per_ref(self, pairs: Pairs) -> np.ndarray:
        matches = ngram_matches(pairs, 1, per_ref=True)[:, :, 0].astype(np.float64)
        hyp_len = pairs.hyp.lengths()[:, None]
        ref_len = pairs.ref_lengths()
        errors = np.maximum(hyp_len, ref_len) - matches
        return np.where(pairs.present(), errors, np.nan)
