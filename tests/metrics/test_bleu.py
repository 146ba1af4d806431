"""BLEU and BLEU-S: sacrebleu parity on real data, hand-checked BLEU-S, an independent twin.

sacrebleu is the reference for BLEU: its per-segment statistics (``BLEUScore.sys_len``,
``ref_len``, ``counts``, ``totals``) must equal ours exactly, and its scores (``compute_bleu``
on those statistics, ``sentence_bleu``, ``corpus_score``) must equal ours to 1e-9.
BLEU-S follows the ORANGE paper (Lin and Och, 2004, section 4).
"""

import logging
import math
from collections import Counter

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU as SacreBLEU

from mtpalette import corpus_score, sentence_scores
from mtpalette.metrics import parse_specs
from mtpalette.metrics.bleu import bleu_from_stats, bleu_scores, ngram_stats
from mtpalette.metrics.scoring import TextPairs, compute_stats
from mtpalette.text.encode import TextView
from mtpalette.text.tokenizers import tokenize_13a

logging.getLogger("sacrebleu").setLevel(logging.ERROR)

SMOOTHING = [("none", None), ("floor", 0.1), ("add-k", 1.0), ("exp", None)]
NREFS = ["one_ref", "two_refs"]


def _refs_of(refs, i):
    return [r[i] for r in refs]


def _sacre_stats(hyps, refs, **options):
    """sacrebleu's per-segment statistics ``[sys_len, ref_len, counts, totals]``, as rows."""
    bleu = SacreBLEU(smooth_method="none", **options)  # "none" leaves counts untouched
    rows = []
    for i, h in enumerate(hyps):
        s = bleu.sentence_score(h, [r for r in _refs_of(refs, i) if r is not None])
        rows.append([s.sys_len, s.ref_len, *s.counts, *s.totals])
    return np.array(rows, dtype=float)


@pytest.fixture(scope="module")
def sacre_stats(real_pairs):
    return {key: _sacre_stats(*real_pairs[key]) for key in NREFS}


def _our_stats(hyps, refs, n=4, tokenize="13a", lowercase=False):
    return ngram_stats(TextPairs.parallel(hyps, refs).encoded(TextView(tokenize, lowercase)), n)


# ------------------------------------------------------------------------------ BLEU
@pytest.mark.parametrize("nrefs", NREFS)
def test_statistics_equal_sacrebleu_exactly(real_pairs, sacre_stats, nrefs):
    hyps, refs = real_pairs[nrefs]
    assert len(hyps) >= 2000
    np.testing.assert_array_equal(_our_stats(hyps, refs), sacre_stats[nrefs])


@pytest.mark.parametrize("nrefs", NREFS)
@pytest.mark.parametrize("smooth,value", SMOOTHING)
@pytest.mark.parametrize("eff", [True, False])
def test_sentence_bleu_equals_sacrebleu(real_pairs, sacre_stats, nrefs, smooth, value, eff):
    """Every smoothing, with and without effective order, on every real pair."""
    hyps, refs = real_pairs[nrefs]
    spec = f"bleu:smooth={smooth},eff={'yes' if eff else 'no'}"
    if value is not None:
        spec += f",value={value}"
    (ours,) = sentence_scores(hyps, refs, [spec]).values()
    theirs = [
        SacreBLEU.compute_bleu(
            [int(c) for c in row[2:6]],
            [int(t) for t in row[6:10]],
            int(row[0]),
            int(row[1]),
            smooth_method=smooth,
            smooth_value=value,
            effective_order=eff,
        ).score
        for row in sacre_stats[nrefs]
    ]
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-9)


@pytest.mark.parametrize("nrefs", NREFS)
def test_default_sentence_bleu_is_sacrebleu_sentence_bleu(real_pairs, nrefs):
    """``sacrebleu.sentence_bleu`` (exp smoothing, effective order) end to end."""
    hyps, refs = real_pairs[nrefs]
    ours = sentence_scores(hyps, refs, ["bleu"])["bleu"]
    theirs = [sacrebleu.sentence_bleu(h, _refs_of(refs, i)).score for i, h in enumerate(hyps)]
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-9)


@pytest.mark.parametrize("nrefs", NREFS)
@pytest.mark.parametrize("smooth,value", SMOOTHING)
def test_corpus_bleu_equals_sacrebleu(real_pairs, nrefs, smooth, value):
    hyps, refs = real_pairs[nrefs]
    spec = f"bleu:smooth={smooth}" + (f",value={value}" if value is not None else "")
    ours = corpus_score(hyps, refs, [spec])[0].value
    theirs = SacreBLEU(smooth_method=smooth, smooth_value=value).corpus_score(hyps, refs).score
    assert ours == pytest.approx(theirs, abs=1e-9)


