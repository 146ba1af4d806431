"""Does ORANGE agree with humans? Rank metrics by ORANGE and by human correlation on the same
data and measure how well the two orderings agree.

On a task with human scores and at least two references per segment (:class:`SegmentData`;
MQM TED zh-en has references ``ref`` and ``refB`` and 13 rated systems):

1. ORANGE (:mod:`mtpalette.metaeval.orange`) ranks each reference among the systems'
   translations of its segment, per metric; a lower ORANGE is a better metric.
2. The human correlation (:mod:`mtpalette.metaeval.correlation`) of each metric's scores
   (candidates against all references) with the human scores; higher is better.
3. The agreement is Kendall's tau-b between the two orderings of the metrics (ORANGE
   negated, so +1 means the same ordering). Its interval is a percentile bootstrap over
   segments: each resample draws segments with replacement, recomputes every metric's
   ORANGE (the mean of ``rank_i / (N_i + 1)`` over the drawn segments) and human correlation
   on the *same* drawn segments, and the tau between them.

ORANGE presumes that references are better translations than the systems'. When the
references were rated too (MQM TED rates ``ref`` and ``refB`` like systems), the *human
ORANGE* of a reference - its average rank by human score among the systems' translations,
divided by ``N + 1`` - checks that premise: near 0 when humans prefer the reference, 0.5 at
chance, near 1 when they prefer every system.

References
----------
Lin and Och (2004), ORANGE. Freitag et al. (2021), Experts, Errors, and Context (MQM TED, with
rated references). Kendall (1945), tau-b.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.feedback import Feedback
from mtpalette.metaeval.candidates import CandidateLists, compare_candidates
from mtpalette.metaeval.orange import check_oracle, segment_ranks, tie_weight
from mtpalette.metaeval.segments import MetricScores, SegmentData, require_varied, score_segments
from mtpalette.metrics.base import Metric
from mtpalette.records import Record, constant, out, written
from mtpalette.stats import catalogue
from mtpalette.stats.bootstrap import BootstrapCI
from mtpalette.stats.correlation import average_ranks
from mtpalette.stats.grouping import GROUPINGS
from mtpalette.stats.kendall import kendall
from mtpalette.stats.resampling import (
    Seed,
    bootstrap_interval,
    index_batches,
    resample_counts,
    resolve_seed,
)
from mtpalette.stats.significance import resampled_correlations


@dataclass(frozen=True)
class MetricAgreement(Record):
    """One metric's ORANGE and human correlation, with their ranks among the metrics."""

    metric: str
    orange: BootstrapCI = field(
        metadata=out(parts={"orange": "value", "orange_low": "low", "orange_high": "high"})
    )
    correlation: BootstrapCI = field(metadata=out(parts={
        "correlation": "value", "correlation_low": "low", "correlation_high": "high"}))  # fmt: skip
    orange_rank: float = field(metadata=out(after="orange"))
    human_rank: float
    higher_is_better: bool = field(metadata=out("metric_higher_is_better"))


@dataclass(frozen=True)
class Agreement(Record):
    """ORANGE vs human correlation on the same segments.

    Attributes
    ----------
    rows:
        Per metric, sorted by human correlation (best first).
    tau:
        Kendall tau-b between the ORANGE ordering and the human ordering, with its interval.
    reference_orange:
        Per rated reference, its human ORANGE (see the module docstring), or empty.
    """

    # written after the settings: the tau, then the rows
    rows: list[MetricAgreement] = field(metadata=out(after="tau"))
    tau: BootstrapCI = field(
        metadata=out(parts={"kendall_tau_b": "value", "tau_low": "low", "tau_high": "high"},
                     after="seed")
    )  # fmt: skip
    statistic: str
    grouping: str
    oracle: str
    ties: str
    n_segments: int
    n_systems: int
    n_refs: int
    n_resamples: int = field(metadata=out("bootstrap"))
    confidence: float
    seed: int | None
    reference_orange: dict[str, float] = field(
        default_factory=dict, metadata=out("reference_human_orange")
    )

    method = constant(
        "Kendall tau-b between -ORANGE and the human correlation over metrics; percentile "
        "bootstrap over segments, ORANGE and correlations recomputed on the same resampled "
        "segments"
    )

    @written(first=True)
    def note(self) -> str | None:
        """Why the tau says little, or None: two metrics give two orderings of two, which
        can only agree (+1) or disagree (-1)."""
        if len(self.rows) == 2:
            return (
                "with 2 metrics the tau can only be +1 (same order) or -1 (opposite order); "
                "add metrics for a degree of agreement"
            )
        return None

    def to_pandas(self):
        """One row per metric (the keys of :meth:`MetricAgreement.to_dict`)."""
        from mtpalette.records import frame

        return frame(r.to_dict() for r in self.rows)


