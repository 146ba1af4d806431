"""Metrics against the best trivial baseline: the best is picked by correlation, each metric
gets the clusters' paired test against it, and the flagged ones get a sentence."""

import numpy as np
import pytest

from mtpalette.stats.baselines import compare_with_best_baseline
from mtpalette.stats.catalogue import sig_diff
from mtpalette.stats.correlation import correlation
from mtpalette.stats.significance import bootstrap_correlations


@pytest.fixture(scope="module")
def judged():
    """Segment scores of 4 systems x 150 items where human scores fall with length."""
    rng = np.random.default_rng(2)
    length = rng.integers(3, 45, size=(4, 150)).astype(float)
    human = -0.1 * length + rng.normal(size=(4, 150))
    human[rng.random(human.shape) < 0.1] = np.nan
    metrics = {
        "sharp": human + 0.3 * rng.normal(size=human.shape),
        "noisy": human + 8.0 * rng.normal(size=human.shape),
        "inverse": -human,
    }
    baselines = {"len": length, "-len": -length, "noise": rng.normal(size=human.shape)}
    return human, metrics, baselines


@pytest.mark.parametrize("test", ["permutation", "bootstrap"])
def test_only_the_metrics_above_the_best_baseline_pass(judged, test):
    human, metrics, baselines = judged
    r = compare_with_best_baseline(human, metrics, baselines, n_resamples=300, seed=4, test=test)
    assert r.best == "-len"
    assert r.baselines["-len"] == pytest.approx(correlation(human, -baselines["len"]))
    assert [c.metric for c in r.comparisons] == ["sharp", "noisy", "inverse"]
    assert [c.beats for c in r.comparisons] == [True, False, False]
    assert r.comparisons[0].sentence == "" and r.comparisons[0].p_value <= 0.05
    assert [c.metric for c in r.flagged()] == ["noisy", "inverse"]
    inverse = r.sentences()[1]
    assert inverse.startswith("inverse (Pearson -")
    assert "below the trivial baseline -len" in inverse and f"one-sided {test} test p = " in inverse
    assert r.to_dict()["comparisons"][1]["beats_baseline"] is False


def test_the_p_values_are_the_clusters_tests(judged):
    human, metrics, baselines = judged
    rng = np.random.default_rng(8)
    r = compare_with_best_baseline(human, metrics, {"-len": -baselines["len"]},
                                   n_resamples=200, seed=rng)  # fmt: skip
    again = np.random.default_rng(8)
    res = bootstrap_correlations(human, [*metrics.values(), -baselines["len"]], n_resamples=0,
                                 seed=again)  # fmt: skip
    assert res.values[0] == pytest.approx(r.comparisons[0].value)
    for c, m in zip(r.comparisons, metrics.values(), strict=True):
        p = sig_diff("pearson", human, m, -baselines["len"], k=200, seed=again, plus_one=True)
        assert c.p_value == p.p_value
    boot = compare_with_best_baseline(human, metrics, baselines, n_resamples=300, seed=4,
                                      test="bootstrap", grouping="item")  # fmt: skip
    res = bootstrap_correlations(human, [*metrics.values(), *baselines.values()],
                                 grouping="item", n_resamples=300, seed=4)  # fmt: skip
    best = 3 + list(baselines).index(boot.best)
    assert [c.p_value for c in boot.comparisons] == [res.paired_p_value(j, best) for j in range(3)]


def test_bad_calls_are_refused(judged):
    human, metrics, baselines = judged
    with pytest.raises(ValueError, match="no baseline"):
        compare_with_best_baseline(human, metrics, {})
    with pytest.raises(ValueError, match="unknown test"):
        compare_with_best_baseline(human, metrics, baselines, test="williams")
