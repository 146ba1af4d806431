"""WMT26's pairwise bootstrap test (stats/wmt26_bootstrap.py) against a brute-force reference:
scipy.stats.bootstrap called pair by pair as the rule states (paired BCa on the shared items
when ``a`` is ahead on one of them, else or also unpaired), each call given
``rng=default_rng(seed)``."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

from mtpalette.stats.wmt26_bootstrap import bca_lower, significance


def _reference(a, b, seed, n_resamples=100):
    both = ~np.isnan(a) & ~np.isnan(b)
    d, va, vb = a[both] - b[both], a[~np.isnan(a)], b[~np.isnan(b)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if len(d) >= 2 and np.any(d > 0):
            r = scipy.stats.bootstrap((d,), np.mean, n_resamples=n_resamples,
                                      alternative="greater",
                                      rng=np.random.default_rng(seed))  # fmt: skip
            if r.confidence_interval.low > 0:
                return True
        if len(va) >= 2 and len(vb) >= 2:
            r = scipy.stats.bootstrap(
                (va, vb), lambda x, y, axis=-1: x.mean(axis=axis) - y.mean(axis=axis),
                n_resamples=n_resamples, alternative="greater", rng=np.random.default_rng(seed),
            )  # fmt: skip
            return bool(r.confidence_interval.low > 0)
    return False


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), shape=st.tuples(st.integers(2, 5), st.integers(1, 14)),
       holes=st.floats(0.0, 0.5), data=st.data())  # fmt: skip
def test_equals_scipy_pair_by_pair(seed, shape, holes, data):
    rng = np.random.default_rng(seed)
    x = np.round(rng.normal(70, 12, shape) + rng.normal(0, 10, (shape[0], 1)))
    x[rng.random(shape) < holes] = np.nan
    x[np.isnan(x).all(axis=1), 0] = 50.0
    r = significance(x, seed=seed, n_resamples=data.draw(st.sampled_from([20, 100])))
    for a in range(shape[0]):
        for b in range(shape[0]):
            if a != b:
                assert r.better[a, b] == _reference(x[a], x[b], seed, r.n_resamples), (a, b)


def test_unpaired_when_fewer_than_two_items_are_shared():
    # A and B share one item: no paired test; A's own items are far above B's
    x = np.array([[90.0, 91, 92, 93, 94, np.nan, np.nan, np.nan],
                  [np.nan, np.nan, np.nan, np.nan, 10, 11, 12, 13]])  # fmt: skip
    r = significance(x, seed=0)
    assert r.n_shared[0, 1] == 1
    assert r.better[0, 1] and not r.paired[0, 1] and not r.better[1, 0]


def test_never_ahead_on_a_shared_item_goes_to_the_unpaired_test():
    # B is never ahead of A on their items, so B's paired test is not run; unpaired: no
    x = np.array([[5.0, 7, 6, 9], [1.0, 2, 3, 4]])
    r = significance(x, seed=0)
    assert r.better[0, 1] and r.paired[0, 1] and not r.better[1, 0]
    # a constant difference leaves the paired BCa interval undefined: the unpaired test decides
    r = significance(np.array([[5.0, 6, 7, 8], [1.0, 2, 3, 4]]), seed=0)
    assert r.better[0, 1] and not r.paired[0, 1]


def test_identical_systems_are_never_significant():
    x = np.tile(np.array([[70.0, 80, 75, 60, 90]]), (2, 1))
    r = significance(x, seed=0)
    assert not r.better.any()


def test_constant_differences_give_no_interval():
    # every difference 1: the jackknife values are equal, BCa is undefined (NaN), as scipy's
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = scipy.stats.bootstrap((np.ones(6),), np.mean, n_resamples=50,
                                    alternative="greater",
                                    rng=np.random.default_rng(0))  # fmt: skip
    low = bca_lower(np.array([1.0]), np.ones((1, 50)), [np.ones((1, 6))])
    assert np.isnan(ref.confidence_interval.low) and np.isnan(low[0])


def test_seed_changes_the_draws_not_a_clear_result():
    rng = np.random.default_rng(3)
    x = np.vstack([rng.normal(80, 5, 40), rng.normal(60, 5, 40)])
    assert all(significance(x, seed=s).better[0, 1] for s in range(5))
    assert significance(x, seed=None).better[0, 1]


@pytest.mark.parametrize("n", [2, 3, 10])
def test_bca_lower_equals_scipy(n):
    d = np.random.default_rng(n).normal(0.5, 1.0, n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = scipy.stats.bootstrap((d,), np.mean, n_resamples=100, alternative="greater",
                                    rng=np.random.default_rng(7))  # fmt: skip
    idx = np.random.default_rng(7).integers(0, n, (100, n))
    low = bca_lower(np.array([d.mean()]), d[idx].mean(-1)[None], [((d.sum() - d) / (n - 1))[None]])
    assert low[0] == pytest.approx(ref.confidence_interval.low, rel=1e-12)
