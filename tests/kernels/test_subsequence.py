"""Levenshtein, LCS, WLCS and skip-bigram kernels equal their slow twins (hypothesis)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import LCSseq, Levenshtein

from mtpalette.kernels.reference.edit import levenshtein_slow
from mtpalette.kernels.reference.skipbigram import skip_matches_slow
from mtpalette.kernels.reference.subsequence import wlcs_rouge155_slow, wlcs_slow
from mtpalette.kernels.skipbigram import skip_matches_kernel, skip_pair_totals
from mtpalette.kernels.subsequence import (
    lcs_per_ref,
    levenshtein_per_ref,
    wlcs_per_ref,
    wlcs_rouge155_per_ref,
)
from mtpalette.metrics.base import Pairs
from mtpalette.text.ragged import Ragged

sentence = st.lists(st.integers(0, 3), max_size=12)  # small vocabulary: many repeats


def _pairs(hyps, refs):
    """One segment per candidate; ``refs[k][s]`` may be None (missing)."""
    mask = np.array([[r is not None for r in ref] for ref in refs])
    rows = [r if r is not None else [] for ref in refs for r in ref]
    return Pairs(
        Ragged.from_rows(hyps), np.arange(len(hyps), dtype=np.int64), Ragged.from_rows(rows), mask
    )


cases = st.integers(1, 4).flatmap(
    lambda n: st.tuples(
        st.lists(sentence, min_size=n, max_size=n),
        st.lists(
            st.lists(st.one_of(st.none(), sentence), min_size=n, max_size=n), min_size=1, max_size=3
        ),
    )
)


@settings(max_examples=200, deadline=None)
@given(cases)
def test_levenshtein_and_lcs(case):
    hyps, refs = case
    pairs = _pairs(hyps, refs)
    lev, lcs = levenshtein_per_ref(pairs), lcs_per_ref(pairs)
    for p, h in enumerate(hyps):
        for k, ref in enumerate(refs):
            if ref[p] is None:
                assert np.isnan(lev[p, k]) and np.isnan(lcs[p, k])
                continue
            assert lev[p, k] == levenshtein_slow(h, ref[p]) == Levenshtein.distance(h, ref[p])
            assert lcs[p, k] == LCSseq.similarity(h, ref[p])


@settings(max_examples=200, deadline=None)
@given(cases, st.lists(st.sampled_from([1.0, 1.1, 1.5, 2.0, 3.0]), min_size=1, max_size=3))
def test_wlcs(case, alphas):
    hyps, refs = case
    out = wlcs_per_ref(_pairs(hyps, refs), alphas)
    for p, h in enumerate(hyps):
        for k, ref in enumerate(refs):
            if ref[p] is None:
                continue
            for q, a in enumerate(alphas):
                expected = wlcs_slow(ref[p], h, lambda x, a=a: x**a)
                assert abs(out[p, k, q] - expected) <= 1e-9 * max(1.0, expected)


@settings(max_examples=200, deadline=None)
@given(cases, st.integers(0, 5))
def test_skip_bigrams(case, max_gap):
    hyps, refs = case
    pairs = _pairs(hyps, refs)
    n_buckets = max_gap + 2
    out = skip_matches_kernel(
        *pairs.arrays(),
        4,
        n_buckets,
    )
    for p, h in enumerate(hyps):
        for k, ref in enumerate(refs):
            if ref[p] is None:
                assert np.isnan(out[p, k]).all()
                continue
            for d in range(n_buckets - 1):
                assert out[p, k, d] == skip_matches_slow(h, ref[p], d)
            assert out[p, k, -1] == skip_matches_slow(h, ref[p], None)


@given(st.integers(0, 30), st.integers(1, 8))
def test_skip_totals(length, n_buckets):
    totals = skip_pair_totals(np.array([length]), n_buckets)[0]
    for d in range(n_buckets - 1):
        assert totals[d] == sum(
            1 for i in range(length) for j in range(i + 1, length) if j - i - 1 <= d
        )
    assert totals[-1] == length * (length - 1) // 2


@settings(max_examples=200, deadline=None)
@given(cases, st.lists(st.sampled_from([1.0, 1.2, 2.0]), min_size=1, max_size=2))
def test_wlcs_rouge155(case, alphas):
    hyps, refs = case
    out = wlcs_rouge155_per_ref(_pairs(hyps, refs), alphas)
    for p, h in enumerate(hyps):
        for k, ref in enumerate(refs):
            if ref[p] is None:
                assert np.isnan(out[p, k]).all()
                continue
            for q, a in enumerate(alphas):
                expected = wlcs_rouge155_slow(ref[p], h, lambda x, a=a: x**a)
                assert np.isclose(out[p, k, q], expected, rtol=1e-12)
