"""WMT task sets: tasks with weights, built from attribute combinations as mt-metrics-eval
builds them, added together, read from JSON/YAML files, and the built-in sets of WMT23, WMT24
(on WMT23 data too) and WMT25.

References
----------
google-research/mt-metrics-eval at 68a481a: ``mt_metrics_eval/tasks.py`` (``TaskSet``,
``WMT23``, ``WMT24OnWMT23``, ``WMT24``, ``WMT25``).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError, repeated
from mtpalette.metaeval.task_results import TaskSetResult
from mtpalette.metaeval.tasks import LanguagePairData, Task
from mtpalette.parallel import Backend
from mtpalette.stats import permutation as perm


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
        for n, w in enumerate(self.weights, 1):
            if isinstance(w, bool) or not isinstance(w, int | float | np.number):
                raise UserInputError(f"task {n}: weight {w!r} is not a number")
            if not np.isfinite(w) or w < 0:
                raise UserInputError(f"task {n}: weight {w!r}; expected a finite number >= 0")
        if self.weights and not any(w > 0 for w in self.weights):
            raise UserInputError("every task has weight 0: nothing to average")

    def normalised_weights(self) -> list[float]:
        """The weights scaled to sum to 1 (scaled by the largest first: huge weights do not
        overflow).

        Examples
        --------
        >>> TaskSet([Task(), Task(corr_fcn="kendall")], [1e308, 1e308]).normalised_weights()
        [0.5, 0.5]
        """
        w = np.asarray(self.weights, dtype=np.float64)
        w = w / w.max()
        return (w / w.sum()).tolist()

    def __len__(self) -> int:
        return len(self.tasks)

    def __iter__(self) -> Iterator[Task]:
        return iter(self.tasks)

    def __add__(self, other: TaskSet) -> TaskSet:
        """Both sets' tasks, in order (a task in both is repeated, as in mt-metrics-eval).
        Two sets of equal weights give equal weights; otherwise the weights are kept as
        given, and normalised over all the tasks when run.

        Examples
        --------
        >>> a = TaskSet.from_combinations({"lang": ["en-de"]})
        >>> b = TaskSet.from_combinations({"lang": ["en-ru", "zh-en"]})
        >>> s = a + b
        >>> [t.lang for t in s], s.weights == [1 / 3] * 3
        (['en-de', 'en-ru', 'zh-en'], True)
        """
        if not isinstance(other, TaskSet):
            return NotImplemented
        tasks = self.tasks + other.tasks
        equal = len(set(self.weights)) <= 1 and len(set(other.weights)) <= 1
        return TaskSet(tasks, None if equal else list(self.weights) + list(other.weights))

    @classmethod
    def from_combinations(
        cls, attr_combs: Mapping[str, Sequence[Any]] | None = None, **attrs: Any
    ) -> TaskSet:
        """One task per combination of the values of ``attr_combs`` (the last attribute
        varying fastest), every task with the fixed ``attrs`` too: mt-metrics-eval's
        ``TaskSet(attr_combs, **attrs)``; equal weights.

        Examples
        --------
        >>> ts = TaskSet.from_combinations(
        ...     {"lang": ["en-de", "zh-en"], "level": ["sys", "seg"]}, k=10)
        >>> [(t.lang, t.level, t.k) for t in ts]  # doctest: +NORMALIZE_WHITESPACE
        [('en-de', 'sys', 10), ('en-de', 'seg', 10), ('zh-en', 'sys', 10),
         ('zh-en', 'seg', 10)]
        """
        fields = {f.name for f in dataclasses.fields(Task)}
        combs = dict(attr_combs or {})
        unknown = sorted((set(combs) | set(attrs)) - fields)
        if unknown:
            raise UserInputError(
                f"unknown task attribute(s) {', '.join(unknown)}; expected "
                f"{', '.join(sorted(fields))}"
            )
        both = sorted(set(combs) & set(attrs))
        if both:
            raise UserInputError(f"attribute(s) {', '.join(both)} given twice")
        for name, values in combs.items():
            if isinstance(values, str) or not isinstance(values, Sequence):
                raise UserInputError(f"attribute {name!r}: expected a list of values")
        if not combs:  # no combination, no task (as mt-metrics-eval)
            return cls([])
        tasks = [
            Task(**dict(zip(combs, values, strict=True)), **attrs)
            for values in itertools.product(*combs.values())
        ]
        return cls(tasks)

    def run(
        self,
        data: Mapping[str, LanguagePairData],
        *,
        seed: int | np.random.RandomState | None = None,
        draws: str = "mtme",
        plus_one: bool = False,
        backend: Backend | None = None,
        progress: Callable[[int, int, int], None] | None = None,
    ) -> TaskSetResult:
        """Run every task in order; ``draws`` and ``plus_one`` (the p-value convention) as
        :meth:`Task.run` (``mtme``: one stream over all tasks, as mt-metrics-eval's
        ``TaskSet.Run`` after ``np.random.seed(seed)``);
        ``backend`` as :meth:`Task.run`; ``progress(task_index, done, total)`` follows the
        metric-pair tests of each task."""
        if not self.tasks:
            raise UserInputError("the task set has no task")
        if seed is None:  # a fresh seed, recorded so that the run can be repeated
            seed = int(np.random.SeedSequence().generate_state(1, dtype=np.uint32)[0])
        recorded = seed if isinstance(seed, int) else None
        stream = perm.legacy_stream(seed) if draws == "mtme" else seed
        results = []
        for n, t in enumerate(self.tasks):
            report = (lambda d, tot, n=n: progress(n, d, tot)) if progress else None
            results.append(
                t.run(data, seed=stream, draws=draws, plus_one=plus_one, backend=backend,
                      progress=report)
            )  # fmt: skip
        return TaskSetResult(results, self.normalised_weights(), recorded, draws,
                             "plus-one" if plus_one else "mtme")  # fmt: skip

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
            try:
                task = Task(**args)
            except UserInputError as exc:
                raise UserInputError(f"task {n}: {exc}", path=path) from None
            if task in tasks:  # weighted twice in the global ranking, unseen
                raise UserInputError(
                    f"task {n} is task {tasks.index(task) + 1} again ({task.lang} {task.level} "
                    f"{task.corr_fcn}); give each task once (a larger weight counts it more)",
                    path=path)  # fmt: skip
            tasks.append(task)
            weights.append(rec.get("weight", 1.0))
        if not tasks:
            raise UserInputError("no task: expected a list of one task or more", path=path)
        try:
            return cls(tasks, weights)
        except UserInputError as exc:
            raise UserInputError(str(exc), path=path) from None

    @classmethod
    def from_file(cls, path: str | Path, *, defaults: Mapping[str, Any] | None = None) -> TaskSet:
        """A task set from a JSON or YAML file: a list of tasks, or ``{"tasks": [...]}``.

        Each task uses mt-metrics-eval's ``Task`` field names plus ``weight``; ``defaults``
        fills the fields a task does not name (``mtpalette wmt -k N``: ``{"k": N}``).
        """
        from mtpalette.io.jsonfile import load_yaml, loads
        from mtpalette.io.plain import read_lines

        p = Path(path)
        text = "\n".join(read_lines(p))  # a missing, empty or non-UTF-8 file named as such
        try:  # a key given twice (a weight, a task field) refused, naming the line
            if p.suffix.lower() in (".yaml", ".yml"):
                obj = load_yaml(text, path=str(p))
            else:
                obj = loads(text, path=str(p))
        except UserInputError:
            raise
        except Exception as e:  # the parser's message names the line
            raise UserInputError(f"cannot parse task set: {e}", path=str(p)) from e
        if isinstance(obj, Mapping):
            unknown = sorted(str(k) for k in obj if k != "tasks")
            if unknown:  # once read as if absent: a typo'd key changed nothing, silently
                raise UserInputError(
                    f"unknown key(s) {', '.join(unknown)}; expected a list of tasks or "
                    "{'tasks': [...]}",
                    path=str(p),
                )
            obj = obj.get("tasks")
        if not isinstance(obj, list):
            raise UserInputError("expected a list of tasks or {'tasks': [...]}", path=str(p))
        if defaults:
            obj = [{**defaults, **r} if isinstance(r, Mapping) else r for r in obj]
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
    >>> task_set("wmt24", lps=["en-de", "en-de"])
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: language pair en-de given twice (--lp)
    """
    if name not in TASK_SETS:
        raise UserInputError(f"unknown task set {name!r}; expected one of {', '.join(TASK_SETS)}")
    lps = kwargs.get("lps")
    lps = [] if lps is None or isinstance(lps, str) else list(lps)
    twice = repeated(lps)
    if twice:  # each of its tasks would be weighted twice, unseen
        raise UserInputError(f"language pair {', '.join(twice)} given twice (--lp)")
    return TASK_SETS[name](**kwargs)


