"""``mtpalette demo`` runs on the bundled example data (invented by the project), shows the
registered families' scores (equal to the Python API) and the numbers the README records,
writes its ORANGE and correlation runs and the report."""

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mtpalette import corpus_score
from mtpalette.api import score_systems
from mtpalette.cli.app import app
from mtpalette.cli.demo import SCORE_METRICS, available
from mtpalette.errors import UserInputError
from mtpalette.metrics import known_metrics


def test_demo(tmp_path):
    result = CliRunner().invoke(app, ["demo", "--out-dir", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    assert "Aurora" in result.output and "ORANGE" in result.output
    assert "invented by mtpalette" in result.output
    # the numbers the README's "Data" section records, as the demo prints them
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    recorded = readme[readme.index("The demo's numbers on it") :].split("\n\n")[0]
    numbers = re.findall(r"`([^`]*\d[^`]*)`", recorded)
    assert len(numbers) == 6
    printed = " ".join(result.output.split())
    assert [n for n in numbers if n not in printed] == []
    for spec in available(SCORE_METRICS):
        assert spec in result.output
    run = json.loads((tmp_path / "run" / "orange" / "run.json").read_text())
    assert run["kind"] == "orange" and run["results"]
    # system outputs in the systems' order rank nothing: no ORANGE-vs-N curve by default
    assert not (tmp_path / "run" / "orange" / "curve.png").exists()
    assert "no ORANGE-vs-N curve" in result.output
    corr = json.loads((tmp_path / "run" / "correlation" / "run.json").read_text())
    assert corr["kind"] == "correlate" and corr["results"]["segment_scores"]["human"]
    report = tmp_path / "run" / "report.html"
    assert "Report:" in result.output and str(report) in result.output.replace("\n", "")
    assert report.stat().st_size > 100_000


def test_demo_with_chosen_metrics(tmp_path):
    result = CliRunner().invoke(
        app, ["demo", "-m", "rouge-l", "wer", "--out-dir", str(tmp_path / "run")]
    )
    assert result.exit_code == 0, result.output
    assert "rouge-l" in result.output and "wer ↓" in result.output
    assert "bleus:4" not in result.output
    bad = CliRunner().invoke(app, ["demo", "-m", "nosuch", "--out-dir", str(tmp_path / "x")])
    assert isinstance(bad.exception, UserInputError)  # main() turns it into exit code 2
    assert "unknown metric 'nosuch'" in str(bad.exception)


def test_demo_picks_registered_families():
    assert available(["bleu", "not-a-family", "rouge-s:0..9,*"]) == ["bleu", "rouge-s:0..9,*"]
    families = {s.partition(":")[0] for s in available(SCORE_METRICS)}
    assert families <= set(known_metrics()) and "bleu" in families


def test_one_pass_over_all_systems_equals_one_system_at_a_time(ted_zhen):
    systems, refs = ted_zhen
    names = ["Borderline", "Online-W", "metricsystem5"]
    specs = available(SCORE_METRICS)
    table = score_systems({n: systems[n] for n in names}, refs, specs)
    for name in names:
        expected = [s.value for s in corpus_score(systems[name], refs, specs)]
        got = [s.value for s in table[name].corpus]
        assert got == pytest.approx(expected, rel=1e-12, abs=1e-12)
