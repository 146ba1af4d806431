"""``mtpalette analyze`` from the command line: compare-mt's tables on the bundled en-de
systems, the CSV and JSON outputs, intervals, and refusals that name what was expected."""

from __future__ import annotations

import csv
import json

from real_data import mqm_ted

ENDE = mqm_ted("ende")["root"]
SYSTEMS = [ENDE / f"{s}.txt" for s in ("Facebook-AI", "Nemo", "UEdin")]


def test_default_tables_are_compare_mts(cli, tmp_path):
    out_csv, out_json = tmp_path / "a.csv", tmp_path / "a.json"
    code, out, err = cli("analyze", "-r", ENDE / "ref.txt", "-s", *SYSTEMS,
                         "--csv", out_csv, "--json", out_json)  # fmt: skip
    assert code == 0, err
    # piped: TSV; compare-mt prints F 0.4847 for Facebook-AI's words seen once, BLEU 28.0837
    # for its [10,20) bucket
    assert "1\t1985\t0.4847\t" in out
    assert "[10,20)\t28.08\t212\t" in out
    rows = list(csv.DictReader(out_csv.open(encoding="utf-8")))
    assert {r["analysis"] for r in rows} == {"words", "length"}
    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert data["kind"] == "analyze"
    analyses = data["results"]["analyses"]
    assert [a["analysis"] for a in analyses] == ["word-accuracy", "sentence-buckets"]
    assert "bleu:compat=compare-mt" in data["signatures"]


def test_intervals_and_any_metric(cli):
    code, out, err = cli("analyze", "-r", ENDE / "ref.txt", "-s", *SYSTEMS[:2], "-a",
                         "lengthdiff", "-m", "chrf", "--confidence", "0.9")  # fmt: skip
    assert code == 0, err
    assert "chrf by output length minus reference length" in out
    assert "[" in out.split("\n-1\t", 1)[1].split("\n", 1)[0]  # an interval in the -1 row


def test_refusals_name_what_was_expected(cli):
    code, _, err = cli("analyze", "-r", ENDE / "ref.txt", ENDE / "source.txt", "-s", SYSTEMS[0])
    assert code == 2 and "one reference stream" in err
    code, _, err = cli("analyze", "-r", ENDE / "ref.txt", "-s", SYSTEMS[0], "-a", "wordz")
    assert code == 2 and "expected words, length" in err


def test_report_has_every_analysis_with_its_plot(cli, tmp_path):
    report = tmp_path / "analyze.html"
    analyses = ["words", "length", "ngrams", "examples"]
    code, _, err = cli("analyze", "-r", ENDE / "ref.txt", "-s", *SYSTEMS, "-a", *analyses,
                       "--top", "3", "--report", report)  # fmt: skip
    assert code == 0, err
    html = report.read_text(encoding="utf-8")
    assert "Word F-measure by frequency in the reference" in html
    assert "bleu:compat=compare-mt by reference length" in html
    assert html.count('class="fig analyze-plot"') == 2  # the two bucketed analyses
    assert "matches more and less often than Facebook-AI" in html
    assert "differ most (bleus:4)" in html
    assert (tmp_path / "analyze.run.json").exists()  # beside the report, its own name
