"""An mt-metrics-eval folder built from real MQM data (``tests/real_data.py``), read with
:func:`mtpalette.io.mtme.read_mtme`: every statistic mtpalette computes on it equals what
mt-metrics-eval itself computes (golden.json, made by scripts/mtme_folder.py), and the system
selection is MTME's."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from real_data import mtme_folder

from mtpalette.api import corpus_score, sentence_scores
from mtpalette.io.mtme import read_mtme
from mtpalette.io.mtme_write import write_mtme_scores
from mtpalette.stats.correlation import correlation
from mtpalette.stats.kendall import pairwise_accuracy
from mtpalette.stats.tie_calibration import tie_calibration

FOLDER = Path(__file__).resolve().parents[1] / "data" / "mtme_folder"
ROOT = mtme_folder()
GOLDEN = json.loads((FOLDER / "golden.json").read_text())
CONFIGS = GOLDEN["configs"]


def _load(c: dict):
    return read_mtme(
        ROOT,
        c["lp"],
        level=c["level"],
        ref=None if c["ref"] == c["std_ref"] else c["ref"],
        include_refs=c["include_human"],
        outliers=c["outliers"] or None,
        metrics="all",
    )


def _statistics(level: str, h: np.ndarray, m: np.ndarray) -> dict:
    if level == "sys":
        h, m = h[:, 0], m[:, 0]
        return {
            "pearson": correlation(h, m, "pearson"),
            "kendall": correlation(h, m, "kendall"),
            "kendall_b": correlation(h, m, "kendall-b"),
            "pairwise_accuracy": pairwise_accuracy(h, m),
        }
    tc = tie_calibration(h, m, grouping="item", variant="acc23")
    return {
        "pearson_none": correlation(h, m, "pearson"),
        "pearson_item": correlation(h, m, "pearson", grouping="item"),
        "kendall_b_none": correlation(h, m, "kendall"),
        "kendall_b_item": correlation(h, m, "kendall", grouping="item"),
        "acc_eq_item_calibrated": [tc.value, tc.epsilon],
    }


def _id(c: dict) -> str:
    return f"{c['name']}-{c['lp']}-{c['level']}"


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_statistics_equal_mt_metrics_eval(config):
    s = _load(config)
    assert s.ref == config["ref"]
    assert sorted(s.human_systems) == config["human_sys_names"]
    assert sorted(s.metric_names()) == sorted(config["metrics"])
    checked = 0
    for name, expected in config["metrics"].items():
        assert len(s.systems) == expected["num_sys"]
        got = _statistics(config["level"], s.human_matrix(), s.metric_matrix(name))
        for key, value in got.items():
            want = expected[key]
            if key == "acc_eq_item_calibrated":
                assert value[0] == pytest.approx(want[0], abs=1e-9), (name, key)
                assert value[1] == pytest.approx(want[1], abs=1e-9), (name, "epsilon")
            else:
                assert value == pytest.approx(want, abs=1e-9), (name, key)
            checked += 1
    assert checked >= 12


def test_systems_left_out_as_mt_metrics_eval_does():
    zhen = read_mtme(ROOT, "zh-en")
    assert zhen.human == "mqm" and zhen.ref == "refB"  # MTME's meta_info for wmt21.tedtalks
    assert zhen.left_out == {
        "metricsystem5": "no mqm seg scores",
        "refA": "a reference; include it with include_refs",
        "refB": "the reference in use",
    }
    assert len(zhen.systems) == 12 and "metricsystem5" in zhen.outputs
    line = zhen.left_out_line()
    assert line.startswith("wmt21.tedtalks zh-en: 12 of 15 systems evaluated; left out: ")
    assert "\n" not in line
    ende = read_mtme(ROOT, "en-de", outliers=["Online-W"], include_outliers=True)
    assert "Online-W" in ende.systems and ende.ref == "refA"


def test_stored_metric_selection_by_name_glob_and_ref():
    s = read_mtme(ROOT, "zh-en", metrics=["chrF", "sent*"])
    assert sorted(s.metrics) == ["chrF-refB", "sentBLEU-refB"]  # the standard reference's
    s = read_mtme(ROOT, "zh-en", ref="refA", metrics=["chrF"])
    assert sorted(s.metrics) == ["chrF-refA"] and "refB" not in s.systems
    assert s.metric("chrF").paths["seg"].endswith("metric-scores/zh-en/chrF-refA.seg.score")
    first = (ROOT / "metric-scores" / "zh-en" / "chrF-refA.seg.score").read_text().split()[:2]
    row = s.systems.index(first[0])
    assert s.metric_matrix("chrF-refA", "seg")[row, 0] == float(first[1])
    f = s.score_file("chrF")
    assert f.get(first[0], 1) == float(first[1]) and f.level == "seg"
    assert len(f.scores) == len(s.systems) * s.n_segments
    assert read_mtme(ROOT, "zh-en").metrics == {}  # none unless asked for


def test_exported_metric_reads_back_unchanged(tmp_path):
    """mtpalette's ROUGE-L, computed now, equals what the folder stores (written by
    write_mtme_scores) and what a fresh export reads back, at every level."""
    s = read_mtme(ROOT, "en-de", metrics=["mtpalette-rougeL"], judged_only=False)
    stored = s.metric("mtpalette-rougeL")
    assert sorted(stored.scores) == ["doc", "domain", "seg", "sys"]
    ref = s.reference()
    system = s.systems[0]
    seg = sentence_scores(s.texts([system])[0], [ref], "rouge-l")["rouge-l"]
    np.testing.assert_array_equal(stored.scores["seg"][system], seg)
    assert (
        stored.scores["sys"][system][0]
        == corpus_score(s.texts([system])[0], [ref], "rouge-l")[0].value
    )
    # write every level into a copy of the folder, read back bit for bit
    import shutil

    copy = tmp_path / "wmt21.tedtalks"
    shutil.copytree(ROOT, copy)
    levels = {
        "seg": {x: stored.scores["seg"][x] for x in s.systems},
        "doc": {x: stored.scores["doc"][x] for x in s.systems},
        "domain": {x: {"ted": stored.scores["domain"][x][0]} for x in s.systems},
        "sys": {x: stored.scores["sys"][x][0] for x in s.systems},
    }
    paths = write_mtme_scores(copy, "en-de", "again", levels, ref="refA")
    assert sorted(p.name for p in paths) == [
        "again-refA.doc.score",
        "again-refA.domain.score",
        "again-refA.seg.score",
        "again-refA.sys.score",
    ]
    back = read_mtme(copy, "en-de", metrics=["again"], judged_only=False).metric("again")
    for level in levels:
        for x in s.systems:
            np.testing.assert_array_equal(back.scores[level][x], stored.scores[level][x])


def test_mtpalette_chrf_from_the_texts_gives_mt_metrics_eval_values():
    """mtpalette.correlate on what read_mtme reads: its own chrF of the texts (equal to the
    stored sacrebleu chrF) correlates with MQM as MTME's chrF-refB does."""
    import mtpalette

    golden = {(c["name"], c["lp"], c["level"]): c for c in CONFIGS}
    seg = read_mtme(ROOT, "zh-en", metrics=["chrF"])
    systems, refs, human = seg.correlate_inputs()
    assert list(systems) == seg.systems and refs == [seg.reference()]
    want = golden[("std", "zh-en", "seg")]["metrics"]["chrF-refB"]
    t = mtpalette.correlate(
        systems, refs, human, "chrf", statistic="pearson", grouping="item", n_resamples=0
    )
    assert t.row("chrf").value == pytest.approx(want["pearson_item"], abs=1e-9)
    stored = seg.stored_scores()["chrF-refB"]
    assert sorted(stored) == seg.systems and len(stored[seg.systems[0]]) == seg.n_segments
    sys_level = read_mtme(ROOT, "zh-en", level="sys")
    systems, refs, human = sys_level.correlate_inputs()
    assert all(isinstance(v, float) for v in human.values())
    want = golden[("std", "zh-en", "sys")]["metrics"]["chrF-refB"]
    t = mtpalette.correlate(systems, refs, human, "chrf", statistic="pearson", n_resamples=0)
    assert t.row("chrf").value == pytest.approx(want["pearson"], abs=1e-9)
