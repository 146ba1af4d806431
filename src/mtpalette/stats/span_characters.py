"""Character-level span protocols of the shared tasks: ``wmt25`` and ``wmt23-qe``.

Both count, for every character of a segment, how many gold and predicted major and minor
spans cover it. Neither loops over characters here: the segments are laid end to end on one
axis, every span becomes two events (+1 at its start, -1 at its end, in one of four channels:
gold major, gold minor, predicted major, predicted minor), and a cumulative sum over the
sorted events gives the coverage of every *piece* (the stretch between two consecutive event
positions), which is constant over the piece. A piece's credit is its length times the credit
of one of its characters; the pieces are summed per segment with ``bincount``. The work grows
with the number of spans, not of characters.

``wmt25`` (WMT25 metrics shared task 2, severity-weighted character F1): critical counts as
major, ``undecided`` spans and omissions are left out. A character covered by ``gM``/``gm``
gold and ``pM``/``pm`` predicted major/minor spans earns
``min(gM, pM) + min(gm, pm) + 0.5 * min(lg, lp)``, where ``lg = max(0, gM - pM) + max(0, gm -
pm)`` and ``lp`` likewise are the spans left over; the predicted total is ``pM + pm`` and the
gold total ``gM + gm``, summed over the characters. An insertion point (``start == end``)
covers no character and counts for nothing, as in the organisers' scorer.

``wmt23-qe`` (WMT23 QE shared task 2): binary per position over ``len(mt) + 1`` positions (the
last one for insertions after the text). An insertion point at ``i`` marks position ``i``. A
position counts for the gold total when any gold span covers it, for the predicted total when
any predicted span does; its credit is 1 when the predicted severity matches (a gold position
with both severities matches any prediction) and 0.5 when only the other severity is
predicted. Critical counts as major (the organisers' script knows only major and minor),
``undecided`` spans and omissions are left out. Segments listed in the hallucination index
are left out by the caller, before scoring.

Both return per-segment counts (see :mod:`mtpalette.stats.span_scores`): the credit (the same
number is the numerator of precision and of recall), the predicted total and the gold total.

References
----------
WMT25 metrics shared task, task 2: wmt-conference/wmt25-mteval at d1f6ab9,
``scripts/scoring/task2/scoring_esa.py`` (``get_counts``, ``get_char_f1``; its ``avg_prec`` and
``avg_rec`` lines print the mean recall and the mean precision respectively). WMT23 QE shared
task 2: WMT-QE-Task/qe-eval-scripts at b7cc5e5, ``wmt23/task2_evaluate.py``
(``load_annotations``, ``score_new``). Equal to both to 1e-9 on project-written files
(``scripts/spans_golden.py``, ``tests/stats/test_spans_golden.py``).
"""

from __future__ import annotations

import numpy as np

from mtpalette.stats.span_input import CRITICAL, MAJOR, MINOR, SpanArrays

#: the columns of a per-segment count array (shape ``(n_segments, 4)``)
COUNT_COLUMNS = ("tp_precision", "tp_recall", "n_pred", "n_gold")


def _channels(spans: SpanArrays, offset: int) -> tuple[np.ndarray, np.ndarray]:
    """Keep major (critical folded in) and minor spans; their channel (0 major, 1 minor)."""
    sev = spans.severity
    keep = (sev == MAJOR) | (sev == CRITICAL) | (sev == MINOR)
    channel = np.where(sev[keep] == MINOR, 1, 0) + offset
    return keep, channel


