"""The one catalogue of meta-evaluation statistics: every statistic's value and chance level,
computed by one function whichever command or API asks.

A statistic has an mtpalette name (the ``correlate`` command's ``--stat``, the API's
``statistic=``) and an mt-metrics-eval name (a task's ``corr_fcn`` and ``corr_fcn_args``);
:data:`CATALOGUE` holds both, so ``correlate --stat acc-eq`` and a WMT task
``corr_fcn="KendallWithTiesOpt"`` are the same entry and give the same number, to the last
digit. Values follow mt-metrics-eval's definitions (``stats.AverageCorrelation`` and its
correlation functions, ``KendallWithTiesOpt``, ``pce``): a grouped statistic is the macro
average over groups of at least two rated entries, NaN groups skipped (``kendall-like``: the
pooled average, weighted by each group's number of pairs, as ``Correlation.KendallLike``).

The chance level is computed on the data the statistic sees: at system level the system
scores (pairwise accuracy of distinct system scores: 0.5), at segment level the segments,
grouped as the statistic groups them.

References
----------
google-research/mt-metrics-eval at 68a481a, ``mt_metrics_eval/stats.py``,
``tasks.py`` (``Task.corr_fcn``), ``pce.py``; Deutsch et al. (2023); Thompson et al. (2024).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mtpalette.stats import pairwise as pw
from mtpalette.stats.averaging import average_correlation
from mtpalette.stats.correlation import correlation
from mtpalette.stats.grouping import as_matrix
from mtpalette.stats.tie_calibration import tie_calibration


@dataclass(frozen=True)
class Statistic:
    """One statistic: its mtpalette name, mt-metrics-eval's ``corr_fcn`` (and fixed
    ``corr_fcn_args``), the levels it applies to, and whether it takes a grouping."""

    name: str
    corr_fcn: str
    args: dict[str, Any] = field(default_factory=dict)
    levels: tuple[str, ...] = ("segment", "system")
    grouped: bool = True
    #: a range of (0, 1) (accuracies) rather than (-1, 1)
    accuracy: bool = False


#: every statistic, by its mtpalette name
CATALOGUE: dict[str, Statistic] = {
    s.name: s
    for s in (
        Statistic("pearson", "pearson"),
        Statistic("spearman", "spearman"),
        Statistic("kendall", "kendall", {"variant": "b"}),
        Statistic("kendall-b", "kendall", {"variant": "b"}),
        Statistic("kendall-c", "kendall", {"variant": "c"}),
        # pooled over groups (WMT DARR; mt-metrics-eval's ``Correlation.KendallLike``, which
        # averages with macro=False); a task's corr_fcn="KendallLike" macro-averages
        Statistic("kendall-like", "KendallLike", {"macro": False}),
        Statistic("acc-eq", "KendallWithTiesOpt", {"variant": "acc23"}, accuracy=True),
        Statistic("tau-eq", "KendallWithTiesOpt", {"variant": "23"}),
        Statistic("pairwise-accuracy", "KendallVariants", {"variant": "acc23"}, accuracy=True),
        Statistic("spa", "pce", levels=("system",), grouped=False, accuracy=True),
        Statistic("pce", "pce", levels=("system",), grouped=False, accuracy=True),
        Statistic("pdp", "pearson", {"pdp": True}),
    )
}

#: mt-metrics-eval's correlation functions averaged over groups, by the names of
#: :func:`mtpalette.stats.averaging.average_correlation` (and of the significance tests)
AVERAGED = {
    "pearson": "pearson",
    "spearman": "spearman",
    "kendall": "kendall",
    "KendallLike": "kendall-like",
    "KendallVariants": "kendall-variants",
}

#: the function of the one permutation test (:func:`mtpalette.stats.sigdiff.sig_diff`) of
#: every correlation-like ``corr_fcn``
PERMUTATION_FUNCTION = {**AVERAGED, "KendallWithTiesOpt": "tie-calibrated"}

#: the statistics computed from segment scores even at system level (their systems' pairwise
#: p-values come from the segments)
FROM_SEGMENTS = ("spa", "pce")
#: the statistics whose tables are tasks of the engine (no bootstrap interval): SPA and PDP
ENGINE_ONLY = ("spa", "pce", "pdp")


def statistic(name: str) -> Statistic:
    """The catalogue's entry of ``name``, or a ValueError listing the names."""
    if name not in CATALOGUE:
        raise ValueError(f"unknown statistic {name!r}; expected one of {', '.join(CATALOGUE)}")
    return CATALOGUE[name]


