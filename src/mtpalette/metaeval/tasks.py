"""WMT meta-evaluation tasks and task sets on in-memory scores: per-task correlations, ranks
and significance clusters, and the global ranking over tasks.

A :class:`Task` uses mt-metrics-eval's ``Task`` field names (``lang``, ``level``,
``corr_fcn``, ``avg_by``, ``k``, ``perm_test``, ``corr_fcn_args``, ``block_size``,
``early_min``, ``early_max``, ``pval``, ``replace_nans_with_zeros``, ``gold``); a
:class:`TaskSet` is a list of tasks with weights. :meth:`TaskSet.run` takes a mapping
``lp -> LanguagePairData`` (systems, human scores, metric scores per level) and returns a
:class:`TaskSetResult` with one :class:`TaskResult` per task (correlation, cluster rank and
p-value matrix per metric) and the global ranking: weighted average correlation
(``average_corrs``, mt-metrics-eval's ``AverageCorrs``), weighted average rank
(``average_ranks``) and significance clusters of the average from the tasks' resampling
draws (``average_corr_matrix``).

Which systems and metrics enter a task (human translations, outliers, primary submissions,
references) is decided by whoever builds the :class:`LanguagePairData` (the folder loader);
the fields ``human``, ``refs``, ``close_refs``, ``use_outliers``, ``primary`` and ``domain``
are kept as written for the record. Systems without any human score at the task's level are
dropped, as mt-metrics-eval does.

**Reproducing mt-metrics-eval's draws.** Permutation tests draw from one legacy
``RandomState(seed)`` consumed task after task, metric pair after metric pair, in
mt-metrics-eval's order; with ``np.random.seed(seed)`` before its ``TaskSet.Run`` and the
systems in the same order, p-values, draws, ranks and clusters are equal. (mt-metrics-eval
orders systems by iterating a Python ``set`` of names, which depends on ``PYTHONHASHSEED``;
this module keeps the order given.) SPA uses its own draws (``default_rng(4)``).

References
----------
google-research/mt-metrics-eval at 68a481a: ``mt_metrics_eval/tasks.py`` (``Task``,
``TaskSet``, ``TaskSetResults.AverageCorrs``, ``AverageRanks``, ``AverageCorrMatrix``,
``WMT23``, ``WMT24OnWMT23``, ``WMT24``, ``WMT25``) and ``data.py`` (``CompareMetrics``,
``CompareMetricsWithGlobalAccuracy``, ``CompareMetricsWithPairwiseConfidenceError``,
``ComputeSigMatrix``, ``AssignRanks``).
"""

from __future__ import annotations

import dataclasses
import json
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.parallel import Backend
from mtpalette.stats import catalogue
from mtpalette.stats import pairwise as pw
from mtpalette.stats import permutation as perm
from mtpalette.stats import sigdiff
from mtpalette.stats.correlation import tie_calibration

CORR_FCNS = (
    "pearson",
    "kendall",
    "spearman",
    "accuracy",
    "KendallLike",
    "KendallVariants",
    "KendallWithTiesOpt",
    "pce",
)
LEVELS = ("sys", "domain", "doc", "seg")
AVG_BY = ("none", "sys", "item")
PERM_TESTS = ("scores", "pairs")
#: how permutation tests draw: mt-metrics-eval's one legacy stream, or one generator per test
DRAWS = ("mtme", "independent")
_GROUPING = {"none": "none", "sys": "system", "item": "item"}


