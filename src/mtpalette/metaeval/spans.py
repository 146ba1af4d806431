"""Span annotators meta-evaluated: gold spans against named predictions, under any protocol.

:func:`align_spans` joins a gold :class:`~mtpalette.io.spans.SpanSet` and named prediction
sets segment by segment: keys must match exactly (a segment one side lacks is counted, named
in a note, and refused unless ``on_missing="common"``), texts must agree where both carry one
(:func:`~mtpalette.io.spans.check_texts_agree`), and the segments of an exclusion list (the
WMT23 QE hallucination index: language pair and segment) are left out. The trivial baselines
(``none``: no span; ``all``: every character an error) join as annotators marked
``baseline``; a second human annotation of the same segments joins as the ``ceiling``
(human-vs-human agreement). :func:`same_text_pair` builds such a pair from one file whose
raters each rated other systems' outputs (Google's MQM TED): the segments two raters rated
with the same text.

:func:`evaluate_spans` scores every annotator under every protocol
(:mod:`mtpalette.stats.spans`), per language pair (micro or macro within the pair), with the
``lp = "all"`` row the **unweighted mean over language pairs** of precision, recall and F1
(WMT25's and WMT23 QE's overall figure), and on request per MT system or per domain within
each pair. Intervals: a stratified paired bootstrap over segments
(:func:`~mtpalette.stats.span_scores.bootstrap_span_scores`, seeded). The annotators (not the
baselines or the ceiling) are compared pairwise on the ``all`` F1 with the paired bootstrap of
``rank`` (:func:`~mtpalette.stats.span_scores.pairwise_p_values`), corrected, and given rank
ranges and clusters by :mod:`mtpalette.stats.ranking`, as ``rank`` does.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.io.spans import Key, SpanRow, SpanSet, check_texts_agree
from mtpalette.metrics.base import Signature
from mtpalette.records import Record, constant, frame, latex_text, out
from mtpalette.stats import ranking as rk
from mtpalette.stats.span_input import SEVERITIES, SpanArrays
from mtpalette.stats.span_scores import (
    aggregate_counts,
    bootstrap_span_scores,
    pairwise_p_values,
    prf,
    stack_counts,
)
from mtpalette.stats.spans import BASELINES, PROTOCOLS, baseline_spans, protocol, span_counts

#: what a row's annotator is
KINDS = ("annotator", "ceiling", "baseline")
#: what a segment one side lacks does: refused, or the segments both have scored
MISSING_RULES = ("refuse", "common")
#: groups below the language pair
BY = ("lp", "system", "domain")


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused for the block (restored after).

    Reading and aligning span files makes millions of small tuples and rows that hold no
    reference cycle; every so many of them the collector would traverse every live row, which
    made a WMT25-sized alignment about 7 times slower (and the reading twice). Nothing is
    left uncollected: reference counting frees what has no cycle, and the collector runs
    again after the block.

    Examples
    --------
    >>> with collector_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _key_text(key: Key) -> str:
    return "/".join(str(x) for x in key)


@dataclass(frozen=True)
class SpanJob:
    """Gold and predicted spans aligned on the same segments, ready for the protocols.

    Attributes
    ----------
    keys, texts:
        Each segment's key ``(lp, system, doc, segment)`` and text.
    lengths:
        Each text's length in characters.
    lps, systems, domains:
        Each segment's language pair, MT system and domain (None where unknown).
    gold:
        The gold spans (target side).
    annotators:
        The scored annotations by name, in order; ``kinds`` says what each is.
    notes:
        What the alignment left out or changed, in words.
    """

    keys: list[Key]
    texts: list[str]
    lengths: np.ndarray
    lps: list[str]
    systems: list[str]
    domains: list[str | None]
    gold: SpanArrays
    annotators: dict[str, SpanArrays]
    kinds: dict[str, str]
    notes: list[str] = field(default_factory=list)


def one_row_per_key(spans: SpanSet, what: str) -> dict[Key, tuple[SpanRow, int | None]]:
    """Each key's row and line; a key annotated twice is refused with the file and line.

    Examples
    --------
    >>> ss = SpanSet((SpanRow("en-de", "A", "d", 0, "x", ()),), "g.jsonl", "generic-jsonl")
    >>> list(one_row_per_key(ss, "gold"))
    [('en-de', 'A', 'd', 0)]
    """
    rows: dict[Key, tuple[SpanRow, int | None]] = {r.key(): (r, ln) for r, ln in spans.located()}
    if len(rows) == len(spans):
        return rows
    rows = {}
    for r, line in spans.located():
        if r.key() in rows:
            first = rows[r.key()][0]
            raise UserInputError(
                f"{what}: segment {_key_text(r.key())} is annotated twice (by "
                f"{first.annotator!r} and {r.annotator!r}); choose one annotator "
                "(FILE,annotator=NAME)",
                path=spans.path,
                line=line,
            )
        rows[r.key()] = (r, line)
    return rows


def check_ceiling_not_gold(gold_rows: Mapping, ceiling_rows: Mapping, keys: Sequence[Key],
                           path: str | None) -> None:  # fmt: skip
    """Refuse a ceiling whose every scored row is the gold's own (the same annotator, text and
    spans: the gold file or rater given twice), which would score a perfect human ceiling.

    Examples
    --------
    >>> row = SpanRow("en-de", "A", "d", 0, "x", (), annotator="anna")
    >>> check_ceiling_not_gold({row.key(): (row, 1)}, {row.key(): (row, 1)}, [row.key()],
    ...                        "g")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: g: the ceiling is the gold's own annotation (annotator ...
    """
    if all(ceiling_rows[k][0] == gold_rows[k][0] for k in keys):
        who = sorted({str(gold_rows[k][0].annotator) for k in keys})
        raise UserInputError(
            f"the ceiling is the gold's own annotation (annotator {', '.join(map(repr, who))}, "
            "every segment the same): give a second human's annotation (--gold FILE2 or "
            "--raters A,B)", path=path)  # fmt: skip


def _arrays(rows: Sequence[SpanRow], lengths: np.ndarray) -> tuple[SpanArrays, int]:
    """Target-side spans of ``rows`` as arrays, and the number of source-side spans left out."""
    seg, start, end, sev, dropped = [], [], [], [], 0
    code = {s: i for i, s in enumerate(SEVERITIES)}
    for i, r in enumerate(rows):
        for s in r.spans:
            if s.side != "target":
                dropped += 1
                continue
            seg.append(i)
            start.append(s.start)
            end.append(s.end)
            sev.append(code[s.severity])
    arr = [np.asarray(v, dtype=np.int64) for v in (seg, start, end, sev)]
    return SpanArrays(*arr, n_segments=len(rows)), dropped


def _missing_note(what: str, keys: list[Key], side: str) -> str:
    shown = ", ".join(_key_text(k) for k in keys[:3]) + (" ..." if len(keys) > 3 else "")
    return f"{len(keys)} segment(s) {side} {what} ({shown})"


def align_spans(
    gold: SpanSet,
    predictions: Mapping[str, SpanSet],
    *,
    ceiling: SpanSet | None = None,
    on_missing: str = "refuse",
    exclude: Collection[tuple[str, str]] = (),
    baselines: Sequence[str] = BASELINES,
    baseline_severity: str = "major",
) -> SpanJob:
    """Join gold and predictions on their keys; the baselines and the ceiling included.

    Parameters
    ----------
    gold:
        One annotation per segment (several annotators per key are refused: choose one).
    predictions:
        Named annotations to score.
    ceiling:
        A second human annotation of the gold's segments, scored as ``ceiling``.
    on_missing:
        ``"refuse"`` (default): a segment the gold has and a prediction lacks, or the
        reverse, is refused naming the count and the first keys; ``"common"``: every
        annotation is scored on the segments all of them have (a note says what was left out).
    exclude:
        ``(lp, segment)`` pairs to leave out (segment as text).
    baselines, baseline_severity:
        The trivial annotators added (``none``, ``all``) and the severity ``all`` marks.

    Examples
    --------
    >>> from mtpalette.io.spans import Span
    >>> g = SpanSet((SpanRow("en-de", "A", "d", 0, "Hallo Welt", (Span(0, 5, "major"),)),
    ...              SpanRow("en-de", "A", "d", 1, "Gut", ())), "gold.jsonl", "generic-jsonl")
    >>> p = SpanSet((SpanRow("en-de", "A", "d", 0, "Hallo Welt", (Span(0, 4, "minor"),)),
    ...              SpanRow("en-de", "A", "d", 1, "Gut", ())), "p.jsonl", "generic-jsonl")
    >>> job = align_spans(g, {"p": p})
    >>> job.lengths.tolist(), list(job.annotators), job.kinds["none"]
    ([10, 3], ['p', 'none', 'all'], 'baseline')
    """
    if on_missing not in MISSING_RULES:
        raise UserInputError(f"on_missing must be one of {', '.join(MISSING_RULES)}")
    sources = {**predictions, **({"ceiling": ceiling} if ceiling is not None else {})}
    clash = [n for n in predictions if n in baselines or (ceiling is not None and n == "ceiling")]
    if clash:
        raise UserInputError(f"prediction name(s) {', '.join(clash)} are taken by a baseline or "
                             "the ceiling: choose other names")  # fmt: skip
    gold_rows = one_row_per_key(gold, "gold")
    notes: list[str] = []
    excluded = {(str(lp), str(seg)) for lp, seg in exclude}
    keys = [k for k in gold_rows if not excluded or (str(k[0]), str(k[3])) not in excluded]
    if excluded:
        notes.append(f"{len(gold_rows) - len(keys)} gold segment(s) left out by the exclusion list")
    tables = {}
    for name, spans in sources.items():
        check_texts_agree(gold, spans)
        rows = one_row_per_key(spans, name)
        if excluded:
            rows = {k: v for k, v in rows.items() if (str(k[0]), str(k[3])) not in excluded}
        tables[name] = rows
        lacking = [k for k in keys if k not in rows]
        extra = [k for k in rows if k not in gold_rows]
        if not lacking and not extra:
            continue
        said = [_missing_note(name, lacking, "of the gold lack in")] if lacking else []
        said += [_missing_note(f"{name} (not in the gold)", extra, "of")] if extra else []
        if on_missing == "refuse":
            raise UserInputError(
                f"{'; '.join(said)}: the keys (lp, system, doc, segment) must match exactly; "
                "score the segments both have with --on-missing common",
                path=spans.path,
            )
        notes += said
    common = [k for k in keys if all(k in t for t in tables.values())]
    if not common:
        raise UserInputError("no segment is in the gold and every prediction", path=gold.path)
    if ceiling is not None:
        check_ceiling_not_gold(gold_rows, tables["ceiling"], common, ceiling.path)
    if len(common) < len(keys):
        notes.append(f"--on-missing common: {len(common)} of {len(keys)} gold segments scored")
    return _job(common, gold_rows, tables, notes, gold_path=gold.path,
                kinds={n: "annotator" for n in predictions}, ceiling=ceiling is not None,
                baselines=baselines, baseline_severity=baseline_severity)  # fmt: skip


def _job(keys, gold_rows, tables, notes, *, gold_path, kinds, ceiling, baselines,
         baseline_severity):  # fmt: skip
    texts: list[str] = []
    for k in keys:
        text = gold_rows[k][0].text
        if text is None:  # a prediction may carry it
            text = next((t[k][0].text for t in tables.values() if t[k][0].text is not None), None)
        if text is None:
            row, line = gold_rows[k]
            raise UserInputError(
                f"the text of {_key_text(k)} is in neither the gold nor a prediction: the "
                "protocols need its length (give a format that carries the text)",
                path=gold_path,
                line=line,
            )
        texts.append(text)
    lengths = np.fromiter((len(t) for t in texts), dtype=np.int64, count=len(texts))
    gold, dropped = _arrays([gold_rows[k][0] for k in keys], lengths)
    annotators: dict[str, SpanArrays] = {}
    for name, table in tables.items():
        annotators[name], d = _arrays([table[k][0] for k in keys], lengths)
        dropped += d
    if dropped:
        notes.append(f"{dropped} source-side span(s) left out: the protocols score the "
                     "translation's characters")  # fmt: skip
    all_kinds = dict(kinds) | ({"ceiling": "ceiling"} if ceiling else {})
    for b in baselines:
        annotators[b] = baseline_spans(b, lengths, severity=baseline_severity)
        all_kinds[b] = "baseline"
    rows = [gold_rows[k][0] for k in keys]
    lps = [str(r.lp) if r.lp is not None else "-" for r in rows]
    order = {**{n: i for i, n in enumerate(kinds)}, "ceiling": len(kinds)}
    names = sorted(annotators, key=lambda n: order.get(n, len(order) + 1))
    return SpanJob(list(keys), texts, lengths, lps, [r.system for r in rows],
                   [r.domain for r in rows], gold, {n: annotators[n] for n in names},
                   {n: all_kinds[n] for n in names}, notes)  # fmt: skip


def same_text_pair(spans: SpanSet, first: str, second: str) -> tuple[SpanSet, SpanSet]:
    """The segments raters ``first`` and ``second`` both rated with the same text: ``first``'s
    rows, and ``second``'s under ``first``'s keys (a gold and a second human annotation).

    In Google's MQM TED files each system's segment has one rater, but systems often give the
    same translation, rated by different raters: those are two humans on one text.

    Examples
    --------
    >>> from mtpalette.io.spans import Span
    >>> rows = (SpanRow("en-de", "A", "d", 1, "Ja", (Span(0, 1, "minor"),), annotator="r1"),
    ...         SpanRow("en-de", "B", "d", 1, "Ja", (), annotator="r2"),
    ...         SpanRow("en-de", "C", "d", 1, "Nein", (), annotator="r2"))
    >>> a, b = same_text_pair(SpanSet(rows, "m.tsv", "mqm"), "r1", "r2")
    >>> [r.key() for r in a], [r.key() for r in b], [r.system for r in b]
    ([('en-de', 'A', 'd', 1)], [('en-de', 'A', 'd', 1)], ['A'])
    """
    of_second: dict[tuple, tuple[SpanRow, int | None]] = {}
    for r, line in spans.located():
        if r.annotator == second and r.text is not None:
            of_second.setdefault((r.lp, r.doc, r.segment, r.text), (r, line))
    gold, other = [], []
    used = set()
    for r, line in spans.located():
        key = (r.lp, r.doc, r.segment, r.text)
        if r.annotator != first or key not in of_second or key in used:
            continue
        used.add(key)
        gold.append((r, line))
        twin, twin_line = of_second[key]
        other.append((replace(twin, system=r.system), twin_line))
    if not gold:
        raise UserInputError(
            f"raters {first!r} and {second!r} rated no segment with the same text "
            f"(raters: {', '.join(str(a) for a in spans.annotators())})",
            path=spans.path,
        )

    def of(pairs: list) -> SpanSet:
        return SpanSet(tuple(r for r, _ in pairs), spans.path, spans.format,
                       tuple(ln for _, ln in pairs))  # fmt: skip

    return of(gold), of(other)


@dataclass(frozen=True)
class SpanScoreRow(Record):
    """One annotator's scores under one protocol, for one language pair (``"all"``: the
    unweighted mean over the pairs), system or domain; counts summed over the segments
    (none for ``"all"``), the bootstrap interval's bounds, and for annotators on the ``all``
    row their rank range and cluster."""

    protocol: str
    metric: str
    lp: str
    system: str | None
    domain: str | None
    kind: str
    precision: float
    recall: float
    f1: float
    tp_precision: float | None
    tp_recall: float | None
    n_pred: float | None
    n_gold: float | None
    segments: int
    precision_low: float | None = None
    precision_high: float | None = None
    recall_low: float | None = None
    recall_high: float | None = None
    f1_low: float | None = None
    f1_high: float | None = None
    rank_top: int | None = None
    rank_bottom: int | None = None
    cluster: int | None = None


@dataclass(frozen=True)
class SpanPair(Record):
    """Two annotators under one protocol, ``a`` ranked above ``b``: the difference of their
    ``all`` F1, the paired bootstrap p-value, adjusted, and whether it is significant."""

    protocol: str
    a: str
    b: str
    difference: float
    p_value: float
    p_adjusted: float
    significant: bool


@dataclass(frozen=True)
class SpanEvaluation(Record):
    """Every annotator's scores under every protocol, the pairs, notes and signatures.

    ``viewer`` (not in :meth:`to_dict`; see :meth:`viewer_dict`) holds the segments where the
    annotators disagree most, with the gold and predicted spans, for the report.
    """

    protocols: list[str]
    average: str
    both_empty: str
    by: str
    n_segments: int
    n_resamples: int
    seed: int | None
    correction: str
    alpha: float
    rows: list[SpanScoreRow]
    pairs: list[SpanPair]
    signatures: dict[str, str]
    notes: list[str] = field(default_factory=list)
    viewer: list[dict[str, Any]] = field(default_factory=list, metadata=out(skip=True))
    all_row = constant("lp 'all': the unweighted mean over the language pairs of precision, "
                       "recall and F1 (WMT25's overall figure)", after="by")  # fmt: skip

    def to_pandas(self):
        """One row per (protocol, metric, lp[, system or domain])."""
        return frame(r.to_dict() for r in self.rows)

    def row(self, protocol: str, metric: str, lp: str = "all") -> SpanScoreRow:
        """The language-pair row (``"all"``: the mean over pairs) of one annotator."""
        return next(r for r in self.rows if (r.protocol, r.metric, r.lp) == (protocol, metric, lp)
                    and r.system is None and r.domain is None)  # fmt: skip

    def to_latex(self, *, digits: int = 4) -> str:
        """The ``all`` rows: protocol, annotator, precision, recall, F1 (interval)."""
        lines = ["\\begin{tabular}{llrrr}", "\\toprule",
                 "Protocol & Annotator & P & R & F1 \\\\", "\\midrule"]  # fmt: skip
        for r in self.rows:
            if r.lp != "all":
                continue
            ci = f" [{r.f1_low:.{digits}f}, {r.f1_high:.{digits}f}]" if r.f1_low is not None else ""
            name = latex_text(r.metric) + ("" if r.kind == "annotator" else f" ({r.kind})")
            lines.append(f"{latex_text(r.protocol)} & {name} & {r.precision:.{digits}f} & "
                         f"{r.recall:.{digits}f} & {r.f1:.{digits}f}{ci} \\\\")  # fmt: skip
        lines += ["\\bottomrule", "\\end{tabular}"]
        return "\n".join(lines) + "\n"


def span_signature(name: str, *, average: str, both_empty: str, value: float, clip: bool,
                   n_resamples: int, seed: int | None, correction: str,
                   alpha: float) -> Signature:  # fmt: skip
    """The signature of one protocol's scores; with resamples, the annotator ranking's, the
    scores' signature nested in it.

    Examples
    --------
    >>> s = span_signature("wmt25", average="micro", both_empty="perfect", value=0.5,
    ...                    clip=False, n_resamples=0, seed=None, correction="none", alpha=0.05)
    >>> str(s).split("|")[:4]
    ['spans', 'protocol:wmt25', 'partial-credit:0.5', 'average:micro']
    """
    from mtpalette._version import __version__

    proto = protocol(name)
    fields: dict[str, Any] = {"protocol": name, proto.option.replace("_", "-"): float(value),
                              "average": average, "all": "mean-of-lps",
                              "clip": bool(clip)}  # fmt: skip
    if average == "macro":
        fields["both-empty"] = both_empty
    scores = Signature("spans", fields, __version__)
    if not n_resamples:
        return scores
    return Signature("spans-ranking", {"what": "annotator-ranking", "test": "paired-bootstrap",
                                       "resamples": n_resamples, "seed": seed,
                                       "correction": correction, "alpha": float(alpha),
                                       "score": scores}, __version__)  # fmt: skip


def _option_value(name: str, penalty: float | None, partial_credit: float | None) -> float:
    proto = protocol(name)
    given = penalty if proto.option == "penalty" else partial_credit
    return proto.default if given is None else float(given)


def _group_rows(name, metric, kind, scores, column) -> list[SpanScoreRow]:
    """Rows of an :class:`~mtpalette.stats.span_scores.SpanScores` grouped by (lp, x)."""
    rows = []
    for i, g in enumerate(scores.groups):
        lp, other = g if isinstance(g, tuple) else (g, None)
        c = scores.counts[i]
        rows.append(SpanScoreRow(
            name, metric, str(lp), other if column == "system" else None,
            other if column == "domain" else None, kind, float(scores.precision[i]),
            float(scores.recall[i]), float(scores.f1[i]), float(c[0]), float(c[1]), float(c[2]),
            float(c[3]), int(scores.n_segments[i])))  # fmt: skip
    return rows


def _ranked(name, names, kinds, boot, correction, alpha):
    """Rank range and cluster of each annotator (kind ``annotator``) on the ``all`` F1, and
    the pairs; ``({}, [])`` with fewer than two annotators."""
    idx = [k for k, n in enumerate(names) if kinds[n] == "annotator"]
    if len(idx) < 2:
        return {}, []
    p = pairwise_p_values(boot)[np.ix_(idx, idx)]
    adjusted = rk.adjust(p, correction)
    significant = np.nan_to_num(adjusted, nan=1.0) < alpha
    f1 = boot.value[idx, -1, 2]
    sub = [names[k] for k in idx]
    order = sorted(range(len(idx)), key=lambda k: (-f1[k], sub[k]))
    top, bottom = rk.rank_ranges(significant, f1[:, None] > f1[None, :])
    cluster = rk.clusters(significant[np.ix_(order, order)])
    ranks = {sub[k]: (int(top[k]), int(bottom[k]), int(cluster[pos]))
             for pos, k in enumerate(order)}  # fmt: skip
    pairs = [SpanPair(name, sub[a], sub[b], float(f1[a] - f1[b]), float(p[a, b]),
                      float(adjusted[a, b]), bool(significant[a, b]))
             for i, a in enumerate(order) for b in order[i + 1:]]  # fmt: skip
    return ranks, pairs


def _protocol_rows(job, name, counts, *, average, both_empty, by, boot, ranks):
    rows: list[SpanScoreRow] = []
    names = list(job.annotators)
    for k, metric in enumerate(names):
        kind = job.kinds[metric]
        s = aggregate_counts(counts[metric], job.lps, average=average, both_empty=both_empty)
        lp_rows = _group_rows(name, metric, kind, s, "lp")
        mean = SpanScoreRow(name, metric, "all", None, None, kind, *s.mean, None, None, None,
                            None, int(s.n_segments.sum()))  # fmt: skip
        if boot is not None:
            lo, hi = boot.low[k], boot.high[k]
            at = {g: i for i, g in enumerate(boot.groups)}
            lp_rows = [replace(r, **_bounds(lo[at[r.lp]], hi[at[r.lp]])) for r in lp_rows]
            mean = replace(mean, **_bounds(lo[-1], hi[-1]))
        if metric in ranks:
            top, bottom, cluster = ranks[metric]
            mean = replace(mean, rank_top=top, rank_bottom=bottom, cluster=cluster)
        rows += [*lp_rows, mean]
        if by != "lp":
            labels = job.systems if by == "system" else job.domains
            if by == "domain" and any(d is None for d in labels):
                raise UserInputError("--by domain: the gold file gives no domain for some "
                                     "segments")  # fmt: skip
            g = aggregate_counts(counts[metric], (job.lps, [str(x) for x in labels]),
                                 average=average, both_empty=both_empty)  # fmt: skip
            rows += _group_rows(name, metric, kind, g, by)
    return rows


def _bounds(lo: np.ndarray, hi: np.ndarray) -> dict[str, float]:
    out = {}
    for j, m in enumerate(("precision", "recall", "f1")):
        out[f"{m}_low"], out[f"{m}_high"] = float(lo[j]), float(hi[j])
    return out


def evaluate_spans(
    job: SpanJob,
    *,
    protocols: Sequence[str] = ("wmt25",),
    penalty: float | None = None,
    partial_credit: float | None = None,
    average: str = "micro",
    both_empty: str = "perfect",
    by: str = "lp",
    n_resamples: int = 1000,
    seed: int | None = 12345,
    confidence: float = 0.95,
    correction: str = "none",
    alpha: float = 0.05,
    clip: bool = False,
    viewer: int = 20,
) -> SpanEvaluation:
    """Score every annotator of ``job`` under every protocol; intervals, pairs, ranks.

    Parameters
    ----------
    job:
        From :func:`align_spans`.
    protocols:
        Names of :data:`mtpalette.stats.spans.PROTOCOLS`.
    penalty, partial_credit:
        The severity penalty of the matching protocols and the partial credit of ``wmt25``
        and ``wmt23-qe`` (each protocol's default when None).
    average, both_empty:
        Micro or macro within a group; a macro average's empty segments.
    by:
        ``lp``, or also per ``system`` or ``domain`` within each pair (no intervals there).
    n_resamples, seed, confidence:
        The paired stratified bootstrap over segments (0: none, no ranking).
    correction, alpha:
        Of the pairwise tests (``none``, ``holm``, ``bh``).
    clip:
        Whether the files were read with ``--clip`` (recorded in the signatures).
    viewer:
        How many segments of most disagreement to keep for the report.

    Examples
    --------
    >>> from mtpalette.io.spans import Span
    >>> g = SpanSet((SpanRow("en-de", "A", "d", 0, "Hallo Welt", (Span(0, 5, "major"),)),),
    ...             "g", "generic-jsonl")
    >>> p = SpanSet((SpanRow("en-de", "A", "d", 0, "Hallo Welt", (Span(0, 5, "minor"),)),),
    ...             "p", "generic-jsonl")
    >>> ev = evaluate_spans(align_spans(g, {"p": p}), n_resamples=0)
    >>> r = ev.row("wmt25", "p")
    >>> r.precision, r.recall, r.f1, r.kind
    (0.5, 0.5, 0.5, 'annotator')
    >>> ev.row("wmt25", "all").f1  # the baseline: every character major
    0.6666666666666666
    """
    if by not in BY:
        raise UserInputError(f"--by must be one of {', '.join(BY)} (got {by!r})")
    if correction not in rk.CORRECTIONS:
        raise UserInputError(f"correction must be one of {', '.join(rk.CORRECTIONS)}")
    for name in protocols:
        if name not in PROTOCOLS:
            raise UserInputError(f"unknown span protocol {name!r}; expected one of "
                                 f"{', '.join(PROTOCOLS)}")  # fmt: skip
    names = list(job.annotators)
    rows: list[SpanScoreRow] = []
    pairs: list[SpanPair] = []
    signatures: dict[str, str] = {}
    first_counts: dict[str, np.ndarray] = {}
    for name in protocols:
        value = _option_value(name, penalty, partial_credit)
        opt = {protocol(name).option: value}
        counts = {n: span_counts(name, job.lengths, job.gold, a, **opt)
                  for n, a in job.annotators.items()}  # fmt: skip
        first_counts = first_counts or counts
        boot = None
        if n_resamples:
            boot = bootstrap_span_scores(
                stack_counts([counts[n] for n in names]), job.lps, average=average,
                both_empty=both_empty, n_resamples=n_resamples, confidence=confidence, seed=seed,
            )  # fmt: skip
        ranks, new_pairs = (_ranked(name, names, job.kinds, boot, correction, alpha)
                            if boot is not None else ({}, []))  # fmt: skip
        pairs += new_pairs
        rows += _protocol_rows(job, name, counts, average=average, both_empty=both_empty,
                               by=by, boot=boot, ranks=ranks)  # fmt: skip
        signatures[name] = str(span_signature(
            name, average=average, both_empty=both_empty, value=value, clip=clip,
            n_resamples=n_resamples, seed=seed, correction=correction, alpha=alpha))  # fmt: skip
    return SpanEvaluation(
        list(protocols), average, both_empty, by, len(job.keys), n_resamples,
        seed if n_resamples else None, correction, alpha, rows, pairs, signatures,
        list(job.notes), disagreements(job, first_counts, limit=viewer),
    )  # fmt: skip


def disagreements(job: SpanJob, counts: Mapping[str, np.ndarray], *, limit: int = 20
                  ) -> list[dict[str, Any]]:  # fmt: skip
    """The ``limit`` segments where the annotators' (and the ceiling's) segment F1 spread
    most (max - min; the baselines left out; with one annotator, where its F1 is lowest),
    with the text, the gold and every annotator's spans ``[start, end, severity]`` and F1.

    Examples
    --------
    >>> from mtpalette.io.spans import Span
    >>> rows = lambda sev: (SpanRow("en-de", "A", "d", 0, "ab", (Span(0, 1, sev),)),
    ...                     SpanRow("en-de", "A", "d", 1, "cd", ()))
    >>> g, p = (SpanSet(rows(s), s, "generic-jsonl") for s in ("major", "minor"))
    >>> job = align_spans(g, {"p": p, "q": g}, baselines=())
    >>> c = {n: span_counts("wmt25", job.lengths, job.gold, a) for n, a in job.annotators.items()}
    >>> [(v["key"], v["f1"]) for v in disagreements(job, c)]
    [(['en-de', 'A', 'd', 0], {'p': 0.5, 'q': 1.0})]
    """
    shown = [n for n in job.annotators if job.kinds[n] != "baseline"]
    if not shown or not counts or limit <= 0:
        return []
    f1 = np.stack([prf(*counts[n].T)[2] for n in shown])
    # one annotator: where it is furthest from the gold
    spread = f1.max(axis=0) - f1.min(axis=0) if len(shown) > 1 else 1.0 - f1[0]
    order = [int(i) for i in np.argsort(-spread, kind="stable")[:limit] if spread[i] > 0]

    def spans_of(arr: SpanArrays, i: int) -> list[list[Any]]:
        return [list(s) for s in arr.spans_of(i)]

    return [
        {"key": [None if x is None else (x if isinstance(x, int) else str(x))
                 for x in job.keys[i]],
         "text": job.texts[i], "spread": float(spread[i]), "gold": spans_of(job.gold, i),
         "annotators": {n: spans_of(job.annotators[n], i) for n in shown},
         "f1": {n: float(f1[k, i]) for k, n in enumerate(shown)}}
        for i in order
    ]  # fmt: skip
