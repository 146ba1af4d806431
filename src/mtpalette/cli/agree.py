"""``mtpalette agree``: does ORANGE rank metrics the way human judgments do?

Example (the bundled MQM TED zh-en data: references ``ref`` and ``refB``, 13 systems)::

    mtpalette agree --bundled zhen -m bleus:4 nist wer per rouge-l rouge-w:1.2 rouge-s:4 chrf

prints each metric's ORANGE and human correlation with their 95% intervals and ranks, Kendall's
tau-b between the two orderings with a bootstrap interval over segments, and, for rated
references, how humans rank them among the systems (their "human ORANGE"). The options become
an :class:`~mtpalette.api.agreement_run.AgreementRun`.
"""

from __future__ import annotations

from typing import Annotated

from rich.console import Console

from mtpalette.api.agreement_run import AgreementRun, run_agreement
from mtpalette.api.correlation_run import parse_epsilon
from mtpalette.api.inputs import JudgedInputs
from mtpalette.cli import options as o
from mtpalette.cli.console import result_console
from mtpalette.cli.progress import ConsoleFeedback
from mtpalette.cli.tables import print_agreement, show_written
from mtpalette.io.judgments import FORMATS
from mtpalette.stats.correlation import STATISTICS

MetricsOpt = Annotated[
    list[str] | None,
    o.opt("-m", "--metrics", panel=o.METRICS, help="Metric specs (default: the seeds')."),
]
FormatOpt = Annotated[str, o.opt("--format", panel=o.HUMANS, help="auto, " + ", ".join(FORMATS))]
StatOpt = Annotated[str, o.opt("--stat", panel=o.CORRELATION, help=", ".join(STATISTICS))]


def agree(
    metrics: MetricsOpt = None,
    tokenize: o.TokenizeOpt = "13a",
    lowercase: o.LowercaseOpt = False,
    bundled: o.BundledOpt = None,
    mtme: o.MtmeOpt = None,
    human: o.HumanOpt = "mqm",
    mtme_ref: o.MtmeRefOpt = "refA",
    judgments: o.JudgmentsOpt = None,
    fmt: FormatOpt = "auto",
    seg_ids: o.SegIdsOpt = None,
    id_base: o.IdBaseOpt = None,
    lp: o.LpOpt = None,
    rename: o.RenameOpt = None,
    refs: o.RefsOpt = None,
    systems: o.SystemsOpt = None,
    systems_dir: o.SystemsDirOpt = None,
    systems_glob: o.SystemsGlobOpt = "*",
    exclude: o.ExcludeOpt = None,
    max_items: o.MaxItemsOpt = None,
    stat: StatOpt = "kendall",
    grouping: o.GroupingOpt = "none",
    epsilon: o.EpsilonOpt = None,
    oracle: o.OracleOpt = "leave-one-out",
    ties: o.TiesOpt = "mid",
    bootstrap: o.BootstrapOpt = 1000,
    seed: o.SeedOpt = 12345,
    confidence: o.ConfidenceOpt = 0.95,
    out_dir: o.OutDirOpt = None,
    json_out: o.JsonOpt = None,
    quiet: o.QuietOpt = False,
) -> None:
    """Rank metrics by ORANGE and by human correlation; Kendall tau between the orderings.

    Example: `mtpalette agree --bundled zhen -m 'bleus:1..4' chrf wer rouge-l --stat kendall`.
    """
    console = Console(stderr=True, quiet=quiet)
    inputs = JudgedInputs(
        bundled, judgments, fmt, refs, systems, systems_dir, systems_glob, exclude, seg_ids,
        id_base, lp, rename, mtme, human, mtme_ref,
    )  # fmt: skip
    run = AgreementRun(
        inputs, metrics, tokenize, lowercase, max_items, stat, grouping, parse_epsilon(epsilon),
        oracle, ties, bootstrap, seed, confidence, out_dir, json_out,
    )  # fmt: skip
    result = run_agreement(run, ConsoleFeedback(console))
    print_agreement(result_console(), result.agreement)
    show_written(console, result.outputs)
