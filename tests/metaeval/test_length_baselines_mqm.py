"""The figures of issue 27 and ``docs/baselines.md``, from mtpalette's own library calls on the
WMT21 TED zh-en MQM data (6,877 rated translations of 13 systems; tests/real_data.py).

Without grouping, minus the hypothesis's word count correlates with the MQM score at Pearson
0.33 (Kendall 0.24), above ROUGE-W-1.2 (0.26 / 0.21), the best metric of the demo: MQM counts
errors and longer segments have more. Grouped by item (WMT's segment-level practice: the
systems' translations of one source segment are compared with each other), the source's
length is held fixed and the baseline drops below the metric.
"""

import pytest
from real_data import mqm_ted

from mtpalette.io.judgments_read import read_judgments
from mtpalette.io.plain import read_lines
from mtpalette.metaeval.correlation import correlation_table
from mtpalette.metaeval.segments import SegmentData, score_segments
from mtpalette.metrics.registry import parse_specs
from mtpalette.stats.baselines import compare_with_best_baseline
from mtpalette.stats.chance import acc_eq_chance

SPECS = ["len:sign=-1", "len", "lendiff", "rouge-w:1.2", "bleus:4", "chrf"]


@pytest.fixture(scope="module")
def task():
    paths = mqm_ted("zhen")
    judged = read_judgments(paths["judgments"])
    data = SegmentData.from_judgments(
        judged,
        {p.stem: read_lines(p) for p in paths["systems"]},
        [read_lines(p) for p in paths["refs"]],
        seg_ids=read_lines(paths["seg_ids"]),
    )
    scores = {s.name: s for s in score_segments(data, parse_specs(SPECS))}
    return data, scores


def _table(task, statistic, grouping):
    data, scores = task
    t = correlation_table(
        data.pair_data(list(scores.values())), statistic=statistic, grouping=grouping,
        n_resamples=0, test="none",
    )  # fmt: skip
    return {r.metric: r.value for r in t.rows}


def test_the_bundled_task_has_6877_rated_translations(task):
    data, _ = task
    assert data.n_rated == 6877 and data.n_systems == 13


def test_without_grouping_minus_length_beats_every_metric(task):
    pearson = _table(task, "pearson", "none")
    kendall = _table(task, "kendall", "none")
    assert pearson["len:sign=-1"] == pytest.approx(0.33, abs=0.005)
    assert kendall["len:sign=-1"] == pytest.approx(0.24, abs=0.005)
    assert pearson["rouge-w:1.2"] == pytest.approx(0.26, abs=0.005)
    assert kendall["rouge-w:1.2"] == pytest.approx(0.21, abs=0.005)
    assert pearson["len"] == pytest.approx(-pearson["len:sign=-1"])
    best_metric = max(v for k, v in pearson.items() if not k.startswith("len"))
    assert pearson["len:sign=-1"] > best_metric


def test_with_item_grouping_the_length_baseline_drops(task):
    flat = _table(task, "pearson", "none")
    item = _table(task, "pearson", "item")
    assert item["len:sign=-1"] < flat["len:sign=-1"] - 0.1
    assert item["rouge-w:1.2"] > item["len:sign=-1"]
    # the values docs/baselines.md quotes
    assert item["len:sign=-1"] == pytest.approx(-0.009, abs=0.002)
    assert item["lendiff"] == pytest.approx(0.050, abs=0.002)
    assert item["rouge-w:1.2"] == pytest.approx(0.078, abs=0.002)
    assert item["chrf"] == pytest.approx(0.097, abs=0.002)


def test_the_metrics_are_flagged_against_the_best_baseline(task):
    data, scores = task
    metrics = {k: scores[k].oriented() for k in ("rouge-w:1.2", "bleus:4", "chrf")}
    baselines = {k: scores[k].oriented() for k in ("len:sign=-1", "len", "lendiff")}
    flat = compare_with_best_baseline(
        data.human, metrics, baselines, "pearson", n_resamples=200, seed=1
    )
    assert flat.best == "len:sign=-1"
    assert [c.beats for c in flat.comparisons] == [False, False, False]
    assert flat.sentences()[0].startswith(
        "rouge-w:1.2 (Pearson 0.256) is below the trivial baseline len:sign=-1"
    )
    item = compare_with_best_baseline(
        data.human, metrics, baselines, "pearson", grouping="item", n_resamples=200, seed=1
    )
    # by item, the length difference to the reference is the best baseline; ROUGE-W is not
    # significantly above it (p = 0.065), BLEU-S4 and chrF are
    assert item.best == "lendiff"
    assert [c.beats for c in item.comparisons] == [False, True, True]


def test_calibrated_acc_eq_chance_on_mqm_is_neither_a_third_nor_uncalibrated(task):
    data, _ = task
    plain = acc_eq_chance(data.human, grouping="item")
    calibrated = acc_eq_chance(data.human, grouping="item", calibrated=True, n_simulations=40)
    assert calibrated.value > plain.value + 5 * calibrated.std_error
    assert abs(calibrated.value - 1 / 3) > 5 * calibrated.std_error
    assert plain.value == pytest.approx(0.292, abs=0.001)
    assert calibrated.value == pytest.approx(0.416, abs=0.001)