def task_value(
    human: Any,
    metric: Any,
    corr_fcn: str,
    *,
    grouping: str = "none",
    replace_nans_with_zeros: bool = False,
    **args: Any,
) -> float:
    """The value of mt-metrics-eval's ``corr_fcn`` (with its ``corr_fcn_args``) on a human and
    a metric ``(systems, items)`` matrix (or two vectors): the one function behind every
    table and task.

    Examples
    --------
    >>> h = [[1.0, 2.0, 3.0], [2.0, 2.0, 1.0]]
    >>> m = [[0.1, 0.3, 0.2], [0.2, 0.2, 0.1]]
    >>> round(task_value(h, m, "kendall", grouping="system"), 6)  # mean of 1/3 and 1
    0.666667
    """
    args = {k: v for k, v in args.items() if k != "sample_rate"}
    if corr_fcn == "KendallWithTiesOpt":
        variant = args.get("variant", "acc23")
        return float(tie_calibration(human, metric, grouping=grouping, variant=variant).value)
    if corr_fcn == "pce":
        n = int(args.get("num_permutations", pw.SPA_PERMUTATIONS))
        return spa_value(pw.SpaScorer(human, n_permutations=n), metric)
    if corr_fcn == "pearson" and args.get("pdp"):
        return pw.pdp(human, metric, grouping=grouping)[0]
    fast = _vectorised(corr_fcn, args, replace_nans_with_zeros)
    if fast is not None:  # the same definition, computed for all groups at once
        name, epsilon = fast
        return correlation(human, metric, name, grouping=grouping, epsilon=epsilon)
    function = AVERAGED.get(corr_fcn)
    if function is None:
        raise ValueError(f"no value function for corr_fcn {corr_fcn!r}")
    return average_correlation(
        human,
        metric,
        function,
        grouping=grouping,
        replace_nans_with_zeros=replace_nans_with_zeros,
        **args,
    ).value


_VARIANTS = {"b": "kendall-b", "c": "kendall-c", "23": "tau-eq", "acc23": "acc-eq"}


def _vectorised(corr_fcn: str, args: dict[str, Any], nans_to_zero: bool):
    """``(statistic, epsilon)`` of :func:`mtpalette.stats.correlation.correlation` where it
    computes exactly ``corr_fcn`` with ``args`` (a macro average over the groups of two or
    more rated entries, undefined groups skipped), else None (the per-group route)."""
    if nans_to_zero:
        return None
    if corr_fcn in ("pearson", "spearman") and not args:
        return corr_fcn, 0.0
    variant = args.get("variant", "b")
    if corr_fcn == "kendall" and set(args) <= {"variant"} and variant in ("b", "c"):
        return _VARIANTS[variant], 0.0
    if corr_fcn == "KendallVariants" and set(args) <= {"variant", "epsilon"}:
        if variant in _VARIANTS:
            return _VARIANTS[variant], float(args.get("epsilon", 0.0))
    return None


def spa_value(scorer: pw.SpaScorer, metric: Any) -> float:
    """SPA of a metric's ``(systems, items)`` segment scores against the human p-values a
    :class:`~mtpalette.stats.pairwise.SpaScorer` holds (computed once for many metrics)."""
    return float(scorer.score(scorer.rated_columns(metric)[None])[0])


