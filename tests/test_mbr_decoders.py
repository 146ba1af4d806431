"""MBR decoders (issue 53): reference aggregation, partial aggregation, pruning, weights.

Golden values: mbrs 0.1.8 (PyPI sdist; the same files at naist-nlp/mbrs commit
6a6dc0b8dbd91a27d08c3b459448e55135d86fe3), its own tests: ``mbrs/metrics/chrf_test.py`` and
``mbrs/metrics/bleu_test.py`` (``EXPECTED_SCORES_AGGREGATED``, the empty-input cases),
``mbrs/decoders/aggregate_mbr_test.py`` and ``mbrs/decoders/pruning_mbr_test.py`` (indices and
scores, which mbrs checks to atol 5e-4 and rtol 1e-4; we check to its printed digits). The
short example sentences are mbrs's test inputs, kept here as the cases they are (no data file).
fastchrf 0.2.x's ``aggregate_chrf`` (float64) on random n-best lists of real WMT21 TED system
outputs, to 1e-9, when fastchrf is installed. Weighted partial aggregation of chrF, chrF++ and
BLEU against a slow reference built on sacrebleu's own n-gram helpers and F-score, on real
lists with random log-probabilities.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtpalette import mbr, pairwise
from mtpalette.errors import UserInputError
from mtpalette.kernels.pairwise import aggregate_ngram_stats, aggregate_ngram_stats_slow
from mtpalette.metrics.bleu import bleu_from_stats
from mtpalette.metrics.mbr_aggregate import aggregate
from mtpalette.text.ragged import Ragged

# mbrs/metrics/{chrf,bleu}_test.py
HYPS = [
    "this is a test",
    "another test",
    "this is a fest",
    "Producția de zahăr primă va fi exprimată în ceea ce privește zahărul alb;",
]
REFS = ["ref", "this is a test", "producţia de zahăr brut se exprimă în zahăr alb;"]
MINUS_TWO = [[-2.0] * len(REFS)]


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("chrf", [23.08157, 10.29285, 16.35524, 29.16298]),
        ("bleu", [25.96003, 6.44121, 20.31482, 5.13217]),
        ("bleu:eff=no", [25.96003, 0.0, 20.31482, 5.13217]),
    ],
)
def test_aggregated_expected_scores_equal_mbrs(spec, expected):
    for lprobs in (None, MINUS_TWO):
        got = aggregate([HYPS], [REFS], spec, reference_lprobs=lprobs).expected()[0]
        np.testing.assert_allclose(got, expected, atol=5e-6)


@pytest.mark.parametrize(("spec", "expected"), [("chrf", 68.2679), ("bleu", 60.0)])
def test_aggregated_empty_inputs_equal_mbrs(spec, expected):
    refs = [["thank you so much", "", "thank you.", "thank you", ""]]
    for lprobs in (None, [[-2.0] * 5]):
        got = aggregate([["thank you", ""]], refs, spec, reference_lprobs=lprobs).expected()[0]
        np.testing.assert_allclose(got, [expected, 0.0], atol=5e-5)


# mbrs/decoders/aggregate_mbr_test.py
AGG_HYPS = [
    ["another test", "this is a test", "this is an test", "this is a fest"],
    ["another test", "this is a fest", "this is a test"],
    ["this is a test"],
    ["Producția de zahăr primă va fi exprimată în ceea ce privește zahărul alb;"],
]
AGG_REFS = [
    ["another test", "this is a test", "this is an test", "this is a fest"],
    ["this is a test", "ref1 ref2 ref3 ref4"],
    ["this is a test"],
    ["producţia de zahăr brut se exprimă în zahăr alb;"],
]


@pytest.mark.parametrize(
    ("spec", "index", "scores"),
    [
        ("chrf", [2, 2, 0, 0], [63.75969, 40.86618, 100.0, 46.16121]),
        ("bleu", [1, 2, 0, 0], [42.36951, 50.0, 100.0, 8.49310]),
        ("bleu:eff=no", [1, 2, 0, 0], [42.36951, 50.0, 100.0, 8.49310]),
    ],
)
@pytest.mark.parametrize("nbest", [1, 2])
def test_aggregate_decoder_equals_mbrs(spec, index, scores, nbest):
    for lprobs in (None, [[-2.0] * len(r) for r in AGG_REFS]):
        sel = mbr(AGG_HYPS, AGG_REFS, spec, decoder="aggregate", nbest=nbest,
                  reference_lprobs=lprobs)  # fmt: skip
        assert sel.index.tolist() == index
        assert [len(k) for k in sel.nbest] == [min(nbest, len(h)) for h in AGG_HYPS]
        np.testing.assert_allclose(sel.utility, scores, atol=5e-6)
        assert "decoder:aggregate" in sel.signature and "partitions:1" in sel.signature


# mbrs/decoders/pruning_mbr_test.py
PRUNE_HYPS = [
    ["another test", "this is a test", "this is a fest", "x", "this is test"],
    ["another test", "this is a fest", "this is a test"],
    ["this is a test"],
    ["Producția de zahăr primă va fi exprimată în ceea ce privește zahărul alb;"],
]
PRUNE_REFS = [
    ["another test", "this is a test", "this is a fest", "x", "this is test"],
    ["this is a test", "ref", "these are tests", "this is the test"],
    ["this is a test"],
    ["producţia de zahăr brut se exprimă în zahăr alb;"],
]


def test_pruning_decoder_equals_mbrs():
    for lprobs in (None, [[-2.0] * len(r) for r in PRUNE_REFS]):
        sel = mbr(PRUNE_HYPS, PRUNE_REFS, "chrf", decoder="pruning", schedule=[2, 4, 8],
                  reference_lprobs=lprobs)  # fmt: skip
        assert sel.index.tolist() == [1, 2, 0, 0]
        assert sel.text[0] == "this is a test"
        np.testing.assert_allclose(sel.utility, [48.912, 44.239, 100.0, 46.161], atol=5e-4)
        assert "decoder:pruning|alpha:0.99|schedule:2,4,8|bootstrap:500|seed:0" in sel.signature


@pytest.mark.parametrize("spec", ["bleu", "ter"])
@pytest.mark.parametrize("nbest", [1, 2])
def test_pruning_nbest_lengths_as_mbrs(spec, nbest):
    sel = mbr(PRUNE_HYPS, PRUNE_REFS, spec, decoder="pruning", schedule=[2, 4, 8], nbest=nbest)
    assert [len(k) for k in sel.nbest] == [min(nbest, len(h)) for h in PRUNE_HYPS]


def test_pruning_survivors_have_their_pairwise_expectation():
    """A survivor's utility is its mean pairwise score over the last prefix of references; a
    candidate that wins no resample is pruned (NaN), whatever alpha."""
    cands = [h * 2 for h in PRUNE_HYPS[:2]]
    sel = mbr(cands, decoder="pruning", schedule=[3, 6], alpha=1 - 1e-12)
    for s, c in enumerate(cands):
        used = int(sel.matrices[s].shape[1])
        m = pairwise([c], [c[:used]])[0]
        alive = ~np.isnan(sel.utilities[s])
        assert alive.sum() >= 1 and used == 6
        np.testing.assert_allclose(sel.utilities[s][alive], m.mean(axis=1)[alive], rtol=1e-12)
        assert sel.index[s] == int(np.argmax(np.where(alive, m.mean(axis=1), -np.inf)))


def test_pruning_refusals():
    cands = [["a b", "a c", "x y z", "b"]]
    with pytest.raises(UserInputError, match="strictly increasing"):
        mbr(cands, decoder="pruning", schedule=[4, 4])
    with pytest.raises(UserInputError, match="alpha"):
        mbr(cands, decoder="pruning", alpha=1.0)
    with pytest.raises(UserInputError, match="include_self"):
        mbr(cands, decoder="pruning", include_self=False)
    # mbrs's edge case: the first step prunes below nbest and averages over no reference
    with pytest.raises(UserInputError, match="first step of pruning MBR"):
        mbr([["a b c d", "a b c d", "q", "r", "s"]], decoder="pruning", schedule=[5],
            nbest=4, alpha=0.5)  # fmt: skip


@pytest.mark.parametrize("spec", ["chrf", "chrf++", "chrf:beta=1,eps=yes", "bleu", "bleu:eff=no"])
def test_partitions_m_equals_pairwise_exactly(lists, spec):
    segs = [seg[:8] for seg in lists]
    whole = pairwise(segs, metric=spec)
    agg = aggregate(segs, metric=spec, partitions=8)
    for s in range(len(segs)):
        np.testing.assert_array_equal(agg.utilities[s], whole[s])
    sel = mbr(segs, metric=spec, decoder="aggregate", partitions=8)
    exact = mbr(segs, metric=spec, include_self=True)
    assert sel.index.tolist() == exact.index.tolist()
    np.testing.assert_allclose(sel.utility, exact.utility, rtol=1e-15)


def test_partitions_with_weights_equal_weighted_pairwise(lists):
    segs = [seg[:6] for seg in lists]
    rng = np.random.default_rng(3)
    lprobs = [rng.normal(size=6) for _ in segs]
    sel = mbr(segs, decoder="aggregate", partitions=6, reference_lprobs=lprobs)
    exact = mbr(segs, include_self=True, reference_lprobs=lprobs)
    for s, lp in enumerate(lprobs):
        p = np.exp(lp - lp.max())
        p /= p.sum()
        np.testing.assert_allclose(sel.utilities[s], pairwise([segs[s]])[0] @ p, rtol=1e-12)
        np.testing.assert_allclose(exact.utilities[s], sel.utilities[s], rtol=1e-12)


def test_partial_aggregation_is_the_mean_over_blocks(lists):
    segs = [seg[:7] for seg in lists[:3]]  # 7 references in 2 blocks of 3: the 7th dropped
    agg = aggregate(segs, partitions=2)
    for s, seg in enumerate(segs):
        blocks = [aggregate([seg], [seg[b * 3 : b * 3 + 3]]).expected()[0] for b in range(2)]
        np.testing.assert_allclose(agg.expected()[s], (blocks[0] + blocks[1]) / 2, rtol=1e-14)
    with pytest.raises(UserInputError, match="cannot be cut into 9"):
        aggregate(segs, partitions=9)


def test_aggregation_refuses_other_metrics():
    with pytest.raises(UserInputError, match="reference aggregation is defined for"):
        mbr([["a", "b"]], metric="ter", decoder="aggregate")


_ROWS = st.lists(st.lists(st.integers(0, 4), max_size=9), min_size=1, max_size=5)


@settings(max_examples=150, deadline=None)
@given(_ROWS, _ROWS, st.integers(1, 4), st.data())
def test_aggregate_kernel_equals_counting(hyps, refs, max_n, data):
    m = len(refs)
    n_groups = data.draw(st.integers(1, m))
    group = [data.draw(st.integers(-1, n_groups - 1)) for _ in range(m)]
    weight = [data.draw(st.floats(0, 3)) for _ in range(m)]
    out = aggregate_ngram_stats(
        Ragged.from_rows(hyps), np.array([0, len(hyps)]), Ragged.from_rows(refs),
        np.array([0, m]), np.array(weight), np.array(group), np.array([n_groups]), max_n,
    )[0]  # fmt: skip
    slow = aggregate_ngram_stats_slow(hyps, refs, weight, group, n_groups, max_n)
    np.testing.assert_allclose(out, slow, rtol=1e-12, atol=1e-12)


@pytest.fixture(scope="module")
def lists(ted_zhen):
    """12 segments of 13 real WMT21 TED zh-en system outputs each."""
    systems, _ = ted_zhen
    outputs = [systems[n] for n in sorted(systems)]
    return [[o[s] for o in outputs] for s in range(60, 72)]


@pytest.mark.parametrize("size", [2, 5, 13])
def test_equals_fastchrf_aggregate(ted_zhen, ted_ende, size):
    fastchrf = pytest.importorskip("fastchrf")
    from importlib.metadata import version

    installed = version("fastchrf")
    if tuple(int(x) for x in installed.split(".")[:2]) < (0, 2):
        pytest.skip(f"fastchrf {installed} computes in float32; 0.2 in float64")
    rng = np.random.default_rng(size)
    for systems, _ in (ted_zhen, ted_ende):
        outputs = [systems[n] for n in sorted(systems)]
        segs = rng.choice(len(outputs[0]), size=40, replace=False)
        cands = [[outputs[k][s] for k in rng.permutation(len(outputs))[:size]] for s in segs]
        theirs = np.asarray(fastchrf.aggregate_chrf(cands, cands))
        ours = np.stack(aggregate(cands).expected())
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-9)
        refs = [[outputs[k][s] for k in rng.permutation(len(outputs))[:3]] for s in segs]
        theirs = np.asarray(fastchrf.aggregate_chrf(cands, refs))
        np.testing.assert_allclose(np.stack(aggregate(cands, refs).expected()), theirs,
                                   rtol=0, atol=1e-9)  # fmt: skip


def _weighted(counters, weights):
    out = Counter()
    for c, w in zip(counters, weights, strict=True):
        for gram, k in c.items():
            out[gram] += w * k
    return out


def _slow_chrf(hyp, refs, weights, word_order):
    """Aggregated chrF counted with sacrebleu's own n-gram helpers and F-score."""
    from sacrebleu.metrics.chrf import CHRF
    from sacrebleu.metrics.helpers import extract_all_char_ngrams, extract_word_ngrams

    scorer = CHRF(word_order=word_order)

    def grams(line):
        out = extract_all_char_ngrams(line, 6, False)
        words = scorer._remove_punctuation(line)
        return out + [extract_word_ngrams(words, n) for n in range(1, word_order + 1)]

    per_ref = [grams(r) for r in refs]
    stats = []
    for o, h in enumerate(grams(hyp)):
        stats += scorer._get_match_statistics(h, _weighted([r[o] for r in per_ref], weights))
    return scorer._compute_f_score(stats)


