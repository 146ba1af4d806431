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
    code, out, err = cli("analyze", "-r", ENDE / "ref.txt", "-s", *SYSTEMS, "--compat",
                         "compare-mt", "--csv", out_csv, "--json", out_json)  # fmt: skip
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


def test_compat_top_empty_buckets_and_the_whitespace_note(cli):
    """--compat compare-mt on text with double spaces and empty lines; --top 5 lists 5
    n-grams each way per system; an empty bucket prints '-', not 0.0000; without --compat a
    note counts the lines whose whitespace was folded; n-grams are tokenized by default."""
    from pathlib import Path

    folder = Path(__file__).parents[1] / "data" / "compare_mt" / "spaces"
    files = [folder / f"{s}.txt" for s in ("A", "B", "C")]
    code, out, err = cli("analyze", "-r", folder / "ref.txt", "-s", *files, "--compat",
                         "compare-mt", "-a", "words", "ngrams", "--top", "5")  # fmt: skip
    assert code == 0, err
    assert "\n>=1000\t0\t-\t-\t-\t-\t-\t-\n" in out  # no word seen 1000 times: no score
    tables = out.split("\n# ")
    ngram_tables = [t for t in tables if t.startswith("n-grams ")]
    assert len(ngram_tables) == 4  # B and C against A, each way
    assert all(len(t.strip().splitlines()) == 2 + 5 for t in ngram_tables)  # title, header, 5
    assert "whitespace was folded" not in out
    code, out, err = cli("analyze", "-r", folder / "ref.txt", "-s", *files[:2], "-a", "words")
    assert code == 0, err
    assert "analyze: words (1 of 1)" in err  # progress on a piped standard error: a note per step
    assert "# 418 of 480 lines (reference and outputs) have runs of whitespace" in out
    code, _, err = cli("analyze", "-r", folder / "ref.txt", "-s", *files[:2], "--compat",
                       "compare-mt", "-tok", "none")  # fmt: skip
    assert code == 2 and "--tokenize none is not taken with it" in err
    # tokenized n-grams by default: punctuation is a word of its own
    code, out, err = cli("analyze", "-r", ENDE / "ref.txt", "-s", *SYSTEMS[:2], "-a", "ngrams")
    assert code == 0, err
    grams = [line.split("\t")[0] for line in out.splitlines() if "\t" in line]
    assert any(token in {",", ".", "(", ")", "?", "!"} for g in grams for token in g.split())
    assert not any(g.endswith((".", ",")) and len(g) > 1 and " " not in g for g in grams)


def test_the_reports_empty_word_bucket_has_no_score(cli, tmp_path):
    from pathlib import Path

    folder = Path(__file__).parents[1] / "data" / "compare_mt" / "spaces"
    report = tmp_path / "a.html"
    code, _, err = cli("analyze", "-r", folder / "ref.txt", "-s", folder / "A.txt",
                       folder / "B.txt", "-a", "words", "--report", report, "-q")  # fmt: skip
    assert code == 0, err
    html = report.read_text(encoding="utf-8")
    empty = '<tr><td>&gt;=1000</td><td>0</td><td class="value">-</td><td>-</td>'
    assert empty in html and '<td>&gt;=1000</td><td>0</td><td class="value">0.0000' not in html
