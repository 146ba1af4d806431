"""The reports the browser tests look at, built once per test process (session fixtures)."""

from __future__ import annotations

import json

import pytest
from browser import orange_run, real_root, run_cli
from real_data import mqm_ted_args

from mtpalette.reporting.html import write_report


@pytest.fixture(scope="session")
def report(tmp_path_factory):
    """Two ORANGE runs (80 and 60 real segments, two data sets), a segment-level and a
    system-level correlation run, and their report."""
    tmp = tmp_path_factory.mktemp("report")
    metrics = ["-m", "bleus:4", "wer", "rouge-l"]
    eight = (
        "Facebook-AI",
        "NiuTrans",
        "Online-W",
        "SMU",
        "DIDI-NLP",
        "MiSS",
        "IIE-MT",
        "Borderline",
    )
    orange1 = orange_run(tmp, "ted80", 80, eight, metrics)
    orange2 = orange_run(
        tmp, "ted60", 60, eight[:3], ["-m", "bleus:1", "bleus:4", "wer", "rouge-l"]
    )
    corr = ["correlate", *mqm_ted_args("zhen"), *metrics, "--stat", "pearson,kendall"]
    corr += ["--bootstrap", "100", "--test", "bootstrap", "-q"]
    run_cli([*corr, "--max-items", "120", "--keep-scores", "--out-dir", str(tmp / "corr")])
    run_cli([*corr, "--level", "system", "--out-dir", str(tmp / "sys")])
    runs = [orange1, tmp / "corr" / "run.json", tmp / "sys" / "run.json", orange2]
    out = write_report(runs, tmp / "report.html")
    return out, [json.loads(p.read_text()) for p in runs]


@pytest.fixture(scope="session")
def tie_and_audit(tmp_path_factory):
    """A system-level Kendall run where four metrics tie exactly at the top (26 of 78 system
    pairs net concordant each), and an audit run, on the bundled zh-en data; their report."""
    tmp = tmp_path_factory.mktemp("tie")
    args = ["correlate", *mqm_ted_args("zhen"), "-m", "per", "rouge-l", "rouge-s:4", "rouge-w:1.2"]
    run_cli([*args, "--stat", "kendall", "--level", "system", "--bootstrap", "100", "--test"]
         + ["bootstrap", "--json", str(tmp / "tie.json"), "-q"])  # fmt: skip
    run_cli(["audit", *mqm_ted_args("zhen"), "-m", "bleus:4", "wer", "--bootstrap", "50", "--json"]
         + [str(tmp / "audit.json"), "-q"])  # fmt: skip
    runs = [tmp / "tie.json", tmp / "audit.json"]
    out = write_report(runs, tmp / "report.html")
    return out, [json.loads(p.read_text()) for p in runs]


@pytest.fixture(scope="session")
def demo_report(tmp_path_factory):
    """``mtpalette demo`` with two metrics (ORANGE, the segment- and system-level MQM
    correlations and their report): the report a new user sees first, and its run files."""
    out = tmp_path_factory.mktemp("demo") / "demo"
    run_cli(["demo", "-m", "bleus:4", "wer", "--out-dir", str(out)])
    runs = [out / "orange" / "run.json", out / "correlation" / "run.json"]
    return out / "report.html", runs + [out / "correlation-system" / "run.json"]


@pytest.fixture(scope="session")
def mixed_report(tmp_path_factory, demo_report):
    """One report of every kind of section: the demo's ORANGE and correlation runs, a ranking
    of five bundled systems by two metrics, compare-mt's analyses of three, and an audit."""
    tmp = tmp_path_factory.mktemp("mixed")
    data = real_root()
    five = [str(data / f"{n}.txt") for n in ("SMU", "MiSS", "Online-W", "NiuTrans", "DIDI-NLP")]
    ref = str(data / "ref.txt")
    run_cli(["rank", "-r", ref, "-i", *five, "-m", "chrf", "bleu", "--protocol", "bootstrap",
             "--resamples", "200", "--json", str(tmp / "rank.json"), "-q"])  # fmt: skip
    run_cli(["analyze", "-r", ref, "-s", *five[:3], "-a", "words", "length", "ngrams",
             "examples", "--json", str(tmp / "analyze.json"), "-q"])  # fmt: skip
    run_cli(["audit", *mqm_ted_args("zhen"), "-m", "bleus:4", "wer", "--bootstrap", "50",
             "--json", str(tmp / "audit.json"), "-q"])  # fmt: skip
    _, demo = demo_report
    runs = [*demo[:2], tmp / "rank.json", tmp / "analyze.json", tmp / "audit.json"]
    return write_report(runs, tmp / "report.html"), runs
