"""Significance of differences between MT systems: paired bootstrap resampling, approximate
randomization, and bootstrap intervals of corpus scores, for any metric.

Every test works on sufficient statistics, never on text: a resample or a shuffle is a weight
per segment, and a corpus metric is recomputed from its weighted statistics (BLEU from summed
n-gram counts, ROUGE as the mean of sentence scores). A metric is anything with the
:class:`ResampledScore` methods (every :class:`mtpalette.metrics.base.Metric` has them); this
module imports nothing above ``stats``. All systems and metrics are resampled in one matrix
product per batch of resamples, drawn in batches from :mod:`mtpalette.stats.resampling`.

The procedures are sacrebleu's (Post, 2018; sacrebleu 2.x ``significance.py``), drawn in the
same order from the same generator, so that with the same seed (sacrebleu's default 12345)
the same segments are resampled and the same trials swap the same segments:

* **bootstrap interval** (``--confidence``; Koehn 2004): ``B`` resamples of the segments,
  drawn as ``np.random.default_rng(seed).choice(n, (B, n))``; the interval is the
  ``floor(B * (1 - level) / 2)``-th smallest and largest resampled score, reported as the
  mean of the resampled scores plus or minus half the interval's width (sacrebleu's
  ``μ ± CI``);
* **paired bootstrap** (``--paired-bs``; Koehn 2004): every system is resampled with the same
  indices as the baseline; with ``d_b = |score_b(system) - score_b(baseline)|`` on resample
  ``b``, the p-value is ``(1 + #{d_b - mean(d) > |d|}) / (B + 1)`` where ``d`` is the
  observed difference (the null distribution is the resampled one shifted to mean 0);
* **approximate randomization** (``--paired-ar``; Riezler and Maxwell 2005): each of ``T``
  trials swaps each segment's two outputs with probability 1/2 (``rng.integers(2, (T, n))``);
  the p-value is ``(1 + #{|score(A_t) - score(B_t)| > |d|}) / (T + 1)``. Intervals, when
  asked, come from ``B`` bootstrap resamples drawn from the same generator after the trials
  (the baseline's from a fresh one), as sacrebleu draws them.

One deliberate difference: two systems with the same corpus score (identical outputs) get
p = 1, where sacrebleu's strict ``>`` gives ``1 / (B + 1)`` and marks them significantly
different. Otherwise numbers equal sacrebleu's up to floating point: sacrebleu sums
statistics in float32, this module in float64 (exact for integer counts), so a resampled
score can differ in its 7th significant digit, and a p-value by one count in ``B + 1`` when a
resampled difference lies that close to the observed one.

References
----------
Koehn (2004), Statistical Significance Tests for Machine Translation Evaluation. Riezler and
Maxwell (2005), On Some Pitfalls in Automatic Evaluation and Significance Testing for MT.
Clark et al. (2011), Better Hypothesis Testing for Statistical Machine Translation (MultEval:
the ``+1`` and the strict ``>``). Post (2018), A Call for Clarity in Reporting BLEU Scores.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from mtpalette.stats.resampling import (
    batch_rows,
    index_batches,
    min_resamples,
    min_trials,
    order_statistic_interval,
    resample_counts,
    resolve_seed,
    swap_batches,
)
from mtpalette.stats.resampling import interval_rank as interval_rank
from mtpalette.stats.resampling import p_value as monte_carlo_p_value

#: sacrebleu's default seed (its SACREBLEU_SEED)
SACREBLEU_SEED = 12345
#: default resamples and trials, as sacrebleu
DEFAULT_N = {"bs": 1000, "ar": 10000, "ci": 1000}
#: a batch of weights holds at most this many entries
_BATCH_ENTRIES = 4_000_000
TESTS = ("bs", "ar")


class ResampledScore(Protocol):
    """What a metric must offer to be resampled here (:class:`mtpalette.metrics.base.Metric`
    does): rows that a reweighted sample sums, and corpus scores from those sums."""

    @property
    def spec(self) -> str: ...

    higher_is_better: bool

    def resampling_rows(self, stats: np.ndarray) -> np.ndarray:
        """``(n, k)`` rows per segment from the metric's sufficient statistics."""
        ...

    def scores_of_resampled(self, sums: np.ndarray, weight: np.ndarray | float) -> np.ndarray:
        """``(B,)`` corpus scores from ``(B, k)`` weighted sums of the rows."""
        ...


