"""The text tables of ``orange`` and ``correlate`` print the p-value next to every "= best"
and every cluster boundary (the numbers of the run file), and mark every tied best; on the
bundled WMT21 TED zh-en data."""

from __future__ import annotations

import json

from real_data import mqm_ted, mqm_ted_args
from typer.testing import CliRunner

from mtpalette.cli.app import app

ZHEN = mqm_ted("zhen")


def _run(args, out):
    result = CliRunner().invoke(app, [*args, "--json", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    rows = [line.split("\t") for line in result.output.splitlines() if "\t" in line]
    return {r[0]: r for r in rows[1:]}, json.loads(out.read_text())["results"]


def _p(p):
    return "p < 0.001" if p < 0.0005 else f"p = {p:.3f}"


def test_orange_prints_the_p_value_of_each_metric_against_the_best(tmp_path):
    refs = [str(p) for p in ZHEN["refs"]]
    systems = [str(p) for p in ZHEN["systems"][:4]]
    args = ["orange", "-r", *refs, "-s", *systems, "-m", "bleus:1..4", "chrf", "wer"]
    printed, results = _run([*args, "--bootstrap", "200"], tmp_path / "o.json")
    rows = results["table"]["rows"]
    best = min(r["orange"] for r in rows)
    for r in rows:
        mark = printed[r["metric"]][-1]
        if r["orange"] == best:
            assert mark == "best"
        elif r["equivalent_to_best"]:
            assert mark == f"= best ({_p(r['p_value'])})"
        else:
            assert mark == _p(r["p_value"])
    assert any(r["equivalent_to_best"] and not r["best"] for r in rows)  # "= best" is shown
    assert any(not r["equivalent_to_best"] and not r["best"] for r in rows)


def test_correlate_prints_the_p_value_of_each_cluster_boundary(tmp_path):
    args = ["correlate", *mqm_ted_args("zhen"), "-m", "bleus:4", "chrf", "wer", "--stat", "pearson"]
    args += ["--max-items", "150", "--bootstrap", "200", "--test", "bootstrap"]
    printed, results = _run(args, tmp_path / "c.json")
    table = results["tables"][0]
    tests: dict[str, list] = {}
    for c in table["comparisons"]:
        tests.setdefault(c["worse"], []).append(c)
    rows = table["rows"]
    for above, r in zip(rows, rows[1:], strict=False):
        text = printed[r["metric"] + (" (baseline)" if r["baseline"] else "")][-1]
        made = {f"{_p(c['p_value'])} vs {c['better']}": c for c in tests[r["metric"]]}
        c = made[text.removeprefix("= best (").removesuffix(")")]  # one of the run's tests
        if r["cluster"] != above["cluster"]:  # a boundary: the significant test that made it
            assert c["p_value"] <= table["alpha"]
        else:  # inside a cluster: the test against the cluster's first metric
            head = next(x["metric"] for x in rows if x["cluster"] == r["cluster"])
            assert c["better"] == head and c["p_value"] > table["alpha"]
            assert text.startswith("= best (") == (r["cluster"] == 1)
    assert len({r["cluster"] for r in rows}) >= 2  # there are boundaries to print
