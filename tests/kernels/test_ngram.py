"""The n-gram match kernel equals its plain-Python twin (hypothesis) and hand-made cases."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mtpalette.kernels.ngram import ngram_matches, ngram_totals
from mtpalette.kernels.reference.ngram import ngram_counts_slow, ngram_matches_slow
from mtpalette.metrics.base import Pairs
from mtpalette.text.ragged import Ragged

# a small vocabulary forces repeats; a few large ids check that tokens absent from every
# candidate (or larger than any candidate id) are handled
token = st.one_of(st.integers(0, 4), st.sampled_from([5, 1000, 70000]))
sentence = st.lists(token, max_size=16)


@st.composite
def segments(draw):
    n_refs = draw(st.integers(1, 4))
    n_seg = draw(st.integers(1, 3))
    refs = [[draw(sentence) for _ in range(n_seg)] for _ in range(n_refs)]
    mask = np.array([[draw(st.booleans()) for _ in range(n_seg)] for _ in range(n_refs)])
    mask[draw(st.integers(0, n_refs - 1)), :] = True  # every segment keeps a reference
    hyps = draw(st.lists(st.tuples(st.integers(0, n_seg - 1), sentence), min_size=1, max_size=6))
    return refs, mask, hyps


def _pairs(refs, mask, hyps):
    # a missing reference's row is ignored whatever it holds: give it tokens
    rows = [r if mask[k, s] else [0, 1, 2] for k, ref in enumerate(refs) for s, r in enumerate(ref)]
    return Pairs(
        hyp=Ragged.from_rows([h for _, h in hyps]),
        seg=np.array([s for s, _ in hyps], dtype=np.int64),
        refs=Ragged.from_rows(rows),
        ref_mask=mask,
    )


@settings(max_examples=400, deadline=None)
@given(segments(), st.integers(1, 9), st.booleans())
def test_kernel_equals_slow_twin(data, max_n, per_ref):
    refs, mask, hyps = data
    fast = ngram_matches(_pairs(refs, mask, hyps), max_n, per_ref=per_ref)
    assert fast.shape == (len(hyps), len(refs) if per_ref else 1, max_n)
    for p, (s, hyp) in enumerate(hyps):
        present = [k for k in range(len(refs)) if mask[k, s]]
        if per_ref:
            slow = ngram_matches_slow(hyp, [refs[k][s] for k in present], max_n, per_ref=True)
            np.testing.assert_array_equal(fast[p, present], slow)
            absent = [k for k in range(len(refs)) if not mask[k, s]]
            assert not fast[p, absent].any()
        else:
            slow = ngram_matches_slow(hyp, [refs[k][s] for k in present], max_n)
            np.testing.assert_array_equal(fast[p], slow)


def test_repeated_word_clipping():
    # "the the the the" against "the cat the": unigram "the" clipped to 2, bigram "the the" 0.
    pairs = _pairs([[[0, 1, 0]]], np.array([[True]]), [(0, [0, 0, 0, 0])])
    assert ngram_matches(pairs, 2)[0, 0].tolist() == [2, 0]


def test_clipping_by_the_best_reference_per_ngram():
    # candidate a a b b; references "a a" and "b b": "a" clipped by ref 1 (2), "b" by ref 2
    # (2): 4 unigrams; bigrams "a a" and "b b" one each, "a b" in neither: 2.
    pairs = _pairs([[[0, 0]], [[1, 1]]], np.array([[True], [True]]), [(0, [0, 0, 1, 1])])
    assert ngram_matches(pairs, 3)[0, 0].tolist() == [4, 2, 0]
    # against each reference alone: 2 unigrams and 1 bigram each
    assert ngram_matches(pairs, 2, per_ref=True)[0].tolist() == [[2, 1], [2, 1]]


def test_long_repeats_and_orders_up_to_nine():
    hyp = [7] * 12  # twelve equal tokens against ten: every order clipped by the reference
    pairs = _pairs([[[7] * 10]], np.array([[True]]), [(0, hyp)])
    assert ngram_matches(pairs, 9)[0, 0].tolist() == [10 - k for k in range(9)]


def test_long_candidate_takes_the_hash_table():
    # 700 tokens of 600 distinct ids: (700 + 1) * (A + 1) keys exceed the direct table of
    # 2**18, so BLEU's clipped counts look n-grams up in the open-addressing table
    rng = np.random.default_rng(7)
    hyp = rng.integers(0, 600, 700).tolist()
    refs = [rng.integers(0, 600, 650).tolist(), hyp[50:500], hyp[::-1]]
    pairs = _pairs([[r] for r in refs], np.ones((3, 1), bool), [(0, hyp)])
    fast = ngram_matches(pairs, 4)
    np.testing.assert_array_equal(fast[0], ngram_matches_slow(hyp, refs, 4))
    assert fast[0, 0, 3] >= 447  # the copied stretch's 4-grams at least


def test_empty_candidate_and_reference():
    pairs = _pairs([[[], [1, 2]]], np.array([[True, True]]), [(0, [1, 2]), (1, [])])
    assert ngram_matches(pairs, 3).tolist() == [[[0, 0, 0]], [[0, 0, 0]]]


def test_slow_twin_counts():
    assert ngram_counts_slow([1, 2, 1], 2) == {(1,): 2, (2,): 1, (1, 2): 1, (2, 1): 1}


def test_totals():
    assert ngram_totals(np.array([5, 0, 2]), 3).tolist() == [[5, 4, 3], [0, 0, 0], [2, 1, 0]]
