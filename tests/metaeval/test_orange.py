"""ORANGE core: oracle ranks with ties, per-segment normalisation, the paper's example,
the table with bootstrap intervals and equivalence marks, curves and error analysis."""

from __future__ import annotations

import numpy as np
import pytest

from mtpalette.errors import UserInputError
from mtpalette.metaeval.orange import (
    Comparisons,
    compare_with_oracle,
    curve_cutoffs,
    evaluate,
    orange_curve,
    orange_score,
    rank_of_oracle,
    segment_ranks,
)
from mtpalette.metaeval.orange_errors import error_analysis


# ----- ranks and ties ---------------------------------------------------------------------
def test_rank_with_ties_all_policies():
    # oracle 0.5 among [0.9, 0.5, 0.7, 0.5, 0.5, 0.1]: 2 strictly better, 3 tied, 1 worse
    scores = [0.9, 0.5, 0.7, 0.5, 0.5, 0.1]
    assert rank_of_oracle(0.5, scores, ties="optimistic") == 1 + 2 + 0.0 * 3
    assert rank_of_oracle(0.5, scores, ties="mid") == 1 + 2 + 0.5 * 3
    assert rank_of_oracle(0.5, scores, ties="pessimistic") == 1 + 2 + 1.0 * 3


def test_rank_direction_lower_is_better():
    # an error rate: 0.1 and 0.2 are better than 0.3, 0.3 ties, 0.4 is worse
    scores = [0.4, 0.1, 0.3, 0.2]
    assert rank_of_oracle(0.3, scores, higher_is_better=False, ties="mid") == 1 + 2 + 0.5
    # the same numbers read as "higher is better": only 0.4 is better
    assert rank_of_oracle(0.3, scores, higher_is_better=True, ties="mid") == 1 + 1 + 0.5


def test_ties_are_relative_not_exact():
    better, tie = compare_with_oracle(
        np.array([50.0 + 1e-12, 50.0 + 1e-6, 0.1 + 0.2]),
        np.array([50.0, 50.0, 0.3]),
        higher_is_better=True,
    )
    assert tie.tolist() == [True, False, True]
    assert better.tolist() == [False, True, False]


def test_nan_scores_never_beat_the_oracle():
    better, tie = compare_with_oracle(np.array([np.nan]), np.array(1.0), higher_is_better=True)
    assert not better[0] and not tie[0]


def test_unknown_tie_policy_is_a_user_error():
    with pytest.raises(UserInputError, match="unknown tie policy"):
        rank_of_oracle(0.5, [0.1], ties="median")


# ----- normalisation ------------------------------------------------------------------------
def test_paper_example_22_9_percent():
    # Lin and Och (2004), table 2 / section 4: BLEUS6 places the references at average rank
    # 235 in 1024-best lists: ORANGE = 235 / 1025 = 22.93%.
    assert orange_score([235.0], [1024]) == pytest.approx(235 / 1025)
    assert round(100 * orange_score([235.0], [1024]), 1) == 22.9
    # the same through the table: 234 candidates above the oracle, 789 below
    cand = np.r_[np.full(234, 1.0), np.full(789, 0.0), [0.25]]
    comp = Comparisons.from_scores("bleus:6", cand, [0.5], [0, 1024])
    row = evaluate([comp], n_resamples=0).rows[0]
    assert row.avg_rank.value == 235.0
    assert row.orange.value == pytest.approx(235 / 1025)


def test_equation_10_with_constant_n():
    # with one N for every segment, the mean of rank_i / (N + 1) is eq. 10:
    # sum_i rank_i / (S (N + 1))
    ranks = np.array([3.0, 1.5, 7.0, 2.0])
    assert orange_score(ranks, [9, 9, 9, 9]) == pytest.approx(ranks.sum() / (4 * 10))


def test_per_segment_normalisation_with_varying_n():
    # segment 0: 3 candidates, oracle beaten by 1 and tied with 1 -> rank 1 + 1 + 0.5 = 2.5,
    #            normalised 2.5 / 4 = 0.625
    # segment 1: 1 candidate, which beats the oracle -> rank 2, normalised 2 / 2 = 1.0
    # segment 2: 5 candidates, none better -> rank 1, normalised 1 / 6
    cand = [0.9, 0.5, 0.1, 0.8, 0.0, 0.0, 0.0, 0.0, 0.0]
    comp = Comparisons.from_scores("m", cand, [0.5, 0.2, 0.3], [0, 3, 4, 9])
    assert segment_ranks(comp).tolist() == [2.5, 2.0, 1.0]
    row = evaluate([comp], n_resamples=0).rows[0]
    assert row.orange.value == pytest.approx((0.625 + 1.0 + 1 / 6) / 3)
    assert row.avg_rank.value == pytest.approx((2.5 + 2.0 + 1.0) / 3)
    # eq. 10 with the mean N (3) would give 5.5 / (3 * 4) = 0.458..., not the same thing
    assert row.orange.value != pytest.approx(5.5 / 12)


