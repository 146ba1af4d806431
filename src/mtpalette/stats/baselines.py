"""Is a metric significantly better than the best trivial baseline?

A meta-evaluation ranks metrics by their correlation with human scores; before the ranking
means anything, each metric should beat what counting words achieves (on MQM, minus the
hypothesis length correlates at Pearson 0.33 with the human score on WMT21 TED zh-en, above
every lexical metric). :func:`compare_with_best_baseline` takes the per-item scores of the
humans, of the metrics and of the baselines (all oriented: higher is better), picks the
baseline with the highest correlation, and tests every metric against it with the paired
test the significance clusters use (:mod:`mtpalette.stats.significance`: PERM-BOTH
permutation test, or the paired bootstrap), one-sided: "the metric correlates better than the
best baseline". A metric whose p-value is above ``alpha`` gets one plain sentence saying so.

The comparisons are one-sided and not corrected for multiplicity: a flag is a warning about
one metric, as a cluster boundary is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mtpalette.records import Record, out
from mtpalette.stats import catalogue
from mtpalette.stats.bootstrap import Seed, resolve_seed
from mtpalette.stats.catalogue import sig_diff
from mtpalette.stats.significance import bootstrap_correlations

#: the paired tests available (those of the significance clusters, Williams aside)
BASELINE_TESTS = ("permutation", "bootstrap")


@dataclass(frozen=True)
class BaselineComparison(Record):
    """One metric against the best baseline.

    ``p_value`` is that of "the metric correlates better than ``baseline``" (one-sided);
    ``beats`` is ``p_value <= alpha``; ``sentence`` is empty when it does.
    """

    metric: str
    value: float = field(metadata=out("correlation"))
    baseline: str = field(metadata=out("best_baseline"))
    baseline_value: float = field(metadata=out("baseline_correlation"))
    p_value: float
    beats: bool = field(metadata=out("beats_baseline"))
    sentence: str = field(metadata=out("note"))


@dataclass(frozen=True)
class BaselineReport(Record):
    """Every metric against the best baseline, and the baselines' own correlations."""

    # written after the settings: the baselines, the best of them, then the comparisons
    comparisons: list[BaselineComparison] = field(metadata=out(after="best"))
    baselines: dict[str, float] = field(metadata=out(after="seed"))
    best: str = field(metadata=out("best_baseline", after="baselines"))
    statistic: str
    grouping: str
    test: str
    alpha: float
    n_resamples: int = field(metadata=out("resamples"))
    seed: int | None

    def flagged(self) -> list[BaselineComparison]:
        """The metrics not significantly above the best baseline."""
        return [c for c in self.comparisons if not c.beats]

    def sentences(self) -> list[str]:
        """One plain sentence per flagged metric, in the order of the comparisons."""
        return [c.sentence for c in self.flagged()]


def _sentence(
    metric: str,
    value: float,
    baseline: str,
    baseline_value: float,
    p: float,
    statistic: str,
    test: str,
) -> str:
    stat = catalogue.statistic(statistic).sentence_name
    if value < baseline_value:
        verdict = "the baseline predicts the human scores better"
        relation = "below"
    else:
        verdict = "the difference may be chance"
        relation = "not significantly above"
    return (
        f"{metric} ({stat} {value:.3f}) is {relation} the trivial baseline {baseline} "
        f"({baseline_value:.3f}; one-sided {test} test p = {p:.3f}): {verdict}."
    )


def compare_with_best_baseline(
    human: Any,
    metrics: Mapping[str, Any],
    baselines: Mapping[str, Any],
    statistic: str = "pearson",
    *,
    grouping: str = "none",
    test: str = "permutation",
    n_resamples: int = 1000,
    alpha: float = 0.05,
    seed: Seed = 12345,
    epsilon: float | None = 0.0,
) -> BaselineReport:
    """Test every metric against the baseline with the highest correlation.

    Parameters
    ----------
    human:
        ``(systems, items)`` human scores (NaN: unrated), or a vector.
    metrics, baselines:
        ``{name: scores}`` of the same shape, oriented so that higher is better (an error
        metric negated, as :meth:`~mtpalette.metaeval.segments.MetricScores.oriented`).
    statistic, grouping, epsilon:
        As :func:`mtpalette.stats.correlation.correlation`.
    test, n_resamples, alpha, seed:
        ``permutation`` (PERM-BOTH, ``n_resamples`` permutations per metric) or ``bootstrap``
        (paired bootstrap over items, ``n_resamples`` resamples shared by all); one-sided;
        a metric beats the baseline when ``p <= alpha``.

    Returns
    -------
    BaselineReport
        ``.comparisons`` in the order of ``metrics``; ``.sentences()`` the plain sentences
        of the metrics that do not beat the best baseline.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> length = rng.integers(5, 40, size=300).astype(float)
    >>> human = -length + rng.normal(scale=6, size=300)  # longer: more errors
    >>> metrics = {"good": human + rng.normal(scale=2, size=300),
    ...            "weak": human + rng.normal(scale=40, size=300)}
    >>> r = compare_with_best_baseline(human, metrics, {"len": length, "-len": -length},
    ...                                n_resamples=200, seed=1)
    >>> r.best, [c.beats for c in r.comparisons]
    ('-len', [True, False])
    >>> r.sentences()[0].startswith("weak (Pearson 0.")
    True
    """
    if test not in BASELINE_TESTS:
        raise ValueError(f"unknown test {test!r}; expected one of {', '.join(BASELINE_TESTS)}")
    if not baselines:
        raise ValueError("no baseline given")
    if not metrics:
        raise ValueError("no metric given")
    if not 0 < alpha < 1:
        raise ValueError("alpha must lie in (0, 1)")
    if n_resamples < 1:
        raise ValueError("the test needs at least one resample")
    rng, recorded = resolve_seed(seed)
    names = list(metrics)
    base_names = list(baselines)
    matrices = [np.asarray(metrics[n], dtype=np.float64) for n in names]
    base_mats = [np.asarray(baselines[n], dtype=np.float64) for n in base_names]
    # one bootstrap run gives every value (and, for the bootstrap test, every p-value)
    res = bootstrap_correlations(
        human,
        [*matrices, *base_mats],
        statistic,
        grouping=grouping,
        n_resamples=n_resamples if test == "bootstrap" else 0,
        seed=rng,
        epsilon=epsilon,
    )
    values = np.asarray(res.values, dtype=np.float64)
    base_values = values[len(names) :]
    if np.isnan(base_values).all():
        raise ValueError("no baseline has a defined correlation")
    b = int(np.nanargmax(base_values))
    best, best_value = base_names[b], float(base_values[b])
    out = []
    for j, name in enumerate(names):
        if test == "bootstrap":
            p = res.paired_p_value(j, len(names) + b)
        else:
            p = sig_diff(statistic, human, matrices[j], base_mats[b], grouping=grouping,
                         k=n_resamples, seed=rng, plus_one=True, epsilon=epsilon).p_value
        value = float(values[j])
        beats = bool(p <= alpha)
        sentence = "" if beats else _sentence(name, value, best, best_value, p, statistic, test)
        out.append(BaselineComparison(name, value, best, best_value, float(p), beats, sentence))
    return BaselineReport(
        out,
        {n: float(v) for n, v in zip(base_names, base_values, strict=True)},
        best,
        statistic,
        grouping,
        test,
        alpha,
        n_resamples,
        recorded,
    )