@dataclass(frozen=True)
class MeanOfScores:
    """A :class:`ResampledScore` of scores given per segment (a metric computed elsewhere, a
    human rating): the corpus score is their mean. ``stats`` are the ``(n,)`` scores."""

    spec: str
    higher_is_better: bool = True

    def resampling_rows(self, stats: np.ndarray) -> np.ndarray:
        return np.asarray(stats, dtype=np.float64).reshape(-1, 1)

    def scores_of_resampled(self, sums: np.ndarray, weight: np.ndarray | float) -> np.ndarray:
        return sums[:, 0] / weight


@dataclass(frozen=True)
class SystemComparison:
    """Corpus scores of several systems, their intervals and their tests against a baseline.

    Arrays are ``(systems, metrics)``; NaN where not computed (no interval asked for, or the
    baseline's own p-value).

    Attributes
    ----------
    systems, metrics:
        Names of the rows and the metric specs of the columns.
    higher_is_better:
        Direction of each metric.
    score:
        The corpus score on the original data.
    mean, low, high:
        The mean of the resampled scores and the interval's bounds.
    p_value:
        The test's p-value of each system against the baseline.
    test:
        ``"bs"``, ``"ar"`` or ``None`` (intervals only).
    baseline:
        Index of the baseline system (``None`` without a test).
    n_trials, n_resamples:
        Resamples of the paired bootstrap or trials of the randomization; resamples of the
        intervals (0: none).
    level, alpha, seed:
        Interval coverage, the significance threshold behind :attr:`significant`, the seed.
    signatures:
        Spec to the signature text of each metric.
    """

    systems: list[str]
    metrics: list[str]
    higher_is_better: list[bool]
    score: np.ndarray
    mean: np.ndarray
    low: np.ndarray
    high: np.ndarray
    p_value: np.ndarray
    test: str | None
    baseline: int | None
    n_trials: int
    n_resamples: int
    level: float
    alpha: float
    seed: int | None
    signatures: dict[str, str] = field(default_factory=dict)

    @property
    def ci(self) -> np.ndarray:
        """Half the interval's width (sacrebleu's ``± CI``)."""
        return 0.5 * (self.high - self.low)

    @property
    def diff(self) -> np.ndarray:
        """Each system's score minus the baseline's (NaN without a baseline)."""
        if self.baseline is None:
            return np.full_like(self.score, np.nan)
        return self.score - self.score[self.baseline]

    @property
    def significant(self) -> np.ndarray:
        """Whether each system differs from the baseline at level :attr:`alpha`."""
        with np.errstate(invalid="ignore"):
            return self.p_value < self.alpha

    def rows(self) -> list[dict[str, Any]]:
        """One record per (system, metric), in system order."""
        out = []
        for s, system in enumerate(self.systems):
            for m, metric in enumerate(self.metrics):
                out.append(
                    {
                        "system": system,
                        "metric": metric,
                        "score": _finite(self.score[s, m]),
                        "mean": _finite(self.mean[s, m]),
                        "ci_low": _finite(self.low[s, m]),
                        "ci_high": _finite(self.high[s, m]),
                        "diff": _finite(self.diff[s, m]),
                        "p_value": _finite(self.p_value[s, m]),
                        "significant": bool(self.significant[s, m]),
                        "baseline": s == self.baseline,
                        "alpha": self.alpha,
                        "higher_is_better": self.higher_is_better[m],
                    }
                )
        return out

    def settings(self) -> dict[str, Any]:
        """How the numbers were obtained (for JSON output and signatures)."""
        return {
            "test": self.test,
            "baseline": None if self.baseline is None else self.systems[self.baseline],
            "trials": self.n_trials,
            "resamples": self.n_resamples,
            "level": self.level,
            "alpha": self.alpha,
            "seed": self.seed,
        }

    def to_pandas(self):
        """The records of :meth:`rows` as a pandas DataFrame, the interval's bounds as ``low``
        and ``high``."""
        from mtpalette.records import frame

        renamed = {"ci_low": "low", "ci_high": "high"}
        return frame([{renamed.get(k, k): v for k, v in r.items()} for r in self.rows()])

    def to_json(self) -> str:
        """The settings and the records of :meth:`rows`, with each metric's signature."""
        from mtpalette.records import dumps

        return dumps(
            {"settings": self.settings(), "signatures": self.signatures, "rows": self.rows()}
        )


