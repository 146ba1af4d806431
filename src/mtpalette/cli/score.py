"""``mtpalette score``: corpus or sentence scores of one hypothesis set, with signatures.

Inputs, in the spirit of the sacrebleu command line:

* plain files: ``-i HYP -r REF [REF ...]``, one segment per line; ``-`` (the default for
  ``-i``) is standard input;
* one table: ``--table data.tsv --hyp-col mt --ref-col ref1 ref2`` (TSV with a header row,
  or JSON Lines with those fields, chosen by the extension or ``--table-format``).

``-r``, ``-m`` and ``--ref-col`` take several values after one flag, or the flag repeated.
Output goes to stdout or, written atomically, to ``-o FILE``.
"""

from __future__ import annotations

import contextlib
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from mtpalette.api import score_texts
from mtpalette.cli.backend_opts import BackendOption
from mtpalette.cli.render import corpus_report, sentence_report
from mtpalette.errors import UserInputError
from mtpalette.io.plain import STDIN, read_lines, read_parallel
from mtpalette.io.runfile import atomic_writer
from mtpalette.io.tabular import read_segments
from mtpalette.parallel import Backend

Opt = typer.Option


class OutputFormat(StrEnum):
    """Output formats (see :mod:`mtpalette.cli.render`)."""

    text = "text"
    json = "json"
    tsv = "tsv"


class TableFormat(StrEnum):
    """Formats of ``--table``."""

    auto = "auto"
    tsv = "tsv"
    jsonl = "jsonl"


def score(
    refs: Annotated[
        list[str] | None, Opt("--refs", "-r", help="Reference files: -r REF [REF ...].")
    ] = None,
    hyp: Annotated[str, Opt("--input", "-i", help="Hypothesis file; '-' is stdin.")] = STDIN,
    metrics: Annotated[
        list[str] | None,
        Opt("--metrics", "-m", help="Metric specs: -m bleu chrf 'bleus:1..9' (default: bleu)."),
    ] = None,
    table: Annotated[
        str | None, Opt("--table", help="A TSV or JSONL file with named columns instead.")
    ] = None,
    table_format: Annotated[
        TableFormat, Opt("--table-format", help="Format of --table; auto: by its extension.")
    ] = TableFormat.auto,
    table_quoting: Annotated[
        str,
        Opt("--table-quoting", help="TSV quoting: auto (CSV-quoted when written so), csv, none."),
    ] = "auto",
    hyp_col: Annotated[str, Opt("--hyp-col", help="Hypothesis column of --table.")] = "hyp",
    ref_cols: Annotated[
        list[str] | None, Opt("--ref-col", help="Reference columns of --table (default: ref).")
    ] = None,
    sentence: Annotated[bool, Opt("--sentence", help="One row of scores per segment.")] = False,
    tokenize: Annotated[
        str, Opt("--tokenize", "-tok", help="13a, intl, none, char or zh.")
    ] = "13a",
    lowercase: Annotated[bool, Opt("--lowercase", "-lc", help="Lower-case first.")] = False,
    fmt: Annotated[OutputFormat, Opt("--format", "-f", help="Output format.")] = OutputFormat.text,
    digits: Annotated[
        int | None,
        Opt(
            "--width",
            "-w",
            min=0,
            max=17,
            help="Decimals printed (default: 4 in text, all in tsv; json: all).",
        ),
    ] = None,
    output: Annotated[Path | None, Opt("--output", "-o", help="Write here (atomically).")] = None,
    source: Annotated[
        Path | None, Opt("--source", help="Source sentences, for plugins that read them.")
    ] = None,
    max_tokens: Annotated[
        int | None,
        Opt("--max-tokens", min=1, help="Refuse sentences longer than this (tokens)."),
    ] = None,
    backend: BackendOption = "inproc",
    workers: Annotated[int, Opt("--workers", help="Local workers.")] = 1,
    scheduler: Annotated[str | None, Opt("--scheduler", help="Dask scheduler address.")] = None,
) -> None:
    """Score hypotheses against one or more references; every score carries a signature.

    Examples: `mtpalette score -i hyp.txt -r ref1.txt ref2.txt -m bleu chrf 'bleus:1..9'`;
    `cat hyp.txt | mtpalette score -r ref.txt -m wer --sentence -f tsv`;
    `mtpalette score --table data.tsv --hyp-col mt --ref-col ref1 ref2 -f json -o scores.json`.
    """
    table_opts = (table, table_format.value, table_quoting)
    hyps, ref_streams = _inputs(refs, hyp, table_opts, hyp_col, ref_cols)
    srcs = None
    if source is not None:
        srcs = read_lines(source)
        if len(srcs) != len(hyps):
            raise UserInputError(
                f"has {len(srcs)} lines but the hypotheses have {len(hyps)}",
                path=str(source),
                line=min(len(srcs), len(hyps)) + 1,
            )
    fmt = fmt.value
    with _destination(output) as out:
        result = score_texts(
            hyps,
            ref_streams,
            metrics or ["bleu"],
            tokenize=tokenize,
            lowercase=lowercase,
            backend=Backend(backend, workers, scheduler),
            max_tokens=max_tokens,
            srcs=srcs,
        )
        if not sentence:
            out.write(corpus_report(result.corpus, fmt, digits=digits))
        elif fmt == "text":
            text = sentence_report(
                result.sentence, fmt, signatures=result.signatures, digits=digits
            )
            out.write(text)
        else:
            out.write(sentence_report(result.sentence, fmt, digits=digits))
            for signature in result.signatures.values():  # the numbers stay machine-readable
                typer.echo(f"# {signature}", err=True)


def _inputs(refs, hyp, table_opts, hyp_col, ref_cols):
    table, table_format, quoting = table_opts
    if table is not None:
        if refs:
            raise UserInputError("give either --table or -r/--refs files, not both")
        if hyp != STDIN:
            raise UserInputError("give either --table or -i/--input, not both")
        return read_segments(table, hyp_col, ref_cols or ["ref"], fmt=table_format, quoting=quoting)
    if ref_cols:
        raise UserInputError("--ref-col needs --table")
    if not refs:
        raise UserInputError("no references: give -r REF [REF ...] or --table FILE")
    if hyp == STDIN and sys.stdin.isatty():
        raise UserInputError("no hypotheses: give -i HYP or pipe them on standard input")
    return read_parallel(hyp, refs)


@contextlib.contextmanager
def _destination(output: Path | None):
    """Standard output, or an atomic writer: ``-o`` never leaves a partial file behind."""
    if output is None:
        yield sys.stdout
        return
    if output.is_dir():
        raise UserInputError("is a directory; expected an output file name", path=str(output))
    with atomic_writer(output) as fh:
        yield fh
