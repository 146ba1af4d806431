"""Correlation with human judgments: metrics x judgments -> a table with intervals and clusters.

A *task* is human scores of several systems' translations of the same items (segments),
the translations and the references (:class:`~mtpalette.metaeval.segments.SegmentData`).
Every metric scores every rated translation once
(:func:`~mtpalette.metaeval.segments.score_segments`, sharing tokenization and grouped
passes), and :meth:`~mtpalette.metaeval.segments.SegmentData.pair_data` makes of both the one
data object of meta-evaluation (:class:`~mtpalette.metaeval.tasks.LanguagePairData`, with its
scored set); then :func:`correlation_table` correlates each metric with the human scores:

* **direction**: scores are oriented so that higher is better before correlating - an error
  metric (WER, PER, TER) is negated - so a good metric has a *positive* correlation whatever
  its direction (as mt-metrics-eval, which stores error metrics negated). The table records
  each metric's own direction.
* **level** ``segment`` (with ``grouping`` ``none`` / ``item`` / ``system``) or ``system``
  (the mean human score of each system against the metric's *corpus* score on the same rated
  segments, or the mean of its segment scores with ``system_score="mean"``).
* **interval**: percentile bootstrap over items (segments), the same resamples for every
  metric; at system level the system scores are recomputed on each resample.
* **clusters**: metrics sorted by correlation, a new cluster starting when a metric of the
  current one is significantly better (mt-metrics-eval's ranks). The test is ``permutation``
  (PERM-BOTH, mt-metrics-eval's default), ``bootstrap`` (paired, on the interval's
  resamples), ``williams`` (Pearson without grouping only) or ``none``.

Relative rankings (WMT12) and system-only human scores (WMT21 rankings) have their own
entries, :func:`mtpalette.metaeval.relative_ranking.rr_table` and :func:`system_table`.

References
----------
Machacek and Bojar (2014), Results of the WMT14 Metrics Shared Task; Mathur et al. (2020),
WMT20; Freitag et al. (2021, 2022), WMT21/22 Metrics (MQM, significance clusters).
google-research/mt-metrics-eval ``data.GetCorrelations``, ``data.CompareMetrics``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.metaeval.segments import SYSTEM_SCORES
from mtpalette.metaeval.tasks import LanguagePairData
from mtpalette.metrics.base import Signature
from mtpalette.records import Record, constant, out, written
from mtpalette.stats import catalogue
from mtpalette.stats.averaging import williams_sig_diff, williams_test
from mtpalette.stats.bootstrap import BootstrapCI
from mtpalette.stats.catalogue import sig_diff
from mtpalette.stats.degenerate import degenerate_groups
from mtpalette.stats.grouping import GROUPINGS
from mtpalette.stats.resampling import (
    Seed,
)
from mtpalette.stats.significance import (
    LEVELS,
    TESTS,
    CorrelationResamples,
    bootstrap_correlations,
    bootstrap_system_correlations,
    significance_clusters,
)


@dataclass(frozen=True)
class CorrelationRow(Record):
    """One metric's line: correlation, interval, significance cluster (1 = best)."""

    metric: str
    ci: BootstrapCI = field(
        metadata=out(parts={"correlation": "value", "low": "low", "high": "high"})
    )
    cluster: int | None
    higher_is_better: bool = field(metadata=out("metric_higher_is_better"))
    signature: Signature
    epsilon: float | None = field(default=None, metadata=out(after="cluster"))
    #: a trivial baseline (hypothesis length...), shown beside the metrics
    baseline: bool = False

    @property
    def value(self) -> float:
        return self.ci.value

    @written(key="oriented", after="higher_is_better")
    def orientation(self) -> str:
        """How the metric's scores entered the correlation: ``as is`` or ``negated``."""
        return "as is" if self.higher_is_better else "negated"


