"""Score error-span annotators against gold spans: :func:`spans` and ``mtpalette spans``.

Two doors, one engine (:mod:`mtpalette.metaeval.spans`): :func:`spans` takes files or
:class:`~mtpalette.io.spans.SpanSet` objects; :class:`SpansRun` names files, and
:func:`run_spans` runs it and writes the outputs (run file JSON, TSV, LaTeX, HTML report).

A file is named ``FILE`` or ``FILE,annotator=NAME`` (only that annotator's rows: a gold file
with several raters per segment needs one); a prediction ``NAME=FILE[,annotator=NAME]``.

Examples
--------
>>> from mtpalette.io.spans import Span, SpanRow, SpanSet
>>> g = SpanSet((SpanRow("en-de", "A", "d", 0, "Hallo Welt", (Span(0, 5, "major"),)),),
...             "g", "generic-jsonl")
>>> p = SpanSet((SpanRow("en-de", "A", "d", 0, "Hallo Welt", (Span(0, 5, "minor"),)),),
...             "p", "generic-jsonl")
>>> ev = spans(g, {"p": p}, protocol="wmt25,mp", n_resamples=0)
>>> [(r.protocol, r.metric, r.f1) for r in ev.rows if r.lp == "all" and r.kind == "annotator"]
[('wmt25', 'p', 0.5), ('mp', 'p', 1.0)]
>>> ev.signatures["mp"].split("|")[:3]
['spans', 'protocol:mp', 'penalty:0.0']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from mtpalette import flags
from mtpalette.api.results import EvaluationResult
from mtpalette.description import Description
from mtpalette.errors import UserInputError
from mtpalette.feedback import Feedback
from mtpalette.flags import flag
from mtpalette.sources.checks import SACREBLEU_SEED, probability_argument

if TYPE_CHECKING:
    from mtpalette.metaeval.spans import SpanEvaluation


def spans(
    gold: Any,
    pred: Mapping[str, Any],
    *,
    protocol: str | Sequence[str] = "wmt25",
    ceiling: Any = None,
    format: str | None = None,
    clip: bool = False,
    on_missing: str = "refuse",
    exclude: Any = None,
    by: str = "lp",
    average: str = "micro",
    both_empty: str = "perfect",
    penalty: float | None = None,
    partial_credit: float | None = None,
    baselines: Sequence[str] = ("none", "all"),
    n_resamples: int = 1000,
    seed: int | None = SACREBLEU_SEED,
    correction: str = "none",
    alpha: float = 0.05,
) -> SpanEvaluation:
    """Score span predictions against gold spans under one or more protocols.

    Parameters
    ----------
    gold, pred:
        A span file (any format of :func:`~mtpalette.io.spans_read.read_spans`) or a
        :class:`~mtpalette.io.spans.SpanSet`; ``pred`` maps names to them.
    protocol:
        ``wmt25`` (default), ``wmt23-qe``, ``em``, ``mp``, ``mpp``, ``chars``, or several
        (a list, or comma-separated).
    ceiling:
        A second human annotation of the gold's segments: human-vs-human agreement.
    format, clip:
        The files' format (detected when None) and the organisers' lenient reading.
    on_missing:
        ``refuse`` (keys must match exactly) or ``common`` (score the shared segments).
    exclude:
        A ``lp``/``sid`` table file or ``(lp, segment)`` pairs to leave out.
    by:
        ``lp``; ``system`` or ``domain`` add rows per system or domain within each pair.
    average, both_empty, penalty, partial_credit:
        See :mod:`mtpalette.stats.spans` and :mod:`mtpalette.stats.span_scores`.
    baselines:
        Trivial annotators scored alongside (``none``, ``all``).
    n_resamples, seed, correction, alpha:
        The paired bootstrap over segments (0: no intervals, no ranking) and the pairwise
        tests between annotators.

    Returns
    -------
    SpanEvaluation
        ``.rows`` (one per protocol, annotator and language pair, ``lp == "all"`` the mean
        over pairs), ``.pairs``, ``.signatures``, ``.to_pandas()``, ``.to_dict()``.

    Examples
    --------
    >>> from mtpalette.sources.spans import example_folder
    >>> ex = example_folder()
    >>> ev = spans(ex / "gold.jsonl", {"lexi": ex / "lexi.jsonl"}, n_resamples=0)
    >>> round(ev.row("wmt25", "lexi").f1, 4), ev.row("wmt25", "lexi", "en-de").segments
    (0.7038, 16)
    """
    from mtpalette.metaeval.spans import align_spans, collector_paused, evaluate_spans
    from mtpalette.sources.checks import count_argument
    from mtpalette.sources.spans import (
        check_protocol_options,
        protocol_list,
        read_exclude,
        read_span_input,
    )

    names = protocol_list(protocol)
    check_protocol_options(names, penalty, partial_credit)
    n_resamples = count_argument(n_resamples, "n_resamples", allow_none=False)
    probability_argument(alpha, "alpha")
    if not pred and not baselines:
        raise UserInputError("nothing to score: give predictions or baselines")
    read = lambda x: read_span_input(x, fmt=format, clip=clip)  # noqa: E731
    excluded = read_exclude(exclude) if isinstance(exclude, str | Path) else set(exclude or ())
    with collector_paused():  # millions of small objects, no cycle: see its docstring
        job = align_spans(read(gold), {n: read(p) for n, p in pred.items()},
                          ceiling=None if ceiling is None else read(ceiling),
                          on_missing=on_missing, exclude=excluded,
                          baselines=baselines)  # fmt: skip
    return evaluate_spans(job, protocols=names, penalty=penalty, partial_credit=partial_credit,
                          average=average, both_empty=both_empty, by=by,
                          n_resamples=n_resamples, seed=seed, correction=correction,
                          alpha=alpha, clip=clip)  # fmt: skip


#: the help section of the spans' options
SPANS = "Spans"


@dataclass
class SpansRun(Description):
    """``mtpalette spans`` as a description: gold file(s) (a second one is the ceiling), named
    predictions, or ``raters`` (``A,B``: from the one gold file, the segments raters A and B
    rated with the same text, A the gold and B the ceiling), protocols and outputs."""

    kind: ClassVar[str] = "spans"
    gold: list[str] = flag(
        "--gold", panel=SPANS,
        help="Gold spans: FILE[,annotator=NAME]; twice: the second is the human ceiling.",
        cli_default=...,
    ).field(factory=list)  # fmt: skip
    pred: list[str] = flag(
        "--pred", panel=SPANS, help="Predicted spans: NAME=FILE[,annotator=NAME]."
    ).field(factory=list)
    raters: str | None = flag(
        "--raters", panel=SPANS,
        help="A,B: rater A of --gold as gold, B as the ceiling, on the segments both rated with "
        "the same text.",
    ).field(None)  # fmt: skip
    protocol: str = flag(
        "--protocol", panel=SPANS, help="wmt25, wmt23-qe, em, mp, mpp, chars (or P1,P2)."
    ).field("wmt25")
    format: str | None = flags.SPAN_FORMAT.field(None)
    clip: bool = flags.CLIP.field(False)
    exclude: Path | None = flag(
        "--exclude", panel=SPANS, help="lp/sid table of segments to leave out."
    ).field(None)
    on_missing: str = flags.ON_MISSING.field("refuse")
    by: str = flag(
        "--by", panel=SPANS, choices="mtpalette.metaeval.spans:BY",
        help="lp, system or domain (within each pair).",
    ).field("lp")  # fmt: skip
    average: str = flag(
        "--average", panel=SPANS, choices="mtpalette.stats.span_scores:AVERAGES",
        help="micro or macro within a group.",
    ).field("micro")  # fmt: skip
    both_empty: str = flag(
        "--both-empty", panel=SPANS, choices="mtpalette.stats.span_scores:BOTH_EMPTY",
        help="macro: perfect or skip.",
    ).field("perfect")  # fmt: skip
    penalty: float | None = flag(
        "--penalty", panel=SPANS, help="Severity penalty of em/mp/mpp/chars (0)."
    ).field(None)
    partial_credit: float | None = flag(
        "--partial-credit", panel=SPANS, help="wmt25/wmt23-qe severity-mismatch credit (0.5)."
    ).field(None)
    bootstrap: int = flags.BOOTSTRAP.field(1000)
    seed: int = flags.SEED.field(SACREBLEU_SEED)
    correction: str = flags.CORRECTION.but(panel=SPANS).field("none")
    alpha: float = flags.ALPHA.but(panel=SPANS).field(0.05)
    json: Path | None = flags.JSON.field(None)
    tsv: Path | None = flags.ROWS_TSV.field(None)
    latex: Path | None = flags.ROWS_LATEX.field(None)
    report: Path | None = flags.REPORT.field(None)

    def validate(self) -> None:
        from mtpalette.sources.spans import pred_names, protocol_list

        super().validate()  # the options' choices first
        protocol_list(self.protocol)
        if not self.gold or len(self.gold) > 2:
            raise UserInputError("give --gold FILE once (twice: the second is the human ceiling)")
        if self.raters is not None and (len(self.gold) != 1 or len(self.raters.split(",")) != 2):
            raise UserInputError("--raters A,B takes two raters of one --gold file")
        if self.bootstrap < 0:
            raise UserInputError(f"--bootstrap must be 0 or more (got {self.bootstrap})")
        probability_argument(self.alpha, "--alpha")
        pred_names(self.pred)  # before any file is read
        from mtpalette.io.runfile import check_output_folders, run_file_path

        check_output_folders({"--json": run_file_path(self.json, self.report), "--tsv": self.tsv,
                              "--latex": self.latex, "--report": self.report})  # fmt: skip


@dataclass
class SpansResult(EvaluationResult):
    """The evaluation of a run (:class:`SpanEvaluation`) and the files written."""

    evaluation: SpanEvaluation


def run_spans(run: SpansRun, progress: bool | Feedback | None = None) -> SpansResult:
    """Read, align and score what ``run`` names; write the outputs it asks for."""
    from mtpalette.progress import feedback_of
    from mtpalette.sources.spans import span_inputs

    run.validate()
    feedback = feedback_of(progress)
    from mtpalette.metaeval.spans import collector_paused

    with feedback.stage("reading the span files"), collector_paused():
        golds, preds = span_inputs(run)
    with feedback.stage(f"scoring ({run.protocol})"):
        ev = spans(golds[0], preds, protocol=run.protocol,
                   ceiling=golds[1] if len(golds) > 1 else None, on_missing=run.on_missing,
                   exclude=run.exclude, by=run.by, average=run.average,
                   both_empty=run.both_empty, penalty=run.penalty,
                   partial_credit=run.partial_credit, n_resamples=run.bootstrap, seed=run.seed,
                   correction=run.correction, alpha=run.alpha, clip=run.clip)  # fmt: skip
    result = SpansResult(ev)
    _write(run, result)
    return result


def _write(run: SpansRun, result: SpansResult) -> None:
    from mtpalette.io.runfile import run_file_path
    from mtpalette.reporting.run_files import RunFiles
    from mtpalette.reporting.run_records import described_record
    from mtpalette.sources.spans import file_option

    ev = result.evaluation
    json_path = run_file_path(run.json, run.report)
    files = {"gold": [file_option(g, named=False)[1] for g in run.gold],
             "pred": [file_option(p, named=True)[1] for p in run.pred],
             "exclude": run.exclude}  # fmt: skip
    RunFiles(result.outputs).record("json", json_path, lambda: described_record(
        "spans", run, left_out=("json", "tsv", "latex", "report", "gold", "pred"), files=files,
        signatures=dict(ev.signatures), seeds={"bootstrap": run.seed} if run.bootstrap else {},
        results={**ev.to_dict(), "viewer": ev.viewer},
    ))  # fmt: skip
    result.write_tables(run.tsv, run.latex)
    RunFiles(result.outputs).report(json_path, run.report)
