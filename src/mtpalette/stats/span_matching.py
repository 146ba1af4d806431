"""Matching-based span measures ``em``, ``mp``, ``mpp`` and ``chars`` (Perrella et al., 2026).

Each predicted span may be matched to at most one gold span of the same segment and the other
way round; the matching chosen is one of largest total weight
(``scipy.optimize.linear_sum_assignment``), computed for each measure with its own weight. A
pair's weight is its measure's credit times a severity factor: 1 when the two severities are
equal, ``1 - penalty`` when not (``penalty`` 0 by default: severity ignored; 1: a severity
mismatch earns nothing). Critical counts as major; ``undecided`` spans and omissions are left
out (they mark no scorable place).

.. important::
   These definitions are **our reading** of arXiv 2603.19921 ("Span-Level Machine Translation
   Meta-Evaluation", Perrella, Morales Agostinho and Zaragoza, 2026): the paper's body could not
   be consulted while this module was written (only its abstract and the names of the
   measures), and its code (CC-BY-NC) was deliberately not read. Check against the paper
   (its section defining the measures) before quoting numbers as the paper's:

   * ``em`` (exact match): credit 1 for a pair with the same start and end.
   * ``mp`` (match with partial overlap): credit 1 for a pair that shares at least one
     character.
   * ``mpp`` (match with partial overlap and partial credit): a matched pair credits the
     predicted span with ``overlap / len(pred)`` (precision's numerator) and the gold span
     with ``overlap / len(gold)`` (recall's); the matching maximises their sum.
   * ``chars`` (character counts): credit ``overlap`` characters; precision and recall
     divide by the predicted and the gold characters rather than spans.

   Precision is the credit over the number of predicted spans (characters for ``chars``),
   recall the credit over the number of gold spans. An insertion point (``start == end``)
   is one position wide for overlaps (it covers position ``start`` of ``len + 1``, the WMT23
   QE convention) and equals only an insertion point at the same place for ``em``.

Counts come back per segment (credit for precision, credit for recall, predicted total, gold
total) and are averaged by :mod:`mtpalette.stats.span_scores` (micro: pooled counts; macro:
mean of per-segment scores, with the options for empty segments there).

Work: pairs are formed for all segments at once; a segment with one span on either side takes
its best pair with a vectorised maximum, and only segments with at least two spans on both
sides call the assignment solver.

References
----------
Perrella, Morales Agostinho and Zaragoza (2026), Span-Level Machine Translation
Meta-Evaluation, arXiv 2603.19921 (names of the measures; definitions our reading, see above).
Kuhn (1955), The Hungarian method for the assignment problem; scipy's
``linear_sum_assignment`` (Crouse, 2016).
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linear_sum_assignment

from mtpalette.stats.span_input import CRITICAL, MAJOR, MINOR, SpanArrays

#: the matching measures, each a credit per pair
MATCHING_MEASURES = ("em", "mp", "mpp", "chars")


def _scorable(spans: SpanArrays) -> SpanArrays:
    sev = spans.severity
    kept = spans.where((sev == MAJOR) | (sev == CRITICAL) | (sev == MINOR))
    folded = np.where(kept.severity == CRITICAL, MAJOR, kept.severity)
    return SpanArrays(kept.segment, kept.start, kept.end, folded, kept.n_segments)


def _sorted_by_segment(spans: SpanArrays) -> SpanArrays:
    return spans.where(np.argsort(spans.segment, kind="stable"))


def _pairs(gold: SpanArrays, pred: SpanArrays) -> tuple[np.ndarray, np.ndarray]:
    """All (pred index, gold index) pairs of the same segment (both sorted by segment)."""
    n = gold.n_segments
    n_gold = np.bincount(gold.segment, minlength=n)
    gold_first = np.concatenate([[0], np.cumsum(n_gold)[:-1]])
    per_pred = n_gold[pred.segment]
    p_idx = np.repeat(np.arange(len(pred)), per_pred)
    # position of each pair inside its predicted span's block of gold spans
    block_start = np.repeat(np.cumsum(per_pred) - per_pred, per_pred)
    within = np.arange(p_idx.shape[0]) - block_start
    g_idx = gold_first[pred.segment[p_idx]] + within
    return p_idx, g_idx


def _widths(spans: SpanArrays) -> np.ndarray:
    return np.maximum(spans.end - spans.start, 1)


def pair_credits(
    measure: str,
    gold: SpanArrays,
    pred: SpanArrays,
    p_idx: np.ndarray,
    g_idx: np.ndarray,
    *,
    penalty: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each pair's matching weight and its credits towards precision and recall.

    Examples
    --------
    >>> from mtpalette.stats.span_input import pack_spans
    >>> g, p = pack_spans([[(0, 4, "major")]], [8]), pack_spans([[(2, 8, "minor")]], [8])
    >>> w, cp, cr = pair_credits("mpp", g, p, np.array([0]), np.array([0]), penalty=0.5)
    >>> float(cp[0]), float(cr[0])  # 2 of 6 and 2 of 4 characters, halved for the severity
    (0.16666666666666666, 0.25)
    """
    ps, pe = pred.start[p_idx], pred.end[p_idx]
    gs, ge = gold.start[g_idx], gold.end[g_idx]
    severity = np.where(pred.severity[p_idx] == gold.severity[g_idx], 1.0, 1.0 - penalty)
    if measure == "em":
        credit = ((ps == gs) & (pe == ge)) * severity
        return credit, credit, credit
    overlap = np.maximum(
        0, np.minimum(np.maximum(pe, ps + 1), np.maximum(ge, gs + 1)) - np.maximum(ps, gs)
    ).astype(np.float64)
    if measure == "mp":
        credit = (overlap > 0) * severity
        return credit, credit, credit
    if measure == "chars":
        credit = overlap * severity
        return credit, credit, credit
    if measure == "mpp":
        cp = overlap / _widths(pred)[p_idx] * severity
        cr = overlap / _widths(gold)[g_idx] * severity
        return cp + cr, cp, cr
    raise ValueError(f"unknown matching measure {measure!r}; expected one of {MATCHING_MEASURES}")