def coverage_pieces(
    gold: SpanArrays, pred: SpanArrays, offsets: np.ndarray, *, insertion_width: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Constant-coverage pieces of the concatenated segments.

    Parameters
    ----------
    gold, pred:
        The spans (severities other than minor, major and critical are left out).
    offsets:
        Where each segment starts on the concatenated axis.
    insertion_width:
        0: an insertion point covers nothing; 1: it covers the position it marks.

    Returns
    -------
    tuple
        ``(segment, length, coverage)``: each piece's segment, length and ``(pieces, 4)``
        coverage (gold major, gold minor, predicted major, predicted minor).

    Examples
    --------
    >>> from mtpalette.stats.span_input import pack_spans
    >>> g = pack_spans([[(0, 4, "major")]], [6])
    >>> p = pack_spans([[(2, 6, "minor")]], [6])
    >>> seg, length, cov = coverage_pieces(g, p, np.array([0]))
    >>> length.tolist(), cov.tolist()
    ([2, 2, 2], [[1, 0, 0, 0], [1, 0, 0, 1], [0, 0, 0, 1]])
    """
    parts = []
    for spans, base in ((gold, 0), (pred, 2)):
        keep, channel = _channels(spans, base)
        start = spans.start[keep] + offsets[spans.segment[keep]]
        end = spans.end[keep] + offsets[spans.segment[keep]]
        if insertion_width:
            end = np.where(end == start, end + insertion_width, end)
        parts.append((start, end, channel))
    pos = np.concatenate([p[0] for p in parts] + [p[1] for p in parts])
    chan = np.concatenate([p[2] for p in parts] * 2)
    n_open = sum(p[0].shape[0] for p in parts)
    delta = np.ones(pos.shape[0], dtype=np.int32)
    delta[n_open:] = -1
    order = np.argsort(pos, kind="stable")
    pos, chan, delta = pos[order], chan[order], delta[order]
    steps = np.zeros((pos.shape[0], 4), dtype=np.int32)
    steps[np.arange(pos.shape[0]), chan] = delta
    coverage = np.cumsum(steps, axis=0)
    last = np.ones(pos.shape[0], dtype=bool)
    last[:-1] = pos[1:] != pos[:-1]
    pos, coverage = pos[last], coverage[last]
    length = np.diff(pos)
    coverage = coverage[:-1]
    segment = np.searchsorted(offsets, pos[:-1], side="right") - 1
    return segment, length, coverage


def _per_segment(
    segment: np.ndarray, weights: list[np.ndarray], n_segments: int
) -> list[np.ndarray]:
    return [np.bincount(segment, weights=w, minlength=n_segments) for w in weights]


def wmt25_counts(
    lengths: np.ndarray, gold: SpanArrays, pred: SpanArrays, *, partial_credit: float = 0.5
) -> np.ndarray:
    """Per-segment counts of the WMT25 severity-weighted character F1.

    Parameters
    ----------
    lengths:
        Each segment's text length in characters.
    gold, pred:
        Checked spans (see :func:`mtpalette.stats.span_input.as_span_arrays`).
    partial_credit:
        Credit of a character where a gold and a predicted span disagree on severity (0.5).

    Returns
    -------
    np.ndarray
        ``(n_segments, 4)``: credit (twice: precision's and recall's numerator), predicted
        total, gold total.

    Examples
    --------
    >>> from mtpalette.stats.span_input import pack_spans
    >>> g = pack_spans([[(0, 4, "major")]], [6])
    >>> p = pack_spans([[(2, 6, "minor")]], [6])
    >>> wmt25_counts(np.array([6]), g, p).tolist()  # 2 characters of half credit
    [[1.0, 1.0, 4.0, 4.0]]
    """
    offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    segment, length, cov = coverage_pieces(gold, pred, offsets)
    gmaj, gmin, pmaj, pmin = cov.T
    full = np.minimum(gmaj, pmaj) + np.minimum(gmin, pmin)
    left_gold = np.maximum(0, gmaj - pmaj) + np.maximum(0, gmin - pmin)
    left_pred = np.maximum(0, pmaj - gmaj) + np.maximum(0, pmin - gmin)
    credit = (full + partial_credit * np.minimum(left_gold, left_pred)) * length
    tp, n_pred, n_gold = _per_segment(
        segment,
        [credit, (pmaj + pmin) * length.astype(np.float64), (gmaj + gmin) * length.astype(float)],
        gold.n_segments,
    )
    return np.column_stack([tp, tp, n_pred, n_gold])


def wmt23_qe_counts(
    lengths: np.ndarray, gold: SpanArrays, pred: SpanArrays, *, partial_credit: float = 0.5
) -> np.ndarray:
    """Per-segment counts of the WMT23 QE task-2 character F1 (``len + 1`` positions).

    Parameters
    ----------
    lengths:
        Each segment's text length in characters (the organisers use ``len(mt.strip())``).
    gold, pred:
        Checked spans.
    partial_credit:
        Credit of a position where only the other severity is predicted (0.5).

    Returns
    -------
    np.ndarray
        ``(n_segments, 4)`` as :func:`wmt25_counts`.

    Examples
    --------
    >>> from mtpalette.stats.span_input import pack_spans
    >>> g = pack_spans([[(0, 4, "major"), (6, 6, "minor")]], [6])
    >>> p = pack_spans([[(2, 6, "minor"), (6, 6, "minor")]], [6])
    >>> wmt23_qe_counts(np.array([6]), g, p).tolist()  # 2 x 0.5 + the insertion point
    [[2.0, 2.0, 5.0, 5.0]]
    """
    offsets = np.concatenate([[0], np.cumsum(np.asarray(lengths) + 1)[:-1]]).astype(np.int64)
    segment, length, cov = coverage_pieces(gold, pred, offsets, insertion_width=1)
    gmaj, gmin, pmaj, pmin = (cov > 0).T
    gold_any, pred_any = gmaj | gmin, pmaj | pmin
    exact = (gmaj & pmaj) | (gmin & pmin) | (gmaj & gmin & pred_any)
    other = gold_any & pred_any & ~exact
    credit = (exact + partial_credit * other) * length
    tp, n_pred, n_gold = _per_segment(
        segment, [credit, pred_any * length, gold_any * length], gold.n_segments
    )
    return np.column_stack([tp, tp, n_pred, n_gold])