def test_leave_one_out_ranks_average_over_held_out_references():
    # K = 2 comparisons for one segment of 3 candidates
    # k = 0: oracle 0.5, candidates [0.6, 0.5, 0.1] -> 1 better, 1 tie -> rank 2.5
    # k = 1: oracle 0.7, candidates [0.6, 0.9, 0.8] -> 2 better       -> rank 3
    comp = Comparisons.from_scores("m", [[0.6, 0.5, 0.1], [0.6, 0.9, 0.8]], [[0.5], [0.7]], [0, 3])
    assert comp.better.tolist() == [1, 1, 1] and comp.ties.tolist() == [0, 1, 0]
    assert segment_ranks(comp, ties="mid").tolist() == [(2.5 + 3.0) / 2]
    assert segment_ranks(comp, ties="optimistic").tolist() == [(2.0 + 3.0) / 2]
    assert segment_ranks(comp, ties="pessimistic").tolist() == [(3.0 + 3.0) / 2]


def test_segments_without_candidates_are_left_out_and_counted():
    # segment 1 has no candidate; segment 2 has two
    comp = Comparisons.from_scores("m", [0.9, 0.1, 0.2], [0.5, 0.5, 0.5], [0, 1, 1, 3])
    table = evaluate([comp], n_resamples=0)
    assert table.n_segments == 2 and table.n_skipped == 1
    assert table.rows[0].orange.value == pytest.approx((2 / 2 + 1 / 3) / 2)
    table = evaluate([comp], n_resamples=0, min_candidates=2)  # as the paper's 1024 minimum
    assert table.n_segments == 1 and table.n_skipped == 2
    assert table.rows[0].orange.value == pytest.approx(1 / 3)
    with pytest.raises(UserInputError, match="no segment"):
        evaluate([comp], n_resamples=0, min_candidates=3)


# ----- the table with bootstrap ---------------------------------------------------------------
def _three_metrics(seed: int = 0, S: int = 300, N: int = 20) -> list[Comparisons]:
    """Simulated comparisons: metric 'good' ranks the oracle high, 'twin' almost the same,
    'bad' low."""
    rng = np.random.default_rng(seed)
    offsets = np.arange(0, S * N + 1, N)
    base = rng.random(S * N)
    oracle = np.full(S, 0.7)
    out = []
    for name, shift in (("good", 0.0), ("twin", 0.0), ("bad", 0.25)):
        noise = rng.normal(0, 0.01, S * N) if name == "twin" else 0.0
        out.append(Comparisons.from_scores(name, base + shift + noise, oracle, offsets))
    return out


def test_bootstrap_table_is_deterministic_for_a_seed():
    comps = _three_metrics()
    a = evaluate(comps, n_resamples=300, seed=7)
    b = evaluate(comps, n_resamples=300, seed=7)
    c = evaluate(comps, n_resamples=300, seed=8)
    assert [r.to_dict() for r in a.rows] == [r.to_dict() for r in b.rows]
    assert a.rows[0].orange.low != c.rows[0].orange.low
    assert a.seed == 7 and "seed:7" in a.rows[0].signature and "bs:300" in a.rows[0].signature


def test_bootstrap_table_intervals_and_equivalence():
    table = evaluate(_three_metrics(), n_resamples=500, seed=1)
    good, twin, bad = table.rows
    for row in table.rows:
        assert row.orange.low <= row.orange.value <= row.orange.high
        assert row.avg_rank.low <= row.avg_rank.value <= row.avg_rank.high
        # avg rank and ORANGE are proportional here (N constant): so are the intervals
        assert row.orange.low == pytest.approx(row.avg_rank.low / 21)
    assert bad.orange.value > good.orange.value + 0.1
    assert table.best.metric in ("good", "twin")
    assert good.equivalent and twin.equivalent and not bad.equivalent
    assert bad.diff_to_best.low > 0 and bad.diff_to_best.p_value < 0.01


def test_no_bootstrap_gives_values_only():
    table = evaluate(_three_metrics(), n_resamples=0)
    assert np.isnan(table.rows[0].orange.low) and table.rows[0].diff_to_best is None
    assert sum(r.equivalent for r in table.rows) == 1