def _slow_bleu(hyp, refs, weights):
    """Aggregated sentence BLEU (exp smoothing, effective order) with sacrebleu's n-gram helpers
    and the plain-Python twin of its compute_bleu, the reference length the expected one."""
    from sacrebleu.metrics.bleu import BLEU
    from sacrebleu.metrics.helpers import extract_all_word_ngrams

    scorer = BLEU(effective_order=True)
    h, h_len = extract_all_word_ngrams(scorer._preprocess_segment(hyp), 1, 4)
    ref_grams = [extract_all_word_ngrams(scorer._preprocess_segment(r), 1, 4) for r in refs]
    agg = _weighted([g for g, _ in ref_grams], weights)
    correct, total = [0.0] * 4, [0.0] * 4
    for gram, k in h.items():
        total[len(gram) - 1] += k
        correct[len(gram) - 1] += min(k, agg[gram]) if gram in agg else 0.0
    ref_len = sum(w * n for w, (_, n) in zip(weights, ref_grams, strict=True))
    # sacrebleu's compute_bleu formats ref_len as an integer: its plain-Python twin instead
    row = np.array([h_len, ref_len, *correct, *total])
    return bleu_from_stats(row, 4, smooth="exp", effective_order=True)


@pytest.mark.parametrize("spec", ["chrf", "chrf++", "bleu"])
def test_weighted_aggregation_equals_a_counter_reference(lists, spec):
    rng = np.random.default_rng(7)
    segs = [seg[:9] for seg in lists[:6]]
    lprobs = [rng.normal(scale=2.0, size=9) for _ in segs]
    got = aggregate(segs, metric=spec, partitions=2, reference_lprobs=lprobs)
    for s, (seg, lp) in enumerate(zip(segs, lprobs, strict=True)):
        p = np.exp(lp[:8] - lp[:8].max())
        p /= p.sum()  # the softmax over the 8 kept references; block b: 4b..4b+3
        for i, hyp in enumerate(seg):
            blocks = []
            for b in range(2):
                w = p[4 * b : 4 * b + 4] / p[4 * b : 4 * b + 4].sum()
                refs = seg[4 * b : 4 * b + 4]
                if spec == "bleu":
                    blocks.append(_slow_bleu(hyp, refs, w))
                else:
                    blocks.append(_slow_chrf(hyp, refs, w, 2 if spec == "chrf++" else 0))
            np.testing.assert_allclose(got.utilities[s][i], blocks, rtol=1e-10, atol=1e-10)
            mass = [p[:4].sum(), p[4:].sum()]
            assert got.expected()[s][i] == pytest.approx(np.dot(mass, blocks), rel=1e-12)
