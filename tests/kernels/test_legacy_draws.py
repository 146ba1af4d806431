"""The compiled legacy swap draws against numpy's own doubles (the twin): same swaps, and the
stream left where numpy leaves it (the next tests of a task set draw on from there)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtpalette.kernels import legacy_draws
from mtpalette.kernels.reference import legacy_draws as twin


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    skip=st.integers(0, 700),
    n_perm=st.integers(0, 6),
    n_draws=st.integers(1, 900),
    data=st.data(),
)
def test_swaps_and_stream_equal_numpy(seed, skip, n_perm, n_draws, data):
    upper = np.array(sorted(data.draw(st.sets(st.integers(0, n_draws - 1), max_size=60))))
    upper = upper.astype(np.int64)
    a, b = np.random.RandomState(seed), np.random.RandomState(seed)
    a.random_sample(skip), b.random_sample(skip)  # any position in the key
    a.standard_normal(), b.standard_normal()  # a cached Gaussian survives
    got = legacy_draws.pair_swaps(a, n_perm, n_draws, upper)
    want = twin.pair_swaps(b, n_perm, n_draws, upper)
    assert got.dtype == bool and got.shape == (n_perm, upper.size)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(a.random_sample(5), b.random_sample(5))
    assert a.standard_normal() == b.standard_normal()


def test_pairs_test_layout_twist_boundaries():
    # 13 systems x 529 items, the WMT TED layout: many twists per permutation
    iu, ju = np.triu_indices(13, 1)
    upper = np.concatenate([g * 169 + iu * 13 + ju for g in range(529)]).astype(np.int64)
    a, b = np.random.RandomState(1234), np.random.RandomState(1234)
    for n_perm in (3, 1, 7):
        got = legacy_draws.pair_swaps(a, n_perm, 529 * 169, upper[::3])
        np.testing.assert_array_equal(got, twin.pair_swaps(b, n_perm, 529 * 169, upper[::3]))
    assert a.get_state()[2] == b.get_state()[2]


def test_bad_positions_are_refused():
    rs = np.random.RandomState(0)
    with pytest.raises(ValueError, match="increasing"):
        legacy_draws.pair_swaps(rs, 1, 5, np.array([3, 1]))
    with pytest.raises(ValueError, match="outside"):
        legacy_draws.pair_swaps(rs, 1, 5, np.array([5]))
