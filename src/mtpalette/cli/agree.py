"""``mtpalette agree``: does ORANGE rank metrics the way human judgments do?

Example (the bundled example zh-en data, invented by the project: references ``ref`` and ``refB``,
8 systems, synthetic MQM-style ratings)::

    mtpalette agree --bundled zhen -m bleus:4 nist wer per rouge-l rouge-w:1.2 rouge-s:4 chrf

prints each metric's ORANGE and human correlation with their 95% intervals and ranks, Kendall's
tau-b between the two orderings with a bootstrap interval over segments, and, for rated
references, how humans rank them among the systems (their "human ORANGE"). The options become
an :class:`~mtpalette.api.agreement_run.AgreementRun`.
"""

from __future__ import annotations

from mtpalette.api.agreement_run import AgreementRun
from mtpalette.cli import options as o
from mtpalette.sources.inputs import JudgedInputs


@o.with_options(AgreementRun, JudgedInputs, o.QUIET)
def agree(**options) -> None:
    """Rank metrics by ORANGE and by human correlation; Kendall tau between the orderings.

    Example: `mtpalette agree --bundled zhen -m 'bleus:1..4' chrf wer rouge-l --stat kendall`.
    """
    from rich.console import Console

    from mtpalette.api.agreement_run import run_agreement
    from mtpalette.cli.console import result_console, show_written
    from mtpalette.cli.tables import print_agreement
    from mtpalette.progress import ConsoleFeedback

    console = Console(stderr=True, quiet=options["quiet"])
    run = o.fill(AgreementRun, options, inputs=o.fill(JudgedInputs, options))
    result = run_agreement(run, ConsoleFeedback(console))
    print_agreement(result_console(), result.agreement)
    show_written(console, result.outputs)