@pytest.mark.parametrize("tok", ["intl", "none", "char", "13a"])
@pytest.mark.parametrize("lowercase", [False, True])
def test_tokenizer_and_case_options(real_pairs, tok, lowercase):
    hyps, refs = real_pairs["two_refs"]
    hyps, refs = hyps[::4], [r[::4] for r in refs]
    options = {"tokenize": tok, "lowercase": lowercase}
    np.testing.assert_array_equal(
        _our_stats(hyps, refs, 4, tok, lowercase), _sacre_stats(hyps, refs, **options)
    )
    ours = corpus_score(hyps, refs, ["bleu"], **options)[0].value
    theirs = SacreBLEU(**options).corpus_score(hyps, refs).score
    assert ours == pytest.approx(theirs, abs=1e-9)
    sent = sentence_scores(hyps, refs, ["bleu"], **options)["bleu"]
    sacre = SacreBLEU(effective_order=True, **options)
    expected = [sacre.sentence_score(h, _refs_of(refs, i)).score for i, h in enumerate(hyps)]
    np.testing.assert_allclose(sent, expected, rtol=0, atol=1e-9)


def test_variable_number_of_references(ted_zhen):
    """``None`` drops a reference for that segment, as in sacrebleu (an empty one counts)."""
    systems, (ref_a, ref_b) = ted_zhen
    hyps = systems["Online-W"]
    ref_b = [r if i % 3 else None for i, r in enumerate(ref_b)]
    ref_b[1] = ""  # an empty reference is a reference of length 0
    ours = corpus_score(hyps, [ref_a, ref_b], ["bleu"])[0]
    assert ours.value == pytest.approx(
        SacreBLEU().corpus_score(hyps, [ref_a, ref_b]).score, abs=1e-9
    )
    sent = sentence_scores(hyps, [ref_a, ref_b], ["bleu", "bleus:4"])
    sacre = SacreBLEU(effective_order=True)
    addk = SacreBLEU(smooth_method="add-k", smooth_value=1)
    pairs = [
        (h, [r for r in (a, b) if r is not None])
        for h, a, b in zip(hyps, ref_a, ref_b, strict=True)
    ]
    np.testing.assert_allclose(
        sent["bleu"], [sacre.sentence_score(h, r).score for h, r in pairs], rtol=0, atol=1e-9
    )
    np.testing.assert_allclose(
        sent["bleus:4"], [addk.sentence_score(h, r).score for h, r in pairs], rtol=0, atol=1e-9
    )


# ---------------------------------------------------------------------------- BLEU-S
def bleus_slow(hyp: str, refs: list[str], n: int) -> float:
    """BLEU-S straight from the ORANGE paper (section 4) with Counters, on 13a tokens, 0-100.

    Clipped hits over the references (a hypothesis n-gram counts at most as often as in the
    reference where it is most frequent), one added to hits and totals for orders above 1,
    the geometric mean of the n precisions, BLEU's brevity penalty against the closest
    reference length (the shorter one on a tie); 0 if no unigram matches.
    """
    h = tokenize_13a(hyp)
    rs = [tokenize_13a(r) for r in refs]

    def grams(toks, k):
        return Counter(tuple(toks[i : i + k]) for i in range(len(toks) - k + 1))

    log_sum = 0.0
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
        log_sum += math.log(hits / total)
    closest = min((len(r) for r in rs), key=lambda length: (abs(length - len(h)), length))
    bp = 1.0 if len(h) >= closest else math.exp(1 - closest / len(h))
    return 100.0 * bp * math.exp(log_sum / n)


def _bleus(hyp, refs, n):
    return sentence_scores([hyp], [[r] for r in refs], [f"bleus:{n}"])[f"bleus:{n}"][0]


