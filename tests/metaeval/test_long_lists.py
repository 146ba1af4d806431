"""ORANGE on a list of 5,000 candidates next to a list of 3: the rank of each reference equals
a count made by hand from sentence scores (real WMT21 TED outputs as candidates)."""

from __future__ import annotations

import numpy as np
import pytest

import mtpalette
from mtpalette import sentence_scores


def _rank(ref_score: float, cand_scores: np.ndarray) -> float:
    better = np.sum(cand_scores > ref_score + 1e-9 * max(1.0, abs(ref_score)))
    ties = np.sum(np.abs(cand_scores - ref_score) <= 1e-9 * max(1.0, abs(ref_score)))
    return 1.0 + better + 0.5 * ties


@pytest.mark.parametrize("spec", ["bleus:4", "wer"])
def test_orange_on_a_5000_candidate_list(ted_zhen, spec):
    systems, (ref_a, ref_b) = ted_zhen
    pool = [line for name in sorted(systems) for line in systems[name]]
    big = pool[:5000]
    small = [systems["SMU"][1], systems["MiSS"][1], systems["Online-W"][1]]
    refs = [[ref_a[0], ref_a[1]], [ref_b[0], ref_b[1]]]
    table = mtpalette.orange(refs, [big, small], spec, n_resamples=0)
    sign = 1.0 if spec != "wer" else -1.0
    expected = []
    for s, cands in enumerate([big, small]):
        ranks = []
        for k in range(2):
            other = refs[1 - k][s]
            c = sign * sentence_scores(cands, [[other] * len(cands)], [spec])[spec]
            r = sign * sentence_scores([refs[k][s]], [[other]], [spec])[spec][0]
            ranks.append(_rank(r, c))
        expected.append(np.mean(ranks) / (len(cands) + 1))
    row = table.rows[0]
    assert table.n_candidates["max"] == 5000 and table.n_candidates["min"] == 3
    assert row.orange.value == pytest.approx(np.mean(expected), abs=1e-12)
