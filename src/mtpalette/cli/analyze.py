"""``mtpalette analyze``: where systems differ, compare-mt's analyses (word accuracy by
frequency bucket, any metric by sentence bucket) with counts and, where asked, intervals.

Options -> :class:`~mtpalette.api.analyze_run.AnalyzeRun` ->
:func:`~mtpalette.api.analyze_run.run_analyze` -> one table per analysis.
"""

from __future__ import annotations

from typing import NamedTuple

import typer

from mtpalette.api.analyze_run import AnalyzeRun
from mtpalette.cli import options as o
from mtpalette.cli.console import emit_note, emit_rows, plain_console, result_console
from mtpalette.sources.score_inputs import ScoreInputs

#: the inputs analyze reads (score's: plain files, a folder, a table, an MTME folder)
INPUTS = o.options_of(
    ScoreInputs, only=("refs", "hyps", "systems_dir", "table", "system_col", "mtme", "lp")
)


@o.with_options(INPUTS, AnalyzeRun, o.QUIET)
def analyze_cmd(**options) -> None:
    """Compare systems by word frequency and by sentence bucket, as compare-mt does.

    Examples: `mtpalette analyze -r ref.txt -s A.txt B.txt` (word F-measure by frequency,
    compare-mt's BLEU by reference length); `mtpalette analyze -r ref.txt --systems-dir
    outputs/ -a lengthdiff -m chrf --confidence 0.95 --csv buckets.csv`; `mtpalette analyze
    --mtme FOLDER --lp en-de -a domain document ngrams examples`.
    """
    from mtpalette.api.analyze_run import run_analyze

    run = o.fill(AnalyzeRun, options, inputs=o.fill(ScoreInputs, options))
    quiet = options["quiet"]
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
