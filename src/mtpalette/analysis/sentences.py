"""Any metric by sentence bucket: each bucket's score is the metric's corpus score of its
sentences' statistics (:meth:`~mtpalette.metrics.base.Metric.corpus_score`, the one engine
of every corpus score), with the number of sentences and, where asked, a bootstrap interval
over the bucket's sentences, so that a bucket of 3 sentences is not read as a finding.

compare-mt (Neubig et al., 2019) buckets by reference length (its ``length``) and by output
length minus reference length (``lengthdiff``); output length is here too. An empty bucket
has no score (None; compare-mt prints 0).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mtpalette.analysis import buckets
from mtpalette.metrics.base import Metric
from mtpalette.records import Record, RowsFrame, constant

#: the labels a sentence may be grouped by (one label per sentence, given)
LABELS = {"domain": "domain", "document": "document", "label": "label"}

#: what a sentence is bucketed by, and compare-mt's edges for it
BUCKETINGS: dict[str, tuple[str, tuple[float, ...]]] = {
    "length": ("reference length (tokens)", buckets.LENGTH_EDGES),
    "hyp-length": ("output length (tokens)", buckets.LENGTH_EDGES),
    "lengthdiff": ("output length minus reference length (tokens)", buckets.LENGTH_DIFF_EDGES),
    # compare-mt's bucket_type=score: tenths of the sentence metric's scale
    "score": ("the sentence metric's score", ()),
}


def score_edges(scale: str) -> tuple[float, ...]:
    """compare-mt's edges of a sentence score bucketing: tenths of the scale.

    Examples
    --------
    >>> score_edges("0-100")[:3], score_edges("0-1")[-1]
    ((10.0, 20.0, 30.0), 0.9)
    """
    top = {"0-100": 100.0, "0-1": 1.0}.get(scale)
    if top is None:
        raise ValueError(f"a score bucketing of a metric on a {scale!r} scale needs its edges")
    return tuple(round(top * k / 10, 10) for k in range(1, 10))


@dataclass(frozen=True)
class SentenceBuckets(Record, RowsFrame):
    """One metric by sentence bucket, per system: sentence counts and scores (None where a
    bucket is empty), with ``low`` and ``high`` when an interval was asked."""

    KIND = "sentence-buckets"
    analysis = constant(KIND, first=True)

    metric: str
    by: str
    what: str
    labels: list[str]
    edges: tuple[float, ...]
    systems: list[str]
    counts: dict[str, list[int]]
    scores: dict[str, list[float | None]]
    low: dict[str, list[float | None]] | None = None
    high: dict[str, list[float | None]] | None = None
    confidence: float | None = None
    #: groups by label (domains, documents): the mean of the groups' scores, as WMT reports
    #: a macro average over domains
    macro: dict[str, float] | None = None

    def rows(self) -> list[dict[str, Any]]:
        """One row per (bucket, system)."""
        out = []
        for b, label in enumerate(self.labels):
            for name in self.systems:
                row = {"bucket": label, "system": name, "sentences": self.counts[name][b],
                       "score": self.scores[name][b]}  # fmt: skip
                if self.low is not None and self.high is not None:
                    row["low"], row["high"] = self.low[name][b], self.high[name][b]
                out.append(row)
        return out


def sentence_buckets(
    metric: Metric,
    stats: Mapping[str, np.ndarray],
    values: Mapping[str, np.ndarray],
    *,
    by: str,
    edges: Sequence[float] | None = None,
    what: str | None = None,
    confidence: float | None = None,
    n_resamples: int = 1000,
    seed: int = 12345,
) -> SentenceBuckets:
    """``metric``'s corpus score of each bucket's sentences, per system.

    Parameters
    ----------
    stats:
        Per system, the metric's statistics, one row per sentence.
    values:
        Per system, the value each sentence is bucketed by (its reference length...).
    by:
        A key of :data:`BUCKETINGS` (it names the default edges and the table's title).
    confidence:
        With a level (0.95), a percentile bootstrap interval over each bucket's sentences
        (``n_resamples`` resamples, ``seed``).

    Examples
    --------
    >>> from mtpalette.metrics import parse_specs
    >>> [m] = parse_specs(["wer"])
    >>> st = {"A": np.array([[1.0, 4.0], [0.0, 12.0], [3.0, 12.0]])}
    >>> out = sentence_buckets(m, st, {"A": np.array([4, 12, 12])}, by="length")
    >>> out.labels[:2], out.counts["A"][:2], out.scores["A"][:2]
    (['<10', '[10,20)'], [1, 2], [0.25, 0.125])
    """
    if by not in BUCKETINGS:
        raise ValueError(f"unknown bucketing {by!r}; expected one of {', '.join(BUCKETINGS)}")
    described, default = BUCKETINGS[by]
    what = what or described
    edges = buckets.check_edges(default if edges is None else edges, f"{by} bucket edges")
    where = {name: buckets.assign(values[name], edges) for name in stats}
    counts, scores, low, high = _grouped(
        metric, stats, where, len(edges) + 1, confidence, n_resamples, seed
    )
    interval = confidence is not None
    return SentenceBuckets(
        metric.spec, by, what, buckets.labels(edges), edges, list(stats), counts, scores,
        low if interval else None, high if interval else None, confidence,
    )  # fmt: skip


def label_groups(
    metric: Metric,
    stats: Mapping[str, np.ndarray],
    labels: Sequence[str],
    *,
    by: str,
    confidence: float | None = None,
    n_resamples: int = 1000,
    seed: int = 12345,
) -> SentenceBuckets:
    """``metric``'s corpus score of each label's sentences (a domain, a document), in sorted
    label order (MTME's order for domains), per system, with the macro average over labels.

    Examples
    --------
    >>> from mtpalette.metrics import parse_specs
    >>> [m] = parse_specs(["wer"])
    >>> st = {"A": np.array([[1.0, 4.0], [0.0, 12.0], [3.0, 12.0]])}
    >>> out = label_groups(m, st, ["news", "ted", "news"], by="domain")
    >>> out.labels, out.counts["A"], out.scores["A"], out.macro["A"]
    (['news', 'ted'], [2, 1], [0.25, 0.0], 0.125)
    """
    if by not in LABELS:
        raise ValueError(f"unknown grouping {by!r}; expected one of {', '.join(LABELS)}")
    names, index = np.unique(np.asarray(labels, dtype=str), return_inverse=True)
    names = names.tolist()  # sorted, as MTME orders domains
    for name, rows in stats.items():
        if len(rows) != len(labels):
            raise ValueError(f"{name}: {len(rows)} sentences, {len(labels)} {by} labels")
    counts, scores, low, high = _grouped(
        metric, stats, dict.fromkeys(stats, index), len(names), confidence, n_resamples, seed
    )
    macro = {name: float(np.mean(v)) if names else float("nan") for name, v in scores.items()}
    interval = confidence is not None
    return SentenceBuckets(
        metric.spec, by, LABELS[by], names, (), list(stats), counts, scores,  # type: ignore[arg-type]
        low if interval else None, high if interval else None, confidence, macro,
    )  # fmt: skip


def _grouped(
    metric: Metric,
    stats: Mapping[str, np.ndarray],
    where: Mapping[str, np.ndarray],
    n_groups: int,
    confidence: float | None,
    n_resamples: int,
    seed: int,
) -> tuple[dict, dict, dict, dict]:
    """Per system: each group's sentence count, the metric's corpus score of its rows (None
    where it has none) and, with ``confidence``, its bootstrap interval over those rows."""
    if confidence is not None:  # numpy's random generators only when an interval is asked
        from mtpalette.stats.bootstrap import bootstrap_ci
    counts, scores, low, high = {}, {}, {}, {}
    # the default corpus score, the score of the summed rows: every group's in one call
    summed = confidence is None and type(metric).corpus_score is Metric.corpus_score
    for name, rows in stats.items():
        counts[name] = [int(x) for x in np.bincount(where[name], minlength=n_groups)]
        if summed:
            scores[name] = _summed_scores(metric, rows, where[name], counts[name])
            low[name] = high[name] = [None] * n_groups
            continue
        scores[name], low[name], high[name] = [], [], []
        for b in range(n_groups):
            part = rows[where[name] == b]
            scores[name].append(float(metric.corpus_score(part)) if len(part) else None)
            lo = hi = None
            if confidence is not None and len(part):
                ci = bootstrap_ci(part, metric.corpus_score, n_resamples=n_resamples,
                                  confidence=confidence, seed=seed)  # fmt: skip
                lo, hi = ci.low, ci.high
            low[name].append(lo)
            high[name].append(hi)
    return counts, scores, low, high


def _summed_scores(
    metric: Metric, rows: np.ndarray, where: np.ndarray, counts: list[int]
) -> list[float | None]:
    """Each group's :meth:`~mtpalette.metrics.base.Metric.corpus_score` (the score of its
    rows' summed statistics, summed as it sums them; None for an empty group), the scores of
    all groups from one call of the row-wise ``corpus_scores_of_sums``."""
    filled = [b for b, n in enumerate(counts) if n]
    if not filled:
        return [None] * len(counts)
    sums = np.concatenate([rows[where == b].sum(axis=0, keepdims=True) for b in filled])
    out: list[float | None] = [None] * len(counts)
    for b, score in zip(filled, metric.corpus_scores_of_sums(sums).tolist(), strict=True):
        out[b] = float(score)
    return out
