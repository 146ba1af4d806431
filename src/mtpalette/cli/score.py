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

from __future__ import annotations

import contextlib
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import numpy as np
import typer

from mtpalette.api.checks import check_distinct_references, drop_reference_copies
from mtpalette.api.paired import SACREBLEU_SEED, compare_scored
from mtpalette.api.scoring import score_systems
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
from mtpalette.io.plain import (
    STDIN,
    check_line_count,
    check_stdin_once,
    display_name,
    read_lines,
    read_matching,
)
from mtpalette.io.runfile import atomic_writer
from mtpalette.io.tabular import read_segments
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
            help="System output files: -i SYS [SYS ...]; '-' (default) is stdin.",
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
            help="The baseline system's name (default: the first).",
            rich_help_panel=TESTS,
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
    table_opts = (table, table_format.value, table_quoting, system_col)
    if mtme is not None:
        systems, ref_streams = _mtme_systems(mtme, lp, mtme_ref, refs, hyps, systems_dir, table)
    elif lp is not None:
        raise UserInputError("--lp names the language pair of --mtme")
    else:
        systems, ref_streams = _inputs(
            refs, hyps, systems_dir, table_opts, hyp_cols, ref_cols, source
        )
    paired = _paired(paired_bs, paired_ar, confidence, sentence, len(systems))
    if baseline is not None and paired is None:
        raise UserInputError("--baseline names the system of a paired test: add --paired-bs")
    if sentence and fmt == OutputFormat.latex:
        raise UserInputError("-f latex is for corpus scores (a paper's table); drop --sentence")
    srcs = _sources(source, len(ref_streams[0]))
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
        comparison = None
        if paired or confidence:
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
    )


def _mtme_systems(mtme, lp, mtme_ref, refs, hyps, systems_dir, table):
    """Every system output of an mt-metrics-eval folder (read as MTME's EvalSet reads it, the
    judged and unjudged alike) and the reference in use."""
    from mtpalette.api.folders import read_mtme_set

    if refs or hyps or systems_dir is not None or table is not None:
        raise UserInputError("--mtme replaces -r, -i, --systems-dir and --table")
    if lp is None:
        raise UserInputError("--mtme needs the language pair: --lp (e.g. --lp zh-en)")
    evs = read_mtme_set(mtme, lp, ref=mtme_ref, judged_only=False)
    typer.echo(evs.left_out_line(), err=True)
    return dict(zip(evs.systems, evs.texts(), strict=True)), [evs.reference()]


def _inputs(refs, hyps, systems_dir, table_opts, hyp_cols, ref_cols, source):
    """``({system: outputs}, reference streams)`` from a table or from files."""
    table, table_format, quoting, system_col = table_opts
    if system_col is not None and table is None:
        raise UserInputError("--system-col names a column of --table")
    if table is not None:
        if refs:
            raise UserInputError("give either --table or -r/--refs files, not both")
        if hyps:
            raise UserInputError("give either --table or -i/--input, not both")
        if systems_dir is not None:
            raise UserInputError("give either --table or --systems-dir, not both")
        cols = hyp_cols or ["hyp"]
        twice = sorted({c for c in cols if cols.count(c) > 1})
        if twice:
            raise UserInputError(f"--hyp-col {', '.join(map(repr, twice))} given twice")
        long = _long_table(table, table_format, quoting, system_col, cols)
        if long is not None:
            return long(ref_cols or ["ref"])
        rcols = ref_cols or ["ref"]
        twice = sorted({c for c in rcols if rcols.count(c) > 1})
        if twice:
            raise UserInputError(f"--ref-col {', '.join(map(repr, twice))} given twice")
        systems, ref_streams = {}, None
        for col in cols:
            systems[col], ref_streams = read_segments(
                table, col, rcols, fmt=table_format, quoting=quoting
            )
        return systems, ref_streams
    if ref_cols or hyp_cols:
        raise UserInputError("--ref-col and --hyp-col need --table")
    if not refs:
        raise UserInputError("no references: give -r REF [REF ...] or --table FILE")
    check_stdin_once([*(hyps or []), *refs])
    ref_streams = [read_lines(path) for path in refs]
    paths = _system_paths(hyps, systems_dir, refs, source, len(ref_streams[0]))
    outputs = [read_lines(path) for path in paths]
    n = len(outputs[0])
    for path, lines in zip(paths[1:], outputs[1:], strict=True):
        check_line_count(path, len(lines), n, f"the first system ({display_name(paths[0])}) has")
    for path, stream in zip(refs, ref_streams, strict=True):
        check_line_count(path, len(stream), n, f"the hypotheses ({display_name(paths[0])}) have")
    check_distinct_references(ref_streams, [display_name(p) for p in refs])
    systems = dict(zip(_names(paths), outputs, strict=True))
    if systems_dir is not None:  # a reference's copy in the folder is not a system
        names = [display_name(p) for p in refs]
        systems = drop_reference_copies(
            systems, ref_streams, names, lambda text: typer.echo(text, err=True)
        )
    return systems, ref_streams


def _long_table(table, table_format, quoting, system_col, hyp_cols):
    """A reader of a long table (a system column: one row per system and segment), or None
    for a wide one. A system column is never ignored: with several --hyp-col it is refused."""
    from mtpalette.io.tabular import header, read_long_segments

    names = header(table, fmt=table_format, quoting=quoting)
    col = system_col or ("system" if "system" in names else None)
    if col is None:
        return None
    if len(hyp_cols) > 1:
        raise UserInputError(
            f"the table has a system column ({col!r}): one row per system and segment, one "
            "--hyp-col; several --hyp-col are for wide tables (one column per system)",
            path=str(table),
        )
    segment = next((c for c in ("segment", "seg_id") if c in names), None)

    def read(ref_cols):
        return read_long_segments(
            table, col, hyp_cols[0], ref_cols, segment_col=segment, fmt=table_format,
            quoting=quoting,
        )  # fmt: skip

    return read


def _system_paths(hyps, systems_dir, refs, source, n_lines: int) -> list[str]:
    from mtpalette.io.nbest import report_system_files, select_system_files

    if systems_dir is None:
        hyps = hyps or [STDIN]
        if hyps == [STDIN] and sys.stdin.isatty():
            raise UserInputError("no hypotheses: give -i HYP or pipe them on standard input")
        return hyps
    if hyps:
        raise UserInputError("give either -i/--input files or --systems-dir, not both")
    others = [*refs, *([source] if source is not None else [])]
    taken, notes = select_system_files(systems_dir, inputs_=others, n_lines=n_lines)
    if not taken:
        raise UserInputError(
            f"no system output with {n_lines} lines (the references') in the folder",
            path=str(systems_dir),
        )
    report_system_files(systems_dir, taken, notes)
    return [str(p) for p in taken]


def _names(paths: list[str]) -> list[str]:
    """Short system names (the file names without their shared parts); the paths as given
    when two short names coincide."""
    from mtpalette.io.nbest import system_names

    if len(paths) == 1:
        return [display_name(paths[0])]
    names = system_names(paths)
    if len(set(names)) < len(names):
        names = [display_name(p) for p in paths]
    if len(set(names)) < len(names):
        raise UserInputError(f"the same system file is given twice: {', '.join(names)}")
    return names


def _sources(source: Path | None, n: int) -> list[str] | None:
    return None if source is None else read_matching(source, n, "the hypotheses have")


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
