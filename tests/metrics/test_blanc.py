"""BLANC: precision/recall/F over ACS counts, multi-reference rule, parameter files."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from real_data import mqm_ted

from mtpalette import sentence_scores
from mtpalette.errors import UserInputError
from mtpalette.kernels.acs import AcsSettings, acs_pair
from mtpalette.metrics.blanc import Blanc, BlancParams
from mtpalette.metrics.registry import parse_spec
from mtpalette.metrics.scoring import TextPairs, compute_stats

words = st.lists(st.sampled_from("a b c d e f".split()), min_size=1, max_size=10).map(" ".join)


def _stats(spec, hyps, refs):
    [m] = parse_spec(spec, tokenize="none")
    return compute_stats([m], TextPairs.parallel(hyps, refs))[m]


def _slow_prf(hyp, refs, p: BlancParams):
    """P, R, F written from the definition in the module docstring, one pair at a time."""
    h = [ord(w) for w in hyp.split()]
    best_p = best_r = 0.0
    for ref in refs:
        r = [ord(w) for w in ref.split()]
        K = p.n or max(len(h), len(r))
        s = AcsSettings(p.alpha, p.beta, kmax=K, gap=p.gap)
        common, cc, rr = acs_pair(h, r, s), acs_pair(h, h, s), acs_pair(r, r, s)
        w = [math.exp(p.gamma * k) for k in range(K)]
        num_p = sum(w[k] * min(common[k] / cc[k], 1) for k in range(K) if cc[k] > 0)
        num_r = sum(w[k] * min(common[k] / rr[k], 1) for k in range(K) if rr[k] > 0)
        den_p = sum(w[k] for k in range(K) if cc[k] > 0)
        den_r = sum(w[k] for k in range(K) if rr[k] > 0)
        best_p = max(best_p, num_p / den_p if den_p else 0.0)
        best_r = max(best_r, num_r / den_r if den_r else 0.0)
    b2 = p.bf**2
    f = (1 + b2) * best_p * best_r / (b2 * best_p + best_r) if best_p + best_r else 0.0
    return best_p, best_r, f


params = st.builds(
    BlancParams,
    alpha=st.sampled_from([0.0, 0.3, 1.0]),
    beta=st.sampled_from([0.0, 0.5]),
    gamma=st.sampled_from([-1.0, 0.0, 0.7]),
    bf=st.sampled_from([0.5, 1.0, 3.0]),
    n=st.sampled_from([1, 2, 4, 0]),
    gap=st.sampled_from(["max", "cand"]),
)


@settings(max_examples=60, deadline=None)
@given(words, st.lists(words, min_size=1, max_size=3), params)
def test_metric_equals_definition(hyp, refs, p):
    spec = (
        f"blanc:alpha={p.alpha},beta={p.beta},gamma={p.gamma},bf={p.bf},n={p.n or '*'},gap={p.gap}"
    )
    got = _stats(spec, [hyp], [[r] for r in refs])[0]
    np.testing.assert_allclose(got, _slow_prf(hyp, refs, p), rtol=1e-9, atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(words, params)
def test_identical_sentences_score_one(text, p):
    spec = f"blanc:alpha={p.alpha},beta={p.beta},gamma={p.gamma},bf={p.bf},n={p.n or '*'}"
    assert _stats(spec, [text], [[text]])[0].tolist() == pytest.approx([1.0, 1.0, 1.0])


def test_max_precision_and_max_recall_come_from_different_references():
    long = "a b c d e f"  # all of the candidate's words: P = 1, R < 1
    other = "a b"  # fewer of the candidate's words, but all of its own
    p, r, _ = _stats("blanc", ["a b c d"], [[long], [other]])[0]
    p_long, r_long, _ = _stats("blanc", ["a b c d"], [[long]])[0]
    p_other, r_other, _ = _stats("blanc", ["a b c d"], [[other]])[0]
    assert p_long > p_other and r_other > r_long
    assert p == p_long and r == r_other


def test_grid_shares_counts_and_equals_single_metrics(real_pairs):
    hyps, refs = real_pairs["two_refs"]
    hyps, refs = hyps[:200], [r[:200] for r in refs]
    grid = parse_spec("blanc:alpha=0|0.5,gamma=-0.5|0.5,n=2|4")
    pairs = TextPairs.parallel(hyps, refs)
    together = compute_stats(grid, pairs)
    for m in grid:
        alone = compute_stats([m], TextPairs.parallel(hyps, refs))[m]
        np.testing.assert_array_equal(together[m], alone)
        assert ((alone >= 0) & (alone <= 1)).all()


def test_parameter_file_round_trip(tmp_path, real_pairs):
    hyps, refs = real_pairs["one_ref"]
    hyps, refs = hyps[:100], [r[:100] for r in refs]
    p = BlancParams(alpha=0.4, beta=0.2, gamma=-0.3, bf=2.0, n=3, gap="cand")
    path = tmp_path / "blanc.json"
    path.write_text(json.dumps({"params": p.to_dict(), "trained_on": "test"}))
    [from_file] = parse_spec(f"blanc:@{path}")
    [direct] = parse_spec("blanc:alpha=0.4,beta=0.2,gamma=-0.3,bf=2,n=3,gap=cand")
    assert from_file.blanc == p and from_file.spec == direct.spec
    assert "from:blanc.json" in str(from_file.signature(n_refs=1))
    a = sentence_scores(hyps, refs, [f"blanc:@{path}"])
    b = sentence_scores(hyps, refs, [direct.spec])
    np.testing.assert_array_equal(a[f"blanc:@{path}"], b[direct.spec])  # each as named
    [override] = parse_spec(f"blanc:@{path},bf=1")
    assert override.blanc.bf == 1.0 and override.blanc.alpha == 0.4


def test_bad_parameter_files(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"alpha": 0.5,\n "beta": }')
    with pytest.raises(UserInputError, match=r"bad\.json:2: not valid JSON"):
        parse_spec(f"blanc:@{bad}")
    unknown = tmp_path / "unknown.json"
    unknown.write_text('{"alpha": 0.5, "delta": 1}')
    with pytest.raises(UserInputError, match="unknown BLANC parameter"):
        parse_spec(f"blanc:@{unknown}")
    with pytest.raises(UserInputError, match="file not found; expected BLANC parameters"):
        parse_spec(f"blanc:@{tmp_path / 'missing.json'}")
    with pytest.raises(UserInputError, match="for .alpha.*expected a number >= 0"):
        parse_spec("blanc:alpha=-1")
    with pytest.raises(UserInputError, match="@PATH"):
        parse_spec("blanc:params.json")


def test_corpus_score_is_mean_of_sentences(real_pairs):
    hyps, refs = real_pairs["one_ref"]
    [m] = parse_spec("blanc:alpha=0.5")
    stats = compute_stats([m], TextPairs.parallel(hyps[:300], [refs[0][:300]]))[m]
    assert m.corpus_score(stats) == pytest.approx(m.sentence_scores(stats).mean())
    assert isinstance(m, Blanc) and m.higher_is_better


def test_pos_feature_hand_computed():
    # tagged DET NOUN VERB DET NOUN PUNCT both (the bundled tagger); words in common: The, the,
    # "." -> P1 = R1 = 3/6; skip-bigrams (alpha = 0): (The, the), (The, .), (the, .) of
    # C(6, 2) = 15 -> P2 = R2 = 1/5; word P = R = F = (1/2 + 1/5) / 2 = 0.35. The tag
    # sequences are equal: P_pos = R_pos = 1. posmix = 1: (0.35 + 1) / 2; 0.5: 0.85 / 1.5
    hyp, ref = "The committee approved the budget .", "The council rejected the plan ."
    specs = ["blanc:n=2", "blanc:n=2,posmix=1", "blanc:n=2,posmix=0.5"]
    out = list(sentence_scores([hyp], [[ref]], specs, tokenize="none").values())
    np.testing.assert_allclose([o[0] for o in out], [0.35, 0.675, 0.85 / 1.5], rtol=1e-12)
    (m,) = parse_spec("blanc:posmix=0.5")
    assert m.spec.endswith(",posmix=0.5") and parse_spec("blanc")[0].spec.endswith("gap=max")
    with pytest.raises(UserInputError):
        parse_spec("blanc:posmix=-1")
    with pytest.raises(UserInputError, match="renamed: posmix"):  # the old name is refused
        parse_spec("blanc:pos=0.5")


def test_pos_weighting_inside_matches_hand_computed(tmp_path):
    # the paper's eq. 6 with the POS features inside each match. Both sentences are tagged
    # DET NOUN VERB DET NOUN PUNCT; n = 1, lt = 0, lw = ln 2 (a tag-only match weighs 1/2).
    # Candidate x reference: words and tags agree at (The, The), (the, the), (., .): 3; tags
    # only at (The, the), (the, The), (committee, council), (committee, plan),
    # (budget, council), (budget, plan), (approved, rejected): 7 / 2 -> W_1 = 6.5. Each
    # sentence with itself: 6 identical positions, and tag-only (The, the), (the, The) and
    # the two nouns both ways: 4 / 2 -> W_1 = 8. P = R = F = 6.5 / 8.
    hyp, ref = "The committee approved the budget .", "The council rejected the plan ."
    spec = f"blanc:n=1,lw={math.log(2)!r}"
    (out,) = sentence_scores([hyp], [[ref]], [spec], tokenize="none").values()
    assert out[0] == pytest.approx(6.5 / 8, rel=1e-12)
    # lw = 0: every tag match weighs 1, and the tag sequences are equal: F = 1 for every n
    (out,) = sentence_scores([hyp], [[ref]], ["blanc:n=*,lw=0"], tokenize="none").values()
    assert out[0] == pytest.approx(1.0, rel=1e-12)
    # identity scores 1 whatever the weights; spec names and signature
    for spec in ("blanc:lw=2,lt=1", "blanc:n=*,lw=0.5,lt=3,alpha=1", "blanc:lt=2"):
        (out,) = sentence_scores([hyp, ref], [[hyp, ref]], [spec]).values()
        np.testing.assert_allclose(out, 1.0, rtol=1e-12)
    (m,) = parse_spec("blanc:lw=2,lt=1")
    assert m.spec.endswith("gap=max,lw=2,lt=1")
    for bad in ("blanc:lw=-1", "blanc:lt=-0.5", "blanc:lw=inf"):
        with pytest.raises(UserInputError):
            parse_spec(bad)
    # a parameter file written when the mix was called "pos" still means the mix
    old = tmp_path / "old.json"
    old.write_text('{"params": {"alpha": 0, "n": 2, "pos": 0.5}}')
    (m,) = parse_spec(f"blanc:@{old}")
    assert m.blanc.posmix == 0.5 and not m.blanc.tagged


def test_pos_weighting_special_cases_on_real_pairs(real_pairs):
    # without tag-only matches and with lt = 0 the weighted kernel is plain ACS, number for
    # number (so every special case of plain BLANC holds); a very large lt is plain BLANC on
    # word/TAG tokens (a word matches only with the same tag)
    hyps, refs = real_pairs["one_ref"]
    hyps, ref = hyps[:150], refs[0][:150]
    plain = sentence_scores(hyps, [ref], ["blanc:n=*,alpha=0.5"])
    (plain,) = plain.values()
    (off,) = sentence_scores(hyps, [ref], ["blanc:n=*,alpha=0.5,lt=0"]).values()
    np.testing.assert_array_equal(plain, off)
    (lt,) = sentence_scores(hyps, [ref], ["blanc:n=*,alpha=0.5,lt=40"]).values()
    from mtpalette.metrics.blanc import pos_view
    from mtpalette.text.encode import TextView

    view, tags = TextView("13a", False), pos_view(TextView("13a", False))

    def joined(line: str) -> str:
        return " ".join(
            f"{w}/{t}" for w, t in zip(view.tokens(line), tags.tokens(line), strict=True)
        )

    hyps_wt, ref_wt = [joined(h) for h in hyps], [joined(r) for r in ref]
    (expected,) = sentence_scores(
        hyps_wt, [ref_wt], ["blanc:n=*,alpha=0.5"], tokenize="none"
    ).values()
    np.testing.assert_allclose(lt, expected, rtol=1e-9, atol=1e-12)
    assert np.mean(np.abs(lt - plain) > 1e-6) > 0.05  # the tags matter on real sentences


def test_positive_only_rule_hand_computed():
    from mtpalette.metaeval.segments import SegmentData
    from mtpalette.train.blanc import HumanObjective

    # n = 1, alpha = beta = 0: unigram F against "a b c d": 1, 0.5, 0 (nothing in common), 0.25
    hyps = [["a b c d", "a b x y", "x y z w", "a x y z"]]
    data = SegmentData(["S"], [[4.0, 3.0, 2.5, 1.0]], hyps, [["a b c d"] * 4], [1, 2, 3, 4])
    base = BlancParams(n=1)
    kw = dict(base=base, tokenize="none")
    everything = HumanObjective([data], **kw).value_of(base)
    positive = HumanObjective([data], positive_only=True, **kw).value_of(base)
    # kept: BLANC (1, 0.5, 0.25) against human (4, 3, 1): sum dx dy = 13/12,
    # sum dx^2 = 7/24, sum dy^2 = 14/3 -> r = (13/12) / (7/6) = 13/14
    assert positive == pytest.approx(13 / 14, rel=1e-12)
    assert everything == pytest.approx(np.corrcoef([1, 0.5, 0, 0.25], [4, 3, 2.5, 1])[0, 1])
    assert HumanObjective([data], positive_only=True, **kw).describe()["positive_only"]


def test_gamma_takes_any_finite_value_stably():
    """gamma=40 (all weight on the largest size, the simplest way to isolate it) was refused
    ("expected a number from -5 to 5"); the size weights are now scaled by their largest, so any
    finite gamma works and a huge one equals the limit."""
    from mtpalette import sentence_scores

    hyp, ref = "the cat sat on the mat today", "the cat sat on a mat"
    got = sentence_scores([hyp], [[ref]], ["blanc:gamma=40", "blanc:gamma=1000"])
    assert np.isfinite(got["blanc:gamma=40"][0])
    assert got["blanc:gamma=40"][0] == pytest.approx(got["blanc:gamma=1000"][0], abs=1e-12)


# --------------------------------------------------------------------------------------------
# gamma: any finite value, the limit where gamma * (n - 1) overflows (issue 51)
def _counts(hyp, ref, p: BlancParams):
    h, r = [ord(w) for w in hyp.split()], [ord(w) for w in ref.split()]
    s = AcsSettings(p.alpha, p.beta, kmax=p.n or max(len(h), len(r)), gap=p.gap)
    return acs_pair(h, r, s), acs_pair(h, h, s), acs_pair(r, r, s)


def _best_prf(hyp, refs, p: BlancParams, mix):
    """P, R, F with the size mix ``mix(ratios, normalisers)`` of each pair (the definition)."""

    def ratios(common, norms):
        return [min(c / n, 1) if n > 0 else 0 for c, n in zip(common, norms, strict=True)]

    best_p = best_r = 0.0
    for ref in refs:
        common, cc, rr = _counts(hyp, ref, p)
        best_p = max(best_p, mix(ratios(common, cc), cc))
        best_r = max(best_r, mix(ratios(common, rr), rr))
    b2 = p.bf**2
    f = (1 + b2) * best_p * best_r / (b2 * best_p + best_r) if best_p + best_r else 0.0
    return best_p, best_r, f


def _limit_prf(hyp, refs, p: BlancParams, sign: int):
    """The limit as gamma -> +inf (sign 1: the ratio at the largest size the sentence has)
    or -inf (the smallest)."""

    def at_limit(ratios, norms):
        sizes = [k for k, n in enumerate(norms) if n > 0]
        return ratios[max(sizes) if sign > 0 else min(sizes)] if sizes else 0.0

    return _best_prf(hyp, refs, p, at_limit)


def _before_prf(hyp, refs, p: BlancParams):
    """What the metric computed before the weights were scaled per sentence: one scale for
    every size, ``exp(gamma k - max_k gamma k)``."""

    def before(ratios, norms):
        e = [p.gamma * k for k in range(len(ratios))]
        w = [math.exp(x - max(e)) if n > 0 else 0.0 for x, n in zip(e, norms, strict=True)]
        total = sum(w)
        return sum(wk * x for wk, x in zip(w, ratios, strict=True)) / total if total else 0.0

    return _best_prf(hyp, refs, p, before)


def _spec(p: BlancParams) -> str:
    return (
        f"blanc:alpha={p.alpha},beta={p.beta},gamma={p.gamma!r},bf={p.bf},n={p.n or '*'},"
        f"gap={p.gap}"
    )


huge = st.floats(40.0, 1e308) | st.sampled_from([709.0, 745.0, 1e154, 6e307, 1e308, 1.79e308])


@settings(max_examples=60, deadline=None)
@given(words, st.lists(words, min_size=1, max_size=3), params, huge, st.sampled_from([1, -1]))
def test_large_gamma_gives_the_limit(hyp, refs, p, size, sign):
    """At gamma >= 40 every weight but the heaviest size's is below e^-40: P, R and F equal
    the limit (the ratio at the largest size each sentence has; the smallest for -gamma),
    also where gamma * (n - 1) overflows (it scored 0)."""
    p = replace(p, gamma=sign * size)
    got = _stats(_spec(p), [hyp], [[r] for r in refs])[0]
    np.testing.assert_allclose(got, _limit_prf(hyp, refs, p, sign), rtol=0, atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(words, st.lists(words, min_size=1, max_size=3), params, st.floats(1.0, 60.0))
def test_gamma_approaches_the_limit_continuously(hyp, refs, p, gamma):
    """|P(gamma) - P(inf)| <= sum_j e^(-gamma j) <= e^-gamma / (1 - e^-gamma): the score
    moves continuously to its limit, with no jump where the old weights overflowed."""
    p = replace(p, gamma=gamma)
    got = _stats(_spec(p), [hyp], [[r] for r in refs])[0]
    limit = np.array(_limit_prf(hyp, refs, p, 1))
    bound = math.exp(-gamma) / (1 - math.exp(-gamma)) + 1e-12
    assert np.all(np.abs(got[:2] - limit[:2]) <= bound), (got, limit, bound)
    far = _stats(_spec(replace(p, gamma=gamma * 1e6)), [hyp], [[r] for r in refs])[0]
    np.testing.assert_allclose(far, limit, rtol=0, atol=1e-12)


@settings(max_examples=80, deadline=None)
@given(words, st.lists(words, min_size=1, max_size=3), params, st.floats(-30.0, 30.0))
def test_ordinary_gammas_score_as_before(hyp, refs, p, gamma):
    """Where the old single scale neither overflowed nor underflowed, the per-sentence scale
    changes nothing beyond rounding (within 1e-12)."""
    p = replace(p, gamma=gamma)
    got = _stats(_spec(p), [hyp], [[r] for r in refs])[0]
    np.testing.assert_allclose(got, _before_prf(hyp, refs, p), rtol=0, atol=1e-12)


def test_every_path_takes_the_gamma_limit(real_pairs):
    """gamma = 1e308 (gamma * (n - 1) overflows) equals gamma = 1000 (every lighter weight
    below e^-1000, 0 in floats) on real sentences, through a grid, with redundant=drop, with
    the POS mix and the weights inside the matches, and in training's objective; the old
    weights gave 0.0 and a warning."""
    import warnings

    from mtpalette.metaeval.segments import SegmentData
    from mtpalette.train.blanc import HumanObjective

    hyps, refs = real_pairs["two_refs"]
    hyps, refs = hyps[:60], [r[:60] for r in refs]
    for extra in ("", ",n=*", ",n=2,alpha=0,beta=0,redundant=drop", ",posmix=0.5", ",lw=2,lt=1"):
        for sign in ("", "-"):
            specs = [f"blanc:gamma={sign}1e308{extra}", f"blanc:gamma={sign}1000{extra}"]
            with warnings.catch_warnings():
                warnings.simplefilter("error")  # no overflow or invalid-value warning
                grid = parse_spec(f"blanc:gamma={sign}1e308|{sign}1000{extra}")
                got = compute_stats(grid, TextPairs.parallel(hyps, refs))
            a, b = (got[m] for m in grid)
            np.testing.assert_array_equal(a, b, err_msg=str(specs))
            assert np.isfinite(a).all() and (a[:, 2] > 0).any(), specs
    human = [[float(i % 5) for i in range(60)]]
    data = SegmentData(["S"], human, [hyps], [refs[0]], list(range(1, 61)))
    objective = HumanObjective([data], base=BlancParams(n=3))
    assert objective.value_of(BlancParams(n=3, gamma=1e308)) == objective.value_of(
        BlancParams(n=3, gamma=1000.0)
    )


def test_gamma_limit_on_the_bundled_segments():
    """The issue's example: blanc:gamma=1e308 scored 0.0 (every weight NaN); it is the
    limit, the score with the weight on each sentence's largest size (n = 4)."""

    zhen = mqm_ted("zhen")["root"]
    hyps = (zhen / "SMU.txt").read_text(encoding="utf-8").splitlines()[:12]
    refs = (zhen / "ref.txt").read_text(encoding="utf-8").splitlines()[:12]
    out = sentence_scores(hyps, [refs], ["blanc:gamma=1e308", "blanc:gamma=1000"])
    assert out["blanc:gamma=1e308"].mean() == pytest.approx(0.0822, abs=5e-5)
    np.testing.assert_array_equal(out["blanc:gamma=1e308"], out["blanc:gamma=1000"])
    [m] = parse_spec("blanc:gamma=1e308")
    assert m.spec == "blanc:alpha=0,beta=0,gamma=1e+308,bf=1,n=4,gap=max"  # not 309 digits


