"""chrF and chrF++ equal sacrebleu on real data (1 and 2 references, Latin and CJK)."""

from importlib import resources

import numpy as np
import pytest
from sacrebleu.metrics import CHRF

from mtpalette import corpus_score, sentence_scores
from mtpalette.metrics.chrf import chrf_words

VARIANTS = [
    ("chrf", {}),
    ("chrf:w=2", {"word_order": 2}),
    ("chrf:eps=yes", {"eps_smoothing": True}),
    ("chrf:n=4,beta=1", {"char_order": 4, "beta": 1}),
]


@pytest.mark.parametrize("nrefs", ["one_ref", "two_refs"])
@pytest.mark.parametrize("spec,kwargs", VARIANTS)
def test_equals_sacrebleu(real_pairs, nrefs, spec, kwargs):
    hyps, refs = real_pairs[nrefs]
    assert len(hyps) >= 2000
    sacre = CHRF(**kwargs)
    assert corpus_score(hyps, refs, [spec])[0].value == pytest.approx(
        sacre.corpus_score(hyps, refs).score, abs=1e-9
    )
    (ours,) = sentence_scores(hyps, refs, [spec]).values()
    theirs = [sacre.sentence_score(h, [r[i] for r in refs]).score for i, h in enumerate(hyps)]
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-9)


def test_lowercase_equals_sacrebleu(real_pairs):
    hyps, refs = real_pairs["one_ref"]
    ours = corpus_score(hyps[:500], [r[:500] for r in refs], ["chrf:w=2"], lowercase=True)
    theirs = CHRF(word_order=2, lowercase=True).corpus_score(hyps[:500], [r[:500] for r in refs])
    assert ours[0].value == pytest.approx(theirs.score, abs=1e-9)


def test_chinese_text():
    # The bundled Chinese sources scored against the same sources one line later: real CJK
    # text with partial character overlap.
    root = resources.files("mtpalette") / "data" / "mqm_ted" / "zhen"
    lines = (root / "source.txt").read_text(encoding="utf-8").splitlines()
    hyps, refs = lines[1:], [lines[:-1]]
    (ours,) = sentence_scores(hyps, refs, ["chrf:w=2"]).values()
    sacre = CHRF(word_order=2)
    theirs = [sacre.sentence_score(h, [r]).score for h, r in zip(hyps, refs[0], strict=True)]
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-9)


def test_variable_references_and_empty_hypothesis():
    hyps = ["the cat sat on the mat", ""]
    refs = [["a cat sat on a mat", "x"], [None, "y"]]
    (ours,) = sentence_scores(hyps, refs, ["chrf"]).values()
    sacre = CHRF()
    assert ours[0] == pytest.approx(sacre.sentence_score(hyps[0], [refs[0][0]]).score, abs=1e-9)
    assert ours[1] == 0.0


def test_word_split():
    # one mark only, the trailing one first: "(b)" keeps its "("
    assert chrf_words("a, (b) c. (d") == ["a", ",", "(b", ")", "c", ".", "(", "d"]
