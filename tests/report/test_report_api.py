"""``mtpalette.report`` from Python writes the page ``mtpalette report`` writes for the same
runs (an ORANGE, a correlation and an audit run on the bundled WMT21 TED zh-en data, each made
once from the command line and once from Python); results computed in memory are reported
too; bad arguments are refused by name."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from real_data import mqm_ted, mqm_ted_args, mqm_ted_inputs
from typer.testing import CliRunner

import mtpalette
from mtpalette.api import (
    AuditRun,
    CandidateInputs,
    CorrelationOutputs,
    CorrelationRun,
    JudgedInputs,
    OrangeOutputs,
    OrangeRun,
    run_audit,
    run_correlation,
    run_orange,
)
from mtpalette.cli.app import app
from mtpalette.errors import UserInputError

ZHEN = mqm_ted("zhen")
METRICS = ["bleus:4", "wer"]


def _cli(args):
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output


def _lines(folder: Path, source: Path, n: int) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / source.name
    path.write_text("".join(source.read_text(encoding="utf-8").splitlines(True)[:n]))
    return path


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The same three runs, made from the command line (``cli/``) and from Python (``py/``)."""
    tmp = tmp_path_factory.mktemp("api")
    refs = [_lines(tmp / "data", p, 60) for p in ZHEN["refs"]]
    systems = [_lines(tmp / "data", p, 60) for p in ZHEN["systems"][:4]]
    out = {}
    for way in ("cli", "py"):
        d = tmp / way
        d.mkdir()
        if way == "cli":
            _cli(["orange", "-r", *map(str, refs), "-s", *map(str, systems), "-m", *METRICS]
                 + ["--bootstrap", "50", "--out-dir", str(d / "orange"), "-q"])  # fmt: skip
            _cli(["correlate", *mqm_ted_args("zhen"), "-m", *METRICS, "--stat", "pearson,kendall"]
                 + ["--bootstrap", "50", "--test", "bootstrap", "--max-items", "60"]
                 + ["--keep-scores", "--out-dir", str(d / "corr"), "-q"])  # fmt: skip
            _cli(["audit", *mqm_ted_args("zhen"), "-m", *METRICS, "--bootstrap", "50"]
                 + ["--json", str(d / "audit.json"), "-q"])  # fmt: skip
            results = [d / "orange" / "run.json", d / "corr" / "run.json", d / "audit.json"]
        else:
            orange = run_orange(
                OrangeRun(CandidateInputs(refs, systems=systems), METRICS, bootstrap=50,
                          outputs=OrangeOutputs(out_dir=d / "orange"))
            )  # fmt: skip
            corr = run_correlation(
                CorrelationRun(JudgedInputs(**mqm_ted_inputs("zhen")), METRICS, max_items=60,
                               statistics=["pearson", "kendall"], bootstrap=50, test="bootstrap",
                               outputs=CorrelationOutputs(out_dir=d / "corr", keep_scores=True))
            )  # fmt: skip
            audit = run_audit(
                AuditRun(JudgedInputs(**mqm_ted_inputs("zhen")), metrics=METRICS, bootstrap=50,
                         json=d / "audit.json")
            )  # fmt: skip
            results = [orange, corr, audit]
        out[way] = (d, results)
    return out


def _normalised(path: Path, folder: Path) -> str:
    """The page without what differs between two makings of one run: the run folder, the
    time of creation and the command line of each run."""
    text = path.read_text(encoding="utf-8").replace(str(folder), "RUN")
    text = re.sub(r"created [0-9T:+.\-]+", "created TIME", text)
    text = re.sub(r"; command: <code>.*?</code>", "", text)
    return re.sub(r'&#34;created&#34;: &#34;.*?&#34;|"created": ".*?"', "created", text)


def test_report_from_python_equals_the_command_line_report(runs):
    (cli_dir, cli_runs), (py_dir, py_results) = runs["cli"], runs["py"]
    cli_html = cli_dir / "report.html"
    _cli(["report", *map(str, cli_runs), "-o", str(cli_html), "-q"])
    py_html = mtpalette.report(*py_results, py_dir / "report.html")
    assert py_html == py_dir / "report.html"
    a, b = _normalised(cli_html, cli_dir), _normalised(py_html, py_dir)
    assert len(a) > 50_000
    assert a == b
    # the page holds the three runs: the ORANGE table, both correlation tables, the audit
    orange = json.loads((py_dir / "orange" / "run.json").read_text())
    for row in orange["results"]["table"]["rows"]:
        assert f"{100 * row['orange']:.2f}%" in b
    assert b.count('class="metrics corr-table"') == 2 and 'class="metrics audit-table"' in b
    # their run files, given by path, give the same page
    files = [str(r.outputs["run_json"]) for r in py_results]
    same = mtpalette.report(*files, path=py_dir / "2.html")
    assert _normalised(same, py_dir) == b


def test_results_computed_in_memory_are_reported(tmp_path):
    refs = [p.read_text(encoding="utf-8").splitlines()[:40] for p in ZHEN["refs"]]
    systems = {p.stem: p.read_text(encoding="utf-8").splitlines()[:40] for p in ZHEN["systems"][:5]}
    table = mtpalette.orange(refs, systems, METRICS, n_resamples=50)
    audit = mtpalette.audit(refs, systems, METRICS, n_resamples=50)
    path = mtpalette.report(table, audit, tmp_path / "mem.html", title="in memory")
    text = path.read_text(encoding="utf-8")
    assert "<title>in memory</title>" in text
    for row in table.rows:
        assert f"{100 * row.orange.value:.2f}%" in text
    for row in audit.rows:
        assert f"{100 * row.outranked.value:.1f}%" in text
    assert "raw JSON" in text and '"rows": [' not in text  # the audit is a page, not JSON
    assert "No error analysis" in text  # no errors.jsonl: the run wrote no files


def test_bad_arguments_are_refused_by_name(tmp_path):
    with pytest.raises(UserInputError, match="give the HTML file to write last"):
        mtpalette.report(mtpalette.orange([["a b"], ["a c"]], {"S": ["a d"]}, "wer", n_resamples=0))
    with pytest.raises(UserInputError, match="at least one result"):
        mtpalette.report(tmp_path / "r.html")
    with pytest.raises(UserInputError, match="cannot report a dict"):
        mtpalette.report({"rows": []}, tmp_path / "r.html")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    with pytest.raises(UserInputError, match="not an mtpalette run file"):
        mtpalette.report(bad, tmp_path / "r.html")