def test_bf_whose_square_overflows_gives_recall():
    """F = (1 + bf^2) P R / (bf^2 P + R) tends to R as bf grows; bf = 1e200 (bf^2 = inf)
    scored NaN."""
    hyp, ref = "a b c d e", "a b x"
    got = _stats("blanc:bf=1e200", [hyp], [[ref]])[0]
    near = _stats("blanc:bf=1e100", [hyp], [[ref]])[0]
    assert got[2] == got[1] and got.tolist() == pytest.approx(near.tolist(), abs=1e-15)


def test_a_sentence_scores_the_same_beside_a_longer_one():
    """With n=* the sizes go up to the longest sentence of the batch; the old single scale
    (exp(gamma k - max)) underflowed every size of a short sentence beside a long one at
    gamma = 20 (20 * 63 > 745) and scored it 0. Each sentence's own sizes now set its scale."""
    short, long = ("a b c", "a b d"), (" ".join("abcdefgh" * 8), " ".join("abcdefgh" * 8))
    for gamma in (20, 300, -20):
        spec = f"blanc:n=*,gamma={gamma}"
        alone = _stats(spec, [short[0]], [[short[1]]])[0]
        beside = _stats(spec, [short[0], long[0]], [[short[1], long[1]]])[0]
        np.testing.assert_array_equal(alone, beside)
        assert alone[2] > 0
