"""The report's overview: per data set, the systems table (every metric's score and rank
beside the human score and rank, and each system-level correlation), and with several runs one
table of every metric's result per run and table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def _ranks(values: Sequence[float | None], higher: bool) -> list[int | None]:
    """Competition ranks (1 = best; ties share the best rank; None stays None).

    Examples
    --------
    >>> _ranks([0.3, 0.5, 0.3, None], True)
    [2, 1, 2, None]
    """
    ok = [v for v in values if v is not None and v == v]
    out: list[int | None] = []
    for v in values:
        if v is None or v != v:
            out.append(None)
        else:
            out.append(1 + sum(1 for w in ok if (w > v if higher else w < v)))
    return out


def systems_table(
    runs: Sequence[dict[str, Any]], *, human_name: str = "human"
) -> dict[str, Any] | None:
    """The systems table of one data set from its correlation runs: per system its human
    score and rank and each metric's score and rank; below, each system-level correlation
    with its interval. None when no table holds the systems' scores.

    Examples
    --------
    >>> t = {"level": "system", "statistic": "pearson", "rows": [{"metric": "wer",
    ...      "correlation": 0.5, "low": 0.1, "high": 0.8, "cluster": 1,
    ...      "metric_higher_is_better": False}], "system_scores": {"systems": ["A", "B"],
    ...      "kind": "corpus", "human": [-1.0, -2.0], "metrics": {"wer": [0.3, 0.4]}}}
    >>> st = systems_table([{"results": {"tables": [t]}}])
    >>> [(r["system"], r["human_rank"], r["cells"][0]) for r in st["rows"]]
    [('A', 1, (0.3, 1)), ('B', 2, (0.4, 2))]
    >>> st["correlations"][0]["cells"], st["baseline"]
    ([(0.5, 0.1, 0.8, 1)], [False])
    """
    scores = None
    tables = [t for run in runs for t in run["results"].get("tables", [])]
    for t in sorted(tables, key=lambda t: t.get("level") != "system"):
        if t.get("system_scores"):
            scores = t["system_scores"]
            break
    if scores is None:
        return None
    metrics = list(scores["metrics"])
    higher: dict[str, bool] = {}
    baselines = set()  # the length baselines: shown as baselines, never as the best metric
    for t in tables:
        for r in t["rows"]:
            higher.setdefault(r["metric"], bool(r["metric_higher_is_better"]))
            if r.get("baseline"):
                baselines.add(r["metric"])
    human = scores["human"]
    human_rank = _ranks(human, True)
    ranks = {m: _ranks(scores["metrics"][m], higher.get(m, True)) for m in metrics}
    order = sorted(range(len(human)), key=lambda i: -(human[i] if human[i] is not None else -1e300))
    rows = [
        {
            "system": scores["systems"][i],
            "human": human[i],
            "human_rank": human_rank[i],
            "n_rated": (scores.get("n_rated") or [None] * len(human))[i],
            "cells": [(scores["metrics"][m][i], ranks[m][i]) for m in metrics],
        }
        for i in order
    ]
    correlations = []
    for t in tables:
        if t.get("level") != "system":
            continue
        by = {r["metric"]: r for r in t["rows"]}
        cells = []
        for m in metrics:
            r = by.get(m)
            cells.append(
                None if r is None else (r["correlation"], r["low"], r["high"], r["cluster"])
            )
        correlations.append(
            {"statistic": t["statistic"], "confidence": t.get("confidence", 0.95), "cells": cells}
        )
    return {
        "metrics": metrics,
        "higher": [higher.get(m, True) for m in metrics],
        "baseline": [m in baselines for m in metrics],
        "kind": scores.get("kind", "corpus"),
        "human_name": human_name,
        "rows": rows,
        "correlations": correlations,
    }


def summary_table(sections: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """Every metric's result in each run and table, one column each (the ORANGE paper's
    tables 2-7 side by side): ORANGE columns mark the best and its equivalents, correlation
    columns the first significance cluster; ``groups``: the run of each span of columns (its
    header). None with fewer than two columns."""
    columns: list[dict[str, Any]] = []
    for sec in sections:
        label = sec["dataset"]
        if sec["orange"]:
            rows = sec["orange"]["rows"]
            columns.append(
                {
                    "title": "ORANGE (%) ↓",
                    "dataset": label,
                    "run": sec["id"],
                    "cells": {
                        r["metric"]: (
                            f"{100 * r['orange']:.2f}",
                            "best" if r["best"] else ("equiv" if r["equivalent_to_best"] else ""),
                        )
                        for r in rows
                    },
                }
            )
        if sec["correlation"]:
            for item in sec["correlation"]["tables"]:
                t = item["table"]
                columns.append(
                    {
                        "title": f"{t['statistic']} ({t.get('level', 'segment')})",
                        "dataset": label,
                        "run": sec["id"],
                        "cells": {
                            r["metric"]: (
                                f"{r['correlation']:.4f}" if r["correlation"] is not None else "-",
                                ("best" if r["top"] else "equiv") if r["cluster"] == 1 else "",
                            )
                            for r in item["rows"]
                        },
                    }
                )
    if len(columns) < 2:
        return None
    metrics: list[str] = []
    for col in columns:
        for m in col["cells"]:
            if m not in metrics:
                metrics.append(m)
    groups: list[dict[str, Any]] = []
    for col in columns:  # one header over the consecutive columns of a run
        if groups and groups[-1]["run"] == col["run"]:
            groups[-1]["span"] += 1
        else:
            groups.append({"run": col["run"], "dataset": col["dataset"], "span": 1})
    return {
        "columns": columns,
        "groups": groups,
        "rows": [
            {"metric": m, "cells": [col["cells"].get(m, ("", "")) for col in columns]}
            for m in metrics
        ],
    }
