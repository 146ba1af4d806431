"""``mtpalette score``: corpus or sentence scores of one or several systems, with signatures,
bootstrap intervals and paired significance tests, in the spirit of the sacrebleu command
line (same option names where sacrebleu has them).

Inputs:

* plain files: ``-i SYS [SYS ...] -r REF [REF ...]``, one segment per line; ``-`` (the
  default for ``-i``) is standard input; ``--systems-dir DIR`` takes every system output of
  a folder (references, sources and id lists left out, with a note);
* one table: ``--table data.tsv --hyp-col mt --ref-col ref1 ref2`` (TSV with a header row,
  or JSON Lines with those fields, chosen by the extension or ``--table-format``).

``-i``, ``-r``, ``-m`` and ``--ref-col`` take several values after one flag, or the flag
repeated. Output goes to stdout or, written atomically, to ``-o FILE``.
"""

# No ``from __future__ import annotations`` here: with it, typer would turn each of the
# options' annotation strings back into objects (typing.get_type_hints: a compile and an eval
# each), 8 ms of every ``mtpalette score`` run; evaluated once at import they cost 1 ms.

import contextlib
import shutil
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import numpy as np
import typer

from mtpalette.api.checks import SACREBLEU_SEED
from mtpalette.api.score_inputs import ScoreInputs
from mtpalette.api.scoring import score_systems, sort_systems
from mtpalette.cli.backend_opts import BackendOption
from mtpalette.cli.options import (
    INPUTS,
    METRICS,
    OUTPUTS,
    RESAMPLING,
    RUNNING,
    LowercaseOpt,
    MetricsOpt,
    TokenizeOpt,
)
from mtpalette.cli.render import corpus_records, records_report, sentence_report
from mtpalette.errors import UserInputError
from mtpalette.parallel import Backend

Opt = typer.Option
TESTS = RESAMPLING
OUTPUT = OUTPUTS


class OutputFormat(StrEnum):
    """Output formats (see :mod:`mtpalette.cli.render`)."""

    text = "text"
    json = "json"
    jsonl = "jsonl"
    tsv = "tsv"
    latex = "latex"


class TableFormat(StrEnum):
    """Formats of ``--table``."""

    auto = "auto"
    tsv = "tsv"
    csv = "csv"
    jsonl = "jsonl"
    parquet = "parquet"


