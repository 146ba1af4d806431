"""Ranking systems with every pair tested: against sacrebleu (all-pairs paired bootstrap),
statsmodels (Holm and Benjamini-Hochberg), scipy (the item tests, computed pair by pair), a
plain re-implementation of rank ranges and clusters, and the same numbers from every file
layout."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from mtpalette.api import RankRun, rank, run_rank
from mtpalette.errors import UserInputError
from mtpalette.metaeval.system_ranking import autorank, rank_systems
from mtpalette.stats import ranking as rk

N_SEG = 120


@pytest.fixture(scope="module")
def ted(ted_zhen):
    systems, refs = ted_zhen
    names = sorted(systems)[:6]
    return {n: systems[n][:N_SEG] for n in names}, [r[:N_SEG] for r in refs]


def test_all_pairs_bootstrap_equals_sacrebleu_for_every_pair(ted):
    """Every pair's p-value is sacrebleu's --paired-bs of the two (either as the baseline)."""
    from sacrebleu.metrics import BLEU, CHRF
    from sacrebleu.significance import PairedTest

    systems, refs = ted
    for spec, theirs_metric, key in (("bleu", BLEU, "BLEU"), ("chrf", CHRF, "chrF2")):
        r = rank(systems=systems, refs=refs, metric=spec, protocol="bootstrap",
                 n_resamples=1000)  # fmt: skip
        for a, b in itertools.combinations(sorted(systems), 2):
            pair = {a: systems[a], b: systems[b]}
            _, res = PairedTest(list(pair.items()), {key: theirs_metric(references=refs)},
                                None, test_type="bs")()  # fmt: skip
            assert r.pair(a, b).p_value == pytest.approx(res[key][1].p_value, rel=1e-12)
            assert r.system(a).score == pytest.approx(res[key][0].score, abs=1e-9)


def test_approximate_randomization_every_pair_equals_sacrebleu(ted):
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    systems, refs = ted
    three = {n: systems[n] for n in sorted(systems)[:3]}
    r = rank(systems=three, refs=refs, metric="bleu", protocol="ar", n_resamples=500)
    for a, b in itertools.combinations(sorted(three), 2):
        _, res = PairedTest([(b, three[b]), (a, three[a])], {"BLEU": BLEU(references=refs)},
                            None, test_type="ar", n_samples=500)()  # fmt: skip
        assert r.pair(a, b).p_value == pytest.approx(res["BLEU"][1].p_value, rel=1e-12)


@pytest.mark.parametrize("method", ["holm", "bh"])
def test_corrections_equal_statsmodels(method):
    from statsmodels.stats.multitest import multipletests

    p = np.random.default_rng(3).uniform(0, 0.2, size=45) ** 2
    ours = rk.adjust(p, method)
    theirs = multipletests(p, method={"holm": "holm", "bh": "fdr_bh"}[method])[1]
    assert ours == pytest.approx(theirs, abs=1e-15)


def test_item_tests_equal_scipy_pair_by_pair():
    from scipy import stats

    rng = np.random.default_rng(1)
    x = rng.normal(size=(4, 50)) + np.arange(4)[:, None] * 0.3
    x[1, :5] = np.nan  # a system without scores for some items: pairs join on shared items
    for test, fn in (("wilcoxon", stats.wilcoxon), ("ttest", stats.ttest_rel)):
        p = rk.pairwise_tests(x, test).p
        for a, b in itertools.combinations(range(4), 2):
            ok = ~np.isnan(x[a]) & ~np.isnan(x[b])
            assert p[a, b] == p[b, a] == pytest.approx(fn(x[a][ok], x[b][ok]).pvalue, rel=1e-12)
    p = rk.pairwise_tests(x, "mannwhitney").p
    for a, b in itertools.combinations(range(4), 2):
        xa, xb = x[a][~np.isnan(x[a])], x[b][~np.isnan(x[b])]
        assert p[a, b] == pytest.approx(stats.mannwhitneyu(xa, xb).pvalue, rel=1e-12)


def test_wmt24_combines_domain_wilcoxons_by_stouffer():
    from scipy import stats

    rng = np.random.default_rng(2)
    x = rng.normal(size=(3, 40)) + np.array([[0.4], [0.2], [0.0]])
    domains = ["news"] * 15 + ["speech"] * 10 + ["social"] * 15
    res = rk.pairwise_tests(x, "wmt24", domains=domains)
    of = np.array(domains)
    for a, b in itertools.combinations(range(3), 2):
        parts = [stats.wilcoxon(x[a][of == d], x[b][of == d]).pvalue
                 for d in ("news", "speech", "social")]  # fmt: skip
        z = stats.norm.ppf(1 - np.array(parts)).sum() / np.sqrt(3)
        assert res.p[a, b] == pytest.approx(1 - stats.norm.cdf(z), rel=1e-12)
    # the system score: the mean of the domain means
    expected = np.mean([x[:, of == d].mean(axis=1) for d in ("news", "speech", "social")], 0)
    assert rk.system_scores(x, domains) == pytest.approx(expected, abs=1e-15)


def _plain_ranges_and_clusters(scores, sig):
    """A plain reading of WMT's definitions."""
    S = len(scores)
    order = sorted(range(S), key=lambda k: -scores[k])
    top = [1 + sum(sig[k][j] and scores[j] > scores[k] for j in range(S)) for k in range(S)]
    bottom = [S - sum(sig[k][j] and scores[j] < scores[k] for j in range(S)) for k in range(S)]
    cuts = [all(sig[order[i]][order[j]] for i in range(c) for j in range(c, S))
            for c in range(1, S)]  # fmt: skip
    cluster, c = [1], 1
    for cut in cuts:
        c += cut
        cluster.append(c)
    return top, bottom, cluster


