"""The chrF n-gram statistics kernel equals its Counter-based twin (hypothesis) and the
run-length match kernel on real character data."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mtpalette.kernels.chrf import chrf_ngram_stats
from mtpalette.kernels.ngram import ngram_matches
from mtpalette.kernels.reference.chrf import chrf_ngram_stats_slow
from mtpalette.metrics.base import Pairs
from mtpalette.metrics.scoring import TextPairs
from mtpalette.text.encode import TextView
from mtpalette.text.ragged import Ragged

# a small vocabulary forces repeats; large ids check tokens that no candidate has, or that
# lie beyond every candidate id
token = st.one_of(st.integers(0, 3), st.sampled_from([5, 1000, 70000]))
sentence = st.lists(token, max_size=18)


@st.composite
def segments(draw):
    n_refs = draw(st.integers(1, 3))
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
@given(segments(), st.integers(1, 8), st.sampled_from([1 << 18, 0]))
def test_kernel_equals_slow_twin(data, max_n, direct_max):
    # direct_max=0 sends most candidates through the hash table, the others through the
    # direct table: both paths, and switching between them, keep scratch arrays clean
    refs, mask, hyps = data
    fast = chrf_ngram_stats(_pairs(refs, mask, hyps), max_n, direct_max=direct_max)
    assert fast.shape == (len(hyps), len(refs), max_n, 3)
    for p, (s, hyp) in enumerate(hyps):
        for k in range(len(refs)):
            if mask[k, s]:
                slow = chrf_ngram_stats_slow(hyp, [refs[k][s]], max_n)[0]
                np.testing.assert_array_equal(fast[p, k], slow)
            else:
                assert not fast[p, k].any()


def test_long_candidate_uses_the_hash_table():
    # 40 distinct tokens in 600 positions: 600 * 40 keys exceed a direct table of 1024
    rng = np.random.default_rng(5)
    hyp = rng.integers(0, 40, 600).tolist()
    refs = [rng.integers(0, 40, 500).tolist(), hyp[100:400]]
    pairs = _pairs([[refs[0]], [refs[1]]], np.ones((2, 1), bool), [(0, hyp)])
    fast = chrf_ngram_stats(pairs, 6, direct_max=1024)
    np.testing.assert_array_equal(fast[0], chrf_ngram_stats_slow(hyp, refs, 6))
    assert (fast[0, 1, :, 2] == [300 - n for n in range(6)]).all()  # a copied stretch


def test_hand_made_counts():
    # "aab" against "ab": unigrams a, a, b vs a, b -> 2 matches; bigrams aa, ab vs ab -> 1
    pairs = _pairs([[[0, 1]]], np.array([[True]]), [(0, [0, 0, 1])])
    assert chrf_ngram_stats(pairs, 3)[0, 0].tolist() == [[3, 2, 2], [2, 1, 1], [0, 0, 0]]


def test_empty_candidate_still_counts_reference_ngrams():
    pairs = _pairs([[[0, 1, 2]]], np.array([[True]]), [(0, [])])
    assert chrf_ngram_stats(pairs, 2)[0, 0].tolist() == [[0, 3, 0], [0, 2, 0]]


def test_matches_equal_the_run_length_kernel_on_real_characters(real_pairs):
    # an independent algorithm (runs of equal tokens) on thousands of real pairs, through
    # the parallel path of both kernels
    hyps, refs = real_pairs["two_refs"]
    pairs = TextPairs.parallel(hyps, refs).encoded(TextView("char"))
    assert len(pairs.hyp.ids) > 100_000
    ours = chrf_ngram_stats(pairs, 6)
    np.testing.assert_array_equal(ours[..., 2], ngram_matches(pairs, 6, per_ref=True))
    lengths = pairs.ref_lengths()
    np.testing.assert_array_equal(ours[:, :, 0, 1], lengths)
