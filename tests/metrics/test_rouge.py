"""ROUGE family: the papers' worked examples, rouge-score parity on real data, properties."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer, tokenize

from mtpalette import sentence_scores
from mtpalette.errors import UserInputError
from mtpalette.metrics.registry import parse_spec

REF = "police killed the gunman"


def _one(hyps, refs, spec, **kw):
    (out,) = sentence_scores(hyps, refs, [spec], **kw).values()
    return out


def test_orange_paper_rouge_l():  # section 3.1: S2 = 3/4, S3 = 2/4
    out = _one(["police kill the gunman", "the gunman kill police"], [[REF] * 2], "rouge-l")
    assert out.tolist() == [0.75, 0.5]


def test_orange_paper_rouge_w():  # section 3.2, f(k) = k^2: Y1 = 0.571, Y2 = 0.286
    hyps = ["A B C D H I K", "A H B K C I D"]
    out = _one(hyps, [["A B C D E F G"] * 2], "rouge-w:2", tokenize="none")
    # Y1: one run of 4, WLCS = 16, f^-1(16/49) = 4/7; Y2: four runs of 1, WLCS = 4 -> 2/7.
    np.testing.assert_allclose(out, [4 / 7, 2 / 7], rtol=1e-12)
    assert out.round(3).tolist() == [0.571, 0.286]
    rouge_l = _one(hyps, [["A B C D E F G"] * 2], "rouge-l", tokenize="none")
    assert rouge_l[0] == rouge_l[1]  # ROUGE-L cannot tell them apart


def test_rouge_w_rouge155_compatibility():
    # ROUGE-1.5.5 divides the recall by f(f(m)) = 49^2 = 2401: on Y1 the script prints
    # R = 0.0816, P = 0.571, F = 0.143 (tests/data/rouge155/golden.json.gz, the paper-example
    # set, made by scripts/rouge155_golden.py; checked on every pair in test_rouge155_parity).
    metric = parse_spec("rouge-w:2,compat=rouge155", tokenize="none")[0]
    from mtpalette.metrics.scoring import TextPairs, compute_stats

    stats = compute_stats([metric], TextPairs.parallel(["A B C D H I K"], [["A B C D E F G"]]))
    p, r, f = stats[metric][0]
    assert (round(r, 4), round(p, 3), round(f, 3)) == (0.0816, 0.571, 0.143)


def test_orange_paper_rouge_s():  # section 3.3, beta = 1, no skip limit
    hyps = ["police kill the gunman", "the gunman kill police", "the gunman police killed"]
    out = _one(hyps, [[REF] * 3], "rouge-s:*")
    np.testing.assert_allclose(out, [0.5, 1 / 6, 1 / 3], rtol=1e-12)


def test_skip_distances_checked_against_rouge155():
    # S0, S1, S4, SU4 as ROUGE-1.5.5.pl prints them for this pair (-2 0, -2 1, -2 4, -2 4 -U;
    # the golden file of tests/data/rouge155 holds the script's output)
    out = sentence_scores(
        ["police kill the gunman"], [[REF]], ["rouge-s:0", "rouge-s:1", "rouge-s:4", "rouge-su:4"]
    )
    got = [round(float(v[0]), 3) for v in out.values()]
    assert got == [0.333, 0.4, 0.5, 0.556]


def test_rouge_w_linear_hand_computed():
    # Lin and Och (2004) section 3.2, f(k) = a k - b with a = 2, b = 1, X = A B C D E F G:
    # Y1 has one run of 4: WLCS = f(4) = 7, f(7) = 13, R = P = f^-1(7/13) = (7/13 + 1)/2 = 10/13;
    # Y2 has four runs of 1: WLCS = 4 f(1) = 4, R = P = (4/13 + 1)/2 = 17/26.
    hyps = ["A B C D H I K", "A H B K C I D"]
    out = _one(hyps, [["A B C D E F G"] * 2], "rouge-w:f=linear,a=2,b=1", tokenize="none")
    np.testing.assert_allclose(out, [10 / 13, 17 / 26], rtol=1e-12)
    # a = 3, b = 0.5, reference "A B C D" (f(4) = 11.5), candidate "A B X C D E" (f(6) = 17.5):
    # runs "A B" and "C D": WLCS = 2 f(2) = 11; R = (11/11.5 + 0.5)/3, P = (11/17.5 + 0.5)/3
    metric = parse_spec("rouge-w:3,f=linear,b=0.5", tokenize="none")[0]
    from mtpalette.metrics.scoring import TextPairs, compute_stats

    stats = compute_stats([metric], TextPairs.parallel(["A B X C D E"], [["A B C D"]]))[metric]
    r, p = (11 / 11.5 + 0.5) / 3, (11 / 17.5 + 0.5) / 3
    np.testing.assert_allclose(stats[0], [p, r, 2 * p * r / (p + r)], rtol=1e-12)
    # identity scores (1 + b)/a; nothing in common scores 0 (not f^-1(0) = b/a)
    same = _one(["A B C", "X Y"], [["A B C", "A B"]], "rouge-w:f=linear,a=3,b=1", tokenize="none")
    np.testing.assert_allclose(same, [2 / 3, 0.0], rtol=1e-12)


def test_rouge_w_linear_issue_example_scores_zero():
    # issue 30: "dogs run fast" against "the cat sat on the mat" scored 0.5 (a=2, b=1) and
    # 0.333 (a=1.5, b=0.5); no common word is 0 in R, P and F for every (a, b)
    from mtpalette.metrics.scoring import TextPairs, compute_stats

    for a, b in [(2, 1), (1.5, 0.5), (3, 1)]:
        (m,) = parse_spec(f"rouge-w:f=linear,a={a},b={b}")
        pair = TextPairs.parallel(["dogs run fast"], [["the cat sat on the mat"]])
        assert compute_stats([m], pair)[m][0].tolist() == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("ab", [(2.0, 1.0), (1.5, 0.5), (3.0, 1.0), (1.2, 1.0), (5.0, 0.1)])
def test_rouge_w_linear_identity_is_the_maximum(real_pairs, ab):
    a, b = ab
    hyps, refs = real_pairs["one_ref"]
    top = (1 + b) / a
    spec = f"rouge-w:f=linear,a={a},b={b}"
    same = _one(refs[0][:200], [refs[0][:200]], spec)
    np.testing.assert_allclose(same[[len(r.split()) > 0 for r in refs[0][:200]]], top, rtol=1e-12)
    others = _one(hyps[:500], [refs[0][:500]], spec)
    assert others.max() <= top + 1e-12 and others.min() >= 0.0
    unit = _one(hyps[:500], [refs[0][:500]], spec + ",unit=yes")
    np.testing.assert_allclose(unit, others / top, rtol=1e-12)
    assert _one(refs[0][:5], [refs[0][:5]], spec + ",unit=yes").tolist() == [1.0] * 5
    (m,) = parse_spec(spec)
    sig = str(m.signature(n_refs=1))
    assert f"scale:0 or ({b / a:.4g}-{top:.4g}]" in sig  # the real range, not "0-1"
    assert "scale:0-1" in str(parse_spec(spec + ",unit=yes")[0].signature(n_refs=1))


def _paper_wlcs(x: list[str], y: list[str], f) -> float:
    """Lin and Och (2004), section 3.2, the WLCS recurrence as printed: c and w tables, the
    weight f with f(0) = 0 (written here independently of the package's kernels)."""
    c = np.zeros((len(x) + 1, len(y) + 1))
    w = np.zeros((len(x) + 1, len(y) + 1), dtype=int)
    for i in range(1, len(x) + 1):
        for j in range(1, len(y) + 1):
            if x[i - 1] == y[j - 1]:
                k = w[i - 1, j - 1]
                c[i, j] = c[i - 1, j - 1] + f(k + 1) - f(k)
                w[i, j] = k + 1
            elif c[i - 1, j] > c[i, j - 1]:
                c[i, j] = c[i - 1, j]
            else:
                c[i, j] = c[i, j - 1]
    return float(c[-1, -1])


@pytest.mark.parametrize("ab", [(2.0, 1.0), (1.5, 0.5), (3.0, 1.0)])
def test_rouge_w_linear_equals_paper_wlcs_on_real_pairs(real_pairs, ab):
    # 500 real pairs (WMT21 TED en-de, MQM-rated systems against the reference) and 100 real
    # sentences paired with references of other segments that share no word with them
    a, b = ab
    hyps, refs = real_pairs["one_ref"]
    hyps, ref = [h.split() for h in hyps[:500]], [r.split() for r in refs[0][:500]]
    disjoint = [
        (h, r) for h, r in zip(hyps, ref[250:] + ref[:250], strict=True) if not set(h) & set(r)
    ][:100]
    assert len(disjoint) >= 50
    pairs = list(zip(hyps, ref, strict=True)) + disjoint

    def f(k: int) -> float:
        return a * k - b if k > 0 else 0.0

    def inv(y: float) -> float:  # f^-1, with f(0) = 0 mapped back to 0
        return (y + b) / a if y > 0 else 0.0

    expected = []
    for h, r in pairs:
        wlcs = _paper_wlcs(r, h, f)
        rec = inv(wlcs / f(len(r))) if r else 0.0
        prec = inv(wlcs / f(len(h))) if h else 0.0
        expected.append([prec, rec, 2 * prec * rec / (prec + rec) if prec + rec else 0.0])
    expected = np.array(expected)
    from mtpalette.metrics.scoring import TextPairs, compute_stats

    (m,) = parse_spec(f"rouge-w:f=linear,a={a},b={b}", tokenize="none")
    text = TextPairs.parallel([" ".join(h) for h, _ in pairs], [[" ".join(r) for _, r in pairs]])
    got = compute_stats([m], text)[m]
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-15)
    zero = got[500:]
    assert len(zero) == len(disjoint) and not zero.any()  # no common word: 0 in R, P and F
    assert (got[:500, 2] > 0).sum() > 400


