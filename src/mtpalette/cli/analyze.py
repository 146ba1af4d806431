"""``mtpalette analyze``: where systems differ, compare-mt's analyses (word accuracy by
frequency bucket, any metric by sentence bucket) with counts and, where asked, intervals.

Options -> :class:`~mtpalette.api.analyze_run.AnalyzeRun` ->
:func:`~mtpalette.api.analyze_run.run_analyze` -> one table per analysis.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from rich.table import Table

from mtpalette.cli import options as o
from mtpalette.cli.console import emit_note, emit_table, result_console

AnalysesOpt = Annotated[
    list[str] | None,
    o.opt("--analyses", "-a", panel=o.METRICS,
          help="words, length, hyp-length, lengthdiff (default: words length)."),
]  # fmt: skip
MetricOpt = Annotated[
    str, o.opt("-m", "--metric", panel=o.METRICS, help="Metric of the sentence buckets.")
]
FreqOpt = Annotated[
    Path | None,
    o.opt("--freq-corpus", panel=o.INPUTS, help="Word frequencies from this text (a train set)."),
]
IntervalOpt = Annotated[
    float | None,
    o.opt("--confidence", panel=o.RESAMPLING, help="Bootstrap intervals per bucket (0.95)."),
]


def analyze_cmd(
    refs: o.RefsOpt = None,
    systems: o.SystemsOpt = None,
    systems_dir: o.SystemsDirOpt = None,
    table: o.TableOpt = None,
    system_col: o.SystemColOpt = None,
    mtme: o.MtmeOpt = None,
    lp: o.LpOpt = None,
    analyses: AnalysesOpt = None,
    metric: MetricOpt = "bleu:compat=compare-mt",
    freq_corpus: FreqOpt = None,
    tokenize: o.TokenizeOpt = "none",
    lowercase: o.LowercaseOpt = False,
    confidence: IntervalOpt = None,
    seed: o.SeedOpt = 12345,
    json: o.JsonOpt = None,
    csv: o.CsvOpt = None,
) -> None:
    """Compare systems by word frequency and by sentence bucket, as compare-mt does.

    Examples: `mtpalette analyze -r ref.txt -s A.txt B.txt` (word F-measure by frequency,
    compare-mt's BLEU by reference length); `mtpalette analyze -r ref.txt --systems-dir
    outputs/ -a lengthdiff -m chrf --confidence 0.95 --csv buckets.csv`.
    """
    from mtpalette.api.analyze_run import AnalyzeRun, run_analyze
    from mtpalette.api.score_inputs import ScoreInputs

    inputs = ScoreInputs(refs=[str(r) for r in refs or []] or None,
                         hyps=[str(s) for s in systems or []] or None, systems_dir=systems_dir,
                         table=None if table is None else str(table), system_col=system_col,
                         mtme=mtme, lp=lp)  # fmt: skip
    run = AnalyzeRun(
        inputs, analyses or ["words", "length"], metric, tokenize, lowercase, freq_corpus,
        confidence, seed=seed, json=json, csv=csv,
    )  # fmt: skip
    show(run_analyze(run))


def show(result) -> None:
    """One table per analysis: a row per bucket, a column group per system."""
    out = result_console()
    for a in result.analyses:
        t = Table(title=_title(a))
        t.add_column("Bucket")
        if a.KIND == "word-accuracy":
            t.add_column("Ref words", justify="right")
            for name in a.systems:
                t.add_column(f"{name} F", justify="right")
                t.add_column("P / R", justify="right")
            for b, label in enumerate(a.labels):
                cells = [f"{a.fmeasure[s][b]:.4f}|{a.precision[s][b]:.3f} / {a.recall[s][b]:.3f}"
                         for s in a.systems]  # fmt: skip
                t.add_row(label, str(a.ref_words[b]), *(c for x in cells for c in x.split("|")))
        else:
            for name in a.systems:
                t.add_column(f"{name}", justify="right")
                t.add_column("n", justify="right")
            for b, label in enumerate(a.labels):
                cells = [(_cell(a, s, b), str(a.counts[s][b])) for s in a.systems]
                t.add_row(label, *(c for pair in cells for c in pair))
        emit_table(out, t)
    emit_note(out, "n: sentences in the bucket; a bucket of a few sentences is no finding "
                   "(--confidence gives intervals)")  # fmt: skip


def _title(a) -> str:
    if a.KIND == "word-accuracy":
        return f"word F-measure (precision / recall) by frequency in the {a.frequency_source}"
    return f"{a.metric} by {a.what}"


def _cell(a, system: str, b: int) -> str:
    score = a.scores[system][b]
    if score is None:
        return "-"
    if a.low is None:
        return f"{score:.2f}"
    return f"{score:.2f} [{a.low[system][b]:.2f}, {a.high[system][b]:.2f}]"
