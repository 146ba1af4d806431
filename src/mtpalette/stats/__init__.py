"""Pure array statistics: bootstrap resampling, confidence intervals, paired comparisons.

Nothing here reads files or knows about metrics: functions take numpy arrays whose first axis
is the resampling unit (segments, documents, systems) and a seed or ``np.random.Generator``.
Every draw, interval and Monte Carlo p-value comes from one engine,
:mod:`mtpalette.stats.resampling`.
"""

from mtpalette.stats.bootstrap import (
    BestComparison,
    BootstrapCI,
    PairedDiff,
    bootstrap_ci,
    bootstrap_cis,
    bootstrap_distribution,
    compare_with_best,
    paired_bootstrap,
    resolve_seed,
)

__all__ = [
    "BestComparison",
    "BootstrapCI",
    "PairedDiff",
    "bootstrap_ci",
    "bootstrap_cis",
    "bootstrap_distribution",
    "compare_with_best",
    "paired_bootstrap",
    "resolve_seed",
]