def value(
    name: str,
    human: Any,
    metric: Any,
    *,
    grouping: str = "none",
    epsilon: float | None = None,
    threshold: float = 25.0,
) -> float:
    """The value of the statistic ``name`` (an mtpalette name); ``epsilon`` is the metric tie
    threshold of ``acc-eq`` / ``tau-eq`` (None: tie calibration), ``threshold`` the minimum
    human difference of a ``kendall-like`` pair.

    Examples
    --------
    >>> round(value("pairwise-accuracy", [1.0, 2.0, 3.0], [0.1, 0.3, 0.2]), 6)
    0.666667
    """
    corr_fcn, args = task_of(name, epsilon=epsilon, threshold=threshold)
    return task_value(human, metric, corr_fcn, grouping=grouping, **args)


def task_of(name: str, *, epsilon: float | None = None, threshold: float = 25.0):
    """``(corr_fcn, corr_fcn_args)``: the mt-metrics-eval task that the statistic ``name``
    is, with its options (``epsilon``: a fixed metric tie threshold of ``acc-eq`` /
    ``tau-eq``, None: tie calibration; ``threshold``: ``kendall-like``'s).

    Examples
    --------
    >>> task_of("acc-eq"), task_of("acc-eq", epsilon=0.5)
    (('KendallWithTiesOpt', {'variant': 'acc23'}), ('KendallVariants', {'variant': 'acc23', \
'epsilon': 0.5}))
    """
    entry = statistic(name)
    args = dict(entry.args)
    corr_fcn = entry.corr_fcn
    if corr_fcn == "KendallWithTiesOpt" and epsilon is not None:
        corr_fcn, args["epsilon"] = "KendallVariants", float(epsilon)
    if corr_fcn == "KendallLike":
        args["thresh"] = threshold
    return corr_fcn, args


def sig_diff(
    name: str,
    human: Any,
    metric_a: Any,
    metric_b: Any,
    *,
    grouping: str = "none",
    k: int = 1000,
    seed: Any = None,
    plus_one: bool = False,
    epsilon: float | None = None,
    threshold: float = 25.0,
):
    """The permutation test (PERM-BOTH) that ``metric_a`` beats ``metric_b`` on the statistic
    ``name``: the task's test of :func:`task_of`, every permutation run (no early stopping);
    ``seed`` and ``plus_one`` as :func:`mtpalette.stats.sigdiff.sig_diff` takes them.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> h = rng.normal(size=200)
    >>> good, bad = h + 0.5 * rng.normal(size=200), h + 2.0 * rng.normal(size=200)
    >>> sig_diff("pearson", h, good, bad, k=199, seed=1, plus_one=True).p_value
    0.005
    """
    from mtpalette.stats import sigdiff
    from mtpalette.stats.permutation import EarlyStopping

    corr_fcn, args = task_of(name, epsilon=epsilon, threshold=threshold)
    function = PERMUTATION_FUNCTION.get(corr_fcn)
    if function is None:
        raise ValueError(f"no permutation test of {name!r} between two metrics here")
    return sigdiff.sig_diff(
        human, metric_a, metric_b, function, grouping=grouping, k=k,
        stopping=EarlyStopping(block_size=max(k, 1)), seed=seed, plus_one=plus_one, **args,
    )  # fmt: skip


def chance(
    name: str,
    human: Any,
    *,
    grouping: str = "none",
    epsilon: float | None = None,
    seed: int | None = 12345,
):
    """The chance level of ``name`` on the human scores the statistic sees: the ``(systems,)``
    system scores at system level, the ``(systems, items)`` segment scores otherwise (for SPA,
    the segment scores from which its system p-values come); None for a correlation, whose
    chance level is 0.

    Examples
    --------
    >>> chance("pairwise-accuracy", [0.3, 0.1, 0.2, 0.5, 0.4]).value  # 5 distinct systems
    0.5
    """
    from mtpalette.stats.chance import chance_level, spa_chance

    if statistic(name).corr_fcn == "pce":
        return spa_chance(pw.SpaScorer(human).human_p)
    h = np.asarray(human, dtype=np.float64)
    if h.ndim == 1:
        h, grouping = h[None, :], "none"
    return chance_level(as_matrix(h), name, grouping=grouping, epsilon=epsilon, seed=seed)
