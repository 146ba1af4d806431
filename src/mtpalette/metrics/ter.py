"""TER, translation edit rate with shifts (Snover et al., 2006), equal to sacrebleu's TER.

Text is lower-cased (unless ``case=yes``) and split on whitespace, as sacrebleu's default
Tercom tokenizer does; the run's tokenizer is not used. Statistics per candidate: ``[fewest
edits over the references, mean reference length]``; the score is 100 * edits / length
(1 for a non-empty candidate against empty references), and the corpus score sums both
columns first. Lower is better.

References
----------
Snover, Dorr, Schwartz, Micciulla and Makhoul (2006); sacrebleu ``metrics/ter.py``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from mtpalette.kernels.ter import ter_per_ref
from mtpalette.metrics.base import Metric, Pairs
from mtpalette.metrics.registry import register
from mtpalette.text.encode import TextView


def _yes_no(text: str) -> bool:
    if text.lower() in {"yes", "true", "1"}:
        return True
    if text.lower() in {"no", "false", "0"}:
        return False
    raise ValueError("expected yes or no")


@register
class TER(Metric):
    """TER (``ter``; ``ter:case=yes`` keeps case).

    Examples
    --------
    >>> from mtpalette import sentence_scores
    >>> sentence_scores(["b c a"], [["a b c"]], ["ter"])["ter"].tolist()  # one shift
    [33.33333333333333]
    """

    name = "ter"
    scale = "0-100"
    higher_is_better = False
    options: ClassVar[dict[str, Any]] = {"case": _yes_no}

    def __init__(self, *, case: bool = False, **common: Any) -> None:
        super().__init__(**common)
        self.case = case

    def params(self) -> dict[str, Any]:
        return {"case": True} if self.case else {}

    def view(self) -> TextView:
        return TextView("none", lowercase=not self.case)

    def signature(self, *, n_refs: int):
        return super().signature(n_refs=n_refs).with_fields(tok="tercom")

    def signature_fields(self) -> dict[str, Any]:
        return {
            "shifts": "tercom(size<=10,dist<=50,beam=25)",
            "multiref": "fewest-edits",
            "length": "mean-ref",
        }

    def compute(self, pairs: Pairs) -> np.ndarray:
        edits = ter_per_ref(*pairs.arrays())
        present = pairs.present()
        best = np.min(np.where(present, edits, np.inf), axis=1)
        mean_len = np.where(present, pairs.ref_lengths(), 0).sum(axis=1) / present.sum(axis=1)
        return np.column_stack([best, mean_len])

    def sentence_scores(self, stats: np.ndarray) -> np.ndarray:
        edits, length = stats[:, 0], stats[:, 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            rate = np.where(length > 0, edits / np.where(length > 0, length, 1), 0.0)
        rate = np.where((length == 0) & (edits > 0), 1.0, rate)
        return 100 * rate

    def corpus_score(self, stats: np.ndarray) -> float:
        return float(self.sentence_scores(stats.sum(axis=0, keepdims=True))[0])
