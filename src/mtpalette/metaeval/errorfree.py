"""Error-free detection (WMT26 metrics subtask 3): is this translation free of errors?

Gold (:func:`gold_labels`): a segment is error-free when its score is at least ``min_score``
(ESA: 85) **and** no span is marked on it (by default any span, whatever its severity,
omissions and ``undecided`` marks included; ``span_rule="major"``: only major and critical
spans count; ``"ignore"``: the score alone). Where the gold row has no score, error-free
means no span; where the row carries an explicit ``error_free`` label, the label is taken.

Predictions (:func:`decisions`): a label per segment (the rows' ``error_free`` field), or a
score with a threshold (``score >= threshold``: error-free; ``lower_is_better`` for an error
score such as MetricX), or spans (no span: error-free). A threshold may be chosen on another
split (:func:`~mtpalette.stats.binary.best_threshold`, largest MCC) and applied here; it is
never chosen on the segments it is scored on (the caller refuses overlapping splits).

:func:`evaluate_errorfree` scores each predictor per language pair and over all segments
(``lp = "all"``: the pooled confusion matrix, not a mean over pairs), with the two
always-one-class baselines and paired bootstrap intervals over segments
(:func:`~mtpalette.stats.binary.bootstrap_binary`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.io.spans import Key, SpanRow, SpanSet
from mtpalette.metaeval.spans import one_row_per_key
from mtpalette.metrics.base import Signature
from mtpalette.records import Record, constant, frame, latex_text
from mtpalette.stats.binary import MEASURES, binary_scores, bootstrap_binary, cells

SPAN_RULES = ("any", "major", "ignore")
SOURCES = ("auto", "label", "score", "spans")
#: the always-one-class baselines
BASELINES = {"always-error-free": True, "always-erroneous": False}


def _has_error(row: SpanRow, rule: str) -> bool:
    if rule == "ignore":
        return False
    if rule == "major":
        return any(s.severity in ("major", "critical") for s in row.spans)
    return bool(row.spans)


def gold_labels(
    gold: SpanSet, *, min_score: float | None = 85.0, span_rule: str = "any"
) -> dict[Key, bool]:
    """Each gold segment's label: error-free (True) or not.

    Examples
    --------
    >>> from mtpalette.io.spans import Span
    >>> rows = (SpanRow("en-de", "A", None, 0, None, (), score=90.0),
    ...         SpanRow("en-de", "A", None, 1, None, (), score=80.0),
    ...         SpanRow("en-de", "A", None, 2, None, (Span(0, 1, "minor"),), score=95.0),
    ...         SpanRow("en-de", "A", None, 3, None, ()))
    >>> list(gold_labels(SpanSet(rows, "g", "esa-csv")).values())
    [True, False, False, True]
    >>> list(gold_labels(SpanSet(rows, "g", "esa-csv"), span_rule="major").values())
    [True, False, True, True]
    """
    if span_rule not in SPAN_RULES:
        raise UserInputError(f"the span rule must be one of {', '.join(SPAN_RULES)}")
    out = {}
    for key, (r, _) in one_row_per_key(gold, "gold").items():
        if r.error_free is not None:
            out[key] = bool(r.error_free)
            continue
        scored_ok = min_score is None or r.score is None or r.score >= min_score
        out[key] = scored_ok and not _has_error(r, span_rule)
    return out


def source_of(pred: SpanSet, source: str, threshold: float | None) -> str:
    """What the decisions of ``pred`` are read from: ``label`` when every row has one (in
    ``auto``), ``score`` when a threshold is given, else ``spans``.

    Examples
    --------
    >>> source_of(SpanSet((SpanRow(None, "A", None, 0, None, (), score=0.3),), "p", "x"),
    ...           "auto", 0.5)
    'score'
    """
    if source not in SOURCES:
        raise UserInputError(f"the decision source must be one of {', '.join(SOURCES)}")
    if source != "auto":
        return source
    if len(pred) and all(r.error_free is not None for r in pred):
        return "label"
    return "score" if threshold is not None else "spans"


def decisions(
    rows: Sequence[tuple[SpanRow, int | None]],
    source: str,
    *,
    path: str,
    threshold: float | None = None,
    lower_is_better: bool = False,
    span_rule: str = "any",
) -> np.ndarray:
    """Each row's decision (True: error-free) from its label, score or spans; a row without
    the label or score asked for is refused with the file and line.

    Examples
    --------
    >>> rows = [(SpanRow(None, "A", None, i, None, (), score=s), i + 1)
    ...         for i, s in enumerate([0.2, 0.9])]
    >>> decisions(rows, "score", path="p", threshold=0.5).tolist()
    [False, True]
    """
    out = np.empty(len(rows), dtype=bool)
    for i, (r, line) in enumerate(rows):
        if source == "label":
            if r.error_free is None:
                raise UserInputError("no error_free label for this segment", path=path, line=line)
            out[i] = r.error_free
        elif source == "score":
            if threshold is None:
                raise UserInputError("scores need a threshold: --threshold T or --tune-on")
            if r.score is None or not np.isfinite(r.score):
                raise UserInputError("no score for this segment", path=path, line=line)
            out[i] = r.score <= threshold if lower_is_better else r.score >= threshold
        else:
            out[i] = not _has_error(r, span_rule)
    return out


def aligned(gold: Mapping[Key, bool], pred: SpanSet, name: str, *, on_missing: str = "refuse"
            ) -> tuple[list[Key], list[tuple[SpanRow, int | None]], list[str]]:  # fmt: skip
    """The gold keys a prediction has, its rows on them, and notes; keys one side lacks are
    refused (``on_missing="refuse"``) or left out with a note (``"common"``).

    Examples
    --------
    >>> p = SpanSet((SpanRow(None, "A", None, 0, None, ()),), "p.jsonl", "generic-jsonl")
    >>> aligned({(None, "A", None, 0): True}, p, "p")[0]
    [(None, 'A', None, 0)]
    """
    rows = one_row_per_key(pred, name)
    lacking = [k for k in gold if k not in rows]
    extra = [k for k in rows if k not in gold]
    notes = []
    if lacking or extra:
        said = f"{name}: {len(lacking)} gold segment(s) without a prediction, {len(extra)} " \
               "prediction(s) for segments not in the gold"  # fmt: skip
        if on_missing != "common":
            shown = "/".join(str(x) for x in (lacking or extra)[0])
            raise UserInputError(f"{said} (first: {shown}): the keys must match exactly; "
                                 "score the shared segments with --on-missing common",
                                 path=pred.path)  # fmt: skip
        notes.append(said + "; scored on the shared segments")
    keys = [k for k in gold if k in rows]
    if not keys:
        raise UserInputError(f"{name}: no segment in common with the gold", path=pred.path)
    return keys, [rows[k] for k in keys], notes


@dataclass(frozen=True)
class ErrorFreeRow(Record):
    """One predictor (or baseline) on one language pair (``"all"``: every segment pooled):
    MCC first, then precision, recall and F1 of the error-free class, of the erroneous class,
    accuracy, the confusion counts (positive: error-free) and the bootstrap bounds."""

    metric: str
    kind: str
    lp: str
    mcc: float
    precision: float
    recall: float
    f1: float
    precision_erroneous: float
    recall_erroneous: float
    f1_erroneous: float
    accuracy: float
    tp: int
    fp: int
    fn: int
    tn: int
    segments: int
    threshold: float | None = None
    mcc_low: float | None = None
    mcc_high: float | None = None
    f1_low: float | None = None
    f1_high: float | None = None
    accuracy_low: float | None = None
    accuracy_high: float | None = None


@dataclass(frozen=True)
class ErrorFreeEvaluation(Record):
    """Every predictor's rows, how the gold and decisions were made, notes, signatures."""

    rows: list[ErrorFreeRow]
    sources: dict[str, str]
    min_score: float | None
    span_rule: str
    n_resamples: int
    seed: int | None
    signatures: dict[str, str]
    notes: list[str] = field(default_factory=list)
    all_row = constant("lp 'all': every segment pooled (one confusion matrix), not a mean "
                       "over language pairs; positive class: error-free", first=True)  # fmt: skip

    def to_pandas(self):
        """One row per (metric, lp)."""
        return frame(r.to_dict() for r in self.rows)

    def row(self, metric: str, lp: str = "all") -> ErrorFreeRow:
        return next(r for r in self.rows if (r.metric, r.lp) == (metric, lp))

    def to_latex(self, *, digits: int = 3) -> str:
        """The ``all`` rows: predictor, MCC, P, R, F1 (error-free class), accuracy."""
        lines = ["\\begin{tabular}{lrrrrr}", "\\toprule",
                 "Predictor & MCC & P & R & F1 & Acc. \\\\", "\\midrule"]  # fmt: skip
        for r in self.rows:
            if r.lp == "all":
                v = (r.mcc, r.precision, r.recall, r.f1, r.accuracy)
                lines.append(latex_text(r.metric) + "".join(f" & {x:.{digits}f}" for x in v)
                             + " \\\\")  # fmt: skip
        lines += ["\\bottomrule", "\\end{tabular}"]
        return "\n".join(lines) + "\n"


