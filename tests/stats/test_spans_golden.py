"""``wmt25`` and ``wmt23-qe`` equal the organisers' scorers to 1e-9 on project-written spans.

The golden files come from ``scripts/spans_golden.py``, which ran wmt25-mteval's
``scoring_esa.py`` (d1f6ab9) and qe-eval-scripts' ``wmt23/task2_evaluate.py`` (b7cc5e5),
unmodified, on the inputs stored beside their outputs (three language pairs, two systems,
five annotators including the two trivial baselines).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mtpalette.stats.span_scores import aggregate_counts
from mtpalette.stats.spans import span_counts

DATA = Path(__file__).resolve().parents[1] / "data" / "spans"


def _load(name: str) -> dict:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def _spans(rows: list[list]) -> list[list[tuple]]:
    return [[(s, e, sev) for s, e, sev in seg] for seg in rows]


def _assert_equal(scores, theirs: dict) -> None:
    """Every pair's precision, recall and F1 equal to the scorer's to 1e-9."""
    assert scores.groups == sorted(theirs)
    for i, lp in enumerate(scores.groups):
        for name, ours in (("precision", scores.precision), ("recall", scores.recall)):
            assert ours[i] == pytest.approx(theirs[lp][name], abs=1e-9), (lp, name)
        assert scores.f1[i] == pytest.approx(theirs[lp]["f1"], abs=1e-9), (lp, "f1")


WMT25 = _load("golden_wmt25.json")
QE23 = _load("golden_wmt23_qe.json")


@pytest.mark.parametrize("annotator", sorted(WMT25["outputs"]))
def test_wmt25_equals_scoring_esa(annotator):
    inputs = WMT25["inputs"]
    lengths = [len(s["text"]) for s in inputs["segments"]]
    lps = [s["lp"] for s in inputs["segments"]]
    counts = span_counts(
        "wmt25", lengths, _spans(inputs["gold"]), _spans(inputs["annotators"][annotator])
    )
    scores = aggregate_counts(counts, lps)
    _assert_equal(scores, WMT25["outputs"][annotator]["per_lp"])
    # their avg lines: avg_f1 is the mean F1; avg_rec prints the mean precision and avg_prec
    # the mean recall (swapped labels); ours are labelled as what they are
    lines = dict(x.split(": ") for x in WMT25["outputs"][annotator]["scores_txt"].splitlines())
    assert lines["avg_f1"] == f"{scores.mean[2]:.4}"
    assert lines["avg_rec"] == f"{scores.mean[0]:.4}"
    assert lines["avg_prec"] == f"{scores.mean[1]:.4}"


@pytest.mark.parametrize("annotator", sorted(QE23["outputs"]))
def test_wmt23_qe_equals_task2_evaluate(annotator):
    inputs = QE23["inputs"]
    segs = inputs["segments"]
    left_out = {(lp, i) for lp, i in inputs["hallucinated"].items()}
    keep = [(s["lp"], q) not in left_out for s, q in zip(segs, inputs["qe_ids"], strict=True)]
    assert 0 < sum(keep) < len(keep)
    pick = [k for k, kept in enumerate(keep) if kept]
    lengths = [len(segs[k]["text"]) for k in pick]
    gold = [_spans(inputs["gold"])[k] for k in pick]
    pred = [_spans(inputs["annotators"][annotator])[k] for k in pick]
    counts = span_counts("wmt23-qe", lengths, gold, pred)
    scores = aggregate_counts(counts, [segs[k]["lp"] for k in pick])
    _assert_equal(scores, QE23["outputs"][annotator]["per_lp"])
    lines = dict(x.split(": ") for x in QE23["outputs"][annotator]["scores_txt"].splitlines())
    assert lines["avg_f1"] == f"{scores.mean[2]:.4}"
    assert lines["avg_prec"] == f"{scores.mean[0]:.4}"  # correctly labelled in WMT23


def test_the_golden_inputs_hold_the_edge_cases():
    inputs = WMT25["inputs"]
    gold = inputs["gold"]
    sevs = {sev for seg in gold for _, _, sev in seg}
    assert {"minor", "major", "critical", "undecided", "omission"} <= sevs
    assert any(not seg for seg in gold)  # empty gold
    assert any(not seg for seg in inputs["annotators"]["near"])  # empty prediction
    assert any(s == e for seg in gold for s, e, sev in seg if sev != "omission")  # insertion
    assert len({s["lp"] for s in inputs["segments"]}) >= 2
    assert len(WMT25["outputs"]) >= 3 and len(QE23["outputs"]) >= 3


def test_the_baselines_score_as_the_scorer_says():
    """'none': precision 1 by convention, recall 0, F1 0 in every pair (WMT25)."""
    for lp, v in WMT25["outputs"]["none"]["per_lp"].items():
        assert (v["precision"], v["recall"], v["f1"]) == (1.0, 0.0, 0.0), lp
    assert np.isclose(
        np.mean([v["f1"] for v in WMT25["outputs"]["all"]["per_lp"].values()]),
        float(
            dict(x.split(": ") for x in WMT25["outputs"]["all"]["scores_txt"].splitlines())[
                "avg_f1"
            ]
        ),
        atol=5e-4,
    )