# ----------------------------------------------------------------------------------------
# data
# ----------------------------------------------------------------------------------------
@dataclass
class LanguagePairData:
    """Scores of one language pair: ``human[name][level]`` and ``metrics[name][level]`` are
    ``(systems,)`` vectors (``sys``) or ``(systems, items)`` matrices (``seg``, ``doc``), rows
    in the order of ``systems``; NaN human scores mark unrated entries. ``std_gold[level]``
    names the human score a task uses when its ``gold`` is None. This is the one data object
    of meta-evaluation (what mt-metrics-eval's ``EvalSet`` holds for one pair): ``wmt``,
    ``correlate --mtme`` and the Python API build it with
    :func:`mtpalette.api.folders.mtme_pair_data`.

    Examples
    --------
    >>> lp = LanguagePairData(
    ...     ["A", "B", "C"],
    ...     human={"mqm": {"seg": [[-1.0, 0.0], [-5.0, -2.0], [0.0, -1.0]]}},
    ...     metrics={"m": {"seg": [[0.5, 0.9], [0.1, 0.3], [0.8, 0.6]]}},
    ... )
    >>> t = Task("test", "xx-yy", level="seg", corr_fcn="pearson", k=0)
    >>> round(t.run({"xx-yy": lp}).corrs[0], 6)  # Pearson over the 6 entries
    0.923093
    """

    systems: list[str]
    human: dict[str, dict[str, Any]]
    metrics: dict[str, dict[str, Any]]
    std_gold: dict[str, str] = field(default_factory=dict)
    #: how each vector was made: ``origins[metric][level]``, ``origins["human:NAME"][level]``
    #: (a stored file, a corpus score, a mean of segment scores)
    origins: dict[str, dict[str, str]] = field(default_factory=dict)

    def gold_name(self, level: str, gold: str | None) -> str:
        if gold is not None and gold != "std":
            name = gold
        elif level in self.std_gold:
            name = self.std_gold[level]
        elif len(self.human) == 1:
            name = next(iter(self.human))
        else:
            raise UserInputError(
                f"several human scores ({', '.join(self.human)}) and no standard one for level "
                f"{level!r}: set the task's gold"
            )
        if name not in self.human:
            raise UserInputError(
                f"no human scores named {name!r}; available: {', '.join(self.human)}"
            )
        return name

    def selection(
        self, level: str, gold: str | None
    ) -> tuple[np.ndarray, dict[str, np.ndarray], list[str]]:
        """Human scores, metric scores of the metrics available at ``level`` and the systems,
        keeping only systems with at least one human score."""
        name = self.gold_name(level, gold)
        if level not in self.human[name]:
            raise UserInputError(f"human scores {name!r} have no {level!r} level")
        h = np.asarray(self.human[name][level], dtype=np.float64)
        if h.shape[0] != len(self.systems):
            raise UserInputError(
                f"human scores {name!r} at {level!r} have {h.shape[0]} rows for "
                f"{len(self.systems)} systems"
            )
        keep = ~np.isnan(h.reshape(h.shape[0], -1)).all(axis=1)
        metrics = {}
        for m, levels in self.metrics.items():
            if level not in levels:
                continue
            x = np.asarray(levels[level], dtype=np.float64)
            if x.shape != h.shape:
                raise UserInputError(
                    f"metric {m!r} at {level!r} has shape {x.shape}, human scores {h.shape}"
                )
            x = x[keep]
            if not np.isfinite(x[~np.isnan(h[keep])]).all():
                raise UserInputError(f"metric {m!r} lacks a score where a human score exists")
            metrics[m] = x
        systems = [s for s, k in zip(self.systems, keep, strict=True) if k]
        return h[keep], metrics, systems


