"""The n-gram match kernel equals its plain-Python twin (hypothesis)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mtpalette.kernels.ngram import ngram_matches, ngram_matches_slow, ngram_totals
from mtpalette.metrics.base import Pairs
from mtpalette.text.ragged import Ragged

sentence = st.lists(st.integers(0, 4), max_size=14)  # small vocabulary forces repeats


@st.composite
def segments(draw):
    n_refs = draw(st.integers(1, 3))
    n_seg = draw(st.integers(1, 3))
    refs = [[draw(sentence) for _ in range(n_seg)] for _ in range(n_refs)]
    mask = np.array([[draw(st.booleans()) for _ in range(n_seg)] for _ in range(n_refs)])
    mask[0, :] = True  # every segment keeps at least one reference
    hyps = draw(st.lists(st.tuples(st.integers(0, n_seg - 1), sentence), min_size=1, max_size=6))
    return refs, mask, hyps


def _pairs(refs, mask, hyps):
    rows = [r if mask[k, s] else [] for k, ref in enumerate(refs) for s, r in enumerate(ref)]
    return Pairs(
        hyp=Ragged.from_rows([h for _, h in hyps]),
        seg=np.array([s for s, _ in hyps], dtype=np.int64),
        refs=Ragged.from_rows(rows),
        ref_mask=mask,
    )


@settings(max_examples=300, deadline=None)
@given(segments(), st.integers(1, 9), st.booleans())
def test_kernel_equals_slow_twin(data, max_n, per_ref):
    refs, mask, hyps = data
    fast = ngram_matches(_pairs(refs, mask, hyps), max_n, per_ref=per_ref)
    for p, (s, hyp) in enumerate(hyps):
        if per_ref:
            present = [k for k in range(len(refs)) if mask[k, s]]
            slow = ngram_matches_slow(hyp, [refs[k][s] for k in present], max_n, per_ref=True)
            np.testing.assert_array_equal(fast[p, present], slow)
            absent = [k for k in range(len(refs)) if not mask[k, s]]
            assert not fast[p, absent].any()
        else:
            present = [refs[k][s] for k in range(len(refs)) if mask[k, s]]
            np.testing.assert_array_equal(fast[p], ngram_matches_slow(hyp, present, max_n))


def test_repeated_word_clipping():
    # "the the the the" against "the cat the": unigram "the" clipped to 2, bigram "the the" 0.
    pairs = _pairs([[[0, 1, 0]]], np.array([[True]]), [(0, [0, 0, 0, 0])])
    assert ngram_matches(pairs, 2)[0, 0].tolist() == [2, 0]


def test_totals():
    assert ngram_totals(np.array([5]), 3).tolist() == [[5, 4, 3]]
