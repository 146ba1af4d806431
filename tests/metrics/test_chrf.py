"""chrF and chrF++ equal sacrebleu's CHRF on real data (1 and 2 references, English, German,
Chinese), on random strings (hypothesis), and on small cases checked by hand."""


import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from real_data import mqm_ted
from sacrebleu.metrics import CHRF

from mtpalette import corpus_score, sentence_scores
from mtpalette.errors import UserInputError
from mtpalette.metrics.chrf import ChrF, chrf_words
from mtpalette.metrics.registry import parse_spec
from mtpalette.metrics.scoring import TextPairs, compute_stats

VARIANTS = [
    ("chrf", {}),
    ("chrf:w=2", {"word_order": 2}),
    ("chrf:w=2,eps=yes", {"word_order": 2, "eps_smoothing": True}),
    ("chrF++", {"word_order": 2}),  # sacrebleu's name
    (
        "chrf:n=4,w=1,beta=1,ws=yes",
        {"char_order": 4, "word_order": 1, "beta": 1, "whitespace": True},
    ),
]


def _sacre_sentences(sacre, hyps, refs):
    return np.array(
        [
            sacre.sentence_score(h, [r[i] for r in refs if r[i] is not None]).score
            for i, h in enumerate(hyps)
        ]
    )


def _assert_parity(spec, kwargs, hyps, refs, lowercase=False):
    sacre = CHRF(lowercase=lowercase, **kwargs)
    out = sentence_scores(hyps, refs, [spec], lowercase=lowercase)
    (ours,) = out.values()
    np.testing.assert_allclose(ours, _sacre_sentences(sacre, hyps, refs), rtol=0, atol=1e-9)
    corpus = corpus_score(hyps, refs, [spec], lowercase=lowercase)[0].value
    assert corpus == pytest.approx(sacre.corpus_score(hyps, refs).score, rel=0, abs=1e-9)
    return ours


@pytest.mark.parametrize("nrefs", ["one_ref", "two_refs"])
@pytest.mark.parametrize("spec,kwargs", VARIANTS)
def test_equals_sacrebleu_on_real_data(real_pairs, nrefs, spec, kwargs):
    # one_ref: German (en-de TED), two_refs: English (zh-en TED, references A and B)
    hyps, refs = real_pairs[nrefs]
    assert len(hyps) >= 2000 and len(refs) == (1 if nrefs == "one_ref" else 2)
    _assert_parity(spec, kwargs, hyps, refs)


def test_statistics_are_those_of_sacrebleus_best_reference(real_pairs):
    # The rows themselves, not only the scores: the best reference is chosen as sacrebleu
    # does (first one on ties), so summed rows give the same corpus score.
    hyps, refs = real_pairs["two_refs"]
    hyps, refs = hyps[:600], [r[:600] for r in refs]
    (metric,) = parse_spec("chrf:w=2")
    ours = compute_stats([metric], TextPairs.parallel(hyps, refs))[metric]
    theirs = np.array(CHRF(word_order=2)._extract_corpus_statistics(hyps, refs), dtype=float)
    np.testing.assert_array_equal(ours, theirs)


def test_lowercase_equals_sacrebleu(real_pairs):
    hyps, refs = real_pairs["two_refs"]
    _assert_parity("chrf:w=2", {"word_order": 2}, hyps[:500], [r[:500] for r in refs], True)


def _zh_source():
    root = mqm_ted("zhen")["root"]
    return (root / "source.txt").read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("spec,kwargs", VARIANTS[:3])
def test_chinese_text_equals_sacrebleu(spec, kwargs):
    # Real Chinese (the zh-en TED sources, with CJK punctuation and a few spaces) scored
    # against two other real lines: the next one and a line drawn by a seeded permutation.
    lines = _zh_source()
    order = np.random.default_rng(3).permutation(len(lines))
    hyps = lines
    refs = [lines[1:] + lines[:1], [lines[i] for i in order]]
    ours = _assert_parity(spec, kwargs, hyps, refs)
    assert (ours > 0).mean() > 0.9  # characters do overlap: a real test, not all zeros


@pytest.mark.parametrize("spec", ["chrf", "chrf:w=2", "chrf:ws=yes", "chrf:eps=yes"])
def test_identity_gets_100_also_in_chinese(real_pairs, spec):
    hyps = real_pairs["one_ref"][0][:300] + _zh_source()[:300]
    hyps = [h for h in hyps if h.strip()]
    out = sentence_scores(hyps, [hyps], [spec])[spec]
    if spec == "chrf:eps=yes":  # orders a short line lacks count as eps, not as 1
        full = np.array([len("".join(h.split())) >= 6 for h in hyps])
        np.testing.assert_allclose(out[full], 100.0, rtol=0, atol=1e-9)
    else:
        np.testing.assert_allclose(out, 100.0, rtol=0, atol=1e-9)
    assert corpus_score(hyps, [hyps], [spec])[0].value == pytest.approx(100.0, abs=1e-9)


