"""Binary decisions scored against binary gold: MCC, precision, recall and F1 of both
classes, accuracy, bootstrap intervals, and the threshold of a score that maximises MCC.

The positive class is ``True`` (for ``errorfree``: the translation is error-free). Per item a
decision falls in one cell of the confusion matrix; the cells' counts ``(tp, fp, fn, tn)`` give
every measure (:func:`binary_scores`, vectorised over leading axes, so that resampled counts
are scored in one call):

* MCC ``(tp tn - fp fn) / sqrt((tp + fp)(tp + fn)(tn + fp)(tn + fn))``, 0 when a factor of
  the denominator is 0 (scikit-learn's ``matthews_corrcoef`` convention: a constant decision
  or a constant gold scores 0);
* precision, recall, F1 of the positive class (``tp / (tp + fp)``, ``tp / (tp + fn)``) and of
  the negative class (``tn / (tn + fn)``, ``tn / (tn + fp)``); a zero denominator gives 0
  (scikit-learn's ``zero_division=0``); accuracy ``(tp + tn) / n``.

References
----------
Matthews (1975), Comparison of the predicted and observed secondary structure of T4 phage
lysozyme; Chicco and Jurman (2020), The advantages of the Matthews correlation coefficient
(MCC) over F1 score and accuracy in binary classification evaluation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mtpalette.stats.resampling import (
    Seed,
    bootstrap_interval,
    index_batches,
    resample_counts,
    resolve_seed,
)

#: the measures of :func:`binary_scores`, in order
MEASURES = ("mcc", "precision", "recall", "f1", "precision_negative", "recall_negative",
            "f1_negative", "accuracy")  # fmt: skip


def cells(pred: Any, gold: Any) -> np.ndarray:
    """Each item's confusion cell as a one-hot row ``(tp, fp, fn, tn)``: ``(n, 4)``.

    Examples
    --------
    >>> cells([True, True, False, False], [True, False, True, False]).tolist()
    [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]]
    """
    p, g = np.asarray(pred, dtype=bool), np.asarray(gold, dtype=bool)
    if p.shape != g.shape or p.ndim != 1:
        raise ValueError(f"expected two vectors of the same length, got {p.shape} and {g.shape}")
    return np.stack([p & g, p & ~g, ~p & g, ~p & ~g], axis=1).astype(np.float64)


def _ratio(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(b > 0, a / np.where(b > 0, b, 1.0), 0.0)


def binary_scores(counts: Any) -> np.ndarray:
    """The :data:`MEASURES` of confusion counts ``(..., 4)``: ``(..., 8)``.

    Examples
    --------
    >>> s = binary_scores([3.0, 1.0, 2.0, 4.0])  # tp fp fn tn
    >>> dict(zip(MEASURES, s.round(4).tolist()))["mcc"]  # (12 - 2) / sqrt(4 * 5 * 5 * 6)
    0.4082
    >>> float(binary_scores([5.0, 5.0, 0.0, 0.0])[0])  # always positive: MCC 0
    0.0
    """
    c = np.asarray(counts, dtype=np.float64)
    tp, fp, fn, tn = c[..., 0], c[..., 1], c[..., 2], c[..., 3]
    denominator = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
    mcc = _ratio(tp * tn - fp * fn, np.sqrt(denominator))
    p, r = _ratio(tp, tp + fp), _ratio(tp, tp + fn)
    pn, rn = _ratio(tn, tn + fn), _ratio(tn, tn + fp)
    f, fneg = _ratio(2 * p * r, p + r), _ratio(2 * pn * rn, pn + rn)
    acc = _ratio(tp + tn, tp + fp + fn + tn)
    return np.stack([mcc, p, r, f, pn, rn, fneg, acc], axis=-1)


@dataclass(frozen=True)
class BinaryBootstrap:
    """The :data:`MEASURES` of ``k`` deciders (``value``, ``(k, 8)``), their bootstrap
    interval bounds (``low``, ``high``), and how they were drawn."""

    value: np.ndarray
    low: np.ndarray
    high: np.ndarray
    n_resamples: int
    confidence: float
    seed: int | None


def bootstrap_binary(
    decisions: Any,
    gold: Any,
    *,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: Seed = None,
) -> BinaryBootstrap:
    """Percentile intervals of every measure of ``k`` deciders ``(k, n)`` against ``gold``
    ``(n,)``, all on the same resampled items (paired).

    Examples
    --------
    >>> gold = np.array([True] * 20 + [False] * 20)
    >>> b = bootstrap_binary(np.stack([gold, ~gold]), gold, n_resamples=100, seed=3)
    >>> b.value[:, 0].tolist(), float(b.low[0, 0]), float(b.high[1, 0])
    ([1.0, -1.0], 1.0, -1.0)
    """
    d = np.atleast_2d(np.asarray(decisions, dtype=bool))
    g = np.asarray(gold, dtype=bool)
    one_hot = np.stack([cells(row, g) for row in d], axis=1)  # (n, k, 4)
    n = g.shape[0]
    value = binary_scores(one_hot.sum(axis=0))
    rng, recorded = resolve_seed(seed)
    flat = one_hot.reshape(n, -1)
    dist = []
    for idx in index_batches(n, n_resamples, rng):
        w = resample_counts(idx, n)
        dist.append(binary_scores((w @ flat).reshape(w.shape[0], *one_hot.shape[1:])))
    if not dist:
        nan = np.full_like(value, np.nan)
        return BinaryBootstrap(value, nan, nan, 0, confidence, recorded)
    low, high = bootstrap_interval(np.concatenate(dist), confidence)
    return BinaryBootstrap(value, low, high, n_resamples, confidence, recorded)


def best_threshold(scores: Any, gold: Any, *, higher_is_positive: bool = True) -> float:
    """The threshold ``t`` whose decisions ``score >= t`` (``<= t`` when lower scores are
    positive) have the largest MCC against ``gold``; among equal MCCs the smallest ``t``
    (largest for ``<=``). Candidates: every distinct score.

    Examples
    --------
    >>> best_threshold([0.1, 0.4, 0.35, 0.8], [False, False, True, True])
    0.35
    >>> best_threshold([0.1, 0.4, 0.35, 0.8], [True, True, False, False],
    ...                higher_is_positive=False)
    0.4
    """
    s = np.asarray(scores, dtype=np.float64)
    g = np.asarray(gold, dtype=bool)
    if s.shape != g.shape or s.size == 0 or not np.isfinite(s).all():
        raise ValueError("expected finite scores, one per gold label")
    candidates = np.unique(s) if higher_is_positive else np.unique(s)[::-1]
    decide = s[None, :] >= candidates[:, None] if higher_is_positive else (
        s[None, :] <= candidates[:, None])  # fmt: skip
    counts = np.stack([(decide & g).sum(1), (decide & ~g).sum(1), (~decide & g).sum(1),
                       (~decide & ~g).sum(1)], axis=1)  # fmt: skip
    mcc = binary_scores(counts)[:, 0]
    return float(candidates[int(np.argmax(mcc))])