def test_bleus_hand_cases():
    ref = ["police killed the gunman"]
    # "police kill the gunman": unigrams 3 of 4 match; bigrams: only "the gunman" of 3,
    # plus one: 2/4. Equal lengths, BP = 1: BLEU-S2 = 100 * sqrt(3/4 * 2/4) = 61.237...
    assert _bleus("police kill the gunman", ref, 2) == pytest.approx(
        100 * math.sqrt(3 / 4 * 2 / 4), abs=1e-12
    )
    # BLEU-S4 of the same: trigrams 0 of 2 -> 1/3, 4-grams 0 of 1 -> 1/2:
    # 100 * (3/4 * 2/4 * 1/3 * 1/2) ** (1/4) = 50.
    assert _bleus("police kill the gunman", ref, 4) == pytest.approx(50.0, abs=1e-12)
    # "the gunman": 2/2 unigrams, bigrams (1+1)/(1+1), trigrams and 4-grams (0+1)/(0+1);
    # BP = exp(1 - 4/2): BLEU-S4 = 100 * e^-1.
    assert _bleus("the gunman", ref, 4) == pytest.approx(100 * math.exp(-1), abs=1e-12)
    # shorter than n: "police" has 1/1 unigrams and no n-grams above (0+1)/(0+1);
    # BP = exp(1 - 4/1) -> 100 * e^-3 for BLEU-S4 and also for BLEU-S9.
    assert _bleus("police", ref, 4) == pytest.approx(100 * math.exp(-3), abs=1e-12)
    assert _bleus("police", ref, 9) == pytest.approx(100 * math.exp(-3), abs=1e-12)
    # clipping: "the the the the" vs "the cat the": "the" clipped to 2 -> 2/4; "the the"
    # 0 of 3 -> 1/4: BLEU-S2 = 100 * sqrt(2/4 * 1/4); the candidate is longer, BP = 1.
    assert _bleus("the the the the", ["the cat the"], 2) == pytest.approx(
        100 * math.sqrt(2 / 4 * 1 / 4), abs=1e-12
    )
    # two references: clipped by the larger count ("the" twice in the second), closest
    # length 3 (of 2 and 3): unigrams "the", "the", "cat" -> 3/3, bigrams "the cat",
    # "cat the" both in ref 2 -> (2+1)/(2+1): 100.
    assert _bleus("the cat the", ["the cat", "the cat the"], 2) == pytest.approx(100.0)
    # a tie in length difference picks the shorter reference for the brevity penalty:
    # candidate of 3 tokens, references of 2 and 4 tokens -> none (candidate longer than 2).
    assert _bleus("a b c", ["a b", "a b c d"], 1) == pytest.approx(100.0, abs=1e-12)
    # nothing matches -> 0 (even with the +1 of the higher orders); empty candidate -> 0;
    # empty reference -> no match -> 0.
    assert _bleus("no match here", ref, 4) == 0.0
    assert _bleus("", ref, 4) == 0.0
    assert _bleus("police", [""], 4) == 0.0