@dataclass(frozen=True)
class CorrelationTable(Record):
    """Metrics ranked by their correlation with human scores."""

    rows: list[CorrelationRow] = field(metadata=out(after="orientation"))  # after the settings
    statistic: str
    grouping: str
    level: str
    unit: str = field(metadata=out("resampling_unit"))
    n_units: int
    n_resamples: int = field(metadata=out("bootstrap"))
    confidence: float
    seed: int | None
    test: str
    alpha: float
    n_permutations: int = field(metadata=out("permutations"))
    comparisons: list[dict[str, Any]]
    info: dict[str, Any] = field(default_factory=dict, metadata=out(skip=True))  # see to_dict

    orientation = constant(
        "error metrics are negated: higher correlation is better for all", after="n_permutations"
    )

    def row(self, metric: str) -> CorrelationRow:
        return next(r for r in self.rows if r.metric == metric)

    def to_pandas(self):
        """One row per metric (the keys of :meth:`CorrelationRow.to_dict`)."""
        from mtpalette.records import frame

        return frame(r.to_dict() for r in self.rows)

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), **self.info}


def _check(statistic: str, grouping: str, level: str, test: str) -> str:
    try:
        statistic = catalogue.statistic(statistic, interval=True).name
    except ValueError as exc:
        raise UserInputError(str(exc)) from None
    if grouping not in GROUPINGS:
        raise UserInputError(
            f"unknown grouping {grouping!r}; expected one of {', '.join(GROUPINGS)}"
        )
    if level not in LEVELS:
        raise UserInputError(f"unknown level {level!r}; expected one of {', '.join(LEVELS)}")
    if level == "system" and grouping != "none":
        raise UserInputError("system-level correlations take no grouping (--grouping none)")
    if test not in TESTS:
        raise UserInputError(f"unknown test {test!r}; expected one of {', '.join(TESTS)}")
    if test == "williams" and not (statistic == "pearson" and grouping == "none"):
        raise UserInputError("Williams' test is for Pearson correlations without grouping")
    return statistic


def correlation_table(
    lp: LanguagePairData,
    metrics: Sequence[str] | None = None,
    *,
    gold: str | None = None,
    statistic: str = "pearson",
    grouping: str = "none",
    level: str = "segment",
    system_score: str = "corpus",
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: Seed = 12345,
    test: str = "permutation",
    n_permutations: int = 1000,
    alpha: float = 0.05,
    epsilon: float | None = 0.0,
    threshold: float = 25.0,
    progress: Callable[[int], None] | None = None,
    lang: str = "",
    p_convention: str = "plus-one",
) -> CorrelationTable:
    """Correlate every metric with the human scores; intervals and significance clusters.

    Parameters
    ----------
    lp:
        The data object (:meth:`~mtpalette.metaeval.segments.SegmentData.pair_data`).
    metrics:
        The names of the metrics of ``lp`` to correlate, each one scored here (in
        ``lp.scored``); all of them when None.
    gold:
        The human scores of ``lp`` to correlate with (its only or standard ones when None).
    statistic, grouping, level, epsilon, threshold:
        See :mod:`mtpalette.stats.correlation`; ``epsilon=None`` calibrates acc-eq/tau-eq.
    system_score:
        At system level: ``corpus`` (the metric's corpus score) or ``mean`` (of its segment
        scores), both on the human-rated segments.
    n_resamples, confidence, seed:
        Bootstrap over items (0: no interval).
    test, n_permutations, alpha:
        Significance test for the clusters (see the module docstring).
    progress:
        Called with the work done as it is done: bootstrap resamples times metrics, then
        permutation draws of each pair of metrics the clusters compare.

    Examples
    --------
    >>> from mtpalette.metaeval.segments import SegmentData, score_segments
    >>> from mtpalette.metrics import parse_specs
    >>> rng = np.random.default_rng(0)
    >>> hyps = [[" ".join(rng.choice(list("abcd"), 4)) for _ in range(30)] for _ in range(3)]
    >>> refs = [["a b c d"] * 30]
    >>> human = np.array([[h.count("a") for h in row] for row in hyps], dtype=float)
    >>> d = SegmentData(["S1", "S2", "S3"], human, hyps, refs, list(range(30)))
    >>> lp = d.pair_data(score_segments(d, parse_specs(["bleus:1", "wer"], tokenize="none")))
    >>> t = correlation_table(lp, statistic="kendall", n_resamples=100, test="bootstrap")
    >>> [r.metric for r in t.rows], t.rows[0].cluster
    (['bleus:1', 'wer'], 1)
    """
    statistic = _check(statistic, grouping, level, test)
    if system_score not in SYSTEM_SCORES:
        raise UserInputError(f"unknown system score {system_score!r}; expected corpus or mean")
    names = list(lp.scored) if metrics is None else list(metrics)
    if not names:
        raise UserInputError("no metric given")
    unscored = [n for n in names if n not in lp.scored]
    if unscored:
        raise UserInputError(
            f"{', '.join(unscored)}: not scored here from texts (stored scores have no "
            "statistics to resample)"
        )
    scores = [lp.scored[n] for n in names]
    human = np.asarray(lp.human[lp.gold_name("seg", gold)]["seg"], dtype=np.float64)
    mats = [s.oriented() for s in scores]
    fns = None
    if level == "system" and system_score == "corpus":
        fns = [s.corpus_scores for s in scores]
    try:
        res = bootstrap_correlations(
            human, mats, statistic, grouping=grouping, level=level, system_scores=fns,
            n_resamples=n_resamples, confidence=confidence, seed=seed, epsilon=epsilon,
            threshold=threshold, progress=progress,
        )  # fmt: skip
    except ValueError as exc:
        raise UserInputError(str(exc)) from None
    p_value = _p_value_of_pairs(
        res, test, statistic, human, mats, names=names, grouping=grouping,
        system_vectors=_system_vectors(human, mats, fns) if level == "system" else None,
        n_permutations=n_permutations, epsilon=epsilon, threshold=threshold,
        question=_question(statistic, level, grouping, epsilon, threshold, lang),
        plus_one=p_convention == "plus-one",
    )  # fmt: skip
    if progress is not None and test == "permutation":
        p_value = _counted_pairs(p_value, progress, n_permutations)
    info: dict[str, Any] = {}
    if level == "segment":
        degenerate = degenerate_groups(human, grouping)
        if degenerate.sentences():  # groups left out, or that cannot tell metrics apart
            info["degenerate"] = degenerate.to_dict()
    table = _table(
        res,
        names,
        scores,
        p_value,
        test,
        alpha,
        n_permutations,
        {
            "n_systems": human.shape[0],
            "n_items": human.shape[1],
            "n_rated": int((~np.isnan(human)).sum()),
            "system_score": system_score if level == "system" else None,
            "systems": list(lp.systems),
            "system_scores": system_scores(lp, names, system_score=system_score, gold=gold),
        },
    )
    table.info.update(info | _convention(test, n_permutations, p_convention))
    return table