# ----------------------------------------------------------------------------------------
# tasks
# ----------------------------------------------------------------------------------------
@dataclass
class Task:
    """One meta-evaluation task, with mt-metrics-eval's ``Task`` field names and defaults.

    ``lang`` is one language pair, or several joined by commas for ``corr_fcn='accuracy'``
    (system-level pairwise accuracy pooled over them).

    Examples
    --------
    >>> t = Task("wmt24", "en-de", level="seg", corr_fcn="KendallWithTiesOpt", avg_by="item",
    ...          perm_test="pairs", corr_fcn_args={"sample_rate": 1.0}, k=0)
    >>> t.statistic_range
    (0, 1)
    """

    test_set: str = "wmt22"
    lang: str = "en-de"
    domain: str | None = None
    level: str = "sys"
    human: bool = True
    avg_by: str = "none"
    corr_fcn: str = "pearson"
    k: int = 1000
    gold: list[str] | str | None = None
    refs: Any = None
    close_refs: Any = None
    use_outliers: bool = False
    primary: bool = True
    pval: float = 0.05
    block_size: int = 100
    early_min: float = 0.02
    early_max: float = 0.50
    replace_nans_with_zeros: bool = False
    perm_test: str = "scores"
    corr_fcn_args: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        def bad(what: str) -> UserInputError:
            return UserInputError(f"task {self.lang}/{self.level}/{self.corr_fcn}: {what}")

        if self.corr_fcn not in CORR_FCNS:
            raise bad(f"unknown corr_fcn; expected one of {', '.join(CORR_FCNS)}")
        if self.level not in LEVELS:
            raise bad(f"unknown level; expected one of {', '.join(LEVELS)}")
        if self.avg_by not in AVG_BY:
            raise bad(f"unknown avg_by {self.avg_by!r}; expected none, sys or item")
        if self.perm_test not in PERM_TESTS:
            raise bad(f"unknown perm_test {self.perm_test!r}; expected scores or pairs")
        if self.corr_fcn in ("accuracy", "pce") and self.level != "sys":
            raise bad(f"{self.corr_fcn} is a system-level statistic (level='sys')")
        if self.corr_fcn != "accuracy" and "," in self.lang:
            raise bad("only corr_fcn='accuracy' pools several language pairs")
        if self.corr_fcn == "pce" and self.perm_test != "scores":
            raise bad("pce is tested with perm_test='scores'")
        if self.k < 0 or self.block_size < 1:
            raise bad("k must be >= 0 and block_size >= 1")
        self.corr_fcn_args = dict(sorted((self.corr_fcn_args or {}).items()))
        rate = self.corr_fcn_args.get("sample_rate", 1.0)
        if (self.corr_fcn == "KendallWithTiesOpt" or self.perm_test == "pairs") and rate != 1.0:
            raise bad("tie calibration on a sample of pairs (sample_rate < 1) is not supported")
        if self.corr_fcn_args.get("pdp") and self.corr_fcn != "pearson":
            raise bad("pdp (pairwise difference Pearson) needs corr_fcn='pearson'")

    @property
    def langs(self) -> list[str]:
        return self.lang.split(",")

    @property
    def name(self) -> str:
        """``attr=value`` of every field, as mt-metrics-eval names a task."""
        return " ".join(
            f"{f.name}={str(getattr(self, f.name)).replace(' ', '')}"
            for f in dataclasses.fields(self)
        )

    @property
    def statistic_range(self) -> tuple[int, int]:
        """``(0, 1)`` for accuracies, ``(-1, 1)`` for correlations (mt-metrics-eval's
        ``TaskResults.range``; its test looks only at ``KendallWithTiesOpt``'s variant)."""
        if self.corr_fcn in ("accuracy", "pce") or (
            self.corr_fcn == "KendallWithTiesOpt" and self.corr_fcn_args.get("variant") != "23"
        ):
            return (0, 1)
        return (-1, 1)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def stopping(self) -> perm.EarlyStopping:
        return perm.EarlyStopping(self.block_size, self.early_min, self.early_max)

    def run(
        self,
        data: Mapping[str, LanguagePairData],
        *,
        seed: int | np.random.RandomState | None = None,
        draws: str = "mtme",
        task_index: int = 0,
        backend: Backend | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> TaskResult:
        """Correlations, ranks and significance of every metric.

        ``draws="mtme"``: the tests consume one legacy stream seeded by ``seed`` in
        mt-metrics-eval's order (equal to its results); ``draws="independent"``: each metric
        pair's test has its own generator from ``SeedSequence(seed)`` keyed by the task index
        and the two metric names, so tests can run in any order or in parallel, and the
        ``pairs`` test draws only the pairs it needs (much faster). ``backend`` spreads the
        tests of independent draws over workers (:func:`mtpalette.parallel.run_tasks`);
        ``progress(done, total)`` is called as metric-pair tests finish.
        """
        for lp in self.langs:
            if lp not in data:
                raise UserInputError(
                    f"no data for language pair {lp!r}; have {', '.join(data) or 'none'}"
                )
        if draws not in DRAWS:
            raise UserInputError(f"unknown draws {draws!r}; expected {' or '.join(DRAWS)}")
        if draws == "mtme":
            if backend is not None and backend.name != "inproc":
                raise UserInputError(
                    "mt-metrics-eval's draws are one sequential stream: use draws='independent' "
                    "to spread the tests over workers"
                )
            source = _Draws(perm.legacy_stream(seed), None, task_index)
        else:
            if not isinstance(seed, int | np.integer):
                raise UserInputError("independent draws need an integer seed")
            source = _Draws(None, int(seed), task_index)
        if self.corr_fcn == "accuracy":
            comp = _AccuracyComparison(self, data)
        elif self.corr_fcn == "pce":
            comp = _SpaComparison(self, data[self.lang])
        else:
            comp = _CorrComparison(self, data[self.lang])
        return comp.run(source, backend=backend, progress=progress)


def assign_ranks(sig_matrix: np.ndarray, pval: float) -> list[int]:
    """Cluster ranks from an upper-triangular p-value matrix of metrics sorted by decreasing
    correlation (mt-metrics-eval's ``AssignRanks``): metric ``i`` opens a new cluster when a
    metric from the start of the current cluster is better with ``p <= pval``.

    Examples
    --------
    >>> assign_ranks(np.array([[0, 0.3, 0.01], [0, 0, 0.2], [0, 0, 0]]), 0.05)
    [1, 1, 2]
    """
    n = sig_matrix.shape[0]
    ranks, current, start = [0] * n, 1, 0
    for i in range(n):
        if np.any(sig_matrix[start:i, i] <= pval):
            current += 1
            start = i
        ranks[i] = current
    return ranks


class _Comparison:
    """The metrics of one task: their values, and the test between two of them."""

    task: Task
    names: list[str]

    def value(self, name: str) -> float:
        raise NotImplementedError

    def test(self, a: str, b: str, k: int, stream: perm.Source) -> perm.PermutationTest:
        raise NotImplementedError

    def run(
        self,
        source: _Draws,
        *,
        backend: Backend | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> TaskResult:
        task = self.task
        if not self.names:
            raise UserInputError(f"task {task.lang}/{task.level}/{task.corr_fcn}: no metrics")
        vals = {m: self.value(m) for m in self.names}
        metrics = sorted(vals, key=lambda m: (-vals[m], m))
        n = len(metrics)
        matrix = np.zeros((n, n))
        draws: dict[tuple[int, int], np.ndarray] = {}
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)] if task.k else []
        done = 0
        if backend is None or backend.name == "inproc":
            for i, j in pairs:
                a, b = metrics[i], metrics[j]
                res = self.test(a, b, task.k, source.for_pair(a, b))
                matrix[i, j], draws[(i, j)] = res.p_value, res.draws
                done += 1
                if progress:
                    progress(done, len(pairs))
        elif pairs:
            from mtpalette.parallel import run_tasks

            n_jobs = min(len(pairs), 4 * max(backend.workers, 1))
            jobs = [(self, source, [(metrics[i], metrics[j]) for i, j in pairs[c::n_jobs]])
                    for c in range(n_jobs)]  # fmt: skip
            for c, results in run_tasks(_test_chunk, jobs, backend):
                for (i, j), res in zip(pairs[c::n_jobs], results, strict=True):
                    matrix[i, j], draws[(i, j)] = res.p_value, res.draws
                done += len(results)
                if progress:
                    progress(done, len(pairs))
        ranks = assign_ranks(matrix, task.pval)
        return TaskResult(task, metrics, [vals[m] for m in metrics], ranks, matrix, draws)


