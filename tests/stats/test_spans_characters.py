"""wmt25 and wmt23-qe: the event sweep equals a character-by-character reference; the
aggregation, the bootstrap and the trivial baselines."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtpalette.stats.ranking import adjust, clusters
from mtpalette.stats.span_scores import (
    aggregate_counts,
    bootstrap_span_scores,
    pairwise_p_values,
    stack_counts,
)
from mtpalette.stats.spans import baseline_spans, score_spans, span_counts

SEVS = ["minor", "major", "critical", "undecided", "omission"]


def _wmt25_slow(n, gold, pred):
    """One character at a time, straight from the task's definition."""

    def cover(spans, i):
        major = sum(1 for s, e, v in spans if v in ("major", "critical") and s <= i < e)
        return major, sum(1 for s, e, v in spans if v == "minor" and s <= i < e)

    tp = n_p = n_g = 0.0
    for i in range(n):
        gM, gm = cover(gold, i)
        pM, pm = cover(pred, i)
        tp += min(gM, pM) + min(gm, pm)
        left_g = max(0, gM - pM) + max(0, gm - pm)
        left_p = max(0, pM - gM) + max(0, pm - gm)
        tp += 0.5 * min(left_g, left_p)
        n_p += pM + pm
        n_g += gM + gm
    return [tp, tp, n_p, n_g]


def _wmt23_slow(n, gold, pred):
    def marks(spans, i):
        hit = [(v if v != "critical" else "major") for s, e, v in spans if v in SEVS[:3]]
        where = [(s, e) for s, e, v in spans if v in SEVS[:3]]
        got = {h for h, (s, e) in zip(hit, where, strict=True) if s <= i < e or s == e == i}
        return "major" in got, "minor" in got

    tp = n_p = n_g = 0.0
    for i in range(n + 1):
        gM, gm = marks(gold, i)
        pM, pm = marks(pred, i)
        n_g += gM or gm
        n_p += pM or pm
        if gM and gm:
            tp += 1.0 if (pM or pm) else 0.0
        elif gM:
            tp += 1.0 if pM else 0.5 if pm else 0.0
        elif gm:
            tp += 1.0 if pm else 0.5 if pM else 0.0
    return [tp, tp, n_p, n_g]


@st.composite
def _segments(draw):
    out = []
    for _ in range(draw(st.integers(1, 5))):
        n = draw(st.integers(0, 12))
        span = st.tuples(st.integers(0, n), st.integers(0, n), st.sampled_from(SEVS))
        sides = draw(st.lists(span, max_size=5)), draw(st.lists(span, max_size=5))
        gold, pred = ([(min(s, e), max(s, e), v) for s, e, v in side] for side in sides)
        out.append((n, gold, pred))
    return out


@pytest.mark.parametrize("name, slow", [("wmt25", _wmt25_slow), ("wmt23-qe", _wmt23_slow)])
@settings(max_examples=200, deadline=None)
@given(segs=_segments())
def test_the_sweep_equals_character_by_character(name, slow, segs):
    lengths = [n for n, _, _ in segs]
    fast = span_counts(name, lengths, [g for _, g, _ in segs], [p for _, _, p in segs])
    assert np.allclose(fast, [slow(n, g, p) for n, g, p in segs], atol=1e-12)


def test_wmt25_by_hand():
    # gold: major [0, 6) and minor [3, 9) overlap; prediction: minor [0, 9)
    # chars 0-2: gold M, pred m -> 0.5 each; 3-5: gold M+m, pred m -> 1 each; 6-8: m/m -> 1
    c = span_counts("wmt25", [10], [[(0, 6, "major"), (3, 9, "minor")]], [[(0, 9, "minor")]])
    assert c.tolist() == [[7.5, 7.5, 9.0, 12.0]]
    s = score_spans("wmt25", [10], [[(0, 6, "major"), (3, 9, "minor")]], [[(0, 9, "minor")]])
    assert (s.precision[0], s.recall[0]) == (7.5 / 9, 7.5 / 12)
    # insertion points count for nothing; partial credit is settable
    c = span_counts("wmt25", [4], [[(2, 2, "major"), (0, 2, "major")]], [[(0, 2, "minor")]])
    assert c.tolist() == [[1.0, 1.0, 2.0, 2.0]]
    c = span_counts("wmt25", [4], [[(0, 2, "major")]], [[(0, 2, "minor")]], partial_credit=0.0)
    assert c.tolist() == [[0.0, 0.0, 2.0, 2.0]]