def _system_vectors(human: np.ndarray, mats, fns) -> Callable[[int], tuple]:
    """``vectors(j)``: the human and metric ``j`` system scores of a system-level test (the
    metric's corpus scores ``fns[j]``, else its mean over the rated segments)."""
    from mtpalette.stats.grouping import system_means

    h = system_means(human)

    def vectors(j: int) -> tuple[np.ndarray, np.ndarray]:
        if fns is not None:
            return h, fns[j](None)[0]
        return h, system_means(np.where(np.isnan(human), np.nan, mats[j]))

    return vectors


def _convention(test: str, n_permutations: int, p_convention: str) -> dict[str, str]:
    """The p-value convention of a table's permutation tests, recorded when it ran them."""
    return {"p_convention": p_convention} if test == "permutation" and n_permutations else {}


def system_scores(
    lp: LanguagePairData,
    metrics: Sequence[str] | None = None,
    *,
    system_score: str = "corpus",
    gold: str | None = None,
) -> dict[str, Any]:
    """Each system's human score (mean over its rated items) and each scored metric's own
    score of it (:meth:`~mtpalette.metaeval.segments.MetricScores.system_scores`: ``corpus``
    or ``mean``), as the report's systems table shows them; metric scores are not negated.

    Examples
    --------
    >>> from mtpalette.metaeval.segments import SegmentData, score_segments
    >>> from mtpalette.metrics import parse_specs
    >>> d = SegmentData(["A", "B"], np.array([[0.0, -1.0], [-5.0, np.nan]]),
    ...                 [["a b", "c d"], ["a x", "c d"]], [["a b", "c d"]], [0, 1])
    >>> lp = d.pair_data(score_segments(d, parse_specs(["wer"], tokenize="none")))
    >>> out = system_scores(lp)
    >>> out["human"], out["metrics"]["wer"], out["n_rated"]
    ([-0.5, -5.0], [0.0, 0.5], [2, 1])
    """
    from mtpalette.stats.grouping import system_means

    human = np.asarray(lp.human[lp.gold_name("seg", gold)]["seg"], dtype=np.float64)
    names = list(lp.scored) if metrics is None else list(metrics)
    return {
        "systems": list(lp.systems),
        "kind": system_score,
        "human": [float(v) for v in system_means(human)],
        "n_rated": [int(n) for n in (~np.isnan(human)).sum(axis=1)],
        "metrics": {
            n: [float(v) for v in lp.scored[n].system_scores(system_score)] for n in names
        },
    }