@dataclass
class _Draws:
    """Where a metric pair's test draws from: the shared legacy stream (``stream``), or a
    generator of its own keyed by ``seed``, the task index and the two metric names."""

    stream: np.random.RandomState | None
    seed: int | None
    task_index: int

    def for_pair(self, a: str, b: str) -> perm.Source:
        if self.stream is not None:
            return self.stream
        key = (self.task_index, zlib.crc32(a.encode()), zlib.crc32(b.encode()))
        return np.random.default_rng(np.random.SeedSequence(self.seed, spawn_key=key))


def _test_chunk(job: tuple[_Comparison, _Draws, list[tuple[str, str]]]) -> list:
    """Worker side of a parallel task: the tests of some metric pairs."""
    comp, source, names = job
    return [comp.test(a, b, comp.task.k, source.for_pair(a, b)) for a, b in names]


_FUNCTION = {
    "pearson": "pearson",
    "spearman": "spearman",
    "kendall": "kendall",
    "KendallLike": "kendall-like",
    "KendallVariants": "kendall-variants",
    "KendallWithTiesOpt": "tie-calibrated",
}


class _CorrComparison(_Comparison):
    """pearson, spearman, kendall, KendallLike, KendallVariants, KendallWithTiesOpt."""

    def __init__(self, task: Task, lp: LanguagePairData):
        self.task = task
        self.h, self.m, self.systems = lp.selection(task.level, task.gold)
        if self.h.ndim == 1:
            self.h = self.h[:, None]
            self.m = {k: v[:, None] for k, v in self.m.items()}
        self.names = list(self.m)
        self.grouping = _GROUPING[task.avg_by]
        self.function = _FUNCTION[task.corr_fcn]
        self.args = dict(task.corr_fcn_args)
        self.args.pop("sample_rate", None)
        self.variant = self.args.get("variant", "acc23")
        self._eps: dict[str, float] = {}

    def value(self, name: str) -> float:
        t = self.task
        return catalogue.task_value(
            self.h,
            self.m[name],
            t.corr_fcn,
            grouping=self.grouping,
            replace_nans_with_zeros=t.replace_nans_with_zeros,
            **(self.args if t.corr_fcn != "KendallWithTiesOpt" else {"variant": self.variant}),
        )

    def _epsilon(self, name: str) -> float:
        if name not in self._eps:
            self._eps[name] = tie_calibration(
                self.h, self.m[name], grouping=self.grouping, variant=self.variant
            ).epsilon
        return self._eps[name]

    def test(self, a: str, b: str, k: int, stream: perm.Source) -> perm.PermutationTest:
        t = self.task
        common = dict(
            grouping=self.grouping,
            k=k,
            stopping=t.stopping(),
            seed=stream,
            replace_nans_with_zeros=t.replace_nans_with_zeros,
        )
        if t.perm_test == "pairs":
            return sigdiff.pairs_sig_diff(
                self.h,
                self.m[a],
                self.m[b],
                variant=self.variant,
                epsilon_a=self._epsilon(a),
                epsilon_b=self._epsilon(b),
                **common,
            )
        if self.args.get("pdp"):
            raise UserInputError("the permutation test of PDP is not supported")
        return sigdiff.sig_diff(self.h, self.m[a], self.m[b], self.function, **common, **self.args)