def _finite(x: float) -> float | None:
    x = float(x)
    return x if math.isfinite(x) else None


def bootstrap_indices(n: int, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """All ``(B, n)`` resampled segment indices at once, as :func:`compare_systems` draws them
    in batches: the values of sacrebleu's ``rng.choice(n, size=(B, n), replace=True)``,
    stored as int32.

    Examples
    --------
    >>> idx = bootstrap_indices(5, 3, np.random.default_rng(1))
    >>> idx.dtype.name, bool((idx == np.random.default_rng(1).choice(5, (3, 5))).all())
    ('int32', True)
    """
    if n_resamples == 0:
        return np.empty((0, n), dtype=np.int32)
    return next(index_batches(n, n_resamples, rng, rows=n_resamples))


def _rows(total: int, n: int, width: int) -> int:
    """Resamples or trials per batch: at most ``_BATCH_ENTRIES`` draws or sums."""
    return batch_rows(total, max(n, width), max_entries=_BATCH_ENTRIES)


class _Columns:
    """The resampling rows of every (system, metric), side by side in one matrix."""

    def __init__(self, metrics: Sequence[ResampledScore], stats: Sequence[Sequence[np.ndarray]]):
        self.metrics = list(metrics)
        blocks = [
            [
                metric.resampling_rows(st)
                for metric, st in zip(self.metrics, per_system, strict=True)
            ]
            for per_system in stats
        ]
        widths = [rows.shape[1] for rows in blocks[0]]
        ends = np.cumsum(widths).tolist()
        #: the columns of each metric inside a system's block
        self.spans = [slice(end - w, end) for w, end in zip(widths, ends, strict=True)]
        #: the width of one system's block; system ``s`` has columns ``s*width:(s+1)*width``
        self.width = ends[-1]
        self.matrix = np.ascontiguousarray(np.hstack([r for rows in blocks for r in rows]))
        self.n = self.matrix.shape[0]
        self.n_systems = len(blocks)

    def block(self, s: int) -> slice:
        """The columns of system ``s``."""
        return slice(s * self.width, (s + 1) * self.width)

    def scores(self, sums: np.ndarray, weight: np.ndarray | float) -> np.ndarray:
        """``(m, M)`` scores from ``(m, width)`` weighted sums of one system's block."""
        return np.column_stack(
            [
                metric.scores_of_resampled(sums[:, span], weight)
                for metric, span in zip(self.metrics, self.spans, strict=True)
            ]
        )

    def resampled(self, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
        """``(S, B, M)``: every system's scores on ``B`` bootstrap resamples drawn from
        ``rng`` (the same segments for every system)."""
        out = np.empty((self.n_systems, n_resamples, len(self.metrics)))
        rows = _rows(n_resamples, self.n, self.matrix.shape[1])
        done = 0
        for idx in index_batches(self.n, n_resamples, rng, rows=rows):
            part = slice(done, done + idx.shape[0])
            sums = resample_counts(idx, self.n) @ self.matrix
            for s in range(self.n_systems):
                out[s, part] = self.scores(sums[:, self.block(s)], self.n)
            done = part.stop
        return out

    def original(self) -> np.ndarray:
        """``(S, M)``: the scores on the data as given."""
        sums = self.matrix.sum(axis=0, keepdims=True)
        return np.vstack(
            [self.scores(sums[:, self.block(s)], self.n) for s in range(self.n_systems)]
        )


def _interval(dist: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean and sacrebleu's order-statistic bounds over the resample axis (axis 1)."""
    return (dist.mean(axis=1), *order_statistic_interval(dist, level, axis=1))


def _check(n_systems: int, n: int, test: str | None, baseline: int, level: float, alpha: float):
    if n < 1:
        raise ValueError("no segments to resample")
    if test is not None and test not in TESTS:
        raise ValueError(f"test must be one of {', '.join(TESTS)} or None, got {test!r}")
    if test is not None and n_systems < 2:
        raise ValueError("a paired test needs at least two systems (a baseline and another)")
    if not 0 <= baseline < n_systems:
        raise ValueError(f"baseline index {baseline} out of range for {n_systems} systems")
    if not 0.0 < level < 1.0 or not 0.0 < alpha < 1.0:
        raise ValueError("the interval level and alpha must be between 0 and 1")


def _check_counts(test: str | None, n_trials: int, n_resamples: int, level: float, alpha: float):
    """Refuse counts too small for what is reported: an interval at ``level`` needs at least
    ``ceil(2 / (1 - level))`` resamples (one beyond each bound), and a test at ``alpha`` at
    least ``ceil(1 / alpha)`` trials (its smallest p-value is ``1 / (trials + 1)``)."""
    if n_resamples < 0 or (test and n_trials < 1):
        raise ValueError("the number of resamples or trials must be positive")
    need = min_resamples(level)
    if 0 < n_resamples < need:
        raise ValueError(
            f"{n_resamples} resamples cannot give a {100 * level:g}% interval; use at least {need}"
        )
    least = min_trials(alpha)
    if test and n_trials < least:
        raise ValueError(
            f"with {n_trials} resamples or trials the smallest p-value is 1/{n_trials + 1}, "
            f"above alpha {alpha:g}: use at least {least}"
        )


def compare_systems(
    metrics: Sequence[ResampledScore],
    stats: Sequence[Sequence[np.ndarray]],
    systems: Sequence[str],
    *,
    test: str | None = "bs",
    baseline: int = 0,
    n_trials: int | None = None,
    n_resamples: int | None = None,
    level: float = 0.95,
    alpha: float = 0.05,
    seed: int | np.random.Generator | None = SACREBLEU_SEED,
    signatures: dict[str, str] | None = None,
) -> SystemComparison:
    """Scores, bootstrap intervals and paired tests of several systems on the same segments.

    Parameters
    ----------
    metrics:
        The metrics (parsed specs, or anything with the :class:`ResampledScore` methods),
        one column each.
    stats:
        ``stats[s][m]``: the sufficient statistics of system ``s`` under metric ``m``, one row
        per segment, the segments in the same order for every system.
    systems:
        System names.
    test:
        ``"bs"`` (paired bootstrap), ``"ar"`` (approximate randomization) or ``None`` (scores
        and intervals only, e.g. sacrebleu's ``--confidence`` for one system).
    baseline:
        Index of the system the others are compared with.
    n_trials:
        Resamples of the paired bootstrap (default 1,000) or trials of the randomization
        (default 10,000).
    n_resamples:
        Bootstrap resamples of the intervals. Default: the paired bootstrap's own resamples
        with ``"bs"``; 1,000 with ``None``; none (0) with ``"ar"``, as in sacrebleu without
        ``--confidence``.
    level, alpha:
        Interval coverage (0.95) and the p-value threshold of :attr:`significant` (0.05).
    seed:
        An integer (sacrebleu's 12345 by default), a Generator, or None (fresh, recorded).

    Examples
    --------
    >>> from mtpalette.metrics import parse_specs
    >>> (wer,) = parse_specs(["wer"])
    >>> a = np.array([[0.0, 4.0], [1.0, 5.0], [0.0, 3.0], [2.0, 6.0]])  # errors, ref words
    >>> b = np.array([[2.0, 4.0], [3.0, 5.0], [1.0, 3.0], [4.0, 6.0]])
    >>> r = compare_systems([wer], [[a], [b]], ["A", "B"], n_trials=200, seed=1)
    >>> r.score.round(4).tolist(), round(float(r.p_value[1, 0]), 4)
    ([[0.1667], [0.5556]], 0.005)
    """
    S, M = len(stats), len(metrics)
    if len(systems) != S:
        raise ValueError(f"{len(systems)} names for {S} systems")
    columns = _Columns(metrics, stats)
    n = columns.n
    _check(S, n, test, baseline, level, alpha)
    n_trials = (DEFAULT_N[test] if n_trials is None else n_trials) if test else 0
    if n_resamples is None:
        n_resamples = {"bs": n_trials, "ar": 0, None: DEFAULT_N["ci"]}[test]
    _check_counts(test, n_trials, n_resamples if test != "bs" else n_trials, level, alpha)
    rng, recorded = resolve_seed(seed)
    state = rng.bit_generator.state
    score = columns.original()
    nan = np.full((S, M), np.nan)
    mean, low, high, p_value = nan.copy(), nan.copy(), nan.copy(), nan.copy()

    def fresh() -> np.random.Generator:  # every system's draws start from the same state
        g = np.random.default_rng()
        g.bit_generator.state = state
        return g

    if test == "bs" or (test is None and n_resamples):
        dist = columns.resampled(n_trials or n_resamples, fresh())  # (S, B, M)
        m_, lo_, hi_ = _interval(dist, level)
        mean[:], low[:], high[:] = m_, lo_, hi_
        if test == "bs":
            for s in range(S):
                if s != baseline:
                    p_value[s] = bootstrap_p_value(dist, score, s, baseline, n_trials)
    elif test == "ar":
        g = fresh()
        p_value[:] = _randomization(columns, n_trials, g, score, baseline)
        if n_resamples:
            dist = columns.resampled(n_resamples, g)
            m_, lo_, hi_ = _interval(dist, level)
            mean[:], low[:], high[:] = m_, lo_, hi_
            base = columns.resampled(n_resamples, fresh())[baseline]
            m_, lo_, hi_ = _interval(base[None], level)
            mean[baseline], low[baseline], high[baseline] = m_[0], lo_[0], hi_[0]
    return SystemComparison(
        systems=list(systems),
        metrics=[m.spec for m in metrics],
        higher_is_better=[m.higher_is_better for m in metrics],
        score=score,
        mean=mean,
        low=low,
        high=high,
        p_value=p_value,
        test=test,
        baseline=baseline if test else None,
        n_trials=n_trials,
        n_resamples=n_resamples,
        level=level,
        alpha=alpha,
        seed=recorded,
        signatures=dict(signatures or {}),
    )


def bootstrap_p_value(dist: np.ndarray, score: np.ndarray, a: int, b: int, n: int) -> np.ndarray:
    """The paired bootstrap p-value of systems ``a`` and ``b`` (per metric) from their
    resampled scores ``dist`` ``(S, B, M)`` (sacrebleu's ``--paired-bs``)."""
    sample = np.abs(dist[a] - dist[b])
    null = sample - sample.mean(axis=0)
    observed = np.abs(score[a] - score[b])
    return _p_value((null > observed).sum(axis=0), n, observed)


@dataclass(frozen=True)
class AllPairs:
    """Every pair's paired test: ``p_value[a, b, m]`` (symmetric, NaN on the diagonal) and
    the corpus ``score[s, m]``, with how they were drawn."""

    systems: list[str]
    metrics: list[str]
    higher_is_better: list[bool]
    score: np.ndarray
    p_value: np.ndarray
    test: str
    n_trials: int
    seed: int | None


def all_pairs(
    metrics: Sequence[ResampledScore],
    stats: Sequence[Sequence[np.ndarray]],
    systems: Sequence[str],
    *,
    test: str = "bs",
    n_trials: int | None = None,
    alpha: float = 0.05,
    seed: int | np.random.Generator | None = SACREBLEU_SEED,
) -> AllPairs:
    """The paired test of every pair of systems, for every metric: ``bs`` from one set of
    bootstrap resamples shared by all systems (each pair's p-value is sacrebleu's
    ``--paired-bs`` of the two, as :func:`compare_systems` with either as the baseline gives
    it), or ``ar`` (each baseline's trials drawn from the seed, as :func:`compare_systems`
    draws them).

    Examples
    --------
    >>> from mtpalette.metrics import parse_specs
    >>> (wer,) = parse_specs(["wer"])
    >>> a = np.array([[0.0, 4.0], [1.0, 5.0], [0.0, 3.0], [2.0, 6.0]])
    >>> b = np.array([[2.0, 4.0], [3.0, 5.0], [1.0, 3.0], [4.0, 6.0]])
    >>> r = all_pairs([wer], [[a], [b], [a]], ["A", "B", "C"], n_trials=200, seed=1)
    >>> round(float(r.p_value[0, 1, 0]), 4), float(r.p_value[0, 2, 0])  # C's outputs are A's
    (0.005, 1.0)
    """
    if test not in TESTS:
        raise ValueError(f"unknown test {test!r}; expected one of {', '.join(TESTS)}")
    S = len(stats)
    if len(systems) != S or S < 2:
        raise ValueError("give two systems or more, one name each")
    columns = _Columns(metrics, stats)
    n_trials = DEFAULT_N[test] if n_trials is None else n_trials
    _check_counts(test, n_trials, 0, 0.95, alpha)
    rng, recorded = resolve_seed(seed)
    state = rng.bit_generator.state

    def fresh() -> np.random.Generator:
        g = np.random.default_rng()
        g.bit_generator.state = state
        return g

    score = columns.original()
    p = np.full((S, S, len(columns.metrics)), np.nan)
    if test == "bs":
        dist = columns.resampled(n_trials, fresh())
        for a in range(S):
            for b in range(a + 1, S):
                p[a, b] = p[b, a] = bootstrap_p_value(dist, score, a, b, n_trials)
    else:
        for b in range(1, S):
            col = _randomization(columns, n_trials, fresh(), score, b)
            p[:b, b] = p[b, :b] = col[:b]
    return AllPairs(
        list(systems),
        [m.spec for m in metrics],
        [m.higher_is_better for m in metrics],
        score,
        p,
        test,
        n_trials,
        recorded,
    )


def _randomization(
    columns: _Columns,
    n_trials: int,
    rng: np.random.Generator,
    score: np.ndarray,
    baseline: int,
) -> np.ndarray:
    """p-values of approximate randomization of every system against the baseline, from
    ``n_trials`` swap draws of ``rng`` (sacrebleu's ``rng.integers(2, (T, n), dtype=bool)``).

    With ``d`` the difference of the baseline's and a system's rows, the pseudo systems of a
    trial sum to ``total_sys + swap @ d`` and ``total_base - swap @ d``: one product."""
    base = columns.matrix[:, columns.block(baseline)]
    others = [s for s in range(columns.n_systems) if s != baseline]
    diffs = np.hstack([base - columns.matrix[:, columns.block(s)] for s in others])
    total = columns.matrix.sum(axis=0)
    w = columns.width
    count = np.zeros_like(score)
    rows = _rows(n_trials, columns.n, diffs.shape[1])
    for swap in swap_batches(columns.n, n_trials, rng, stream="bits", rows=rows):
        moved = swap.astype(np.float64) @ diffs
        for j, s in enumerate(others):
            d = moved[:, j * w : (j + 1) * w]
            a = columns.scores(total[columns.block(s)] + d, columns.n)
            b = columns.scores(total[columns.block(baseline)] - d, columns.n)
            count[s] += (np.abs(a - b) > np.abs(score[s] - score[baseline])).sum(axis=0)
    out = _p_value(count, n_trials, np.abs(score - score[baseline]))
    out[baseline] = np.nan
    return out


def _p_value(count: np.ndarray, total: int, observed: np.ndarray) -> np.ndarray:
    """``(1 + count) / (total + 1)``, and 1 where the observed difference is 0: sacrebleu
    gives identical outputs ``1 / (total + 1)``, calling them significantly different."""
    return np.where(observed == 0, 1.0, monte_carlo_p_value(count, total))