def test_rouge_w_linear_spec_and_errors():
    (m,) = parse_spec("rouge-w:f=linear,a=2,b=1")
    assert m.spec == "rouge-w:2.0,f=linear,b=1.0"
    assert "weight:2k-1" in str(m.signature(n_refs=1))
    assert parse_spec("rouge-w:1.2")[0].spec == "rouge-w:1.2"  # the polynomial spec is unchanged
    for bad in ("rouge-w:1.2,b=1", "rouge-w:f=linear,b=0", "rouge-w:f=linear,compat=rouge155",
                "rouge-w:f=cubic", "rouge-w:f=linear,a=1,b=1", "rouge-w:f=linear,a=1,b=2",
                "rouge-w:1.2,unit=yes", "rouge-w:f=linear,unit=maybe"):  # fmt: skip
        with pytest.raises(UserInputError):
            parse_spec(bad)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.lists(st.integers(0, 3), max_size=10), min_size=1, max_size=4),
    st.lists(st.lists(st.integers(0, 3), max_size=10), min_size=1, max_size=4),
    st.sampled_from([(2.0, 1.0), (1.0, 0.25), (3.0, 2.5)]),
)
def test_wlcs_increments_equals_slow_twin(hyps, refs, ab):
    from mtpalette.kernels.reference.subsequence import wlcs_slow
    from mtpalette.kernels.subsequence import wlcs_increments_per_ref
    from mtpalette.metrics.base import Pairs
    from mtpalette.text.ragged import Ragged

    n = min(len(hyps), len(refs))
    hyps, refs = hyps[:n], refs[:n]
    pairs = Pairs(
        Ragged.from_rows(hyps), np.arange(n), Ragged.from_rows(refs), np.ones((1, n), dtype=bool)
    )
    a, b = ab
    out = wlcs_increments_per_ref(pairs, [a - b, a])
    for p in range(n):
        expected = wlcs_slow(refs[p], hyps[p], lambda k: a * k - b if k > 0 else 0.0)
        assert abs(out[p, 0] - expected) <= 1e-9