class _SpaComparison(_Comparison):
    """System-level soft pairwise accuracy from segment scores (``corr_fcn='pce'``)."""

    def __init__(self, task: Task, lp: LanguagePairData):
        self.task = task
        gold = task.gold if isinstance(task.gold, str) or task.gold is None else task.gold[0]
        self.h, self.m, self.systems = lp.selection("seg", gold)
        self.names = list(self.m)
        self.scorer = pw.SpaScorer(
            self.h,
            n_permutations=int(task.corr_fcn_args.get("num_permutations", pw.SPA_PERMUTATIONS)),
        )

    def value(self, name: str) -> float:
        return catalogue.spa_value(self.scorer, self.m[name])

    def test(self, a: str, b: str, k: int, stream: perm.Source) -> perm.PermutationTest:
        return sigdiff.spa_sig_diff(
            self.h, self.m[a], self.m[b], k=k, stopping=self.task.stopping(), seed=stream,
            scorer=self.scorer,
        )  # fmt: skip


class _AccuracyComparison(_Comparison):
    """System-level pairwise accuracy pooled over language pairs (``corr_fcn='accuracy'``)."""

    def __init__(self, task: Task, data: Mapping[str, LanguagePairData]):
        self.task = task
        golds = task.gold if isinstance(task.gold, list) else [task.gold] * len(task.langs)
        if len(golds) != len(task.langs):
            raise UserInputError("accuracy task: one gold name per language pair")
        parts = [data[lp].selection("sys", g) for lp, g in zip(task.langs, golds, strict=True)]
        names = set(parts[0][1])
        for p in parts[1:]:
            names &= set(p[1])
        self.names = sorted(names)
        self.h = [p[0].ravel() for p in parts]
        self.m = {n: [p[1][n].ravel() for p in parts] for n in self.names}
        try:
            self.acc = sigdiff.PooledAccuracy(self.h)
        except ValueError as e:
            raise UserInputError(f"accuracy task: {e}") from e

    def value(self, name: str) -> float:
        return float(self.acc.score(self.acc.join(self.m[name])[None])[0])

    def test(self, a: str, b: str, k: int, stream: perm.Source) -> perm.PermutationTest:
        return sigdiff.accuracy_sig_diff(
            self.h, self.m[a], self.m[b], k=k, stopping=self.task.stopping(), seed=stream
        )


# ----------------------------------------------------------------------------------------
# results
# ----------------------------------------------------------------------------------------
@dataclass
class TaskResult:
    """One task's metrics by decreasing correlation, their cluster ranks, the p-value matrix
    (``matrix[i, j]``, ``i < j``: p that metric ``j`` is as good as ``i``) and the resampled
    ``(stat i, stat j)`` draws of each tested pair."""

    task: Task
    metrics: list[str]
    corrs: list[float]
    ranks: list[int]
    matrix: np.ndarray
    draws: dict[tuple[int, int], np.ndarray]

    def corr(self, metric: str) -> float:
        return self.corrs[self.metrics.index(metric)]

    def rank(self, metric: str) -> int:
        return self.ranks[self.metrics.index(metric)]

    def pair_draws(self, m1: str, m2: str) -> np.ndarray:
        """Draws of ``(m1, m2)``, columns in that order (mt-metrics-eval's ``Draws``)."""
        i, j = self.metrics.index(m1), self.metrics.index(m2)
        if i < j:
            return self.draws.get((i, j), np.zeros((0, 2)))
        return self.draws.get((j, i), np.zeros((0, 2)))[:, [1, 0]]

    def to_dict(self) -> dict[str, Any]:
        return {
            "task": _jsonable(self.task.to_dict()),
            "metrics": self.metrics,
            "corrs": [float(c) for c in self.corrs],
            "ranks": self.ranks,
            "p_values": self.matrix.tolist(),
            "n_draws": {f"{i},{j}": len(d) for (i, j), d in self.draws.items()},
        }


