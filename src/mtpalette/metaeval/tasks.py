"""WMT meta-evaluation tasks on in-memory scores: per-task correlations, ranks and
significance clusters (task sets: :mod:`mtpalette.metaeval.task_sets`; results and the global
ranking: :mod:`mtpalette.metaeval.task_results`).

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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.metaeval.task_results import TaskResult, assign_ranks
from mtpalette.parallel import Backend
from mtpalette.stats import catalogue, sigdiff
from mtpalette.stats import pairwise as pw
from mtpalette.stats import permutation as perm
from mtpalette.stats.tie_calibration import tie_calibration

#: the task engine's own corr_fcn: system-level pairwise accuracy pooled over language pairs
#: (every other corr_fcn is a statistic of :mod:`mtpalette.stats.catalogue`)
POOLED = ("accuracy",)
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
    ``correlate --mtme``, ``rank --mtme`` and the Python API build it with
    :func:`mtpalette.sources.folders.mtme_pair_data`.

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
    #: the systems that are human translations (references): a task with ``human=False``
    #: leaves them out, as mt-metrics-eval's ``GetCorrelations(include_human=False)``
    references: frozenset[str] = frozenset()
    #: the scored set of each metric computed here from texts (``scored[metric]``: a
    #: :class:`~mtpalette.metaeval.segments.MetricScores`, its sufficient statistics per
    #: system and item): its direction and signature, and the corpus score of any resample of
    #: the items, which the system-level bootstrap over items takes (stored scores have none)
    scored: dict[str, Any] = field(default_factory=dict)

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
        self, level: str, gold: str | None, *, include_refs: bool = True
    ) -> tuple[np.ndarray, dict[str, np.ndarray], list[str]]:
        """Human scores, metric scores of the metrics available at ``level`` and the systems,
        keeping only systems with at least one human score (and no reference unless
        ``include_refs``)."""
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
        if not include_refs:
            keep &= np.array([s not in self.references for s in self.systems], dtype=bool)
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

        _check_types(self, bad)

        known = [*catalogue.corr_fcns(), *POOLED]
        if self.corr_fcn not in known:
            raise bad(f"unknown corr_fcn; expected one of {', '.join(known)}")
        if self.level not in LEVELS:
            raise bad(f"unknown level; expected one of {', '.join(LEVELS)}")
        if self.avg_by not in AVG_BY:
            raise bad(f"unknown avg_by {self.avg_by!r}; expected none, sys or item")
        if self.perm_test not in PERM_TESTS:
            raise bad(f"unknown perm_test {self.perm_test!r}; expected scores or pairs")
        entry = catalogue.task_entry(self.corr_fcn, self.corr_fcn_args)
        system_only = entry is None or entry.levels == ("system",)  # None: pooled accuracy
        if system_only and self.level != "sys":
            raise bad(f"{self.corr_fcn} is a system-level statistic (level='sys')")
        if self.corr_fcn != "accuracy" and "," in self.lang:
            raise bad("only corr_fcn='accuracy' pools several language pairs")
        if self.corr_fcn == "pce" and self.perm_test != "scores":
            raise bad("pce is tested with perm_test='scores'")
        if self.k < 0 or self.block_size < 1:
            raise bad("k must be >= 0 and block_size >= 1")
        self.corr_fcn_args = dict(sorted((self.corr_fcn_args or {}).items()))
        if self.corr_fcn == "KendallWithTiesOpt" and "sample_rate" not in self.corr_fcn_args:
            # MTME's default, 0.1, samples the pairs from numpy's global random state: its
            # value changes from run to run, and computing 1.0 instead would differ unsaid
            raise bad(
                "no sample_rate in corr_fcn_args: MTME then calibrates the tie threshold on a "
                "random 10% of the pairs (its default 0.1, drawn from numpy's global random "
                "state, so its value changes from run to run); give corr_fcn_args="
                "{'sample_rate': 1.0} (every pair, as MTME's own task sets do)"
            )
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
        plus_one: bool = False,
        backend: Backend | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> TaskResult:
        """Correlations, ranks and significance of every metric.

        ``draws="mtme"``: the tests consume one legacy stream seeded by ``seed`` in
        mt-metrics-eval's order (equal to its results); ``draws="independent"``: each metric
        pair's test has its own generator from ``SeedSequence(seed)`` keyed by the task's
        question (:func:`mtpalette.stats.catalogue.question`: the same as ``correlate``'s for
        the same question) and the two metric names, so tests can run in any order or in
        parallel, and the
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
        if draws == "mtme" and backend is not None and backend.name != "inproc":
            raise UserInputError(
                "mt-metrics-eval's draws are one sequential stream: use draws='independent' "
                "to spread the tests over workers"
            )
        if draws != "mtme" and not isinstance(seed, int | np.integer):
            raise UserInputError("independent draws need an integer seed")
        if self.corr_fcn == "accuracy":
            comp = _AccuracyComparison(self, data)
        elif self.corr_fcn == "pce":
            comp = _SpaComparison(self, data[self.lang])
        else:
            comp = _CorrComparison(self, data[self.lang])
        comp.plus_one = plus_one
        if draws == "mtme":
            source = _Draws(perm.legacy_stream(seed), None, "")
        else:
            source = _Draws(None, int(seed), comp.question())
        return comp.run(source, backend=backend, progress=progress)


