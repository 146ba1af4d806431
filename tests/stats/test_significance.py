"""Resampling of correlations: determinism with a seed, fast paths equal to materialised
resamples, interval coverage on simulated data, permutation test behaviour, Williams' test
and clusters against mt-metrics-eval's outputs."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from mtpalette.stats.averaging import williams_sig_diff, williams_test
from mtpalette.stats.catalogue import sig_diff
from mtpalette.stats.correlation import correlation
from mtpalette.stats.significance import (
    bootstrap_correlations,
    bootstrap_system_correlations,
    counts_of,
    index_batches,
    significance_clusters,
)
from mtpalette.stats.tie_calibration import tie_calibration

GOLDEN = json.loads((Path(__file__).parents[1] / "data" / "mtme" / "golden.json").read_text())


def _data(seed=0, S=5, n=80, noise=(0.7, 1.5)):
    rng = np.random.default_rng(seed)
    h = np.round(rng.normal(size=(S, n)), 1)
    h[rng.random((S, n)) < 0.05] = np.nan
    metrics = [np.round(np.nan_to_num(h) + s * rng.normal(size=(S, n)), 1) for s in noise]
    return h, metrics


def test_same_seed_same_intervals_other_seed_other():
    h, ms = _data()
    a = bootstrap_correlations(h, ms, "kendall", n_resamples=150, seed=4)
    b = bootstrap_correlations(h, ms, "kendall", n_resamples=150, seed=4)
    c = bootstrap_correlations(h, ms, "kendall", n_resamples=150, seed=5)
    assert a.cis == b.cis and np.array_equal(a.dist, b.dist)
    assert a.cis != c.cis
    assert a.seed == 4 and a.cis[0].n == 80 and a.cis[0].n_resamples == 150
    fresh = bootstrap_correlations(h, ms, "pearson", n_resamples=50, seed=None)
    again = bootstrap_correlations(h, ms, "pearson", n_resamples=50, seed=fresh.seed)
    assert isinstance(fresh.seed, int) and fresh.cis == again.cis


@pytest.mark.parametrize(
    "statistic,grouping,epsilon",
    [
        ("pearson", "none", 0.0),
        ("pearson", "system", 0.0),
        ("pearson", "item", 0.0),
        ("kendall", "item", 0.0),
        ("kendall-like", "item", 0.0),
        ("acc-eq", "item", None),
        ("spearman", "none", 0.0),
        ("kendall", "system", 0.0),
    ],
)
def test_fast_paths_equal_materialised_resamples(statistic, grouping, epsilon):
    h, ms = _data(1, S=4, n=40)
    res = bootstrap_correlations(
        h,
        ms,
        statistic,
        grouping=grouping,
        n_resamples=30,
        seed=9,
        epsilon=epsilon,
        threshold=1.0,
    )
    rng = np.random.default_rng(9)
    [idx] = list(index_batches(40, 30, rng))
    for r in range(30):
        cols = idx[r]
        for j, m in enumerate(ms):
            if epsilon is None:
                want = tie_calibration(h[:, cols], m[:, cols], grouping=grouping).value
            else:
                want = correlation(
                    h[:, cols], m[:, cols], statistic, grouping=grouping, threshold=1.0
                )
            got = res.dist[r, j]
            assert (math.isnan(want) and math.isnan(got)) or got == pytest.approx(want, abs=1e-9), (
                r,
                j,
            )


def test_counts_of():
    idx = np.array([[0, 0, 2], [1, 2, 2]])
    assert counts_of(idx, 3).tolist() == [[2, 0, 1], [0, 1, 2]]


def _coverage(statistic, grouping, truth, reps=120, n=120, S=1, rho=0.5):
    rng = np.random.default_rng(2024)
    cover = 0
    for _ in range(reps):
        x = rng.normal(size=(S, n))
        y = rho * x + math.sqrt(1 - rho**2) * rng.normal(size=(S, n))
        res = bootstrap_correlations(
            x, [y], statistic, grouping=grouping, n_resamples=300, seed=int(rng.integers(1 << 30))
        )
        cover += res.cis[0].low <= truth <= res.cis[0].high
    return cover / reps


def test_interval_coverage_pearson():
    # bivariate normal with rho = 0.5, n = 120: the 95% percentile interval covers rho in
    # about 95% of samples (binomial sd with 120 reps: 2%)
    assert 0.88 <= _coverage("pearson", "none", 0.5) <= 0.995


def test_interval_coverage_kendall_by_item():
    # 6 "systems" per item, 120 items; the mean of per-item taus is unbiased for the
    # population tau = 2/pi * arcsin(rho)
    truth = 2 / math.pi * math.asin(0.5)
    assert 0.88 <= _coverage("kendall", "item", truth, S=6) <= 0.995


def test_system_level_resamples_items_and_uses_supplied_scores():
    h, ms = _data(3, S=6, n=60)
    calls = []

    def corpus(counts):
        calls.append(counts.shape)
        masked = np.where(np.isnan(h), 0.0, ms[0])
        return (counts @ masked.T) / counts.sum(axis=1, keepdims=True)  # weighted sums

    res = bootstrap_correlations(
        h, ms, "pearson", level="system", system_scores=[corpus, None], n_resamples=40, seed=2
    )
    assert calls[0] == (1, 60) and sum(c[0] for c in calls[1:]) == 40
    assert res.dist.shape == (40, 2) and res.unit == "items"
    with pytest.raises(ValueError, match="no grouping"):
        bootstrap_correlations(h, ms, "pearson", level="system", grouping="item")


def test_system_resampling_excludes_copies_from_pairs():
    h = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    m = np.array([1.0, 3.0, 2.0, 4.0, 5.0])
    res = bootstrap_system_correlations(h, [m, m], "pairwise-accuracy", n_resamples=200, seed=1)
    assert res.values[0] == pytest.approx(0.9)  # one of ten pairs swapped
    assert res.unit == "systems" and np.array_equal(res.dist[:, 0], res.dist[:, 1])
    # a pair of two copies of one system never counts: accuracy stays in [0, 1] and is 1
    # whenever systems 2 and 3 are not both drawn
    assert res.dist.min() >= 0.0 and res.dist.max() == 1.0


def _perm(h, a, b, statistic="pearson", *, n_permutations, seed, grouping="none"):
    """correlate's permutation test: the one engine, independent draws, (count + 1) / (k + 1)"""
    rng = np.random.default_rng(seed) if isinstance(seed, int) else seed
    return sig_diff(statistic, h, a, b, grouping=grouping, k=n_permutations, seed=rng,
                    plus_one=True)  # fmt: skip


