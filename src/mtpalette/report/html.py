"""The self-contained HTML report of one or more runs (``mtpalette report``).

Reads run files (``run.json`` of ``orange``, ``correlate``, ``agree``, ``audit``) and writes
one HTML file that works offline: styles, scripts, figures (inline SVG from matplotlib) and
data are all inside it; the page is made from a jinja2 template.

* ORANGE runs: the paper's table (ORANGE, average rank, 95% interval, "=" for metrics
  equivalent to the best), a CI bar chart, the ORANGE-vs-N curve, and the error browser: per
  segment, the references and the candidates that outrank them, words found in a reference
  highlighted; choose the metric, search, filter by the number of outranking candidates, sort.
  The browser reads the run's ``errors.jsonl`` (written next to ``run.json``).
* Correlation runs: each table (statistic, 95% interval, significance cluster), a CI bar
  chart, and a human-vs-metric scatter plot per metric when the run kept its segment scores
  (``correlate --report`` or ``--keep-scores``).
* Other runs: their results as a collapsible JSON block.
* Every run: its command, inputs, settings, seeds and signatures.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mtpalette.errors import UserInputError
from mtpalette.io import inputs
from mtpalette.io.runfile import atomic_writer, load_run
from mtpalette.report.plots import ci_bars, scatter, svg_of

TEMPLATE = "report.html.j2"
#: outranking candidates kept per segment and metric in the error browser
ERRORS_PER_SEGMENT = 5


def _errors_path(run: dict[str, Any], run_path: Path | None) -> Path | None:
    name = (run.get("outputs") or {}).get("errors_jsonl")
    if not name:
        return None
    p = Path(name)
    if not p.is_absolute() and not p.exists() and run_path is not None:
        p = run_path.parent / p.name
    return p if p.exists() else None


def error_browser_data(records: Sequence[dict[str, Any]], *, per_segment: int) -> dict[str, Any]:
    """Compact data of the error browser: a table of distinct texts and, per segment, each
    metric's oracle rank and outranking candidates (text ids, scores, origins).

    Examples
    --------
    >>> recs = [{"metric": "m", "segment": 0, "n_candidates": 2, "oracle_rank": 2.0,
    ...          "n_outranking": 1, "oracle_score": 0.5, "references": ["a b", "a c"],
    ...          "candidates": [{"score": 0.9, "origin": "S", "text": "a b"}]}]
    >>> d = error_browser_data(recs, per_segment=3)
    >>> d["texts"], d["metrics"], d["segments"][0]["by"]["0"]["cands"]
    (['a b', 'a c'], ['m'], [[0, 0.9, 'S']])
    """
    texts: dict[str, int] = {}
    metrics: dict[str, int] = {}
    segments: dict[int, dict[str, Any]] = {}

    def tid(text: str) -> int:
        return texts.setdefault(text, len(texts))

    for rec in records:
        m = metrics.setdefault(rec["metric"], len(metrics))
        s = int(rec["segment"])
        entry = segments.setdefault(s, {"s": s, "refs": [tid(r) for r in rec["references"]]})
        entry.setdefault("by", {})[str(m)] = {
            "rank": rec["oracle_rank"],
            "n": rec["n_candidates"],
            "out": rec["n_outranking"],
            "cands": [
                [tid(c["text"]), round(float(c["score"]), 6), c.get("origin") or ""]
                for c in rec["candidates"][:per_segment]
            ],
        }
    return {
        "texts": list(texts),
        "metrics": list(metrics),
        "segments": [segments[s] for s in sorted(segments)],
    }


def _orange_section(run: dict[str, Any], run_path: Path | None, per_segment: int) -> dict:
    table = run["results"]["table"]
    rows = table["rows"]
    names = [r["metric"] for r in rows]
    bars = ci_bars(
        names,
        [100 * r["orange"] for r in rows],
        [100 * (r["orange_low"] if r["orange_low"] is not None else float("nan")) for r in rows],
        [100 * (r["orange_high"] if r["orange_high"] is not None else float("nan")) for r in rows],
        xlabel="ORANGE (%), lower is better",
        title="ORANGE with 95% bootstrap intervals",
        highlight=[bool(r["best"]) for r in rows],
    )
    curve_svg = None
    curve = run["results"].get("curve")
    if curve:
        import numpy as np

        from mtpalette.metaeval.orange import OrangeCurve
        from mtpalette.report.curves import orange_curve_figure

        c = OrangeCurve(
            np.asarray(curve["cutoffs"]),
            {k: np.asarray(v) for k, v in curve["orange"].items()},
            {k: np.asarray(v) for k, v in curve["avg_rank"].items()},
            curve["ties"],
        )
        curve_svg = svg_of(orange_curve_figure(c))
    errors = None
    path = _errors_path(run, run_path)
    if path is not None:
        with open(path, encoding="utf-8") as fh:
            inputs.note(path)
            records = [json.loads(line) for line in fh if line.strip()]
        errors = error_browser_data(records, per_segment=per_segment)
    return {
        "table": table,
        "rows": rows,
        "bars": bars,
        "curve": curve_svg,
        "errors": errors,
        "errors_missing": path is None,
    }


def _correlation_section(run: dict[str, Any]) -> dict:
    tables = []
    seg_scores = run["results"].get("segment_scores")
    for t in run["results"]["tables"]:
        rows = t["rows"]
        bars = ci_bars(
            [r["metric"] for r in rows],
            [r["correlation"] for r in rows],
            [r["low"] if r["low"] is not None else float("nan") for r in rows],
            [r["high"] if r["high"] is not None else float("nan") for r in rows],
            xlabel=f"{t['statistic']} ({t.get('level', 'segment')} level), higher is better",
            title="Correlation with human judgments, 95% bootstrap intervals",
            highlight=[r["cluster"] == 1 for r in rows],
        )
        tables.append({"table": t, "rows": rows, "bars": bars})
    scatters = []
    if seg_scores:
        human = seg_scores["human"]
        # the points are segments: the note quotes a segment-level correlation, never a
        # system-level one (which once titled 3,150 segment points)
        seg_table = next(
            (t for t in run["results"]["tables"] if t.get("level", "segment") == "segment"), None
        )
        for name, values in seg_scores["metrics"].items():
            rows = seg_table["rows"] if seg_table is not None else []
            row = next((r for r in rows if r["metric"] == name), None)
            if row is None:
                note = f"{name}: segment scores (no segment-level correlation in this run)"
            else:
                lower = "" if row["metric_higher_is_better"] else " (lower is better)"
                note = f"{name}{lower}: segment {seg_table['statistic']} {row['correlation']:.3f}"
            scatters.append({"name": name, "svg": scatter(human, values, name=name, note=note)})
    return {"tables": tables, "scatters": scatters}


def build_report(
    runs: Sequence[tuple[dict[str, Any], Path | None]],
    *,
    title: str = "mtpalette report",
    per_segment: int = ERRORS_PER_SEGMENT,
) -> str:
    """The report's HTML for ``(run, run_path)`` pairs."""
    from importlib import resources

    import jinja2

    from mtpalette import __version__

    sections = []
    for k, (run, path) in enumerate(runs):
        kind = run.get("kind", "")
        section: dict[str, Any] = {
            "id": f"run{k + 1}",
            "kind": kind,
            "path": str(path) if path else "",
            "run": run,
            "command": " ".join(run.get("command") or []),
            "settings_json": json.dumps(run.get("settings", {}), indent=1),
            "inputs_json": json.dumps(run.get("inputs", {}), indent=1),
            "seeds_json": json.dumps(run.get("seeds", {})),
            "signatures": run.get("signatures", {}),
            "orange": None,
            "correlation": None,
            "results_json": None,
        }
        if kind == "orange":
            section["orange"] = _orange_section(run, path, per_segment)
        elif kind == "correlate":
            section["correlation"] = _correlation_section(run)
        else:
            section["results_json"] = json.dumps(run.get("results", {}), indent=1)[:200_000]
        sections.append(section)
    env = jinja2.Environment(autoescape=True)
    env.filters["pct"] = lambda x, d=2: "-" if x is None else f"{100 * x:.{d}f}%"
    env.filters["num"] = lambda x, d=4: "-" if x is None or x != x else f"{x:.{d}f}"
    env.filters["json_script"] = lambda obj: _json_script(obj)
    source = (resources.files("mtpalette.report") / "templates" / TEMPLATE).read_text("utf-8")
    template = env.from_string(source)
    return template.render(title=title, sections=sections, version=__version__)


def _json_script(obj: Any) -> Any:
    """JSON safe inside ``<script type="application/json">`` (no ``</`` can close it)."""
    from markupsafe import Markup

    text = json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
    text = text.replace("</", "<\\/").replace("<!--", "<\\!--")
    return Markup(text)


def write_report(
    run_paths: Sequence[str | Path], output: str | Path, *, title: str = "mtpalette report"
) -> Path:
    """Read run files and write the report atomically; returns its path."""
    if not run_paths:
        raise UserInputError("give at least one run file")
    runs = [(load_run(p), Path(p)) for p in run_paths]
    text = build_report(runs, title=title)
    out = Path(output)
    with atomic_writer(out) as fh:
        fh.write(text)
    return out
