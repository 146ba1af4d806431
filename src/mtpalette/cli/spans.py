"""``mtpalette spans``: score error-span annotators against gold spans, as WMT does.

Options -> :class:`~mtpalette.api.spans_run.SpansRun` -> :func:`~mtpalette.api.spans_run.run_spans`
-> one table per protocol (precision, recall, F1 per language pair and their mean, intervals,
rank ranges and clusters of the annotators), the pairs, notes and signatures.
"""

from __future__ import annotations

from mtpalette.api.spans_run import SpansRun
from mtpalette.cli import options as o
from mtpalette.cli.console import (
    emit_note,
    emit_signatures,
    emit_table,
    result_console,
    show_written,
)


@o.with_options(SpansRun, o.QUIET)
def spans_cmd(**options) -> None:
    """Score span annotators against gold spans: P/R/F1 per language pair, intervals, ranks.

    Example: `mtpalette spans --gold gold.tsv --pred xcomet=xcomet.json --pred gemba=g.jsonl
    --protocol wmt25,mpp --json spans.json`.
    """
    from rich.console import Console

    from mtpalette.api.spans_run import run_spans
    from mtpalette.progress import ConsoleFeedback

    console = Console(stderr=True, quiet=options["quiet"])
    result = run_spans(o.fill(SpansRun, options), ConsoleFeedback(console))
    show_written(console, result.outputs)
    show_spans(result.evaluation)


def _cell(r, m: str) -> str:
    low = getattr(r, f"{m}_low")
    ci = f" [{low:.4f}, {getattr(r, f'{m}_high'):.4f}]" if low is not None else ""
    return f"{getattr(r, m):.4f}{ci}"


def show_spans(ev) -> None:
    """One table per protocol: annotator, kind, group, P, R, F1 (intervals), rank, cluster."""
    from rich.table import Table

    out = result_console()
    for name in ev.protocols:
        t = Table(title=f"spans: {name} ({ev.average}; lp 'all': mean over language pairs)")
        cols = ["Annotator", "Kind", "lp", *([ev.by] if ev.by != "lp" else []), "P", "R", "F1",
                "Rank", "Cluster", "Segments"]  # fmt: skip
        for c in cols:
            t.add_column(c, justify="left" if c in ("Annotator", "Kind", "lp", ev.by) else "right")
        for r in (r for r in ev.rows if r.protocol == name):
            rank = (
                ""
                if r.rank_top is None
                else (
                    f"{r.rank_top}" + (f"-{r.rank_bottom}" if r.rank_bottom != r.rank_top else "")
                )
            )
            group = [r.system or r.domain or ""] if ev.by != "lp" else []
            t.add_row(r.metric, r.kind, r.lp, *group, _cell(r, "precision"), _cell(r, "recall"),
                      _cell(r, "f1"), rank, "" if r.cluster is None else str(r.cluster),
                      str(r.segments))  # fmt: skip
        emit_table(out, t)
        pairs = [p for p in ev.pairs if p.protocol == name]
        if pairs:
            n = sum(p.significant for p in pairs)
            emit_note(out, f"{n} of {len(pairs)} annotator pairs differ significantly in the "
                      f"'all' F1 (paired bootstrap, {ev.n_resamples} resamples, seed {ev.seed}, "
                      f"correction {ev.correction}, alpha {ev.alpha:g})")  # fmt: skip
    for note in ev.notes:
        emit_note(out, f"note: {note}")
    emit_signatures(out, ev.signatures)