def test_rank_ranges_and_clusters_equal_a_plain_reading():
    rng = np.random.default_rng(5)
    for _ in range(50):
        S = int(rng.integers(2, 9))
        scores = rng.permutation(S).astype(float)
        sig = rng.random((S, S)) < 0.5
        sig = np.triu(sig, 1)
        sig = sig | sig.T
        top, bottom = rk.rank_ranges(sig, scores[:, None] > scores[None, :])
        order = np.argsort(-scores)
        clusters = rk.clusters(sig[np.ix_(order, order)])
        pt, pb, pc = _plain_ranges_and_clusters(scores.tolist(), sig.tolist())
        assert top.tolist() == pt and bottom.tolist() == pb and clusters.tolist() == pc


def test_the_same_ranking_from_comet_json_and_a_tsv(tmp_path):
    rng = np.random.default_rng(7)
    scores = {f"sys{k}": (0.7 + 0.02 * k + 0.05 * rng.normal(size=30)).tolist() for k in range(4)}
    comet = {f"out/{s}.txt": [{"src": "s", "mt": "m", "ref": "r", "COMET": v} for v in vals]
             for s, vals in scores.items()}  # fmt: skip
    (tmp_path / "c.json").write_text(json.dumps(comet), encoding="utf-8")
    lines = ["system\tsegment\tscore"] + [
        f"{s}\t{k}\t{v!r}" for s, vals in scores.items() for k, v in enumerate(vals, 1)
    ]
    (tmp_path / "c.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    metricx = [json.dumps({"system_id": s, "segment_id": k, "prediction": -v})
               for s, vals in scores.items() for k, v in enumerate(vals)]  # fmt: skip
    (tmp_path / "m.jsonl").write_text("\n".join(metricx) + "\n", encoding="utf-8")
    results = []
    for spec in ("comet=c.json", "comet=c.tsv", "comet=m.jsonl"):
        name, path = spec.split("=")
        run = RankRun(scores=[f"{name}={tmp_path / path}"], protocol="bootstrap")
        [r] = run_rank(run).rankings
        results.append(r)
    a, b, c = results
    assert [s.system for s in a.systems] == [s.system for s in b.systems]
    assert [p.p_value for p in a.pairs] == [p.p_value for p in b.pairs]
    # MetricX: lower is better, ids 0-based: the same order, the same tests
    assert not c.higher_is_better
    assert [s.system for s in c.systems] == [s.system for s in a.systems]
    assert [p.p_value for p in c.pairs] == pytest.approx([p.p_value for p in a.pairs])