def score(
    refs: Annotated[
        list[str] | None,
        Opt("--refs", "-r", help="Reference files: -r REF [REF ...].", rich_help_panel=INPUTS),
    ] = None,
    hyps: Annotated[
        list[str] | None,
        Opt(
            "--input",
            "-i",
            "--systems",
            "-s",
            help="System output files or globs: -i SYS [SYS ...] ('outputs/*.txt'); '-' "
            "(default) is stdin.",
            rich_help_panel=INPUTS,
        ),
    ] = None,
    mtme: Annotated[
        Path | None,
        Opt(
            "--mtme",
            help="Every system of an mt-metrics-eval test set folder (with --lp, --mtme-ref).",
            rich_help_panel=INPUTS,
        ),
    ] = None,
    lp: Annotated[
        str | None, Opt("--lp", help="--mtme: the language pair.", rich_help_panel=INPUTS)
    ] = None,
    mtme_ref: Annotated[
        str | None,
        Opt(
            "--mtme-ref",
            help="--mtme: the reference (default: the set's standard one).",
            rich_help_panel=INPUTS,
        ),
    ] = None,
    systems_dir: Annotated[
        Path | None,
        Opt(
            "--systems-dir",
            help="Score every system output in this folder.",
            rich_help_panel=INPUTS,
        ),
    ] = None,
    metrics: MetricsOpt = None,
    table: Annotated[
        str | None,
        Opt(
            "--table",
            help="A TSV, CSV, JSONL or Parquet file with named columns instead.",
            rich_help_panel=INPUTS,
        ),
    ] = None,
    table_format: Annotated[
        TableFormat,
        Opt(
            "--table-format",
            help="Format of --table; auto: by its content and extension.",
            rich_help_panel=INPUTS,
        ),
    ] = TableFormat.auto,
    table_quoting: Annotated[
        str,
        Opt(
            "--table-quoting",
            help="TSV quoting: auto (CSV-quoted when written so), csv, none.",
            rich_help_panel=INPUTS,
        ),
    ] = "auto",
    hyp_cols: Annotated[
        list[str] | None,
        Opt(
            "--hyp-col",
            help="Hypothesis column(s) of --table, one system each (default: hyp).",
            rich_help_panel=INPUTS,
        ),
    ] = None,
    ref_cols: Annotated[
        list[str] | None,
        Opt(
            "--ref-col", help="Reference columns of --table (default: ref).", rich_help_panel=INPUTS
        ),
    ] = None,
    system_col: Annotated[
        str | None,
        Opt(
            "--system-col",
            help="A long --table: one row per system and segment (default: a 'system' column).",
            rich_help_panel=INPUTS,
        ),
    ] = None,
    sentence: Annotated[
        bool, Opt("--sentence", help="One row of scores per segment.", rich_help_panel=OUTPUT)
    ] = False,
    tokenize: TokenizeOpt = "13a",
    lowercase: LowercaseOpt = False,
    paired_bs: Annotated[
        bool,
        Opt(
            "--paired-bs",
            "-pbs",
            help="Paired bootstrap test against the baseline (Koehn 2004).",
            rich_help_panel=TESTS,
        ),
    ] = False,
    paired_ar: Annotated[
        bool,
        Opt(
            "--paired-ar",
            "-par",
            help="Approximate randomization test against the baseline (Riezler & Maxwell 2005).",
            rich_help_panel=TESTS,
        ),
    ] = False,
    paired_bs_n: Annotated[
        int,
        Opt("--paired-bs-n", "-pbsn", min=1, help="Bootstrap resamples.", rich_help_panel=TESTS),
    ] = 1000,
    paired_ar_n: Annotated[
        int,
        Opt("--paired-ar-n", "-parn", min=1, help="Randomization trials.", rich_help_panel=TESTS),
    ] = 10000,
    baseline: Annotated[
        str | None,
        Opt(
            "--baseline",
            help="The baseline system's name (default: the first); best: the best system by "
            "the first metric.",
            rich_help_panel=TESTS,
        ),
    ] = None,
    sort: Annotated[
        str | None,
        Opt(
            "--sort",
            help="Order the systems by this metric, best first (lower first for ↓ metrics).",
            rich_help_panel=OUTPUT,
        ),
    ] = None,
    confidence: Annotated[
        bool,
        Opt(
            "--confidence",
            "-ci",
            help="Bootstrap 95% interval of every score.",
            rich_help_panel=TESTS,
        ),
    ] = False,
    confidence_n: Annotated[
        int,
        Opt(
            "--confidence-n",
            "-cin",
            min=1,
            help="Resamples of the intervals.",
            rich_help_panel=TESTS,
        ),
    ] = 1000,
    seed: Annotated[
        int,
        Opt("--seed", min=0, help="Seed of resampling (sacrebleu's 12345).", rich_help_panel=TESTS),
    ] = SACREBLEU_SEED,
    fmt: Annotated[
        OutputFormat, Opt("--format", "-f", help="Output format.", rich_help_panel=OUTPUT)
    ] = OutputFormat.text,
    digits: Annotated[
        int | None,
        Opt(
            "--width",
            "-w",
            min=0,
            max=17,
            help="Decimals printed (default: 4 in text, all in tsv and json).",
            rich_help_panel=OUTPUT,
        ),
    ] = None,
    details: Annotated[
        bool,
        Opt(
            "--details",
            "-d",
            help="BLEU's precisions, BP, ratio, lengths; chrF's, TER's...",
            rich_help_panel=OUTPUT,
        ),
    ] = False,
    signatures: Annotated[
        bool,
        Opt("--signatures", help="Every metric's signature in full.", rich_help_panel=OUTPUT),
    ] = False,
    output: Annotated[
        Path | None, Opt("--output", "-o", help="Write here (atomically).", rich_help_panel=OUTPUT)
    ] = None,
    source: Annotated[
        Path | None,
        Opt(
            "--source", help="Source sentences, for plugins that read them.", rich_help_panel=INPUTS
        ),
    ] = None,
    max_tokens: Annotated[
        int | None,
        Opt(
            "--max-tokens",
            min=1,
            help="Refuse sentences longer than this (tokens).",
            rich_help_panel=METRICS,
        ),
    ] = None,
    backend: BackendOption = "inproc",
    workers: Annotated[int, Opt("--workers", help="Local workers.", rich_help_panel=RUNNING)] = 1,
    scheduler: Annotated[
        str | None, Opt("--scheduler", help="Dask scheduler address.", rich_help_panel=RUNNING)
    ] = None,
) -> None:
    """Score system outputs against one or more references; every score carries a signature.

    Examples: `mtpalette score -i hyp.txt -r ref1.txt ref2.txt -m bleu chrf 'bleus:1..9'`;
    `mtpalette score -i base.txt A.txt B.txt -r ref.txt -m bleu chrf ter --paired-bs`;
    `mtpalette score -i hyp.txt -r ref.txt -m bleu --confidence --details`;
    `cat hyp.txt | mtpalette score -r ref.txt -m wer --sentence -f tsv`;
    `mtpalette score --table data.tsv --hyp-col mt --ref-col ref1 ref2 -f json -o scores.json`
    (`--hyp-col A B C`: one system per column).

    With several systems the table has one row per system. --paired-bs and --paired-ar test
    each system against the baseline as sacrebleu does, drawing the same resamples for the
    same --seed (p-value: the share of resamples or trials whose difference is as large as
    the observed one; * marks p < 0.05); --confidence adds each score's bootstrap interval.
    """
    inputs = ScoreInputs(
        refs, hyps, systems_dir, table, table_format.value, table_quoting, hyp_cols, ref_cols,
        system_col, source, mtme, lp, mtme_ref,
    )  # fmt: skip
    systems, ref_streams, srcs = inputs.load(lambda text: typer.echo(text, err=True))
    paired = _paired(paired_bs, paired_ar, confidence, sentence, len(systems))
    if baseline is not None and paired is None:
        raise UserInputError("--baseline names the system of a paired test: add --paired-bs")
    if sentence and fmt == OutputFormat.latex:
        raise UserInputError("-f latex is for corpus scores (a paper's table); drop --sentence")
    if sort is not None and sentence:
        raise UserInputError("--sort orders corpus scores; drop --sentence")
    fmt = fmt.value
    with _destination(output) as out:
        scored = score_systems(
            systems,
            ref_streams,
            metrics or ["bleu"],
            tokenize=tokenize,
            lowercase=lowercase,
            backend=Backend(backend, workers, scheduler),
            max_tokens=max_tokens,
            srcs=srcs,
        )
        named = len(systems) > 1
        if sentence:
            out.write(_sentences(scored, fmt, digits, signatures, named))
            return
        if sort is not None:
            scored = sort_systems(scored, sort)
        comparison = None
        if paired or confidence:
            from mtpalette.api.paired import compare_scored

            trials = {"bs": paired_bs_n, "ar": paired_ar_n, None: None}[paired]
            resamples = confidence_n if confidence else (None if paired else 0)
            comparison = compare_scored(
                scored,
                test=paired,
                baseline=baseline,
                n_trials=trials,
                n_resamples=resamples,
                seed=seed,
            )
        records, sigs = corpus_records(scored, comparison, named=named)
        report = records_report(
            records,
            fmt,
            signatures=sigs,
            digits=digits,
            details=details,
            full_signatures=signatures,
            width=shutil.get_terminal_size().columns if output is None else None,
        )
        out.write(report)


