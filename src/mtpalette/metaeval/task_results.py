"""The results of WMT meta-evaluation tasks: one task's correlations, cluster ranks and
p-values (:class:`TaskResult`), and a task set's (:class:`TaskSetResult`) with its global
ranking - the weighted average correlation (mt-metrics-eval's ``AverageCorrs``), the average
rank (``AverageRanks``) and the significance clusters of the average from the tasks' draws
(``AverageCorrMatrix``).

A metric that is not in every task cannot be averaged: the ranking holds the metrics of every
task and names the others (:meth:`TaskSetResult.partial_metrics`); it is never silent.

References
----------
google-research/mt-metrics-eval at 68a481a: ``mt_metrics_eval/tasks.py`` (``TaskResults``,
``TaskSetResults``) and ``data.py`` (``AssignRanks``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError


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


@dataclass
class TaskResult:
    """One task's metrics by decreasing correlation, their cluster ranks, the p-value matrix
    (``matrix[i, j]``, ``i < j``: p that metric ``j`` is as good as ``i``) and the resampled
    ``(stat i, stat j)`` draws of each tested pair."""

    task: Any  #: the mtpalette.metaeval.tasks.Task it ran
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
        """The result as JSON's types; an untested task (``k`` 0) records no p-values (null:
        its matrix of zeros, mt-metrics-eval's, is no test's)."""
        return {
            "task": _jsonable(self.task.to_dict()),
            "metrics": self.metrics,
            "corrs": [float(c) for c in self.corrs],
            "ranks": self.ranks,
            "p_values": self.matrix.tolist() if self.task.k else None,
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
    and the p-value convention (enough to repeat the run)."""

    results: list[TaskResult]
    weights: list[float]
    seed: int | None = None
    draws: str = "mtme"
    p_convention: str = "mtme"

    def _common(self) -> list[str]:
        first = self.results[0].metrics
        common = [m for m in first if all(m in r.metrics for r in self.results)]
        if not common and any(r.metrics for r in self.results):
            partial = self.partial_metrics()
            raise UserInputError(
                "no metric is in every task, so there is no global ranking: "
                + "; ".join(f"{m} only in task(s) {', '.join(map(str, t))}"
                            for m, t in list(partial.items())[:6])
                + ". Name a metric the same way in every language pair (its base name)"
            )  # fmt: skip
        return common

    def partial_metrics(self) -> dict[str, list[int]]:
        """The metrics some tasks lack, each with the (1-based) tasks that have it: the
        global ranking leaves them out, and says so."""
        every = [set(r.metrics) for r in self.results]
        names = sorted(set().union(*every)) if every else []
        return {
            m: [t for t, have in enumerate(every, 1) if m in have]
            for m in names
            if not all(m in have for have in every)
        }

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
        tested), as JSON; the seed and the kind of draws are null when no task drew (k 0)."""
        drawn = any(r.task.k for r in self.results)
        out: dict[str, Any] = {
            "tasks": [r.to_dict() for r in self.results],
            "weights": self.weights,
            "seed": self.seed if drawn else None,
            "draws": self.draws if drawn else None,
            "p_convention": self.p_convention if drawn else None,
            "average_corrs": self.average_corrs(),
            "left_out_of_ranking": self.partial_metrics(),
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
