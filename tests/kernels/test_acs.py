"""ACS: the fast grid recurrence equals the paper's three steps and the definition itself."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import LCSseq

from mtpalette.kernels.acs import (
    AcsSettings,
    acs_counts,
    acs_pair,
    skip_ngram_counts,
    skip_ngram_weight,
    step_weight,
)
from mtpalette.kernels.reference.acs import acs_counts_brute, acs_counts_slow
from mtpalette.text.encode import Encoder, TextView

small = st.lists(st.integers(0, 3), max_size=7)  # small vocabulary: many repeated words
medium = st.lists(st.integers(0, 5), max_size=14)
weights = st.sampled_from([0.0, 0.1, 0.5, 1.0, 2.5])
gaps = st.sampled_from(["max", "cand"])


def close(a, b):
    np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12)


@settings(max_examples=150, deadline=None)
@given(small, small, weights, weights, gaps)
def test_fast_equals_definition(a, b, alpha, beta, gap):
    s = AcsSettings(alpha, beta, kmax=7, gap=gap)
    close(acs_pair(a, b, s), acs_counts_brute(a, b, s))


@settings(max_examples=150, deadline=None)
@given(medium, medium, weights, weights, gaps, st.integers(1, 15))
def test_fast_equals_paper_algorithm(a, b, alpha, beta, gap, kmax):
    s = AcsSettings(alpha, beta, kmax=kmax, gap=gap)
    close(acs_pair(a, b, s), acs_counts_slow(a, b, s))


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(medium, medium), min_size=1, max_size=6), weights, weights)
def test_batched_pairs_equal_single_pairs(cases, alpha, beta):
    a_rows = [a for a, _ in cases]
    b_rows = [b for _, b in cases]
    a_off = np.r_[0, np.cumsum([len(r) for r in a_rows])]
    b_off = np.r_[0, np.cumsum([len(r) for r in b_rows])]
    flat = lambda rows: np.array([x for r in rows for x in r], dtype=np.int32)  # noqa: E731
    idx = np.arange(len(cases))[::-1]
    s = AcsSettings(alpha, beta, kmax=5)
    out = acs_counts(flat(a_rows), a_off, flat(b_rows), b_off, idx, idx, s)
    for row, i in zip(out, idx, strict=True):
        close(row, acs_pair(a_rows[i], b_rows[i], s))


def test_paper_counts_to_be_or_not_to_be():
    # "to be or not to be" has C(6,2) = 15 skip-bigrams and C(6,4) = 15 skip-4-grams
    counts = skip_ngram_counts([1, 2, 3, 4, 1, 2], alpha=0.0, kmax=6)
    assert counts[1] == 15 and counts[3] == 15
    assert counts.tolist() == [math.comb(6, k) for k in range(1, 7)]


def test_paper_acs_example_and_lcs():
    x = [1, 2, 3, 4, 1, 2]  # to be or not to be
    y = [1, 5, 3, 4, 2]  # to exist or not be
    counts = acs_pair(x, y, AcsSettings(0, 0, kmax=6))
    # matches (to,1,1) (to,5,1) (be,2,5) (be,6,5) (or,3,3) (not,4,4); LCS "to or not be"
    assert counts[0] == 6 and counts[3] == 1 and counts[4] == 0
    assert int(np.flatnonzero(counts)[-1]) + 1 == LCSseq.similarity(x, y) == 4


def test_paper_weight_examples():
    alpha = 0.7
    # R_0 "machine translated text is evaluated automatically", K_1 "machine translated
    # stories are chosen automatically": the skip-3-gram has a gap of 3 in both, e^(-3 alpha)
    assert skip_ngram_weight([0, 1, 5], alpha) == pytest.approx(math.exp(-3 * alpha))
    # K_2: "machine ... translated ... automatically" at positions 1, 12, 15: e^(-12 alpha)
    assert skip_ngram_weight([0, 11, 14], alpha) == pytest.approx(math.exp(-12 * alpha))
    # the pair R_0 / K_1: equal gaps, so delta = 1 and the match weighs e^(-3 alpha)
    r0 = [1, 2, 3, 4, 5, 6]
    k1 = [1, 2, 7, 8, 9, 6]
    assert acs_pair(k1, r0, AcsSettings(alpha, 5.0, kmax=3))[2] == pytest.approx(
        math.exp(-3 * alpha)
    )
    assert step_weight(3, 3, alpha, 5.0) == pytest.approx(math.exp(-3 * alpha))


def test_worst_case_fifty_repeated_words():
    same = [7] * 50
    counts = acs_pair(same, same, AcsSettings(0, 0, kmax=50))
    expected = np.array([math.comb(50, k) ** 2 for k in range(1, 51)], dtype=np.float64)
    np.testing.assert_allclose(counts, expected, rtol=1e-12)


@settings(max_examples=100, deadline=None)
@given(st.permutations(list(range(9))), st.permutations(list(range(9))), st.integers(2, 9))
def test_skip_bigram_counts_equal_rouge_s(perm_a, perm_b, length):
    """alpha = beta = 0, size 2, no repeated words: ROUGE-S* (clipped) skip-bigram hits."""
    a, b = perm_a[:length], perm_b[: max(1, length - 1)]
    bigrams = lambda s: Counter(  # noqa: E731
        (s[i], s[j]) for i in range(len(s)) for j in range(i + 1, len(s))
    )
    ca, cb = bigrams(a), bigrams(b)
    hits = sum(min(n, cb[g]) for g, n in ca.items())
    assert acs_pair(a, b, AcsSettings(0, 0, kmax=2))[1] == hits


def _encoded_pairs(real_pairs, n):
    hyps, refs = real_pairs["one_ref"]
    enc = Encoder(TextView("13a", False)).encode(hyps[:n] + refs[0][:n])
    return [(enc[i], enc[n + i]) for i in range(n)]


def test_large_alpha_counts_contiguous_ngrams(real_pairs):
    """alpha very large: only chains contiguous in both sentences, i.e. every pair of equal
    n-gram occurrences (on real sentences, repeated words included)."""
    for c, r in _encoded_pairs(real_pairs, 300):
        c, r = c.tolist(), r.tolist()
        counts = acs_pair(c, r, AcsSettings(60.0, 0.0, kmax=4))
        for k in range(1, 5):
            gc = Counter(tuple(c[i : i + k]) for i in range(len(c) - k + 1))
            gr = Counter(tuple(r[i : i + k]) for i in range(len(r) - k + 1))
            assert counts[k - 1] == pytest.approx(sum(n * gr[g] for g, n in gc.items()), rel=1e-9)


def test_largest_size_is_lcs_on_real_pairs(real_pairs):
    for c, r in _encoded_pairs(real_pairs, 300):
        counts = acs_pair(c, r, AcsSettings(0.0, 0.0, kmax=max(len(c), len(r), 1)))
        top = int(np.flatnonzero(counts)[-1]) + 1 if counts.any() else 0
        assert top == LCSseq.similarity(c.tolist(), r.tolist())


# ------------------------------------------------- POS features inside each match (eq. 6)
tag_weights = st.tuples(st.sampled_from([0.0, 0.2, 1.0]), st.sampled_from([0.3, 1.0]))


@st.composite
def tagged(draw, size):
    words = draw(size)
    tags = draw(st.lists(st.integers(0, 2), min_size=len(words), max_size=len(words)))
    return words, tags


@settings(max_examples=150, deadline=None)
@given(tagged(small), tagged(small), weights, weights, gaps, tag_weights)
def test_tagged_fast_equals_definition(a, b, alpha, beta, gap, nw):
    s, tags = AcsSettings(alpha, beta, kmax=7, gap=gap, weights=nw), (a[1], b[1])
    close(acs_pair(a[0], b[0], s, tags), acs_counts_brute(a[0], b[0], s, tags))


@settings(max_examples=100, deadline=None)
@given(tagged(medium), tagged(medium), weights, weights, gaps, tag_weights, st.integers(1, 15))
def test_tagged_fast_equals_paper_algorithm(a, b, alpha, beta, gap, nw, kmax):
    s, tags = AcsSettings(alpha, beta, kmax=kmax, gap=gap, weights=nw), (a[1], b[1])
    close(acs_pair(a[0], b[0], s, tags), acs_counts_slow(a[0], b[0], s, tags))


def _tagged_real(real_pairs, n):
    from mtpalette.metrics.blanc import pos_view

    hyps, refs = real_pairs["one_ref"]
    texts = hyps[:n] + refs[0][:n]
    words = Encoder(TextView("13a", False)).encode(texts)
    tags = Encoder(pos_view(TextView("13a", False))).encode(texts)
    return [((words[i], tags[i]), (words[n + i], tags[n + i])) for i in range(n)]


def test_tagged_special_cases_on_real_pairs(real_pairs):
    """On 200 real pairs, tagged by the bundled tagger: (1) no tag-only match and lt = 0 is
    plain ACS exactly; (2) tags equal to the words is plain ACS whatever the weights; (3) with
    lw = 0 (tag-only matches weigh 1) and lt = 0 a match is a position whose words or tags
    agree: the largest size with a count is the LCS under that match, alpha = beta = 0 size 2
    counts its common skip-bigrams, and a very large alpha counts contiguous chains only."""
    for (cw, ct), (rw, rt) in _tagged_real(real_pairs, 200):
        s = AcsSettings(0.7, 0.3, kmax=6)
        plain = acs_pair(cw, rw, s)
        np.testing.assert_array_equal(plain, acs_pair(cw, rw, replace(s, weights=(0, 1)), (ct, rt)))
        np.testing.assert_array_equal(
            plain, acs_pair(cw, rw, replace(s, weights=(0.3, 0.2)), (cw, rw))
        )
        match = np.equal.outer(cw, rw) | np.equal.outer(ct, rt)
        m, n = match.shape
        lcs = np.zeros((m + 1, n + 1), dtype=int)
        for i in range(m):
            for j in range(n):
                lcs[i + 1, j + 1] = (
                    lcs[i, j] + 1 if match[i, j] else max(lcs[i, j + 1], lcs[i + 1, j])
                )
        both = AcsSettings(0, 0, kmax=max(m, n, 1), weights=(1.0, 1.0))
        counts = acs_pair(cw, rw, both, (ct, rt))
        top = int(np.flatnonzero(counts)[-1]) + 1 if counts.any() else 0
        assert top == lcs[m, n]
        pairs = int(match.sum())
        skip2 = sum(
            int(match[i + 1 :, j + 1 :].sum()) for i, j in zip(*np.nonzero(match), strict=True)
        )
        assert counts[0] == pairs and counts[1] == skip2
        big = acs_pair(cw, rw, replace(both, alpha=60.0, kmax=3), (ct, rt))
        runs = [
            sum(
                bool(match[i : i + k, j : j + k].diagonal().all())
                for i in range(m - k + 1)
                for j in range(n - k + 1)
            )  # fmt: skip
            for k in (1, 2, 3)
        ]
        np.testing.assert_allclose(big, runs, rtol=1e-9, atol=1e-12)