def _rows(name, kind, d, g, lps, boot_k, boot, threshold) -> list[ErrorFreeRow]:
    out = []
    groups = [*sorted(set(lps)), "all"]
    lp_arr = np.asarray(lps)
    for lp in groups:
        keep = np.ones(len(g), bool) if lp == "all" else lp_arr == lp
        counts = cells(d[keep], g[keep]).sum(axis=0)
        v = binary_scores(counts)
        bounds = {}
        if boot is not None and lp == "all":
            for m in ("mcc", "f1", "accuracy"):
                j = MEASURES.index(m)
                bounds[f"{m}_low"], bounds[f"{m}_high"] = (float(boot.low[boot_k, j]),
                                                           float(boot.high[boot_k, j]))  # fmt: skip
        out.append(ErrorFreeRow(name, kind, lp, *(float(x) for x in v[:8]),
                                *(int(x) for x in counts), int(keep.sum()), threshold,
                                **bounds))  # fmt: skip
    return out


def evaluate_errorfree(
    gold: Mapping[Key, bool],
    predictions: Mapping[str, tuple[list[Key], np.ndarray]],
    *,
    thresholds: Mapping[str, float | None] | None = None,
    n_resamples: int = 1000,
    seed: int | None = 12345,
    confidence: float = 0.95,
    settings: Mapping[str, Any] | None = None,
    notes: Sequence[str] = (),
) -> ErrorFreeEvaluation:
    """Score each predictor's decisions (``{name: (keys, decisions)}``) against ``gold``.

    Every predictor and the baselines are scored on the keys all predictors share (each
    key's language pair is its first element); intervals over those segments, paired.

    Examples
    --------
    >>> gold = {("en-de", "A", None, i): v for i, v in enumerate([True, True, False, False])}
    >>> keys = list(gold)
    >>> ev = evaluate_errorfree(gold, {"m": (keys, np.array([True, False, False, False]))},
    ...                         n_resamples=0)
    >>> r = ev.row("m")
    >>> round(r.mcc, 4), r.precision, r.recall, (r.tp, r.fp, r.fn, r.tn)
    (0.5774, 1.0, 0.5, (1, 0, 1, 2))
    >>> ev.row("always-error-free").mcc, ev.row("always-error-free").recall
    (0.0, 1.0)
    """
    clash = [n for n in predictions if n in BASELINES]
    if clash:  # two rows of one name: row() and the thresholds would take either
        raise UserInputError(f"prediction name(s) {', '.join(clash)} are taken by a baseline: "
                             "choose other names")  # fmt: skip
    shared = [k for k in gold if all(k in set(keys) for keys, _ in predictions.values())]
    at = {k: i for i, k in enumerate(shared)}
    g = np.array([gold[k] for k in shared], dtype=bool)
    lps = [str(k[0]) for k in shared]
    names, rows_d, kinds = [], [], []
    for name, (keys, d) in predictions.items():
        pick = np.full(len(shared), -1)
        for i, k in enumerate(keys):
            if k in at:
                pick[at[k]] = i
        names.append(name)
        rows_d.append(np.asarray(d, dtype=bool)[pick])
        kinds.append("predictor")
    for name, value in BASELINES.items():
        names.append(name)
        rows_d.append(np.full(len(shared), value))
        kinds.append("baseline")
    boot = (bootstrap_binary(np.stack(rows_d), g, n_resamples=n_resamples, seed=seed,
                             confidence=confidence) if n_resamples else None)  # fmt: skip
    thresholds = thresholds or {}
    rows = []
    for k, (name, d, kind) in enumerate(zip(names, rows_d, kinds, strict=True)):
        rows += _rows(name, kind, d, g, lps, k, boot, thresholds.get(name))
    s = dict(settings or {})
    sigs = {n: str(errorfree_signature(n, thresholds.get(n), n_resamples, seed, s))
            for n in predictions}  # fmt: skip
    return ErrorFreeEvaluation(rows, dict(s.get("sources", {})), s.get("min_score", 85.0),
                               s.get("span_rule", "any"), n_resamples,
                               seed if n_resamples else None, sigs, list(notes))  # fmt: skip


