"""NIST equals NLTK's corpus_nist and sentence_nist on real data; the kernel equals its twin."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.nist_score import corpus_nist, sentence_nist

from mtpalette import corpus_score, sentence_scores
from mtpalette.kernels.nist import corpus_information
from mtpalette.kernels.reference.nist import (
    corpus_information_slow,
    information_weights_slow,
    nist_order_slow,
)
from mtpalette.metrics.nist import NIST, length_penalty
from mtpalette.metrics.scoring import TextPairs, compute_stats
from mtpalette.text.tokenizers import tokenize_13a


def _tok(hyps, refs):
    return [tokenize_13a(h) for h in hyps], [
        [tokenize_13a(r[i]) for r in refs if r[i] is not None] for i in range(len(hyps))
    ]


@pytest.mark.parametrize("nrefs", ["one_ref", "two_refs"])
def test_corpus_nist_equals_nltk(real_pairs, nrefs):
    hyps, refs = real_pairs[nrefs]
    assert len(hyps) >= 2000
    th, tr = _tok(hyps, refs)
    ours = corpus_score(hyps, refs, ["nist"])[0].value
    assert ours == pytest.approx(corpus_nist(tr, th, 5), rel=1e-9)


@pytest.mark.parametrize("nrefs", ["one_ref", "two_refs"])
def test_sentence_nist_equals_nltk(real_pairs, nrefs):
    hyps, refs = real_pairs[nrefs]
    th, tr = _tok(hyps, refs)
    ours = sentence_scores(hyps, refs, ["nist"])["nist"]
    # NLTK divides by zero for candidates shorter than the order (5): compare the others.
    keep = [i for i, h in enumerate(th) if len(h) >= 5]
    assert len(keep) >= 2000
    theirs = np.array([sentence_nist(tr[i], th[i], 5) for i in keep])
    np.testing.assert_allclose(ours[keep], theirs, rtol=1e-9, atol=0)


def test_other_orders_and_lowercase_equal_nltk(real_pairs):
    hyps, refs = real_pairs["two_refs"]
    hyps, refs = hyps[:400], [r[:400] for r in refs]
    th, tr = _tok([h.lower() for h in hyps], [[x.lower() for x in r] for r in refs])
    for n in (1, 3, 7):
        ours = corpus_score(hyps, refs, [f"nist:n={n}"], lowercase=True)[0].value
        assert ours == pytest.approx(corpus_nist(tr, th, n), rel=1e-9)


def test_nltk_documentation_example():
    # The example sentences of NLTK's sentence_nist docstring (from Papineni et al., 2002),
    # one token per space; NLTK prints 3.3709... and 1.4619...
    hyp1 = (
        "It is a guide to action which ensures that the military always obeys the commands "
        "of the party"
    )
    hyp2 = "It is to insure the troops forever hearing the activity guidebook that party direct"
    refs = [
        "It is a guide to action that ensures that the military will forever heed Party commands",
        "It is the guiding principle which guarantees the military forces always being under "
        "the command of the Party",
        "It is the practical guide for the army always to heed the directions of the party",
    ]
    ours = sentence_scores([hyp1, hyp2], [[r, r] for r in refs], ["nist"], tokenize="none")
    theirs = [sentence_nist([r.split() for r in refs], h.split()) for h in (hyp1, hyp2)]
    np.testing.assert_allclose(ours["nist"], theirs, rtol=1e-12)
    assert ours["nist"][0] == pytest.approx(3.3709, abs=1e-4)
    assert ours["nist"][1] == pytest.approx(1.4619, abs=1e-4)


def test_candidates_sharing_a_segment(real_pairs):
    # n-best style: several systems' candidates for the same segments. Sentence scores are
    # sentence_nist's; the corpus weights count each segment's references once.
    hyps, refs = real_pairs["two_refs"]
    S = 60
    n_sys, n_seg_per_sys = 3, len(hyps) // 5  # real_pairs: 5 systems one after the other
    cands = [hyps[k * n_seg_per_sys + s] for k in range(n_sys) for s in range(S)]
    seg = np.tile(np.arange(S), n_sys)
    tp = TextPairs(cands, seg, [r[:S] for r in refs])
    metric = NIST()
    stats = compute_stats([metric], tp)[metric]
    th = [tokenize_13a(h) for h in cands]
    tr = [[tokenize_13a(r[s]) for r in refs] for s in range(S)]
    keep = [i for i in range(len(cands)) if len(th[i]) >= 5]
    theirs = [sentence_nist(tr[seg[i]], th[i]) for i in keep]
    np.testing.assert_allclose(metric.sentence_scores(stats)[keep], theirs, rtol=1e-9)
    # NLTK with every segment's references given once, i.e. one system's candidates, sees the
    # same weights: its corpus score equals ours on that system's rows
    one = slice(0, S)
    assert metric.corpus_score(stats[one]) == pytest.approx(corpus_nist(tr, th[one], 5), rel=1e-9)


def test_variable_references():
    hyps = ["the cat sat on the mat today", "a dog barked at the moon all night"]
    refs = [["the cat sat on a mat today", "a dog barked at a moon all night"], [None, "x"]]
    ours = sentence_scores(hyps, refs, ["nist"], tokenize="none")["nist"]
    tr = [[r.split() for r in (refs[0][0],)], [refs[0][1].split(), ["x"]]]
    theirs = [sentence_nist(tr[i], h.split()) for i, h in enumerate(hyps)]
    np.testing.assert_allclose(ours, theirs, rtol=1e-12)
    corpus = corpus_score(hyps, refs, ["nist"], tokenize="none")[0].value
    assert corpus == pytest.approx(corpus_nist(tr, [h.split() for h in hyps]), rel=1e-12)


def test_short_candidate_is_defined():
    out = sentence_scores(["a b", ""], [["a b c", "x"]], ["nist"])["nist"]
    assert np.isfinite(out).all() and out[1] == 0.0
    # "a b" vs "a b c": unigram info log2(3/1) each, bigram info log2(1/1) = 0;
    # precision 2*log2(3)/2 + 0; length penalty at ratio 2/3 is 0.5.
    assert out[0] == pytest.approx(np.log2(3) * 0.5, rel=1e-12)


def test_length_penalty_shape():
    assert length_penalty(10, 10) == 1.0 and length_penalty(10, 12) == 1.0
    assert length_penalty(3, 2) == pytest.approx(0.5)
    assert length_penalty(0, 2) == 0.0


def test_vectorised_scores_equal_the_python_formula(real_pairs):
    hyps, refs = real_pairs["two_refs"]
    metric = NIST()
    stats = compute_stats([metric], TextPairs.parallel(hyps[:300], [r[:300] for r in refs]))
    stats = stats[metric]
    slow = [metric.score_row(row, corpus=False) for row in stats]
    np.testing.assert_array_equal(metric.sentence_scores(stats), slow)
    assert metric.corpus_score(stats) == metric.score_row(stats.sum(axis=0), corpus=True)


words = st.lists(st.integers(0, 4).map(lambda i: "abcde"[i]), min_size=0, max_size=10)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(words, words, words), min_size=1, max_size=4),
    st.integers(1, 4),
    st.integers(1, 3),
)
def test_kernel_equals_slow_twin(segments, n, n_cands):
    # each segment gets n_cands candidates (the segment's hyp and rotations of it)
    S = len(segments)
    hyps = [h[c:] + h[:c] for c in range(n_cands) for h, _, _ in segments]
    seg = np.tile(np.arange(S), n_cands)
    refs = [[" ".join(a) for _, a, _ in segments], [" ".join(b) for _, _, b in segments]]
    metric = NIST(n=n, tokenize="none")
    tp = TextPairs([" ".join(h) for h in hyps], seg, refs)
    stats = metric.compute(tp.encoded(metric.view()))
    corpus_refs = [r for _, a, b in segments for r in (a, b)]
    corpus_info = information_weights_slow(corpus_refs, n)
    for i, h in enumerate(hyps):
        _, a, b = segments[seg[i]]
        seg_info = information_weights_slow([a, b], n)
        for order in range(1, n + 1):
            num, refl, den = nist_order_slow(h, [a, b], order, corpus_info)
            assert stats[i, order - 1] == pytest.approx(num, rel=1e-12, abs=1e-12)
            assert stats[i, n + order - 1] == refl
            assert stats[i, 4 * n + order - 1] == den
            num, refl, _ = nist_order_slow(h, [a, b], order, seg_info)
            assert stats[i, 2 * n + order - 1] == pytest.approx(num, rel=1e-12, abs=1e-12)
            assert stats[i, 3 * n + order - 1] == refl
        assert stats[i, 5 * n] == len(h)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 10**6),
            st.one_of(
                st.integers(1, 10**7).map(float),
                st.floats(1e-300, 1e300, allow_nan=False, allow_infinity=False),
            ),
        ),
        max_size=60,
    )
)
def test_compiled_information_weights_equal_math_log_bit_for_bit(cells):
    counts = [c for c, _ in cells]
    numer = [x for _, x in cells]
    fast = corpus_information(np.array(counts, dtype=np.int64), np.array(numer)).tolist()
    assert fast == corpus_information_slow(counts, numer)