def human_orange(reference: np.ndarray, systems: np.ndarray, *, ties: str = "mid") -> float:
    """The mean over segments of the human rank of a reference among the systems, over N+1.

    ``reference`` is ``(I,)``, ``systems`` ``(S, I)`` human scores (higher is better); segments
    where the reference or every system is unrated are left out.

    Examples
    --------
    >>> # segment 1: the reference beats both systems, rank 1 of 3 -> 1/3; segment 2: it ties
    >>> # one and loses to the other, rank 1 + 1 + 0.5 = 2.5 -> 2.5/3; mean 0.5833
    >>> round(human_orange(np.array([5.0, 1.0]), np.array([[1.0, 1.0], [2.0, 3.0]])), 4)
    0.5833
    """
    w = tie_weight(ties)
    ref = np.asarray(reference, dtype=np.float64)
    sys = np.asarray(systems, dtype=np.float64)
    vals = []
    for i in range(ref.size):
        col = sys[:, i]
        col = col[~np.isnan(col)]
        if np.isnan(ref[i]) or col.size == 0:
            continue
        rank = 1.0 + np.count_nonzero(col > ref[i]) + w * np.count_nonzero(col == ref[i])
        vals.append(rank / (col.size + 1.0))
    return float(np.mean(vals)) if vals else float("nan")


def _ranks_desc(values: np.ndarray) -> np.ndarray:
    """1 = largest; ties share their average rank."""
    return average_ranks(-np.asarray(values, dtype=np.float64))


def agreement(
    data: SegmentData,
    metrics: Sequence[Metric],
    *,
    statistic: str = "pearson",
    grouping: str = "none",
    oracle: str = "leave-one-out",
    ties: str = "mid",
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: Seed = 12345,
    epsilon: float | None = 0.0,
    reference_scores: Mapping[str, np.ndarray] | None = None,
    scores: Sequence[MetricScores] | None = None,
) -> Agreement:
    """Rank ``metrics`` by ORANGE and by human correlation on ``data``; Kendall between them.

    Parameters
    ----------
    data:
        Systems' translations with human scores and ``R >= 2`` references per segment. Every
        system translation is a candidate of ORANGE (unrated ones too).
    metrics:
        At least 2 parsed metrics.
    statistic, grouping, epsilon:
        The human correlation (see :func:`mtpalette.metaeval.correlation.correlation_table`).
    oracle, ties:
        ORANGE's oracle definition and tie policy.
    n_resamples, confidence, seed:
        Bootstrap over segments (0: no interval).
    reference_scores:
        Human scores ``(I,)`` of each reference, when the references were rated: their human
        ORANGE is reported.
    scores:
        Precomputed :func:`score_segments` of ``metrics`` (else computed).

    Examples
    --------
    >>> from mtpalette.metrics import parse_specs
    >>> rng = np.random.default_rng(0)
    >>> words = list("abcdef")
    >>> hyps = [[" ".join(rng.choice(words, 5)) for _ in range(40)] for _ in range(4)]
    >>> refs = [["a b c d e"] * 40, ["a b c d f"] * 40]
    >>> human = np.array([[h.count("a") + h.count("b") for h in row] for row in hyps], float)
    >>> d = SegmentData(["S1", "S2", "S3", "S4"], human, hyps, refs, list(range(40)))
    >>> a = agreement(d, parse_specs(["bleus:1", "bleus:2", "per"], tokenize="none"),
    ...               n_resamples=50, seed=1)
    >>> len(a.rows), -1.0 <= a.tau.value <= 1.0, a.n_refs
    (3, True, 2)
    """
    statistic = _checked(data, metrics, statistic, grouping, oracle, ties)
    if scores is None:
        scores = score_segments(data, metrics)
    n_items = data.n_items
    norm = _segment_orange(data, metrics, oracle, ties)
    orange_values = norm.mean(axis=0)
    rng, recorded = resolve_seed(seed)
    batches = list(index_batches(n_items, n_resamples, rng)) if n_resamples else []
    try:
        corr_values, corr_dist, _ = resampled_correlations(
            data.human,
            [s.oriented() for s in scores],
            statistic,
            grouping=grouping,
            epsilon=epsilon,
            batches=iter(batches),
            n_resamples=n_resamples,
        )
    except ValueError as exc:
        raise UserInputError(str(exc)) from None
    orange_dist = _resampled_orange(norm, batches, n_resamples, n_items)
    tau_value = kendall(-orange_values, corr_values) if len(metrics) > 1 else np.nan
    tau_dist = _tau_distribution(orange_dist, corr_dist)

    def ci(value: float, dist: np.ndarray, n: int) -> BootstrapCI:
        lo, hi = bootstrap_interval(dist, confidence) if n_resamples else (np.nan, np.nan)
        return BootstrapCI(float(value), lo, hi, n, n_resamples, confidence, "percentile", recorded)

    o_rank = average_ranks(orange_values)
    h_rank = _ranks_desc(corr_values)
    rows = [
        MetricAgreement(
            scores[j].name,
            ci(orange_values[j], orange_dist[:, j], n_items),
            ci(corr_values[j], corr_dist[:, j], n_items),
            float(o_rank[j]),
            float(h_rank[j]),
            bool(scores[j].higher_is_better),
        )
        for j in range(len(metrics))
    ]
    rows.sort(key=lambda r: (r.human_rank, r.metric))
    ref_orange = {}
    for name, ref in (reference_scores or {}).items():
        ref_orange[name] = human_orange(np.asarray(ref, dtype=np.float64), data.human, ties=ties)
    return Agreement(
        rows,
        ci(tau_value, tau_dist, n_items),
        statistic,
        grouping,
        oracle,
        ties,
        n_items,
        data.n_systems,
        len(data.refs),
        n_resamples,
        confidence,
        recorded,
        ref_orange,
    )


