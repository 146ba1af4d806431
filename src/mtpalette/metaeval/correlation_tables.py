"""The tables of a correlation run: one per (level, statistic) of its data object, with a
progress bar that counts the real work, each table's metrics tested against the best length
baseline, and the tables' titles (the command's, the run file's and :func:`correlate`'s).

The data object comes from :mod:`mtpalette.sources.correlation`; each table from
:func:`mtpalette.metaeval.pair_tables.table_of`.
"""

from __future__ import annotations

from typing import Any

from mtpalette.feedback import Feedback
from mtpalette.metaeval.correlation import CorrelationTable
from mtpalette.metaeval.pair_tables import against_baselines, table_of
from mtpalette.stats import catalogue


def table_title(table: CorrelationTable, where: str | None = None) -> str:
    """A table's title: its level, statistic and (segment level) grouping; with ``where``
    (the data, in words) the title of a run's table.

    Examples
    --------
    >>> from types import SimpleNamespace as T
    >>> table_title(T(level="segment", statistic="pearson", grouping="none"))
    'Segment-level Pearson r, grouping none'
    >>> table_title(T(level="system", statistic="pearson", grouping="none"), "3 systems")
    'System-level Pearson r with human scores: 3 systems'
    """
    title = f"{table.level.capitalize()}-level {catalogue.label(table.statistic)}"
    if where is not None:
        title += " with human scores"
    if table.level == "segment":
        title += f", grouping {table.grouping}"
    return title if where is None else f"{title}: {where}"


def correlation_tables(run: Any, lp, names, feedback: Feedback, pair=None,
                       files=None) -> list[CorrelationTable]:  # fmt: skip
    """One table per (level, statistic) of ``run`` (a correlation run's description) on the
    data object ``lp`` (``names``: its metrics and its length baselines); at system level,
    ``pair`` (an mt-metrics-eval folder's data object) gives the stored system scores. The
    progress bar counts the real work as it is done: bootstrap resamples times metrics, then
    the permutation draws of each pair of metrics the clusters compare (expected: one pair per
    metric but one; the total grows when the clusters compare more)."""
    metrics, baselines = names

    def work(level: str) -> int:
        m = len(metrics) + (len(baselines) if level == "segment" else 0)
        perms = run.permutations if run.test == "permutation" else 0
        return run.bootstrap * m + perms * max(m - 1, 0)

    total = sum(work(level) for level in run.levels) * len(run.statistics)
    tables: list[CorrelationTable] = []
    gold = run.inputs.human if run.inputs.mtme is not None else None
    with feedback.steps(f"bootstrap and {run.test} test") as progress:
        state = {"done": 0, "total": max(total, 1), "what": ""}

        def advance(n: int) -> None:
            state["done"] += n
            state["total"] = max(state["total"], state["done"])
            progress(state["done"], state["total"], state["what"])

        for level in run.levels:
            for s in run.statistics:
                if progress is None:
                    feedback.note(f"{level} level, {s}: bootstrap and {run.test} test")
                state["what"] = f"{level} {s}: resamples x metrics"
                tables.append(table_of(
                    lp, metrics, baselines, level, s, grouping=run.grouping,
                    system_score=run.system_score, threshold=run.threshold, common=run.common(),
                    pair=pair, files=files, gold=gold,
                    progress=advance if progress is not None else None,
                ))  # fmt: skip
    return tables


def baselines_noted(run: Any, tables: list[CorrelationTable], lp, names,
                    feedback: Feedback) -> None:  # fmt: skip
    """Each table's metrics against the best length baseline of ``lp`` (and its chance
    level), recorded in the table; the metrics that do not beat it said as notes."""
    with feedback.steps("each metric against the best length baseline") as progress:
        for k, table in enumerate(tables):
            if progress is not None:
                what = f"{table.level} {table.statistic}: metrics against the best baseline"
                progress(k, len(tables), what)
            for sentence in against_baselines(table, lp, *names, test=run.test,
                                              n_permutations=run.permutations,
                                              alpha=run.alpha, seed=run.seed,
                                              epsilon=run.epsilon,
                                              chance=run.chance):  # fmt: skip
                feedback.warn(f"note: {sentence}")
