"""The routes straight from text (BLEU's n-gram counts, chrF's and chrF++'s statistics in one
compiled call each) equal the encoded route (tokenize into a vocabulary, then count ids) value
for value, on real and generated text, and are taken only where they apply.

Both routes are also checked against sacrebleu in test_bleu.py and test_chrf.py (which score
through the public API, so through the text routes).
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtpalette.metrics import bleu as bleu_module
from mtpalette.metrics import chrf as chrf_module
from mtpalette.metrics import parse_specs
from mtpalette.metrics.bleu import ngram_stats, ngram_stats_from_text
from mtpalette.metrics.scoring import TextPairs, compute_stats
from mtpalette.text.encode import TextView

NREFS = ["one_ref", "two_refs"]
BLEU_VIEWS = [TextView(t, lc) for t in ("13a", "none", "intl") for lc in (False, True)]
CHRF_GROUPS = [
    ["chrf"],
    ["chrf:w=2", "chrf", "chrf:n=4,w=1", "chrf:n=0,w=2"],
    ["chrf:ws=yes", "chrf:ws=yes,w=2"],
    ["chrf:lc=yes,w=2"],
    ["chrf:beta=1,eps=yes"],
]

#: pieces that exercise 13a's and intl's rules, chrF++'s edge marks and the byte
#: tokenizer's fallbacks
PIECES = "a b ab A . , - 1 3.5 &amp; &lt; < x-1 ... 's ? \"( é É İ 中文 😀".split() + [
    " ",
    "  ",
    "\n",
    "\t",
    "\u00a0",
    "\u2028",
]


@st.composite
def text_pairs(draw):
    """Candidates of random segments, 1-3 reference streams with missing references."""
    line = st.lists(st.sampled_from(PIECES), max_size=12).map("".join)
    n_seg = draw(st.integers(1, 6))
    n_refs = draw(st.integers(1, 3))
    refs = [
        draw(st.lists(st.one_of(line, st.none()), min_size=n_seg, max_size=n_seg))
        for _ in range(n_refs)
    ]
    seg = draw(st.lists(st.integers(0, n_seg - 1), min_size=1, max_size=10))
    hyps = [draw(line) for _ in seg]
    return TextPairs(hyps, np.array(seg, dtype=np.int64), refs)


def _encoded_route(metrics, pairs):
    """``compute_stats`` on fresh pairs whose views are encoded first: every text route
    declines."""
    fresh = TextPairs(pairs.hyps, pairs.seg, pairs.refs)
    for m in metrics:
        for view in (m.view(), *m.extra_views()):
            fresh.encoded(view)
    return compute_stats(metrics, fresh)


def _assert_routes_agree(specs, pairs):
    metrics = parse_specs(specs)
    fast = compute_stats(metrics, TextPairs(pairs.hyps, pairs.seg, pairs.refs))
    slow = _encoded_route(metrics, pairs)
    for m in metrics:
        np.testing.assert_array_equal(fast[m], slow[m], err_msg=m.spec)


# ------------------------------------------------------------------------------ BLEU
@pytest.mark.parametrize("parallel", [False, True], ids=["one thread", "parallel"])
@pytest.mark.parametrize("nrefs", NREFS)
@pytest.mark.parametrize("view", BLEU_VIEWS, ids=str)
def test_bleu_text_route_equals_the_encoded_route_on_real_data(
    real_pairs, nrefs, view, parallel, monkeypatch
):
    # the kernel on the calling thread alone, or over the pool whatever the size
    monkeypatch.setattr(bleu_module, "TEXT_PARALLEL_MIN_LINES", 0 if parallel else 1 << 62)
    hyps, refs = real_pairs[nrefs]
    fast = ngram_stats_from_text(TextPairs.parallel(hyps, refs), view, 5)
    slow = ngram_stats(TextPairs.parallel(hyps, refs).encoded(view), 5)
    np.testing.assert_array_equal(fast, slow)


@settings(max_examples=300, deadline=None)
@given(text_pairs(), st.sampled_from(BLEU_VIEWS), st.integers(1, 6))
def test_bleu_text_route_equals_the_encoded_route_on_generated_text(pairs, view, n):
    fast = ngram_stats_from_text(pairs, view, n)
    slow = ngram_stats(TextPairs(pairs.hyps, pairs.seg, pairs.refs).encoded(view), n)
    np.testing.assert_array_equal(fast, slow)


def test_bleu_text_route_taken_only_where_it_applies(real_pairs, monkeypatch):
    hyps, refs = real_pairs["two_refs"]
    calls = []
    original = bleu_module.bleu_text_stats
    monkeypatch.setattr(bleu_module, "bleu_text_stats", lambda *a: calls.append(1) or original(*a))
    bleu, wer = parse_specs(["bleu", "wer"])
    expected = ngram_stats(TextPairs.parallel(hyps, refs).encoded(TextView()), 4)
    pairs = TextPairs.parallel(hyps, refs)
    np.testing.assert_array_equal(compute_stats([bleu], pairs)[bleu], expected)
    assert calls and not pairs.is_encoded(TextView())  # straight from text, nothing kept
    # WER encodes the view anyway (first, whatever the order asked): BLEU counts its ids
    calls.clear()
    pairs = TextPairs.parallel(hyps, refs)
    np.testing.assert_array_equal(compute_stats([bleu, wer], pairs)[bleu], expected)
    assert not calls and pairs.is_encoded(TextView())
    # pairs sharing their encoders (ORANGE's rounds) count ids: each line tokenized once
    calls.clear()
    shared = {}
    for _ in range(2):
        pairs = TextPairs(hyps, np.arange(len(hyps)), refs, _encoders=shared)
        np.testing.assert_array_equal(compute_stats([bleu], pairs)[bleu], expected)
    assert not calls and len(shared[TextView()].vocab) > 0
    # a lone surrogate is not UTF-8: the encoded route keeps it as a token
    odd = TextPairs.parallel(["a \ud800 b"], [["a \ud800"]])
    assert ngram_stats_from_text(odd, TextView(), 2) is None
    # 3 tokens against 2: unigrams a and the surrogate, the bigram of the two
    assert compute_stats([bleu], odd)[bleu].tolist() == [[3, 2, 2, 1, 0, 0, 3, 2, 1, 0]]


# ------------------------------------------------------------------------------ chrF
@pytest.mark.parametrize("nrefs", NREFS)
@pytest.mark.parametrize("specs", CHRF_GROUPS, ids=" ".join)
def test_chrf_text_route_equals_the_encoded_route_on_real_data(real_pairs, nrefs, specs):
    _assert_routes_agree(specs, TextPairs.parallel(*real_pairs[nrefs]))


@settings(max_examples=300, deadline=None)
@given(text_pairs(), st.sampled_from(CHRF_GROUPS))
def test_chrf_text_route_equals_the_encoded_route_on_generated_text(pairs, specs):
    _assert_routes_agree(specs, pairs)


def test_chrf_text_route_taken_only_where_it_applies(monkeypatch):
    calls = []
    original = chrf_module.chrf_text_stats
    monkeypatch.setattr(
        chrf_module, "chrf_text_stats", lambda *a, **k: calls.append(1) or original(*a, **k)
    )
    (chrfpp,) = parse_specs(["chrf:w=2"])
    pairs = TextPairs.parallel(["the cat, sat."], [["the cat sat."]])
    fast = compute_stats([chrfpp], pairs)[chrfpp]
    assert calls and not pairs.is_encoded(chrfpp.view())
    calls.clear()
    assert np.array_equal(_encoded_route([chrfpp], pairs)[chrfpp], fast) and not calls
    # characters t h e c a t , s a t . / t h e c a t s a t .: 11 and 10, all 10 match;
    # words the cat , sat . / the cat sat .: 5 and 4, 4 match
    assert fast[0, :3].tolist() == [11, 10, 10] and fast[0, -6:-3].tolist() == [5, 4, 4]
    odd = TextPairs.parallel(["a \ud800"], [["a"]])
    assert chrf_module.ChrF.compute_group_text([chrfpp], odd) is None
    assert compute_stats([chrfpp], odd)[chrfpp][0, :3].tolist() == [2, 1, 1]
