"""The WMT26 ranking's rules (metaeval/wmt26_ranking.py) on hand-made significance matrices and
small invented ratings, and ``rank --protocol wmt26`` on the command line."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mtpalette.errors import UserInputError
from mtpalette.metaeval.wmt26_ranking import (
    cluster_lines,
    global_order,
    rank_ranges,
    rank_wmt26,
)


def _better(n, pairs):
    b = np.zeros((n, n), dtype=bool)
    for i, j in pairs:
        b[i, j] = True
    return b


def test_rank_ranges_by_hand():
    # 4 systems in order; 0 beats 2 and 3, 1 beats 3, 2 beats nobody, 3 last
    b = _better(4, [(0, 2), (0, 3), (1, 3)])
    top, bottom = rank_ranges(b)
    # 0: nobody above; first beaten below is position 3 (1-based) -> ends at 2
    # 1: nobody above beats it; first beaten is 4 -> ends at 3
    # 2: 0 beats it (position 1) -> starts at 2; beats nobody -> N = 4 (theirs: 3)
    # 3: closest above that beats it is 1 (position 2) -> starts at 3
    assert top.tolist() == [1, 1, 2, 3] and bottom.tolist() == [2, 3, 4, 4]
    assert rank_ranges(b, rule="wmt26")[1].tolist() == [2, 3, 3, 4]


def test_rank_range_uses_the_closest_not_the_count():
    # 0 beats 2, 1 does not: 2 starts below 1's position... no: below the closest that beats
    # it, which is 0 at position 1, so 2 starts at 2 (a count of better systems would say 2 too);
    # with 1 beating 2 instead, 2 starts at 3
    assert rank_ranges(_better(3, [(0, 2)]))[0].tolist() == [1, 1, 2]
    assert rank_ranges(_better(3, [(1, 2)]))[0].tolist() == [1, 1, 3]


def test_cluster_lines_need_every_pair_across():
    b = _better(4, [(0, 1), (0, 2), (0, 3), (1, 3), (2, 3)])
    assert cluster_lines(b).tolist() == [True, False, True]
    b[1, 3] = False
    assert cluster_lines(b).tolist() == [True, False, False]


def _x():
    rng = np.random.default_rng(5)
    base = rng.normal(70, 10, 60)
    return np.vstack([base + 15, base + 14.5, base, base - 20]) + rng.normal(0, 2, (4, 60))


def test_ranking_of_invented_ratings():
    r = rank_wmt26(_x(), ["A", "B", "C", "D"], domains=["news"] * 30 + ["speech"] * 30, seed=0)
    assert [s.system for s in r.systems] == ["A", "B", "C", "D"]
    assert [(s.rank_top, s.rank_bottom, s.cluster) for s in r.systems] == [
        (1, 2, 1), (1, 2, 1), (3, 3, 2), (4, 4, 3)]  # fmt: skip
    assert r.protocol == "wmt26" and r.n_resamples == 100 and r.missing == "none"
    a = r.system("A")
    assert a.domain_scores["news"] == pytest.approx(np.mean(_x()[0, :30]), rel=1e-13)
    assert "rank-range:corrected" in r.signature and "resamples:100" in r.signature
    assert r.pair("A", "C").significant and not r.pair("A", "B").significant


def test_missing_items_each_system_over_its_own():
    x = _x()
    x[1, :20] = np.nan
    r = rank_wmt26(x, ["A", "B", "C", "D"], seed=0)
    assert r.system("B").score == pytest.approx(np.mean(x[1, 20:]), rel=1e-13)
    assert r.system("B").n_items == 40 and r.missing == "mark"
    assert r.pair("A", "B").n_items == 40


def test_lower_is_better_scores():
    r = rank_wmt26(-_x(), ["A", "B", "C", "D"], seed=0, higher_is_better=False)
    assert [s.system for s in r.systems] == ["A", "B", "C", "D"]


def test_refusals():
    with pytest.raises(UserInputError, match="rank-range-rule must be one of corrected, wmt26"):
        rank_wmt26(_x(), list("ABCD"), rank_range_rule="N-1")
    with pytest.raises(UserInputError, match="no scored item for system"):
        rank_wmt26(np.array([[1.0, 2], [np.nan, np.nan]]), ["A", "B"])
    with pytest.raises(UserInputError, match="two systems or more"):
        rank_wmt26(np.array([[1.0, 2]]), ["A"])


def test_global_order_by_hand():
    x = _x()
    r1 = rank_wmt26(x[:3], ["A", "B", "C"], seed=0)  # A 0/3, B 1/3, C 2/3
    r2 = rank_wmt26(x[[2, 0]], ["A", "C"], seed=0)  # A 1/2, C 0/2
    order = global_order({"p": r1, "q": r2})
    assert [name for name, _ in order] == ["A", "B", "C"]  # B and C tie at 1/3: by name
    assert [v for _, v in order] == pytest.approx([0.25, 1 / 3, 1 / 3], rel=1e-15)


def test_command_line(cli, tmp_path):
    x = _x()
    rows = ["system\titem\tdomain\tscore"]
    rows += [f"{s}\t{i}\t{'news' if i < 30 else 'speech'}\t{x[k, i]}"
             for k, s in enumerate("ABCD") for i in range(60)]  # fmt: skip
    (tmp_path / "esa.tsv").write_text("\n".join(rows) + "\n")
    out = tmp_path / "r.json"
    code, stdout, err = cli("rank", "--table", tmp_path / "esa.tsv", "--domain-col", "domain",
                            "--protocol", "wmt26", "--seed", "0", "--json", out)  # fmt: skip
    assert code == 0, err
    run = json.loads(out.read_text())
    [r] = run["results"]["rankings"]
    assert [(s["system"], s["rank_top"], s["rank_bottom"], s["cluster"]) for s in r["systems"]] == [
        ("A", 1, 2, 1), ("B", 1, 2, 1), ("C", 3, 3, 2), ("D", 4, 4, 3)]  # fmt: skip
    assert run["settings"]["resamples"] == 100 and "WMT26" in stdout
    code, _, err = cli("rank", "--table", tmp_path / "esa.tsv", "--protocol", "wmt26",
                       "--correction", "holm")  # fmt: skip
    assert code != 0 and "no correction" in err


def test_an_items_annotations_are_averaged(tmp_path):
    from mtpalette.api.rank_run import RankRun, run_rank

    rows = ["system\titem\tscore", "A\t1\t80", "A\t1\t90", "A\t2\t70", "B\t1\t60", "B\t2\t50",
            "B\t2\t54", "B\t2\t58", "A\t3\t75", "B\t3\t65"]  # fmt: skip
    (tmp_path / "t.tsv").write_text("\n".join(rows) + "\n")
    [r] = run_rank(RankRun(table=tmp_path / "t.tsv", protocol="wmt26")).rankings
    assert r.system("A").score == pytest.approx((85 + 70 + 75) / 3, rel=1e-15)
    assert r.system("B").score == pytest.approx((60 + 54 + 65) / 3, rel=1e-15)
    with pytest.raises(UserInputError, match="scored twice"):  # other protocols refuse
        run_rank(RankRun(table=tmp_path / "t.tsv", protocol="wilcoxon"))


def test_python_api():
    from mtpalette import rank

    x = _x()
    r = rank({s: list(x[k]) for k, s in enumerate("ABCD")}, protocol="wmt26", seed=0)
    assert r.n_resamples == 100 and [s.system for s in r.systems] == ["A", "B", "C", "D"]
    r2 = rank({s: list(x[k]) for k, s in enumerate("ABCD")}, protocol="wmt26", seed=0,
              rank_range_rule="wmt26", n_resamples=50)  # fmt: skip
    assert r2.n_resamples == 50 and "rank-range:wmt26" in r2.signature