def _p_value_of_pairs(
    res: CorrelationResamples,
    test: str,
    statistic: str,
    human: np.ndarray,
    mats: Sequence[np.ndarray],
    *,
    names: Sequence[str],
    grouping: str = "none",
    system_vectors: Callable[[int], tuple[np.ndarray, np.ndarray]] | None = None,
    n_permutations: int,
    epsilon: float | None,
    threshold: float = 25.0,
    question: str = "",
    plus_one: bool = True,
) -> Callable[[int, int], float]:
    """``p(a, b)``: the one-sided p-value of ``test`` that metric ``a`` correlates better than
    metric ``b``; ``system_vectors(j)`` gives the human and metric ``j`` system scores of a
    system-level comparison (else the segment scores ``human`` and ``mats[j]`` are used).
    Each test draws its permutations from a generator keyed by the bootstrap's seed, the
    ``question`` and the two metrics' names (:func:`~mtpalette.stats.permutation.
    pair_generator`): a ``wmt`` task asking the same question with independent draws draws
    the same ones, whatever the order of the tests."""
    from mtpalette.stats.permutation import pair_generator

    seed = res.seed if res.seed is not None else 0

    def p_value(a: int, b: int) -> float:
        if test == "bootstrap":
            return res.paired_p_value(a, b)
        rng = pair_generator(seed, question, names[a], names[b])
        if system_vectors is not None:
            ha, ma = system_vectors(a)
            _, mb = system_vectors(b)
            if test == "williams":
                return _williams_one_sided(ha, ma, mb)
            return sig_diff(statistic, ha, ma, mb, k=n_permutations, seed=rng, plus_one=plus_one,
                            epsilon=epsilon, threshold=threshold).p_value  # fmt: skip
        if test == "williams":
            p, ra, rb = williams_sig_diff(human, mats[a], mats[b])
            return p if ra >= rb else 1.0 - p
        return sig_diff(statistic, human, mats[a], mats[b], grouping=grouping, k=n_permutations,
                        seed=rng, plus_one=plus_one, epsilon=epsilon,
                        threshold=threshold).p_value  # fmt: skip

    return p_value


def _question(statistic: str, level: str, grouping: str, epsilon, threshold, lang: str) -> str:
    """The key of a table's permutation draws: the question of :func:`catalogue.question`
    asked as a ``wmt`` task asks it (the statistic as its ``corr_fcn`` and arguments)."""
    from mtpalette.stats import catalogue

    entry = catalogue.statistic(statistic)
    corr_fcn, args = (catalogue.task_of(entry, epsilon=epsilon, threshold=threshold)
                      if entry.corr_fcn is not None else (entry.name, {}))  # fmt: skip
    level = {"segment": "seg", "system": "sys"}.get(level, level)
    return catalogue.question(level, corr_fcn, args, grouping=grouping, lang=lang)


def _counted_pairs(
    p_value: Callable[[int, int], float], progress: Callable[[int], None], n_draws: int
) -> Callable[[int, int], float]:
    """``p_value``, saying after each call that ``n_draws`` permutations were drawn."""

    def counted(a: int, b: int) -> float:
        p = p_value(a, b)
        progress(n_draws)
        return p

    return counted


