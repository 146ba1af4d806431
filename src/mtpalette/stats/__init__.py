"""Pure array statistics: bootstrap resampling, confidence intervals, paired comparisons.

Nothing here reads files or knows about metrics: functions take numpy arrays whose first axis
is the resampling unit (segments, documents, systems) and a seed or ``np.random.Generator``.
Every draw, interval and Monte Carlo p-value comes from one engine,
:mod:`mtpalette.stats.resampling`.
"""

from __future__ import annotations

from mtpalette.exports import lazy_exports

#: the names of :mod:`mtpalette.stats.bootstrap` offered here, imported on first use (a
#: statistic that draws nothing, a WMT task at k = 0 or WMT24's ranking, does not load the
#: resampling engine and numpy.random)
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
__getattr__, __dir__ = lazy_exports(__name__, dict.fromkeys(__all__, "bootstrap"), globals())
