"""``mtpalette spans``: the organisers' golden values reproduced through the command on files
written from the golden inputs (project-written spans), every output, and the refusals (the
values against the stats functions: tests/metaeval/test_spans_run.py)."""

from __future__ import annotations

import json

import pytest
from span_files import golden, write_files

WMT25 = golden("wmt25")
QE23 = golden("wmt23_qe")
NAMES = ["near", "random", "sparse"]


def _preds(files):
    return [x for n in NAMES for x in ("--pred", f"{n}={files[n]}")]


def test_wmt25_golden_through_the_command(cli, tmp_path):
    files = write_files(WMT25["inputs"], tmp_path)
    out, tsv, tex = tmp_path / "spans.json", tmp_path / "spans.tsv", tmp_path / "spans.tex"
    code, stdout, err = cli("spans", "--gold", files["gold"], *_preds(files), "--protocol",
                            "wmt25,mpp", "--bootstrap", "100", "--json", out, "--tsv", tsv,
                            "--latex", tex)  # fmt: skip
    assert code == 0, err
    run = json.loads(out.read_text())
    assert run["kind"] == "spans" and run["seeds"] == {"bootstrap": 12345}
    rows = run["results"]["rows"]
    by = {(r["protocol"], r["metric"], r["lp"]): r for r in rows if r["system"] is None}
    for name, out_ in WMT25["outputs"].items():
        for lp, v in out_["per_lp"].items():
            r = by[("wmt25", name, lp)]
            for m in ("precision", "recall", "f1"):
                assert r[m] == pytest.approx(v[m], abs=1e-9), (name, lp, m)
            assert {"tp_precision", "tp_recall", "n_pred", "n_gold"} <= set(r)
        txt = dict(x.split(": ") for x in out_["scores_txt"].splitlines())
        assert f"{by[('wmt25', name, 'all')]['f1']:.4}" == txt["avg_f1"]
    assert {k[0] for k in by} == {"wmt25", "mpp"} and len(by) == 2 * 5 * 4
    assert by[("wmt25", "near", "all")]["rank_top"] == 1
    assert "protocol:wmt25" in run["signatures"]["wmt25"]
    assert run["results"]["viewer"] and "text" in run["results"]["viewer"][0]
    assert "near\tannotator\tall" in stdout and "annotator pairs differ" in stdout
    assert tsv.read_text().splitlines()[0].startswith("protocol\tmetric\tlp")
    assert "\\toprule" in tex.read_text()


def test_json_to_standard_output(cli, tmp_path):
    files = write_files(WMT25["inputs"], tmp_path)
    code, stdout, err = cli("spans", "--gold", files["gold"], "--pred", f"near={files['near']}",
                            "--bootstrap", "0", "--json", "-")  # fmt: skip
    assert code == 0, err
    rows = json.loads(stdout)["results"]["rows"]
    assert [r["lp"] for r in rows if r["metric"] == "near"] == ["cs-uk", "en-de", "ja-zh", "all"]


def test_wmt23_qe_golden_with_the_hallucination_index(cli, tmp_path):
    inputs = QE23["inputs"]
    files = write_files(inputs, tmp_path, qe_ids=True)
    index = tmp_path / "gold_hallucinations_task1_sentence.tsv"
    index.write_text("lp\tsegid\n" + "".join(f"{lp}\t{i}\n" for lp, i in
                                             inputs["hallucinated"].items()))  # fmt: skip
    out = tmp_path / "qe.json"
    code, _, err = cli("spans", "--gold", files["gold"], *_preds(files), "--protocol",
                       "wmt23-qe", "--exclude", index, "--bootstrap", "0",
                       "--json", out)  # fmt: skip
    assert code == 0, err
    rows = json.loads(out.read_text())["results"]["rows"]
    by = {(r["metric"], r["lp"]): r for r in rows}
    for name in NAMES:
        for lp, v in QE23["outputs"][name]["per_lp"].items():
            assert by[(name, lp)]["f1"] == pytest.approx(v["f1"], abs=1e-9)
            assert by[(name, lp)]["precision"] == pytest.approx(v["precision"], abs=1e-9)


def test_refusals(cli, tmp_path):
    files = write_files(WMT25["inputs"], tmp_path)
    gold, near = files["gold"], files["near"]
    code, _, err = cli("spans", "--gold", gold, "--pred", f"near={near}", "--protocol", "wmt52")
    assert code == 2 and "unknown span protocol 'wmt52'" in err
    lines = near.read_text().splitlines()
    short = tmp_path / "short.jsonl"
    short.write_text("\n".join(lines[:-1]) + "\n")
    code, _, err = cli("spans", "--gold", gold, "--pred", f"short={short}")
    assert code == 2 and "short.jsonl: 1 segment(s) of the gold lack in short" in err
    assert "--on-missing common" in err
    code, _, err = cli("spans", "--gold", gold, "--pred", f"short={short}", "--on-missing",
                       "common", "--bootstrap", "0")  # fmt: skip
    assert code == 0 and "41 of 42 gold segments scored" in err + _
    other = tmp_path / "other.jsonl"
    row = json.loads(lines[0])
    row["text"] = row["text"].upper()
    other.write_text("\n".join([json.dumps(row, ensure_ascii=False), *lines[1:]]) + "\n")
    code, _, err = cli("spans", "--gold", gold, "--pred", f"other={other}")
    assert code == 2 and "other.jsonl:1: the text of en-de/sysA/doc0/0 differs" in err
    code, _, err = cli("spans", "--gold", gold, "--pred", f"near={near}", "--penalty", "1")
    assert code == 2 and "--penalty applies to em, mp, mpp, chars" in err
    code, _, err = cli("spans", "--gold", gold, "--pred", f"{near}")
    assert code == 2 and "expected NAME=FILE" in err
