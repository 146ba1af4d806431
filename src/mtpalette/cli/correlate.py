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

from mtpalette.api.correlation_run import CorrelationOutputs, CorrelationRun
from mtpalette.cli import options as o
from mtpalette.sources.inputs import JudgedInputs


@o.with_options(CorrelationRun, JudgedInputs, CorrelationOutputs, o.QUIET)
def correlate(**options) -> None:
    """Correlate metrics with human judgments (MQM, DA): table with CI and clusters.

    Examples: `mtpalette correlate --bundled zhen -m bleus:4 chrf wer --stat pearson,kendall`;
    `mtpalette correlate -j mqm.tsv -r ref.txt --systems-dir outputs/ -m bleu chrf --level
    system --out-dir run/`; `mtpalette correlate -j scores.jsonl -r ref.txt -s A.txt B.txt
    --scores comet=comet.tsv -m bleu --grouping item --stat kendall`.
    """
    from rich.console import Console

    from mtpalette.api.correlation_run import run_correlation
    from mtpalette.cli.tables import show_correlation
    from mtpalette.progress import ConsoleFeedback

    console = Console(stderr=True, quiet=options["quiet"])
    run = o.fill(
        CorrelationRun, options, inputs=o.fill(JudgedInputs, options),
        outputs=o.fill(CorrelationOutputs, options),
    )  # fmt: skip
    show_correlation(run_correlation(run, ConsoleFeedback(console)), console)
