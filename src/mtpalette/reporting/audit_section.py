"""The report's section of an audit run (``mtpalette audit --json``): the human share with a
plain verdict on ORANGE's premise, one row per metric with intervals, baselines marked, the
definitions, a chart of the "outranked" shares and the reference agreement."""

from __future__ import annotations

from typing import Any

from mtpalette.reporting.baselines import is_baseline
from mtpalette.reporting.marks import nan_if_none
from mtpalette.reporting.names import agreement_named, ref_paths
from mtpalette.reporting.plots import ci_dots_figure, responsive

#: the audit's shares, in table order, and their column titles
AUDIT_COLUMNS = ("outranked", "outranking_candidates", "humans_agree", "humans_prefer")


def audit_verdict(human: dict[str, Any] | None) -> str:
    """One plain sentence on ORANGE's premise from the human share (some rated system at
    least as good as the held-out reference).

    Examples
    --------
    >>> audit_verdict({"value": 0.989, "low": 0.977, "high": 0.994})[:40]
    'The premise does not hold here: in most '
    >>> audit_verdict({"value": 0.2, "low": 0.1, "high": 0.3})[:34]
    'The premise mostly holds: humans r'
    >>> audit_verdict(None)
    ''
    """
    if not human or human.get("value") is None:
        return ""
    if human["value"] >= 0.5:
        return (
            "The premise does not hold here: in most cases a system is as good as the "
            "reference, so ORANGE rewards metrics for ranking good systems below poorer "
            "references; read ORANGE with care. Where a metric outranks the reference and "
            "humans agree (humans ≥ high), the metric is right and the premise wrong."
        )
    return (
        "The premise mostly holds: humans rate the reference better than every system in "
        "most cases. Where a metric outranks the reference and humans do not agree (humans ≥ "
        "low), the metric, not the premise, is at fault."
    )


def audit_section(run: dict[str, Any]) -> dict[str, Any]:
    """The audit as a page: the human share and its verdict, one row per metric, the
    definitions, a chart of the "outranked" shares, and the reference agreement."""
    a = (run.get("results") or {}).get("audit") or {}
    rows = [{**r, "baseline": is_baseline(r)} for r in a.get("rows", [])]
    human = a.get("human_outranked")
    has_human = human is not None or any(r.get("humans_agree") for r in rows)
    columns = AUDIT_COLUMNS if has_human else AUDIT_COLUMNS[:2]
    dots = None
    shown = [r for r in rows if r.get("outranked") and r["outranked"].get("value") is not None]
    if shown:
        dots = responsive(
            ci_dots_figure,
            [r["metric"] for r in shown],
            [100 * r["outranked"]["value"] for r in shown],
            [100 * nan_if_none(r["outranked"].get("low")) for r in shown],
            [100 * nan_if_none(r["outranked"].get("high")) for r in shown],
            xlabel="held-out references outranked by some candidate (%)",
            title=f"Outranked, {100 * a.get('confidence', 0.95):g}% bootstrap intervals",
            labels=[
                r["metric"] + ("" if r.get("higher_is_better", True) else " ↓")
                + (" [baseline]" if r["baseline"] else "")
                for r in shown
            ],
            legend=False,
        )  # fmt: skip
    names = {
        "outranked": "outranked",
        "outranking_candidates": "outranking candidates",
        "humans_agree": "humans ≥",
        "humans_prefer": "humans >",
        "human_outranked": "humans: some system ≥ (>)",
    }
    definitions = [(names.get(k, k), v) for k, v in (a.get("definitions") or {}).items()]
    return {
        "n_segments": a.get("n_segments"),
        "n_refs": a.get("n_refs"),
        "n_candidates": a.get("n_candidates"),
        "references": a.get("references") or [],
        "human": human if has_human else None,
        "human_strict": a.get("human_outranked_strict"),
        "verdict": audit_verdict(human),
        "rows": rows,
        "columns": columns,
        "has_baseline": any(r["baseline"] for r in rows),
        "bootstrap": a.get("bootstrap"),
        "seed": a.get("seed"),
        "confidence": a.get("confidence", 0.95),
        "definitions": definitions,
        "dots": dots,
        "agreement": agreement_named(
            (run.get("results") or {}).get("reference_agreement"), ref_paths(run)
        ),
    }
