"""AutoRank-25 (metaeval/autorank.py, api/autorank_run.py, ``rank --wmt25-scores``).

Golden: the organisers' ``compute_autorank.py`` run unmodified on WMT25's public
automatic_scores by ``scripts/wmt25_autorank_golden.py`` (tests/data/wmt25/autorank_golden.json,
which also holds the AutoRank printed in the published preliminary ranking). Comparing with it
needs the inputs: ``$MTPALETTE_WMT25_DIR`` names a checkout of wmt-conference/wmt25-general-mt
(they are not in the shared data). The formula's own tests are derived by hand and always run.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from mtpalette.api.autorank_run import autorank_wmt25
from mtpalette.errors import UserInputError
from mtpalette.metaeval.autorank import autorank25, robust_z, wmt25_metrics

GOLDEN = json.loads((Path(__file__).resolve().parents[1] / "data" / "wmt25"
                     / "autorank_golden.json").read_text(encoding="utf-8"))  # fmt: skip
WMT25_DIR = os.environ.get("MTPALETTE_WMT25_DIR")


def test_golden_file_reproduces_the_published_ranking():
    """The organisers' run (stored) printed to one decimal is the published table, for every
    system of every pair (a check of the golden file itself)."""
    assert len(GOLDEN["lps"]) == 31
    for lp, g in GOLDEN["lps"].items():
        printed = {s["system"]: f"{round(s['autorank'], 1)}" for s in g["systems"]}
        assert printed == g["published"], lp
        assert g["published_equal"] == len(g["systems"])


@pytest.mark.skipif(WMT25_DIR is None, reason="set MTPALETTE_WMT25_DIR to a checkout of "
                    "wmt-conference/wmt25-general-mt (ebae873) to compare with the organisers")
@pytest.mark.parametrize("lp", sorted(GOLDEN["lps"]))
def test_equals_the_organisers_autorank(lp):
    root = Path(str(WMT25_DIR))
    g = GOLDEN["lps"][lp]
    a = autorank_wmt25(root / "data" / "automatic_scores", lp,
                       metadata=root / GOLDEN["inputs"]["metadata"])  # fmt: skip
    assert a.metrics == g["metrics"] and sorted(a.shown) == sorted(g["shown"])
    assert [s.system for s in a.systems] == [s["system"] for s in g["systems"]]
    for theirs in g["systems"]:
        ours = a.system(theirs["system"])
        assert ours.autorank == pytest.approx(theirs["autorank"], rel=1e-12, abs=1e-12)
        assert ours.scores == pytest.approx(theirs["scores"], rel=1e-12)
        assert f"{round(ours.autorank, 1)}" == g["published"][theirs["system"]]


def _ranks(scores, **kw):
    a = autorank25(scores, **kw)
    return {s.system: s.autorank for s in a.systems}, a


def test_robust_z_by_hand():
    # median 3, P25 2 (linear interpolation), P100 10: spread 8
    assert robust_z([1, 2, 3, 4, 10]).tolist() == [-0.25, -0.125, 0.0, 0.125, 0.875]
    # P25 of [1, 2, 4, 8] is 1.75, spread 6.25; median 3
    assert robust_z([1, 2, 4, 8]) == pytest.approx(np.array([-2, -1, 1, 5]) / 6.25)


def test_zero_spread_divides_by_one():
    # every system the same: z 0, everyone AutoRank 1
    r, _ = _ranks({"m": {"A": 5.0, "B": 5.0, "C": 5.0}})
    assert r == {"A": 1.0, "B": 1.0, "C": 1.0}
    # P25 = P100 = 5 but one system below: its z is (1 - 5) / 1
    assert robust_z([5, 5, 5, 5, 1]).tolist() == [0.0, 0.0, 0.0, 0.0, -4.0]


def test_single_system_is_first():
    r, a = _ranks({"m1": {"A": 0.3}, "m2": {"A": 70.0}})
    assert r == {"A": 1.0} and a.systems[0].mean_z == 0.0


def test_mean_over_metrics_then_one_to_n():
    # m1: median 2, spread 3 - 1.5; m2: median 20, spread 40 - 15
    r, a = _ranks({"m1": {"A": 3.0, "B": 2.0, "C": 1.0}, "m2": {"A": 10.0, "B": 40.0, "C": 20.0}})
    z = {"A": (1 / 1.5 - 10 / 25) / 2, "B": (0 + 20 / 25) / 2, "C": (-1 / 1.5 + 0) / 2}
    hi, lo = max(z.values()), min(z.values())
    assert {s.system: s.mean_z for s in a.systems} == pytest.approx(z, rel=1e-14)
    assert r == pytest.approx({k: 1 + 2 * (hi - v) / (hi - lo) for k, v in z.items()}, rel=1e-14)
    assert [s.system for s in a.systems] == ["B", "A", "C"] and r["B"] == 1.0 and r["C"] == 3.0


def test_ties_share_an_autorank_and_are_listed_by_name():
    r, a = _ranks({"m": {"Z": 2.0, "A": 2.0, "B": 1.0}})
    assert r == {"A": 1.0, "Z": 1.0, "B": 3.0}
    assert [s.system for s in a.systems] == ["A", "Z", "B"]


def test_lower_is_better_metric_is_negated():
    r, _ = _ranks({"err": {"A": 1.0, "B": 5.0, "C": 3.0}}, higher_is_better={"err": False})
    assert r == {"A": 1.0, "C": 2.0, "B": 3.0}


def test_shown_metric_is_not_combined():
    r, a = _ranks({"chrF++": {"A": 1.0, "B": 2.0}, "X": {"A": 9.0, "B": 0.0}}, metrics=["chrF++"])
    assert r == {"B": 1.0, "A": 2.0} and a.metrics == ["chrF++"] and a.shown == ["chrF++", "X"]
    assert a.system("A").z["X"] > 0


def test_missing_metric_for_a_system_is_refused():
    with pytest.raises(UserInputError, match="system 'B' has no m2 score"):
        autorank25({"m1": {"A": 1.0, "B": 2.0}, "m2": {"A": 1.0}})
    with pytest.raises(UserInputError, match="metric.*nope not among"):
        autorank25({"m1": {"A": 1.0}}, metrics=["nope"])


def test_wmt25_metric_rules():
    five = ["CometKiwi-XL", "GEMBA-ESA-CMDA", "MetricX-24-Hybrid-XL", "XCOMET-XL", "chrF++"]
    combined, shown, notes = wmt25_metrics("en-ja_JP", five)
    assert combined == shown == five[:4] and "chrF++ left out" in notes[0]
    combined, shown, _ = wmt25_metrics("en-de_DE", five)  # no references: QE metric dropped
    assert combined == five[1:4]
    combined, shown, _ = wmt25_metrics("en-mas_KE", five)
    assert combined == ["chrF++"] and shown == five[1:]
    with pytest.raises(UserInputError, match="en-bho_IN by chrF\\+\\+ alone"):
        wmt25_metrics("en-bho_IN", five[:4])


def _sample(folder: Path) -> Path:
    """A project-written WMT25-format sample (invented scores): three systems, two documents."""
    folder.mkdir()
    scores = {"A": ([0.9, 0.8], [0.7], [80, 90]), "B": ([0.5, 0.6], [0.4], [70, 60]),
              "C": ([0.7, 0.7], [0.9], [75, 75])}  # fmt: skip
    for name, (d1, d2, gemba) in scores.items():
        rows = [
            {"language_pair": "en-xx_XX", "domain": "news", "document_id": "n1",
             "metric_scores": {"XCOMET-XL": d1, "GEMBA-ESA-CMDA": gemba}},
            {"language_pair": "en-xx_XX", "domain": "speech", "document_id": "s1",
             "metric_scores": {"XCOMET-XL": d2, "GEMBA-ESA-CMDA": [50]}},
        ]  # fmt: skip
        (folder / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (folder.parent / "meta.json").write_text(json.dumps(
        {n: {"supported_lps": {"en-xx_XX": "supported"}} for n in "AB"}))  # fmt: skip
    return folder


def test_command_line_tables_and_json(tmp_path, cli):
    folder = _sample(tmp_path / "automatic_scores")
    out = tmp_path / "out.json"
    code, printed, err = cli("rank", "--wmt25-scores", folder, "--lp", "en-xx_XX", "--autorank",
                             "wmt25", "--json", out)  # fmt: skip
    assert code == 0, err
    assert "XCOMET-XL" in printed and "GEMBA-ESA-CMDA" in printed and "AutoRank" in printed
    auto = json.loads(out.read_text())["results"]["autorank"]
    # XCOMET means: A 0.8, B 0.5, C 0.7667; GEMBA: A 73.33, B 60, C 66.67 -> A, C, B
    assert [(s["system"], s["autorank"]) for s in auto["systems"]][0] == ("A", 1.0)
    assert [s["system"] for s in auto["systems"]] == ["A", "C", "B"]
    assert auto["systems"][-1]["autorank"] == 3.0
    code, _, err = cli("rank", "--wmt25-scores", folder, "--lp", "en-xx_XX", "--systems-metadata",
                       tmp_path / "meta.json", "--autorank-metrics", "XCOMET-XL", "--json", out)
    assert code == 0, err
    auto = json.loads(out.read_text())["results"]["autorank"]
    assert [s["system"] for s in auto["systems"]] == ["A", "B"] and auto["metrics"] == ["XCOMET-XL"]
    assert "not listed, left out: C" in auto["notes"][0]


def test_command_line_refusals(tmp_path):
    from mtpalette.api.rank_run import RankRun, run_rank

    folder = _sample(tmp_path / "automatic_scores")
    with pytest.raises(UserInputError, match="needs the language pair"):
        run_rank(RankRun(wmt25_scores=folder))
    with pytest.raises(UserInputError, match="no system has en-zz documents"):
        run_rank(RankRun(wmt25_scores=folder, lp="en-zz"))
    with pytest.raises(UserInputError, match="--autorank must be one of wmt24, wmt25"):
        run_rank(RankRun(wmt25_scores=folder, lp="en-xx_XX", autorank="wmt23"))
