"""Stratified and uniform item sampling (mt-metrics-eval's ``stats.Sample``; its own cases,
with its draws, are in test_mtme_stats_cases.py)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtpalette.stats.sampling import sample_items


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 12), min_size=1, max_size=8), st.data())
def test_stratified_sample_is_proportional_and_within_bins(bins, data):
    total = sum(bins)
    size = data.draw(st.integers(1, total))
    s = sample_items(total, size, "stratify", bin_sizes=bins, seed=3, shuffle_seed=4)
    assert len(s.indices) == size and len(set(s.indices.tolist())) == size
    edges = np.r_[0, np.cumsum(bins)]
    per_bin = np.histogram(s.indices, bins=edges)[0]
    ideal = np.array(bins) * size / total
    assert (per_bin <= np.array(bins)).all()
    assert (np.abs(per_bin - ideal) < 1).all()  # largest-remainder rounding of the shares
    again = sample_items(total, size, "stratify", bin_sizes=bins, seed=3, shuffle_seed=4)
    assert again.indices.tolist() == s.indices.tolist()


def test_size_zero_or_too_large_keeps_everything_and_bad_input_is_refused():
    assert sorted(sample_items(5, 0, seed=1).indices.tolist()) == [0, 1, 2, 3, 4]
    assert sorted(sample_items(5, 9, seed=1).indices.tolist()) == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError, match="bin_sizes"):
        sample_items(5, 2, "stratify", bin_sizes=[2, 2])
    with pytest.raises(ValueError, match="unknown sampling method"):
        sample_items(5, 2, "random")
    with pytest.raises(ValueError, match="expected 5 items"):
        sample_items(5, 2, seed=1).select([1, 2, 3])
