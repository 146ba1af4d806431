"""Span-scoring protocols: the registry, one call from spans to scores, trivial baselines.

A protocol scores an annotator's error spans (the prediction) against gold spans, segment by
segment, and returns per-segment counts that :mod:`mtpalette.stats.span_scores` turns into
precision, recall and F1 per group (language pair, system, domain), micro or macro, with
bootstrap intervals. The protocols:

========== ============================================================================
``wmt25``   WMT25 metrics task 2: severity-weighted character counts, partial credit 0.5
            for a severity mismatch, micro per language pair, mean of the pairs' F1
            (:mod:`mtpalette.stats.span_characters`)
``wmt23-qe`` WMT23 QE task 2: binary per position over ``len + 1`` positions, half credit
            for a severity mismatch (:mod:`mtpalette.stats.span_characters`)
``em``      exact match of spans, one-to-one (:mod:`mtpalette.stats.span_matching`)
``mp``      match with partial overlap
``mpp``     match with partial overlap and partial credit
``chars``   matched overlapping characters
========== ============================================================================

The matching measures (Perrella et al., 2026) follow our reading of the paper; see
:mod:`mtpalette.stats.span_matching` for what to check. Every protocol takes its input as
per-segment lists of ``(start, end, severity)`` or as :class:`SpanArrays`, and the segments'
text lengths; spans are checked (:mod:`mtpalette.stats.span_input`).

The trivial baselines (:func:`baseline_spans`): ``none`` marks no span, ``all`` marks every
character of every segment as one span of the given severity.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mtpalette.stats.span_characters import wmt23_qe_counts, wmt25_counts
from mtpalette.stats.span_input import Span, SpanArrays, as_span_arrays, severity_code
from mtpalette.stats.span_matching import matching_counts
from mtpalette.stats.span_scores import SpanScores, aggregate_counts

Counter = Callable[..., np.ndarray]


@dataclass(frozen=True)
class SpanProtocol:
    """One protocol: its name, its per-segment counter and the option that tunes it.

    ``option`` is the keyword the counter takes (``partial_credit`` or ``penalty``) and
    ``default`` its value when the caller gives none.
    """

    name: str
    counter: Counter
    option: str
    default: float
    label: str
    reference: str


def _matching(measure: str) -> Counter:
    def counter(lengths: np.ndarray, gold: SpanArrays, pred: SpanArrays, **kw: float) -> np.ndarray:
        return matching_counts(measure, lengths, gold, pred, **kw)

    return counter


_PERRELLA = "Perrella et al. (2026), arXiv 2603.19921 (our reading)"

#: the protocols by name
PROTOCOLS: dict[str, SpanProtocol] = {
    p.name: p
    for p in (
        SpanProtocol(
            "wmt25",
            wmt25_counts,
            "partial_credit",
            0.5,
            "severity-weighted character F1",
            "WMT25 metrics task 2, wmt25-mteval scripts/scoring/task2/scoring_esa.py",
        ),
        SpanProtocol(
            "wmt23-qe",
            wmt23_qe_counts,
            "partial_credit",
            0.5,
            "binary character F1 over len + 1 positions",
            "WMT23 QE task 2, qe-eval-scripts wmt23/task2_evaluate.py",
        ),
        SpanProtocol("em", _matching("em"), "penalty", 0.0, "exact span match", _PERRELLA),
        SpanProtocol(
            "mp", _matching("mp"), "penalty", 0.0, "match with partial overlap", _PERRELLA
        ),
        SpanProtocol(
            "mpp",
            _matching("mpp"),
            "penalty",
            0.0,
            "match with partial overlap and partial credit",
            _PERRELLA,
        ),
        SpanProtocol("chars", _matching("chars"), "penalty", 0.0, "matched characters", _PERRELLA),
    )
}


def protocol(name: str) -> SpanProtocol:
    """The protocol of that name, or a ValueError listing the known ones.

    Examples
    --------
    >>> protocol("wmt25").option
    'partial_credit'
    """
    try:
        return PROTOCOLS[name]
    except KeyError:
        raise ValueError(
            f"unknown span protocol {name!r}; expected one of {', '.join(PROTOCOLS)}"
        ) from None


SpansIn = SpanArrays | Sequence[Sequence[Span]]


def span_counts(
    name: str,
    lengths: Sequence[int] | np.ndarray,
    gold: SpansIn,
    pred: SpansIn,
    *,
    penalty: float | None = None,
    partial_credit: float | None = None,
) -> np.ndarray:
    """Per-segment counts of a protocol: ``(n_segments, 4)`` credit for precision, credit
    for recall, predicted total, gold total.

    Parameters
    ----------
    name:
        A protocol of :data:`PROTOCOLS`.
    lengths:
        Each segment's text length in characters.
    gold, pred:
        Per-segment lists of ``(start, end, severity)`` or :class:`SpanArrays`.
    penalty:
        Severity penalty of the matching measures (default 0).
    partial_credit:
        Credit of a severity mismatch in ``wmt25`` and ``wmt23-qe`` (default 0.5).

    Examples
    --------
    >>> gold = [[(0, 4, "major")], []]
    >>> pred = [[(0, 4, "minor")], [(1, 2, "minor")]]
    >>> span_counts("wmt25", [6, 3], gold, pred).tolist()
    [[2.0, 2.0, 4.0, 4.0], [0.0, 0.0, 1.0, 0.0]]
    >>> span_counts("em", [6, 3], gold, pred, penalty=1.0).tolist()
    [[0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 0.0]]
    """
    proto = protocol(name)
    given = {"penalty": penalty, "partial_credit": partial_credit}
    for key, value in given.items():
        if value is not None and key != proto.option:
            raise ValueError(f"protocol {name!r} takes no {key}; its option is {proto.option}")
    n = np.asarray(lengths, dtype=np.int64)
    g = as_span_arrays(gold, n, name="gold")
    p = as_span_arrays(pred, n, name="prediction")
    if g.n_segments != p.n_segments:
        raise ValueError(f"gold has {g.n_segments} segments, the prediction {p.n_segments}")
    value = given[proto.option]
    return proto.counter(n, g, p, **{proto.option: proto.default if value is None else value})


def score_spans(
    name: str,
    lengths: Sequence[int] | np.ndarray,
    gold: SpansIn,
    pred: SpansIn,
    groups: Any = None,
    *,
    average: str = "micro",
    both_empty: str = "perfect",
    penalty: float | None = None,
    partial_credit: float | None = None,
) -> SpanScores:
    """Scores of a protocol per group: :func:`span_counts` then
    :func:`~mtpalette.stats.span_scores.aggregate_counts`.

    Examples
    --------
    >>> s = score_spans("wmt25", [4, 4], [[(0, 2, "major")], [(0, 4, "minor")]],
    ...                 [[(0, 2, "major")], []], ["en-de", "en-ja"])
    >>> s.f1.tolist(), s.mean[2]  # en-ja: nothing predicted, recall 0
    ([1.0, 0.0], 0.5)
    """
    counts = span_counts(name, lengths, gold, pred, penalty=penalty, partial_credit=partial_credit)
    return aggregate_counts(counts, groups, average=average, both_empty=both_empty)


BASELINES = ("none", "all")


def baseline_spans(
    kind: str, lengths: Sequence[int] | np.ndarray, *, severity: str = "major"
) -> SpanArrays:
    """A trivial annotator: ``none`` (no span at all) or ``all`` (every character an error).

    ``all`` gives each non-empty segment one span ``(0, length)`` of ``severity``.

    Examples
    --------
    >>> b = baseline_spans("all", [3, 0, 5], severity="minor")
    >>> b.segment.tolist(), b.end.tolist(), b.severity.tolist()
    ([0, 2], [3, 5], [0, 0])
    >>> len(baseline_spans("none", [3, 0, 5]))
    0
    """
    n = np.asarray(lengths, dtype=np.int64)
    code = severity_code(severity)
    if kind == "none":
        empty = np.zeros(0, dtype=np.int64)
        return SpanArrays(empty, empty, empty, empty, n.shape[0])
    if kind == "all":
        seg = np.flatnonzero(n > 0)
        return SpanArrays(seg, np.zeros_like(seg), n[seg], np.full_like(seg, code), n.shape[0])
    raise ValueError(f"unknown baseline {kind!r}; expected one of {', '.join(BASELINES)}")
