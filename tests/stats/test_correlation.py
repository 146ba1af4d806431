"""Correlation statistics: parity with scipy.stats and with mt-metrics-eval's own outputs
(tests/data/mtme/golden.json, produced by running mt-metrics-eval), hand-checked pairwise
accuracy and WMT taus, and the compiled pair counting against its slow twin."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st
from real_data import mqm_ted_human

from mtpalette.stats.correlation import correlation, pearson, rr_kendall, spearman
from mtpalette.stats.grouping import make_groups, system_means
from mtpalette.stats.kendall import (
    _pair_counts_matrix,
    group_pair_counts,
    inversions_per_element,
    inversions_slow,
    kendall,
    kendall_like,
    pair_counts,
    pairwise_accuracy,
)
from mtpalette.stats.tie_calibration import tie_calibration

GOLDEN = json.loads((Path(__file__).parents[1] / "data" / "mtme" / "golden.json").read_text())
DATASETS = ["synthetic", "noisy_ties", "mqm_zhen", "mqm_zhen_rounded"]
GROUPING = {"none": "none", "item": "item", "sys": "system"}


def _matrix(rows):
    return np.array([[np.nan if v is None else v for v in row] for row in rows], dtype=float)


def _case(name):
    d = GOLDEN[name]
    gold = d["gold"] if "gold" in d else _mqm_gold(GOLDEN["mqm_zhen"]["systems"])
    return _matrix(gold), _matrix(d["metric"]), d


def _mqm_gold(systems: list[str], segments: int = 30) -> list[list[float | None]]:
    """The real MQM scores of the golden file's ``mqm_zhen`` cases (not stored there: read
    from the shared data as tests/data/mtme/make_golden.py read them; a skip without)."""
    return mqm_ted_human("zhen", systems, segments)


# ---------------------------------------------------------------------------- scipy parity
@pytest.mark.parametrize("n", [2, 3, 10, 64, 65, 300, 2000])
def test_scipy_parity_with_ties(n):
    rng = np.random.default_rng(n)
    g = rng.integers(0, 6, n).astype(float)
    m = np.round(0.4 * g + rng.normal(size=n), 1)
    if n == 2:
        m = np.array([0.0, 1.0])
    assert pearson(g, m) == pytest.approx(scipy.stats.pearsonr(g, m).statistic, abs=1e-12)
    assert spearman(g, m) == pytest.approx(scipy.stats.spearmanr(g, m).statistic, abs=1e-12)
    assert kendall(g, m) == pytest.approx(scipy.stats.kendalltau(g, m).statistic, abs=1e-12)
    assert kendall(g, m, "c") == pytest.approx(
        scipy.stats.kendalltau(g, m, variant="c").statistic, abs=1e-12
    )


def test_scipy_parity_on_real_mqm_scores():
    # real MQM scores (heavily tied) against real sentence chrF: every rated entry
    h, m, _ = _case("mqm_zhen")
    ok = ~np.isnan(h)
    g, x = h[ok], m[ok]
    assert g.size == 13 * 30  # every system rated on every segment
    assert pearson(g, x) == pytest.approx(scipy.stats.pearsonr(g, x).statistic, abs=1e-12)
    assert spearman(g, x) == pytest.approx(scipy.stats.spearmanr(g, x).statistic, abs=1e-12)
    for variant in ("b", "c"):
        ref = scipy.stats.kendalltau(g, x, variant=variant).statistic
        assert kendall(g, x, variant) == pytest.approx(ref, abs=1e-12)


def test_constant_vectors_are_undefined():
    assert math.isnan(pearson([1, 1, 1], [1, 2, 3]))
    assert math.isnan(spearman([1, 2, 3], [4, 4, 4]))
    assert math.isnan(kendall([1, 1, 1], [1, 2, 3]))
    assert math.isnan(kendall([1, 2, 3], [1, 1, 1], "c"))
    assert kendall([1, 1, 1], [1, 2, 3], "acc23") == 0.0  # 3 pairs tied in gold only


# ------------------------------------------------------------------ mt-metrics-eval parity
KEYS = {
    "pearson": ("pearson", {}),
    "spearman": ("spearman", {}),
    "kendall_b_scipy": ("kendall-b", {}),
    "kendall_c_scipy": ("kendall-c", {}),
    "variants_b": ("kendall-b", {}),
    "variants_c": ("kendall-c", {}),
    "variants_23": ("tau-eq", {"epsilon": 0.0}),
    "variants_acc23": ("acc-eq", {"epsilon": 0.0}),
    "variants_b_eps": ("kendall-b", {"epsilon": "eps"}),
    "variants_23_eps": ("tau-eq", {"epsilon": "eps"}),
    "variants_acc23_eps": ("acc-eq", {"epsilon": "eps"}),
    "kendall_like": ("kendall-like", {"threshold": "like"}),
}


@pytest.mark.parametrize("name", DATASETS)
@pytest.mark.parametrize("by", ["none", "item", "sys"])
def test_mtme_golden_values(name, by):
    h, m, d = _case(name)
    expected = d["values"][by]
    n_checked = 0
    for key, (stat, opts) in KEYS.items():
        kw = dict(opts)
        if kw.get("epsilon") == "eps":
            kw["epsilon"] = d["epsilon"]
        if kw.get("threshold") == "like":
            kw["threshold"] = d["like_threshold"]
        got = correlation(h, m, stat, grouping=GROUPING[by], **kw)
        assert got == pytest.approx(expected[key], abs=1e-12), key
        n_checked += 1
    assert n_checked == len(KEYS)


@pytest.mark.parametrize("name", DATASETS)
@pytest.mark.parametrize("by", ["none", "item", "sys"])
@pytest.mark.parametrize("variant", ["acc23", "23"])
def test_mtme_tie_calibration(name, by, variant):
    h, m, d = _case(name)
    value, threshold = d["values"][by][f"opt_{variant}"]
    mine = tie_calibration(h, m, grouping=GROUPING[by], variant=variant)
    assert mine.value == pytest.approx(value, abs=1e-12)
    # both thresholds reach the best value (plateaus may make them differ)
    stat = "acc-eq" if variant == "acc23" else "tau-eq"
    assert correlation(h, m, stat, grouping=GROUPING[by], epsilon=threshold) == pytest.approx(
        value, abs=1e-12
    )
    assert correlation(h, m, stat, grouping=GROUPING[by], epsilon=mine.epsilon) == (
        pytest.approx(mine.value, abs=1e-12)
    )
    # never worse than no calibration
    assert mine.value >= correlation(h, m, stat, grouping=GROUPING[by]) - 1e-12


def test_tie_calibration_picks_a_positive_threshold_where_it_helps():
    h, m, d = _case("noisy_ties")
    tc = tie_calibration(h, m, grouping="none")
    assert d["values"]["none"]["opt_acc23"][1] == pytest.approx(0.52)
    assert tc.epsilon == pytest.approx(0.52) and tc.value > correlation(h, m, "acc-eq")


@pytest.mark.parametrize("name", DATASETS)
def test_mtme_system_level(name):
    h, m, d = _case(name)
    sysd = d["values"]["system"]
    g = system_means(h)
    x = system_means(np.where(np.isnan(h), np.nan, m))
    np.testing.assert_allclose(g, sysd["gold"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(x, sysd["metric"], rtol=0, atol=1e-12)
    assert pearson(g, x) == pytest.approx(sysd["pearson"], abs=1e-12)
    assert kendall(g, x) == pytest.approx(sysd["kendall_b"], abs=1e-12)
    assert pairwise_accuracy(g, x) == pytest.approx(sysd["pairwise_accuracy"], abs=1e-12)
    assert correlation(g, x, "pairwise-accuracy") == pytest.approx(sysd["pairwise_accuracy"])
    assert tie_calibration(g, x).value == pytest.approx(sysd["opt_acc23"][0], abs=1e-12)


# ------------------------------------------------------------------------ hand-checked
def test_pairwise_accuracy_by_hand():
    # systems A..E; human: A > B > C > D = E; metric: A > C > B > D, E above D
    human = [5.0, 4.0, 3.0, 1.0, 1.0]
    metric = [0.9, 0.5, 0.7, 0.1, 0.2]
    # 10 pairs: AB AC AD AE agree; BC disagrees; BD BE CD CE agree; DE: human tie, metric
    # not -> disagree. 8 / 10.
    assert pairwise_accuracy(human, metric) == 0.8
    # a tie in both counts as agreement
    assert pairwise_accuracy([1.0, 1.0, 2.0], [3.0, 3.0, 4.0]) == 1.0


def test_kendall_like_and_rr_by_hand():
    # DARR: pairs (0,30) and (0,100) and (30,100) all differ by >= 25; the metric ties the
    # first (discordant for WMT), orders the two others like humans
    assert kendall_like([0, 30, 100], [0.1, 0.1, 0.9], threshold=25) == pytest.approx(1 / 3)
    # a threshold of 50 keeps (0,100) and (30,100): both concordant
    assert kendall_like([0, 30, 100], [0.1, 0.1, 0.9], threshold=50) == 1.0
    # relative rankings: 2 concordant, 1 discordant, 1 metric tie
    better, worse = [0.9, 0.8, 0.1, 0.5], [0.1, 0.2, 0.3, 0.5]
    assert rr_kendall(better, worse) == pytest.approx((2 - 2) / 4)
    assert rr_kendall(better, worse, metric_ties="exclude") == pytest.approx(1 / 3)


def test_grouping_by_hand():
    h = [[1.0, 2.0, 3.0], [2.0, 2.0, 1.0]]
    m = [[0.1, 0.3, 0.2], [0.2, 0.2, 0.1]]
    # per system: tau-b of (1,2,3)/(.1,.3,.2) = 1/3; of (2,2,1)/(.2,.2,.1) = 1
    assert correlation(h, m, "kendall", grouping="system") == pytest.approx(2 / 3)
    # per item: each item has 2 systems: (1,2)/(.1,.2) = 1, (2,2) constant -> skipped,
    # (3,1)/(.2,.1) = 1
    assert correlation(h, m, "kendall", grouping="item") == pytest.approx(1.0)
    g = make_groups(h, m, "item")
    assert g.labels.tolist() == [0, 1, 2] and g.sizes.tolist() == [2, 2, 2]


def test_unrated_entries_are_dropped_and_nan_metric_is_an_error():
    h = np.array([[1.0, np.nan, 3.0, 4.0]])
    m = np.array([[1.0, 99.0, 2.0, 5.0]])
    assert correlation(h, m, "pearson") == pytest.approx(pearson([1, 3, 4], [1, 2, 5]))
    with pytest.raises(ValueError, match="NaN"):
        correlation(h, np.array([[1.0, 2.0, np.nan, 1.0]]), "pearson")


def test_unknown_statistic_and_grouping():
    with pytest.raises(ValueError, match="unknown statistic"):
        correlation([1, 2], [1, 2], "tau-x")
    with pytest.raises(ValueError, match="unknown grouping"):
        correlation([1, 2], [1, 2], grouping="doc")


# ------------------------------------------------------------------ kernels vs slow twins
@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=0, max_size=80))
def test_inversions_kernel_equals_slow_twin(values):
    r = np.array(values, dtype=float)
    assert inversions_per_element(r).tolist() == inversions_slow(r).tolist()


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 4), st.integers(0, 5)), min_size=2, max_size=150),
    st.sampled_from([0.0, 0.0, 1.0, 2.5]),
)
def test_pair_counts_equal_slow_twin(pairs, epsilon):
    g = np.array([p[0] for p in pairs], dtype=float)
    m = np.array([p[1] for p in pairs], dtype=float) * 0.5
    got = pair_counts(g, m, epsilon=epsilon).as_array()
    assert got.tolist() == _pair_counts_matrix(g, m, epsilon).tolist()


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["none", "item", "system"]))
def test_grouped_counts_equal_slow_twin(seed, grouping):
    rng = np.random.default_rng(seed)
    S, n = int(rng.integers(1, 5)), int(rng.integers(2, 90))
    h = rng.integers(0, 3, (S, n)).astype(float)
    h[rng.random((S, n)) < 0.1] = np.nan
    m = rng.integers(0, 4, (S, n)).astype(float)
    groups = make_groups(h, m, grouping)
    got = group_pair_counts(groups)
    want = [_pair_counts_matrix(*groups.group(k), 0.0).tolist() for k in range(groups.n_groups)]
    assert got.tolist() == want
