"""The resampling engine: draws equal to the reference implementations' (sacrebleu,
mt-metrics-eval), the same whatever the batch size, reproducible from a seed; intervals that
cover; p-values and early stopping against plain loops written like the references."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtpalette.stats.resampling import (
    bootstrap_interval,
    count_exceedances,
    index_batches,
    interval_rank,
    min_resamples,
    min_trials,
    order_statistic_interval,
    p_value,
    permutation_batches,
    resample_counts,
    resolve_seed,
    swap_batches,
)

STREAMS = ("bits", "integers", "float32", "legacy")


def _source(stream: str, seed: int):
    if stream == "legacy":
        return np.random.RandomState(seed)
    return np.random.default_rng(seed)


def _after(source) -> float:
    """The next value of a source: equal when two sources are left in the same state."""
    return float(
        source.random_sample() if isinstance(source, np.random.RandomState) else source.random()
    )


# ----------------------------------------------------------------------------------------
# the references' draws
# ----------------------------------------------------------------------------------------
def test_bootstrap_draws_are_sacrebleus_choice():
    # sacrebleu 2.x significance.py: rng = np.random.default_rng(seed);
    # idxs = rng.choice(len(stats), size=(n_samples, len(stats)), replace=True)
    sacre = np.random.default_rng(12345)
    want = sacre.choice(529, size=(1000, 529), replace=True)
    rng = np.random.default_rng(12345)
    got = np.concatenate(list(index_batches(529, 1000, rng, rows=333)))
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, want)
    assert _after(rng) == _after(sacre)


def test_swap_bits_are_sacrebleus_approximate_randomization():
    # sacrebleu 2.x significance.py, paired AR: the swaps, then bootstrap indices for the
    # intervals from the same generator
    sacre = np.random.default_rng(12345)
    swaps = sacre.integers(2, size=(10000, 529), dtype=bool)
    after = sacre.choice(529, size=(300, 529), replace=True)
    rng = np.random.default_rng(12345)
    parts = list(swap_batches(529, 10000, rng, rows=1000))
    assert all(p.dtype == np.bool_ for p in parts)
    np.testing.assert_array_equal(np.concatenate(parts), swaps)
    np.testing.assert_array_equal(next(index_batches(529, 300, rng)), after)


def test_legacy_stream_is_mt_metrics_evals_binomial():
    # mt-metrics-eval 68a481a stats.PermutationSigDiff: per trial
    # w1 = np.random.binomial(1, 0.5, len(mscores1)) from numpy's global legacy state;
    # np.random.seed(s) seeds that state as RandomState(s) is seeded
    reference = np.random.RandomState(7)
    want = np.stack([reference.binomial(1, 0.5, 41) for _ in range(250)]).astype(bool)
    source = np.random.RandomState(7)
    got = np.concatenate(list(swap_batches(41, 250, source, rows=64)))
    np.testing.assert_array_equal(got, want)
    assert _after(source) == _after(reference)


def test_float32_stream_is_mt_metrics_evals_spa_signs():
    # mt-metrics-eval 68a481a pce.py: rng = np.random.default_rng(seed);
    # signs = rng.random(size=(k, n), dtype=np.float32); np.rint(signs) -> 0/1
    reference = np.random.default_rng(4)
    signs = np.rint(reference.random(size=(1000, 63), dtype=np.float32))
    got = np.concatenate(list(swap_batches(63, 1000, np.random.default_rng(4), stream="float32")))
    np.testing.assert_array_equal(got, signs == 1.0)


def test_integers_stream_is_one_draw_per_trial():
    reference = np.random.default_rng(3)
    want = np.stack([reference.integers(0, 2, size=17).astype(bool) for _ in range(90)])
    got = np.concatenate(
        list(swap_batches(17, 90, np.random.default_rng(3), stream="integers", rows=7))
    )
    np.testing.assert_array_equal(got, want)


def test_permutations_are_successive_permutation_calls():
    reference = np.random.default_rng(11)
    want = np.stack([reference.permutation(9) for _ in range(20)])
    rng = np.random.default_rng(11)
    got = np.concatenate(list(permutation_batches(9, 20, rng, rows=6)))
    np.testing.assert_array_equal(got, want)
    assert _after(rng) == _after(reference)


# ----------------------------------------------------------------------------------------
# the same draws whatever the batches; reproducible from a seed
# ----------------------------------------------------------------------------------------
#: units, draws, rows per batch and seed of the batch-independence properties
SIZES = {
    "n": st.integers(1, 70),
    "total": st.integers(0, 150),
    "rows": st.integers(1, 160),
    "seed": st.integers(0, 2**32 - 1),
}


def _joined(parts: list[np.ndarray], n: int, dtype) -> np.ndarray:
    return np.concatenate(parts) if parts else np.empty((0, n), dtype)


@settings(max_examples=60, deadline=None)
@given(**SIZES, dtype=st.sampled_from([np.int32, np.int64]))
def test_index_draws_do_not_depend_on_batches_or_dtype(n, total, rows, seed, dtype):
    whole = np.random.default_rng(seed)
    want = whole.integers(0, n, size=(total, n))
    rng = np.random.default_rng(seed)
    parts = list(index_batches(n, total, rng, rows=rows, dtype=dtype))
    assert all(p.shape[0] <= rows and p.dtype == dtype for p in parts)
    np.testing.assert_array_equal(_joined(parts, n, dtype), want)
    assert _after(rng) == _after(whole)


@settings(max_examples=80, deadline=None)
@given(**SIZES, stream=st.sampled_from(STREAMS))
def test_swap_draws_do_not_depend_on_batches(n, total, rows, seed, stream):
    whole = list(swap_batches(n, total, _source(stream, seed), stream=stream, rows=max(total, 1)))
    source = _source(stream, seed)
    parts = list(swap_batches(n, total, source, stream=stream, rows=rows))
    np.testing.assert_array_equal(_joined(parts, n, bool), _joined(whole, n, bool))
    if stream == "bits":  # cut at whole 32-bit words
        assert all(p.size % 32 == 0 for p in parts[:-1])
    reference = _source(stream, seed)
    list(swap_batches(n, total, reference, stream=stream, rows=max(total, 1)))
    assert _after(source) == _after(reference)


def test_default_batches_bound_memory():
    sizes = [b.shape for b in index_batches(300_000, 20, np.random.default_rng(0))]
    assert sizes == [(6, 300_000)] * 3 + [(2, 300_000)]  # 2e6 // 3e5 = 6 resamples per batch
    assert [b.shape[0] for b in swap_batches(100_000, 50, np.random.default_rng(0))] == [
        20,
        20,
        10,
    ]


def test_seed_reproducibility():
    a, recorded = resolve_seed(2024)
    b, _ = resolve_seed(2024)
    c, _ = resolve_seed(2025)
    draw = [next(index_batches(30, 5, g)) for g in (a, b, c)]
    assert recorded == 2024
    assert np.array_equal(draw[0], draw[1]) and not np.array_equal(draw[0], draw[2])
    fresh, seed = resolve_seed(None)
    assert isinstance(seed, int)
    np.testing.assert_array_equal(
        next(swap_batches(12, 4, fresh)), next(swap_batches(12, 4, resolve_seed(seed)[0]))
    )
    g = np.random.default_rng(1)
    assert resolve_seed(g) == (g, None)
    for bad in (-1, 1.5, True, "7"):
        with pytest.raises(ValueError, match="seed must be"):
            resolve_seed(bad)


def test_bad_draw_arguments():
    with pytest.raises(ValueError, match="at least one unit"):
        next(index_batches(0, 3, np.random.default_rng(0)))
    with pytest.raises(ValueError, match="non-negative"):
        next(index_batches(3, -1, np.random.default_rng(0)))
    with pytest.raises(ValueError, match="unknown stream"):
        next(swap_batches(3, 2, np.random.default_rng(0), stream="coin"))
    with pytest.raises(ValueError, match="RandomState"):
        next(swap_batches(3, 2, np.random.default_rng(0), stream="legacy"))
    with pytest.raises(ValueError, match="RandomState"):
        next(swap_batches(3, 2, np.random.RandomState(0), stream="bits"))
    with pytest.raises(ValueError, match="at least one row"):
        next(swap_batches(3, 2, np.random.default_rng(0), rows=0))


@settings(max_examples=40, deadline=None)
@given(idx=st.lists(st.lists(st.integers(0, 9), min_size=10, max_size=10), min_size=1, max_size=8))
def test_resample_counts_against_a_loop(idx):
    idx = np.array(idx, dtype=np.int32)
    counts = resample_counts(idx, 10)
    for r, row in enumerate(idx):
        want = [sum(1 for i in row if i == j) for j in range(10)]
        assert counts[r].tolist() == want
    rows = np.random.default_rng(0).normal(size=(10, 3))
    np.testing.assert_allclose(counts @ rows, np.stack([rows[r].sum(axis=0) for r in idx]))


# ----------------------------------------------------------------------------------------
# intervals
# ----------------------------------------------------------------------------------------
#: resampled values (B >= 2) and a coverage
RESAMPLED = st.lists(st.floats(-1e6, 1e6), min_size=2, max_size=300)
COVERAGE = st.floats(0.5, 0.999)


@settings(max_examples=80, deadline=None)
@given(dist=RESAMPLED, level=COVERAGE)
def test_order_statistic_interval_holds_its_share_of_resamples(dist, level):
    d = np.array(dist)
    lo, hi = order_statistic_interval(d, level)
    ordered = np.sort(d)
    r = interval_rank(d.size, level)
    assert (lo, hi) == (ordered[r], ordered[d.size - r - 1])
    inside = np.count_nonzero((d >= lo) & (d <= hi))
    assert inside >= level * d.size - 1e-9
    assert np.count_nonzero(d < lo) <= r and np.count_nonzero(d > hi) <= r


@settings(max_examples=80, deadline=None)
@given(dist=RESAMPLED, confidence=COVERAGE)
def test_percentile_interval_against_sorted_resamples(dist, confidence):
    # linear interpolation between the order statistics at (B - 1) * q
    d = np.array(dist)
    ordered = np.sort(d)
    q = (1.0 - confidence) / 2.0
    lo, hi = bootstrap_interval(d, confidence)

    def interpolated(p):
        h = (d.size - 1) * p
        k = math.floor(h)
        return ordered[k] + (h - k) * (ordered[min(k + 1, d.size - 1)] - ordered[k])

    assert lo == pytest.approx(interpolated(q), rel=1e-9, abs=1e-6)
    assert hi == pytest.approx(interpolated(1.0 - q), rel=1e-9, abs=1e-6)
    assert ordered[0] <= lo <= hi <= ordered[-1]
    blo, bhi = bootstrap_interval(d, confidence, method="basic", value=1.5)
    assert (blo, bhi) == pytest.approx((3.0 - hi, 3.0 - lo), rel=1e-12, abs=1e-6)


def test_interval_nan_resamples_and_columns():
    d = np.array([[1.0, np.nan], [2.0, np.nan], [np.nan, np.nan], [4.0, np.nan]])
    lo, hi = bootstrap_interval(d, 0.5)
    assert lo.tolist()[0] == pytest.approx(1.5) and hi.tolist()[0] == pytest.approx(3.0)
    assert np.isnan(lo[1]) and np.isnan(hi[1])
    lo, hi = bootstrap_interval(d, 0.5, omit_nan=False)
    assert np.isnan(lo[0]) and np.isnan(hi[0])
    assert all(math.isnan(b) for b in bootstrap_interval(np.empty(0), 0.95))
    # columns by axis equal one call per column
    x = np.random.default_rng(0).normal(size=(3, 200))
    lo, hi = bootstrap_interval(x, 0.9, axis=1)
    for j in range(3):
        assert (lo[j], hi[j]) == bootstrap_interval(x[j], 0.9)
    with pytest.raises(ValueError, match="method"):
        bootstrap_interval(x[0], 0.9, method="bca")
    with pytest.raises(ValueError, match="value"):
        bootstrap_interval(x[0], 0.9, method="basic")
    with pytest.raises(ValueError, match="confidence"):
        bootstrap_interval(x[0], 95)


def test_interval_coverage_of_the_engine():
    # the engine end to end: draws, counts, means, percentile and sacrebleu-style intervals of
    # the mean of 50 exponential draws (mean 1), 300 data sets; both 95% intervals should
    # cover the true mean in about 95% of them (a little less: skewed data, n = 50); binomial
    # sd for 300 data sets: 1.3%
    rng = np.random.default_rng(31)
    trials, covered, covered_order = 300, 0, 0
    for _ in range(trials):
        x = rng.exponential(size=50)
        means = np.concatenate(
            [resample_counts(idx, 50) @ x / 50 for idx in index_batches(50, 1000, rng, rows=300)]
        )
        lo, hi = bootstrap_interval(means, 0.95)
        covered += lo <= 1.0 <= hi
        lo, hi = order_statistic_interval(means, 0.95)
        covered_order += lo <= 1.0 <= hi
    assert 0.89 <= covered / trials <= 0.98
    assert 0.89 <= covered_order / trials <= 0.98


def test_minimum_counts():
    assert min_resamples(0.95) == 40 and interval_rank(40, 0.95) == 1
    assert interval_rank(39, 0.95) == 0
    assert min_trials(0.05) == 20 and p_value(0, 19) >= 0.05 > p_value(0, 20)


# ----------------------------------------------------------------------------------------
# p-values and early stopping
# ----------------------------------------------------------------------------------------
def test_p_value_conventions():
    assert p_value(0, 999) == 0.001  # never 0: the observation is one of the draws
    assert p_value(999, 999) == 1.0
    assert p_value(0, 1000, plus_one=False) == 0.0  # mt-metrics-eval's count / k
    assert p_value(250, 1000, plus_one=False) == 0.25
    assert math.isnan(p_value(0, 0)) and math.isnan(p_value(0, 0, plus_one=False))
    np.testing.assert_array_equal(p_value(np.array([[0, 4]]), 4), [[0.2, 1.0]])


def _mtme_loop(hits, k, block_size, early_min, early_max, check_after_hits_only=False):
    """mt-metrics-eval 68a481a stats.PermutationSigDiff's loop (and, with
    ``check_after_hits_only``, PairwisePermutationSigDiff's), on precomputed outcomes."""
    i, large_delta_count = 1, 0
    for i in range(1, k + 1):
        if hits[i - 1]:
            large_delta_count += 1
            if check_after_hits_only and i % block_size == 0:
                pval = large_delta_count / i
                if pval < early_min or pval > early_max:
                    break
        if not check_after_hits_only and i % block_size == 0:
            pval = large_delta_count / i
            if pval < early_min or pval > early_max:
                break
    return large_delta_count, i


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    k=st.integers(1, 400),
    block=st.integers(1, 120),
    rows=st.integers(1, 130),
    share=st.floats(0.0, 1.0),
    early=st.tuples(st.floats(0.0, 0.3), st.floats(0.2, 1.0)),
    after_hits=st.booleans(),
)
def test_early_stopping_equals_the_reference_loop(seed, k, block, rows, share, early, after_hits):
    hits = np.random.default_rng(seed).random(k) < share
    count, trials = _mtme_loop(hits, k, block, *early, after_hits)

    def batches():
        for start in range(0, k, rows):
            yield np.arange(start, min(k, start + rows))

    out = count_exceedances(
        batches(),
        lambda b: hits[b],
        block_size=block,
        early_min=early[0],
        early_max=early[1],
        check_after_hits_only=after_hits,
    )
    assert (out.count, out.trials) == (count, trials)
    assert out.stopped_early or trials == k
    if trials < k:
        assert out.stopped_early
    assert out.p_value(plus_one=False) == count / trials


def test_exceedances_of_a_real_test():
    # sign test of 30 paired differences with mean 0.5: few trials reach the observed sum
    rng = np.random.default_rng(5)
    d = rng.normal(0.5, 1.0, size=30)
    observed = d.sum()

    def extreme(swaps):
        return np.where(swaps, -d, d).sum(axis=1) >= observed

    out = count_exceedances(swap_batches(30, 2000, rng), extreme)
    assert out.trials == 2000 and not out.stopped_early
    assert out.p_value() < 0.05
    assert out.p_value() == (1 + out.count) / 2001
