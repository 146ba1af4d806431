"""``mtpalette spans``: score error-span annotators against gold spans, as WMT does.

Options -> :class:`~mtpalette.api.spans_run.SpansRun` -> :func:`~mtpalette.api.spans_run.run_spans`
-> one table per protocol (precision, recall, F1 per language pair and their mean, intervals,
rank ranges and clusters of the annotators), the pairs, notes and signatures.
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


SPANS = "Spans"
P = o.opt
GoldOpt = Annotated[list[str], P("--gold", panel=SPANS,
                                 help="Gold spans: FILE[,annotator=NAME]; twice: the second is "
                                 "the human ceiling.")]  # fmt: skip
PredOpt = Annotated[
    list[str] | None, P("--pred", panel=SPANS, help="Predicted spans: NAME=FILE[,annotator=NAME].")
]
RatersOpt = Annotated[str | None, P("--raters", panel=SPANS,
                                    help="A,B: rater A of --gold as gold, B as the ceiling, on "
                                    "the segments both rated with the same text.")]  # fmt: skip
ProtocolOpt = Annotated[
    str, P("--protocol", panel=SPANS, help="wmt25, wmt23-qe, em, mp, mpp, chars (or P1,P2).")
]
FormatOpt = Annotated[str | None, P("--format", panel=SPANS, help="The files' format (detected).")]
ClipOpt = Annotated[bool, P("--clip", panel=SPANS, help="Cut spans to their text (organisers').")]
ExcludeOpt = Annotated[
    Path | None, P("--exclude", panel=SPANS, help="lp/sid table of segments to leave out.")
]
MissingOpt = Annotated[
    str,
    P(
        "--on-missing",
        panel=SPANS,
        help="Keys one side lacks: refuse, or common (score the shared).",
    ),
]
ByOpt = Annotated[str, P("--by", panel=SPANS, help="lp, system or domain (within each pair).")]
AverageOpt = Annotated[str, P("--average", panel=SPANS, help="micro or macro within a group.")]
EmptyOpt = Annotated[str, P("--both-empty", panel=SPANS, help="macro: perfect or skip.")]
PenaltyOpt = Annotated[
    float | None, P("--penalty", panel=SPANS, help="Severity penalty of em/mp/mpp/chars (0).")
]
CreditOpt = Annotated[
    float | None,
    P("--partial-credit", panel=SPANS, help="wmt25/wmt23-qe severity-mismatch credit (0.5)."),
]
CorrectionOpt = Annotated[str, P("--correction", panel=SPANS, help="none, holm or bh.")]
AlphaOpt = Annotated[float, P("--alpha", panel=SPANS, help="Significance level (0.05).")]
TsvOpt = Annotated[Path | None, P("--tsv", panel=o.OUTPUTS, help="Rows as TSV (-: stdout).")]
LatexOpt = Annotated[Path | None, P("--latex", panel=o.OUTPUTS, help="The 'all' rows as LaTeX.")]


def spans_cmd(
    gold: GoldOpt, pred: PredOpt = None, raters: RatersOpt = None,
    protocol: ProtocolOpt = "wmt25", format: FormatOpt = None, clip: ClipOpt = False,
    exclude: ExcludeOpt = None, on_missing: MissingOpt = "refuse", by: ByOpt = "lp",
    average: AverageOpt = "micro", both_empty: EmptyOpt = "perfect",
    penalty: PenaltyOpt = None, partial_credit: CreditOpt = None,
    bootstrap: o.BootstrapOpt = 1000, seed: o.SeedOpt = 12345,
    correction: CorrectionOpt = "none", alpha: AlphaOpt = 0.05, json: o.JsonOpt = None,
    tsv: TsvOpt = None, latex: LatexOpt = None, report: o.ReportOpt = None,
    quiet: o.QuietOpt = False,
) -> None:  # fmt: skip
    """Score span annotators against gold spans: P/R/F1 per language pair, intervals, ranks.

    Example: `mtpalette spans --gold gold.tsv --pred xcomet=xcomet.json --pred gemba=g.jsonl
    --protocol wmt25,mpp --json spans.json`.
    """
    from rich.console import Console

    from mtpalette.api.spans_run import SpansRun, run_spans
    from mtpalette.progress import ConsoleFeedback

    console = Console(stderr=True, quiet=quiet)
    run = SpansRun(
        gold=gold, pred=pred or [], raters=raters, protocol=protocol, format=format, clip=clip,
        exclude=exclude, on_missing=on_missing, by=by, average=average, both_empty=both_empty,
        penalty=penalty, partial_credit=partial_credit, bootstrap=bootstrap, seed=seed,
        correction=correction, alpha=alpha, json=json, tsv=tsv, latex=latex, report=report,
    )  # fmt: skip
    result = run_spans(run, ConsoleFeedback(console))
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
