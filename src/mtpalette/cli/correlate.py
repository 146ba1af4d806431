"""``mtpalette correlate``: correlation of metrics with human judgments, with 95% intervals and
significance clusters.

Examples::

    # the bundled WMT21 TED MQM data (zh-en: references ref and refB, 13 systems)
    mtpalette correlate --bundled zhen -m bleus:4 chrf wer rouge-l --stat pearson,kendall

    # any judgments aligned with system output files
    mtpalette correlate --judgments mqm_ted_zhen.tsv --seg-ids seg_ids.txt \\
        --refs ref.txt refB.txt --systems-dir outputs/ -m bleus:4 nist wer \\
        --stat acc-eq --grouping item --out-dir corr-run/

Error metrics (WER, PER, TER) are negated before correlating, so a good metric always has a
positive correlation. ``--refs``, ``--systems``, ``-m`` and ``--exclude`` take several values
after one flag; ``--stat`` takes a comma-separated list (one table each). The options become a
:class:`~mtpalette.api.CorrelationRun`; :func:`~mtpalette.api.run_correlation` does the work.
"""

from __future__ import annotations

from typing import Annotated

from rich.console import Console

from mtpalette.api.correlation_run import (
    CorrelationOutputs,
    CorrelationRun,
    parse_epsilon,
    run_correlation,
)
from mtpalette.api.inputs import JudgedInputs
from mtpalette.cli import options as o
from mtpalette.cli.progress import ConsoleFeedback
from mtpalette.cli.tables import show_correlation
from mtpalette.io.judgments import FORMATS
from mtpalette.metaeval.correlation import SYSTEM_SCORES
from mtpalette.stats.correlation import STATISTICS
from mtpalette.stats.significance import LEVELS, TESTS

FORMAT_HELP = "auto, " + ", ".join(FORMATS) + ", wmt17-testset"
FormatOpt = Annotated[str, o.opt("--format", panel=o.HUMANS, help=FORMAT_HELP)]
StatOpt = Annotated[
    str, o.opt("--stat", panel=o.CORRELATION, help="Comma-separated: " + ", ".join(STATISTICS))
]
LevelOpt = Annotated[str, o.opt("--level", panel=o.CORRELATION, help=", ".join(LEVELS))]
SCORE_HELP = "System level: " + " or ".join(SYSTEM_SCORES)
SystemScoreOpt = Annotated[str, o.opt("--system-score", panel=o.CORRELATION, help=SCORE_HELP)]
ThresholdOpt = Annotated[
    float, o.opt("--threshold", panel=o.CORRELATION, help="kendall-like: min human difference.")
]
TestOpt = Annotated[str, o.opt("--test", panel=o.RESAMPLING, help="Clusters: " + ", ".join(TESTS))]
PermutationsOpt = Annotated[
    int, o.opt("--permutations", panel=o.RESAMPLING, help="Permutation test draws.")
]
AlphaOpt = Annotated[
    float, o.opt("--alpha", panel=o.RESAMPLING, help="Significance level of clusters.")
]
KeepOpt = Annotated[
    bool, o.opt("--keep-scores", panel=o.OUTPUTS, help="Keep segment scores (for plots).")
]


def correlate(
    metrics: o.MetricsOpt = None,
    scores_from: o.ScoresOpt = None,
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
    source: o.SourceOpt = None,
    stat: StatOpt = "pearson",
    grouping: o.GroupingOpt = "none",
    level: LevelOpt = "segment",
    system_score: SystemScoreOpt = "corpus",
    epsilon: o.EpsilonOpt = None,
    threshold: ThresholdOpt = 25.0,
    bootstrap: o.BootstrapOpt = 1000,
    seed: o.SeedOpt = 12345,
    confidence: o.ConfidenceOpt = 0.95,
    test: TestOpt = "permutation",
    permutations: PermutationsOpt = 1000,
    alpha: AlphaOpt = 0.05,
    out_dir: o.OutDirOpt = None,
    json_out: o.JsonOpt = None,
    csv_out: o.CsvOpt = None,
    export_scores: o.ExportScoresOpt = None,
    keep_scores: KeepOpt = False,
    report: o.ReportOpt = None,
    quiet: o.QuietOpt = False,
) -> None:
    """Correlate metrics with human judgments (MQM, DA): table with CI and clusters.

    Examples: `mtpalette correlate --bundled zhen -m bleus:4 chrf wer --stat pearson,kendall`;
    `mtpalette correlate -j mqm.tsv -r ref.txt --systems-dir outputs/ -m bleu chrf --level
    system --out-dir run/`; `mtpalette correlate -j scores.jsonl -r ref.txt -s A.txt B.txt
    --scores comet=comet.tsv -m bleu --grouping item --stat kendall`.
    """
    console = Console(stderr=True, quiet=quiet)
    inputs = JudgedInputs(
        bundled, judgments, fmt, refs, systems, systems_dir, systems_glob, exclude, seg_ids,
        id_base, lp, rename, mtme, human, mtme_ref,
    )  # fmt: skip
    outputs = CorrelationOutputs(out_dir, json_out, csv_out, export_scores, keep_scores, report)
    run = CorrelationRun(
        inputs, metrics, scores_from, tokenize, lowercase, max_items, source,
        [s.strip() for s in stat.split(",") if s.strip()], grouping, level, system_score,
        parse_epsilon(epsilon), threshold, bootstrap, seed, confidence, test, permutations,
        alpha, outputs,
    )  # fmt: skip
    show_correlation(run_correlation(run, ConsoleFeedback(console)), console)
