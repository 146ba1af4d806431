"""Correlation tables over the engine's data object, :class:`LanguagePairData`, whoever
built it (:meth:`~mtpalette.metaeval.segments.SegmentData.pair_data` from judged texts,
:func:`mtpalette.sources.folders.mtme_pair_data` from an mt-metrics-eval folder).

:func:`table_of` is the one maker of a (level, statistic) table, for ``correlate`` and the
Python API: a statistic with a group kernel is :func:`~mtpalette.metaeval.correlation.
correlation_table` (its interval resampling items); SPA (soft pairwise accuracy, whose
system p-values come from the segment scores) and PDP (pairwise difference Pearson) are tasks
of the task engine, so that ``correlate --stat spa`` and ``wmt``'s SPA task are one
computation; and at system level on a folder, the human and metric system scores are those
the folder stores (``.sys.score``) or a computed metric's corpus score of all segments,
exactly the vectors the ``wmt`` command's tasks correlate (:func:`pair_table`, its interval
resampling systems). :func:`against_baselines` tests a table's metrics against the length
baselines and records the statistic's chance level. The value of every statistic comes from
:mod:`mtpalette.stats.catalogue`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.metaeval.correlation import (
    CorrelationRow,
    CorrelationTable,
    correlation_table,
    stored_signature,
    system_table,
)
from mtpalette.metaeval.tasks import LanguagePairData, Task
from mtpalette.signature import Signature
from mtpalette.stats import catalogue
from mtpalette.stats.bootstrap import BootstrapCI
from mtpalette.stats.catalogue import statistic as catalogue_entry


def pair_table(
    lp: LanguagePairData,
    statistic: str,
    metrics: Mapping[str, tuple[bool, str]],
    *,
    level: str = "system",
    grouping: str = "none",
    gold: str | None = None,
    **common: Any,
) -> CorrelationTable:
    """The table of ``statistic`` for the ``metrics`` of ``lp`` (name -> (higher is better,
    signature); their scores in ``lp`` are oriented, higher is better); ``common``: every
    resampling and test setting of :func:`~mtpalette.metaeval.correlation.system_table`
    (``n_resamples``, ``confidence``, ``seed``, ``test``, ``n_permutations``, ``alpha``,
    ``epsilon``, ``lang``, ``p_convention``: a run's ``common``, as :func:`table_of` takes).

    SPA and PDP are tasks of the engine at ``level`` with ``grouping`` (SPA with its
    permutation test on the segment scores, mt-metrics-eval's
    ``CompareMetricsWithPairwiseConfidenceError``; no bootstrap interval); every other
    statistic is system level here, correlating the system vectors, its interval resampling
    systems.
    """
    names = list(metrics)
    entry = catalogue_entry(statistic)
    statistic = entry.name
    if entry.group is None:  # no group kernel, so no bootstrap interval: a task
        return _task_table(lp, statistic, level, grouping, names, metrics, gold, **common)
    h, vectors, systems = lp.selection("sys", gold)
    missing = [n for n in names if n not in vectors]
    if missing:
        raise UserInputError(f"no system-level scores for {', '.join(missing)}")
    table = system_table(
        dict(zip(systems, h.tolist(), strict=True)),
        {
            n: dict(zip(systems, (vectors[n] * (1 if metrics[n][0] else -1)).tolist(), strict=True))
            for n in names
        },  # fmt: skip
        directions={n: metrics[n][0] for n in names},
        signatures={n: metrics[n][1] for n in names},
        statistic=statistic,
        **common,
    )
    table.info.update(_system_info(lp, gold, metrics, systems, h, vectors))
    return table


def _system_info(lp, gold, metrics, systems, h, vectors) -> dict[str, Any]:
    """What the report's systems table shows: each metric's own system score (an error
    metric not negated), and where every vector came from."""
    human = lp.gold_name("sys", gold)
    names = [n for n in metrics if n in vectors]
    return {
        "system_score": "as stored or computed (see system_scores.origins)",
        "system_scores": {
            "systems": list(systems),
            "kind": "stored",
            "human": [float(v) for v in h],
            "metrics": {
                n: [float(v) * (1.0 if metrics[n][0] else -1.0) for v in vectors[n]] for n in names
            },
            "origins": {
                "human": lp.origins.get(f"human:{human}", {}).get("sys", "given"),
                **{n: lp.origins.get(n, {}).get("sys", "given") for n in names},
            },
        },
    }


_LEVEL = {"segment": "seg", "system": "sys"}
_AVG_BY = {"none": "none", "item": "item", "system": "sys"}


def _task_table(lp, statistic, level, grouping, names, metrics, gold, *, seed, test,
                n_permutations, alpha, confidence, **_other):  # fmt: skip
    """A table of a statistic the engine computes as a task (SPA; PDP): its value, and the
    clusters of its own permutation test where it has one (SPA); no bootstrap interval. Of
    the run's settings it takes those named; the others (``_other``: ``n_resamples``,
    ``epsilon``, ``lang``, ``p_convention``) are not used here."""
    entry = catalogue_entry(statistic)
    spa = entry.from_segments  # SPA: from the segment scores, with its own test
    k = n_permutations if test != "none" and spa else 0
    source = "seg" if spa else _LEVEL[level]
    task = Task("correlate", "pair", level=_LEVEL[level], corr_fcn=entry.corr_fcn,
                avg_by=_AVG_BY[grouping], gold=gold, k=k, pval=alpha,
                corr_fcn_args=dict(entry.args))  # fmt: skip
    have = [n for n in names if source in lp.metrics.get(n, {})]
    without = [n for n in names if n not in have]
    sub = dataclasses.replace(lp, metrics={n: lp.metrics[n] for n in have})
    try:
        res = task.run({"pair": sub}, seed=seed, draws="independent")
    except ValueError as exc:
        raise UserInputError(f"{statistic}: {exc}") from None
    h, _, systems = sub.selection(source, gold)
    n_units = len(systems) if level == "system" else h.shape[1]
    unit = "systems" if level == "system" else "items"
    rows = [
        CorrelationRow(
            m,
            BootstrapCI(float(v), np.nan, np.nan, n_units, 0, confidence, "none", None),
            rank if k else None,
            metrics[m][0],
            Signature.of(metrics[m][1]),
        )
        for m, v, rank in zip(res.metrics, res.corrs, res.ranks, strict=True)
    ]
    comparisons = [
        {"better": res.metrics[i], "worse": res.metrics[j], "p_value": float(res.matrix[i, j])}
        for i in range(len(res.metrics))
        for j in range(i + 1, len(res.metrics))
        if k
    ]
    info: dict[str, Any] = {"n_systems": len(systems), "engine": entry.note}
    if without:
        info["left_out"] = {n: f"{statistic} needs {source} scores; none stored" for n in without}
    return CorrelationTable(
        rows, statistic, grouping, level, unit, n_units, 0, confidence, seed,
        "permutation" if k else "none", alpha, k, comparisons, info,
    )  # fmt: skip


def named_table(
    pair, scores, statistic: str, level: str, files=None, *, grouping: str, gold, common
) -> CorrelationTable:
    """A table of the engine's data object: stored system scores (and those of system-level
    ``--scores`` files: ``files[name] = (higher is better, signature)``), SPA or PDP;
    ``scores`` are the metrics scored here (their direction and signature)."""
    metrics = {sc.name: (bool(sc.higher_is_better), sc.signature) for sc in scores}
    metrics |= dict(files or {})
    for name, levels in pair.metrics.items():  # stored at system level only (BLEU)
        if name not in metrics and name not in pair.scored and "sys" in levels:
            metrics[name] = (True, stored_signature(name, pair.origins[name]["sys"]))
    return pair_table(pair, statistic, metrics, level=level, grouping=grouping, gold=gold,
                      **common)  # fmt: skip


def table_of(
    lp, names, baselines, level: str, statistic: str, *, grouping: str, system_score: str,
    threshold: float, common: dict[str, Any], pair=None, files=None, gold=None, progress=None,
) -> CorrelationTable:  # fmt: skip
    """The one maker of a (level, statistic) table of the data object ``lp`` (its scored
    metrics ``names``, and at segment level its length ``baselines``), for ``correlate``
    and the API: a statistic without a group kernel (SPA, PDP) is a task of the engine, as
    are the stored system scores of ``pair`` (an mt-metrics-eval folder; ``gold`` names its
    human scores) at system level; any other table is :func:`correlation_table`, its
    interval resampling items."""
    entry = catalogue.statistic(statistic)  # checked where it entered
    if entry.group is None or (level == "system" and pair is not None):
        scored = [lp.scored[n] for n in names]
        return named_table(pair or lp, scored, entry.name, level, files, grouping=grouping,
                           gold=gold, common=common)  # fmt: skip
    return correlation_table(
        lp, names + baselines if level == "segment" else names, statistic=entry.name,
        grouping=grouping, level=level, system_score=system_score, threshold=threshold,
        progress=progress, **common,
    )  # fmt: skip


def against_baselines(
    table: CorrelationTable, lp: LanguagePairData, names, baselines, *, test: str,
    n_permutations: int, alpha: float, seed, epsilon: float | None, chance: bool = True,
) -> list[str]:  # fmt: skip
    """Test each metric of ``table`` against the best length baseline of ``lp`` (the clusters'
    test, one-sided) and record in the table the chance level of its statistic (computed
    once for the table, whatever its metrics; ``chance=False``: recorded as off); returns the
    sentences that say which metrics do not beat the baseline."""
    from mtpalette.stats.baselines import compare_with_best_baseline

    sentences: list[str] = []
    human = lp.human["human"]["seg"]
    metrics = {n: lp.metrics[n]["seg"] for n in names
               if not getattr(lp.scored[n].metric, "baseline", False)}  # fmt: skip
    if table.level == "segment" and baselines and metrics:
        try:
            report = compare_with_best_baseline(
                human,
                metrics,
                {n: lp.metrics[n]["seg"] for n in baselines},
                table.statistic,
                grouping=table.grouping,
                test="bootstrap" if test == "bootstrap" else "permutation",
                n_resamples=max(n_permutations, 1),
                alpha=alpha,
                seed=seed,
                epsilon=epsilon,
            )
        except ValueError as exc:  # e.g. constant baselines: no defined correlation
            table.info["baselines"] = {"unavailable": str(exc)}
        else:
            table.info["baselines"] = report.to_dict()
            sentences = report.sentences()
    if not chance:
        table.info["chance"] = {"off": "not computed (chance off)"}
        return sentences
    try:
        seen = _human_seen(table, human)
        chance = catalogue.chance(table.statistic, seen, grouping=table.grouping,
                                  epsilon=epsilon, seed=seed)  # fmt: skip
    except (ValueError, UserInputError) as exc:  # e.g. too many ties to list for calibration
        table.info["chance"] = {"unavailable": str(exc)}
    else:
        if chance is not None:
            table.info["chance"] = chance.to_dict()
    return sentences


def _human_seen(table: CorrelationTable, human: np.ndarray) -> np.ndarray:
    """The human scores a table's statistic saw: the system scores at system level (those
    the table correlated), the segment scores otherwise and for SPA (whose system p-values
    come from the segments)."""
    if table.level != "system" or catalogue.statistic(table.statistic).from_segments:
        return human
    stored = table.info.get("system_scores", {})
    if "human" in stored and "origins" in stored:
        return np.asarray(stored["human"], dtype=np.float64)
    from mtpalette.stats.grouping import system_means

    return system_means(human)
