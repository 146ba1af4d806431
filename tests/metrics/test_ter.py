"""TER equals sacrebleu's TER on real data, with one and two references and every option."""

import numpy as np
import pytest
from sacrebleu.metrics import TER as SacreTER

from mtpalette import corpus_score, sentence_scores
from mtpalette.errors import UserInputError
from mtpalette.metrics import parse_specs

N_PAIRS = 2000


def _sacrebleu_scores(metric: SacreTER, hyps, refs):
    """sacrebleu's sentence scores and corpus score from one pass over the corpus.

    ``sentence_score`` and ``corpus_score`` both aggregate the rows of
    ``_extract_corpus_statistics``; calling it once halves the (slow) Python work.
    """
    stats = metric._extract_corpus_statistics(hyps, refs)
    sentences = [metric._aggregate_and_compute([row]).score for row in stats]
    return np.array(sentences), metric._aggregate_and_compute(stats).score


@pytest.mark.parametrize("nrefs", ["one_ref", "two_refs"])
def test_equals_sacrebleu(real_pairs, nrefs):
    hyps, refs = real_pairs[nrefs]
    hyps, refs = hyps[:N_PAIRS], [r[:N_PAIRS] for r in refs]
    assert len(hyps) == N_PAIRS
    sacre = SacreTER()
    theirs, their_corpus = _sacrebleu_scores(sacre, hyps, refs)
    ours = sentence_scores(hyps, refs, ["ter"])["ter"]
    assert np.abs(ours - theirs).max() <= 1e-9
    assert corpus_score(hyps, refs, ["ter"])[0].value == pytest.approx(their_corpus, abs=1e-9)
    # the shortcut above is sacrebleu's public API
    for i in range(0, N_PAIRS, 97):
        public = sacre.sentence_score(hyps[i], [r[i] for r in refs]).score
        assert public == theirs[i]


@pytest.mark.parametrize(
    ("spec", "kwargs"),
    [
        ("ter:case=yes", {"case_sensitive": True}),
        ("ter:norm=yes", {"normalized": True}),
        ("ter:punct=no", {"no_punct": True}),
        (
            "ter:norm=yes,punct=no,case=yes",
            {"normalized": True, "no_punct": True, "case_sensitive": True},
        ),
    ],
)
def test_options_equal_sacrebleu(real_pairs, spec, kwargs):
    hyps, refs = real_pairs["two_refs"]
    hyps, refs = hyps[:200], [r[:200] for r in refs]
    theirs, their_corpus = _sacrebleu_scores(SacreTER(**kwargs), hyps, refs)
    np.testing.assert_allclose(sentence_scores(hyps, refs, [spec])[spec], theirs, atol=1e-9)
    assert corpus_score(hyps, refs, [spec])[0].value == pytest.approx(their_corpus, abs=1e-9)


@pytest.mark.parametrize("no_punct", [False, True])
def test_asian_support_equals_sacrebleu(no_punct):
    """Chinese text: the source sentences of the example zh-en set (written by the project),
    each paired with the next one (unrelated sentences: this checks the CJK tokenization, not
    translation quality)."""
    from mtpalette.io.judgments_mqm import bundled_mqm_ted
    from mtpalette.io.plain import read_lines

    source = read_lines(bundled_mqm_ted("zhen")["source"])
    hyps, refs = source[:59], [source[1:60]]
    kwargs = {"normalized": True, "asian_support": True, "no_punct": no_punct}
    spec = "ter:norm=yes,asian=yes" + (",punct=no" if no_punct else "")
    theirs, their_corpus = _sacrebleu_scores(SacreTER(**kwargs), hyps, refs)
    np.testing.assert_allclose(sentence_scores(hyps, refs, [spec])[spec], theirs, atol=1e-9)
    assert corpus_score(hyps, refs, [spec])[0].value == pytest.approx(their_corpus, abs=1e-9)
    # without the option a Chinese sentence is one or a few "words"
    assert sentence_scores(hyps, refs, ["ter"])["ter"].mean() != pytest.approx(theirs.mean())


def test_hand_case_and_empty():
    out = sentence_scores(["b c a", "", "x"], [["a b c", "a b", ""]], ["ter"])["ter"]
    # one shift of "a" to the front; an empty candidate needs |ref| insertions; a candidate
    # against an empty reference scores 100 (sacrebleu's rule)
    np.testing.assert_allclose(out, [100 / 3, 100.0, 100.0])
    sacre = SacreTER()
    expected = [sacre.sentence_score(h, [r]).score for h, r in [("b c a", "a b c"), ("", "a b")]]
    np.testing.assert_allclose(out[:2], expected)


def test_spec_and_signature():
    (ter,) = parse_specs(["ter:punct=no,case=yes"])
    assert ter.spec == "ter:case=yes,punct=no"
    sig = str(ter.signature(n_refs=1))
    for field in ("tok:tercom", "case:mixed", "norm:no", "punct:no", "asian:no", "nrefs:1"):
        assert field in sig
    assert str(parse_specs(["ter"])[0].signature(n_refs=2)).startswith("ter|")
    with pytest.raises(UserInputError):
        parse_specs(["ter:norm=maybe"])


def test_normalised_references_are_tokenized_twice_as_sacrebleu():
    """sacrebleu runs its TER tokenizer over each reference twice; with normalisation a
    possessive before punctuation splits only the second time. Once 0.0 here against
    sacrebleu's 40.0."""
    hyp = "It's, fine."
    theirs = SacreTER(normalized=True).sentence_score(hyp, [hyp]).score
    assert theirs == pytest.approx(40.0)
    assert sentence_scores([hyp], [[hyp]], ["ter:norm=yes"])["ter:norm=yes"][0] == theirs
    (score,) = corpus_score([hyp], [[hyp]], ["ter:norm=yes"])
    assert score.value == theirs and score.signature.fields["reftok"] == "twice"


def test_tokenized_twice_on_real_text_with_possessives(ted_zhen):
    """Real sentences with possessives as references (system outputs of the TED set, the
    human reference as the candidate), against sacrebleu: the twice-tokenized references
    change nothing where sacrebleu's do not (the bundled text has no possessive before a
    comma or period; the example above covers that case)."""
    systems, (ref_a, _) = ted_zhen
    pairs = [(ref_a[i], line) for out in systems.values() for i, line in enumerate(out)]
    keep = [p for p in pairs if "'s" in p[1]][:300]
    assert len(keep) == 300
    hyps, refs = [h for h, _ in keep], [[r for _, r in keep]]
    theirs, their_corpus = _sacrebleu_scores(SacreTER(normalized=True), hyps, refs)
    ours = sentence_scores(hyps, refs, ["ter:norm=yes"])["ter:norm=yes"]
    np.testing.assert_allclose(ours, theirs, atol=1e-9)
    assert corpus_score(hyps, refs, ["ter:norm=yes"])[0].value == pytest.approx(their_corpus)
