"""The one catalogue of meta-evaluation statistics: every statistic is an entry of
:data:`CATALOGUE` (a :class:`Statistic`, as mt-metrics-eval's dict of correlation functions),
and every other list, label and route of the package is read from it.

An entry carries the statistic's names in every dialect (its mtpalette name, the
``correlate`` command's ``--stat`` and the API's ``statistic=``, and its aliases; its
mt-metrics-eval ``corr_fcn`` and ``corr_fcn_args``; its Kendall ``variant``; the names of its
per-group and permutation functions), its functions (the vectorised group kernel of the
bootstrap intervals, the value function of a task, the chance level) and what a table says
of it (label, range, levels, grouping). ``correlate --stat acc-eq`` and a WMT task
``corr_fcn="KendallWithTiesOpt"`` are the same entry and give the same number, to the last
digit. A name is checked once where it enters (:func:`statistic`: the API's runs, the
commands, task files) and the entry, or its canonical name, is passed down.

Values follow mt-metrics-eval's definitions (``stats.AverageCorrelation`` and its correlation
functions, ``KendallWithTiesOpt``, ``pce``): a grouped statistic is the macro average over
groups of at least two rated entries, NaN groups skipped (``kendall-like``: the pooled
average, weighted by each group's number of pairs, as ``Correlation.KendallLike``). A
statistic without an mt-metrics-eval name is computed by its group kernel, and tested by a
permutation test of that kernel.

The chance level is computed on the data the statistic sees: at system level the system
scores (pairwise accuracy of distinct system scores: 0.5), at segment level the segments,
grouped as the statistic groups them.

References
----------
google-research/mt-metrics-eval at 68a481a, ``mt_metrics_eval/stats.py``,
``tasks.py`` (``Task.corr_fcn``), ``pce.py``; Deutsch et al. (2023); Thompson et al. (2024).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from mtpalette.errors import did_you_mean
from mtpalette.stats import group_kernels as gk
from mtpalette.stats import pairwise as pw
from mtpalette.stats import sigdiff
from mtpalette.stats.averaging import average_correlation
from mtpalette.stats.chance import chance_of_scores, spa_chance_of_scores
from mtpalette.stats.permutation import EarlyStopping
from mtpalette.stats.tie_calibration import tie_calibration

#: ``kernel(groups, *, epsilon, threshold)``: the values of every group (NaN: undefined)
GroupKernel = Callable[..., np.ndarray]
#: ``value(human, metric, *, grouping, **corr_fcn_args)``: a task's value
ValueFunction = Callable[..., float]
#: ``chance(human, name, *, grouping, epsilon, seed)``: a ChanceLevel, or None
ChanceFunction = Callable[..., Any]


@dataclass(frozen=True)
class Statistic:
    """One statistic: its names in every dialect, its functions and how tables show it.

    A function left None is one the statistic does not have: no ``group`` kernel (SPA, PDP:
    a task of the engine, no bootstrap interval), no ``chance`` level (a correlation: 0), no
    ``value`` of its own (its value is the average over groups of ``averaged``, or of its
    group kernel).
    """

    #: mtpalette's name: ``--stat``, ``statistic=``, and what tables and run files record
    name: str
    #: how tables title it
    label: str
    #: mt-metrics-eval's ``corr_fcn`` (None: it has none; computed by its group kernel)
    corr_fcn: str | None = None
    #: the ``corr_fcn_args`` that make the ``corr_fcn`` this statistic
    args: dict[str, Any] = field(default_factory=dict)
    #: other mtpalette names of it (``kendall`` is ``kendall-b``)
    aliases: tuple[str, ...] = ()
    #: its name in a sentence (a baseline note); empty: ``name``
    short: str = ""
    #: the vectorised group kernel (bootstrap intervals, ``correlation()``)
    group: GroupKernel | None = None
    #: the groups are pooled, ``sum(C - D) / sum(C + D)`` over rows ``[C, D]``, not averaged
    pooled: bool = False
    #: its Kendall variant, as ``KendallVariants`` and ``tie_calibration`` name it
    variant: str | None = None
    #: computed from pair counts (a system-level bootstrap weights the pairs of systems)
    pairs: bool = False
    #: ``epsilon=None`` calibrates the metric tie threshold (``KendallWithTiesOpt``)
    calibrated: bool = False
    #: the value of a task of ``corr_fcn`` when it is not an average over groups
    value: ValueFunction | None = None
    #: :func:`mtpalette.stats.averaging.average_correlation`'s function of each group
    averaged: str | None = None
    #: :func:`mtpalette.stats.sigdiff.sig_diff`'s function (None: the group kernel's test)
    permutation: str | None = None
    #: the chance level on the human scores the statistic sees (None: 0)
    chance: ChanceFunction | None = None
    #: the levels of a table of it
    levels: tuple[str, ...] = ("segment", "system")
    #: whether it takes a grouping (``none``, ``item``, ``system``)
    grouped: bool = True
    #: the range of its values
    range: tuple[float, float] = (-1.0, 1.0)
    #: computed from the segment scores even at system level (SPA's system p-values)
    from_segments: bool = False
    #: how a table of the engine computes it (a statistic without a group kernel)
    note: str = ""

    @property
    def names(self) -> tuple[str, ...]:
        """Its mtpalette names: ``name`` and the aliases."""
        return (self.name, *self.aliases)

    @property
    def sentence_name(self) -> str:
        return self.short or self.name

    def kernel(self, *, epsilon: float | None = 0.0, threshold: float = 25.0) -> GroupKernel:
        """The group kernel with the statistic's options bound (``kernel(groups)``)."""
        if self.group is None:
            raise ValueError(f"{self.name} has no group kernel (it is a task of the engine)")
        return partial(self.group, epsilon=epsilon or 0.0, threshold=threshold)


