"""The ``wmt24`` protocol of ``mtpalette rank`` against the WMT24 organisers' own ranking code
(wmt-conference/wmt24-news-systems ``humeval/``, run by ``scripts/wmt24_rank_golden.py`` on
real ESA ratings of en-cs and en-ja; ``tests/data/wmt24_rank/README.md``). The ratings are
read from ``../shared/data/wmt24`` (``tests/real_data.py: wmt24_rank``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from real_data import wmt24_rank

from mtpalette.api import RankRun, run_rank

DATA = Path(__file__).resolve().parents[1] / "data" / "wmt24_rank"
GOLDEN = json.loads((DATA / "golden.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module", params=sorted(GOLDEN["lps"]))
def ranked(request):
    lp = request.param
    run = RankRun(table=wmt24_rank(lp), domain_col="domain", doc_col="doc",
                  protocol="wmt24", alpha=GOLDEN["parameters"]["alpha"])  # fmt: skip
    [r] = run_rank(run).rankings
    return GOLDEN["lps"][lp], r


def test_order_scores_rank_ranges_and_clusters(ranked):
    g, r = ranked
    assert [s.system for s in r.systems] == [s["system"] for s in g["systems"]]
    for ours, theirs in zip(r.systems, g["systems"], strict=True):
        assert ours.score == pytest.approx(theirs["score"], rel=1e-13)
        assert ours.domain_scores == pytest.approx(theirs["domain_scores"], rel=1e-13)
        assert (ours.rank_top, ours.rank_bottom) == (theirs["rank_top"], theirs["rank_bottom"])
        assert ours.cluster == theirs["cluster"]
    assert max(s.cluster for s in r.systems) == g["n_clusters"]


def test_every_pairwise_p_value(ranked):
    g, r = ranked
    assert len(r.pairs) == g["n_pairs"]
    for theirs in g["pairs"]:
        ours = r.pair(theirs["a"], theirs["b"])
        assert (ours.a, ours.b) == (theirs["a"], theirs["b"])
        assert ours.n_items == theirs["n"]
        assert ours.p_value == pytest.approx(theirs["p"], abs=1e-9)
        assert ours.significant == theirs["significant"]
        for d, info in theirs["domains"].items():
            assert ours.domain_p_values[d] == pytest.approx(info["p"], abs=1e-9)
