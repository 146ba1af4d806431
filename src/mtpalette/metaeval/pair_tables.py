"""Correlation tables over the engine's data object, :class:`LanguagePairData`: the stored
system scores of an mt-metrics-eval folder, SPA and PDP.

``correlate --level system`` takes this route where the system scores are not made from the
rated segments here: on an mt-metrics-eval folder, the human and metric system scores are
those the folder stores (``.sys.score``) or a computed metric's corpus score of all segments,
exactly the vectors the ``wmt`` command's tasks correlate (both are built by
:func:`mtpalette.api.folders.mtme_pair_data`); and for SPA (soft pairwise accuracy), whose
system p-values come from the segment scores, the table is a task of the task engine
(``corr_fcn="pce"``), so that ``correlate --stat spa`` and ``wmt``'s SPA task are one
computation; so is PDP (pairwise difference Pearson, ``corr_fcn_args={"pdp": True}``) at
either level. The value of every statistic comes from :mod:`mtpalette.stats.catalogue`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.metaeval.correlation import CorrelationRow, CorrelationTable, system_table
from mtpalette.metaeval.tasks import LanguagePairData, Task
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
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 12345,
    test: str = "permutation",
    n_permutations: int = 1000,
    alpha: float = 0.05,
    epsilon: float | None = 0.0,
    lang: str = "",
    p_convention: str = "plus-one",
) -> CorrelationTable:
    """The table of ``statistic`` for the ``metrics`` of ``lp`` (name -> (higher is better,
    signature); their scores in ``lp`` are oriented, higher is better).

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
        return _task_table(lp, statistic, level, grouping, names, metrics, gold, seed, test,
                           n_permutations, alpha, confidence)  # fmt: skip
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
        n_resamples=n_resamples,
        confidence=confidence,
        seed=seed,
        test=test,
        n_permutations=n_permutations,
        alpha=alpha,
        epsilon=epsilon,
        lang=lang,
        p_convention=p_convention,
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


def _task_table(lp, statistic, level, grouping, names, metrics, gold, seed, test,
                n_permutations, alpha, confidence):  # fmt: skip
    """A table of a statistic the engine computes as a task (SPA; PDP): its value, and the
    clusters of its own permutation test where it has one (SPA); no bootstrap interval."""
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
            str(metrics[m][1]),
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
