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
