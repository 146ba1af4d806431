"""Report sections built from run dictionaries."""

from mtpalette.report.html import (
    _correlation_section,
    error_browser_data,
    summary_table,
    systems_table,
)

ROW = {"metric": "wer", "correlation": 0.5, "low": 0.4, "high": 0.6, "cluster": 1,
       "metric_higher_is_better": False}  # fmt: skip
SYSTEMS = {"systems": ["A", "B", "C"], "kind": "corpus", "human": [-2.0, -1.0, -3.0],
           "n_rated": [3, 3, 3], "metrics": {"wer": [0.3, 0.2, 0.5]}}  # fmt: skip


def _run(level, **extra):
    table = {"statistic": "pearson", "level": level, "rows": [ROW], **extra}
    return {
        "results": {
            "tables": [table],
            "segment_scores": {"human": [0.0, -5.0, -1.0], "metrics": {"wer": [0.2, 0.9, 0.4]}},
        }
    }


def test_segment_scatter_never_quotes_a_system_level_correlation():
    """Once a system-level run titled its segment points with the system-level value."""
    (system,) = _correlation_section(_run("system"))["scatters"]
    assert "no segment-level correlation" in system["svg"]
    (segment,) = _correlation_section(_run("segment"))["scatters"]
    assert "segment level: pearson 0.500 [0.400, 0.600]" in segment["svg"]
    assert "wer segment score (lower is better)" in segment["svg"]
    assert "negated" not in segment["svg"]


def test_system_level_plots_one_labelled_dot_per_system():
    (seg, sys) = _correlation_section(_run("system", system_scores=SYSTEMS), "MQM")["scatters"]
    assert (seg["level"], sys["level"]) == ("segment", "system")
    assert sys["svg"].count('id="sys-') == 3 and all(f">{s}<" in sys["svg"] for s in "ABC")
    assert "wer corpus score (lower is better)" in sys["svg"]
    assert "MQM score (system mean)" in sys["svg"]


def test_systems_table_ranks_by_human_score_and_metric_direction():
    st = systems_table([_run("system", system_scores=SYSTEMS)], human_name="MQM")
    assert [(r["system"], r["human_rank"], r["cells"]) for r in st["rows"]] == [
        ("B", 1, [(0.2, 1)]),
        ("A", 2, [(0.3, 2)]),
        ("C", 3, [(0.5, 3)]),  # WER: lower is better
    ]
    assert st["correlations"] == [
        {"statistic": "pearson", "confidence": 0.95, "cells": [(0.5, 0.4, 0.6, 1)]}
    ]
    assert systems_table([_run("segment")]) is None  # no systems' scores: no table


def test_summary_table_has_a_column_per_run_and_table():
    orange_rows = [
        {"metric": "wer", "orange": 0.6512, "best": True, "equivalent_to_best": False},
        {"metric": "bleus:4", "orange": 0.66, "best": False, "equivalent_to_best": True},
    ]
    corr = _correlation_section(_run("system"))
    sections = [
        {"id": "run1", "dataset": "ted", "orange": {"rows": orange_rows}, "correlation": None},
        {"id": "run2", "dataset": "news", "orange": None, "correlation": corr},
    ]
    t = summary_table(sections)
    assert [(c["dataset"], c["title"]) for c in t["columns"]] == [
        ("ted", "ORANGE (%) ↓"),
        ("news", "pearson (system)"),
    ]
    assert t["rows"] == [
        {"metric": "wer", "cells": [("65.12", "best"), ("0.5000", "best")]},
        {"metric": "bleus:4", "cells": [("66.00", "equiv"), ("", "")]},
    ]
    assert summary_table(sections[:1]) is None


def test_error_browser_keeps_every_candidate_and_the_references_scores():
    cands = [{"scores": [0.9 - k / 100, 0.8], "origin": f"S{k}", "text": f"t{k}"} for k in range(8)]
    rec = {"metric": "bleus:4", "segment": 3, "n_candidates": 13, "oracle_rank": 9.5,
           "n_outranking": 12, "n_comparisons": 2, "oracle": "leave-one-out",
           "reference_scores": [0.5, 0.6], "references": ["r a", "r b"],
           "candidates": cands}  # fmt: skip
    d = error_browser_data([rec], per_segment=5, kept=8, directions={"bleus:4": True})
    entry = d["segments"][0]["by"]["0"]
    assert len(entry["c"]) == 8 and entry["out"] == 12 and entry["rs"] == [0.5, 0.6]
    assert d["modes"] == [["ngram", 4]] and d["higher"] == [True] and d["kept"] == 8
    assert d["origins"] == [f"S{k}" for k in range(8)]
