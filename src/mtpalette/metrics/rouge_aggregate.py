"""rouge-score's bootstrap aggregation: low / mid / high of the mean P, R and F.

rouge-score's ``scoring.BootstrapAggregator`` (google-research ``rouge/scoring.py``, 0.1.2)
resamples the per-pair ``(precision, recall, fmeasure)`` rows ``n_samples`` times (each
resample draws as many rows as there are, with replacement), takes each resample's mean, and
reports the percentiles ``(1 - ci) / 2``, 50 and ``(1 + ci) / 2`` of those means (numpy's
linear percentile): ``mid`` is the median of the bootstrap means, not the plain mean.

rouge-score draws from numpy's global random state; here the generator is explicit. A
``numpy.random.RandomState(seed)`` reproduces rouge-score after ``np.random.seed(seed)``
draw for draw (both call ``randint(0, n, n)`` once per resample), so the numbers are equal;
a ``numpy.random.Generator`` or an int seed (``default_rng(seed)``) gives other draws.

References
----------
google-research/google-research ``rouge/scoring.py`` (``BootstrapAggregator``); Lin (2004)
and ROUGE-1.5.5's ``-c 95 -r 1000``, which it follows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Score:
    """Precision, recall and F-measure."""

    precision: float
    recall: float
    fmeasure: float


@dataclass(frozen=True)
class AggregateScore:
    """The bootstrap percentiles of the mean: ``low``, ``mid`` (median) and ``high``."""

    low: Score
    mid: Score
    high: Score


def bootstrap_aggregate(
    scores: Mapping[str, np.ndarray],
    *,
    confidence_interval: float = 0.95,
    n_samples: int = 1000,
    rng: np.random.Generator | np.random.RandomState | int | None = None,
) -> dict[str, AggregateScore]:
    """rouge-score's ``BootstrapAggregator.aggregate()`` on per-pair ``[P, R, F]`` rows.

    Parameters
    ----------
    scores
        ``{name: (n, 3) array}`` of precision, recall and F-measure per pair (the ``[P, R,
        F]`` statistics of mtpalette's ROUGE metrics are such rows).
    confidence_interval
        In [0, 1]; 0.95 gives the 2.5th and 97.5th percentiles.
    n_samples
        Bootstrap resamples (positive).
    rng
        The random generator: a ``RandomState`` reproduces rouge-score's draws, see the module
        notes; an int seeds ``numpy.random.default_rng``; None draws fresh entropy.

    Examples
    --------
    >>> rows = np.array([[1, 1 / 3, 1 / 2], [0, 0, 0], [1, 1, 1]])
    >>> out = bootstrap_aggregate({"rouge1": rows}, confidence_interval=0.0, rng=1)
    >>> round(out["rouge1"].mid.precision, 6)  # every percentile is the median
    0.666667
    """
    if not 0 <= confidence_interval <= 1:
        raise ValueError("confidence_interval must be in [0, 1]")
    if n_samples <= 0:
        raise ValueError("n_samples must be positive")
    if rng is None or isinstance(rng, (int, np.integer)):
        rng = np.random.default_rng(rng)
    delta = (1 - confidence_interval) / 2
    q = 100 * np.array([delta, 0.5, 1 - delta])
    out = {}
    for name, rows in scores.items():
        matrix = np.asarray(rows, dtype=np.float64)
        if matrix.ndim != 2 or matrix.shape[1] != 3 or not len(matrix):
            raise ValueError(f"{name}: expected a non-empty (n, 3) array of [P, R, F] rows")
        n = len(matrix)
        means = np.zeros((n_samples, 3))
        for i in range(n_samples):  # one draw per resample, in rouge-score's order
            if isinstance(rng, np.random.RandomState):
                idx = rng.randint(0, n, size=n)
            else:
                idx = rng.integers(0, n, size=n)
            means[i] = np.mean(matrix[idx, :], axis=0)
        low, mid, high = (Score(*map(float, row)) for row in np.percentile(means, q, axis=0))
        out[name] = AggregateScore(low, mid, high)
    return out
