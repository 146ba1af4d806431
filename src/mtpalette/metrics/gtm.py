"""GTM-e, the General Text Matcher's F-measure (Turian, Shen and Melamed, 2003).

``gtm:e`` (``gtm:1``, ``gtm:2``, ``gtm:3``; e >= 1, default 1 as gtm 1.4) rewards runs of
words matched in order: the maximum match size MMS = (sum over runs of length^e)^(1/e) of
the candidate against its references (:mod:`mtpalette.kernels.gtm`: exactly gtm 1.4's greedy
approximation of the maximum, with several references matched jointly), then

* precision P = MMS / candidate length, recall R = MMS / mean reference length,
* F = 2 P R / (P + R), 0 when P + R = 0 (and P = 0 for an empty candidate, R = 0 for empty
  references), as gtm 1.4 prints per segment.

Statistics per candidate: ``[MMS, candidate length, mean reference length]``. The corpus
score is the F-measure of the summed columns, gtm 1.4's document score: the sum of the
segments' MMS over the summed lengths. Higher is better, on a 0-1 scale. Text is tokenized with
the run's tokenizer (gtm 1.4 splits on white space and keeps case: ``tok=none``).

Every exponent of a grid (``gtm:1..3``) shares one matching pass: the blocks gtm takes do not
depend on e.

On the WMT21 TED MQM data (2,116 candidates, one and two references, e = 1, 2, 3, 1.5) the
segment MMS and F and the document F equal gtm 1.4's within 1e-12 (``tests/metrics/
test_gtm.py``).

References
----------
Turian, Shen and Melamed (2003), Evaluation of machine translation and its evaluation, MT
Summit IX; gtm 1.4 (Green, Turian, Melamed and Shen, New York University), ``gtm.java``,
``Score.java``, ``Bitext.java``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar

import numpy as np

from mtpalette.kernels.gtm import gtm_mms
from mtpalette.metrics.base import Metric, Pairs
from mtpalette.metrics.domains import Real
from mtpalette.metrics.registry import register


def gtm_f(mms: np.ndarray, hyp_len: np.ndarray, ref_len: np.ndarray) -> np.ndarray:
    """gtm 1.4's F-measure from the MMS and the lengths, element by element.

    Examples
    --------
    >>> gtm_f(np.array([3.0, 0.0]), np.array([4.0, 0.0]), np.array([6.0, 2.0])).tolist()
    [0.6, 0.0]
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        prc = np.where(hyp_len != 0, mms / np.where(hyp_len != 0, hyp_len, 1), 0.0)
        rcl = np.where(ref_len != 0, mms / np.where(ref_len != 0, ref_len, 1), 0.0)
        both = prc + rcl
        return np.where(both > 0, (2 * (prc * rcl)) / np.where(both > 0, both, 1), 0.0)


@register
class GTM(Metric):
    """General Text Matcher: ``gtm:e``.

    Examples
    --------
    >>> from mtpalette import sentence_scores
    >>> out = sentence_scores(["a b c d e"], [["a b x c d e"]], ["gtm:1", "gtm:2"])
    >>> out["gtm:1"].round(4).tolist(), out["gtm:2"].round(4).tolist()  # MMS 5, sqrt(13)
    ([0.9091], [0.6556])
    """

    per_pair = True

    name = "gtm"
    #: the grid of run lengths: 4 bytes per cell, 0.4 GB at 10,000 tokens
    max_tokens = 10000
    positional = "e"
    options: ClassVar[dict[str, Any]] = {"e": Real(low=1)}

    def __init__(self, *, e: float = 1.0, **common: Any) -> None:
        super().__init__(**common)
        if not e >= 1:
            raise ValueError("the run exponent e must be at least 1")
        self.e = float(e)

    def params(self) -> dict[str, Any]:
        return {"e": int(self.e) if self.e.is_integer() else self.e}

    def signature_fields(self) -> dict[str, Any]:
        return {"mms": "gtm-1.4-greedy", "multiref": "joint", "length": "mean-ref"}

    def group_key(self) -> Hashable:
        return ("gtm", self.view())

    @classmethod
    def compute_group(cls, metrics: Sequence[Metric], pairs: Pairs) -> list[np.ndarray]:
        exponents = sorted({m.e for m in metrics})
        mms = gtm_mms(pairs, exponents)
        present = pairs.present()
        n_present = np.maximum(present.sum(axis=1), 1)
        mean_len = np.where(present, pairs.ref_lengths(), 0).sum(axis=1) / n_present
        hyp_len = pairs.hyp.lengths().astype(np.float64)
        return [np.column_stack([mms[:, exponents.index(m.e)], hyp_len, mean_len]) for m in metrics]

    def compute(self, pairs: Pairs) -> np.ndarray:
        return self.compute_group([self], pairs)[0]

    def sentence_scores(self, stats: np.ndarray) -> np.ndarray:
        return gtm_f(stats[:, 0], stats[:, 1], stats[:, 2])
