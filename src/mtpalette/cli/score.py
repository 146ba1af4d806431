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

# The module holds the options only (typer builds `score --help` from them, with no numpy);
# the scoring path is imported by the command when it runs.

import shutil
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from mtpalette.cli.backend_opts import BackendOption
from mtpalette.cli.options import (
    INPUTS,
    METRICS,
    OUTPUT_FORMATS,
    OUTPUTS,
    RESAMPLING,
    RUNNING,
    LowercaseOpt,
    MetricsOpt,
    TokenizeOpt,
    opt,
    with_options,
)
from mtpalette.cli.wmt25_opts import WMT25, wmt25_inputs
from mtpalette.errors import UserInputError

#: sacrebleu's seed of the resampling tests (its SACREBLEU_SEED; stats.paired's default)
SACREBLEU_SEED = 12345

TESTS = RESAMPLING
OUTPUT = OUTPUTS


#: output formats (see :mod:`mtpalette.cli.render`)
OutputFormat = StrEnum("OutputFormat", {f: f for f in OUTPUT_FORMATS})


class TableFormat(StrEnum):
    """Formats of ``--table``."""

    auto = "auto"
    tsv = "tsv"
    csv = "csv"
    jsonl = "jsonl"
    parquet = "parquet"


# ----- inputs ---------------------------------------------------------------------------
RefsOpt = Annotated[
    list[str] | None, opt("--refs", "-r", panel=INPUTS, help="Reference files: -r REF [REF ...].")
]
HypsOpt = Annotated[
    list[str] | None,
    opt(
        "--input",
        "-i",
        "--systems",
        "-s",
        panel=INPUTS,
        help="System output files or globs: -i SYS [SYS ...] ('outputs/*.txt'); '-' "
        "(default) is stdin.",
    ),
]
MtmeOpt = Annotated[
    Path | None,
    opt(
        "--mtme",
        panel=INPUTS,
        help="Every system of an mt-metrics-eval test set folder (with --lp, --mtme-ref).",
    ),
]
LpOpt = Annotated[
    str | None, opt("--lp", panel=INPUTS, help="--mtme, --wmt25-testset: the language pair.")
]
MtmeRefOpt = Annotated[
    str | None,
    opt(
        "--mtme-ref", panel=INPUTS, help="--mtme: the reference (default: the set's standard one)."
    ),
]
SystemsDirOpt = Annotated[
    Path | None,
    opt("--systems-dir", panel=INPUTS, help="Score every system output in this folder."),
]
TableOpt = Annotated[
    str | None,
    opt(
        "--table",
        panel=INPUTS,
        help="A TSV, CSV, JSONL or Parquet file with named columns instead.",
    ),
]
TableFormatOpt = Annotated[
    TableFormat,
    opt(
        "--table-format",
        panel=INPUTS,
        help="Format of --table; auto: by its content and extension.",
    ),
]
TableQuotingOpt = Annotated[
    str,
    opt(
        "--table-quoting",
        panel=INPUTS,
        help="TSV quoting: auto (CSV-quoted when written so), csv, none.",
    ),
]
HypColsOpt = Annotated[
    list[str] | None,
    opt(
        "--hyp-col",
        panel=INPUTS,
        help="Hypothesis column(s) of --table, one system each (default: hyp).",
    ),
]
RefColsOpt = Annotated[
    list[str] | None,
    opt("--ref-col", panel=INPUTS, help="Reference columns of --table (default: ref)."),
]
SystemColOpt = Annotated[
    str | None,
    opt(
        "--system-col",
        panel=INPUTS,
        help="A long --table: one row per system and segment (default: a 'system' column).",
    ),
]
SourceOpt = Annotated[
    Path | None,
    opt("--source", panel=INPUTS, help="Source sentences, for plugins that read them."),
]

# ----- tests and intervals --------------------------------------------------------------
PairedBsOpt = Annotated[
    bool,
    opt(
        "--paired-bs",
        "-pbs",
        panel=TESTS,
        help="Paired bootstrap test against the baseline (Koehn 2004).",
    ),
]
PairedArOpt = Annotated[
    bool,
    opt(
        "--paired-ar",
        "-par",
        panel=TESTS,
        help="Approximate randomization test against the baseline (Riezler & Maxwell 2005).",
    ),
]
PairedBsNOpt = Annotated[
    int, opt("--paired-bs-n", "-pbsn", min=1, panel=TESTS, help="Bootstrap resamples.")
]
PairedArNOpt = Annotated[
    int, opt("--paired-ar-n", "-parn", min=1, panel=TESTS, help="Randomization trials.")
]
BaselineOpt = Annotated[
    str | None,
    opt(
        "--baseline",
        panel=TESTS,
        help="The baseline system's name (default: the first); best: the best system by "
        "the first metric.",
    ),
]
ConfidenceOpt = Annotated[
    bool, opt("--confidence", "-ci", panel=TESTS, help="Bootstrap 95% interval of every score.")
]
ConfidenceNOpt = Annotated[
    int, opt("--confidence-n", "-cin", min=1, panel=TESTS, help="Resamples of the intervals.")
]
SeedOpt = Annotated[
    int, opt("--seed", min=0, panel=TESTS, help="Seed of resampling (sacrebleu's 12345).")
]

