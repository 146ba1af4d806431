"""Chance levels against brute force: every permutation where that is small enough, seeded
simulations of random metrics otherwise."""

import itertools

import numpy as np
import pytest

from mtpalette.stats.chance import (
    acc_eq_chance,
    chance_level,
    pairwise_accuracy_chance,
    spa_chance,
)
from mtpalette.stats.correlation import correlation
from mtpalette.stats.kendall import kendall, pairwise_accuracy


def test_pairwise_accuracy_chance_is_the_mean_over_every_ranking():
    human = np.array([3.0, 1.0, 1.0, 2.0, 5.0, 5.0])  # two tied pairs of 15
    every = [pairwise_accuracy(human, np.array(p, float)) for p in itertools.permutations(range(6))]
    assert pairwise_accuracy_chance(human).value == pytest.approx(np.mean(every), abs=1e-12)
    assert pairwise_accuracy_chance(human).value == pytest.approx(13 / 30)
    assert pairwise_accuracy_chance([1.0, 2.0, 3.0, 4.0]).value == 0.5


def _item_brute_force(human, variant):
    """Mean over items of the mean over every ranking of the item's rated systems."""
    values = []
    for col in human.T:
        g = col[~np.isnan(col)]
        if g.size < 2:
            continue
        perms = itertools.permutations(range(g.size))
        values.append(np.mean([kendall(g, np.array(p, float), variant) for p in perms]))
    return float(np.mean(values))


@pytest.mark.parametrize(("statistic", "variant"), [("acc-eq", "acc23"), ("tau-eq", "23")])
def test_uncalibrated_chance_is_exact_per_group(statistic, variant):
    rng = np.random.default_rng(3)
    human = rng.integers(-3, 1, size=(5, 12)).astype(float)  # MQM-like: many ties
    human[rng.random(human.shape) < 0.15] = np.nan
    exact = acc_eq_chance(human, grouping="item", statistic=statistic)
    assert exact.method == "exact"
    assert exact.value == pytest.approx(_item_brute_force(human, variant), abs=1e-12)
    # no grouping: one group, checked by simulation (4 standard errors)
    sims = [
        correlation(human, rng.random(human.shape), statistic, epsilon=0.0) for _ in range(4000)
    ]
    flat = acc_eq_chance(human, statistic=statistic).value
    assert flat == pytest.approx(np.mean(sims), abs=4 * np.std(sims) / np.sqrt(len(sims)))


def _calibrated_brute_force(human, metric, grouping):
    """Try every threshold (0 and every pair's metric difference) with the plain statistic."""
    m = np.where(np.isnan(human), np.nan, metric)
    diffs = [0.0]
    for group in m.T if grouping == "item" else [m.ravel()]:
        g = group[~np.isnan(group)]
        diffs += [abs(a - b) for a, b in itertools.combinations(g, 2)]
    return max(correlation(human, metric, "acc-eq", grouping=grouping, epsilon=e) for e in diffs)


@pytest.mark.parametrize("grouping", ["item", "none"])
def test_calibrated_chance_equals_brute_force_on_the_same_random_metrics(grouping):
    rng = np.random.default_rng(5)
    human = rng.integers(-2, 1, size=(4, 6)).astype(float)
    human[0, 1] = np.nan
    got = acc_eq_chance(human, grouping=grouping, calibrated=True, n_simulations=30, seed=9)
    draws = np.random.default_rng(9)
    brute = [_calibrated_brute_force(human, draws.random(human.shape), grouping) for _ in range(30)]
    assert got.method == "simulation" and got.n_simulations == 30 and got.seed == 9
    assert got.value == pytest.approx(np.mean(brute), abs=1e-9)
    assert got.std_error == pytest.approx(np.std(brute, ddof=1) / np.sqrt(30), rel=1e-9)
    # fitting the threshold to the humans' ties lifts the floor above the plain chance level
    assert got.value > acc_eq_chance(human, grouping=grouping).value


def _permutation_p_values(scores, rng, k=400):
    """mt-metrics-eval's paired permutation p-values (pce.py), written out slowly."""
    S, n = scores.shape
    p = np.full((S, S), np.nan)
    signs = rng.choice([-1.0, 1.0], size=(k, n))
    for i in range(S):
        for j in range(i + 1, S):
            d = scores[i] - scores[j]
            p[i, j] = np.mean(signs @ d >= d.sum())
    return p


def test_spa_chance_matches_random_metrics_through_the_permutation_test():
    rng = np.random.default_rng(11)
    quality = np.array([0.0, 0.05, 0.3, 0.31, 1.0])
    human = quality[:, None] + rng.normal(size=(5, 80))
    p_human = _permutation_p_values(human, rng)
    iu = np.triu_indices(5, 1)
    spa = []
    for _ in range(300):  # metrics that know nothing: iid segment scores
        p_metric = _permutation_p_values(rng.normal(size=(5, 80)), rng, k=200)
        spa.append(1 - np.mean(np.abs(p_human - p_metric)[iu]))
    chance = spa_chance(p_human).value
    assert chance == pytest.approx(np.mean(spa), abs=4 * np.std(spa) / np.sqrt(len(spa)) + 0.003)
    assert 0.5 <= chance <= 0.75


def test_spa_chance_bounds_and_checks():
    certain = np.triu(np.ones((4, 4)), 1)  # humans sure of every pair
    assert spa_chance(certain).value == 0.5
    undecided = np.full((3, 3), 0.5)
    assert spa_chance(undecided).value == 0.75
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        spa_chance(np.array([[np.nan, 1.5], [np.nan, np.nan]]))


def test_chance_level_dispatches_like_the_correlation_tables():
    human = [[1.0, 1.0, 2.0], [0.0, 3.0, 3.0]]
    assert chance_level(human, "pearson") is None
    assert chance_level(human, "acc-eq").method == "exact"
    assert chance_level(human, "acc-eq", epsilon=None, n_simulations=5).method == "simulation"
    pa = chance_level([[1.0, 2.0, 2.0]], "pairwise-accuracy")
    assert pa.value == pytest.approx(1 / 3)
    with pytest.raises(ValueError, match="epsilon"):
        chance_level(human, "acc-eq", epsilon=0.5)
