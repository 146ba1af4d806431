"""Bootstrap over rows: determinism, agreement of the fast mean path with a generic statistic,
coverage of the 95% interval and the size of the paired test, checked on simulated data."""

from __future__ import annotations

import numpy as np
import pytest

from mtpalette.stats.bootstrap import (
    bootstrap_ci,
    bootstrap_cis,
    bootstrap_distribution,
    compare_with_best,
    paired_bootstrap,
    resolve_seed,
)


def test_same_seed_same_interval_other_seed_other_interval():
    x = np.random.default_rng(0).exponential(size=80)
    a = bootstrap_ci(x, n_resamples=400, seed=11)
    b = bootstrap_ci(x, n_resamples=400, seed=11)
    c = bootstrap_ci(x, n_resamples=400, seed=12)
    assert a == b
    assert (a.low, a.high) != (c.low, c.high)
    assert a.seed == 11 and a.n == 80 and a.n_resamples == 400 and a.method == "percentile"


def test_fresh_seed_is_recorded_and_reproduces():
    x = np.arange(30.0)
    a = bootstrap_ci(x, n_resamples=200, seed=None)
    assert isinstance(a.seed, int)
    assert bootstrap_ci(x, n_resamples=200, seed=a.seed) == a


def test_generator_seed_records_none():
    ci = bootstrap_ci(np.arange(10.0), n_resamples=50, seed=np.random.default_rng(1))
    assert ci.seed is None
    with pytest.raises(ValueError):
        resolve_seed(-1)


def test_fast_mean_equals_generic_statistic():
    x = np.random.default_rng(3).normal(size=(57, 3))
    fast = bootstrap_distribution(x, n_resamples=300, rng=np.random.default_rng(5))
    slow = bootstrap_distribution(
        x, lambda s: s.mean(axis=0), n_resamples=300, rng=np.random.default_rng(5)
    )
    assert fast.shape == (300, 3)
    np.testing.assert_allclose(fast, slow, rtol=1e-12, atol=1e-12)


def test_fast_path_batches_do_not_change_results():
    # n large enough for several batches of resamples (2e6 entries per batch)
    x = np.random.default_rng(4).random(30_000)
    d = bootstrap_distribution(x, n_resamples=150, rng=np.random.default_rng(9))
    rng = np.random.default_rng(9)
    idx = np.concatenate(
        [
            rng.integers(0, 30_000, size=(66, 30_000)),
            rng.integers(0, 30_000, size=(66, 30_000)),
            rng.integers(0, 30_000, size=(18, 30_000)),
        ]
    )
    np.testing.assert_allclose(d, x[idx].mean(axis=1), rtol=1e-10)


def test_columns_share_resamples():
    x = np.random.default_rng(1).normal(size=(40, 2))
    both = bootstrap_cis(x, n_resamples=300, seed=2)
    first = bootstrap_ci(x[:, 0], n_resamples=300, seed=2)
    assert both[0].low == pytest.approx(first.low, abs=1e-12)
    assert both[0].high == pytest.approx(first.high, abs=1e-12)


def test_basic_interval_mirrors_percentile():
    x = np.random.default_rng(2).exponential(size=50)
    p = bootstrap_ci(x, n_resamples=500, seed=4)
    b = bootstrap_ci(x, n_resamples=500, seed=4, method="basic")
    assert b.low == pytest.approx(2 * p.value - p.high)
    assert b.high == pytest.approx(2 * p.value - p.low)


def test_bad_arguments():
    with pytest.raises(ValueError, match="at least one row"):
        bootstrap_ci([], n_resamples=10, seed=1)
    with pytest.raises(ValueError, match="confidence"):
        bootstrap_ci([1.0, 2.0], confidence=95, seed=1)
    with pytest.raises(ValueError, match="method"):
        bootstrap_ci([1.0, 2.0], method="bca", seed=1)
    with pytest.raises(ValueError, match="1-D"):
        bootstrap_ci(np.ones((3, 2)), seed=1)


def test_ci_coverage_on_simulated_data():
    # 400 data sets of 60 draws from N(3, 2^2); the 95% percentile interval of the mean should
    # cover 3 in about 95% of them (slightly less: the percentile interval is a little narrow
    # for n = 60). Binomial standard error for 400 trials: ~1.1%.
    rng = np.random.default_rng(20240601)
    covered = 0
    trials = 400
    for _ in range(trials):
        x = rng.normal(3.0, 2.0, size=60)
        ci = bootstrap_ci(x, n_resamples=500, seed=rng)
        covered += ci.low <= 3.0 <= ci.high
    assert 0.91 <= covered / trials <= 0.98


def test_ci_coverage_of_a_generic_statistic():
    # the median of a skewed distribution (exponential, median ln 2), 200 data sets of 80
    rng = np.random.default_rng(7)
    covered = 0
    trials = 200
    for _ in range(trials):
        x = rng.exponential(size=80)
        ci = bootstrap_ci(x, np.median, n_resamples=300, seed=rng)
        covered += ci.low <= np.log(2) <= ci.high
    assert 0.88 <= covered / trials <= 0.99


def test_paired_test_size_and_power():
    # Under the null (two columns with the same distribution, paired noise) the 95% paired test
    # rejects about 5% of the time; with a real shift it rejects nearly always.
    rng = np.random.default_rng(99)
    trials = 300
    false_alarms = 0
    detections = 0
    for _ in range(trials):
        base = rng.normal(size=100)
        a = base + rng.normal(scale=0.5, size=100)
        b = base + rng.normal(scale=0.5, size=100)
        false_alarms += paired_bootstrap(a, b, n_resamples=400, seed=rng).significant
        detections += paired_bootstrap(a + 0.4, b, n_resamples=400, seed=rng).significant
    assert 0.02 <= false_alarms / trials <= 0.09
    assert detections / trials >= 0.95


def test_paired_diff_p_value_and_generic_statistic():
    a = np.arange(20.0)
    same = paired_bootstrap(a, a, n_resamples=200, seed=1)
    assert same.diff == 0 and same.p_value == 1.0 and not same.significant
    med = paired_bootstrap(a, a - 5, np.median, n_resamples=200, seed=1)
    assert med.diff == 5.0 and med.low == 5.0 and med.high == 5.0 and med.significant
    assert med.p_value == pytest.approx(1 / 201)
    with pytest.raises(ValueError, match="same shape"):
        paired_bootstrap(a, a[:5], seed=1)


def test_compare_with_best_direction_and_marks():
    rng = np.random.default_rng(0)
    base = rng.normal(size=300)
    x = np.column_stack([base + 1.0, base + 0.002 * rng.normal(size=300), base])
    low = compare_with_best(x, higher_is_better=False, n_resamples=400, seed=3)
    assert low.best in (1, 2)
    assert low.equivalent.tolist() == [False, True, True]
    assert low.diffs[0].low > 0 and low.diffs[low.best].diff == 0.0
    high = compare_with_best(x, higher_is_better=True, n_resamples=400, seed=3)
    assert high.best == 0 and high.equivalent.tolist() == [True, False, False]