def _tie_calibrated(human: Any, metric: Any, *, grouping: str = "none", **args: Any) -> float:
    """``KendallWithTiesOpt``: acc-eq or tau-eq at the best metric tie threshold."""
    variant = args.get("variant", "acc23")
    return float(tie_calibration(human, metric, grouping=grouping, variant=variant).value)


def _spa(human: Any, metric: Any, *, grouping: str = "none", **args: Any) -> float:
    """``pce``: soft pairwise accuracy of the system p-values from the segment scores."""
    n = int(args.get("num_permutations", pw.SPA_PERMUTATIONS))
    return spa_value(pw.SpaScorer(human, n_permutations=n), metric)


def _pdp(human: Any, metric: Any, *, grouping: str = "none", **args: Any) -> float:
    """``pearson`` with ``pdp``: Pearson over the differences of every pair of systems."""
    return pw.pdp(human, metric, grouping=grouping)[0]


_PAIRS = dict(group=gk.pair_count_groups, pairs=True)
_SPA = dict(
    label="soft pairwise accuracy (SPA)", corr_fcn="pce", short="SPA", value=_spa,
    chance=spa_chance_of_scores, levels=("system",), grouped=False, range=(0.0, 1.0),
    from_segments=True,
    note="soft pairwise accuracy (Thompson et al. 2024) from the segment scores; clusters "
    "from mt-metrics-eval's permutation test of SPA (no bootstrap interval)",
)  # fmt: skip

