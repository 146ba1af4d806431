"""``mtpalette errorfree``: score "this translation is error-free" decisions (WMT26 subtask 3).

Options -> :class:`~mtpalette.api.errorfree_run.ErrorFreeRun` ->
:func:`~mtpalette.api.errorfree_run.run_errorfree` -> one table (MCC first, precision, recall
and F1 of both classes, accuracy, the always-one-class baselines, intervals).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from mtpalette.cli import options as o
from mtpalette.cli.console import (
    emit_note,
    emit_signatures,
    emit_table,
    result_console,
    show_written,
)

if TYPE_CHECKING:
    pass


EF = "Error-free detection"
P = o.opt
GoldOpt = Annotated[str, P("--gold", panel=EF, help="Gold spans and scores: FILE[,annotator=A].")]
PredOpt = Annotated[list[str], P("--pred", panel=EF, help="Predictions: NAME=FILE.")]
MinScoreOpt = Annotated[
    float | None, P("--min-score", panel=EF, help="Gold: error-free from this score up (85).")
]
SpansOpt = Annotated[
    str, P("--spans", panel=EF, help="Gold spans that make an error: any, major or ignore.")
]
FromOpt = Annotated[str, P("--from", panel=EF, help="Decisions: auto, label, score or spans.")]
ThresholdOpt = Annotated[float | None, P("--threshold", panel=EF, help="score >= T is error-free.")]
LowerOpt = Annotated[bool, P("--lower-is-better", panel=EF, help="The score is an error score.")]
TuneOpt = Annotated[
    list[str] | None, P("--tune-on", panel=EF, help="[NAME=]FILE: the threshold of max MCC there.")
]
TuneGoldOpt = Annotated[str | None, P("--tune-gold", panel=EF, help="The tuning split's gold.")]
FormatOpt = Annotated[str | None, P("--format", panel=EF, help="The files' format (detected).")]
ClipOpt = Annotated[bool, P("--clip", panel=EF, help="Cut spans to their text (organisers').")]
MissingOpt = Annotated[str, P("--on-missing", panel=EF, help="refuse or common.")]
TsvOpt = Annotated[Path | None, P("--tsv", panel=o.OUTPUTS, help="Rows as TSV (-: stdout).")]
LatexOpt = Annotated[Path | None, P("--latex", panel=o.OUTPUTS, help="The 'all' rows, LaTeX.")]


def errorfree_cmd(
    gold: GoldOpt, pred: PredOpt, min_score: MinScoreOpt = 85.0, spans: SpansOpt = "any",
    source: FromOpt = "auto", threshold: ThresholdOpt = None, lower_is_better: LowerOpt = False,
    tune_on: TuneOpt = None, tune_gold: TuneGoldOpt = None, format: FormatOpt = None,
    clip: ClipOpt = False, on_missing: MissingOpt = "refuse", bootstrap: o.BootstrapOpt = 1000,
    seed: o.SeedOpt = 12345, json: o.JsonOpt = None, tsv: TsvOpt = None,
    latex: LatexOpt = None, quiet: o.QuietOpt = False,
) -> None:  # fmt: skip
    """Score error-free decisions: MCC, P/R/F1 of both classes, accuracy, baselines.

    Example: `mtpalette errorfree --gold esa.csv --pred m=scores.jsonl --tune-on dev.jsonl
    --tune-gold esa_dev.csv`.
    """
    from rich.console import Console

    from mtpalette.api.errorfree_run import ErrorFreeRun, run_errorfree
    from mtpalette.progress import ConsoleFeedback

    console = Console(stderr=True, quiet=quiet)
    run = ErrorFreeRun(
        gold=gold, pred=pred, min_score=min_score, span_rule=spans, source=source,
        threshold=threshold, lower_is_better=lower_is_better, tune_on=tune_on or [],
        tune_gold=tune_gold, format=format, clip=clip, on_missing=on_missing,
        bootstrap=bootstrap, seed=seed, json=json, tsv=tsv, latex=latex,
    )  # fmt: skip
    result = run_errorfree(run, ConsoleFeedback(console))
    show_written(console, result.outputs)
    show_errorfree(result.evaluation)


def _ci(r, m: str) -> str:
    low = getattr(r, f"{m}_low", None)
    ci = f" [{low:.3f}, {getattr(r, f'{m}_high'):.3f}]" if low is not None else ""
    return f"{getattr(r, m):.3f}{ci}"


def show_errorfree(ev) -> None:
    """One table: predictor, lp, MCC, P/R/F1 of the error-free class and of the other, acc."""
    from rich.table import Table

    out = result_console()
    t = Table(title="errorfree (positive class: error-free; lp 'all': every segment pooled)")
    cols = ["Predictor", "Kind", "lp", "MCC", "P", "R", "F1", "P err", "R err", "F1 err",
            "Accuracy", "Threshold", "Segments"]  # fmt: skip
    for c in cols:
        t.add_column(c, justify="left" if c in ("Predictor", "Kind", "lp") else "right")
    for r in ev.rows:
        t.add_row(r.metric, r.kind, r.lp, _ci(r, "mcc"), f"{r.precision:.3f}",
                  f"{r.recall:.3f}", _ci(r, "f1"), f"{r.precision_erroneous:.3f}",
                  f"{r.recall_erroneous:.3f}", f"{r.f1_erroneous:.3f}", _ci(r, "accuracy"),
                  "" if r.threshold is None else f"{r.threshold:g}", str(r.segments))  # fmt: skip
    emit_table(out, t)
    for note in ev.notes:
        emit_note(out, f"note: {note}")
    emit_signatures(out, ev.signatures)