# the steps of agreement, in the order it takes them
def _checked(
    data: SegmentData,
    metrics: Sequence[Metric],
    statistic: str,
    grouping: str,
    oracle: str,
    ties: str,
) -> str:
    """The statistic's name, once every setting and the data are checked."""
    statistic = catalogue.statistic(statistic, interval=True).name
    check_oracle(oracle)
    tie_weight(ties)
    if grouping not in GROUPINGS:
        raise UserInputError(f"unknown grouping {grouping!r}")
    if len(metrics) < 2:
        raise UserInputError("the agreement of two orderings needs at least 2 metrics")
    if len(data.refs) < 2:
        raise UserInputError("ORANGE needs at least 2 references per segment")
    require_varied(data.human)
    return statistic


def _segment_orange(
    data: SegmentData, metrics: Sequence[Metric], oracle: str, ties: str
) -> np.ndarray:
    """Per segment and metric: the reference's rank among the candidates / (N + 1)."""
    lists = CandidateLists.from_systems(
        {s: data.hyps[k] for k, s in enumerate(data.systems)}, data.refs
    )
    comps = compare_candidates(lists, list(metrics), oracle=oracle)
    return np.column_stack([segment_ranks(c, ties=ties) / (c.n_candidates + 1.0) for c in comps])


def _resampled_orange(
    norm: np.ndarray, batches: list[np.ndarray], n_resamples: int, n_items: int
) -> np.ndarray:
    """Each metric's ORANGE on each resample of segments: ``(n_resamples, metrics)``."""
    orange_dist = np.empty((n_resamples, norm.shape[1]))
    done = 0
    for idx in batches:
        counts = resample_counts(idx, n_items)
        orange_dist[done : done + len(idx)] = counts @ norm / n_items
        done += len(idx)
    return orange_dist


def _tau_distribution(orange_dist: np.ndarray, corr_dist: np.ndarray) -> np.ndarray:
    """The tau between -ORANGE and the correlations on each resample (NaN where a
    correlation is)."""
    return np.array(
        [
            kendall(-orange_dist[r], corr_dist[r]) if not np.isnan(corr_dist[r]).any() else np.nan
            for r in range(len(orange_dist))
        ]
    )


def agreement_of_run(run: Any, specs: list[str], feedback: Feedback):
    """The agreement ``run`` (an agreement run's description) asks for, of the metrics
    ``specs``: its judged inputs read (the bundled zh-en data unless some are given), at most
    its ``max_items`` segments, the references' human scores where they were rated, every
    metric scored once. Returns ``(agreement, data, inputs, scores)``: the data read, the
    inputs' record and the metrics' segment scores."""
    from pathlib import Path

    from mtpalette.metrics import parse_specs
    from mtpalette.sources.checks import bootstrap_of
    from mtpalette.sources.inputs import JudgedInputs

    judged_inputs = run.inputs
    if not judged_inputs.given:
        judged_inputs = JudgedInputs(**{**vars(judged_inputs), "bundled": "zhen"})
    loaded = judged_inputs.load(note=feedback.warn)
    data, judged, inputs = loaded.data, loaded.judged, loaded.inputs
    ref_paths = [Path(r["path"]) for r in inputs["refs"]]
    if len(ref_paths) < 2:
        raise UserInputError("ORANGE needs at least 2 references (--refs A B)")
    n = data.n_items if run.max_items is None else min(run.max_items, data.n_items)
    keep = list(range(n))
    data = data.select_items(keep)
    rated_refs = {}
    for p in ref_paths:
        name = p.name[: -len(p.suffix)] if p.suffix else p.name
        if name in judged.systems:
            rated_refs[name] = judged.scores[judged.systems.index(name)][keep]
    parsed = parse_specs(specs, tokenize=run.tokenize, lowercase=run.lowercase)
    require_varied(data.human)
    feedback.note(
        f"ORANGE ({run.oracle}) and {run.statistic} of {len(parsed)} metrics on "
        f"{data.n_items} segments"
    )
    with feedback.stage(f"scoring {len(parsed)} metrics"):
        scores = score_segments(data, parsed)
    with feedback.stage(f"ORANGE and {run.statistic}"):
        result = agreement(
            data,
            parsed,
            statistic=run.statistic,
            grouping=run.grouping,
            oracle=run.oracle,
            ties=run.ties,
            **bootstrap_of(run),
            epsilon=run.epsilon,
            reference_scores=rated_refs,
            scores=scores,
        )
    return result, data, inputs, scores

