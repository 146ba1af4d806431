"""``mtpalette analyze``: where systems differ, compare-mt's analyses (word accuracy by
frequency bucket, any metric by sentence bucket) with counts and, where asked, intervals.

Options -> :class:`~mtpalette.api.analyze_run.AnalyzeRun` ->
:func:`~mtpalette.api.analyze_run.run_analyze` -> one table per analysis.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, NamedTuple

import typer

from mtpalette.cli import options as o
from mtpalette.cli.console import emit_note, emit_rows, plain_console, result_console

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
    result = run_analyze(run, _feedback(quiet))
    if not quiet:
        for path in result.outputs.values():
            typer.echo(f"wrote {path}", err=True)
    show(result)


def _feedback(quiet: bool):
    """Notes and bars on standard error; none at all when quiet (and no rich: a quiet
    console would render each note before dropping it)."""
    if quiet:
        from mtpalette.feedback import SILENT

        return SILENT
    from rich.console import Console

    from mtpalette.progress import ConsoleFeedback

    return ConsoleFeedback(Console(stderr=True))


class _Grid(NamedTuple):
    """A table as text (:func:`~mtpalette.cli.console.emit_rows`): the title, headers and
    cells are rich markup, or the cells literal text (``literal``: n-grams and sentences)."""

    title: str
    columns: list[tuple[str, str]]
    rows: list[list[str]]
    literal: bool = False


def show(result) -> None:
    """One table per analysis (piped: text, without importing rich)."""
    out = plain_console() or result_console()
    for a in result.analyses:
        render = {"word-accuracy": _words, "sentence-buckets": _buckets,
                  "ngram-differences": _ngrams, "sentence-examples": _examples}[a.KIND]  # fmt: skip
        for grid in render(a):
            emit_rows(out, grid.title, grid.columns, grid.rows, literal=grid.literal)
    emit_note(out, "n: sentences (words) in the bucket; a bucket of a few is no finding "
                   "(--confidence gives intervals); -: an empty bucket, no score")  # fmt: skip
    for note in result.notes:
        emit_note(out, note)


def _words(a) -> list[_Grid]:
    columns = [("Bucket", "left"), ("Ref words", "right")]
    for name in a.systems:
        columns += [(f"{name} F", "right"), ("P / R", "right")]
    rows = []
    for b, label in enumerate(a.labels):
        cells = [_word_cells(a, s, b) for s in a.systems]
        rows.append([label, str(a.ref_words[b]), *(c for pair in cells for c in pair)])
    return [_Grid(_title(a), columns, rows)]


def _buckets(a) -> list[_Grid]:
    columns = [("Bucket" if a.edges else a.by.capitalize(), "left")]
    for name in a.systems:
        columns += [(f"{name}", "right"), ("n", "right")]
    rows = []
    for b, label in enumerate(a.labels):
        cells = [(_cell(a, s, b), str(a.counts[s][b])) for s in a.systems]
        rows.append([label, *(c for pair in cells for c in pair)])
    if a.macro is not None:
        rows.append(["macro average",
                     *(c for s in a.systems for c in (f"{a.macro[s]:.2f}", ""))])  # fmt: skip
    return [_Grid(_title(a), columns, rows)]


def _ngrams(a) -> list[_Grid]:
    out = []
    columns = [(col, "left" if col == "n-gram" else "right")
               for col in ("n-gram", a.system, a.baseline, "share")]  # fmt: skip
    for side, found in (("matched more", a.gains), ("matched less", a.losses)):
        rows = [_row(r["ngram"], str(r["system"]), str(r["baseline"]), f"{r['share']:.3f}")
                for r in found]  # fmt: skip
        title = f"n-grams {a.system} {side} than {a.baseline} (share, alpha {a.alpha:g})"
        out.append(_Grid(title, columns, rows, literal=True))
    return out


def _examples(a) -> list[_Grid]:
    out = []
    columns = [(col, "left" if col in (a.system, a.baseline, "Reference") else "right")
               for col in ("Segment", "Diff", a.system, a.baseline, "Reference")]  # fmt: skip
    for side, found in (("better", a.better), ("worse", a.worse)):
        rows = [_row(str(r["segment"]), f"{r['difference']:+.2f}", r["output"],
                     r["baseline_output"], r["reference"]) for r in found]  # fmt: skip
        title = f"segments where {a.system} scores {side} than {a.baseline} ({a.metric})"
        out.append(_Grid(title, columns, rows, literal=True))
    return out


def _row(*cells: str) -> list[str]:
    """A row of the texts as they are (literal: an n-gram or a sentence is no markup, ``[/b]``
    in a sentence would stop rich, and plain cells need no parsing), on one line each."""
    return [c.replace("\t", " ").replace("\n", " ") for c in cells]


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
