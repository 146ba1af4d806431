"""``mtpalette errorfree``: score "this translation is error-free" decisions (WMT26 subtask 3).

Options -> :class:`~mtpalette.api.errorfree_run.ErrorFreeRun` ->
:func:`~mtpalette.api.errorfree_run.run_errorfree` -> one table (MCC first, precision, recall
and F1 of both classes, accuracy, the always-one-class baselines, intervals).
"""

from __future__ import annotations

from mtpalette.api.errorfree_run import ErrorFreeRun
from mtpalette.cli import options as o
from mtpalette.cli.console import (
    emit_note,
    emit_signatures,
    emit_table,
    result_console,
    show_written,
)


@o.with_options(ErrorFreeRun, o.QUIET)
def errorfree_cmd(**options) -> None:
    """Score error-free decisions: MCC, P/R/F1 of both classes, accuracy, baselines.

    Example: `mtpalette errorfree --gold esa.csv --pred m=scores.jsonl --tune-on dev.jsonl
    --tune-gold esa_dev.csv`.
    """
    from rich.console import Console

    from mtpalette.api.errorfree_run import run_errorfree
    from mtpalette.progress import ConsoleFeedback

    console = Console(stderr=True, quiet=options["quiet"])
    result = run_errorfree(o.fill(ErrorFreeRun, options), ConsoleFeedback(console))
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
