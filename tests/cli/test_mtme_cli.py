"""``--mtme DIR --lp`` from the command line: the folder read as mt-metrics-eval reads it.

The folder ``wmt21.tedtalks`` (18 segments of the WMT21 TED MQM data per pair, built from the
shared data by ``scripts/mtme_folder.py``: ``tests/real_data.py``) has human scores for all but
one system; its standard reference of zh-en is refB (MTME's ``meta_info``). Once, such a
folder stopped with ``no judgments for system(s) ...``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from real_data import mtme_folder

FOLDER = mtme_folder()


def test_correlate_reads_a_folder_as_mtme_does(cli, tmp_path):
    args = ["correlate", "--mtme", FOLDER, "--lp", "zh-en", "-m", "chrf"]
    args += ["--mtme-metrics", "chrF", "sentBLEU", "--bootstrap", "100", "--permutations", "100"]
    code, out, err = cli(*args, "--out-dir", tmp_path / "run")
    assert code == 0, err
    assert "12 of 15 systems evaluated" in err
    assert "metricsystem5 (no mqm seg scores)" in err
    table = json.loads((tmp_path / "run" / "run.json").read_text())
    assert table["inputs"]["ref"] == "refB" and "metricsystem5" in table["inputs"]["left_out"]
    rows = {line.split("\t")[0]: line.split("\t")[1] for line in out.splitlines() if "\t" in line}
    # sacrebleu's chrF stored by MTME's layout and mtpalette's chrF of the same texts
    assert rows["chrf"] == rows["chrF"]  # by base name, as wmt names it
    assert "sentBLEU" in rows


def test_strict_keeps_the_old_refusal(cli):
    code, _, err = cli("correlate", "--mtme", FOLDER, "--lp", "zh-en",
                       "--strict-mtme")  # fmt: skip
    assert code == 2 and "metricsystem5" in err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--lp", "xx-yy"], "xx-yy"),
        (["--lp", "zh-en", "--mtme-ref", "refC"], "refC"),
        (["--lp", "zh-en", "--mtme-metrics", "NoSuchMetric"], "NoSuchMetric"),
        ([], "--lp"),
    ],
)
def test_bad_folder_requests_are_refused(cli, extra, message):
    code, _, err = cli("correlate", "--mtme", FOLDER, *extra)
    assert code == 2 and message in err and "Traceback" not in err


def test_scores_take_mtme_files_as_they_are(cli):
    """A header-less MTME score file by its literal path, and with {ref}: once refused ("needs
    {ref} in the path", "no column 'system'") or expanded to BLEU-zh-en.refA...."""
    stored = FOLDER / "metric-scores" / "zh-en"
    common = ["correlate", "--mtme", FOLDER, "--lp", "zh-en", "-m", "chrf"]
    common += ["--bootstrap", "100", "--permutations", "100"]
    for path in (stored / "chrF-refB.seg.score", str(stored / "chrF-{ref}.seg.score")):
        code, out, err = cli(*common, "--scores", f"stored={path}")
        assert code == 0, err
        rows = {ln.split("\t")[0]: ln.split("\t")[1] for ln in out.splitlines() if "\t" in ln}
        assert rows["stored"] == rows["chrf"]
    code, _, err = cli(*common, "--scores", f"s={stored / 'BLEU-refB.sys.score'}")
    assert code == 2 and "sys-level scores" in err


def test_orange_reads_the_folder(cli, tmp_path):
    """``orange --mtme DIR --lp``: every reference of the pair, every system output but the
    references, the same ORANGE as the same files named one by one."""
    outputs = FOLDER / "system-outputs" / "zh-en"
    refs = [FOLDER / "references" / f"zh-en.{r}.txt" for r in ("refA", "refB")]
    systems = sorted(p for p in outputs.iterdir() if p.stem not in ("refA", "refB"))
    common = ["-m", "chrf", "--bootstrap", "0"]
    by_folder, by_files = tmp_path / "a.json", tmp_path / "b.json"
    code, _, err = cli("orange", "--mtme", FOLDER, "--lp", "zh-en",
                       *common, "--json", by_folder)  # fmt: skip
    assert code == 0, err
    code, _, err = cli("orange", "-r", *refs, "-s", *systems, *common,
                       "--json", by_files)  # fmt: skip
    assert code == 0, err
    a, b = (json.loads(p.read_text())["results"]["table"]["rows"] for p in (by_folder, by_files))
    assert [(r["metric"], r["orange"]) for r in a] == [(r["metric"], r["orange"]) for r in b]


def _system_rows(out: Path) -> dict[str, dict]:
    [table] = json.loads(out.read_text())["results"]["tables"]
    return {r["metric"]: r for r in table["rows"]}


def test_system_level_score_files_are_correlated_at_system_level(cli, tmp_path):
    scores = FOLDER / "metric-scores" / "zh-en"
    out = tmp_path / "c.json"
    code, stdout, err = cli(
        "correlate", "--mtme", FOLDER, "--lp", "zh-en", "--mtme-metrics", "BLEU", "sentBLEU",
        "--scores", f"mine={scores / 'BLEU-refB.sys.score'}",
        "--scores", f"mysent={scores / 'sentBLEU-refB.seg.score'}",
        "--level", "system", "--bootstrap", "0", "--permutations", "0", "--json", out,
    )  # fmt: skip
    assert code == 0, err
    rows = _system_rows(out)
    # a .sys.score file is the folder's own system scores; a .seg.score file's system scores
    # are its means over all segments, as the folder's sentBLEU.sys.score is
    assert rows["mine"]["correlation"] == rows["BLEU"]["correlation"]
    assert rows["mysent"]["correlation"] == pytest.approx(rows["sentBLEU"]["correlation"],
                                                          abs=1e-12)
    assert "mine: system scores of BLEU-refB.sys.score" in stdout
    code, _, err = cli("correlate", "--mtme", FOLDER, "--lp", "zh-en", "--scores",
                       f"mine={scores / 'BLEU-refB.sys.score'}")  # fmt: skip
    assert code == 2 and "read by correlate --level system" in err
    assert "Traceback" not in err


def test_a_system_file_without_every_system_is_refused(cli, tmp_path):
    partial = tmp_path / "x-refB.sys.score"
    lines = (FOLDER / "metric-scores" / "zh-en" / "BLEU-refB.sys.score").read_text().splitlines()
    partial.write_text("\n".join(lines[1:]) + "\n")
    code, _, err = cli("correlate", "--mtme", FOLDER, "--lp", "zh-en", "--scores",
                       f"x={partial}", "--level", "system")  # fmt: skip
    assert code == 2 and "x-refB.sys.score" in err and "no system score for" in err