def errorfree_signature(name: str, threshold: float | None, n_resamples: int,
                        seed: int | None, settings: Mapping[str, Any]) -> Signature:  # fmt: skip
    """The gold rule, the decision source and threshold (where it was tuned), the resamples.

    Examples
    --------
    >>> s = errorfree_signature("m", 0.5, 0, None, {"min_score": 85.0})
    >>> str(s).split("|")[:2], str(s.fields["gold"])
    (['m', 'what:errorfree'], 'errorfree-gold|min-score:85.0|spans:any')
    """
    from mtpalette._version import __version__

    gold = Signature("errorfree-gold", {"min-score": settings.get("min_score", 85.0),
                                        "spans": settings.get("span_rule", "any")},
                     None)  # fmt: skip
    fields: dict[str, Any] = {"what": "errorfree", "gold": gold,
                              "from": settings.get("sources", {}).get(name, "auto")}  # fmt: skip
    if threshold is not None:
        fields["threshold"] = threshold
        fields["tuned-on"] = settings.get("tuned_on", {}).get(name, "given")
    fields["all"] = "pooled"
    if n_resamples:
        fields |= {"resamples": n_resamples, "seed": seed}
    return Signature(name, fields, __version__)


def _same_file(a: Any, b: Any) -> bool:
    import os

    pa = a.path if isinstance(a, SpanSet) else str(a)
    pb = b.path if isinstance(b, SpanSet) else str(b)
    try:
        return os.path.samefile(pa, pb)
    except OSError:
        return pa == pb