def test_trivial_baselines():
    lengths = [10, 5, 0]
    gold = [[(0, 4, "major")], [], []]
    none = baseline_spans("none", lengths)
    everything = baseline_spans("all", lengths)
    s = score_spans("wmt25", lengths, gold, none)
    assert (s.precision[0], s.recall[0], s.f1[0]) == (1.0, 0.0, 0.0)
    s = score_spans("wmt25", lengths, gold, everything)
    assert (s.precision[0], s.recall[0]) == (4 / 15, 1.0)
    s = score_spans("wmt23-qe", lengths, gold, everything)  # positions: 11 + 6 + 1
    assert (s.precision[0], s.recall[0]) == (4 / 15, 1.0)
    s = score_spans("em", lengths, gold, everything)
    assert (s.precision[0], s.recall[0]) == (0.0, 0.0)
    s = score_spans("mp", lengths, gold, everything)
    assert (s.precision[0], s.recall[0]) == (0.5, 1.0)
    with pytest.raises(ValueError, match="unknown baseline"):
        baseline_spans("some", lengths)


def test_bootstrap_is_seeded_stratified_and_paired():
    rng = np.random.default_rng(0)
    n = 60
    a = np.column_stack([rng.integers(0, 5, n)] * 2 + [rng.integers(5, 9, (n, 2))]).astype(float)
    b = a.copy()
    b[:, :2] = np.maximum(0, b[:, :2] - 1)
    groups = np.repeat(["en-de", "ja-zh", "cs-uk"], 20)
    both = stack_counts([a, b])
    r1 = bootstrap_span_scores(both, groups, n_resamples=300, seed=5)
    r2 = bootstrap_span_scores(both, groups, n_resamples=300, seed=5)
    assert np.array_equal(r1.distribution, r2.distribution) and r1.seed == 5
    assert r1.distribution.shape == (300, 2, 4, 3)
    agg = aggregate_counts(a, groups)
    assert np.allclose(r1.value[0, :3, 2], agg.f1) and r1.value[0, 3, 2] == pytest.approx(
        agg.mean[2]
    )
    assert (r1.low <= r1.value + 1e-12).all() and (r1.value <= r1.high + 1e-12).all()
    # paired: b's credit is never above a's, on every resample
    assert (r1.distribution[:, 1, :, 0] <= r1.distribution[:, 0, :, 0] + 1e-12).all()
    # the macro average resamples the segment scores
    m = bootstrap_span_scores(a, groups, average="macro", n_resamples=200, seed=1)
    assert np.allclose(m.value[0, :3, 2], aggregate_counts(a, groups, average="macro").f1)


def test_pairwise_p_values_feed_the_ranking_machinery():
    good = np.array([[3.0, 3.0, 4.0, 4.0]] * 40)
    bad = np.array([[1.0, 1.0, 4.0, 4.0]] * 20 + [[3.0, 3.0, 4.0, 4.0]] * 20)
    groups = np.repeat(["en-de", "ja-zh"], 20)
    boot = bootstrap_span_scores(stack_counts([good, bad, good]), groups, n_resamples=300, seed=4)
    p = pairwise_p_values(boot)
    assert np.isnan(np.diag(p)).all() and np.allclose(p, p.T, equal_nan=True)
    assert p[0, 2] == 1.0 and p[0, 1] < 0.01  # identical annotators; a worse one
    # en-de alone: bad is worse there; ja-zh alone: all three equal
    assert pairwise_p_values(boot, group=0)[0, 1] < 0.01
    assert pairwise_p_values(boot, group=1, measure="recall")[0, 1] == 1.0
    order = np.argsort(-boot.value[:, -1, 2], kind="stable")  # good, good, bad
    sig = adjust(p, "holm")[np.ix_(order, order)] < 0.05
    np.fill_diagonal(sig, False)
    assert clusters(sig).tolist() == [1, 1, 2]