@pytest.mark.parametrize("nrefs", NREFS)
def test_bleus_equals_slow_definition_on_real_data(real_pairs, nrefs):
    hyps, refs = real_pairs[nrefs]
    hyps, refs = hyps[::3], [r[::3] for r in refs]
    out = sentence_scores(hyps, refs, ["bleus:1..9"])
    for n in range(1, 10):
        expected = [bleus_slow(h, _refs_of(refs, i), n) for i, h in enumerate(hyps)]
        np.testing.assert_allclose(out[f"bleus:{n}"], expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("nrefs", NREFS)
def test_bleus_equals_sacrebleu_add_one(real_pairs, nrefs):
    """BLEU-S n = sacrebleu's add-k smoothing with k = 1, order n, no effective order."""
    hyps, refs = real_pairs[nrefs]
    hyps, refs = hyps[::5], [r[::5] for r in refs]
    out = sentence_scores(hyps, refs, ["bleus:1..9"])
    for n in range(1, 10):
        sacre = SacreBLEU(smooth_method="add-k", smooth_value=1, max_ngram_order=n)
        expected = [sacre.sentence_score(h, _refs_of(refs, i)).score for i, h in enumerate(hyps)]
        np.testing.assert_allclose(out[f"bleus:{n}"], expected, rtol=0, atol=1e-9)


def test_bleus_edge_cases_equal_sacrebleu():
    hyps = ["", "a", "a b", "a b c", "x y", "a a a a a a a a a a"]
    refs = [["a b c d", "", "a", "a b c", "a b", "a a a"], [None, "a b", None, "", "x", None]]
    out = sentence_scores(hyps, refs, ["bleus:1..9"])
    for n in range(1, 10):
        sacre = SacreBLEU(smooth_method="add-k", smooth_value=1, max_ngram_order=n)
        expected = [
            sacre.sentence_score(h, [r for r in _refs_of(refs, i) if r is not None]).score
            for i, h in enumerate(hyps)
        ]
        np.testing.assert_allclose(out[f"bleus:{n}"], expected, rtol=0, atol=1e-12)
    assert out["bleus:4"][0] == 0.0  # empty hypothesis
    # "a" against "" and "a b": unigram 1/1, higher orders (0+1)/(0+1); lengths 0 and 2 are
    # both 1 away, the shorter (0) is taken, so no brevity penalty: 100.
    assert out["bleus:4"][1] == pytest.approx(100.0, abs=1e-12)
    # "a b" against "a" only (None drops the second): 1/2 unigrams, bigrams (0+1)/(1+1):
    # BLEU-S2 = 100 * sqrt(1/2 * 1/2) = 50; the candidate is longer, BP = 1.
    assert out["bleus:2"][2] == pytest.approx(50.0, abs=1e-12)


def test_grid_shares_one_pass_with_same_numbers(real_pairs):
    hyps, refs = real_pairs["two_refs"]
    pairs = TextPairs.parallel(hyps[:800], [r[:800] for r in refs])
    grid = parse_specs(["bleus:1..9", "bleu", "bleu:n=2,smooth=floor"])
    shared = compute_stats(grid, pairs)
    for metric in grid:
        alone = compute_stats([metric], TextPairs.parallel(hyps[:800], [r[:800] for r in refs]))
        np.testing.assert_array_equal(shared[metric], alone[metric])
        np.testing.assert_array_equal(
            metric.sentence_scores(shared[metric]), metric.sentence_scores(alone[metric])
        )


def test_signature_names_everything():
    score = corpus_score(["a b c"], [["a b c"], ["a b d"]], ["bleus:4"], lowercase=True)[0]
    text = str(score.signature)
    for part in ("bleus:4", "nrefs:2", "tok:13a", "case:lc", "smooth:add-one(n>1)", "version:"):
        assert part in text


@st.composite
def stat_rows(draw):
    n = draw(st.integers(1, 9))
    hyp_len = draw(st.integers(0, 14))
    total = [max(hyp_len - k, 0) for k in range(n)]
    correct = [draw(st.integers(0, t)) for t in total]
    for k in range(1, n):  # a matched k-gram implies matched (k-1)-grams
        correct[k] = min(correct[k], correct[k - 1])
    ref_len = draw(st.integers(0, 18))
    return n, np.array([hyp_len, ref_len, *correct, *total], dtype=float)


@settings(max_examples=400, deadline=None)
@given(stat_rows(), st.sampled_from(SMOOTHING), st.booleans())
def test_compiled_formula_equals_scalar_twin(row, smoothing, eff):
    n, stats = row
    smooth, value = smoothing
    fast = bleu_scores(stats[None, :], n, smooth=smooth, smooth_value=value, effective_order=eff)
    slow = bleu_from_stats(stats, n, smooth=smooth, smooth_value=value, effective_order=eff)
    assert fast[0] == slow  # same operations in the same order, same libm


def test_bleus_yu_adds_one_to_every_order():
    """Yu et al.'s equation 2 (``smooth=yu``) adds one to every n-gram precision, unigrams
    included: "dog" against "the cat" scores 30.93 there, 0 with Lin and Och's n > 1."""

    got = sentence_scores(["dog"], [["the cat"]], ["bleus:4", "bleus:4,smooth=yu"])
    assert got["bleus:4"][0] == 0.0
    assert got["bleus:4,smooth=yu"][0] == pytest.approx(100 * math.exp(1 - 2) * 0.5**0.25)
    hyp, ref = "the cat sat on a mat", "the cat sat on the mat"
    # unigrams 5/6 -> 6/7, bigrams 3/5 -> 4/6, trigrams 2/4 -> 3/5, 4-grams 1/3 -> 2/4
    expected = 100 * (6 / 7 * 4 / 6 * 3 / 5 * 2 / 4) ** 0.25
    got = sentence_scores([hyp], [[ref]], ["bleus:4,smooth=yu", "bleus-syn:4,smooth=yu"])
    assert got["bleus:4,smooth=yu"][0] == pytest.approx(expected, rel=1e-12)
    assert got["bleus-syn:4,smooth=yu"][0] == pytest.approx(expected, rel=1e-12)


def test_floor_smoothing_with_zero_as_sacrebleu():
    """sacrebleu accepts ``smooth_method="floor", smooth_value=0.0`` (a zero precision stays
    zero): so does mtpalette, with the same scores."""
    hyps = ["the cat sat on it", "x y z"]
    refs = [["the cat sat on the mat", "a b c"]]
    theirs = SacreBLEU(smooth_method="floor", smooth_value=0.0)
    ours = corpus_score(hyps, refs, "bleu:smooth=floor,value=0")[0].value
    assert ours == pytest.approx(theirs.corpus_score(hyps, refs).score, abs=1e-9)
    sent = sentence_scores(hyps, refs, ["bleu:smooth=floor,value=0"])["bleu:smooth=floor,value=0"]
    for h, r, s in zip(hyps, refs[0], sent, strict=True):
        assert s == pytest.approx(theirs.sentence_score(h, [r]).score, abs=1e-9)
