"""NIST equals NLTK's corpus_nist and sentence_nist on real data; the kernel equals its twin."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.nist_score import corpus_nist, sentence_nist

from mtpalette import corpus_score, sentence_scores
from mtpalette.kernels.nist import information_weights_slow, nist_order_slow
from mtpalette.metrics.nist import NIST, length_penalty
from mtpalette.metrics.scoring import TextPairs
from mtpalette.text.tokenizers import tokenize_13a


def _tok(hyps, refs):
    return [tokenize_13a(h) for h in hyps], [
        [tokenize_13a(r[i]) for r in refs] for i in range(len(hyps))
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


def test_short_candidate_is_defined():
    out = sentence_scores(["a b", ""], [["a b c", "x"]], ["nist"])["nist"]
    assert np.isfinite(out).all() and out[1] == 0.0
    # "a b" vs "a b c": unigram info log2(3/1) each, bigram info log2(1/1) = 0;
    # precision 2*log2(3)/2 + 0; length penalty at ratio 2/3 is 0.5.
    assert out[0] == pytest.approx(np.log2(3) * 0.5, rel=1e-12)


def test_length_penalty_shape():
    assert length_penalty(10, 10) == 1.0 and length_penalty(10, 12) == 1.0
    assert length_penalty(3, 2) == pytest.approx(0.5)


words = st.lists(st.integers(0, 4).map(lambda i: "abcde"[i]), min_size=0, max_size=10)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(words, words, words), min_size=1, max_size=4), st.integers(1, 4))
def test_kernel_equals_slow_twin(segments, n):
    hyps = [" ".join(h) for h, _, _ in segments]
    refs = [[" ".join(a) for _, a, _ in segments], [" ".join(b) for _, _, b in segments]]
    metric = NIST(n=n, tokenize="none")
    stats = metric.compute(TextPairs.parallel(hyps, refs).encoded(metric.view()))
    corpus_refs = [r for _, a, b in segments for r in (a, b)]
    for order in range(1, n + 1):
        corpus_info = information_weights_slow(corpus_refs, n)
        for i, (h, a, b) in enumerate(segments):
            num, refl, den = nist_order_slow(h, [a, b], order, corpus_info)
            assert stats[i, order - 1] == pytest.approx(num, rel=1e-12, abs=1e-12)
            assert stats[i, n + order - 1] == refl
            assert stats[i, 4 * n + order - 1] == den
            seg_info = information_weights_slow([a, b], n)
            num, refl, _ = nist_order_slow(h, [a, b], order, seg_info)
            assert stats[i, 2 * n + order - 1] == pytest.approx(num, rel=1e-12, abs=1e-12)
            assert stats[i, 3 * n + order - 1] == refl
