"""sigdiff.zscore against scipy.stats.zscore, bit for bit (the permutation tests z-normalise
with it, so mt-metrics-eval's resampled values depend on every bit)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from mtpalette.stats.sigdiff import zscore

floats = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, width=64)


@settings(max_examples=300, deadline=None)
@given(st.lists(floats, min_size=1, max_size=200))
def test_zscore_bits_equal_scipy(xs):
    x = np.array(xs)
    with np.errstate(all="ignore"):
        want = stats.zscore(x)
    got = zscore(x)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(
    "x",
    [
        [1.0, 1.0, 1.0],  # constant: NaN
        [1e10, 1e10 + 1e-5, 1e10],  # std below eps * mean: NaN
        [0.0, np.nan, 1.0],  # NaN propagates
        [2.5],
        np.linspace(-3, 7, 1001) ** 3,
    ],
)
def test_zscore_edge_cases(x):
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(all="ignore"):
        want = stats.zscore(x)
    np.testing.assert_array_equal(zscore(x), want)


def test_zscore_many_ties_and_bad_shapes():
    rng = np.random.default_rng(7)
    x = np.round(rng.random(6877) * 100, 2)  # sentence-BLEU-like, many ties
    np.testing.assert_array_equal(zscore(x), stats.zscore(x))
    assert zscore([]).size == 0
    with pytest.raises(ValueError, match="vector"):
        zscore(np.ones((2, 2)))
