"""Tie calibration's faster sort and its cached human side give the same events, bit for bit:
the stable order from numpy's quicksort equals argsort(kind="stable"), and pair events of
one human matrix with many metrics equal those computed afresh."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mtpalette.stats import tie_calibration as tc
from mtpalette.stats.grouping import make_groups


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([0.0, -0.0, 0.25, 1.0, 1e-300, 3.5, 7.0]) | st.floats(0, 9),
                max_size=300))  # fmt: skip
def test_stable_order_equals_stable_argsort(xs):
    x = np.array(xs, dtype=np.float64)
    np.testing.assert_array_equal(tc._stable_order(x), np.argsort(x, kind="stable"))


def test_stable_order_of_group_labels():
    g = np.random.default_rng(1).integers(0, 50, 10_000)
    np.testing.assert_array_equal(tc._stable_order(g), np.argsort(g, kind="stable"))


def test_events_with_cached_human_side_equal_fresh_ones():
    rng = np.random.default_rng(3)
    h = np.round(rng.normal(size=(9, 40)) * 2)
    h[rng.random(h.shape) < 0.1] = np.nan
    for grouping in ("item", "system", "none"):
        for trial in range(3):
            m = np.round(rng.random(h.shape), 1 + trial)
            tc._human_side.cache_clear()
            fresh = tc.pair_events(make_groups(h, m, grouping))
            again = tc.pair_events(make_groups(h, m, grouping))  # cached human side
            for name in ("diff", "delta", "group", "base", "n_pairs", "counts"):
                a, b = getattr(fresh, name), getattr(again, name)
                assert a.dtype == b.dtype
                np.testing.assert_array_equal(a, b)
            # the sort: by difference, then by the pairs' row-major order
            assert np.all(np.diff(fresh.diff) >= 0)
            assert fresh.counts.sum() == fresh.n_pairs.sum()
