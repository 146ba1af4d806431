"""Error-free detection scored against gold: :func:`errorfree` and ``mtpalette errorfree``.

Gold from a span file with scores (ESA: error-free when the score is at least 85 and no span
is marked; :mod:`mtpalette.metaeval.errorfree`); predictions as labels (``error_free``), as
scores with a threshold, or as spans. A threshold can be tuned on another split
(``tune_on`` with its gold ``tune_gold``: largest MCC) and applied to the test predictions;
the tuning split may not be the test file, nor share a segment with it.

Examples
--------
>>> from mtpalette.io.spans import Span, SpanRow, SpanSet
>>> gold = SpanSet(tuple(SpanRow("en-de", "A", None, i, None, sp, score=s) for i, (s, sp) in
...     enumerate([(95.0, ()), (90.0, (Span(0, 1, "minor"),)), (60.0, ()), (88.0, ())])),
...     "gold.csv", "esa-csv")
>>> pred = SpanSet(tuple(SpanRow("en-de", "A", None, i, None, (), score=s) for i, s in
...     enumerate([0.9, 0.8, 0.2, 0.3])), "p.jsonl", "generic-jsonl")
>>> ev = errorfree(gold, {"m": pred}, threshold=0.5, n_resamples=0)
>>> r = ev.row("m")
>>> (r.tp, r.fp, r.fn, r.tn), round(r.mcc, 4)
((1, 1, 1, 1), 0.0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from mtpalette import flags
from mtpalette.api.results import EvaluationResult
from mtpalette.description import Description
from mtpalette.errors import UserInputError, did_you_mean
from mtpalette.feedback import Feedback
from mtpalette.flags import flag
from mtpalette.sources.checks import SACREBLEU_SEED

if TYPE_CHECKING:
    from mtpalette.metaeval.errorfree import ErrorFreeEvaluation


def errorfree(
    gold: Any,
    pred: Mapping[str, Any],
    *,
    min_score: float | None = 85.0,
    span_rule: str = "any",
    source: str = "auto",
    threshold: float | None = None,
    lower_is_better: bool = False,
    tune_on: Mapping[str, Any] | None = None,
    tune_gold: Any = None,
    format: str | None = None,
    clip: bool = False,
    on_missing: str = "refuse",
    n_resamples: int = 1000,
    seed: int | None = SACREBLEU_SEED,
) -> ErrorFreeEvaluation:
    """Score error-free decisions against gold labels made from spans and scores.

    Parameters
    ----------
    gold, pred:
        Span files (any format :func:`~mtpalette.io.spans_read.read_spans` reads) or
        :class:`~mtpalette.io.spans.SpanSet` objects; ``pred`` maps names to them.
    min_score, span_rule:
        The gold rule: error-free when the score is at least ``min_score`` (None: scores
        ignored) and no span counts (``any``, ``major``: only major/critical, ``ignore``).
    source:
        ``auto``, ``label`` (the rows' ``error_free``), ``score`` (with a threshold) or
        ``spans`` (no span: error-free).
    threshold, lower_is_better:
        The score's threshold (``score >= t`` error-free; ``<=`` for an error score).
    tune_on, tune_gold:
        ``{name: dev predictions}`` and the dev split's gold: each named predictor's
        threshold is the one of largest MCC there.
    on_missing, n_resamples, seed:
        Keys one side lacks (``refuse`` or ``common``); the bootstrap over segments.

    Examples
    --------
    >>> from mtpalette.sources.spans import example_folder
    >>> ex = example_folder()
    >>> ev = errorfree(ex / "gold.jsonl", {"lexi": ex / "lexi.jsonl"}, threshold=0.9,
    ...                n_resamples=0)
    >>> r = ev.row("lexi")
    >>> list(r.to_dict())[:7], r.segments
    (['metric', 'kind', 'lp', 'mcc', 'precision', 'recall', 'f1'], 32)
    """
    from mtpalette.metaeval.errorfree import decided, evaluate_errorfree, gold_labels
    from mtpalette.sources.spans import read_span_input

    tune_on = dict(tune_on or {})
    if tune_on and tune_gold is None:
        raise UserInputError("--tune-on needs the tuning split's gold: --tune-gold FILE")
    if tune_on and threshold is not None:
        raise UserInputError("give --threshold or --tune-on, not both")
    unknown = [n for n in tune_on if n not in pred]
    if unknown:
        hint = did_you_mean(unknown[0], list(pred))
        raise UserInputError(
            f"--tune-on {unknown[0]}: no --pred of that name ({', '.join(pred)}){hint}"
        )
    read = lambda x: read_span_input(x, fmt=format, clip=clip)  # noqa: E731
    labels = gold_labels(read(gold), min_score=min_score, span_rule=span_rule)
    made, notes, chosen = decided(
        labels, pred, read=read, source=source, threshold=threshold,
        lower_is_better=lower_is_better, tune_on=tune_on, tune_gold=tune_gold,
        span_rule=span_rule, min_score=min_score, on_missing=on_missing,
    )  # fmt: skip
    settings = {"sources": chosen["sources"], "min_score": min_score, "span_rule": span_rule,
                "tuned_on": chosen["tuned_on"]}  # fmt: skip
    return evaluate_errorfree(labels, made, thresholds=chosen["thresholds"],
                              n_resamples=n_resamples,
                              seed=seed, settings=settings, notes=notes)  # fmt: skip


#: the help section of the error-free options
EF = "Error-free detection"


@dataclass
class ErrorFreeRun(Description):
    """``mtpalette errorfree`` as a description."""

    kind: ClassVar[str] = "errorfree"
    gold: str = flag(
        "--gold", panel=EF, help="Gold spans and scores: FILE[,annotator=A].", cli_default=...
    ).field("")
    pred: list[str] = flag(
        "--pred", panel=EF, help="Predictions: NAME=FILE.", cli_default=...
    ).field(factory=list)
    min_score: float | None = flag(
        "--min-score", panel=EF, help="Gold: error-free from this score up (85)."
    ).field(85.0)
    span_rule: str = flag(
        "--spans", panel=EF, choices="mtpalette.metaeval.errorfree:SPAN_RULES",
        help="Gold spans that make an error: any, major or ignore.",
    ).field("any")  # fmt: skip
    source: str = flag(
        "--from", panel=EF, choices="mtpalette.metaeval.errorfree:SOURCES",
        help="Decisions: auto, label, score or spans.",
    ).field("auto")  # fmt: skip
    threshold: float | None = flag(
        "--threshold", panel=EF, help="score >= T is error-free."
    ).field(None)
    lower_is_better: bool = flag(
        "--lower-is-better", panel=EF, help="The score is an error score."
    ).field(False)
    tune_on: list[str] = flag(
        "--tune-on", panel=EF, help="[NAME=]FILE: the threshold of max MCC there."
    ).field(factory=list)
    tune_gold: str | None = flag(
        "--tune-gold", panel=EF, help="The tuning split's gold."
    ).field(None)
    format: str | None = flags.SPAN_FORMAT.field(None)
    clip: bool = flags.CLIP.field(False)
    on_missing: str = flags.ON_MISSING.field("refuse")
    bootstrap: int = flags.BOOTSTRAP.field(1000)
    seed: int = flags.SEED.field(SACREBLEU_SEED)
    json: Path | None = flags.JSON.field(None)
    tsv: Path | None = flags.ROWS_TSV.field(None)
    latex: Path | None = flags.ROWS_LATEX.field(None)

    def validate(self) -> None:
        super().validate()  # the options' choices first
        if not self.gold or not self.pred:
            raise UserInputError("give --gold FILE and at least one --pred NAME=FILE")
        self.tuning()  # the names of --pred and --tune-on checked before any file is read
        if self.bootstrap < 0:
            raise UserInputError(f"--bootstrap must be 0 or more (got {self.bootstrap})")
        from mtpalette.io.runfile import check_output_folders

        check_output_folders({"--json": self.json, "--tsv": self.tsv, "--latex": self.latex})

    def tuning(self) -> dict[str, str]:
        """``--tune-on [NAME=]FILE`` as ``{name: file}`` (a bare FILE: the one --pred)."""
        from mtpalette.sources.spans import pred_names

        names = pred_names(self.pred)
        out = {}
        for value in self.tune_on:
            name, sep, path = value.partition("=")
            if not sep:
                if len(names) != 1:
                    raise UserInputError("--tune-on FILE with several --pred: write NAME=FILE")
                name, path = names[0], value
            if name in out:
                raise UserInputError(f"--tune-on {name} is given twice")
            out[name] = path
        return out


@dataclass
class ErrorFreeResult(EvaluationResult):
    """The evaluation of a run (:class:`ErrorFreeEvaluation`) and the files written."""

    evaluation: ErrorFreeEvaluation


def run_errorfree(run: ErrorFreeRun, progress: bool | Feedback | None = None) -> ErrorFreeResult:
    """Read, align and score what ``run`` names; write the outputs it asks for."""
    from mtpalette.progress import feedback_of
    from mtpalette.reporting.run_files import RunFiles
    from mtpalette.reporting.run_records import described_record
    from mtpalette.sources.spans import file_option, predictions, read_span_input

    run.validate()
    feedback = feedback_of(progress)
    _, gold_path, gold_annotator = file_option(run.gold, named=False)
    gold = read_span_input(gold_path, fmt=run.format, clip=run.clip, annotator=gold_annotator)
    preds = predictions(run.pred, fmt=run.format, clip=run.clip)
    with feedback.stage("scoring the error-free decisions"):
        ev = errorfree(gold, preds, min_score=run.min_score, span_rule=run.span_rule,
                       source=run.source, threshold=run.threshold,
                       lower_is_better=run.lower_is_better, tune_on=run.tuning(),
                       tune_gold=run.tune_gold, format=run.format, clip=run.clip,
                       on_missing=run.on_missing, n_resamples=run.bootstrap,
                       seed=run.seed)  # fmt: skip
    result = ErrorFreeResult(ev)

    def record():
        from mtpalette.sources.spans import file_option

        files = {"gold": gold_path, "pred": [file_option(p, named=True)[1] for p in run.pred],
                 "tune_on": list(run.tuning().values()), "tune_gold": run.tune_gold}  # fmt: skip
        return described_record("errorfree", run, left_out=("json", "tsv", "latex"), files=files,
                                signatures=dict(ev.signatures), results=ev.to_dict(),
                                seeds={"bootstrap": run.seed} if run.bootstrap else {})  # fmt: skip

    RunFiles(result.outputs).record("json", run.json, record)
    result.write_tables(run.tsv, run.latex)
    return result
