"""The self-contained HTML report of one or more runs (``mtpalette report``).

Reads run files (``run.json`` of ``orange``, ``correlate``, ``agree``, ``audit``) and writes
one HTML file that works offline: styles, scripts, figures (inline SVG from matplotlib) and
data are all inside it; the page is made from a jinja2 template.

* Overview: per data set, the systems table (every metric's corpus score and rank next to the
  human score and rank, and each system-level correlation with its interval) when a
  correlation run holds the systems' scores; with several runs, one table of every metric's
  result per run and statistic (the ORANGE paper's tables 2-7 side by side).
* ORANGE runs: the paper's table (ORANGE, average rank, 95% interval, "=" for metrics
  equivalent to the best), a dot-and-whisker chart of the intervals, the ORANGE-vs-N curve
  (every metric, its own colour and marker), and the error browser: per segment, the
  references (each with its score against the others) and the candidates that outrank them
  (each with its score in each comparison, and against which reference), the words the
  metric in view matched highlighted; choose the metric and the comparison, search, filter,
  sort, page. The browser reads the run's ``errors.jsonl`` (written next to ``run.json``).
* Correlation runs: each table (statistic, 95% interval, significance cluster), a
  dot-and-whisker chart, and human-vs-metric plots: a hexbin of the segments when the run kept
  its segment scores, one labelled dot per system at system level.
* Audit runs: a readable page (the human share and a plain verdict on ORANGE's premise, one
  row per metric with intervals, baselines marked, the definitions, a chart of the
  "outranked" shares, the reference agreement).
* Other runs: their results as a collapsible JSON block.
* Every run: its command, inputs, settings, seeds and signatures as compact tables, the raw
  JSON behind a toggle.

This module puts the page together; each part is built by its own module:
:mod:`~mtpalette.reporting.overview`, :mod:`~mtpalette.reporting.orange_section`,
:mod:`~mtpalette.reporting.correlation_section`, :mod:`~mtpalette.reporting.audit_section`,
:mod:`~mtpalette.reporting.rank_section`, :mod:`~mtpalette.reporting.analyze_section` and
:mod:`~mtpalette.reporting.provenance` (signatures and inputs).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mtpalette.errors import UserInputError
from mtpalette.io.runfile import load_run
from mtpalette.io.writers import write
from mtpalette.reporting.audit_section import audit_section
from mtpalette.reporting.correlation_section import cluster_rows, correlation_section
from mtpalette.reporting.names import dataset_label, run_title
from mtpalette.reporting.orange_section import ERRORS_PER_SEGMENT, orange_rows, orange_section
from mtpalette.reporting.overview import summary_table, systems_table
from mtpalette.reporting.provenance import fmt_value, input_rows, signature_rows

#: re-exported: the command line's tables (``mtpalette.cli.tables``) import them from here
__all__ = ["build_report", "cluster_rows", "orange_rows", "write_report", "write_runs"]

TEMPLATE = "report.html.j2"
#: human score names by judgment format
HUMAN_NAMES = {"mqm": "MQM", "da": "DA", "wmt-da": "DA", "psqm": "pSQM"}


def build_report(
    runs: Sequence[tuple[dict[str, Any], Path | None]],
    *,
    title: str = "mtpalette report",
    per_segment: int = ERRORS_PER_SEGMENT,
    labels: Sequence[str] | None = None,
) -> str:
    """The report's HTML for ``(run, run_path)`` pairs; ``labels`` name each run's data set
    (default: :func:`dataset_label`)."""
    from importlib import resources

    import jinja2

    from mtpalette._version import __version__

    if labels is not None and len(labels) != len(runs):
        raise UserInputError(f"{len(labels)} label(s) for {len(runs)} run file(s)")
    sections = []
    by_dataset: dict[str, list[dict[str, Any]]] = {}
    for k, (run, path) in enumerate(runs):
        kind = run.get("kind", "")
        label = labels[k] if labels is not None else dataset_label(run, path)
        ins = run.get("inputs") or {}
        human_name = HUMAN_NAMES.get(str(ins.get("format", "")).lower(), "human")
        settings = run.get("settings") or {}
        section: dict[str, Any] = {
            "id": f"run{k + 1}",
            "kind": kind,
            "title": run_title(run, human_name),
            "dataset": label,
            "path": str(path) if path else "",
            "run": run,
            "command": " ".join(run.get("command") or []),
            "settings": [(key, fmt_value(v)) for key, v in settings.items()],
            "settings_json": json.dumps(settings, indent=1),
            "inputs": input_rows(ins),
            "inputs_json": json.dumps(ins, indent=1),
            "seeds": [(key, fmt_value(v)) for key, v in (run.get("seeds") or {}).items()],
            "seeds_json": json.dumps(run.get("seeds", {})),
            "signatures": signature_rows(run.get("signatures") or {}),
            "signatures_json": json.dumps(run.get("signatures", {}), indent=1),
            "orange": None,
            "correlation": None,
            "audit": None,
            "rank": None,
            "analyze": None,
            "spans": None,
            "results_json": None,
        }
        if kind == "orange":
            section["orange"] = orange_section(run, path, per_segment)
        elif kind == "correlate":
            section["correlation"] = correlation_section(run, human_name)
            by_dataset.setdefault(label, []).append(run)
            section["human_name"] = human_name
        elif kind == "audit":
            section["audit"] = audit_section(run)
        elif kind == "rank":
            from mtpalette.reporting.rank_section import rank_section

            section["rank"] = rank_section(run)
        elif kind == "analyze":
            from mtpalette.reporting.analyze_section import analyze_section

            section["analyze"] = analyze_section(run)
        elif kind == "spans":
            from mtpalette.reporting.spans_section import spans_section

            section["spans"] = spans_section(run)
        else:
            section["results_json"] = json.dumps(run.get("results", {}), indent=1)[:200_000]
        sections.append(section)
    systems = []
    for label, group in by_dataset.items():
        fmt = str((group[0].get("inputs") or {}).get("format", "")).lower()
        table = systems_table(group, human_name=HUMAN_NAMES.get(fmt, "human"))
        if table is not None:
            systems.append({"dataset": label, **table})
    env = jinja2.Environment(autoescape=True)
    env.filters["pct"] = lambda x, d=2: "-" if x is None else f"{100 * x:.{d}f}%"
    env.filters["num"] = lambda x, d=4: "-" if x is None or x != x else f"{x:.{d}f}"
    env.filters["score"] = _score_text
    env.filters["json_script"] = lambda obj: _json_script(obj)
    source = (resources.files("mtpalette.reporting") / "templates" / TEMPLATE).read_text("utf-8")
    template = env.from_string(source)
    return template.render(
        title=title,
        sections=sections,
        systems=systems,
        summary=summary_table(sections),
        version=__version__,
    )


def _score_text(x: Any) -> str:
    """A metric or human score with 4 significant digits after the point for small values.

    Examples
    --------
    >>> _score_text(51.12780679), _score_text(0.38637278), _score_text(-2.40529), _score_text(None)
    ('51.13', '0.3864', '-2.405', '-')
    """
    if x is None or x != x:
        return "-"
    a = abs(x)
    return f"{x:.2f}" if a >= 10 else (f"{x:.3f}" if a >= 1 else f"{x:.4f}")


def _json_script(obj: Any) -> Any:
    """JSON safe inside ``<script type="application/json">`` (no ``</`` can close it)."""
    from markupsafe import Markup

    text = json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
    text = text.replace("</", "<\\/").replace("<!--", "<\\!--")
    return Markup(text)


def write_report(
    run_paths: Sequence[str | Path],
    output: str | Path,
    *,
    title: str = "mtpalette report",
    labels: Sequence[str] | None = None,
) -> Path:
    """Read run files and write the report atomically; returns its path."""
    if not run_paths:
        raise UserInputError("give at least one run file")
    return write_runs(
        [(load_run(p), Path(p)) for p in run_paths], output, title=title, labels=labels
    )


def write_runs(
    runs: Sequence[tuple[dict[str, Any], Path | None]],
    output: str | Path,
    *,
    title: str = "mtpalette report",
    labels: Sequence[str] | None = None,
) -> Path:
    """Write the report of ``(run, run_path)`` pairs (run files read, or runs made in memory
    by :func:`mtpalette.api.report_run.report`) atomically; returns its path."""
    text = build_report(runs, title=title, labels=labels)
    out = Path(output)
    write("text", text, out)
    return out
