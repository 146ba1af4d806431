"""Chance levels: what a metric that ranks at random scores on a pairwise statistic.

A pairwise statistic has no natural zero: pairwise accuracy of 0.5, acc-eq of 0.4 or a soft
pairwise accuracy of 0.7 may be no better than a coin. These functions take the *human side
only* and say what a random metric gets, so a table can print the floor next to the metrics.

The random metric
    gives every entry (system, or system-item) an independent continuous score, so it orders
    every pair at random with probability 1/2 each way and never ties (its ranking is a
    uniformly random permutation within every group).

Exact values (no simulation):

* pairwise accuracy (Kocmi et al. 2021, system level; sign agreement): a pair the humans
  order is agreed on with probability 1/2, a pair the humans tie never (the random metric
  does not tie), so the chance level is ``(1 - T_gold / N) / 2``, 1/2 when humans tie no
  pair;
* acc-eq and tau-eq without tie calibration (``epsilon = 0``; Deutsch et al. 2023): per group
  ``(N - T_gold) / (2 N)`` and ``-T_gold / N`` (``C`` and ``D`` are each ``(N - T_gold) / 2``
  in expectation, ``T_both = T_metric = 0``), macro-averaged over the groups as
  :func:`mtpalette.stats.correlation.correlation` averages them (groups of at least two rated
  entries);
* soft pairwise accuracy (SPA, Thompson et al. 2024; mt-metrics-eval ``pce.py``: ``1 - mean
  |p_human - p_metric|`` over system pairs): a random metric's permutation p-value for "i
  beats j" is uniform on [0, 1], and ``E|p - U| = (p^2 + (1 - p)^2) / 2``, so the chance
  level is ``1 - mean((p^2 + (1 - p)^2) / 2)`` over the human p-values: between 0.5 (humans
  certain about every pair) and 0.75 (humans undecided about every pair).

With tie calibration (acc-eq / tau-eq with the threshold ``epsilon`` chosen to maximise the
statistic) the random metric is *fitted*: the threshold is picked after seeing the human
scores, so it exploits human ties (MQM has many: a random metric that calls every pair a tie
scores the share of human-tied pairs). The chance level is then the expected maximum over
thresholds, which has no closed form: :func:`acc_eq_chance` estimates it by a seeded
simulation of random metrics (iid uniform scores), each calibrated as
:func:`~mtpalette.stats.tie_calibration.tie_calibration` calibrates (the human pairs enumerated
once for all of them: :class:`~mtpalette.stats.tie_calibration.HumanPairs`), and reports the
Monte Carlo standard error. By default the simulation stops once that standard error is at
most ``tolerance`` (:data:`TOLERANCE`, after at least :data:`MIN_SIMULATIONS` and at most
:data:`MAX_SIMULATIONS` random metrics, the same seeded sequence whatever the stop), so the
chance level costs what its precision is worth; a given ``n_simulations`` runs exactly that
many. The value depends on the human scores and the statistic only, never on the metrics, and
is kept for the process (:func:`acc_eq_chance` computes one question once). It is neither 1/3
(three outcomes guessed at random) nor the uncalibrated value.

References
----------
Deutsch, Foster and Freitag (2023), Ties Matter: Meta-Evaluating Modern Metrics with Pairwise
Accuracy and Tie Calibration; Kocmi et al. (2021), To Ship or Not to Ship; Thompson, Mathur,
Deutsch and Lo (2024), Improving Statistical Significance in Human Evaluation of Automatic
Metrics via Soft Pairwise Accuracy (google-research/mt-metrics-eval, ``pce.py``, commit
68a481a: the definition of SPA read, not copied).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mtpalette.records import Record, out
from mtpalette.stats.grouping import as_matrix, make_groups
from mtpalette.stats.pairwise import SpaScorer
from mtpalette.stats.tie_calibration import HumanPairs

#: the default precision of a simulated chance level: its standard error at most this
TOLERANCE = 0.002
#: the fewest and the most random metrics of a simulation that stops at its precision
MIN_SIMULATIONS = 20
MAX_SIMULATIONS = 2000
#: simulated chance levels already computed in this process, by question
_KEPT: dict[tuple, ChanceLevel] = {}


@dataclass(frozen=True)
class ChanceLevel(Record):
    """The expected value of a statistic for a random metric.

    ``method`` is ``"exact"`` (``std_error`` 0, ``n_simulations`` 0) or ``"simulation"``
    (the mean over ``n_simulations`` seeded random metrics and its standard error);
    ``tolerance`` is the standard error the simulation stopped at or below (None: a fixed
    number of simulations; an SE above it means the cap was reached).
    """

    statistic: str
    value: float = field(metadata=out("chance"))
    method: str
    grouping: str = "none"
    calibrated: bool = field(default=False, metadata=out("tie_calibration"))
    n_simulations: int = field(default=0, metadata=out("simulations"))
    std_error: float = 0.0
    seed: int | None = None
    tolerance: float | None = None


def _gold_tie_shares(human: Any, grouping: str) -> tuple[np.ndarray, np.ndarray]:
    """Per group (of at least two rated entries): the number of pairs and of gold-tied pairs."""
    h = as_matrix(human)
    groups = make_groups(h, np.zeros_like(h), grouping)
    n_pairs = np.empty(groups.n_groups)
    tied = np.empty(groups.n_groups)
    for k in range(groups.n_groups):
        g, _ = groups.group(k)
        _, counts = np.unique(g, return_counts=True)
        n_pairs[k] = g.size * (g.size - 1) / 2
        tied[k] = (counts * (counts - 1) / 2).sum()
    return n_pairs, tied


def pairwise_accuracy_chance(human: Any) -> ChanceLevel:
    """Chance level of system-level pairwise accuracy: ``(1 - T_gold / N) / 2``.

    Parameters
    ----------
    human:
        One human score per system (NaN: unrated, left out).

    Examples
    --------
    >>> pairwise_accuracy_chance([0.1, 0.5, 0.9]).value
    0.5
    >>> round(pairwise_accuracy_chance([0.1, 0.1, 0.9]).value, 4)  # 1 of 3 pairs tied
    0.3333
    """
    h = np.asarray(human, dtype=np.float64).ravel()
    h = h[~np.isnan(h)]
    if h.size < 2:
        raise ValueError("pairwise accuracy needs at least two rated systems")
    value = _uncalibrated(h[None, :], "none", "acc23")
    return ChanceLevel("pairwise-accuracy", value, "exact")


def _uncalibrated(human: np.ndarray, grouping: str, variant: str) -> float:
    n_pairs, tied = _gold_tie_shares(human, grouping)
    if n_pairs.size == 0:
        return float("nan")
    share = tied / n_pairs
    per_group = (1.0 - share) / 2.0 if variant == "acc23" else -share
    return float(per_group.mean())


def acc_eq_chance(
    human: Any,
    *,
    grouping: str = "none",
    calibrated: bool = False,
    statistic: str = "acc-eq",
    n_simulations: int | None = None,
    tolerance: float = TOLERANCE,
    seed: int | None = 12345,
) -> ChanceLevel:
    """Chance level of acc-eq (or tau-eq), with or without tie calibration.

    Parameters
    ----------
    human:
        ``(systems, items)`` human scores (NaN: unrated), or one vector.
    grouping:
        ``none``, ``item`` or ``system``, as in :func:`~mtpalette.stats.correlation.correlation`.
    calibrated:
        False: the metric ties nothing (``epsilon = 0``), an exact value. True: the tie
        threshold is calibrated on every random metric; the mean over random metrics (iid
        uniform scores drawn from ``seed``) with its standard error.
    statistic:
        ``acc-eq`` or ``tau-eq``.
    n_simulations:
        Calibrated: this many random metrics; None (default): as many as bring the standard
        error to ``tolerance`` or below (between :data:`MIN_SIMULATIONS` and
        :data:`MAX_SIMULATIONS`).

    Examples
    --------
    >>> h = [[0.0, -1.0, 0.0, -5.0], [0.0, 0.0, -2.0, -1.0], [-3.0, 0.0, 0.0, 0.0]]
    >>> acc_eq_chance(h, grouping="item").value  # tied pairs per item: 1, 1, 1 and 0 of 3
    0.375
    >>> c = acc_eq_chance(h, grouping="item", calibrated=True, n_simulations=100, seed=1)
    >>> c.method, round(c.value, 3)  # the threshold is fitted on the tied items
    ('simulation', 0.443)
    >>> c = acc_eq_chance(h, grouping="item", calibrated=True, tolerance=0.01, seed=1)
    >>> c.n_simulations, c.std_error <= c.tolerance == 0.01
    (202, True)
    """
    if statistic not in ("acc-eq", "tau-eq"):
        raise ValueError(f"statistic must be acc-eq or tau-eq, got {statistic!r}")
    variant = "acc23" if statistic == "acc-eq" else "23"
    h = as_matrix(human)
    if not calibrated:
        return ChanceLevel(statistic, _uncalibrated(h, grouping, variant), "exact", grouping)
    if n_simulations is not None and n_simulations < 2:
        raise ValueError("n_simulations must be at least 2")
    if not tolerance > 0:
        raise ValueError(f"tolerance must be positive, got {tolerance}")
    question = (hashlib.sha256(h.tobytes()).hexdigest(), h.shape, grouping, statistic,
                n_simulations, None if n_simulations else tolerance, seed)  # fmt: skip
    if question not in _KEPT:
        _KEPT[question] = _simulated(h, grouping, statistic, n_simulations, tolerance, seed)
    return _KEPT[question]


def _simulated(h, grouping, statistic, n_simulations, tolerance, seed) -> ChanceLevel:
    """The mean of random metrics' calibrated values, each metric ``rng.random(h.shape)`` in
    turn from ``seed``: ``n_simulations`` of them, or until the standard error is at most
    ``tolerance``."""
    pairs = HumanPairs(h, grouping=grouping)
    if pairs.n_pairs == 0:  # no group of two rated entries: nothing to simulate
        return ChanceLevel(statistic, float("nan"), "simulation", grouping, True, 0,
                           float("nan"), seed, tolerance)  # fmt: skip
    variant = "acc23" if statistic == "acc-eq" else "23"
    rng = np.random.default_rng(seed)
    fixed = n_simulations is not None
    values = np.empty(n_simulations if fixed else MAX_SIMULATIONS)
    done = 0
    while done < values.size:
        values[done] = pairs.best_value(rng.random(h.shape), variant)
        done += 1
        if not fixed and done >= MIN_SIMULATIONS and _se(values[:done]) <= tolerance:
            break
    return ChanceLevel(statistic, float(values[:done].mean()), "simulation", grouping, True,
                       done, _se(values[:done]), seed, None if fixed else tolerance)  # fmt: skip


def _se(values: np.ndarray) -> float:
    return float(values.std(ddof=1) / np.sqrt(values.size))


def spa_chance(human_p_values: Any) -> ChanceLevel:
    """Chance level of soft pairwise accuracy from the human pairwise p-values.

    Parameters
    ----------
    human_p_values:
        ``(S, S)`` matrix whose upper triangle holds the p-value of "system i is better than
        system j" from the human scores (mt-metrics-eval's ``compute_pairwise_p_values``); the
        rest is ignored.

    Examples
    --------
    >>> p = np.array([[np.nan, 0.0, 0.5], [np.nan, np.nan, 1.0], [np.nan] * 3])
    >>> round(spa_chance(p).value, 4)  # pairs: 0.5, 0.75, 0.5
    0.5833
    """
    p = np.asarray(human_p_values, dtype=np.float64)
    if p.ndim != 2 or p.shape[0] != p.shape[1] or p.shape[0] < 2:
        raise ValueError("human p-values must be an (S, S) matrix with S >= 2")
    upper = p[np.triu_indices(p.shape[0], 1)]
    if not np.isfinite(upper).all() or (upper < 0).any() or (upper > 1).any():
        raise ValueError("the upper triangle of the human p-values must lie in [0, 1]")
    expected_error = (upper**2 + (1.0 - upper) ** 2) / 2.0
    return ChanceLevel("spa", float(1.0 - expected_error.mean()), "exact")


def chance_level(
    human: Any,
    statistic: str,
    *,
    grouping: str = "none",
    epsilon: float | None = 0.0,
    n_simulations: int | None = None,
    tolerance: float = TOLERANCE,
    seed: int | None = 12345,
) -> ChanceLevel | None:
    """The chance level of ``statistic`` as a correlation table computes it, or None for a
    statistic whose chance level is 0 by construction (Pearson, Spearman, Kendall's tau).

    ``epsilon=None`` means tie calibration (as in
    :func:`~mtpalette.stats.correlation.correlation`).

    Examples
    --------
    >>> chance_level([[1.0, 2.0, 3.0]], "pairwise-accuracy").value
    0.5
    >>> chance_level([[1.0, 2.0, 3.0]], "pearson") is None
    True
    """
    if statistic == "pairwise-accuracy":
        h = as_matrix(human)
        if grouping == "none" and h.shape[0] == 1:
            return pairwise_accuracy_chance(h[0])
        return ChanceLevel(statistic, _uncalibrated(h, grouping, "acc23"), "exact", grouping)
    if statistic in ("acc-eq", "tau-eq"):
        if epsilon not in (None, 0.0):
            raise ValueError("a fixed non-zero epsilon has no chance level here; use 0 or None")
        return acc_eq_chance(
            human,
            grouping=grouping,
            calibrated=epsilon is None,
            statistic=statistic,
            n_simulations=n_simulations,
            tolerance=tolerance,
            seed=seed,
        )
    return None


def chance_of_scores(
    human: Any,
    statistic: str,
    *,
    grouping: str = "none",
    epsilon: float | None = None,
    seed: int | None = 12345,
) -> ChanceLevel | None:
    """:func:`chance_level` on the human scores a table's statistic sees: the ``(systems,)``
    system scores (no grouping) or the ``(systems, items)`` segment scores (the chance function
    of the catalogue's pairwise statistics).

    Examples
    --------
    >>> chance_of_scores([0.3, 0.1, 0.2, 0.5, 0.4], "pairwise-accuracy").value
    0.5
    """
    h = np.asarray(human, dtype=np.float64)
    if h.ndim == 1:
        h, grouping = h[None, :], "none"
    return chance_level(as_matrix(h), statistic, grouping=grouping, epsilon=epsilon, seed=seed)


def spa_chance_of_scores(
    human: Any,
    statistic: str = "spa",
    *,
    grouping: str = "none",
    epsilon: float | None = None,
    seed: int | None = 12345,
) -> ChanceLevel:
    """:func:`spa_chance` from the ``(systems, items)`` segment scores, whose system p-values
    SPA compares (the catalogue's chance function of SPA)."""
    return spa_chance(SpaScorer(human).human_p)
