"""The batched Wilcoxon signed-rank tests (stats/signed_rank.py) against
``scipy.stats.wilcoxon`` called once per sample, to the last bit: random sizes on both sides
of the exact/normal boundary (50), with ties, zeros and all-zero samples; and the pairwise
tests of the rankings (every pair, every domain, Stouffer) against a per-pair loop."""

from __future__ import annotations

import warnings

import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import given, settings

from mtpalette.stats import ranking as rk
from mtpalette.stats.signed_rank import EXACT_MAX, RULE, signed_rank_tests


def scipy_p(d: np.ndarray) -> float:
    """scipy's p-value with the method scipy <= 1.14 chose (the reference, one call)."""
    from scipy.stats import wilcoxon

    if d.size == 0:
        return float("nan")
    if not np.any(d != 0):
        return 1.0
    method = "exact" if d.size <= EXACT_MAX and not np.any(d == 0) else "asymptotic"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(wilcoxon(d, method=method, correction=False, zero_method="wilcox").pvalue)


# a sample: its size (both regimes), how coarse its values are (ties), its zeros
SAMPLE = st.tuples(
    st.integers(0, 90),
    st.sampled_from([1, 2, 3, 10, 1000]),  # value levels: few levels, many ties
    st.sampled_from([0.0, 0.1, 0.5, 1.0]),  # share of zero differences
    st.sampled_from([1.0, 0.5, 2.7, 1e-3]),
    st.integers(0, 2**31 - 1),
)


def _sample(spec) -> np.ndarray:
    n, levels, zeros, scale, seed = spec
    rng = np.random.default_rng(seed)
    d = rng.integers(1, levels + 1, size=n) * rng.choice([-1.0, 1.0], size=n) * scale
    d[rng.random(n) < zeros] = 0.0
    return d


@settings(max_examples=120, deadline=None)
@given(specs=st.lists(SAMPLE, min_size=1, max_size=12))
def test_batched_p_values_equal_scipy_called_per_sample(specs):
    samples = [_sample(s) for s in specs]
    groups = np.concatenate([np.full(d.size, k) for k, d in enumerate(samples)]).astype(int)
    got = signed_rank_tests(np.concatenate(samples), groups, len(samples))
    expected = np.array([scipy_p(d) for d in samples])
    assert np.array_equal(got.p, expected, equal_nan=True)  # bit for bit
    sizes = np.array([d.size for d in samples])
    nonzero = np.array([np.count_nonzero(d) for d in samples])
    assert got.n.tolist() == sizes.tolist() and got.n_nonzero.tolist() == nonzero.tolist()
    assert got.exact.tolist() == ((sizes <= 50) & (nonzero == sizes) & (sizes > 0)).tolist()


def test_hand_derived_exact_and_normal_values():
    # 1..6 all positive: R+ = 21, P(R+ >= 21) = 1/64, two-sided 2/64
    t = signed_rank_tests([1.0, 2, 3, 4, 5, 6], np.zeros(6, dtype=int), 1)
    assert t.p[0] == 2 / 64 and t.r_plus[0] == 21 and bool(t.exact[0])
    # ties (ranks 1.5, 1.5, 3): R+ = 4.5, rounded down for P(R+ >= 4) = 3/8 (sums 4, 5, 6
    # of the 8 subsets of {1, 2, 3}) and up for P(R+ <= 5) = 7/8: p = 2 * 3/8
    t = signed_rank_tests([1.0, -1.0, 2.0], np.zeros(3, dtype=int), 1)
    assert t.r_plus[0] == 4.5 and t.p[0] == 0.75
    # a zero: normal approximation on the 2 non-zero differences, no continuity correction:
    # R+ = 3, mean 1.5, se = sqrt(2 * 3 * 5 / 24), p = 2 Phi(-1.5 / se)
    from scipy.special import ndtr

    t = signed_rank_tests([0.0, 1.0, 2.0], np.zeros(3, dtype=int), 1)
    assert t.p[0] == pytest.approx(2 * ndtr(-1.5 / np.sqrt(30 / 24)), rel=1e-15)


def test_refusals_and_the_rule_text():
    with pytest.raises(ValueError, match="NaN"):
        signed_rank_tests([1.0, np.nan], [0, 0], 1)
    with pytest.raises(ValueError, match="group numbers"):
        signed_rank_tests([1.0, 2.0], [0], 1)
    assert "n<=50" in RULE and "|" not in RULE and ":" not in RULE


def _loop(x: np.ndarray, domains: list[str] | None) -> tuple[np.ndarray, dict]:
    """Every pair (and domain) tested one call at a time, combined by Stouffer one pair at a
    time (the code before the batched tests)."""
    S = x.shape[0]
    p = np.full((S, S), np.nan)
    names = list(dict.fromkeys(domains)) if domains else []
    by = {d: np.full((S, S), np.nan) for d in names}
    of = np.asarray(domains, dtype=object) if domains else None
    for a in range(S):
        for b in range(a + 1, S):
            ok = ~np.isnan(x[a]) & ~np.isnan(x[b])
            if not domains:
                p[a, b] = p[b, a] = scipy_p(x[a][ok] - x[b][ok])
                continue
            parts = []
            for d in names:
                m = ok & (of == d)
                if m.any():
                    by[d][a, b] = by[d][b, a] = scipy_p(x[a][m] - x[b][m])
                    parts.append(by[d][a, b])
            p[a, b] = p[b, a] = rk.stouffer(parts)
    return p, by


@settings(max_examples=40, deadline=None)
@given(
    systems=st.integers(2, 6),
    items=st.integers(4, 140),
    n_domains=st.integers(1, 11),
    missing=st.sampled_from([0.0, 0.2]),
    seed=st.integers(0, 2**31 - 1),
)
def test_pairwise_tests_equal_the_per_pair_loop(systems, items, n_domains, missing, seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 8, size=(systems, items)).astype(float)  # ESA-like: many ties, zeros
    x[rng.random(x.shape) < missing] = np.nan
    x[:, :2] = 1.0  # every pair shares two items
    domains = [f"d{k}" for k in rng.integers(0, n_domains, size=items)]
    got = rk.pairwise_tests(x, "wmt24", domains=domains)
    p, by = _loop(x, domains)
    assert np.array_equal(got.p, p, equal_nan=True)
    for d, m in by.items():
        assert np.array_equal(got.by_domain[d], m, equal_nan=True)
    p, _ = _loop(x, None)
    assert np.array_equal(rk.pairwise_tests(x, "wilcoxon").p, p, equal_nan=True)


def test_stouffer_rows_leave_out_missing_domains():
    p = np.array([[0.05, 0.2, 0.7], [0.05, np.nan, 0.7], [np.nan, np.nan, np.nan]])
    got = rk.stouffer_rows(p)
    assert got[0] == rk.stouffer([0.05, 0.2, 0.7]) and got[1] == rk.stouffer([0.05, 0.7])
    assert np.isnan(got[2])


def test_pairwise_refusals_name_the_pair():
    x = np.array([[1.0, 2.0, np.nan], [np.nan, 1.0, 3.0], [2.0, np.nan, 1.0]])
    with pytest.raises(ValueError, match="systems 0 and 1 share 1 scored item"):
        rk.pairwise_tests(x, "wilcoxon")
    y = np.array([[1.0, np.nan], [np.nan, 2.0]])
    with pytest.raises(ValueError, match="systems 0 and 1 share no scored item in any domain"):
        rk.pairwise_tests(y, "wmt24", domains=["a", "b"])