#: every statistic, by its mtpalette name
CATALOGUE: dict[str, Statistic] = {
    s.name: s
    for s in (
        Statistic("pearson", "Pearson r", "pearson", short="Pearson", group=gk.pearson_groups,
                  averaged="pearson", permutation="pearson"),
        Statistic("spearman", "Spearman rho", "spearman", short="Spearman",
                  group=gk.spearman_groups, averaged="spearman", permutation="spearman"),
        Statistic("kendall-b", "Kendall tau-b", "kendall", {"variant": "b"}, ("kendall",),
                  "Kendall", partial(gk.pair_count_groups, variant="b"), variant="b",
                  pairs=True, averaged="kendall", permutation="kendall"),
        Statistic("kendall-c", "Kendall tau-c", "kendall", {"variant": "c"},
                  group=gk.kendall_c_groups, variant="c", averaged="kendall",
                  permutation="kendall"),
        # pooled over groups (WMT DARR; mt-metrics-eval's ``Correlation.KendallLike``, which
        # averages with macro=False); a task's corr_fcn="KendallLike" macro-averages
        Statistic("kendall-like", "WMT Kendall-like tau", "KendallLike", {"macro": False},
                  group=gk.kendall_like_groups, pooled=True, averaged="kendall-like",
                  permutation="kendall-like"),
        Statistic("acc-eq", "acc-eq", "KendallWithTiesOpt", {"variant": "acc23"},
                  group=partial(gk.pair_count_groups, variant="acc23"), variant="acc23",
                  pairs=True, calibrated=True, value=_tie_calibrated,
                  permutation="tie-calibrated", chance=chance_of_scores, range=(0.0, 1.0)),
        Statistic("tau-eq", "tau-eq", "KendallWithTiesOpt", {"variant": "23"},
                  group=partial(gk.pair_count_groups, variant="23"), variant="23", pairs=True,
                  calibrated=True, value=_tie_calibrated, permutation="tie-calibrated",
                  chance=chance_of_scores),
        Statistic("pairwise-accuracy", "pairwise accuracy", "KendallVariants",
                  {"variant": "acc23"}, group=partial(gk.pair_count_groups, variant="acc23"),
                  variant="acc23", pairs=True, averaged="kendall-variants",
                  permutation="kendall-variants", chance=chance_of_scores, range=(0.0, 1.0)),
        Statistic("spa", aliases=("pce",), **_SPA),
        Statistic("pdp", "pairwise difference Pearson (PDP)", "pearson", {"pdp": True},
                  short="PDP", value=_pdp,
                  note="pairwise difference Pearson (PDP: Pearson over the differences of "
                  "every pair of systems' scores, mt-metrics-eval's pdp); no interval and no "
                  "significance test"),
    )
}  # fmt: skip

#: labels of the tables whose statistic is not an entry (relative rankings:
#: :func:`mtpalette.metaeval.relative_ranking.rr_table`)
OTHER_LABELS = {"rr-kendall": "WMT RR tau"}


def names(*, interval: bool = False) -> list[str]:
    """Every mtpalette name (aliases included) in the catalogue's order; ``interval``: only
    those with a group kernel (bootstrap intervals, ``correlation()``).

    Examples
    --------
    >>> names(interval=True)[:4]
    ['pearson', 'spearman', 'kendall-b', 'kendall']
    """
    return [n for s in CATALOGUE.values() if s.group or not interval for n in s.names]


def find(name: str | Statistic) -> Statistic | None:
    """The entry of ``name`` (any of its names), or None."""
    if isinstance(name, Statistic):
        return name
    for entry in CATALOGUE.values():
        if name in entry.names:
            return entry
    return None


def statistic(name: str | Statistic, *, interval: bool = False) -> Statistic:
    """The catalogue's entry of ``name`` (any of its names; an entry is itself), or a
    ValueError listing the names; ``interval``: one with a group kernel.

    Examples
    --------
    >>> statistic("kendall").name, statistic("pce").label
    ('kendall-b', 'soft pairwise accuracy (SPA)')
    >>> statistic("tau-x")
    Traceback (most recent call last):
    ...
    ValueError: unknown statistic 'tau-x'; expected one of pearson, spearman, kendall-b, \
kendall, kendall-c, kendall-like, acc-eq, tau-eq, pairwise-accuracy, spa, pce, pdp. \
Did you mean 'tau-eq'?
    """
    entry = find(name)
    known = names(interval=interval)
    if entry is None or (interval and entry.group is None):
        if entry is not None:
            raise ValueError(
                f"{name} is a task of the engine (no group kernel, so no bootstrap interval "
                f"here; mtpalette correlate --stat {name} computes it); expected one of "
                f"{', '.join(known)}"
            )
        raise ValueError(
            f"unknown statistic {name!r}; expected one of {', '.join(known)}."
            f"{did_you_mean(str(name), known)}"
        )
    return entry


def label(name: str) -> str:
    """How tables title the statistic ``name`` (the name itself when unknown)."""
    entry = find(name)
    return entry.label if entry is not None else OTHER_LABELS.get(name, name)