def _paired(paired_bs: bool, paired_ar: bool, confidence: bool, sentence: bool, n_systems: int):
    """``"bs"``, ``"ar"`` or None, checked against the other options."""
    if paired_bs and paired_ar:
        raise UserInputError("give either --paired-bs or --paired-ar, not both")
    paired = "bs" if paired_bs else "ar" if paired_ar else None
    if sentence and (paired or confidence):
        raise UserInputError(
            "significance tests and intervals are for corpus scores; drop --sentence"
        )
    if paired and n_systems < 2:
        raise UserInputError(
            "a paired test needs a baseline and at least one other system: -i BASE SYS [SYS ...]"
        )
    return paired


def _sentences(scored, fmt: str, digits, full_signatures: bool, named: bool) -> str:
    first = next(iter(scored.values()))
    columns = {
        name: np.concatenate([s.sentence[name] for s in scored.values()]) for name in first.names
    }
    systems = [name for name, s in scored.items() for _ in range(s.n_segments)] if named else None
    if fmt != "text":  # the numbers stay machine-readable; signatures go to stderr
        for signature in first.signatures.values():
            typer.echo(f"# {signature}", err=True)
        return sentence_report(columns, fmt, systems=systems, digits=digits)
    return sentence_report(
        columns,
        fmt,
        systems=systems,
        signatures=first.signatures,
        digits=digits,
        full_signatures=full_signatures,
        lower=[s.metric for s in first.corpus if not s.higher_is_better],
    )


@contextlib.contextmanager
def _destination(output: Path | None):
    """Standard output, or an atomic writer: ``-o`` never leaves a partial file behind."""
    if output is None:
        yield sys.stdout
        return
    if output.is_dir():
        raise UserInputError("is a folder; expected a file name", path=str(output))
    from mtpalette.io.runfile import atomic_writer

    with atomic_writer(output) as fh:
        yield fh
