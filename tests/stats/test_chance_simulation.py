"""The chance simulation of tie-calibrated acc-eq / tau-eq (stats/chance.py,
stats/tie_calibration.py HumanPairs): each random metric's value equals tie_calibration's, the
bucketed search for the best threshold equals a full sort, the simulation stops at its
stated precision on the same seeded sequence, and one question is computed once."""

from __future__ import annotations

import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import given, settings

from mtpalette.stats import chance as ch
from mtpalette.stats.tie_calibration import HumanPairs, _max_prefix, tie_calibration


@settings(max_examples=60, deadline=None)
@given(
    systems=st.integers(1, 6),
    items=st.integers(2, 40),
    levels=st.sampled_from([2, 3, 6, 50]),
    unrated=st.sampled_from([0.0, 0.3]),
    metric_digits=st.sampled_from([1, 2, None]),  # rounded metrics tie
    grouping=st.sampled_from(["none", "item", "system"]),
    variant=st.sampled_from(["acc23", "23"]),
    seed=st.integers(0, 2**31 - 1),
)
def test_best_value_equals_tie_calibration(systems, items, levels, unrated, metric_digits,
                                           grouping, variant, seed):  # fmt: skip
    rng = np.random.default_rng(seed)
    human = -rng.integers(0, levels, size=(systems, items)).astype(float)
    human[rng.random(human.shape) < unrated] = np.nan
    metric = rng.random(human.shape)
    if metric_digits is not None:
        metric = metric.round(metric_digits)
    try:
        expected = tie_calibration(human, metric, grouping=grouping, variant=variant).value
    except ValueError:  # no group of two rated entries
        return
    got = HumanPairs(human, grouping=grouping).best_value(metric, variant)
    assert got == pytest.approx(expected, abs=1e-12, nan_ok=True)


def _brute_max_prefix(key, step):
    order = np.argsort(key, kind="stable")
    k, running = key[order], np.cumsum(step[order])
    last = np.r_[k[1:] != k[:-1], True]
    return max(0.0, running[last].max())


@pytest.mark.parametrize("integer_steps", [True, False])
@pytest.mark.parametrize("drift", [-0.4, 0.0, 0.4])
def test_bucketed_max_prefix_equals_a_full_sort(integer_steps, drift):
    rng = np.random.default_rng(3)
    for n in (5000, 40_000):
        key = rng.random(n).round(3)  # many equal keys: runs must stay whole
        step = rng.choice([-1.0, 0.0, 1.0], size=n, p=[0.35 - drift / 2, 0.3, 0.35 + drift / 2])
        if not integer_steps:
            step = step * rng.choice([1 / 3, 1 / 7, 1 / 11], size=n)
        assert _max_prefix(key, step) == pytest.approx(_brute_max_prefix(key, step), abs=1e-9)
    assert _max_prefix(np.zeros(5000), np.ones(5000)) == 5000.0  # one run: all or none


def test_simulation_stops_at_its_precision_on_the_fixed_sequence():
    rng = np.random.default_rng(11)
    human = -rng.integers(0, 3, size=(4, 12)).astype(float)
    adaptive = ch.acc_eq_chance(human, grouping="item", calibrated=True, tolerance=0.01, seed=4)
    n = adaptive.n_simulations
    assert ch.MIN_SIMULATIONS <= n < ch.MAX_SIMULATIONS
    assert adaptive.std_error <= 0.01 and adaptive.tolerance == 0.01
    fixed = ch.acc_eq_chance(human, grouping="item", calibrated=True, n_simulations=n, seed=4)
    assert fixed.value == adaptive.value and fixed.std_error == adaptive.std_error
    assert fixed.tolerance is None
    if n > ch.MIN_SIMULATIONS:  # one fewer was not precise enough
        fewer = ch.acc_eq_chance(human, grouping="item", calibrated=True, n_simulations=n - 1,
                                 seed=4)  # fmt: skip
        assert fewer.std_error > 0.01
    # the same question again: kept, not simulated again
    again = ch.acc_eq_chance(human, grouping="item", calibrated=True, tolerance=0.01, seed=4)
    assert again is adaptive


def test_simulated_value_equals_the_mean_of_tie_calibrated_random_metrics():
    rng = np.random.default_rng(2)
    human = -rng.choice([0, 0, 1, 5], size=(5, 30)).astype(float)
    got = ch.acc_eq_chance(human, calibrated=True, statistic="tau-eq", n_simulations=12, seed=8)
    draws = np.random.default_rng(8)
    values = [tie_calibration(human, draws.random(human.shape), variant="23").value
              for _ in range(12)]  # fmt: skip
    assert got.value == pytest.approx(np.mean(values), abs=1e-12)
    assert got.std_error == pytest.approx(np.std(values, ddof=1) / np.sqrt(12), rel=1e-9)


def test_no_pair_to_compare_gives_nan_without_simulating():
    c = ch.acc_eq_chance([[1.0, np.nan], [np.nan, 2.0]], grouping="item", calibrated=True)
    assert np.isnan(c.value) and c.n_simulations == 0


def test_refusals():
    with pytest.raises(ValueError, match="tolerance"):
        ch.acc_eq_chance([[1.0, 2.0, 2.0]], calibrated=True, tolerance=0.0)
    with pytest.raises(ValueError, match="shapes differ"):
        HumanPairs([[1.0, 2.0, 2.0]]).best_value([[1.0, 2.0]])
    with pytest.raises(ValueError, match="NaN"):
        HumanPairs([[1.0, 2.0, 2.0]]).best_value([[1.0, np.nan, 0.0]])
