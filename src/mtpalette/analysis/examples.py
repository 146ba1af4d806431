"""Sentence examples: where two systems differ most by a sentence-level metric.

compare-mt's ``sentence_examples`` (Neubig et al., 2019) lists, for a pair of systems, the
sentences with the largest score difference each way. Here every other system is compared
with a baseline, by any metric's sentence scores (default ``bleus:4``, the smoothed sentence
BLEU of Lin and Och; compare-mt's default is its own smoothed sentence BLEU, whose smoothing
differs), ties broken by the segment number.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mtpalette.records import Record, TwoSided, constant


@dataclass(frozen=True)
class SentenceExamples(Record, TwoSided):
    """The ``top`` segments where ``system`` beats ``baseline`` most (``better``) and where it
    loses most (``worse``), each with both scores and the texts."""

    KIND = "sentence-examples"
    analysis = constant(KIND, first=True)
    SIDES = (("better", "better"), ("worse", "worse"))

    metric: str
    baseline: str
    system: str
    better: list[dict[str, Any]]
    worse: list[dict[str, Any]]


def sentence_examples(
    metric: str,
    scores: Mapping[str, np.ndarray],
    texts: Mapping[str, Sequence[str]],
    ref: Sequence[str],
    *,
    baseline: str,
    top: int = 10,
) -> list[SentenceExamples]:
    """Every other system against ``baseline``: the ``top`` segments each way (a segment
    where both score the same is in neither list).

    Examples
    --------
    >>> sc = {"A": np.array([0.5, 0.2, 0.9]), "B": np.array([0.1, 0.2, 1.0])}
    >>> tx = {"A": ["a1", "a2", "a3"], "B": ["b1", "b2", "b3"]}
    >>> [ex] = sentence_examples("m", sc, tx, ["r1", "r2", "r3"], baseline="A", top=1)
    >>> ex.better[0]["segment"], ex.worse[0]["segment"], round(ex.worse[0]["difference"], 2)
    (3, 1, -0.4)
    """
    if baseline not in scores:
        raise ValueError(f"baseline {baseline!r} is not among the systems")
    out = []
    base = np.asarray(scores[baseline], dtype=np.float64)
    for name, values in scores.items():
        if name == baseline:
            continue
        diff = np.asarray(values, dtype=np.float64) - base
        segs = np.arange(len(diff))
        up = np.lexsort((segs, -diff))
        down = np.lexsort((segs, diff))

        def row(i: int, name=name, values=values, diff=diff) -> dict[str, Any]:
            return {"segment": i + 1, "difference": float(diff[i]), "score": float(values[i]),
                    "baseline_score": float(base[i]), "reference": ref[i],
                    "output": texts[name][i], "baseline_output": texts[baseline][i]}  # fmt: skip

        better = [row(int(i)) for i in up[:top] if diff[i] > 0]
        worse = [row(int(i)) for i in down[:top] if diff[i] < 0]
        out.append(SentenceExamples(metric, baseline, name, better, worse))
    return out