def _williams_one_sided(h: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    from mtpalette.stats.correlation import pearson

    ra, rb, rab = pearson(h, a), pearson(h, b), pearson(a, b)
    p = williams_test(ra, rb, rab, h.size)
    return p if ra >= rb else 1.0 - p


def _table(
    res: CorrelationResamples,
    names: list[str],
    scores: Sequence[Any],
    p_value,
    test: str,
    alpha: float,
    n_permutations: int,
    info: dict,
) -> CorrelationTable:
    clusters = None
    comparisons: list[dict[str, Any]] = []
    if test != "none":
        clusters = significance_clusters(res.values, p_value, alpha=alpha, test=test, names=names)
        comparisons = [
            {"better": names[a], "worse": names[b], "p_value": p}
            for (a, b), p in clusters.p_values.items()
        ]
        order = clusters.order
    else:
        order = sorted(
            range(len(names)), key=lambda j: (-np.nan_to_num(res.values[j], nan=-np.inf), names[j])
        )
    rows = []
    for j in order:
        sc = scores[j]
        rows.append(
            CorrelationRow(
                names[j],
                res.cis[j],
                None if clusters is None else clusters.rank[j],
                bool(sc.higher_is_better),
                sc.signature,
                None if res.epsilons is None else res.epsilons[j],
                bool(getattr(getattr(sc, "metric", None), "baseline", False)),
            )
        )
    return CorrelationTable(
        rows,
        res.statistic,
        res.grouping,
        res.level,
        res.unit,
        res.n_units,
        res.n_resamples,
        res.confidence,
        res.seed,
        test,
        alpha,
        n_permutations if test == "permutation" else 0,
        comparisons,
        info,
    )


def stored_signature(name: str, origin: str) -> Signature:
    """The signature of a metric's stored scores, known only by where they came from (no
    settings, no version: they were made elsewhere).

    Examples
    --------
    >>> str(stored_signature("BLEU", "stored BLEU.sys.score"))
    'BLEU|source:stored BLEU.sys.score'
    """
    return Signature(name, {"source": origin}, None)


@dataclass(frozen=True)
class _Named:
    """Direction and signature of a metric known only by name (system-level tables)."""

    higher_is_better: bool
    signature: Signature


def system_table(
    human: Mapping[str, float],
    metric_scores: Mapping[str, Mapping[str, float]],
    *,
    directions: Mapping[str, bool] | None = None,
    signatures: Mapping[str, str | Signature] | None = None,
    statistic: str = "pearson",
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: Seed = 12345,
    test: str = "permutation",
    n_permutations: int = 1000,
    alpha: float = 0.05,
    epsilon: float | None = 0.0,
    lang: str = "",
    p_convention: str = "plus-one",
) -> CorrelationTable:
    """System-level correlation when humans scored systems only (WMT system rankings).

    ``metric_scores[metric][system]`` are the metric's own (corpus) scores; error metrics are
    negated using ``directions`` (True = higher is better). Intervals resample systems.

    Examples
    --------
    >>> human = {"A": 0.3, "B": 0.1, "C": -0.2, "D": 0.0}
    >>> t = system_table(human, {"bleu": {"A": 30, "B": 25, "C": 20, "D": 22},
    ...                          "wer": {"A": 0.5, "B": 0.6, "C": 0.4, "D": 0.7}},
    ...                  directions={"bleu": True, "wer": False}, statistic="kendall",
    ...                  n_resamples=50, test="none")
    >>> [(r.metric, round(r.value, 3)) for r in t.rows]
    [('bleu', 1.0), ('wer', 0.0)]
    """
    statistic = _check(statistic, "none", "system", test)
    systems = list(human)
    names = list(metric_scores)
    if not names:
        raise UserInputError("no metric given")
    directions = directions or {}
    signatures = signatures or {}
    for name in names:
        missing = [s for s in systems if s not in metric_scores[name]]
        if missing:
            raise UserInputError(f"metric {name!r} has no score for system(s) {', '.join(missing)}")
    h = np.array([human[s] for s in systems], dtype=np.float64)
    sign = {n: 1.0 if directions.get(n, True) else -1.0 for n in names}
    mats = [
        sign[n] * np.array([metric_scores[n][s] for s in systems], dtype=np.float64) for n in names
    ]
    try:
        res = bootstrap_system_correlations(
            h,
            mats,
            statistic,
            n_resamples=n_resamples,
            confidence=confidence,
            seed=seed,
            epsilon=epsilon,
        )
    except ValueError as exc:
        raise UserInputError(str(exc)) from None
    p_value = _p_value_of_pairs(
        res,
        test,
        statistic,
        h,
        mats,
        names=names,
        system_vectors=lambda j: (h, mats[j]),
        n_permutations=n_permutations,
        epsilon=epsilon,
        question=_question(statistic, "system", "none", epsilon, 25.0, lang),
        plus_one=p_convention == "plus-one",
    )
    info = [_Named(directions.get(n, True), Signature.of(signatures.get(n, n))) for n in names]
    return _table(
        res,
        names,
        info,
        p_value,
        test,
        alpha,
        n_permutations,
        {"n_systems": len(systems), "systems": systems}
        | _convention(test, n_permutations, p_convention),
    )