# ----------------------------------------------------------------- by hand
def test_hand_checked_recall():
    # "the cat sat" vs "the cat sat down": 9 characters against 13, all candidate n-grams
    # match: P = 1, R_n = (10 - n) / (14 - n); chrF2 = 5 P R / (4 P + R) with R averaged.
    recall = np.mean([(10 - n) / (14 - n) for n in range(1, 7)])
    expected = 100 * 5 * recall / (4 + recall)
    (out,) = sentence_scores(["the cat sat"], [["the cat sat down"]], ["chrf"]).values()
    assert out[0] == pytest.approx(expected, rel=1e-12)


def test_orders_the_reference_lacks_are_left_out():
    # reference "ab" has no 3-gram: orders 3..6 count 0 candidate n-grams (sacrebleu's rule)
    # and only orders 1-2 are averaged: P = (2/7 + 1/6) / 2, R = (2/2 + 1/1) / 2 = 1.
    (metric,) = parse_spec("chrf")
    stats = compute_stats([metric], TextPairs.parallel(["abcdefg"], [["ab"]]))[metric]
    assert stats.reshape(6, 3).tolist() == [[7, 2, 2], [6, 1, 1]] + [[0, 0, 0]] * 4
    p = (2 / 7 + 1 / 6) / 2
    assert metric.sentence_scores(stats)[0] == pytest.approx(100 * 5 * p / (4 * p + 1))


def test_best_reference_is_kept_and_first_wins_ties():
    (metric,) = parse_spec("chrf:n=1")
    # candidate 1: the second reference is exact; candidate 2: both references score 0,
    # the first one's statistics are kept (sacrebleu's strict ">"), which the corpus sums
    tp = TextPairs.parallel(["abc", "ab"], [["xyz", "xy"], ["abc", "xyz"]])
    assert compute_stats([metric], tp)[metric].tolist() == [[3, 3, 3], [2, 2, 0]]


def test_whitespace_option_keeps_spaces():
    # with ws=yes "a b" has the characters a, space, b: the bigram "a " matches "a c"
    (ws,) = parse_spec("chrf:ws=yes,n=2")
    (plain,) = parse_spec("chrf:n=2")
    tp = TextPairs.parallel(["a b"], [["a c"]])
    assert compute_stats([ws], tp)[ws].tolist() == [[3, 3, 2, 2, 2, 1]]
    assert compute_stats([plain], tp)[plain].tolist() == [[2, 2, 1, 1, 1, 0]]


def test_variants_share_one_pass_and_keep_their_own_rows(real_pairs):
    hyps, refs = real_pairs["two_refs"]
    hyps, refs = hyps[:300], [r[:300] for r in refs]
    specs = ["chrf:w=2", "chrf:n=3,w=1", "chrf:w=2,beta=1", "chrf:n=0,w=2"]
    together = compute_stats(
        [m for s in specs for m in parse_spec(s)], TextPairs.parallel(hyps, refs)
    )
    for spec in specs:
        (metric,) = parse_spec(spec)
        alone = compute_stats([metric], TextPairs.parallel(hyps, refs))[metric]
        np.testing.assert_array_equal(together[metric], alone)


def test_variable_references_and_empty_hypothesis():
    hyps = ["the cat sat on the mat", ""]
    refs = [["a cat sat on a mat", "x"], [None, "y"]]
    sacre = CHRF(word_order=2)
    (ours,) = sentence_scores(hyps, refs, ["chrf:w=2"]).values()
    assert ours[0] == pytest.approx(sacre.sentence_score(hyps[0], ["a cat sat on a mat"]).score)
    assert ours[1] == 0.0
    corpus = corpus_score(hyps, refs, ["chrf:w=2"])[0].value
    assert corpus == pytest.approx(sacre.corpus_score(hyps, refs).score, abs=1e-9)


def test_word_split():
    # one mark only, the trailing one first: "(b)" keeps its "("; a lone mark stays
    assert chrf_words("a, (b) c. (d ( ") == ["a", ",", "(b", ")", "c", ".", "(", "d", "("]


def test_bad_options():
    for spec in ["chrf:n=0", "chrf:beta=0", "chrf:ws=maybe", "chrf:w=-1"]:
        with pytest.raises(UserInputError):
            parse_spec(spec)
    assert ChrF(n=0, w=2).spec == "chrf:n=0,w=2"


# ----------------------------------------------------------------- random strings
text = st.text(alphabet="aab bc.,(\"'Éé中文 \t", max_size=14)


@settings(max_examples=120, deadline=None)
@given(
    st.lists(st.tuples(text, text, st.one_of(st.none(), text)), min_size=1, max_size=5),
    st.sampled_from(VARIANTS + [("chrf:n=3,w=3,lc=yes", {"char_order": 3, "word_order": 3})]),
)
def test_random_strings_equal_sacrebleu(segments, variant):
    spec, kwargs = variant
    hyps = [h for h, _, _ in segments]
    refs = [[a for _, a, _ in segments], [b for _, _, b in segments]]
    assume(refs[0] != refs[1])  # two copies of one reference are refused, not two references
    lowercase = "lc=yes" in spec
    sacre = CHRF(lowercase=lowercase, **kwargs)
    (ours,) = sentence_scores(hyps, refs, [spec]).values()
    np.testing.assert_allclose(ours, _sacre_sentences(sacre, hyps, refs), rtol=0, atol=1e-9)
    corpus = corpus_score(hyps, refs, [spec])[0].value
    assert corpus == pytest.approx(sacre.corpus_score(hyps, refs).score, rel=0, abs=1e-9)
