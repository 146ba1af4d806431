"""Precision, recall and F1 of span protocols from per-segment counts: groups and intervals.

Every span protocol (:mod:`mtpalette.stats.spans`) returns, per segment, four counts: the
credit towards precision, the credit towards recall (the same number for all but ``mpp``), the
predicted total and the gold total. Here they become scores:

* **micro** (the shared tasks' way): the counts are summed over a group's segments, then
  ``precision = credit_p / predicted``, ``recall = credit_r / gold``;
* **macro**: each segment gets its own precision, recall and F1, and a group's score is their
  mean (its F1 the mean of the segments' F1).

Precision is 1.0 when nothing is predicted and recall 1.0 when nothing is in the gold (the
WMT25 convention; ``empty`` sets another value); F1 is ``2PR / (P + R)``, 0.0 when both are 0.
In a macro average a segment with neither gold nor predicted spans scores 1.0 everywhere
under ``both_empty="perfect"`` (default) or is left out under ``"skip"``.

A group is any key per segment (language pair, MT system, domain, or a tuple of them). Over
the groups, ``mean`` is the unweighted mean of the groups' precision, recall and F1 (WMT25's
and WMT23 QE's overall figure, over language pairs) and ``pooled`` the micro (or macro) score
of all segments together.

:func:`bootstrap_span_scores` resamples segments with replacement inside each group (a
stratified bootstrap: each group keeps its size), with the draws of
:mod:`mtpalette.stats.resampling` (``seed``: an int, a Generator or ``None``, recorded). Given
the counts of several annotators at once (``(n, k, 4)``) every annotator is scored on the same
resampled segments, so differences between annotators are paired.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mtpalette.stats.paired import bootstrap_p_value
from mtpalette.stats.resampling import (
    INTERVAL_METHODS,
    Seed,
    bootstrap_interval,
    index_batches,
    resample_counts,
    resolve_seed,
)

AVERAGES = ("micro", "macro")
BOTH_EMPTY = ("perfect", "skip")


def prf(
    tp_precision: Any, tp_recall: Any, n_pred: Any, n_gold: Any, *, empty: float = 1.0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision, recall and F1 from counts, elementwise; ``empty`` for a zero denominator.

    Examples
    --------
    >>> [float(x) for x in prf(3.0, 3.0, 4.0, 6.0)]
    [0.75, 0.5, 0.6]
    >>> [float(x) for x in prf(0.0, 0.0, 0.0, 5.0)]  # nothing predicted
    [1.0, 0.0, 0.0]
    """
    tp_p, tp_r = np.asarray(tp_precision, float), np.asarray(tp_recall, float)
    n_p, n_g = np.asarray(n_pred, float), np.asarray(n_gold, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(n_p > 0, tp_p / np.where(n_p > 0, n_p, 1.0), empty)
        r = np.where(n_g > 0, tp_r / np.where(n_g > 0, n_g, 1.0), empty)
        f = np.where(p + r > 0, 2 * p * r / np.where(p + r > 0, p + r, 1.0), 0.0)
    return p, r, f


def group_codes(groups: Any, n: int) -> tuple[list[Any], np.ndarray]:
    """Sorted group labels and each segment's group code.

    ``groups`` is ``None`` (one group ``"all"``), one label per segment, or a sequence of
    label arrays (the label is then the tuple).

    Examples
    --------
    >>> group_codes(["en-de", "cs-uk", "en-de"], 3)
    (['cs-uk', 'en-de'], array([1, 0, 1]))
    >>> group_codes((["a", "a", "b"], ["x", "y", "x"]), 3)[0]
    [('a', 'x'), ('a', 'y'), ('b', 'x')]
    """
    if groups is None:
        return ["all"], np.zeros(n, dtype=np.int64)
    if isinstance(groups, tuple):
        columns = [group_codes(g, n) for g in groups]
        keys = np.column_stack([c for _, c in columns])
        unique, codes = np.unique(keys, axis=0, return_inverse=True)
        labels = [tuple(columns[j][0][k] for j, k in enumerate(row)) for row in unique]
        return labels, codes.reshape(-1)
    values = np.asarray(groups)
    if values.shape != (n,):
        raise ValueError(f"expected one group label per segment ({n}), got shape {values.shape}")
    unique, codes = np.unique(values, return_inverse=True)
    return [u.item() if hasattr(u, "item") else u for u in unique], codes.reshape(-1)


@dataclass(frozen=True)
class SpanScores:
    """Scores per group and over the groups.

    Attributes
    ----------
    groups:
        The group labels, sorted.
    counts:
        ``(G, 4)`` counts summed over each group's segments (credit_p, credit_r, predicted,
        gold).
    n_segments:
        Segments per group (scored ones, for a macro average skipping empty segments).
    precision, recall, f1:
        ``(G,)`` per group.
    mean:
        ``(precision, recall, f1)``: the unweighted mean over the groups.
    pooled:
        ``(precision, recall, f1)`` of all segments as one group.
    average, both_empty:
        How the scores were averaged.
    """

    groups: list[Any]
    counts: np.ndarray
    n_segments: np.ndarray
    precision: np.ndarray
    recall: np.ndarray
    f1: np.ndarray
    mean: tuple[float, float, float]
    pooled: tuple[float, float, float]
    average: str
    both_empty: str

    def rows(self) -> list[dict[str, Any]]:
        """One plain record per group, then ``"mean"`` and ``"pooled"`` rows.

        Examples
        --------
        >>> rows = aggregate_counts(np.array([[1.0, 1.0, 2.0, 1.0]]), ["en-de"]).rows()
        >>> [(r["group"], r["precision"]) for r in rows]
        [('en-de', 0.5), ('mean', 0.5), ('pooled', 0.5)]
        """
        out = [
            {
                "group": g,
                "precision": float(self.precision[i]),
                "recall": float(self.recall[i]),
                "f1": float(self.f1[i]),
                "tp_precision": float(self.counts[i, 0]),
                "tp_recall": float(self.counts[i, 1]),
                "n_pred": float(self.counts[i, 2]),
                "n_gold": float(self.counts[i, 3]),
                "segments": int(self.n_segments[i]),
            }
            for i, g in enumerate(self.groups)
        ]
        for name, (p, r, f) in (("mean", self.mean), ("pooled", self.pooled)):
            out.append({"group": name, "precision": p, "recall": r, "f1": f})
        return out


def _check_counts(counts: Any) -> np.ndarray:
    c = np.asarray(counts, dtype=np.float64)
    if c.ndim < 2 or c.shape[-1] != 4:
        raise ValueError(f"counts must have shape (n_segments, ..., 4), got {c.shape}")
    return c


def _group_scores(
    sums: np.ndarray, weights: np.ndarray, average: str, empty: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Scores of groups from summed counts (micro) or summed segment scores (macro)."""
    if average == "micro":
        return prf(sums[..., 0], sums[..., 1], sums[..., 2], sums[..., 3], empty=empty)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = sums[..., :3] / weights[..., None]
    return mean[..., 0], mean[..., 1], mean[..., 2]


def segment_table(
    counts: np.ndarray, *, average: str, both_empty: str, empty: float
) -> tuple[np.ndarray, np.ndarray]:
    """What a group sums per segment: the counts (micro) or P, R, F1 and a 0/1 weight
    (macro); and the weight (1 for a scored segment).

    Examples
    --------
    >>> rows, w = segment_table(np.array([[1.0, 1.0, 2.0, 1.0], [0.0, 0.0, 0.0, 0.0]]),
    ...                         average="macro", both_empty="skip", empty=1.0)
    >>> rows[:, :3].round(4).tolist(), w.tolist()
    ([[0.5, 1.0, 0.6667], [0.0, 0.0, 0.0]], [1.0, 0.0])
    """
    if average not in AVERAGES:
        raise ValueError(f"average must be one of {', '.join(AVERAGES)}, got {average!r}")
    if both_empty not in BOTH_EMPTY:
        raise ValueError(f"both_empty must be one of {', '.join(BOTH_EMPTY)}, got {both_empty!r}")
    if average == "micro":
        return counts, np.ones(counts.shape[:-1])
    p, r, f = prf(counts[..., 0], counts[..., 1], counts[..., 2], counts[..., 3], empty=empty)
    weight = np.ones(counts.shape[:-1])
    if both_empty == "skip":
        weight = ((counts[..., 2] > 0) | (counts[..., 3] > 0)).astype(np.float64)
    rows = np.stack([p * weight, r * weight, f * weight, weight], axis=-1)
    return rows, weight


def aggregate_counts(
    counts: Any,
    groups: Any = None,
    *,
    average: str = "micro",
    both_empty: str = "perfect",
    empty: float = 1.0,
) -> SpanScores:
    """Precision, recall and F1 per group, their mean over groups and the pooled score.

    Parameters
    ----------
    counts:
        ``(n_segments, 4)`` per-segment counts of a protocol.
    groups:
        A label per segment (or a tuple of label arrays); ``None``: one group.
    average:
        ``"micro"`` (sum counts, then divide) or ``"macro"`` (mean of segment scores).
    both_empty:
        Macro only: a segment with no gold and no predicted span is ``"perfect"`` or ``"skip"``.
    empty:
        Precision (recall) when nothing is predicted (in the gold).

    Examples
    --------
    >>> c = np.array([[2.0, 2.0, 4.0, 2.0], [0.0, 0.0, 0.0, 3.0], [1.0, 1.0, 1.0, 1.0]])
    >>> s = aggregate_counts(c, ["en-de", "en-de", "ja-zh"])
    >>> s.groups, s.precision.tolist(), s.recall.tolist()
    (['en-de', 'ja-zh'], [0.5, 1.0], [0.4, 1.0])
    >>> [round(x, 6) for x in s.mean]  # WMT's overall figure: mean over the groups
    [0.75, 0.7, 0.722222]
    >>> m = aggregate_counts(c, ["en-de", "en-de", "ja-zh"], average="macro")
    >>> m.precision.tolist(), m.f1.tolist()  # en-de: segments (0.5, 1, 2/3) and (1, 0, 0)
    ([0.75, 1.0], [0.3333333333333333, 1.0])
    """
    c = _check_counts(counts)
    n = c.shape[0]
    labels, codes = group_codes(groups, n)
    rows, weight = segment_table(c, average=average, both_empty=both_empty, empty=empty)
    G = len(labels)
    sums = np.zeros((G, rows.shape[-1]))
    np.add.at(sums, codes, rows)
    sums_counts = np.zeros((G, 4))
    np.add.at(sums_counts, codes, c)
    seg = np.bincount(codes, weights=weight, minlength=G)
    p, r, f = _group_scores(sums, seg, average, empty)
    all_p, all_r, all_f = _group_scores(sums.sum(axis=0), np.array(seg.sum()), average, empty)
    return SpanScores(
        labels,
        sums_counts,
        seg.astype(np.int64),
        p,
        r,
        f,
        (float(np.mean(p)), float(np.mean(r)), float(np.mean(f))),
        (float(all_p), float(all_r), float(all_f)),
        average,
        both_empty,
    )


@dataclass(frozen=True)
class SpanBootstrap:
    """Bootstrap intervals of span scores, per annotator, group and the mean over groups.

    Attributes
    ----------
    groups:
        Group labels; index ``len(groups)`` of the group axis is the mean over groups.
    value, low, high:
        ``(k, G + 1, 3)``: precision, recall, F1 per annotator and group, on the original
        segments and at the interval's bounds.
    distribution:
        ``(n_resamples, k, G + 1, 3)``: the resampled scores, for paired comparisons.
    n_resamples, confidence, method, seed:
        How the intervals were obtained (``seed`` None when a Generator was passed).
    """

    groups: list[Any]
    value: np.ndarray
    low: np.ndarray
    high: np.ndarray
    distribution: np.ndarray
    n_resamples: int
    confidence: float
    method: str
    seed: int | None


def _resampled_group(
    rows: np.ndarray,
    weight: np.ndarray,
    n_resamples: int,
    rng: np.random.Generator,
    average: str,
    empty: float,
) -> np.ndarray:
    """``(B, k, 3)`` scores of one group over ``B`` resamples of its segments."""
    n = rows.shape[0]
    flat = rows.reshape(n, -1)
    out = []
    for idx in index_batches(n, n_resamples, rng):
        w = resample_counts(idx, n)
        sums = (w @ flat).reshape((w.shape[0], *rows.shape[1:]))
        seg = w @ weight.reshape(n, -1)
        p, r, f = _group_scores(sums, seg.reshape(sums.shape[:-1]), average, empty)
        out.append(np.stack([p, r, f], axis=-1))
    return np.concatenate(out)


def bootstrap_span_scores(
    counts: Any,
    groups: Any = None,
    *,
    average: str = "micro",
    both_empty: str = "perfect",
    empty: float = 1.0,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    method: str = "percentile",
    seed: Seed = None,
) -> SpanBootstrap:
    """Stratified bootstrap intervals of precision, recall and F1 over segments.

    Parameters
    ----------
    counts:
        ``(n, 4)`` counts of one annotator or ``(n, k, 4)`` of ``k`` annotators on the same
        segments (paired: the same resampled segments for all).
    groups:
        A label per segment; segments are resampled inside their group.
    average, both_empty, empty:
        As :func:`aggregate_counts`.
    n_resamples, confidence, method:
        ``B``, the coverage and ``"percentile"`` or ``"basic"``.
    seed:
        An int, a Generator, or ``None`` (a fresh seed, recorded).

    Examples
    --------
    >>> c = np.array([[1.0, 1.0, 2.0, 1.0]] * 5 + [[0.0, 0.0, 1.0, 1.0]] * 5)
    >>> b = bootstrap_span_scores(c, n_resamples=200, seed=1)
    >>> b.value[0, 0].round(4).tolist(), bool(b.low[0, 0, 2] < b.value[0, 0, 2] < b.high[0, 0, 2])
    ([0.3333, 0.5, 0.4], True)
    >>> b.distribution.shape, b.seed
    ((200, 1, 2, 3), 1)
    """
    if method not in INTERVAL_METHODS:
        raise ValueError(f"method must be one of {', '.join(INTERVAL_METHODS)}")
    c = _check_counts(counts)
    if c.ndim == 2:
        c = c[:, None, :]
    labels, codes = group_codes(groups, c.shape[0])
    rng, recorded = resolve_seed(seed)
    rows, weight = segment_table(c, average=average, both_empty=both_empty, empty=empty)
    dist = np.empty((n_resamples, c.shape[1], len(labels) + 1, 3))
    value = np.empty((c.shape[1], len(labels) + 1, 3))
    for g in range(len(labels)):
        mine = np.flatnonzero(codes == g)
        r, w = rows[mine], weight[mine]
        p, rec, f = _group_scores(r.sum(axis=0), w.sum(axis=0), average, empty)
        value[:, g] = np.stack([p, rec, f], axis=-1)
        dist[:, :, g] = _resampled_group(r, w, n_resamples, rng, average, empty)
    value[:, -1] = value[:, :-1].mean(axis=1)
    dist[:, :, -1] = dist[:, :, :-1].mean(axis=2)
    lo, hi = bootstrap_interval(dist, confidence, method=method, value=value)
    return SpanBootstrap(labels, value, lo, hi, dist, n_resamples, confidence, method, recorded)


MEASURES = ("precision", "recall", "f1")


def pairwise_p_values(boot: SpanBootstrap, *, group: int = -1, measure: str = "f1") -> np.ndarray:
    """Every pair of annotators' paired bootstrap p-value, from one bootstrap's resamples.

    The test is the paired bootstrap of ``rank`` and ``score --paired-bs``
    (:mod:`mtpalette.stats.paired`, sacrebleu's): the resampled absolute differences centred
    on their mean against the observed difference, ``(1 + count) / (B + 1)``, 1 for equal
    scores. The matrix feeds :func:`mtpalette.stats.ranking.adjust`, ``rank_ranges`` and
    ``clusters``.

    Parameters
    ----------
    boot:
        A :func:`bootstrap_span_scores` result over ``k >= 2`` annotators.
    group:
        The group's index, ``-1`` (default) for the mean over groups.
    measure:
        ``"precision"``, ``"recall"`` or ``"f1"``.

    Returns
    -------
    np.ndarray
        ``(k, k)``, symmetric, NaN on the diagonal.

    Examples
    --------
    >>> good = np.array([[3.0, 3.0, 4.0, 4.0]] * 30)
    >>> bad = np.array([[1.0, 1.0, 4.0, 4.0]] * 15 + [[3.0, 3.0, 4.0, 4.0]] * 15)
    >>> b = bootstrap_span_scores(stack_counts([good, bad, good]), n_resamples=200, seed=2)
    >>> p = pairwise_p_values(b)
    >>> round(float(p[0, 1]), 3), float(p[0, 2])
    (0.005, 1.0)
    """
    if measure not in MEASURES:
        raise ValueError(f"measure must be one of {', '.join(MEASURES)}, got {measure!r}")
    j = MEASURES.index(measure)
    dist = np.moveaxis(boot.distribution[:, :, group, j], 0, 1)[:, :, None]  # (k, B, 1)
    score = boot.value[:, group, j][:, None]
    k = score.shape[0]
    p = np.full((k, k), np.nan)
    for a in range(k):
        for b in range(a + 1, k):
            value = bootstrap_p_value(dist, score, a, b, boot.n_resamples)[0]
            p[a, b] = p[b, a] = value
    return p


def stack_counts(per_annotator: Sequence[np.ndarray]) -> np.ndarray:
    """``(n, k, 4)`` from ``k`` arrays ``(n, 4)`` (the input of a paired bootstrap).

    Examples
    --------
    >>> stack_counts([np.zeros((3, 4)), np.ones((3, 4))]).shape
    (3, 2, 4)
    """
    return np.stack([_check_counts(c) for c in per_annotator], axis=1)
