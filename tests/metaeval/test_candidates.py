"""Candidate lists and their scoring for both oracle definitions: a hand-computed example,
parity of the batched scorer with scoring every pair on its own (bundled real data), and the
refusal of a single reference."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mtpalette.api import sentence_scores
from mtpalette.errors import UserInputError
from mtpalette.io.nbest import NBestList
from mtpalette.metaeval.candidates import CandidateLists, compare_candidates
from mtpalette.metaeval.orange import evaluate, rank_of_oracle, segment_ranks
from mtpalette.metrics import parse_specs
from mtpalette.metrics.base import Metric, Pairs


class LengthGap(Metric):
    """Test-only error metric (lower is better): |len(hyp) - len(closest reference)|."""

    name = "test-length-gap"
    higher_is_better = False

    def compute(self, pairs: Pairs) -> np.ndarray:
        out = np.empty((len(pairs), 1))
        for i in range(len(pairs)):
            refs = pairs.refs_of(int(pairs.seg[i]))
            out[i, 0] = min(abs(len(pairs.hyp[i]) - len(r)) for r in refs)
        return out

    def sentence_scores(self, stats: np.ndarray) -> np.ndarray:
        return stats[:, 0]


# Two segments, two references, BLEU-S1 on whitespace tokens (so the arithmetic is easy):
# BLEU-S1 = 100 * BP * (clipped unigram matches / candidate length), BP = exp(1 - r/c) when
# the candidate is shorter than the closest reference length r, and 0 without any match.
REFS = [["a b c d", "p q"], ["a b e f", "p r"]]
SYSTEMS = {"S1": ["a b c d", "p q r"], "S2": ["a e", "p q r"], "S3": ["x y", "p q r"]}
LISTS_OFFSETS = [0, 3, 4]


def _lists() -> CandidateLists:
    # segment 0 gets three candidates, segment 1 only one (N varies)
    texts = ["a b c d", "a e", "x y", "p q r"]
    return CandidateLists(texts, np.array(LISTS_OFFSETS), REFS, ["S1", "S2", "S3", "S1"])


def _bleus1():
    return parse_specs(["bleus:1"], tokenize="none")


def test_leave_one_out_by_hand():
    # Segment 0, k = 1 (hold out r1 = "a b c d", score against r2 = "a b e f"):
    #   r1 "a b c d": a, b match -> 2/4, c = r = 4 -> BP 1 -> 50
    #   "a b c d" (same text)   -> 50 -> tie
    #   "a e": a, e -> 2/2, c = 2 < 4 -> BP exp(-1) -> 36.79 -> worse
    #   "x y": no match -> 0 -> worse
    #   rank of r1 = 1 + 0 + 0.5 * 1 = 1.5
    # Segment 0, k = 2 (hold out r2 = "a b e f", score against r1 = "a b c d"):
    #   r2: a, b -> 50;  "a b c d" = r1 -> 100 (better);  "a e": 1/2 * exp(-1) = 18.39;  "x y": 0
    #   rank of r2 = 1 + 1 = 2
    # Segment 0 rank = (1.5 + 2) / 2 = 1.75 over N = 3 -> 1.75 / 4 = 0.4375
    # Segment 1 (one candidate "p q r"):
    #   k = 1: r1 "p q" vs "p r" -> 1/2 -> 50; "p q r": p, r -> 2/3 -> 66.7 (better) -> rank 2
    #   k = 2: r2 "p r" vs "p q" -> 50;        "p q r": p, q -> 2/3 -> 66.7 (better) -> rank 2
    #   rank 2 over N = 1 -> 2 / 2 = 1
    # ORANGE (mid) = (0.4375 + 1) / 2 = 0.71875; average rank = (1.75 + 2) / 2 = 1.875
    [comp] = compare_candidates(_lists(), _bleus1(), oracle="leave-one-out", keep_scores=True)
    assert comp.n_comparisons == 2
    assert comp.better.tolist() == [1, 0, 0, 2]
    assert comp.ties.tolist() == [1, 0, 0, 0]
    assert segment_ranks(comp, ties="mid").tolist() == [1.75, 2.0]
    assert segment_ranks(comp, ties="optimistic").tolist() == [1.5, 2.0]  # (1 + 2) / 2
    assert segment_ranks(comp, ties="pessimistic").tolist() == [2.0, 2.0]  # (2 + 2) / 2
    row = evaluate([comp], n_resamples=0).rows[0]
    assert row.orange.value == pytest.approx(0.71875)
    assert row.avg_rank.value == pytest.approx(1.875)
    # mean scores over the two held-out references, for error analysis
    e1 = 100 * math.exp(-1)
    expected = [(50 + 100) / 2, (2 / 2 * e1 + 1 / 2 * e1) / 2, 0.0, 200 / 3]
    assert comp.cand_scores.tolist() == pytest.approx(expected, rel=1e-6)
    assert comp.oracle_scores.tolist() == pytest.approx([50.0, 50.0])
    assert "nrefs:1" in comp.signature


def test_average_score_by_hand():
    # Oracle: each reference against the other one (computed above): 50 and 50 -> mean 50 in
    # both segments. Candidates against BOTH references (max-clip):
    #   "a b c d": 4/4 -> 100 (better);  "a e": a, e -> 2/2, r = 4 -> exp(-1) -> 36.79;  "x y": 0
    #   -> rank 2 over N = 3 -> 2/4 = 0.5
    #   "p q r": 3/3, c = 3 > r = 2 -> 100 (better) -> rank 2 over N = 1 -> 1
    # ORANGE = (0.5 + 1) / 2 = 0.75: worse than leave-one-out (0.71875) because candidates see
    # one reference more than the references themselves do.
    [comp] = compare_candidates(_lists(), _bleus1(), oracle="average-score", keep_scores=True)
    assert comp.n_comparisons == 1
    assert comp.better.tolist() == [1, 0, 0, 1]
    assert comp.ties.tolist() == [0, 0, 0, 0]
    assert comp.oracle_scores.tolist() == pytest.approx([50.0, 50.0])
    assert comp.cand_scores.tolist() == pytest.approx([100, 100 * math.exp(-1), 0, 100], rel=1e-6)
    row = evaluate([comp], n_resamples=0).rows[0]
    assert row.orange.value == pytest.approx(0.75)
    assert "nrefs:2" in comp.signature and "oracle_nrefs:1" in comp.signature


def test_lower_is_better_metric_by_hand():
    # LengthGap = |len(hyp) - len(closest ref)|, lower is better; leave-one-out.
    # Segment 0 (refs of length 4 and 4), candidates of length 4, 2, 2:
    #   each k: reference gap 0; "a b c d" gap 0 (tie); the others gap 2 (worse)
    #   -> rank 1.5 for both k
    # Segment 1 (refs "p q", "p r", length 2): "p q r" gap 1, reference gap 0 -> rank 1
    [comp] = compare_candidates(_lists(), [LengthGap(tokenize="none")])
    assert segment_ranks(comp).tolist() == [1.5, 1.0]
    assert comp.better.tolist() == [0, 0, 0, 0] and comp.ties.tolist() == [2, 0, 0, 0]


def test_one_reference_is_refused():
    lists = CandidateLists(["a", "b"], np.array([0, 2]), [["a"]])
    with pytest.raises(UserInputError, match="at least 2 references"):
        compare_candidates(lists, _bleus1())


def test_unknown_oracle_is_refused():
    with pytest.raises(UserInputError, match="unknown oracle"):
        compare_candidates(_lists(), _bleus1(), oracle="best-of")


def test_from_systems_keeps_system_order():
    lists = CandidateLists.from_systems(SYSTEMS, REFS)
    assert lists.offsets.tolist() == [0, 3, 6]
    assert lists.texts[:3] == ["a b c d", "a e", "x y"]
    assert lists.origins == ["S1", "S2", "S3"] * 2
    with pytest.raises(UserInputError, match="'S9' has 1 lines"):
        CandidateLists.from_systems({**SYSTEMS, "S9": ["x"]}, REFS)


def test_from_nbest_groups_by_id_in_file_order():
    # ids non-contiguous and interleaved; segment 1 has no hypothesis
    nb = NBestList(
        np.array([2, 0, 2, 0]),
        ["c1", "a1", "c2", "a2"],
        [""] * 4,
        np.full(4, np.nan),
        np.array([1, 2, 3, 4]),
        "x.nbest",
    )
    refs = [["r", "s", "t"], ["r2", "s2", "t2"]]
    lists = CandidateLists.from_nbest(nb, refs)
    assert lists.texts == ["a1", "a2", "c1", "c2"]
    assert lists.n_candidates.tolist() == [2, 0, 2]
    assert lists.origins == ["n-best #1", "n-best #2", "n-best #1", "n-best #2"]
    assert lists.head(1).texts == ["a1", "c1"]
    with pytest.raises(UserInputError, match=r"x.nbest:1: segment id 2 is outside 0..1"):
        CandidateLists.from_nbest(nb, [r[:2] for r in refs])


def test_duplicates_within_a_segment_are_scored_once_and_counted_each():
    lists = CandidateLists(
        ["a b c d", "a b c d", "x y"], np.array([0, 3]), [["a b c d"], ["a b e f"]]
    )
    [comp] = compare_candidates(lists, _bleus1())
    assert comp.better.tolist() == [1, 1, 0] and comp.ties.tolist() == [1, 1, 0]


def test_batched_scoring_equals_pair_by_pair_on_real_data(ted_zhen):
    # 13 real systems x 40 segments of the bundled zh-en TED data, references ref and refB.
    # Every rank of the batched scorer equals the rank computed from scores of each text on
    # its own (mtpalette.api.sentence_scores per held-out reference).
    systems, refs = ted_zhen
    S = 40
    outputs = {name: lines[:S] for name, lines in systems.items()}
    refs = [r[:S] for r in refs]
    lists = CandidateLists.from_systems(outputs, refs)
    specs = ["bleus:2", "bleus:4", "bleu"]
    comps = compare_candidates(lists, parse_specs(specs), oracle="leave-one-out")
    as_comps = compare_candidates(lists, parse_specs(specs), oracle="average-score")
    names = list(outputs)
    for spec, comp, as_comp in zip(specs, comps, as_comps, strict=True):
        loo_ranks = np.zeros(S)
        oracle_mean = np.zeros(S)
        for k in range(2):
            other = [refs[1 - k]]
            oracle = sentence_scores(refs[k], other, [spec])[spec]
            oracle_mean += oracle / 2
            cand = {n: sentence_scores(outputs[n], other, [spec])[spec] for n in names}
            for s in range(S):
                loo_ranks[s] += rank_of_oracle(oracle[s], [cand[n][s] for n in names]) / 2
        assert segment_ranks(comp).tolist() == pytest.approx(loo_ranks.tolist(), abs=1e-12)
        cand_all = {n: sentence_scores(outputs[n], refs, [spec])[spec] for n in names}
        as_ranks = [
            rank_of_oracle(oracle_mean[s], [cand_all[n][s] for n in names]) for s in range(S)
        ]
        assert segment_ranks(as_comp).tolist() == pytest.approx(as_ranks, abs=1e-12)


def test_error_analysis_from_scored_lists():
    # Segment 0 of the hand example: "a b c d" beats the held-out r2 (k = 2) and ties with r1;
    # the other candidates never beat a reference. Segment 1: "p q r" beats both.
    from mtpalette.metaeval.orange_errors import error_analysis

    lists = _lists()
    [comp] = compare_candidates(lists, _bleus1(), keep_scores=True)
    recs = list(
        error_analysis(comp, texts=lists.texts, origins=lists.origins, references=lists.refs)
    )
    assert [r["segment"] for r in recs] == [1, 2]  # numbered from 1
    assert [(c["text"], c["beats"]) for c in recs[0]["candidates"]] == [("a b c d", 1)]
    assert recs[0]["candidates"][0]["score"] == pytest.approx(75.0)
    assert recs[0]["oracle_score"] == pytest.approx(50.0)
    assert recs[1]["candidates"][0]["beats"] == 2 and recs[1]["oracle_rank"] == 2.0
    assert recs[1]["references"] == ["p q", "p r"]
