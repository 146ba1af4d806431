"""The report's section of a correlation run: each table (statistic, interval, significance
cluster and the p-value that made it, the baselines), a dot-and-whisker chart per table, and
human-vs-metric plots (a hexbin of the segments, one labelled dot per system)."""

from __future__ import annotations

from typing import Any

from mtpalette.reporting.baselines import baseline_notes, is_baseline, one_length_row
from mtpalette.reporting.marks import nan_if_none, p_text, tied_best
from mtpalette.reporting.plots import ci_dots_figure, responsive, segment_figure, system_figure


def _direction(higher: bool) -> str:
    return "higher is better" if higher else "lower is better"


def cluster_rows(table: dict[str, Any]) -> list[dict[str, Any]]:
    """Correlation rows with ``top`` (every metric tied with the highest value) and ``p_text``:
    the p-value that made each cluster boundary (the first metric of a cluster, against the
    metric above it that is significantly better) and, inside a cluster, the p-value against
    the cluster's first metric ("= best" in cluster 1), from the table's comparisons.

    Examples
    --------
    >>> t = {"alpha": 0.05, "rows": [
    ...     {"metric": "a", "correlation": 0.5, "cluster": 1},
    ...     {"metric": "b", "correlation": 0.5, "cluster": 1},
    ...     {"metric": "c", "correlation": 0.3, "cluster": 2}],
    ...     "comparisons": [{"better": "a", "worse": "b", "p_value": 0.5},
    ...                     {"better": "a", "worse": "c", "p_value": 0.01}]}
    >>> [(r["metric"], r["top"], r["p_text"]) for r in cluster_rows(t)]
    [('a', True, ''), ('b', True, '= best (p = 0.500 vs a)'), ('c', False, 'p = 0.010 vs a')]
    >>> for c in t["comparisons"]:
    ...     c["p_value"] = None  # no test was run
    >>> [r["p_text"] for r in cluster_rows(t)]
    ['', '', '']
    """
    rows = table["rows"]
    alpha = float(table.get("alpha", 0.05))
    top = tied_best([r.get("correlation") for r in rows], higher=True)
    tests: dict[str, list[dict[str, Any]]] = {}
    for c in table.get("comparisons") or []:
        tests.setdefault(c["worse"], []).append(c)
    first: dict[Any, str] = {}
    out = []
    for r, is_top in zip(rows, top, strict=True):
        cluster = r.get("cluster")
        head = first.setdefault(cluster, r["metric"])
        made = tests.get(r["metric"], [])
        boundary = [c for c in made if c["p_value"] is not None and c["p_value"] <= alpha]
        if boundary:  # the test that opened this cluster
            c = boundary[-1]
            text = f"{p_text(c['p_value'])} vs {c['better']}"
        else:
            c = next((c for c in made if c["better"] == head), made[0] if made else None)
            # no test run (--permutations 0, no bootstrap): no p-value to show
            untested = c is None or c["p_value"] is None
            text = "" if untested else f"{p_text(c['p_value'])} vs {c['better']}"
            if text and cluster == 1:
                text = f"= best ({text})"
        out.append({**r, "top": is_top, "p_text": text, "baseline": is_baseline(r)})
    notes = baseline_notes(table)
    return [{**r, "below_baseline": notes.get(r["metric"], "")} for r in out]


def correlation_section(run: dict[str, Any], human_name: str = "human") -> dict:
    tables = []
    seg_scores = run["results"].get("segment_scores")
    for t in run["results"]["tables"]:
        rows, length_note = one_length_row(cluster_rows(t))
        conf = 100 * t.get("confidence", 0.95)
        dots = responsive(
            ci_dots_figure,
            [r["metric"] for r in rows],
            [r["correlation"] for r in rows],
            [nan_if_none(r["low"]) for r in rows],
            [nan_if_none(r["high"]) for r in rows],
            xlabel=f"{t['statistic']} ({t.get('level', 'segment')} level), higher is better; "
            "error metrics negated",
            title=f"Correlation with {human_name} scores, {conf:g}% bootstrap intervals",
            best=[r["top"] for r in rows],
            equivalent=[r["cluster"] == 1 and not r["top"] for r in rows],
            labels=[
                r.get("label", r["metric"])
                + ("" if r["metric_higher_is_better"] else " (neg.)")
                + (" [baseline]" if r["baseline"] else "")
                for r in rows
            ],
            best_label="highest",
            equivalent_label="same cluster (not significantly worse)",
        )
        tables.append(
            {
                "table": t,
                "rows": rows,
                "dots": dots,
                "chance": t.get("chance"),
                "notes": list(baseline_notes(t).values()) + ([length_note] if length_note else []),
                # groups left out or that cannot tell metrics apart, as the text table says
                "degenerate": t.get("degenerate", {}).get("notes", []),
            }
        )
    scatters = []
    seg_table = next(
        (t for t in run["results"]["tables"] if t.get("level", "segment") == "segment"), None
    )
    sys_tables = [t for t in run["results"]["tables"] if t.get("level") == "system"]
    if seg_scores:
        human = seg_scores["human"]
        # the points are segments: the note quotes a segment-level correlation, never a
        # system-level one (which once titled 3,150 segment points)
        for name, values in seg_scores["metrics"].items():
            rows = seg_table["rows"] if seg_table is not None else []
            row = next((r for r in rows if r["metric"] == name), None)
            if row is None:
                note = f"{name}: segment scores (no segment-level correlation in this run)"
                higher = True
            else:
                higher = bool(row["metric_higher_is_better"])
                note = (
                    f"{name}, segment level: {seg_table['statistic']} "
                    f"{nan_if_none(row['correlation']):.3f}"
                    f" [{nan_if_none(row['low']):.3f}, {nan_if_none(row['high']):.3f}]"
                )
            scatters.append(
                {
                    "name": name,
                    "level": "segment",
                    "svg": responsive(
                        segment_figure,
                        human,
                        values,
                        xlabel=f"{name} segment score ({_direction(higher)})",
                        ylabel=f"{human_name} score of the translation",
                        note=note,
                    ),
                }
            )
    if sys_tables and sys_tables[0].get("system_scores"):
        ss = sys_tables[0]["system_scores"]
        for name, values in ss["metrics"].items():
            notes = []
            higher = True
            for t in sys_tables:
                row = next((r for r in t["rows"] if r["metric"] == name), None)
                if row is not None:
                    higher = bool(row["metric_higher_is_better"])
                    notes.append(
                        f"{t['statistic']} {row['correlation']:.3f} "
                        f"[{nan_if_none(row['low']):.3f}, {nan_if_none(row['high']):.3f}]"
                    )
            kind = "corpus score" if ss.get("kind") == "corpus" else "mean segment score"
            scatters.append(
                {
                    "name": name,
                    "level": "system",
                    "svg": responsive(
                        system_figure,
                        ss["human"],
                        values,
                        ss["systems"],
                        xlabel=f"{name} {kind} ({_direction(higher)})",
                        ylabel=f"{human_name} score (system mean)",
                        note=f"{name}, system level ({len(ss['systems'])} systems)\n"
                        + "; ".join(notes),
                    ),
                }
            )
    return {"tables": tables, "scatters": scatters}