def corr_fcns() -> list[str]:
    """mt-metrics-eval's correlation functions of the catalogue, each once, in its order."""
    return list(dict.fromkeys(s.corr_fcn for s in CATALOGUE.values() if s.corr_fcn))


def task_entry(corr_fcn: str, args: dict[str, Any] | None = None) -> Statistic | None:
    """The entry a task's ``corr_fcn`` with ``corr_fcn_args`` is: of the entries of that
    ``corr_fcn``, the one whose fixed args the task sets (the most of them), else the first.

    Examples
    --------
    >>> task_entry("KendallWithTiesOpt", {"variant": "23"}).name, task_entry("pce").name
    ('tau-eq', 'spa')
    >>> task_entry("pearson", {"pdp": True}).name, task_entry("kendall").name
    ('pdp', 'kendall-b')
    """
    args = args or {}
    family = [s for s in CATALOGUE.values() if s.corr_fcn == corr_fcn]
    fits = [s for s in family if all(args.get(k) == v for k, v in s.args.items())]
    fits.sort(key=lambda s: -len(s.args))
    return (fits or family or [None])[0]


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
    entry = task_entry(corr_fcn, args)
    if entry is not None and entry.value is not None:
        return entry.value(human, metric, grouping=grouping, **args)
    fast = _vectorised(corr_fcn, args, replace_nans_with_zeros)
    if fast is not None:  # the same definition, computed for all groups at once
        fast_entry, epsilon = fast
        return gk.grouped_value(fast_entry, human, metric, grouping=grouping, epsilon=epsilon)
    function = entry.averaged if entry is not None else None
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


def _by_variant(variant: str) -> Statistic | None:
    """The first entry with a group kernel of the Kendall ``variant``."""
    return next((s for s in CATALOGUE.values() if s.group and s.variant == variant), None)


def _vectorised(corr_fcn: str, args: dict[str, Any], nans_to_zero: bool):
    """``(entry, epsilon)`` whose group kernel computes exactly ``corr_fcn`` with ``args``
    (a macro average over the groups of two or more rated entries, undefined groups
    skipped), else None (the per-group route)."""
    if nans_to_zero:
        return None
    if corr_fcn in ("pearson", "spearman") and not args:
        return task_entry(corr_fcn), 0.0
    variant = args.get("variant", "b")
    if corr_fcn == "kendall" and set(args) <= {"variant"} and variant in ("b", "c"):
        return _by_variant(variant), 0.0
    if corr_fcn == "KendallVariants" and set(args) <= {"variant", "epsilon"}:
        entry = _by_variant(variant)
        if entry is not None:
            return entry, float(args.get("epsilon", 0.0))
    return None


def spa_value(scorer: pw.SpaScorer, metric: Any) -> float:
    """SPA of a metric's ``(systems, items)`` segment scores against the human p-values a
    :class:`~mtpalette.stats.pairwise.SpaScorer` holds (computed once for many metrics)."""
    return float(scorer.score(scorer.rated_columns(metric)[None])[0])


def value(
    name: str | Statistic,
    human: Any,
    metric: Any,
    *,
    grouping: str = "none",
    epsilon: float | None = None,
    threshold: float = 25.0,
) -> float:
    """The value of the statistic ``name`` (an mtpalette name, or an entry); ``epsilon`` is
    the metric tie threshold of ``acc-eq`` / ``tau-eq`` (None: tie calibration),
    ``threshold`` the minimum human difference of a ``kendall-like`` pair. A statistic
    without an mt-metrics-eval name is computed by its group kernel.

    Examples
    --------
    >>> round(value("pairwise-accuracy", [1.0, 2.0, 3.0], [0.1, 0.3, 0.2]), 6)
    0.666667
    """
    entry = statistic(name)
    if entry.corr_fcn is None:
        return gk.grouped_value(
            entry, human, metric, grouping=grouping, epsilon=epsilon, threshold=threshold
        )
    corr_fcn, args = task_of(entry, epsilon=epsilon, threshold=threshold)
    return task_value(human, metric, corr_fcn, grouping=grouping, **args)