def _jsonable(x: Any) -> Any:
    if isinstance(x, set):
        return sorted(x)
    if isinstance(x, dict):
        return {k: _jsonable(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_jsonable(v) for v in x]
    return x


@dataclass
class GlobalRanking:
    """Average correlation per metric (decreasing), its cluster rank, the p-value matrix."""

    metrics: list[str]
    corrs: list[float]
    ranks: list[int]
    matrix: np.ndarray


@dataclass
class TaskSetResult:
    """The results of a task set's tasks, its weights, and the seed and kind of the draws
    (enough to repeat the run)."""

    results: list[TaskResult]
    weights: list[float]
    seed: int | None = None
    draws: str = "mtme"

    def _common(self) -> list[str]:
        first = self.results[0].metrics
        return [m for m in first if all(m in r.metrics for r in self.results)]

    def average_corrs(self) -> dict[str, float]:
        """Weighted average of each task's correlation rescaled to [0, 1], for the metrics of
        every task, by decreasing value (mt-metrics-eval's ``AverageCorrs``)."""
        out: dict[str, float] = {}
        for m in self._common():
            total = 0.0
            for r, w in zip(self.results, self.weights, strict=True):
                lo, hi = r.task.statistic_range
                total += (r.corr(m) - lo) / (hi - lo) * w
            out[m] = total
        return dict(sorted(out.items(), key=lambda x: -x[1]))

    def average_ranks(self) -> dict[str, float]:
        """Weighted average of the cluster ranks, increasing (``AverageRanks``)."""
        out = {
            m: sum(r.rank(m) * w for r, w in zip(self.results, self.weights, strict=True))
            for m in self._common()
        }
        return dict(sorted(out.items(), key=lambda x: x[1]))

    def average_corr_matrix(self, pval: float = 0.05) -> GlobalRanking:
        """Significance clusters of the average correlation from the tasks' draws: for each
        metric pair the weighted rescaled draw differences are summed over tasks (a task
        stopped early repeats its draws), ``p = mean(null >= observed difference)``
        (mt-metrics-eval's ``AverageCorrMatrix``)."""
        avg = self.average_corrs()
        metrics = list(avg)
        n = len(metrics)
        sig = np.zeros((n, n))
        for i in range(n):
            for j in range(i + 1, n):
                m1, m2 = metrics[i], metrics[j]
                per_task = [r.pair_draws(m1, m2) for r in self.results]
                max_draws = max(len(d) for d in per_task)
                if max_draws == 0:
                    raise ValueError("the global clusters need tasks run with k > 0")
                null = np.zeros(max_draws)
                rows = np.zeros((len(self.results), max_draws))
                for t, (r, d, w) in enumerate(
                    zip(self.results, per_task, self.weights, strict=True)
                ):
                    lo, hi = r.task.statistic_range
                    dd = w * (d - lo) / (hi - lo)
                    diff = dd[:, 0] - dd[:, 1]
                    copies = int(np.ceil(max_draws / len(diff)))
                    rows[t] = np.tile(diff, copies)[:max_draws]
                null = np.sum(rows, axis=0)
                sig[i, j] = np.mean(null >= avg[m1] - avg[m2])
        return GlobalRanking(metrics, list(avg.values()), assign_ranks(sig, pval), sig)

    def to_pandas(self):
        """``(tasks, ranking)`` DataFrames: one row per task and metric; one per metric."""
        import pandas as pd

        rows = []
        for t, r in enumerate(self.results, 1):
            for m, c, k in zip(r.metrics, r.corrs, r.ranks, strict=True):
                rows.append(
                    {
                        "task": t,
                        "lang": r.task.lang,
                        "level": r.task.level,
                        "corr_fcn": r.task.corr_fcn,
                        "weight": self.weights[t - 1],
                        "metric": m,
                        "corr": c,
                        "rank": k,
                    }
                )
        avg_ranks = self.average_ranks()
        if all(r.task.k for r in self.results):
            g = self.average_corr_matrix()
            ranking = pd.DataFrame({"metric": g.metrics, "avg_corr": g.corrs, "rank": g.ranks})
        else:
            avg = self.average_corrs()
            ranking = pd.DataFrame({"metric": list(avg), "avg_corr": list(avg.values())})
        ranking["avg_rank"] = ranking["metric"].map(avg_ranks)
        return pd.DataFrame(rows), ranking

    def to_json(self) -> str:
        """The tasks' results and the global ranking (with clusters when every task was
        tested), as JSON."""
        out: dict[str, Any] = {
            "tasks": [r.to_dict() for r in self.results],
            "weights": self.weights,
            "seed": self.seed,
            "draws": self.draws,
            "average_corrs": self.average_corrs(),
            "average_ranks": self.average_ranks(),
        }
        if all(r.task.k for r in self.results):
            g = self.average_corr_matrix()
            out["global_ranking"] = {
                "metrics": g.metrics,
                "corrs": g.corrs,
                "ranks": g.ranks,
                "p_values": g.matrix.tolist(),
            }
        return json.dumps(out, indent=1)


# ----------------------------------------------------------------------------------------
# task sets
# ----------------------------------------------------------------------------------------
@dataclass
class TaskSet:
    """Tasks and their weights (normalised to sum to 1 when run).

    Examples
    --------
    >>> ts = TaskSet([Task(corr_fcn="pearson"), Task(corr_fcn="kendall")], [3, 1])
    >>> len(ts), ts.weights
    (2, [3, 1])
    """

    tasks: list[Task]
    weights: list[float] | None = None

    def __post_init__(self) -> None:
        if self.weights is None:
            self.weights = [1.0 / len(self.tasks)] * len(self.tasks) if self.tasks else []
        if len(self.weights) != len(self.tasks):
            raise UserInputError(f"{len(self.weights)} weights for {len(self.tasks)} tasks")

    def __len__(self) -> int:
        return len(self.tasks)

    def run(
        self,
        data: Mapping[str, LanguagePairData],
        *,
        seed: int | np.random.RandomState | None = None,
        draws: str = "mtme",
        backend: Backend | None = None,
        progress: Callable[[int, int, int], None] | None = None,
    ) -> TaskSetResult:
        """Run every task in order; ``draws`` as :meth:`Task.run` (``mtme``: one stream over
        all tasks, as mt-metrics-eval's ``TaskSet.Run`` after ``np.random.seed(seed)``);
        ``backend`` as :meth:`Task.run`; ``progress(task_index, done, total)`` follows the
        metric-pair tests of each task."""
        if seed is None:  # a fresh seed, recorded so that the run can be repeated
            seed = int(np.random.SeedSequence().generate_state(1, dtype=np.uint32)[0])
        recorded = seed if isinstance(seed, int) else None
        stream = perm.legacy_stream(seed) if draws == "mtme" else seed
        results = []
        for n, t in enumerate(self.tasks):
            report = (lambda d, tot, n=n: progress(n, d, tot)) if progress else None
            results.append(
                t.run(data, seed=stream, draws=draws, task_index=n, backend=backend,
                      progress=report)
            )  # fmt: skip
        total = float(sum(self.weights))
        return TaskSetResult(results, [w / total for w in self.weights], recorded, draws)

    @classmethod
    def from_records(cls, records: Sequence[Mapping[str, Any]], *, path: str = "") -> TaskSet:
        """Tasks from dicts of ``Task`` fields plus an optional ``weight`` (default 1)."""
        fields = {f.name for f in dataclasses.fields(Task)}
        tasks, weights = [], []
        for n, rec in enumerate(records, 1):
            if not isinstance(rec, Mapping):
                raise UserInputError(f"task {n}: expected a mapping of Task fields", path=path)
            unknown = set(rec) - fields - {"weight"}
            if unknown:
                raise UserInputError(
                    f"task {n}: unknown field(s) {', '.join(sorted(unknown))}; expected "
                    f"{', '.join(sorted(fields))} or weight",
                    path=path,
                )
            args = {k: v for k, v in rec.items() if k != "weight"}
            tasks.append(Task(**args))
            weights.append(float(rec.get("weight", 1.0)))
        return cls(tasks, weights)

    @classmethod
    def from_file(cls, path: str | Path) -> TaskSet:
        """A task set from a JSON or YAML file: a list of tasks, or ``{"tasks": [...]}``.

        Each task uses mt-metrics-eval's ``Task`` field names plus ``weight``.
        """
        from mtpalette.io.plain import read_lines

        p = Path(path)
        text = "\n".join(read_lines(p))  # a missing, empty or non-UTF-8 file named as such
        try:
            if p.suffix.lower() in (".yaml", ".yml"):
                import yaml

                obj = yaml.safe_load(text)
            else:
                obj = json.loads(text)
        except Exception as e:  # the parser's message names the line
            raise UserInputError(f"cannot parse task set: {e}", path=str(p)) from e
        if isinstance(obj, Mapping):
            obj = obj.get("tasks")
        if not isinstance(obj, list):
            raise UserInputError("expected a list of tasks or {'tasks': [...]}", path=str(p))
        return cls.from_records(obj, path=str(p))


# built-in task sets: google-research/mt-metrics-eval at 68a481a, tasks.py
_WMT25_LPS = [
    "cs-de_DE", "cs-uk_UA", "en-ar_EG", "en-bho_IN", "en-cs_CZ", "en-et_EE", "en-is_IS",
    "en-it_IT", "en-ja_JP", "en-ko_KR", "en-mas_KE", "en-ru_RU", "en-sr_Cyrl_RS", "en-uk_UA",
    "en-zh_CN", "ja-zh_CN",
]  # fmt: skip


def _seg_acc_eq(test_set: str, lp: str, human: bool, gold: Any, primary: bool, k: int) -> Task:
    return Task(
        test_set, lp, level="seg", corr_fcn="KendallWithTiesOpt", human=human, gold=gold,
        primary=primary, k=k, avg_by="item", perm_test="pairs",
        corr_fcn_args={"sample_rate": 1.0},
    )  # fmt: skip


def wmt23(lps=None, primary: bool = True, k: int = 0, gold: str | None = None) -> TaskSet:
    """WMT23: pooled system accuracy (weight = number of pairs), then per pair system and
    segment Pearson and segment acc-eq (``pairs`` test); ``tasks.WMT23``."""
    multi = {"en-he", "he-en"}
    lps = sorted(lps or ["en-de", "he-en", "zh-en"])
    tasks = [
        Task(
            "wmt23", ",".join(lps), level="sys", corr_fcn="accuracy",
            human=bool(multi & set(lps)), gold=[gold] * len(lps) if gold else None,
            primary=primary, k=k,
        )
    ]  # fmt: skip
    for lp in lps:
        human = lp in multi
        for level in ("sys", "seg"):
            tasks.append(
                Task("wmt23", lp, level=level, corr_fcn="pearson", human=human, gold=gold,
                     primary=primary, k=k)
            )  # fmt: skip
        tasks.append(_seg_acc_eq("wmt23", lp, human, gold, primary, k))
    weights = [len(lps)] + [1] * (len(tasks) - 1)
    return TaskSet(tasks, [w / sum(weights) for w in weights])


def _spa_and_acc_eq(test_set, lps, multi, primary, k, gold, spa_gold) -> TaskSet:
    tasks = []
    for lp in sorted(lps):
        human = lp in multi
        tasks.append(
            Task(test_set, lp, level="sys", corr_fcn="pce", human=human, gold=spa_gold,
                 primary=primary, k=k)
        )  # fmt: skip
        tasks.append(_seg_acc_eq(test_set, lp, human, gold, primary, k))
    return TaskSet(tasks, [1 / len(tasks)] * len(tasks))


def wmt24_on_wmt23(lps=None, primary: bool = True, k: int = 0, gold: str | None = None) -> TaskSet:
    """WMT24's tasks on WMT23 data: per pair system SPA and segment acc-eq, equal weights
    (``tasks.WMT24OnWMT23``)."""
    lps = lps or ["en-de", "he-en", "zh-en"]
    # mt-metrics-eval passes a list of golds to its SPA tasks here; its loader uses the first
    spa_gold = [gold] * len(lps) if gold else None
    return _spa_and_acc_eq("wmt23", lps, {"en-he", "he-en"}, primary, k, gold, spa_gold)


def wmt24(lps=None, primary: bool = True, k: int = 0, gold: str | None = None) -> TaskSet:
    """WMT24: per pair system SPA and segment acc-eq (``pairs``), equal weights
    (``tasks.WMT24``)."""
    lps = lps or ["en-de", "en-es", "ja-zh"]
    spa_gold = [gold] * len(lps) if gold else None
    return _spa_and_acc_eq("wmt24", lps, {"en-de"}, primary, k, gold, spa_gold)


def wmt25(lps=None, primary: bool = True, k: int = 0, gold: str | None = None) -> TaskSet:
    """WMT25: as WMT24 over the 16 WMT25 pairs (``tasks.WMT25``)."""
    return _spa_and_acc_eq("wmt25", lps or _WMT25_LPS, set(), primary, k, gold, gold)


TASK_SETS = {
    "wmt23": wmt23,
    "wmt24-on-wmt23": wmt24_on_wmt23,
    "wmt24": wmt24,
    "wmt25": wmt25,
}


def task_set(name: str, **kwargs: Any) -> TaskSet:
    """A built-in task set by name (``wmt23``, ``wmt24-on-wmt23``, ``wmt24``, ``wmt25``);
    ``lps``, ``primary``, ``k`` and ``gold`` as mt-metrics-eval's functions (``k`` is 0 there:
    no significance tests unless asked).

    Examples
    --------
    >>> ts = task_set("wmt24", lps=["en-de", "ja-zh"], k=1000)
    >>> [(t.lang, t.level, t.corr_fcn) for t in ts.tasks]  # doctest: +NORMALIZE_WHITESPACE
    [('en-de', 'sys', 'pce'), ('en-de', 'seg', 'KendallWithTiesOpt'),
     ('ja-zh', 'sys', 'pce'), ('ja-zh', 'seg', 'KendallWithTiesOpt')]
    """
    if name not in TASK_SETS:
        raise UserInputError(f"unknown task set {name!r}; expected one of {', '.join(TASK_SETS)}")
    return TASK_SETS[name](**kwargs)