def test_comparisons_of_different_lists_are_refused():
    a = Comparisons.from_scores("a", [0.1, 0.2], [0.5], [0, 2])
    b = Comparisons.from_scores("b", [0.1, 0.2], [0.5, 0.5], [0, 1, 2])
    with pytest.raises(ValueError, match="same candidate lists"):
        evaluate([a, b], n_resamples=0)


# ----- curve -------------------------------------------------------------------------------------
def test_curve_keeps_the_first_n_candidates_in_list_order():
    # segment 0: [0.9, 0.1, 0.8] vs oracle 0.5; segment 1: [0.1] vs oracle 0.5
    comp = Comparisons.from_scores("m", [0.9, 0.1, 0.8, 0.1], [0.5, 0.5], [0, 3, 4])
    curve = orange_curve([comp])
    assert curve.cutoffs.tolist() == [1, 2, 3]
    # n = 1: ranks 2 (of 1 candidate) and 1 (of 1): (2/2 + 1/2) / 2
    # n = 2: ranks 2 (of 2) and 1 (of 1):           (2/3 + 1/2) / 2
    # n = 3: ranks 3 (of 3) and 1 (of 1):           (3/4 + 1/2) / 2
    assert curve.orange["m"].tolist() == pytest.approx([0.75, (2 / 3 + 0.5) / 2, 0.625])
    assert curve.avg_rank["m"].tolist() == [1.5, 1.5, 2.0]
    table = evaluate([comp], n_resamples=0)
    assert curve.orange["m"][-1] == pytest.approx(table.rows[0].orange.value)
    rows = curve.rows()
    assert rows[0] == {"cutoff": 1, "metric": "m", "orange": 0.75, "avg_rank": 1.5}


def test_curve_cutoffs_step():
    assert curve_cutoffs(1024, 64).tolist()[:3] == [1, 65, 129]
    assert curve_cutoffs(1024, 64).tolist()[-1] == 1024
    assert curve_cutoffs(5, 10).tolist() == [1, 5]
    with pytest.raises(UserInputError):
        curve_cutoffs(5, 0)


# ----- error analysis ------------------------------------------------------------------------
def test_error_analysis_lists_outranking_candidates_best_first():
    # K = 2; candidate 0 beats the oracle once, candidate 2 twice, candidate 1 never
    comp = Comparisons.from_scores(
        "m", [[0.6, 0.1, 0.9], [0.4, 0.2, 0.8]], [[0.5], [0.5]], [0, 3], n_refs=2
    )
    [rec] = list(
        error_analysis(
            comp, texts=["a", "b", "c"], origins=["S1", "S2", "S3"], references=[["r1"], ["r2"]]
        )
    )
    assert rec["n_outranking"] == 2 and rec["oracle_rank"] == 1 + (1 + 2) / 2
    assert [c["origin"] for c in rec["candidates"]] == ["S3", "S1"]
    assert [c["beats"] for c in rec["candidates"]] == [2, 1]
    assert rec["candidates"][0]["score"] == pytest.approx(0.85)
    assert rec["oracle_score"] == 0.5 and rec["references"] == ["r1", "r2"]
    [rec] = list(error_analysis(comp, max_per_segment=1))
    assert len(rec["candidates"]) == 1 and rec["n_outranking"] == 2


def test_error_analysis_respects_direction():
    # lower is better: 0.1 beats the oracle 0.3, 0.2 beats it too and is listed after 0.1
    comp = Comparisons.from_scores("wer", [0.2, 0.1, 0.9], [0.3], [0, 3], higher_is_better=False)
    [rec] = list(error_analysis(comp))
    assert [c["index"] for c in rec["candidates"]] == [1, 0]


def test_curve_equals_segment_ranks_at_each_cutoff():
    # random lists of 0..12 candidates, K = 3 comparisons, all tie policies
    rng = np.random.default_rng(5)
    n = rng.integers(0, 13, size=40)
    offsets = np.r_[0, np.cumsum(n)]
    cand = rng.integers(0, 4, size=(3, offsets[-1])).astype(float)  # many ties
    comp = Comparisons.from_scores("m", cand, rng.integers(0, 4, size=(3, 40)), offsets)
    keep = n >= 1
    for ties in ("mid", "optimistic", "pessimistic"):
        curve = orange_curve([comp], step=3, ties=ties)
        for i, cut in enumerate(curve.cutoffs):
            ranks = segment_ranks(comp, ties=ties, cutoff=int(cut))[keep]
            expected = np.mean(ranks / (np.minimum(n[keep], cut) + 1))
            assert curve.orange["m"][i] == pytest.approx(expected)
            assert curve.avg_rank["m"][i] == pytest.approx(ranks.mean())