def task_of(name: str | Statistic, *, epsilon: float | None = None, threshold: float = 25.0):
    """``(corr_fcn, corr_fcn_args)``: the mt-metrics-eval task that the statistic ``name``
    is, with its options (``epsilon``: a fixed metric tie threshold of ``acc-eq`` /
    ``tau-eq``, None: tie calibration; ``threshold``: ``kendall-like``'s).

    Examples
    --------
    >>> task_of("acc-eq"), task_of("acc-eq", epsilon=0.5)
    (('KendallWithTiesOpt', {'variant': 'acc23', 'sample_rate': 1.0}), ('KendallVariants', \
{'variant': 'acc23', 'epsilon': 0.5}))

    Tie calibration here is over every pair, mt-metrics-eval's ``sample_rate=1.0`` (its task
    sets' choice; its default, 0.1, samples the pairs at random and is refused by ``Task``).
    """
    entry = statistic(name)
    if entry.corr_fcn is None:
        raise ValueError(f"{entry.name} has no mt-metrics-eval task (no corr_fcn)")
    args = dict(entry.args)
    corr_fcn = entry.corr_fcn
    if entry.calibrated and epsilon is not None:
        corr_fcn, args["epsilon"] = "KendallVariants", float(epsilon)
    if corr_fcn == "KendallLike":
        args["thresh"] = threshold
    if corr_fcn == "KendallWithTiesOpt":
        args.setdefault("sample_rate", 1.0)
    return corr_fcn, args


def question(level: str, corr_fcn: str, args: dict[str, Any] | None = None, *,
             grouping: str = "none", perm_test: str = "scores", lang: str = "") -> str:  # fmt: skip
    """The key of one comparison between metrics, whichever command asks it: the language
    pair(s) (``""`` when the data has none), the level (``seg``, ``sys``), mt-metrics-eval's
    ``corr_fcn`` and its arguments (``sample_rate``, which changes nothing here, left out),
    the grouping and the permutation test. The
    independent draws of a test are keyed by it (:func:`mtpalette.stats.permutation.
    pair_generator`), so ``correlate`` and a ``wmt`` task asking the same question draw the
    same permutations.

    Examples
    --------
    >>> question("seg", "KendallWithTiesOpt", {"variant": "acc23", "sample_rate": 1.0},
    ...          grouping="item", lang="en-de")
    'en-de|seg|KendallWithTiesOpt|{"variant": "acc23"}|item|scores'
    """
    import json

    kept = {k: v for k, v in sorted((args or {}).items()) if k != "sample_rate"}
    return f"{lang}|{level}|{corr_fcn}|{json.dumps(kept, default=str)}|{grouping}|{perm_test}"


def sig_diff(
    name: str | Statistic,
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
    ``name``: the task's test of :func:`task_of` (a statistic without one: the test of its
    group kernel), every permutation run (no early stopping); ``seed`` and ``plus_one`` as
    :func:`mtpalette.stats.sigdiff.sig_diff` takes them.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> h = rng.normal(size=200)
    >>> good, bad = h + 0.5 * rng.normal(size=200), h + 2.0 * rng.normal(size=200)
    >>> sig_diff("pearson", h, good, bad, k=199, seed=1, plus_one=True).p_value
    0.005
    """
    if k < 0:
        raise ValueError(f"the number of draws must be non-negative, got {k}")
    entry = statistic(name)
    function: Any = None
    args: dict[str, Any] = {}
    if entry.corr_fcn is not None:
        corr_fcn, args = task_of(entry, epsilon=epsilon, threshold=threshold)
        function = task_entry(corr_fcn, args).permutation
    elif entry.group is not None and not entry.pooled:
        function = entry.kernel(epsilon=epsilon, threshold=threshold)
    if function is None:
        raise ValueError(f"no permutation test of {entry.name!r} between two metrics here")
    return sigdiff.sig_diff(
        human, metric_a, metric_b, function, grouping=grouping, k=k,
        stopping=EarlyStopping(block_size=max(k, 1)), seed=seed, plus_one=plus_one, **args,
    )  # fmt: skip


def chance(
    name: str | Statistic,
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
    entry = statistic(name)
    if entry.chance is None:
        return None
    return entry.chance(human, entry.name, grouping=grouping, epsilon=epsilon, seed=seed)