def test_long_table_with_domains_and_the_outputs(tmp_path):
    rng = np.random.default_rng(11)
    rows = ["system\titem\tdomain\tscore"]
    for k, s in enumerate(["A", "B", "C", "D"]):
        for i in range(24):
            rows.append(f"{s}\t{i}\t{'news' if i < 12 else 'chat'}\t{60 + 8 * k + rng.normal()}")
    (tmp_path / "esa.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    run = RankRun(table=tmp_path / "esa.tsv", domain_col="domain", protocol="wmt24",
                  json=tmp_path / "r.json", tsv=tmp_path / "r.tsv",
                  latex=tmp_path / "r.tex")  # fmt: skip
    res = run_rank(run)
    [r] = res.rankings
    assert [s.system for s in r.systems] == ["D", "C", "B", "A"]
    assert r.domains == ["news", "chat"]
    assert all(s.rank_top == s.rank_bottom for s in r.systems)  # 8 points apart: all separated
    record = json.loads((tmp_path / "r.json").read_text())["results"]["rankings"][0]
    assert {"system", "score", "rank_top", "rank_bottom", "cluster"} <= set(record["systems"][0])
    assert {"a", "b", "p_value", "significant", "difference"} <= set(record["pairs"][0])
    assert "protocol:wmt24" in record["signature"]
    assert "\\midrule" in (tmp_path / "r.tex").read_text()
    assert res.to_pandas().shape[0] == 4
    pairs = (tmp_path / "r.pairs.tsv").read_text().splitlines()
    assert len(pairs) == 1 + 6 and "p_adjusted" in pairs[0]


def test_refusals():
    with pytest.raises(UserInputError, match="resamples every item of every system"):
        rank({"A": [1.0, None, 3.0], "B": [2.0, 2.0, 2.0]}, protocol="bootstrap")
    with pytest.raises(UserInputError, match="resamples every item"):
        rank({"A": [1.0, None, 3.0], "B": [2.0, 2.0, 2.0]}, protocol="ar", missing="mark")
    with pytest.raises(UserInputError, match="not scored on the same 3 items.*--missing common"):
        rank({"A": [1.0, None, 3.0], "B": [None, 2.0, 2.5]}, protocol="wilcoxon")
    with pytest.raises(UserInputError, match="share 1 scored item.*mannwhitney"):
        rank({"A": [1.0, None, 3.0], "B": [None, 2.0, 2.5]}, protocol="wilcoxon", missing="mark")
    with pytest.raises(UserInputError, match="1 item.*a score from every system"):
        rank({"A": [1.0, None, 3.0], "B": [None, 2.0, 2.5]}, protocol="wilcoxon",
             missing="common")  # fmt: skip
    # one rating per item: the unpaired variant
    r = rank({"A": [1.0, None, 3.0, None], "B": [None, 2.0, None, 2.5]}, protocol="mannwhitney")
    assert r.pairs[0].p_value == pytest.approx(1.0)
    with pytest.raises(UserInputError, match="fewer than two items"):
        rank({"A": [1.0, 2.0, 3.0], "B": [2.0, 2.0, 2.0]}, protocol="wmt24",
             domains=["x", "x", "y"])  # fmt: skip
    with pytest.raises(UserInputError, match="give the items' domains"):
        rank({"A": [1.0, 2.0], "B": [2.0, 2.0]}, protocol="wmt24")
    with pytest.raises(UserInputError, match="unknown correction"):
        rank({"A": [1.0, 2.0], "B": [2.0, 2.0]}, correction="bonferroni")


def test_ties_in_the_order_are_broken_by_name_and_said():
    r = rank({"B": [1.0, 2.0, 3.0], "A": [1.0, 2.0, 3.0], "C": [0.0, 0.5, 1.0]})
    assert [s.system for s in r.systems][:2] == ["A", "B"]
    assert any("same score" in n for n in r.notes)


def test_autorank_rescales_each_metric_to_one_to_n():
    a = autorank({"m1": {"A": 0.9, "B": 0.5, "C": 0.1}, "err": {"A": 3.0, "B": 1.0, "C": 4.0}},
                 {"err": False})  # fmt: skip
    # m1: A 1, B 1 + 0.4 / 0.8 * 2 = 2, C 3; err (lower is better): B 1, A 1 + 2 / 3 * 2, C 3
    by = dict(zip(a.systems, a.autorank, strict=True))
    assert by == pytest.approx({"A": (1 + 7 / 3) / 2, "B": 1.5, "C": 3.0})
    assert a.systems == ["B", "A", "C"]
    assert a.rescaled["m1"] == pytest.approx([2.0, 1.0, 3.0])  # in AutoRank's order


def test_rank_systems_reports_per_domain_p_values():
    x = np.vstack([np.arange(20.0), np.arange(20.0) - 1.5])
    r = rank_systems(x, ["A", "B"], protocol="wmt24", domains=["a"] * 10 + ["b"] * 10)
    assert set(r.pairs[0].domain_p_values) == {"a", "b"}
