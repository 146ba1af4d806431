"""BLEU and BLEU-S: parity with sacrebleu on real data, hand-checked cases, a slow twin."""

import logging
import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU as SacreBLEU

from mtpalette import corpus_score, sentence_scores
from mtpalette.metrics import parse_specs
from mtpalette.metrics.bleu import bleu_from_stats, bleu_scores
from mtpalette.metrics.scoring import TextPairs, compute_stats
from mtpalette.text.tokenizers import tokenize_13a

logging.getLogger("sacrebleu").setLevel(logging.ERROR)

SMOOTHING = [("none", None), ("floor", 0.1), ("add-k", 1.0), ("exp", None)]


def _sacre_sentences(bleu, hyps, refs):
    return np.array(
        [bleu.sentence_score(h, [r[i] for r in refs]).score for i, h in enumerate(hyps)]
    )


@pytest.mark.parametrize("nrefs", ["one_ref", "two_refs"])
@pytest.mark.parametrize("smooth,value", SMOOTHING)
def test_corpus_bleu_equals_sacrebleu(real_pairs, nrefs, smooth, value):
    hyps, refs = real_pairs[nrefs]
    assert len(hyps) >= 2000
    spec = f"bleu:smooth={smooth}" + (f",value={value}" if value is not None else "")
    ours = corpus_score(hyps, refs, [spec])[0].value
    theirs = SacreBLEU(smooth_method=smooth, smooth_value=value).corpus_score(hyps, refs).score
    assert ours == pytest.approx(theirs, abs=1e-9)


@pytest.mark.parametrize("nrefs", ["one_ref", "two_refs"])
@pytest.mark.parametrize("smooth,value", SMOOTHING)
@pytest.mark.parametrize("eff", [True, False])
def test_sentence_bleu_equals_sacrebleu(real_pairs, nrefs, smooth, value, eff):
    hyps, refs = real_pairs[nrefs]
    spec = f"bleu:smooth={smooth},eff={'yes' if eff else 'no'}"
    if value is not None:
        spec += f",value={value}"
    (ours,) = sentence_scores(hyps, refs, [spec]).values()
    sacre = SacreBLEU(smooth_method=smooth, smooth_value=value, effective_order=eff)
    np.testing.assert_allclose(ours, _sacre_sentences(sacre, hyps, refs), rtol=0, atol=1e-9)


def test_default_sentence_bleu_is_sacrebleu_sentence_bleu(real_pairs):
    import sacrebleu

    hyps, refs = real_pairs["two_refs"]
    ours = sentence_scores(hyps[:800], [r[:800] for r in refs], ["bleu"])["bleu"]
    theirs = [
        sacrebleu.sentence_bleu(h, [r[i] for r in refs]).score for i, h in enumerate(hyps[:800])
    ]
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-9)


@pytest.mark.parametrize("tok", ["intl", "none", "char", "13a"])
@pytest.mark.parametrize("lowercase", [False, True])
def test_tokenizer_and_case_options(real_pairs, tok, lowercase):
    hyps, refs = real_pairs["two_refs"]
    hyps, refs = hyps[:600], [r[:600] for r in refs]
    ours = corpus_score(hyps, refs, ["bleu"], tokenize=tok, lowercase=lowercase)[0].value
    theirs = SacreBLEU(tokenize=tok, lowercase=lowercase).corpus_score(hyps, refs).score
    assert ours == pytest.approx(theirs, abs=1e-9)


def test_variable_number_of_references(ted_zhen):
    systems, (ref_a, ref_b) = ted_zhen
    hyps = systems["Online-W"]
    ref_b = [r if i % 3 else None for i, r in enumerate(ref_b)]
    ours = corpus_score(hyps, [ref_a, ref_b], ["bleu"])[0]
    assert ours.value == pytest.approx(
        SacreBLEU().corpus_score(hyps, [ref_a, ref_b]).score, abs=1e-9
    )
    sent = sentence_scores(hyps, [ref_a, ref_b], ["bleu"])["bleu"]
    sacre = SacreBLEU(effective_order=True)
    expected = [
        sacre.sentence_score(h, [r for r in (a, b) if r is not None]).score
        for h, a, b in zip(hyps, ref_a, ref_b, strict=True)
    ]
    np.testing.assert_allclose(sent, expected, rtol=0, atol=1e-9)