def test_rouge_w_at_one_is_rouge_l(real_pairs):
    hyps, refs = real_pairs["two_refs"]
    a = _one(hyps[:400], [r[:400] for r in refs], "rouge-w:1")
    b = _one(hyps[:400], [r[:400] for r in refs], "rouge-l")
    np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15)


def _rouge_score_tokens(text):
    return " ".join(tokenize.tokenize(text, None))


@pytest.mark.parametrize("nrefs", ["one_ref", "two_refs"])
def test_equals_rouge_score(real_pairs, nrefs):
    hyps, refs = real_pairs[nrefs]
    assert len(hyps) >= 2000
    th = [_rouge_score_tokens(h) for h in hyps]
    tr = [[_rouge_score_tokens(x) for x in r] for r in refs]
    ours = sentence_scores(th, tr, ["rouge-n:1", "rouge-n:2", "rouge-l"], tokenize="none")
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"])
    expected = {"rouge1": [], "rouge2": [], "rougeL": []}
    for i, h in enumerate(hyps):
        result = scorer.score_multi([r[i] for r in refs], h)
        for key in expected:
            expected[key].append(result[key].fmeasure)
    np.testing.assert_allclose(ours["rouge-n:1"], expected["rouge1"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(ours["rouge-n:2"], expected["rouge2"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(ours["rouge-l"], expected["rougeL"], rtol=0, atol=1e-12)


def test_grid_in_one_pass_equals_separate(real_pairs):
    hyps, refs = real_pairs["two_refs"]
    hyps, refs = hyps[:300], [r[:300] for r in refs]
    grid = sentence_scores(hyps, refs, ["rouge-s:0..9,*", "rouge-su:4", "rouge-w:1.1..2.0/0.1"])
    assert len(grid) == 11 + 1 + 10
    for spec in ("rouge-s:3", "rouge-s:*", "rouge-su:4", "rouge-w:1.3"):
        np.testing.assert_array_equal(grid[spec], _one(hyps, refs, spec))


def test_ranges_identity_and_policies(real_pairs):
    hyps, refs = real_pairs["two_refs"]
    hyps, refs = hyps[:300], [r[:300] for r in refs]
    specs = ["rouge-n:2", "rouge-l", "rouge-w:1.5", "rouge-s:4", "rouge-s:*", "rouge-su:4"]
    for multiref in ("max", "avg"):
        out = sentence_scores(hyps, refs, [f"{s},multiref={multiref}" for s in specs])
        for values in out.values():
            assert ((values >= 0) & (values <= 1 + 1e-12)).all()
    same = sentence_scores(refs[0], [refs[0]], specs)
    long_enough = np.array([len(r.split()) >= 3 for r in refs[0]])
    for values in same.values():
        np.testing.assert_allclose(values[long_enough], 1.0, rtol=1e-12)


def test_max_and_avg_policies_differ_as_defined():
    hyps, refs = ["a b c d"], [["a b c d"], ["a b x y"]]
    assert _one(hyps, refs, "rouge-n:1") == 1.0
    assert _one(hyps, refs, "rouge-n:1,multiref=avg") == pytest.approx(0.75)
