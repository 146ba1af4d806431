"""compare-mt's counting kernels against their slow twins: the clipped matches of every system
and id (all layers in one pass) equal a Counter per sentence; NLTK's method2 sentence BLEU is
equal bit for bit to ``math.log`` / ``math.fsum`` / ``math.exp`` line by line."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtpalette.kernels.matches import clipped_matches, nltk_sentence_bleu
from mtpalette.kernels.reference.matches import clipped_matches_slow, nltk_sentence_bleu_slow

ROW = st.lists(st.integers(-1, 6), max_size=10)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 5).flatmap(lambda n: st.tuples(
    st.lists(ROW, min_size=n, max_size=n),
    st.lists(st.lists(ROW, min_size=n, max_size=n), min_size=1, max_size=4),
    st.integers(1, 3))))  # fmt: skip
def test_clipped_matches_equal_a_counter_per_sentence(case):
    ref, systems, layers = case
    rows = [ref, *systems]
    flat = [x for part in rows for row in part for x in row]
    offsets = np.cumsum([0] + [len(row) for part in rows for row in part])
    # layer k: the same rows with every id shifted by k (another id space, bound 7 + k)
    ids = np.array([[x + k if x >= 0 else -1 for x in flat] for k in range(layers)])
    bounds = [7 + k for k in range(layers)]
    out = clipped_matches(ids.reshape(layers, -1), offsets, len(ref), bounds)
    want = [[] for _ in systems]
    for k in range(layers):
        shift = lambda part, k=k: [[x + k if x >= 0 else -1 for x in row] for row in part]  # noqa: E731
        slow = clipped_matches_slow(shift(ref), [shift(p) for p in systems], 7 + k)
        for j, counts in enumerate(slow):
            want[j] += counts
    assert out.tolist() == want


def test_clipped_matches_refuse_bad_shapes():
    ids, offsets = np.array([1, 2, 3]), np.array([0, 1, 2, 3])
    with pytest.raises(ValueError, match="parts of 2 rows"):
        clipped_matches(ids, offsets, 2, [4])
    with pytest.raises(ValueError, match="not below its bound"):
        clipped_matches(ids, offsets, 1, [3])
    with pytest.raises(ValueError, match="2 id bounds for 1 layers"):
        clipped_matches(ids, offsets, 1, [4, 4])


COUNT = st.integers(0, 60).map(float)


@settings(max_examples=500, deadline=None)
@given(st.integers(1, 5).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.tuples(COUNT, COUNT, st.lists(COUNT, min_size=2 * n,
                                                           max_size=2 * n)),
                         min_size=1, max_size=20))))  # fmt: skip
def test_nltk_sentence_bleu_equals_math_bit_for_bit(case):
    n, rows = case
    stats = np.array([[h, r, *rest] for h, r, rest in rows], dtype=np.float64)
    fast = nltk_sentence_bleu(stats, n).tolist()
    slow = [nltk_sentence_bleu_slow(row, n) for row in stats.tolist()]
    assert [x.hex() for x in fast] == [x.hex() for x in slow]


def test_nltk_sentence_bleu_on_real_shapes():
    # many rows whose weighted logs sum where fsum and a plain sum can differ in the last bit
    rng = np.random.default_rng(7)
    total = rng.integers(1, 80, size=(5000, 4)).astype(float)
    correct = np.floor(total * rng.random((5000, 4)))
    lengths = rng.integers(0, 90, size=(5000, 2)).astype(float)
    stats = np.hstack([lengths, correct, total])
    fast = nltk_sentence_bleu(stats)
    slow = [nltk_sentence_bleu_slow(row) for row in stats.tolist()]
    assert fast.tolist() == slow
    assert not math.isnan(float(fast.sum()))
