"""``mtpalette analyze``: where systems differ, compare-mt's analyses (word accuracy by
frequency bucket, any metric by sentence bucket) with counts and, where asked, intervals.

Options -> :class:`~mtpalette.api.analyze_run.AnalyzeRun` ->
:func:`~mtpalette.api.analyze_run.run_analyze` -> one table per analysis.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from mtpalette.cli import options as o
from mtpalette.cli.console import emit_note, emit_table, result_console

if TYPE_CHECKING:
    from rich.table import Table


AnalysesOpt = Annotated[
    list[str] | None,
    o.opt("--analyses", "-a", panel=o.METRICS,
          help="words, length, hyp-length, lengthdiff, score, domain, document, label, "
               "ngrams, examples (default: words length)."),
]  # fmt: skip
MetricOpt = Annotated[
    str, o.opt("-m", "--metric", panel=o.METRICS, help="Metric of the sentence buckets.")
]
FreqOpt = Annotated[
    Path | None,
    o.opt("--freq-corpus", panel=o.INPUTS, help="Word frequencies from this text (a train set)."),
]
DocsOpt = Annotated[
    Path | None,
    o.opt("--docs", panel=o.INPUTS, help="'DOMAIN DOCUMENT' per sentence (MTME's .docs)."),
]
DomainColOpt = Annotated[
    str | None, o.opt("--domain-col", panel=o.INPUTS, help="--table: the domain column.")
]
DocColOpt = Annotated[
    str | None, o.opt("--doc-col", panel=o.INPUTS, help="--table: the document column.")
]
LabelsOpt = Annotated[
    Path | None,
    o.opt("--labels", panel=o.INPUTS, help="A label per sentence, none blank (-a label)."),
]
BaselineOpt = Annotated[
    str | None, o.opt("--baseline", panel=o.METRICS, help="ngrams, examples: against (1st).")
]
SentenceMetricOpt = Annotated[
    str | None,
    o.opt("--sentence-metric", panel=o.METRICS,
          help="examples, score: the metric (bleus:4; --compat compare-mt: sentbleu)."),
]  # fmt: skip
TopOpt = Annotated[
    int | None,
    o.opt("--top", panel=o.OUTPUTS,
          help="Examples and n-grams each way per system, 1 or more (10 and 50)."),
]  # fmt: skip
CompatOpt = Annotated[
    str | None,
    o.opt("--compat", panel=o.METRICS,
          help="compare-mt: split words as compare-mt 0.2.10 (single spaces), its sentbleu."),
]  # fmt: skip
AnalyzeTokenizeOpt = Annotated[
    str | None,
    o.opt("--tokenize", "-tok", panel=o.METRICS,
          help="13a (default: punctuation split), intl, zh, char, none (whitespace)..."),
]  # fmt: skip
IntervalOpt = Annotated[
    float | None,
    o.opt("--confidence", panel=o.RESAMPLING,
          help="Bootstrap intervals per bucket at this level, between 0 and 1 (0.95)."),
]  # fmt: skip


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
    docs: DocsOpt = None,
    domain_col: DomainColOpt = None,
    doc_col: DocColOpt = None,
    labels: LabelsOpt = None,
    baseline: BaselineOpt = None,
    sentence_metric: SentenceMetricOpt = None,
    top: TopOpt = None,
    tokenize: AnalyzeTokenizeOpt = None,
    lowercase: o.LowercaseOpt = False,
    compat: CompatOpt = None,
    confidence: IntervalOpt = None,
    seed: o.SeedOpt = 12345,
    json: o.JsonOpt = None,
    csv: o.CsvOpt = None,
    report: o.ReportOpt = None,
    quiet: o.QuietOpt = False,
) -> None:
    """Compare systems by word frequency and by sentence bucket, as compare-mt does.

    Examples: `mtpalette analyze -r ref.txt -s A.txt B.txt` (word F-measure by frequency,
    compare-mt's BLEU by reference length); `mtpalette analyze -r ref.txt --systems-dir
    outputs/ -a lengthdiff -m chrf --confidence 0.95 --csv buckets.csv`; `mtpalette analyze
    --mtme FOLDER --lp en-de -a domain document ngrams examples`.
    """
    from rich.console import Console

    from mtpalette.api.analyze_run import AnalyzeRun, run_analyze
    from mtpalette.sources.score_inputs import ScoreInputs

    inputs = ScoreInputs(refs=[str(r) for r in refs or []] or None,
                         hyps=[str(s) for s in systems or []] or None, systems_dir=systems_dir,
                         table=None if table is None else str(table), system_col=system_col,
                         mtme=mtme, lp=lp)  # fmt: skip
    run = AnalyzeRun(
        inputs, analyses or ["words", "length"], metric, tokenize, lowercase, freq_corpus,
        confidence, seed=seed, docs=docs, domain_col=domain_col, doc_col=doc_col,
        labels_file=labels, baseline=baseline,
        sentence_metric=sentence_metric,
        top=top, json=json, csv=csv, report=report, compat=compat,
    )  # fmt: skip
    from mtpalette.progress import ConsoleFeedback

    # quiet: no note is even rendered (rich renders a quiet console's text before dropping it)
    feedback = ConsoleFeedback(Console(stderr=True, quiet=quiet), notes=not quiet)
    result = run_analyze(run, feedback)
    if not quiet:
        for path in result.outputs.values():
            typer.echo(f"wrote {path}", err=True)
    show(result)


def show(result) -> None:
    """One table per analysis."""
    out = result_console()
    for a in result.analyses:
        render = {"word-accuracy": _words, "sentence-buckets": _buckets,
                  "ngram-differences": _ngrams, "sentence-examples": _examples}[a.KIND]  # fmt: skip
        for table in render(a):
            emit_table(out, table)
    emit_note(out, "n: sentences (words) in the bucket; a bucket of a few is no finding "
                   "(--confidence gives intervals); -: an empty bucket, no score")  # fmt: skip
    for note in result.notes:
        emit_note(out, note)


def _words(a) -> list[Table]:
    from rich.table import Table

    t = Table(title=_title(a))
    t.add_column("Bucket")
    t.add_column("Ref words", justify="right")
    for name in a.systems:
        t.add_column(f"{name} F", justify="right")
        t.add_column("P / R", justify="right")
    for b, label in enumerate(a.labels):
        cells = [_word_cells(a, s, b) for s in a.systems]
        t.add_row(label, str(a.ref_words[b]), *(c for pair in cells for c in pair))
    return [t]


def _buckets(a) -> list[Table]:
    from rich.table import Table

    t = Table(title=_title(a))
    t.add_column("Bucket" if a.edges else a.by.capitalize())
    for name in a.systems:
        t.add_column(f"{name}", justify="right")
        t.add_column("n", justify="right")
    for b, label in enumerate(a.labels):
        cells = [(_cell(a, s, b), str(a.counts[s][b])) for s in a.systems]
        t.add_row(label, *(c for pair in cells for c in pair))
    if a.macro is not None:
        t.add_row("macro average", *(c for s in a.systems for c in (f"{a.macro[s]:.2f}", "")))
    return [t]


def _ngrams(a) -> list[Table]:
    from rich.table import Table

    out = []
    for side, rows in (("matched more", a.gains), ("matched less", a.losses)):
        t = Table(title=f"n-grams {a.system} {side} than {a.baseline} (share, alpha {a.alpha:g})")
        for col in ("n-gram", a.system, a.baseline, "share"):
            t.add_column(col, justify="left" if col == "n-gram" else "right")
        for r in rows:
            _row(t, r["ngram"], str(r["system"]), str(r["baseline"]), f"{r['share']:.3f}")
        out.append(t)
    return out


def _examples(a) -> list[Table]:
    from rich.table import Table

    out = []
    for side, rows in (("better", a.better), ("worse", a.worse)):
        t = Table(title=f"segments where {a.system} scores {side} than {a.baseline} ({a.metric})")
        for col in ("Segment", "Diff", a.system, a.baseline, "Reference"):
            t.add_column(col, justify="left" if col in (a.system, a.baseline, "Reference")
                         else "right")  # fmt: skip
        for r in rows:
            _row(t, str(r["segment"]), f"{r['difference']:+.2f}", r["output"],
                 r["baseline_output"], r["reference"])  # fmt: skip
        out.append(t)
    return out


def _row(table: Table, *cells: str) -> None:
    """A row of the texts as they are: an n-gram or a sentence is no markup (``[/b]`` in a
    sentence would stop rich), and plain cells need no parsing."""
    from rich.text import Text

    table.add_row(*(Text(c.replace("\t", " ").replace("\n", " ")) for c in cells))


def _word_cells(a, system: str, b: int) -> tuple[str, str]:
    """F, and P / R, of one system in one frequency bucket; "-" where the bucket holds no
    word of the reference or of the output (no score, where compare-mt prints 0)."""
    if a.ref_words[b] == 0 and a.out_words[system][b] == 0:
        return "-", "-"
    return (f"{a.fmeasure[system][b]:.4f}",
            f"{a.precision[system][b]:.4f} / {a.recall[system][b]:.4f}")  # fmt: skip


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
