"""Trivial length baselines: what a meta-evaluation must beat before a metric means anything.

* ``len`` - the candidate's length in words (tokens of the run's tokenizer): higher is
  better, the baseline of "longer translations are rated better";
* ``len:sign=-1`` - minus that length: shorter is better. On MQM, which counts errors, this
  baseline is strong: longer segments have more errors to find (on the WMT21 TED zh-en
  data it correlates with the MQM score at Pearson 0.33 without grouping, above every lexical
  metric of the demo; see ``docs/baselines.md``);
* ``lendiff`` - the absolute difference between the candidate's length and the length of the
  reference closest in length (``lendiff:ref=closest``, the default, as BLEU's brevity
  penalty picks its reference length), or the mean of the absolute differences over the
  references (``lendiff:ref=mean``). Lower is better.

None of them reads a word of the texts besides counting it: they are marked
``baseline = True`` so tables and reports can set them apart from the metrics.

Statistics per candidate: ``[value, 1]``. The sentence score is the value; the corpus score
the mean over segments (the sum of the first column over the sum of the second), so a
system's corpus ``len`` is its mean segment length in words.

Examples
--------
>>> from mtpalette import sentence_scores
>>> out = sentence_scores(["the cat sat on the mat"], [["the cat sat"]], ["len", "lendiff"])
>>> out["len"].tolist(), out["lendiff"].tolist()
([6.0], [3.0])
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from mtpalette.metrics.base import Metric, Pairs
from mtpalette.metrics.domains import Choice
from mtpalette.metrics.registry import register

_SIGNS = ("1", "-1")
_REF_POLICIES = ("closest", "mean")


class _LengthBaseline(Metric):
    """Shared arithmetic: one value per candidate, averaged over segments."""

    baseline = True
    scale = "words"

    def sentence_scores(self, stats: np.ndarray) -> np.ndarray:
        return stats[:, 0] / np.maximum(stats[:, 1], 1.0)


@register
class HypothesisLength(_LengthBaseline):
    """Hypothesis length in words: ``len`` (longer is better), ``len:sign=-1`` (shorter).

    Examples
    --------
    >>> from mtpalette import sentence_scores
    >>> hyps = ["police kill the gunman", "the gunman was shot dead by police"]
    >>> refs = [["police killed the gunman"] * 2]
    >>> sentence_scores(hyps, refs, ["len:sign=-1"])["len:sign=-1"].tolist()
    [-4.0, -7.0]
    """

    name = "len"
    options: ClassVar[dict[str, Any]] = {"sign": Choice(_SIGNS)}

    def __init__(self, *, sign: str | int = "1", **common: Any) -> None:
        super().__init__(**common)
        self.sign = int(Choice(_SIGNS).parse(str(sign)))

    def params(self) -> dict[str, Any]:
        return {} if self.sign == 1 else {"sign": self.sign}

    def signature_fields(self) -> dict[str, Any]:
        return {"baseline": "hyp-words" if self.sign == 1 else "minus-hyp-words"}

    def compute(self, pairs: Pairs) -> np.ndarray:
        words = pairs.hyp.lengths().astype(np.float64)
        return np.column_stack([self.sign * words, np.ones_like(words)])


@register
class LengthDifference(_LengthBaseline):
    """Absolute length difference to the reference, in words: ``lendiff`` (lower is better).

    ``ref=closest`` (default) takes the reference closest in length, ``ref=mean`` the mean of
    the absolute differences to every present reference.

    Examples
    --------
    >>> from mtpalette import sentence_scores
    >>> refs = [["a b c"], ["a b c d e f g"]]
    >>> out = sentence_scores(["a b c d e"], refs, ["lendiff", "lendiff:ref=mean"])
    >>> out["lendiff"].tolist(), out["lendiff:ref=mean"].tolist()
    ([2.0], [2.0])
    >>> sentence_scores(["a"], refs, ["lendiff", "lendiff:ref=mean"])["lendiff:ref=mean"].tolist()
    [4.0]
    """

    name = "lendiff"
    higher_is_better = False
    options: ClassVar[dict[str, Any]] = {"ref": Choice(_REF_POLICIES)}

    def __init__(self, *, ref: str = "closest", **common: Any) -> None:
        super().__init__(**common)
        self.ref = Choice(_REF_POLICIES).parse(ref)

    def params(self) -> dict[str, Any]:
        return {} if self.ref == "closest" else {"ref": self.ref}

    def signature_fields(self) -> dict[str, Any]:
        return {"baseline": "abs-length-difference", "multiref": self.ref}

    def compute(self, pairs: Pairs) -> np.ndarray:
        hyp = pairs.hyp.lengths().astype(np.float64)
        present = pairs.present()
        diff = np.abs(hyp[:, None] - pairs.ref_lengths())
        n_present = present.sum(axis=1)
        if self.ref == "closest":
            value = np.where(present, diff, np.inf).min(axis=1, initial=np.inf)
        else:
            value = np.where(present, diff, 0.0).sum(axis=1) / np.maximum(n_present, 1)
        # no reference at all: the difference to an empty reference, the candidate's length
        value = np.where(n_present > 0, value, hyp)
        return np.column_stack([value, np.ones_like(hyp)])
