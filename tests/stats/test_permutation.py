"""The vectorised permutation tests, SPA and tie-calibration curve against slow references
written from their definitions (one permutation, one pair, one event at a time)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtpalette.stats import pairwise as pw
from mtpalette.stats import permutation as perm
from mtpalette.stats import sigdiff
from mtpalette.stats.grouping import make_groups
from mtpalette.stats.tie_calibration import pair_events, tie_calibration_curve


def _slow_class(dg: float, dm: float, eps: float) -> int:
    tie_g, tie_m = dg == 0.0, abs(dm) <= eps
    if tie_g and tie_m:
        return 4
    if tie_g:
        return 3
    if tie_m:
        return 2
    return 0 if (dg > 0) == (dm > 0) else 1


def _slow_tau(counts: list[int], variant: str) -> float:
    con, dis, tm, tg, tb = counts
    tot = sum(counts)
    if tot == 0:
        return float("nan")
    if variant == "acc23":
        return (con + tb) / tot
    if variant == "23":
        return (con + tb - dis - tm - tg) / tot
    xt, yt = tm + tb, tg + tb
    if xt == tot or yt == tot:
        return float("nan")
    return (con - dis) / np.sqrt(tot - xt) / np.sqrt(tot - yt)


def _slow_pairs_test(groups, a, b, ea, eb, variant, k, seed):
    """mt-metrics-eval's pairs test written out: per permutation an n x n draw per group."""
    rs = np.random.RandomState(seed)

    def stat(choose_a):  # choose_a[g][(i, j)] -> use a's class
        vals = []
        for g, (h, x, y) in enumerate(groups):
            counts = [0] * 5
            for i in range(len(h)):
                for j in range(i + 1, len(h)):
                    m, e = (x, ea) if choose_a[g][i, j] else (y, eb)
                    counts[_slow_class(h[j] - h[i], m[j] - m[i], e)] += 1
            vals.append(_slow_tau(counts, variant))
        v = np.array(vals)
        v = v[~np.isnan(v)]
        return float(np.mean(v)) if v.size else 0.0

    ones = [np.ones((len(h), len(h)), bool) for h, _, _ in groups]
    delta = stat(ones) - stat([~o for o in ones])
    draws = []
    for _ in range(k):
        w = [rs.random_sample((len(h), len(h))) > 0.5 for h, _, _ in groups]
        draws.append((stat(w), stat([~x for x in w])))
    draws = np.array(draws)
    return delta, draws


small_matrix = st.integers(2, 4).flatmap(
    lambda n_sys: st.integers(1, 4).flatmap(
        lambda n_items: st.tuples(
            *[
                st.lists(st.integers(0, 3), min_size=n_sys * n_items, max_size=n_sys * n_items)
                for _ in range(3)
            ]
        ).map(lambda t: tuple(np.array(v, float).reshape(n_sys, n_items) for v in t))
    )
)


@settings(max_examples=40, deadline=None)
@given(small_matrix, st.sampled_from(["acc23", "23", "b"]), st.integers(0, 2**31 - 1))
def test_pairs_test_equals_slow_reference(mats, variant, seed):
    h, a, b = mats
    ea, eb = 0.0, 1.0
    res = sigdiff.pairs_sig_diff(
        h, a, b, variant=variant, grouping="item", k=7, seed=seed, epsilon_a=ea, epsilon_b=eb,
        stopping=perm.EarlyStopping(block_size=7),
    )  # fmt: skip
    groups = [(h[:, i], a[:, i], b[:, i]) for i in range(h.shape[1])]
    delta, draws = _slow_pairs_test(groups, a, b, ea, eb, variant, 7, seed)
    assert res.delta == pytest.approx(delta, abs=1e-12)
    np.testing.assert_allclose(res.draws, draws, atol=1e-12)
    assert res.p_value == pytest.approx(np.mean(draws[:, 0] - draws[:, 1] >= res.delta))


def test_independent_draws_are_reproducible_and_valid():
    rng = np.random.default_rng(5)
    h = rng.integers(0, 5, size=(6, 40)).astype(float)
    good = h + rng.normal(scale=0.5, size=h.shape)
    bad = rng.normal(size=h.shape)
    r1 = sigdiff.pairs_sig_diff(h, good, bad, grouping="item", k=200,
                                seed=np.random.default_rng(1))  # fmt: skip
    r2 = sigdiff.pairs_sig_diff(h, good, bad, grouping="item", k=200,
                                seed=np.random.default_rng(1))  # fmt: skip
    np.testing.assert_array_equal(r1.draws, r2.draws)
    assert r1.delta > 0.1 and r1.p_value < 0.02
    r3 = sigdiff.pairs_sig_diff(h, bad, good, grouping="item", k=200,
                                seed=np.random.default_rng(2))  # fmt: skip
    assert r3.p_value > 0.5