#: the type of each Task field a file may set wrong (None allowed where the default is None)
_FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "test_set": (str,), "lang": (str,), "level": (str,), "avg_by": (str,),
    "corr_fcn": (str,), "perm_test": (str,), "human": (bool,), "use_outliers": (bool,),
    "primary": (bool,), "replace_nans_with_zeros": (bool,), "k": (int,), "block_size": (int,),
    "pval": (int, float), "early_min": (int, float), "early_max": (int, float),
    "domain": (str, type(None)), "corr_fcn_args": (dict, type(None)),
}  # fmt: skip


def _check_types(task: Task, bad: Callable[[str], UserInputError]) -> None:
    """Refuse a field of the wrong type (``"k": "ten"``) or a probability outside (0, 1)."""
    for name, types in _FIELD_TYPES.items():
        value = getattr(task, name)
        numeric = int in types or float in types
        if (numeric and isinstance(value, bool)) or not isinstance(value, types):
            kinds = " or ".join("null" if t is type(None) else t.__name__ for t in types)
            raise bad(f"{name} is {value!r}; expected {kinds}")
    for name in ("pval", "early_min", "early_max"):
        if not 0.0 < float(getattr(task, name)) < 1.0:
            raise bad(f"{name} must be between 0 and 1 (got {getattr(task, name)!r})")


class _Comparison:
    """The metrics of one task: their values, and the test between two of them."""

    task: Task
    names: list[str]
    #: the p-value convention: mt-metrics-eval's count / k, or (count + 1) / (k + 1)
    plus_one: bool = False

    def value(self, name: str) -> float:
        raise NotImplementedError

    def question(self) -> str:
        """The key of the task's independent draws (:func:`catalogue.question`)."""
        t = self.task
        return catalogue.question(t.level, t.corr_fcn, t.corr_fcn_args, lang=t.lang,
                                  grouping=_GROUPING[t.avg_by], perm_test=t.perm_test)  # fmt: skip

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
    question: str

    def for_pair(self, a: str, b: str) -> perm.Source:
        if self.stream is not None:
            return self.stream
        return perm.pair_generator(self.seed, self.question, a, b)


def _test_chunk(job: tuple[_Comparison, _Draws, list[tuple[str, str]]]) -> list:
    """Worker side of a parallel task: the tests of some metric pairs."""
    comp, source, names = job
    return [comp.test(a, b, comp.task.k, source.for_pair(a, b)) for a, b in names]


class _CorrComparison(_Comparison):
    """pearson, spearman, kendall, KendallLike, KendallVariants, KendallWithTiesOpt."""

    def __init__(self, task: Task, lp: LanguagePairData):
        self.task = task
        self.h, self.m, self.systems = lp.selection(task.level, task.gold, include_refs=task.human)
        if self.h.ndim == 1:
            self.h = self.h[:, None]
            self.m = {k: v[:, None] for k, v in self.m.items()}
        self.names = list(self.m)
        self.grouping = _GROUPING[task.avg_by]
        self.args = dict(task.corr_fcn_args)
        self.args.pop("sample_rate", None)
        self.function = catalogue.task_entry(task.corr_fcn, self.args).permutation
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
            plus_one=self.plus_one,
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
        self.h, self.m, self.systems = lp.selection("seg", gold, include_refs=task.human)
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
            scorer=self.scorer, plus_one=self.plus_one,
        )  # fmt: skip


class _AccuracyComparison(_Comparison):
    """System-level pairwise accuracy pooled over language pairs (``corr_fcn='accuracy'``)."""

    def __init__(self, task: Task, data: Mapping[str, LanguagePairData]):
        self.task = task
        golds = task.gold if isinstance(task.gold, list) else [task.gold] * len(task.langs)
        if len(golds) != len(task.langs):
            raise UserInputError("accuracy task: one gold name per language pair")
        parts = [
            data[lp].selection("sys", g, include_refs=task.human)
            for lp, g in zip(task.langs, golds, strict=True)
        ]
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
            self.h, self.m[a], self.m[b], k=k, stopping=self.task.stopping(), seed=stream,
            plus_one=self.plus_one,
        )  # fmt: skip
