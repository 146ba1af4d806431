"""The matching measures em, mp, mpp and chars: hand-derived cases and a brute-force check.

The definitions tested are our reading of Perrella et al. (2026), see
``mtpalette.stats.span_matching``; the brute force below enumerates every one-to-one partial
matching and computes overlaps from sets of positions, independently of the module.
"""

from __future__ import annotations

from itertools import permutations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtpalette.errors import UserInputError
from mtpalette.stats.span_scores import aggregate_counts, prf
from mtpalette.stats.spans import score_spans, span_counts


def counts(measure, length, gold, pred, **kw):
    return span_counts(measure, [length], [gold], [pred], **kw)[0].tolist()


def test_overlapping_gold_spans_one_to_one():
    gold = [(0, 10, "major"), (5, 15, "minor")]
    pred = [(0, 10, "major")]
    assert counts("em", 20, gold, pred) == [1, 1, 1, 2]
    assert counts("mp", 20, gold, pred) == [1, 1, 1, 2]  # overlaps both, matched once
    assert counts("mpp", 20, gold, pred) == [1, 1, 1, 2]  # the full overlap wins (10 vs 5)
    assert counts("chars", 20, gold, pred) == [10, 10, 10, 20]


def test_overlapping_predicted_spans():
    gold = [(2, 8, "major")]
    pred = [(0, 4, "major"), (2, 8, "major"), (3, 5, "minor")]
    assert counts("em", 10, gold, pred) == [1, 1, 3, 1]
    assert counts("mp", 10, gold, pred) == [1, 1, 3, 1]
    assert counts("chars", 10, gold, pred) == [6, 6, 12, 6]
    assert counts("mpp", 10, gold, pred) == [1, 1, 3, 1]


def test_optimal_not_greedy_matching():
    # chars overlaps: p1-g1 6, p1-g2 5, p2-g1 5, p2-g2 0; greedy (6) loses to 5 + 5
    gold = [(0, 10, "major"), (10, 20, "major")]
    pred = [(4, 15, "major"), (5, 10, "major")]
    assert counts("chars", 20, gold, pred) == [10, 10, 16, 20]
    # mpp: p1-g2 (5/11 + 5/10) + p2-g1 (5/5 + 5/10) beats p1-g1 (6/11 + 6/10) alone
    tp_p, tp_r, n_p, n_g = counts("mpp", 20, gold, pred)
    assert tp_p == pytest.approx(5 / 11 + 1.0) and tp_r == pytest.approx(0.5 + 0.5)
    assert (n_p, n_g) == (2, 2)


def test_severity_mismatch_and_penalty():
    gold, pred = [(0, 4, "major")], [(0, 4, "minor")]
    assert counts("em", 6, gold, pred) == [1, 1, 1, 1]  # p = 0: severity ignored
    assert counts("em", 6, gold, pred, penalty=0.5) == [0.5, 0.5, 1, 1]
    assert counts("em", 6, gold, pred, penalty=1.0) == [0, 0, 1, 1]
    assert counts("chars", 6, gold, pred, penalty=0.25) == [3, 3, 4, 4]
    # critical counts as major; undecided and omissions are left out
    crit = [(0, 4, "critical"), (1, 2, "undecided"), (0, 0, "omission")]
    assert counts("em", 6, crit, [(0, 4, "major")], penalty=1.0) == [1, 1, 1, 1]


def test_severity_penalty_prefers_the_matching_severity():
    gold = [(0, 4, "major")]
    pred = [(0, 4, "minor"), (0, 3, "major")]
    # mp with p = 1: only the major prediction can earn credit
    assert counts("mp", 6, gold, pred, penalty=1.0) == [1, 1, 2, 1]
    # em with p = 0.5: the minor prediction is the only exact one, at half credit
    assert counts("em", 6, gold, pred, penalty=0.5) == [0.5, 0.5, 2, 1]


def test_empty_gold_and_empty_prediction():
    assert counts("em", 5, [], [(0, 3, "minor")]) == [0, 0, 1, 0]
    assert counts("mpp", 5, [(0, 3, "minor")], []) == [0, 0, 0, 1]
    assert counts("chars", 5, [], []) == [0, 0, 0, 0]
    p, r, f = prf(0, 0, 1, 0)
    assert (float(p), float(r), float(f)) == (0.0, 1.0, 0.0)
    p, r, f = prf(0, 0, 0, 1)
    assert (float(p), float(r), float(f)) == (1.0, 0.0, 0.0)


def test_insertion_points():
    assert counts("em", 8, [(3, 3, "minor")], [(3, 3, "minor")]) == [1, 1, 1, 1]
    assert counts("chars", 8, [(3, 3, "minor")], [(3, 3, "minor")]) == [1, 1, 1, 1]
    # the insertion point at 3 covers position 3, which [3, 5) covers too
    assert counts("em", 8, [(3, 3, "minor")], [(3, 5, "minor")]) == [0, 0, 1, 1]
    assert counts("mp", 8, [(3, 3, "minor")], [(3, 5, "minor")]) == [1, 1, 1, 1]
    assert counts("mpp", 8, [(3, 3, "minor")], [(3, 5, "minor")]) == [0.5, 1, 1, 1]
    # ... but not [0, 3), which ends before it
    assert counts("mp", 8, [(3, 3, "minor")], [(0, 3, "minor")]) == [0, 0, 1, 1]
    # at the end of the text
    assert counts("mp", 8, [(8, 8, "major")], [(8, 8, "major")]) == [1, 1, 1, 1]


