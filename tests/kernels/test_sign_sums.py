"""The compiled SPA sums in the fixed float32 order against the numpy twin, bit for bit,
on float32 values of very different magnitudes (where the order decides the last bits)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtpalette.kernels import sign_sums
from mtpalette.kernels.reference import sign_sums as twin
from mtpalette.stats.pairwise import sign_product_blocks


@settings(max_examples=120, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    items=st.integers(0, 1000),
    n=st.integers(0, 40),
    spread=st.sampled_from([1.0, 1e4, 1e30, 1e38]),
)
def test_bits_equal_twin(seed, items, n, spread):
    rng = np.random.default_rng(seed)
    signs = np.where(rng.random((7, items)) < 0.5, -1.0, 1.0).astype(np.float32)
    scale = np.exp(rng.uniform(0, np.log(spread), (5, items)))
    with np.errstate(over="ignore"):
        values = (rng.normal(size=(5, items)) * scale).astype(np.float32)
    values[rng.random(values.shape) < 0.01] = np.nan
    rows, cols = rng.integers(0, 7, n), rng.integers(0, 5, n)
    bounds = [0] + [stop for _, stop in sign_product_blocks(items)]
    got = sign_sums.sign_products(signs, values, rows, cols, bounds)
    want = twin.sign_products(signs, values, rows, cols, bounds)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))


def test_bad_inputs_are_refused():
    a = np.ones((2, 3), dtype=np.float32)
    with pytest.raises(ValueError, match="outside"):
        sign_sums.sign_products(a, a, [2], [0], [0, 3])
    with pytest.raises(ValueError, match="bounds"):
        sign_sums.sign_products(a, a, [0], [0], [0, 2])


@settings(max_examples=120, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n_sys=st.integers(1, 6),
    n_batch=st.integers(1, 5),
    n_draws=st.integers(0, 70),
    width=st.sampled_from([0.0, 0.1, 1.0, np.inf]),
)
def test_screen_equals_twin(seed, n_sys, n_batch, n_draws, width):
    rng = np.random.default_rng(seed)
    partial = np.round(rng.normal(size=(n_batch * n_sys, n_draws)), 1).astype(np.float32)
    partial[rng.random(partial.shape) < 0.02] = np.nan
    n_pairs = n_sys * (n_sys - 1) // 2
    obs = np.round(rng.normal(size=(n_batch, n_pairs)), 1).astype(np.float32)
    above, below = obs + np.float32(width), obs - np.float32(width)
    odd = rng.random(n_batch * n_pairs) < 0.1
    got = sign_sums.spa_screen(partial, n_sys, above, below, odd)
    want = twin.spa_screen(partial, n_sys, above, below, odd)
    np.testing.assert_array_equal(got[0], want[0])
    # near-ties: the same (draw, batch, pair) triples, in any order
    key = lambda r: sorted(zip(r[1].tolist(), r[2].tolist(), r[3].tolist(), strict=True))  # noqa: E731
    assert key(got) == key(want)


def test_screen_refuses_bad_shapes():
    a = np.zeros((6, 4), dtype=np.float32)
    with pytest.raises(ValueError, match="pairs"):
        sign_sums.spa_screen(a, 3, np.zeros((2, 2), np.float32), np.zeros((2, 2), np.float32),
                             np.zeros(4, bool))  # fmt: skip