# ---------------------------------------------------------------------------- BLEU-S
def bleus_slow(hyp: str, refs: list[str], n: int) -> float:
    """BLEU-S straight from the ORANGE paper (section 4), on 13a tokens, 0-100."""
    h = tokenize_13a(hyp)
    rs = [tokenize_13a(r) for r in refs]

    def grams(toks, k):
        return Counter(tuple(toks[i : i + k]) for i in range(len(toks) - k + 1))

    logs = 0.0
    for k in range(1, n + 1):
        hc = grams(h, k)
        best = Counter()
        for r in rs:
            for g, c in grams(r, k).items():
                best[g] = max(best[g], c)
        hits = sum(min(c, best[g]) for g, c in hc.items())
        total = sum(hc.values())
        if k == 1 and hits == 0:
            return 0.0  # nothing matches
        if k > 1:
            hits, total = hits + 1, total + 1
        logs += math.log(100.0 * hits / total)
    closest = min((len(r) for r in rs), key=lambda length: (abs(length - len(h)), length))
    bp = 1.0 if len(h) >= closest else math.exp(1 - closest / len(h))
    return bp * math.exp(logs / n)


def test_bleus_hand_cases():
    ref = ["police killed the gunman"]
    # "police kill the gunman": unigrams 3/4; bigrams 1 hit ("the gunman") of 3, +1 -> 2/4;
    # lengths equal, so BP = 1 and BLEU-S2 = 100 * sqrt(3/4 * 2/4).
    got = sentence_scores(["police kill the gunman"], [ref], ["bleus:2"])["bleus:2"][0]
    assert got == pytest.approx(100 * math.sqrt(3 / 4 * 2 / 4), abs=1e-12)
    # "the gunman": 2/2 unigrams, bigrams (1+1)/(1+1); BP = exp(1 - 4/2) -> 100 * e^-1.
    got = sentence_scores(["the gunman"], [ref], ["bleus:4"])["bleus:4"][0]
    assert got == pytest.approx(100 * math.exp(-1), abs=1e-12)
    # a one-word candidate still scores with BLEU-S4: p1 = 1, p2..4 = 1/1, BP = exp(1 - 4).
    got = sentence_scores(["police"], [ref], ["bleus:4"])["bleus:4"][0]
    assert got == pytest.approx(100 * math.exp(-3), abs=1e-12)
    # nothing matches -> 0, and the empty candidate -> 0.
    out = sentence_scores(["no match here", ""], [ref * 2], ["bleus:4"])["bleus:4"]
    assert out.tolist() == [0.0, 0.0]


def test_bleus_equals_slow_definition_on_real_data(real_pairs):
    hyps, refs = real_pairs["two_refs"]
    hyps, refs = hyps[::3], [r[::3] for r in refs]
    out = sentence_scores(hyps, refs, ["bleus:1..9"])
    for n in range(1, 10):
        expected = [bleus_slow(h, [r[i] for r in refs], n) for i, h in enumerate(hyps)]
        np.testing.assert_allclose(out[f"bleus:{n}"], expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("n", [1, 4, 9])
def test_bleus_equals_sacrebleu_add_one(real_pairs, n):
    hyps, refs = real_pairs["one_ref"]
    ours = sentence_scores(hyps, refs, [f"bleus:{n}"])[f"bleus:{n}"]
    sacre = SacreBLEU(smooth_method="add-k", smooth_value=1, max_ngram_order=n)
    np.testing.assert_allclose(ours, _sacre_sentences(sacre, hyps, refs), rtol=0, atol=1e-9)


def test_grid_shares_one_pass_with_same_numbers(real_pairs):
    hyps, refs = real_pairs["two_refs"]
    pairs = TextPairs.parallel(hyps[:500], [r[:500] for r in refs])
    grid = parse_specs(["bleus:1..9"])
    shared = compute_stats(grid, pairs)
    for metric in grid:
        alone = compute_stats([metric], pairs)[metric]
        np.testing.assert_array_equal(shared[metric], alone)


def test_signature_names_everything():
    score = corpus_score(["a b c"], [["a b c"], ["a b d"]], ["bleus:4"], lowercase=True)[0]
    text = str(score.signature)
    for part in ("bleus:4", "nrefs:2", "tok:13a", "case:lc", "smooth:add-one(n>1)", "version:"):
        assert part in text


@st.composite
def stat_rows(draw):
    n = draw(st.integers(1, 6))
    hyp_len = draw(st.integers(0, 12))
    total = [max(hyp_len - k, 0) for k in range(n)]
    correct = [draw(st.integers(0, t)) for t in total]
    for k in range(1, n):  # a matched k-gram implies matched (k-1)-grams
        correct[k] = min(correct[k], correct[k - 1])
    ref_len = draw(st.integers(0, 15))
    return n, np.array([hyp_len, ref_len, *correct, *total], dtype=float)


@settings(max_examples=400, deadline=None)
@given(stat_rows(), st.sampled_from(SMOOTHING), st.booleans())
def test_vectorised_formula_equals_scalar_twin(row, smoothing, eff):
    n, stats = row
    smooth, value = smoothing
    fast = bleu_scores(stats[None, :], n, smooth=smooth, smooth_value=value, effective_order=eff)
    slow = bleu_from_stats(stats, n, smooth=smooth, smooth_value=value, effective_order=eff)
    assert fast[0] == pytest.approx(slow, rel=1e-12, abs=0)  # numpy vs libm log: an ulp
