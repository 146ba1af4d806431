"""Error rates: WER (word-level Levenshtein) and PER (position-independent error rate).

Both are errors (lower is better) on a 0-1 scale (above 1 when the candidate is much longer
than the reference). Statistics per candidate: ``[errors, reference length]`` against its best
reference; the sentence score is errors / max(1, reference length) and the corpus score the
summed errors over the summed reference lengths, as jiwer's corpus WER
(``jiwer.wer(list, list)``) and Popović and Ney (2007).

* WER: the fewest substitutions, insertions and deletions (Levenshtein distance over words)
  that turn the candidate into the reference (Nießen et al., 2000).
* PER: the same without word order (Tillmann et al., 1997; Leusch et al., 2003). In Popović
  and Ney's (2007) form, errors = ½ (|N_r - N_c| + sum_w |n_c(w) - n_r(w)|), which equals
  max(N_c, N_r) - matches with matches = sum_w min(n_c(w), n_r(w)); so
  PER = 1 - (matches - max(0, N_c - N_r)) / N_r.

The best reference (``best=``): ``errors`` keeps the reference with the fewest errors (the
multi-reference WER of Nießen et al., 2000: "the most similar reference"), ties going to the
longer reference (the lower rate), then to the first; ``rate`` keeps the lowest error rate,
ties to the first. WER defaults to ``errors``, PER to ``rate``.

An empty reference is defined, not an error: its errors are the candidate's length and the
rate divides by 1, so an empty candidate against an empty reference scores 0. (jiwer refuses
empty references.)

References
----------
Nießen, Och, Leusch and Ney (2000), An evaluation tool for machine translation; Tillmann,
Vogel, Ney, Zubiaga and Sawaf (1997), Accelerated DP based search for statistical translation;
Leusch, Ueffing and Ney (2003), A novel string-to-string distance measure with applications to
machine translation evaluation; Popović and Ney (2007), Word error rates: decomposition over
POS classes and applications for error analysis. jiwer ``measures.py`` for WER.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from mtpalette.kernels.edit import bag_matches, edit_distances
from mtpalette.metrics.base import Metric, Pairs
from mtpalette.metrics.domains import Choice
from mtpalette.metrics.registry import register

_BEST = ("errors", "rate")


def best_reference(errors: np.ndarray, ref_len: np.ndarray, best: str) -> np.ndarray:
    """Index of each candidate's best reference from ``(P, R)`` errors (NaN where missing).

    Examples
    --------
    >>> errors = np.array([[3.0, 2.0, np.nan]])
    >>> lengths = np.array([[10, 4, 0]])
    >>> best_reference(errors, lengths, "errors").tolist()  # 2 errors in 4 words
    [1]
    >>> best_reference(errors, lengths, "rate").tolist()  # 3 errors in 10 words
    [0]
    """
    missing = np.isnan(errors)
    rate = np.where(missing, np.inf, errors / np.maximum(ref_len, 1))
    if best == "rate":
        return np.argmin(rate, axis=1)
    # fewest errors, then lowest rate, then first: lexicographic over the references
    fewest = np.where(missing, np.inf, errors)
    tied = fewest == fewest.min(axis=1, keepdims=True)
    return np.argmin(np.where(tied, rate, np.inf), axis=1)


class _ErrorRate(Metric):
    """Errors of the chosen reference over its length (WER and PER differ in the errors).

    Examples
    --------
    >>> from mtpalette import sentence_scores
    >>> hyps, refs = ["the cat sat", "sat the cat"], [["the cat sat down"] * 2]
    >>> s = sentence_scores(hyps, refs, ["wer", "per"])  # PER ignores the word order
    >>> s["wer"].tolist(), s["per"].tolist()
    ([0.25, 0.75], [0.25, 0.25])
    """

    per_pair = True

    higher_is_better = False
    default_best: ClassVar[str] = "errors"
    options: ClassVar[dict[str, Any]] = {"best": Choice(_BEST)}

    def __init__(self, *, best: str | None = None, **common: Any) -> None:
        super().__init__(**common)
        self.best = Choice(_BEST).parse(best or self.default_best)

    def params(self) -> dict[str, Any]:
        return {} if self.best == self.default_best else {"best": self.best}

    def errors_per_ref(self, pairs: Pairs) -> np.ndarray:
        raise NotImplementedError

    def signature_fields(self) -> dict[str, Any]:
        policy = {"errors": "fewest-errors", "rate": "lowest-rate"}[self.best]
        return {"multiref": policy, "corpus": "sum-errors/sum-ref-words"}

    def compute(self, pairs: Pairs) -> np.ndarray:
        return self._chosen(self.errors_per_ref(pairs), pairs.ref_lengths())

    @classmethod
    def compute_group_leaving_out(
        cls, metrics: Sequence[Metric], pairs: Pairs, *extra: Pairs
    ) -> list[list[np.ndarray]]:
        """The errors against each reference once; each held-out reference then counts as
        missing (the choice keeps the references' order: the same numbers as a pass each)."""
        ref_len = pairs.ref_lengths()
        out = []
        for m in metrics:
            errors = m.errors_per_ref(pairs)  # type: ignore[attr-defined]
            per_k = []
            for k in range(pairs.n_refs):
                held = errors.copy()
                held[:, k] = np.nan
                per_k.append(m._chosen(held, ref_len))  # type: ignore[attr-defined]
            out.append(per_k)
        return out

    def _chosen(self, errors: np.ndarray, ref_len: np.ndarray) -> np.ndarray:
        """``[errors, ref_len]`` of the chosen reference; ``errors`` ``(P, R)``, NaN where a
        reference is missing."""
        best = best_reference(errors, ref_len, self.best)
        idx = np.arange(len(best))
        return np.column_stack([errors[idx, best], ref_len[idx, best]]).astype(np.float64)

    def sentence_scores(self, stats: np.ndarray) -> np.ndarray:
        return stats[:, 0] / np.maximum(stats[:, 1], 1)

    def details(self, stats: np.ndarray) -> dict[str, Any]:
        """Errors and words of the chosen references, summed."""
        errors, words = stats.sum(axis=0)
        return {"errors": int(errors), "ref_words": int(words)}


@register
class WER(_ErrorRate):
    """Word error rate: ``wer`` (``wer:best=rate`` picks the reference by rate)."""

    name = "wer"

    def errors_per_ref(self, pairs: Pairs) -> np.ndarray:
        return edit_distances(pairs)


@register
class PER(_ErrorRate):
    """Position-independent error rate: ``per`` (``per:best=errors`` picks the fewest errors)."""

    name = "per"
    default_best = "rate"

    def errors_per_ref(self, pairs: Pairs) -> np.ndarray:
        matches = bag_matches(pairs)
        hyp_len = pairs.hyp.lengths()[:, None]
        return np.maximum(hyp_len, pairs.ref_lengths()) - matches  # NaN stays NaN