def tuned_threshold(name, dev, dev_gold, test_keys, *, read, span_rule, min_score, lower, test):
    """The threshold of largest MCC on the dev split (refused: the test file, or a dev
    segment that is also a test segment)."""
    from mtpalette.stats.binary import best_threshold

    if _same_file(dev, test):
        raise UserInputError(f"--tune-on {name}: the tuning file is the test file; a threshold "
                             "chosen on the test data would score itself")  # fmt: skip
    labels = gold_labels(read(dev_gold), min_score=min_score, span_rule=span_rule)
    dev_set = read(dev)
    keys, rows, _ = aligned(labels, dev_set, f"{name} (tuning)", on_missing="common")
    shared = set(keys) & set(test_keys)
    if shared:
        first = "/".join(str(x) for x in sorted(shared, key=str)[0])
        raise UserInputError(f"--tune-on {name}: {len(shared)} tuning segment(s) are test "
                             f"segments (first: {first}); tune on another split",
                             path=dev_set.path)  # fmt: skip
    missing = [line for r, line in rows if r.score is None]
    if missing:
        raise UserInputError("a tuning segment has no score", path=dev_set.path, line=missing[0])
    scores = [r.score for r, _ in rows]
    return best_threshold(scores, [labels[k] for k in keys], higher_is_positive=not lower)


def decided(labels: Mapping[Key, bool], pred: Mapping[str, Any], *, read, source: str,
            threshold: float | None, lower_is_better: bool, tune_on: Mapping[str, Any],
            tune_gold: Any, span_rule: str, min_score: float | None, on_missing: str):  # fmt: skip
    """Every predictor's decisions aligned with the gold ``labels``: ``pred`` maps names to
    span files or sets (``read`` reads them), each decided from its ``source`` with the
    ``threshold``, or the one tuned on its ``tune_on`` split (:func:`tuned_threshold`).
    Returns ``(made, notes, settings)``: name to (keys, decisions), the alignment notes, and
    each predictor's source, threshold and tuning file (``sources``, ``thresholds``,
    ``tuned_on``)."""
    from pathlib import Path

    made, notes, sources, thresholds, tuned = {}, [], {}, {}, {}
    for name, given in pred.items():
        spans = read(given)
        keys, rows, said = aligned(labels, spans, name, on_missing=on_missing)
        notes += said
        t = threshold
        if name in tune_on:
            t = tuned_threshold(name, tune_on[name], tune_gold, keys, read=read,
                                span_rule=span_rule, min_score=min_score, lower=lower_is_better,
                                test=given)  # fmt: skip
            tuned[name] = Path(str(getattr(tune_on[name], "path", tune_on[name]))).name
        sources[name] = source_of(spans, "score" if name in tune_on else source, t)
        thresholds[name] = t if sources[name] == "score" else None
        made[name] = (keys, decisions(rows, sources[name], path=spans.path, threshold=t,
                                      lower_is_better=lower_is_better, span_rule=span_rule))
    return made, notes, {"sources": sources, "thresholds": thresholds, "tuned_on": tuned}