def run_noted(ts: TaskSet, data: Mapping[str, LanguagePairData], *, seed: int, draws: str,
              backend: Backend, plus_one: bool, feedback: Any) -> TaskSetResult:  # fmt: skip
    """:meth:`TaskSet.run` with what a run says of it: a note of the tasks, pairs and
    resamples, and a bar counting the metric-pair tests of each task, task after task."""
    lps = sorted({lp for t in ts.tasks for lp in t.lang.split(",")})
    feedback.note(f"{len(ts.tasks)} task(s) over {len(lps)} language pair(s), {resamples(ts)}")
    with feedback.steps("significance tests") as step:
        progress = None
        if step is not None:  # the metric-pair tests of each task, task after task

            def progress(task: int, done: int, total: int) -> None:
                step(done, total, f"task {task + 1}/{len(ts.tasks)}")

        return ts.run(data, seed=seed, draws=draws, backend=backend, progress=progress,
                      plus_one=plus_one)  # fmt: skip


def resamples(ts: TaskSet) -> str:
    """The resamples the tasks draw, as the run's note says them (k 0: none, no test).

    Examples
    --------
    >>> resamples(TaskSet([Task(k=0), Task(k=0)]))
    'no resamples (k 0: no significance test)'
    >>> resamples(TaskSet([Task(k=1000), Task(k=0)]))
    '1000 resamples (1 task of k 0: not tested)'
    """
    total, untested = sum(t.k for t in ts.tasks), sum(t.k == 0 for t in ts.tasks)
    if not total:
        return "no resamples (k 0: no significance test)"
    if not untested:
        return f"{total} resamples"
    return f"{total} resamples ({untested} task{'s' * (untested > 1)} of k 0: not tested)"


def task_names(ts: TaskSet) -> list[str]:
    """Each task in a line: pair, level, statistic, averaging and resamples."""
    return [f"{t.lang} {t.level} {t.corr_fcn} (avg_by {t.avg_by}, k {t.k})" for t in ts.tasks]


def human_as_systems(ts: TaskSet, data: Mapping[str, LanguagePairData]) -> dict[str, list[str]]:
    """Per language pair, the human translations that its tasks with ``human=True`` rank as
    systems (mt-metrics-eval's ``include_human``)."""
    return {lp: sorted(d.references) for lp, d in data.items() if d.references and any(
        t.human and lp in t.lang.split(",") for t in ts.tasks)}  # fmt: skip