def test_micro_and_macro_averages_by_hand():
    lengths = [10, 10, 10]
    gold = [[(0, 4, "major")], [(0, 2, "minor"), (5, 9, "major")], []]
    pred = [[(0, 4, "major")], [(5, 9, "major")], []]
    micro = score_spans("em", lengths, gold, pred)
    assert (micro.precision[0], micro.recall[0]) == (1.0, 2 / 3)
    macro = score_spans("em", lengths, gold, pred, average="macro")
    # segments: (1, 1, 1), (1, 0.5, 2/3), empty (1, 1, 1)
    assert macro.f1[0] == pytest.approx((1 + 2 / 3 + 1) / 3)
    assert macro.recall[0] == pytest.approx(2.5 / 3)
    skip = score_spans("em", lengths, gold, pred, average="macro", both_empty="skip")
    assert skip.f1[0] == pytest.approx((1 + 2 / 3) / 2) and skip.n_segments[0] == 2


def test_group_keys_as_tuples_and_pooled():
    c = np.array([[1.0, 1.0, 2.0, 2.0], [0.0, 0.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0]])
    s = aggregate_counts(c, (["en-de", "en-de", "ja-zh"], ["A", "B", "A"]))
    assert s.groups == [("en-de", "A"), ("en-de", "B"), ("ja-zh", "A")]
    assert s.f1.tolist() == [0.5, 0.0, 1.0]
    assert s.pooled[0] == pytest.approx(0.5)
    assert s.rows()[-1]["group"] == "pooled"


def test_bad_spans_are_refused_with_the_segment():
    with pytest.raises(UserInputError, match="gold, segment 1, span \\(2, 9, 'major'\\)"):
        span_counts("em", [5, 5], [[], [(2, 9, "major")]], [[], []])
    with pytest.raises(UserInputError, match="start is after the end"):
        span_counts("wmt25", [5], [[]], [[(4, 2, "minor")]])
    with pytest.raises(UserInputError, match="unknown severity 'fatal'"):
        span_counts("wmt25", [5], [[(0, 1, "fatal")]], [[]])
    with pytest.raises(UserInputError, match="segment 0: a span .* integer offsets"):
        span_counts("wmt25", [5], [[(0.5, 2, "minor")]], [[]])
    with pytest.raises(ValueError, match="takes no partial_credit"):
        span_counts("em", [5], [[]], [[]], partial_credit=0.3)
    with pytest.raises(ValueError, match="unknown span protocol"):
        span_counts("wmt99", [5], [[]], [[]])


# ------------------------------------------------------------------ brute force
def _positions(s, e):
    return set(range(s, e)) if e > s else {s}


def _credit(measure, p, g, penalty):
    (ps, pe, psev), (gs, ge, gsev) = p, g
    fold = {"critical": "major"}
    sev = 1.0 if fold.get(psev, psev) == fold.get(gsev, gsev) else 1.0 - penalty
    ov = len(_positions(ps, pe) & _positions(gs, ge))
    if measure == "em":
        c = float((ps, pe) == (gs, ge))
        return c * sev, c * sev
    if measure == "mp":
        return float(ov > 0) * sev, float(ov > 0) * sev
    if measure == "chars":
        return ov * sev, ov * sev
    return ov / len(_positions(ps, pe)) * sev, ov / len(_positions(gs, ge)) * sev


def _best(measure, pred, gold, penalty):
    """Largest total weight over every one-to-one partial matching."""
    best = 0.0
    slots = list(range(len(gold))) + [None] * len(pred)
    for assign in set(permutations(slots, len(pred))):
        total = 0.0
        for p, g in zip(pred, assign, strict=True):
            if g is not None:
                total += sum(_credit(measure, p, gold[g], penalty))
        best = max(best, total)
    return best


def _span(n):
    return st.tuples(st.integers(0, n), st.integers(0, n), st.sampled_from(["minor", "major"]))


@st.composite
def _segment(draw):
    n = draw(st.integers(1, 9))
    raw = draw(st.lists(_span(n), max_size=4)), draw(st.lists(_span(n), max_size=4))
    gold, pred = ([(min(s, e), max(s, e), v) for s, e, v in side] for side in raw)
    return n, gold, pred


@settings(max_examples=150, deadline=None)
@given(_segment(), st.sampled_from(["em", "mp", "mpp", "chars"]), st.sampled_from([0.0, 0.5, 1.0]))
def test_matching_is_a_maximum_one_to_one_matching(seg, measure, penalty):
    n, gold, pred = seg
    tp_p, tp_r, n_p, n_g = counts(measure, n, gold, pred, penalty=penalty)
    best = _best(measure, pred, gold, penalty)
    if measure == "mpp":
        assert tp_p + tp_r == pytest.approx(best, abs=1e-9)
    else:
        assert tp_p == tp_r == pytest.approx(best / 2, abs=1e-9)
    width = sum(len(_positions(s, e)) for s, e, _ in pred)
    assert n_p == (width if measure == "chars" else len(pred))
    assert 0 <= tp_p <= n_p + 1e-9 and 0 <= tp_r <= n_g + 1e-9


@settings(max_examples=40, deadline=None)
@given(st.lists(_segment(), min_size=1, max_size=6), st.sampled_from(["em", "mpp", "chars"]))
def test_segments_together_equal_segments_alone(segs, measure):
    lengths = [n for n, _, _ in segs]
    together = span_counts(measure, lengths, [g for _, g, _ in segs], [p for _, _, p in segs])
    alone = [counts(measure, n, g, p) for n, g, p in segs]
    assert np.allclose(together, alone)