# ----- outputs --------------------------------------------------------------------------
SentenceOpt = Annotated[
    bool, opt("--sentence", panel=OUTPUT, help="One row of scores per segment.")
]
SortOpt = Annotated[
    str | None,
    opt(
        "--sort",
        panel=OUTPUT,
        help="Order the systems by this metric, best first (lower first for ↓ metrics).",
    ),
]
FormatOpt = Annotated[OutputFormat, opt("--format", "-f", panel=OUTPUT, help="Output format.")]
DigitsOpt = Annotated[
    int | None,
    opt(
        "--width",
        "-w",
        min=0,
        max=17,
        panel=OUTPUT,
        help="Decimals printed (default: 4 in text, all in tsv and json).",
    ),
]
DetailsOpt = Annotated[
    bool,
    opt(
        "--details",
        "-d",
        panel=OUTPUT,
        help="BLEU's precisions, BP, ratio, lengths; chrF's, TER's...",
    ),
]
SignaturesOpt = Annotated[
    bool, opt("--signatures", panel=OUTPUT, help="Every metric's signature in full.")
]
OutputOpt = Annotated[
    Path | None, opt("--output", "-o", panel=OUTPUT, help="Write here (atomically).")
]

# ----- metrics and running --------------------------------------------------------------
MaxTokensOpt = Annotated[
    int | None,
    opt("--max-tokens", min=1, panel=METRICS, help="Refuse sentences longer than this (tokens)."),
]
WorkersOpt = Annotated[int, opt("--workers", panel=RUNNING, help="Local workers.")]
SchedulerOpt = Annotated[
    str | None, opt("--scheduler", panel=RUNNING, help="Dask scheduler address.")
]


@with_options(WMT25)
def score(
    refs: RefsOpt = None,
    hyps: HypsOpt = None,
    mtme: MtmeOpt = None,
    lp: LpOpt = None,
    mtme_ref: MtmeRefOpt = None,
    systems_dir: SystemsDirOpt = None,
    metrics: MetricsOpt = None,
    table: TableOpt = None,
    table_format: TableFormatOpt = TableFormat.auto,
    table_quoting: TableQuotingOpt = "auto",
    hyp_cols: HypColsOpt = None,
    ref_cols: RefColsOpt = None,
    system_col: SystemColOpt = None,
    sentence: SentenceOpt = False,
    tokenize: TokenizeOpt = "13a",
    lowercase: LowercaseOpt = False,
    paired_bs: PairedBsOpt = False,
    paired_ar: PairedArOpt = False,
    paired_bs_n: PairedBsNOpt = 1000,
    paired_ar_n: PairedArNOpt = 10000,
    baseline: BaselineOpt = None,
    sort: SortOpt = None,
    confidence: ConfidenceOpt = False,
    confidence_n: ConfidenceNOpt = 1000,
    seed: SeedOpt = SACREBLEU_SEED,
    fmt: FormatOpt = OutputFormat.text,
    digits: DigitsOpt = None,
    details: DetailsOpt = False,
    signatures: SignaturesOpt = False,
    output: OutputOpt = None,
    source: SourceOpt = None,
    max_tokens: MaxTokensOpt = None,
    backend: BackendOption = "inproc",
    workers: WorkersOpt = 1,
    scheduler: SchedulerOpt = None,
    **options,
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
    from mtpalette.api.score_run import ScoreInputs, ScoreRun, ScoreTests, run_score
    from mtpalette.io.writers import opened

    wmt25 = wmt25_inputs(options, lp)
    inputs = ScoreInputs(
        refs, hyps, systems_dir, table, table_format.value, table_quoting, hyp_cols, ref_cols,
        system_col, source, mtme, lp, mtme_ref, wmt25,
    )  # fmt: skip
    tests = ScoreTests(
        paired_bs, paired_ar, paired_bs_n, paired_ar_n, baseline, confidence, confidence_n, seed
    )
    run = ScoreRun(inputs, metrics or ["bleu"], tokenize, lowercase, sentence, sort, max_tokens,
                   tests, backend, workers, scheduler)  # fmt: skip
    if sentence and fmt == OutputFormat.latex:
        raise UserInputError("-f latex is for corpus scores (a paper's table); drop --sentence")
    # opened before the scoring: an output that cannot be written is refused before the work
    with opened("text", "-" if output is None else output) as put:
        result = run_score(run)  # an output that is one of the inputs is refused at the end
        fmt, named = fmt.value, len(result.scored) > 1
        if sentence:
            put(_sentences(result.scored, fmt, digits, signatures, named))
            return
        width = shutil.get_terminal_size().columns if output is None else None
        put(_corpus(result, fmt, digits, details, signatures, named, width))


def _corpus(result, fmt: str, digits, details: bool, full_signatures: bool, named: bool,
            width: int | None) -> str:  # fmt: skip
    """The corpus scores' table (with the tests' and intervals' columns) in ``fmt``."""
    from mtpalette.cli.render import corpus_records, records_report

    records, sigs = corpus_records(result.scored, result.comparison, named=named)
    return records_report(records, fmt, signatures=sigs, digits=digits, details=details,
                          full_signatures=full_signatures, width=width)  # fmt: skip


def _sentences(scored, fmt: str, digits, full_signatures: bool, named: bool) -> str:
    import numpy as np

    from mtpalette.cli.render import sentence_report

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