def test_permutation_test():
    rng = np.random.default_rng(0)
    h = rng.normal(size=(4, 100))
    good = h + 0.5 * rng.normal(size=h.shape)
    bad = h + 2.0 * rng.normal(size=h.shape)
    assert _perm(h, good, bad, n_permutations=200, seed=1).p_value == 1 / 201
    # one permutation cannot be significant (it once gave p = 0)
    assert _perm(h, good, bad, n_permutations=1, seed=1).p_value == 0.5
    assert _perm(h, bad, good, n_permutations=200, seed=1).p_value == 1.0
    r = _perm(h, good, bad, "kendall", grouping="item", n_permutations=100, seed=3)
    assert r.p_value < 0.05 and r.delta > 0
    same = _perm(h, good, good, n_permutations=100, seed=1)
    assert same.delta == 0.0 and same.p_value == 1.0  # every permutation ties the delta
    a = _perm(h, good, bad, "spearman", n_permutations=50, seed=7)
    b = _perm(h, good, bad, "spearman", n_permutations=50, seed=7)
    assert (a.p_value, a.delta) == (b.p_value, b.delta)


def test_permutation_test_size_under_the_null():
    # two metrics equally noisy: p-values are roughly uniform, so p < 0.1 in ~10% of cases
    rng = np.random.default_rng(11)
    small = 0
    reps = 60
    for _ in range(reps):
        h = rng.normal(size=(1, 60))
        a = h + rng.normal(size=h.shape)
        b = h + rng.normal(size=h.shape)
        small += _perm(h, a, b, n_permutations=100, seed=rng).p_value < 0.1
    assert small / reps <= 0.25


def test_williams_golden():
    for case in GOLDEN["williams"]:
        args = (case["r12"], case["r13"], case["r23"], case["n"])
        assert williams_test(*args) == pytest.approx(case["p_one_sided"], rel=1e-12)
        assert williams_test(*args, one_sided=False) == pytest.approx(
            case["p_two_sided"], rel=1e-12
        )


def test_williams_on_data():
    h, (a, b) = _data(5, S=1, n=200, noise=(0.5, 1.5))
    p, ra, rb = williams_sig_diff(h, a, b)
    assert ra > rb and p < 0.01


def test_clusters_golden():
    g = GOLDEN["assign_ranks"]
    sig = np.array(g["sig_matrix"])
    values = [0.9, 0.8, 0.7, 0.6, 0.5]  # already sorted, as AssignRanks expects
    c = significance_clusters(values, lambda i, j: sig[i, j], alpha=g["pval"])
    assert c.rank == g["ranks"]
    # only the comparisons the rule needs: with metric 2 starting cluster 2, (0, 3) is skipped
    assert (0, 3) not in c.p_values and (2, 3) in c.p_values


def test_clusters_sort_by_value_then_name():
    c = significance_clusters([0.1, 0.5, 0.5], lambda i, j: 1.0, names=["z", "b", "a"])
    assert c.order == [2, 1, 0] and c.rank == [1, 1, 1]
