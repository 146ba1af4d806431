"""The Kneser-Ney LM gives normalised probabilities; IBM Model 1's EM never lowers the
likelihood (on real TED zh-en sentence pairs)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from real_data import mqm_ted

from mtpalette.io.plain import read_lines
from mtpalette.models.ibm1 import IBMModel1
from mtpalette.models.ngram_lm import BOS, EOS, KneserNeyLM, vocabulary_mass
from mtpalette.text.tokenizers import get_tokenizer

ROOT = mqm_ted("zhen")["root"]

sentences = st.lists(st.lists(st.sampled_from(list("abcde")), max_size=6), min_size=1, max_size=8)


@settings(max_examples=60, deadline=None)
@given(sentences, st.lists(st.sampled_from(list("abcdez")), max_size=4), st.integers(1, 4))
def test_probabilities_sum_to_one(corpus, context, order):
    lm = KneserNeyLM.train(corpus, order=order)
    assert vocabulary_mass(lm, context) == pytest.approx(1.0, abs=1e-12)
    assert all(lm.prob(w, context) > 0 for w in lm.events())


def test_lm_on_real_text_prefers_real_order():
    tok = get_tokenizer("13a")
    lines = [tok(x.lower()) for x in read_lines(ROOT / "ref.txt")]
    lm = KneserNeyLM.train(lines[:400], order=4)
    for words in lines[400:420]:
        if len(words) > 3:
            assert lm.logprob(words) > lm.logprob(list(reversed(words)))
    assert vocabulary_mass(lm, [BOS, "the"]) == pytest.approx(1.0, abs=1e-9)
    assert lm.prob(EOS, ["."]) > lm.prob(EOS, ["the"])


def test_ibm1_em_never_lowers_the_likelihood():
    zh, en = get_tokenizer("jieba"), get_tokenizer("13a")
    pairs = [
        (en(e.lower()), zh(z))
        for z, e in zip(read_lines(ROOT / "source.txt"), read_lines(ROOT / "ref.txt"), strict=True)
    ]
    model, history = IBMModel1.train(pairs[:300], iterations=6)
    assert len(history) == 7
    assert all(b >= a - 1e-6 for a, b in zip(history, history[1:], strict=False))
    assert history[-1] > history[0] + 100  # it learns something
    # a real translation pair scores higher than a mismatched one
    assert model.logprob(*pairs[0]) > model.logprob(pairs[0][0], pairs[1][1])