def _solve_blocks(
    seg: np.ndarray, p_idx: np.ndarray, g_idx: np.ndarray, weight: np.ndarray
) -> np.ndarray:
    """The chosen pairs (a boolean per pair) of segments with >= 2 spans on both sides."""
    chosen = np.zeros(seg.shape[0], dtype=bool)
    bounds = np.flatnonzero(np.diff(seg)) + 1
    for lo, hi in zip(np.r_[0, bounds], np.r_[bounds, seg.shape[0]], strict=True):
        p_codes, p_local = np.unique(p_idx[lo:hi], return_inverse=True)
        g_codes, g_local = np.unique(g_idx[lo:hi], return_inverse=True)
        matrix = np.zeros((p_codes.shape[0], g_codes.shape[0]))
        matrix[p_local, g_local] = weight[lo:hi]
        rows, cols = linear_sum_assignment(matrix, maximize=True)
        lookup = np.full(matrix.shape, -1, dtype=np.int64)
        lookup[p_local, g_local] = np.arange(lo, hi)
        chosen[lookup[rows, cols]] = True
    return chosen


def _choose(
    seg: np.ndarray,
    p_idx: np.ndarray,
    g_idx: np.ndarray,
    weight: np.ndarray,
    n_pred: np.ndarray,
    n_gold: np.ndarray,
) -> np.ndarray:
    """Pairs of a maximum-weight one-to-one matching, per segment."""
    chosen = np.zeros(seg.shape[0], dtype=bool)
    single = (n_pred[seg] == 1) | (n_gold[seg] == 1)
    if single.any():
        idx = np.flatnonzero(single)
        # best pair of each such segment: sort by (segment, -weight), take the first
        order = idx[np.lexsort((-weight[idx], seg[idx]))]
        first = np.ones(order.shape[0], dtype=bool)
        first[1:] = seg[order][1:] != seg[order][:-1]
        chosen[order[first]] = True
    multi = np.flatnonzero(~single)
    if multi.size:
        chosen[multi] = _solve_blocks(seg[multi], p_idx[multi], g_idx[multi], weight[multi])
    return chosen & (weight > 0)


def matching_counts(
    measure: str, lengths: np.ndarray, gold: SpanArrays, pred: SpanArrays, *, penalty: float = 0.0
) -> np.ndarray:
    """Per-segment counts of a matching measure (``em``, ``mp``, ``mpp`` or ``chars``).

    Parameters
    ----------
    measure:
        One of :data:`MATCHING_MEASURES`.
    lengths:
        Each segment's text length (the offsets are checked against it by the caller).
    gold, pred:
        Checked spans.
    penalty:
        Severity penalty ``p`` in [0, 1]: a pair of different severities earns ``1 - p``
        of its credit.

    Returns
    -------
    np.ndarray
        ``(n_segments, 4)``: credit towards precision, credit towards recall, predicted total
        and gold total (spans, or characters for ``chars``).

    Examples
    --------
    >>> from mtpalette.stats.span_input import pack_spans
    >>> g = pack_spans([[(0, 4, "major"), (10, 12, "minor")]], [20])
    >>> p = pack_spans([[(0, 4, "major"), (11, 15, "minor"), (16, 18, "major")]], [20])
    >>> matching_counts("em", np.array([20]), g, p).tolist()
    [[1.0, 1.0, 3.0, 2.0]]
    >>> matching_counts("mp", np.array([20]), g, p).tolist()
    [[2.0, 2.0, 3.0, 2.0]]
    >>> matching_counts("chars", np.array([20]), g, p).tolist()
    [[5.0, 5.0, 10.0, 6.0]]
    """
    if measure not in MATCHING_MEASURES:
        raise ValueError(
            f"unknown matching measure {measure!r}; expected one of {MATCHING_MEASURES}"
        )
    if not 0.0 <= penalty <= 1.0:
        raise ValueError(f"the severity penalty must be in [0, 1], got {penalty}")
    gold, pred = _sorted_by_segment(_scorable(gold)), _sorted_by_segment(_scorable(pred))
    n = gold.n_segments
    n_gold = np.bincount(gold.segment, minlength=n)
    n_pred = np.bincount(pred.segment, minlength=n)
    if measure == "chars":
        pred_total = np.bincount(pred.segment, weights=_widths(pred), minlength=n)
        gold_total = np.bincount(gold.segment, weights=_widths(gold), minlength=n)
    else:
        pred_total, gold_total = n_pred.astype(np.float64), n_gold.astype(np.float64)
    p_idx, g_idx = _pairs(gold, pred)
    weight, credit_p, credit_r = pair_credits(measure, gold, pred, p_idx, g_idx, penalty=penalty)
    seg = pred.segment[p_idx]
    chosen = _choose(seg, p_idx, g_idx, weight, n_pred, n_gold)
    tp_p = np.bincount(seg[chosen], weights=credit_p[chosen], minlength=n)
    tp_r = np.bincount(seg[chosen], weights=credit_r[chosen], minlength=n)
    return np.column_stack([tp_p, tp_r, pred_total, gold_total])
