"""Correlation of metric scores with human scores: Pearson, Spearman, Kendall variants,
pairwise accuracy, tie calibration, WMT's "Kendall-like" taus; grouping by item or system.

Conventions (those of mt-metrics-eval):

* Arguments come as ``(gold, metric)``: human scores first. Both are oriented so that higher
  is better; an error metric (WER, TER) is negated by the caller before it gets here, so a
  good error metric has a *positive* correlation.
* Segment-level scores form a matrix ``(S systems, I items)``; a NaN *human* score means
  "not rated" and drops that entry (with its metric score). A NaN metric score is an error.
* ``grouping`` turns the matrix into vectors: ``none`` flattens it into one vector; ``item``
  correlates the systems' scores of each item (segment) and averages over items; ``system``
  correlates each system's scores over items and averages over systems. Groups with fewer
  than two entries are skipped; so are groups whose correlation is undefined (NaN, e.g. a
  constant vector for Pearson) - a plain (macro) average over the rest. ``kendall-like`` is
  the exception: its groups are pooled (micro), ``sum(C - D) / sum(C + D)``, as WMT does.
* System level: average each system's segment scores (:func:`system_means`) and correlate the
  two vectors (``grouping="none"``).

The statistics are the catalogue's (:mod:`mtpalette.stats.catalogue`: every name, label and
function of each); :func:`correlation` computes one by name from its group kernel. Pearson's
r and Spearman's rho and the kernels of every group are in
:mod:`mtpalette.stats.group_kernels`, the Kendall family (tau-b, tau-c, acc-eq / tau-eq,
pairwise accuracy, kendall-like) from pair counts in :mod:`mtpalette.stats.kendall`, which
defines each; acc-eq and tau-eq with a calibrated metric tie threshold in
:mod:`mtpalette.stats.tie_calibration`; the matrices and their groups in
:mod:`mtpalette.stats.grouping`.

* relative-ranking tau (WMT12, :func:`rr_kendall`): from human pairwise preferences with
  human ties excluded; a metric tie is discordant (WMT12) or left out.

References
----------
Callison-Burch et al. (2012), Findings of WMT12, section 6 (relative-ranking tau). Reference
implementation: google-research/mt-metrics-eval, ``mt_metrics_eval/stats.py``; scipy.stats.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mtpalette.stats import catalogue
from mtpalette.stats.group_kernels import average_ranks, grouped_value, pearson, spearman
from mtpalette.stats.tie_calibration import tie_calibration

#: the vector correlations, defined in :mod:`mtpalette.stats.group_kernels`, and tie
#: calibration, importable from here as before
__all__ = [
    "average_ranks",
    "correlation",
    "pearson",
    "rr_kendall",
    "spearman",
    "tie_calibration",
]


def rr_kendall(better: Any, worse: Any, *, metric_ties: str = "discordant") -> float:
    """Tau of relative-ranking judgments: per human preference pair, the metric scores of the
    preferred and of the other translation.

    ``(C - D) / (C + D)`` with ``C`` the pairs where the metric also prefers the preferred one;
    human ties must be left out by the caller; a metric tie is discordant (WMT12) or, with
    ``metric_ties="exclude"``, not counted.

    Examples
    --------
    >>> rr_kendall([0.9, 0.5, 0.3], [0.1, 0.5, 0.4])  # 1 concordant, 1 tie, 1 discordant
    -0.3333333333333333
    >>> rr_kendall([0.9, 0.5, 0.3], [0.1, 0.5, 0.4], metric_ties="exclude")
    0.0
    """
    b = np.asarray(better, dtype=np.float64).ravel()
    w = np.asarray(worse, dtype=np.float64).ravel()
    if b.shape != w.shape:
        raise ValueError("better and worse need the same length")
    if metric_ties not in ("discordant", "exclude"):
        raise ValueError("metric_ties must be 'discordant' or 'exclude'")
    con = int(np.count_nonzero(b > w))
    tie = int(np.count_nonzero(b == w))
    dis = int(np.count_nonzero(b < w)) + (tie if metric_ties == "discordant" else 0)
    return (con - dis) / (con + dis) if con + dis else float("nan")


def correlation(
    human: Any,
    metric: Any,
    statistic: str = "pearson",
    *,
    grouping: str = "none",
    epsilon: float | None = 0.0,
    threshold: float = 25.0,
) -> float:
    """One correlation of metric with human scores, grouped and averaged.

    Parameters
    ----------
    human, metric:
        Vectors, or ``(systems, items)`` matrices; NaN human scores mark unrated entries.
    statistic:
        A name of a statistic of the catalogue with a group kernel
        (:func:`mtpalette.stats.catalogue.names` with ``interval=True``).
    grouping:
        ``none``, ``item`` or ``system`` (see the module docstring).
    epsilon:
        Metric tie threshold of ``acc-eq`` / ``tau-eq``; ``None`` calibrates it
        (:func:`tie_calibration`).
    threshold:
        Minimum human score difference of a ``kendall-like`` pair.

    Examples
    --------
    >>> h = [[1.0, 2.0, 3.0], [2.0, 2.0, 1.0]]
    >>> m = [[0.1, 0.3, 0.2], [0.2, 0.2, 0.1]]
    >>> round(correlation(h, m, "kendall", grouping="system"), 6)  # mean of 1/3 and 1
    0.666667
    """
    entry = catalogue.statistic(statistic, interval=True)
    return grouped_value(
        entry, human, metric, grouping=grouping, epsilon=epsilon, threshold=threshold
    )
