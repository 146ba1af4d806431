"""The paper's 34-metric ORANGE grid gives, to the last digit, the comparisons, table and error
records that the unblocked route gave (golden: scripts/orange_grid_golden.py), however the
segments are blocked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from orange_grid_case import GRID, comparisons_digest, lists

from mtpalette.metaeval.candidates import compare_candidates
from mtpalette.metrics import parse_specs

GOLDEN = json.loads(
    (Path(__file__).parents[1] / "data" / "orange_grid" / "golden.json").read_text("utf-8")
)


@pytest.mark.parametrize("oracle", ["leave-one-out", "average-score"])
@pytest.mark.parametrize("block", [None, 7 * 12, 1000])
def test_grid_equals_the_unblocked_values(oracle, block):
    data = lists()
    kw = {} if block is None else {"block_candidates": block}
    comps = compare_candidates(data, parse_specs(GRID), oracle=oracle, keep_scores=3, **kw)
    got = comparisons_digest(comps, data)
    want = GOLDEN["oracles"][oracle]
    assert sorted(got) == sorted(want)
    for metric, values in want.items():
        assert got[metric] == values, metric
