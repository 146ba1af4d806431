"""The GTM kernel equals its slow twin (gtm 1.4's recipe) and the exact maximum for e = 1."""

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtpalette.kernels.gtm import gtm_mms
from mtpalette.kernels.reference.gtm import gtm_mms_slow
from mtpalette.metrics.base import Pairs
from mtpalette.text.ragged import Ragged

EXPONENTS = [1.0, 1.5, 2.0, 3.0]


def _pairs(hyps, refs):
    """One segment per candidate; ``refs[k][s]`` may be None (missing)."""
    mask = np.array([[r is not None for r in ref] for ref in refs])
    rows = [r if r is not None else [] for ref in refs for r in ref]
    return Pairs(
        Ragged.from_rows(hyps), np.arange(len(hyps), dtype=np.int64), Ragged.from_rows(rows), mask
    )


sentence = st.lists(st.integers(0, 4), max_size=14)  # few distinct words: many runs and ties
cases = st.integers(1, 3).flatmap(
    lambda n: st.tuples(
        st.lists(sentence, min_size=n, max_size=n),
        st.lists(
            st.lists(st.one_of(st.none(), sentence), min_size=n, max_size=n),
            min_size=1,
            max_size=3,
        ),
    )
)


def _present(refs, p):
    return [ref[p] for ref in refs if ref[p] is not None]


@settings(max_examples=150, deadline=None)
@given(cases)
def test_kernel_equals_slow_twin(case):
    hyps, refs = case
    out = gtm_mms(_pairs(hyps, refs), EXPONENTS)
    for p, h in enumerate(hyps):
        for q, e in enumerate(EXPONENTS):
            assert out[p, q] == pytest.approx(gtm_mms_slow(h, _present(refs, p), e), abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(cases)
def test_exponent_one_is_the_clipped_count(case):
    """With e = 1 the greedy matching is maximal, hence maximum: per word type the smaller of
    the candidate's count and the references' joint count, capped by gtm's budget."""
    hyps, refs = case
    out = gtm_mms(_pairs(hyps, refs), [1.0])[:, 0]
    for p, h in enumerate(hyps):
        present = _present(refs, p)
        joint = Counter(w for r in present for w in r)
        clipped = sum((Counter(h) & joint).values())
        mean = sum(map(len, present)) / len(present) if present else 0.0
        assert out[p] == min(clipped, len(h), mean)


@settings(max_examples=80, deadline=None)
@given(cases)
def test_bounds_and_identity(case):
    hyps, refs = case
    out = gtm_mms(_pairs(hyps, refs), EXPONENTS)
    for p, h in enumerate(hyps):
        present = _present(refs, p)
        mean = sum(map(len, present)) / len(present) if present else 0.0
        # runs only help: the size with e >= 1 is at most the number of matched words
        assert (out[p] <= out[p, 0] + 1e-12).all() and out[p, 0] <= min(len(h), mean)
    same = gtm_mms(_pairs(hyps, [hyps]), EXPONENTS)
    for p, h in enumerate(hyps):
        np.testing.assert_allclose(same[p], len(h), rtol=1e-12)  # one run of the whole sentence


def test_hand_cases():
    # "a b c d e" against "a b x c d e": runs of 2 and 3
    out = gtm_mms(_pairs([[1, 2, 3, 4, 5]], [[[1, 2, 9, 3, 4, 5]]]), [1.0, 2.0, 3.0])
    np.testing.assert_allclose(out[0], [5, 13**0.5, 35 ** (1 / 3)], rtol=1e-15)
    # two references of mean length 1.5 (2 and 1 words): at most 1.5 hits, so the run of
    # two is cut to 1.5 and contributes 1.5^e
    out = gtm_mms(_pairs([[1, 2]], [[[1, 2]], [[7]]]), [1.0, 2.0])
    np.testing.assert_allclose(out[0], [1.5, 1.5], rtol=1e-15)
    assert gtm_mms_slow([1, 2], [[1, 2], [7]], 2.0) == 1.5
    # a run never crosses from the end of one reference into the next: two runs of one
    out = gtm_mms(_pairs([[1, 2]], [[[8, 1]], [[2, 9]]]), [2.0])
    assert out[0, 0] == pytest.approx(2**0.5) == gtm_mms_slow([1, 2], [[8, 1], [2, 9]], 2.0)
    # the candidate's words may match in different references
    assert gtm_mms_slow([1, 2, 3], [[5, 1, 4], [2, 3, 6]], 2.0) == pytest.approx(5**0.5)
