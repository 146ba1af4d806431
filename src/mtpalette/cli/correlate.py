"""``mtpalette correlate``: correlation of metrics with human judgments, with 95% intervals and
significance clusters.

Examples::

    # the bundled example data (invented; zh-en: references ref and refB, 8 systems)
    mtpalette correlate --bundled zhen -m bleus:4 chrf wer rouge-l --stat pearson,kendall

    # any judgments aligned with system output files
    mtpalette correlate --judgments mqm_ted_zhen.tsv --seg-ids seg_ids.txt \\
        --refs ref.txt refB.txt --systems-dir outputs/ -m bleus:4 nist wer \\
        --stat acc-eq --grouping item --out-dir corr-run/

Error metrics (WER, PER, TER) are negated before correlating, so a good metric always has a
positive correlation. ``--refs``, ``--systems``, ``-m`` and ``--exclude`` take several values
after one flag; ``--stat`` and ``--level`` take comma-separated lists (one table each). The
options become a :class:`~mtpalette.api.CorrelationRun`; :func:`~mtpalette.api.run_correlation`
does the work.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from mtpalette.cli import options as o
from mtpalette.metaeval.correlation import SYSTEM_SCORES
from mtpalette.stats import catalogue
from mtpalette.stats.significance import LEVELS, TESTS

StatOpt = Annotated[
    str,
    o.opt("--stat", panel=o.CORRELATION, help="Comma-separated: " + ", ".join(catalogue.names())),
]
LevelOpt = Annotated[
    str, o.opt("--level", panel=o.CORRELATION, help="Comma-separated: " + ", ".join(LEVELS))
]
SCORE_HELP = "System level: " + " or ".join(SYSTEM_SCORES)
SystemScoreOpt = Annotated[str, o.opt("--system-score", panel=o.CORRELATION, help=SCORE_HELP)]
ThresholdOpt = Annotated[
    float, o.opt("--threshold", panel=o.CORRELATION, help="kendall-like: min human difference.")
]
TestOpt = Annotated[str, o.opt("--test", panel=o.RESAMPLING, help="Clusters: " + ", ".join(TESTS))]
PermutationsOpt = Annotated[
    int, o.opt("--permutations", panel=o.RESAMPLING, help="Permutation test draws.")
]
PConventionOpt = Annotated[
    str, o.opt("--p-convention", panel=o.RESAMPLING,
               help="Permutation p-value: plus-one ((count + 1) / (k + 1)) or mtme (count / k).")
]  # fmt: skip
AlphaOpt = Annotated[
    float, o.opt("--alpha", panel=o.RESAMPLING, help="Significance level of clusters.")
]
BaselinesOpt = Annotated[
    bool,
    o.opt(
        "--baselines/--no-baselines",
        panel=o.CORRELATION,
        help="Segment level: length baselines beside the metrics, each metric tested against "
        "the best.",
    ),
]

Switch = StrEnum("Switch", {"on": "on", "off": "off"})
ChanceOpt = Annotated[
    Switch,
    o.opt(
        "--chance",
        panel=o.CORRELATION,
        help="Pairwise statistics: the chance level under the table (on; a simulation under "
        "tie calibration) or off.",
    ),
]


@o.with_options(
    o.METRIC_SPECS, o.TEXT, o.JUDGMENTS, o.JUDGED_IDS, o.SYSTEM_FILES, o.RESAMPLING_OPTIONS,
    o.CORRELATION_OUTPUTS, o.QUIET,
)  # fmt: skip
def correlate(
    max_items: o.MaxItemsOpt = None,
    source: o.SourceOpt = None,
    stat: StatOpt = "pearson",
    grouping: o.GroupingOpt = "none",
    level: LevelOpt = "segment",
    system_score: SystemScoreOpt = "corpus",
    epsilon: o.EpsilonOpt = None,
    threshold: ThresholdOpt = 25.0,
    test: TestOpt = "permutation",
    permutations: PermutationsOpt = 1000,
    p_convention: PConventionOpt = "plus-one",
    alpha: AlphaOpt = 0.05,
    baselines: BaselinesOpt = True,
    chance: ChanceOpt = Switch.on,
    **options,
) -> None:
    """Correlate metrics with human judgments (MQM, DA): table with CI and clusters.

    Examples: `mtpalette correlate --bundled zhen -m bleus:4 chrf wer --stat pearson,kendall`;
    `mtpalette correlate -j mqm.tsv -r ref.txt --systems-dir outputs/ -m bleu chrf --level
    system --out-dir run/`; `mtpalette correlate -j scores.jsonl -r ref.txt -s A.txt B.txt
    --scores comet=comet.tsv -m bleu --grouping item --stat kendall`.
    """
    from rich.console import Console

    from mtpalette.api.correlation_run import (
        CorrelationOutputs,
        CorrelationRun,
        parse_epsilon,
        run_correlation,
    )
    from mtpalette.cli.tables import show_correlation
    from mtpalette.progress import ConsoleFeedback
    from mtpalette.sources.inputs import JudgedInputs

    console = Console(stderr=True, quiet=options["quiet"])
    run = o.fill(
        CorrelationRun, options, inputs=o.fill(JudgedInputs, options), max_items=max_items,
        source=source, statistics=[s.strip() for s in stat.split(",") if s.strip()],
        grouping=grouping, level=level, system_score=system_score,
        epsilon=parse_epsilon(epsilon), threshold=threshold, test=test,
        permutations=permutations, p_convention=p_convention, alpha=alpha, baselines=baselines,
        chance=chance == Switch.on, outputs=o.fill(CorrelationOutputs, options),
    )  # fmt: skip
    show_correlation(run_correlation(run, ConsoleFeedback(console)), console)