@settings(max_examples=30, deadline=None)
@given(
    st.integers(2, 5),
    st.integers(2, 30),
    st.integers(1, 60),
    st.integers(0, 1000),
    st.booleans(),
)
def test_pairwise_p_values_equal_slow_reference(n_sys, n_items, k, seed, discrete):
    rng = np.random.default_rng(seed)
    x = (
        rng.integers(-3, 3, size=(n_sys, n_items))
        if discrete
        else rng.normal(size=(n_sys, n_items))
    )
    p = pw.pairwise_p_values(x, n_permutations=k, seed=seed)
    # the definition, one permutation and one pair at a time, in float32 as mt-metrics-eval
    signs = np.rint(np.random.default_rng(seed).random((k, n_items), dtype=np.float32)) * 2 - 1
    x32 = x.astype(np.float32)
    for i in range(n_sys):
        for j in range(i + 1, n_sys):
            test = np.sum(x32[i]) - np.sum(x32[j])
            hits = sum(
                np.matmul(signs, x32.T)[t, i] - np.matmul(signs, x32.T)[t, j] >= test
                for t in range(k)
            )
            assert p[i, j] == hits / k


def _slow_curve(h: np.ndarray, m: np.ndarray, variant: str):
    """tau optimization as its paper describes it: pairs sorted by metric difference, each
    turned into a tie in turn, a running sum of per-row statistics."""
    rows = []
    for r in range(h.shape[0]):
        ok = ~np.isnan(h[r])
        hr, mr = h[r][ok], m[r][ok]
        pairs = [(abs(mr[i] - mr[j]), hr[i] - hr[j], mr[i] - mr[j])
                 for i in range(len(hr)) for j in range(i + 1, len(hr))]  # fmt: skip
        if pairs:
            rows.append(pairs)
    stats = [[0, 0] for _ in rows]  # correct, total

    def tau(c, n):
        return c / n if variant == "acc23" else (2 * c - n) / n

    events = []
    for r, pairs in enumerate(rows):
        for diff, dg, dm in pairs:
            correct = (dg == 0 and dm == 0) or (dg != 0 and dm != 0 and (dg > 0) == (dm > 0))
            stats[r][0] += correct
            stats[r][1] += 1
            events.append((diff, r, int(dg == 0) - int(correct)))
    total = sum(tau(c, n) for c, n in stats)
    thresholds, taus = [0.0], [total / len(rows)]
    for diff, r, d in sorted(events, key=lambda e: e[0]):
        total -= tau(*stats[r])
        stats[r][0] += d
        total += tau(*stats[r])
        if thresholds[-1] == diff:
            taus[-1] = total / len(rows)
        else:
            thresholds.append(diff)
            taus.append(total / len(rows))
    return thresholds, taus


@settings(max_examples=50, deadline=None)
@given(small_matrix, st.sampled_from(["acc23", "23"]), st.booleans())
def test_calibration_curve_equals_slow_reference_bit_for_bit(mats, variant, holes):
    h, m, _ = mats
    m = m + 0.25 * h  # some structure, some ties
    if holes:
        h = h.copy()
        h[0, 0] = np.nan
    if (
        make_groups(h, m, "system").n_groups == 0
        or pair_events(make_groups(h, m, "system")).n_pairs.sum() == 0
    ):
        return
    c = tie_calibration_curve(h, m, grouping="system", variant=variant)
    thresholds, taus = _slow_curve(h, m, variant)
    assert c.thresholds.tolist() == thresholds
    assert c.values.tolist() == taus  # the same floating-point operations


@settings(max_examples=40, deadline=None)
@given(small_matrix)
def test_pdp_and_pooled_accuracy_equal_their_definitions(mats):
    h, m, _ = mats
    # PDP over items: all ordered pairs of systems of each item, diagonal included
    dh, dm = [], []
    for i in range(h.shape[1]):
        for a in range(h.shape[0]):
            for b in range(h.shape[0]):
                dh.append(h[b, i] - h[a, i])
                dm.append(m[b, i] - m[a, i])
    dh, dm = np.array(dh), np.array(dm)
    r, _ = pw.pdp(h, m, grouping="item")
    if np.all(dh == dh[0]) or np.all(dm == dm[0]):
        assert np.isnan(r)
    else:
        assert r == pytest.approx(np.corrcoef(dh, dm)[0, 1], abs=1e-12)
    blocks = [(h[:, i], m[:, i]) for i in range(h.shape[1])]
    agree = pairs = 0
    for hv, mv in blocks:
        for a in range(len(hv)):
            for b in range(a + 1, len(hv)):
                agree += np.sign(hv[a] - hv[b]) == np.sign(mv[a] - mv[b])
                pairs += 1
    assert pw.pooled_accuracy(blocks) == agree / pairs
