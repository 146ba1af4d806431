"""``rank --protocol wmt26`` against the WMT26 organisers' own analysis
(wmt-conference/wmt26-general-mt ``humeval/02b-analyze_results.py``, run unmodified by
``scripts/wmt26_rank_golden.py`` on the WMT24 ESA ratings of en-cs and en-ja in
../shared/data/wmt24 (tests/real_data.py: wmt24_rank), with the same resample indices:
``rng=default_rng(seed)`` per test)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest
from real_data import wmt24_rank

from mtpalette.api import RankRun, run_rank
from mtpalette.metaeval.wmt26_ranking import domain_table, global_order

DATA = Path(__file__).resolve().parents[1] / "data"
GOLDEN = json.loads((DATA / "wmt26_rank" / "golden.json").read_text(encoding="utf-8"))
SEEDS = GOLDEN["parameters"]["seeds"]


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """Each pair's ratings as a table, items in the organisers' order (string ids keep it)."""
    out = {}
    for lp, g in GOLDEN["lps"].items():
        with gzip.open(wmt24_rank(lp), "rt", encoding="utf-8") as fh:
            header, *rows = [line.rstrip("\n").split("\t") for line in fh]
        rows = [dict(zip(header, r, strict=True)) for r in rows]
        at = {item: k for k, item in enumerate(g["item_order"])}
        rows.sort(key=lambda r: at[r["item"]])
        path = tmp_path_factory.mktemp("wmt26") / f"{lp}.tsv"
        lines = [f"{r['system']}\t{r['domain']}\ti{r['item']}\t{r['score']}\n" for r in rows]
        path.write_text("system\tdomain\titem\tscore\n" + "".join(lines))
        out[lp] = path
    return out


def _rank(path, seed, rule="wmt26"):
    run = RankRun(table=path, domain_col="domain", protocol="wmt26", seed=seed,
                  rank_range_rule=rule)  # fmt: skip
    [r] = run_rank(run, progress=False).rankings
    return r


def _lines(r):
    """Each system's line below it, in the organisers' words."""
    out = []
    for k, s in enumerate(r.systems):
        if k + 1 < len(r.systems) and r.systems[k + 1].cluster != s.cluster:
            out.append("yes_cluster")
        elif any(n.startswith(f"a local line after {s.system}:") for n in r.notes):
            out.append("yes_local")
        else:
            out.append("nothing")
    return out


@pytest.mark.parametrize("lp", sorted(GOLDEN["lps"]))
def test_every_seed_equals_the_organisers(tables, lp):
    """Order, scores, rank ranges (their N - 1 rule) and cluster lines, seed by seed."""
    g = GOLDEN["lps"][lp]
    for seed in SEEDS:
        theirs = g["seeds"][str(seed)]["systems"]
        r = _rank(tables[lp], seed)
        assert r.n_resamples == 100 and f"seed:{seed}" in r.signature
        assert [s.system for s in r.systems] == [t["system"] for t in theirs]
        assert [s.score for s in r.systems] == pytest.approx([t["score"] for t in theirs],
                                                             rel=1e-13)  # fmt: skip
        ranges = [(s.rank_top, s.rank_bottom) for s in r.systems]
        assert ranges == [(t["rank_top"], t["rank_bottom"]) for t in theirs], seed
        assert _lines(r) == [t["line"] for t in theirs], seed


@pytest.mark.parametrize("lp", sorted(GOLDEN["lps"]))
def test_corrected_rule_differs_only_where_nothing_below_is_beaten(tables, lp):
    theirs = GOLDEN["lps"][lp]["seeds"]["0"]["systems"]
    r = _rank(tables[lp], 0, rule="corrected")
    n = len(r.systems)
    changed = 0
    for k, (s, t) in enumerate(zip(r.systems, theirs, strict=True)):
        assert s.rank_top == t["rank_top"]
        if s.rank_bottom != t["rank_bottom"]:
            changed += 1
            assert (s.rank_bottom, t["rank_bottom"]) == (n, n - 1) and k < n - 1
            assert not any(p.significant for p in r.pairs if p.a == s.system)
    beat_nobody = [s for s in r.systems[:-1]
                   if not any(p.significant for p in r.pairs if p.a == s.system)]  # fmt: skip
    assert changed == len(beat_nobody)  # none on these ratings: every system beats the last


def test_global_order_and_domain_table(tables):
    rankings = {lp: _rank(path, 0) for lp, path in tables.items()}
    ours = dict(global_order(rankings))
    theirs = [m for m, _ in GOLDEN["global_order"]]
    assert set(ours) == set(theirs)
    values = [ours[m] for m in theirs]
    assert values == sorted(values)  # their order; ties may be listed differently
    for lp, row in GOLDEN["domains"].items():
        mine = {d.capitalize(): v for d, v in domain_table(rankings[lp]).items()}
        avg = row.pop("Avg.")
        assert mine == pytest.approx(row, rel=1e-12)
        assert float(np.mean(list(mine.values()))) == pytest.approx(avg, rel=1e-12)


def test_one_table_of_two_pairs_through_rank_lp_col(tables, tmp_path):
    """``rank --table BOTH --lp-col lp --protocol wmt26``: each pair ranked as alone, and the
    organisers' global order and domain table from one command."""
    import json as json_module

    from typer.testing import CliRunner

    from mtpalette.cli.app import app

    both = tmp_path / "both.tsv"
    lines = ["lp\tsystem\tdomain\titem\tscore\n"]
    for lp, path in tables.items():
        lines += [f"{lp}\t{row}" for row in path.read_text().splitlines(keepends=True)[1:]]
    both.write_text("".join(lines))
    out = tmp_path / "rank.json"
    args = ["rank", "--table", str(both), "--lp-col", "lp", "--domain-col", "domain",
            "--protocol", "wmt26", "--seed", "0", "--json", str(out)]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "Global order (WMT26)" in result.output
    res = json_module.loads(out.read_text())["results"]
    for lp, path in tables.items():
        alone = _rank(path, 0, "corrected")
        [mine] = [r for r in res["rankings"] if r["name"] == f"score {lp}"]
        assert [s["system"] for s in mine["systems"]] == [s.system for s in alone.systems]
        assert [s["score"] for s in mine["systems"]] == [s.score for s in alone.systems]
        assert [(s["rank_top"], s["rank_bottom"]) for s in mine["systems"]] == [
            (s.rank_top, s.rank_bottom) for s in alone.systems
        ]
    shares = {g["system"]: g["fraction_higher"] for g in res["global_order"]}
    theirs = [m for m, _ in GOLDEN["global_order"]]
    assert set(shares) == set(theirs) and [shares[m] for m in theirs] == sorted(shares.values())
    for lp, row in GOLDEN["domains"].items():
        mine = {d.capitalize(): v for d, v in res["domain_tables"][lp].items()}
        assert mine == pytest.approx({d: v for d, v in row.items() if d != "Avg."}, rel=1e-12)


def test_lp_col_takes_one_table_alone(tmp_path):
    from mtpalette.errors import UserInputError

    table = tmp_path / "t.tsv"
    table.write_text("lp\tsystem\titem\tscore\nen-de\tA\t1\t80\nen-de\tB\t1\t70\n")
    run = RankRun(table=table, lp_col="lp", scores=[f"x={table}"], protocol="wmt26")
    with pytest.raises(UserInputError, match="--lp-col ranks the language pairs of one --table"):
        run.validate()
    with pytest.raises(UserInputError, match="empty 'lp'"):
        table.write_text("lp\tsystem\titem\tscore\n\tA\t1\t80\n")
        run_rank(RankRun(table=table, lp_col="lp", protocol="wmt26"), progress=False)
