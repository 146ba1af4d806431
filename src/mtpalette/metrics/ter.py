"""TER, translation edit rate with shifts (Snover et al., 2006), equal to sacrebleu's TER.

Text goes through Tercom's tokenizer with sacrebleu's switches and defaults, not the run's
tokenizer: lower-cased unless ``case=yes`` (sacrebleu ``case_sensitive``), split on whitespace,
with ``norm=yes`` (``normalized``) punctuation split off, ``punct=no`` (``no_punct``)
punctuation deleted and ``asian=yes`` (``asian_support``) CJK handling added to either (see
:mod:`mtpalette.text.tercom`).

Statistics per candidate: ``[fewest edits over the references, mean reference length]``, as
sacrebleu. The score is 100 * edits / length, 100 for a non-empty candidate against empty
references and 0 when both are empty; the corpus score sums both columns first. Lower is
better.

References
----------
Snover, Dorr, Schwartz, Micciulla and Makhoul (2006), A study of translation edit rate with
targeted human annotation; sacrebleu ``metrics/ter.py`` (Post, 2018).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from mtpalette.kernels.ter import BEAM_WIDTH, MAX_SHIFT_DIST, MAX_SHIFT_SIZE, ter_per_ref
from mtpalette.metrics.base import Metric, Pairs, Signature
from mtpalette.metrics.domains import YesNo
from mtpalette.metrics.registry import register
from mtpalette.text.encode import TextView
from mtpalette.text.tercom import tercom_name


@register
class TER(Metric):
    """TER: ``ter``; options ``case``, ``norm``, ``punct``, ``asian`` (yes/no) as sacrebleu's.

    Examples
    --------
    >>> from mtpalette import sentence_scores
    >>> sentence_scores(["b c a"], [["a b c"]], ["ter"])["ter"].tolist()  # one shift
    [33.33333333333333]
    >>> sentence_scores(["Yes, sir."], [["yes sir"]], ["ter:punct=no"])["ter:punct=no"].tolist()
    [0.0]
    """

    per_pair = True

    name = "ter"
    scale = "0-100"
    higher_is_better = False
    #: its shift search keeps the full beam table: ~9 bytes per cell, 0.25 GB and ~5 s a pair
    #: at 5,000 tokens
    max_tokens = 5000
    options: ClassVar[dict[str, Any]] = {
        "case": YesNo(),
        "norm": YesNo(),
        "punct": YesNo(),
        "asian": YesNo(),
    }

    def __init__(
        self,
        *,
        case: bool = False,
        norm: bool = False,
        punct: bool = True,
        asian: bool = False,
        **common: Any,
    ) -> None:
        super().__init__(**common)
        self.case, self.norm, self.punct, self.asian = case, norm, punct, asian

    def params(self) -> dict[str, Any]:
        defaults = {"case": False, "norm": False, "punct": True, "asian": False}
        return {k: getattr(self, k) for k, v in defaults.items() if getattr(self, k) != v}

    def view(self) -> TextView:
        if self.norm or not self.punct:
            name = tercom_name(
                normalized=self.norm, no_punct=not self.punct, asian_support=self.asian
            )
        else:  # lower-casing and a whitespace split: the compiled tokenizer
            name = "none"
        # sacrebleu tokenizes references twice, which changes them only with normalisation;
        # published numbers were made so, and this keeps them (signature: "reftok:twice")
        ref_name = f"{name}+twice" if self.norm else None
        return TextView(name, lowercase=not self.case, ref_tokenizer=ref_name)

    def signature(self, *, n_refs: int) -> Signature:
        return super().signature(n_refs=n_refs).with_fields(tok="tercom")

    def signature_fields(self) -> dict[str, Any]:
        return {
            "norm": self.norm,
            "punct": self.punct,
            "asian": self.asian,
            "shifts": f"tercom(size<={MAX_SHIFT_SIZE},dist<={MAX_SHIFT_DIST},beam={BEAM_WIDTH})",
            "multiref": "fewest-edits",
            **({"reftok": "twice"} if self.norm else {}),
            "length": "mean-ref",
        }

    def compute(self, pairs: Pairs) -> np.ndarray:
        edits = ter_per_ref(pairs)
        present = pairs.present()
        best = np.min(np.where(present, edits, np.inf), axis=1)
        n_present = np.maximum(present.sum(axis=1), 1)
        mean_len = np.where(present, pairs.ref_lengths(), 0).sum(axis=1) / n_present
        return np.column_stack([best, mean_len])

    def details(self, stats: np.ndarray) -> dict[str, Any]:
        """Edits (shifts count one each) and the summed mean reference length."""
        edits, length = stats.sum(axis=0)
        return {"edits": float(edits), "ref_len": float(length)}

    def sentence_scores(self, stats: np.ndarray) -> np.ndarray:
        edits, length = stats[:, 0], stats[:, 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            rate = np.where(length > 0, edits / np.where(length > 0, length, 1), 0.0)
        rate = np.where((length == 0) & (edits > 0), 1.0, rate)
        return 100 * rate
