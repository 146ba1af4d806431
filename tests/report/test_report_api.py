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


def _sections(html: str) -> list[str]:
    """The page's section headings, and the notes that say a section is missing."""
    found = re.findall(r"<h3>(.*?)</h3>", html, re.S)
    return found + re.findall(r"No error analysis|Reference agreement: not in this run", html)


def _numbers(html: str) -> dict[str, list[str]]:
    """Every decimal number of each result table, by the table's class."""
    tables = re.findall(r'<table class="metrics ([^"]*)".*?>(.*?)</table>', html, re.S)
    return {name: re.findall(r"-?\d+\.\d+%?", body) for name, body in tables}


def _browser(html: str) -> dict:
    """The error browser's data, less the references' names (the texts have none)."""
    found = re.search(r'class="errors-data">(.*?)</script>', html, re.S)
    data = json.loads(found.group(1))
    return {k: v for k, v in data.items() if k not in ("ref_files", "ref_names")}


def test_a_report_of_texts_has_the_command_lines_sections_and_numbers(runs, tmp_path):
    """``report(orange(...))`` and ``report(audit(...))`` on texts show the error analysis and
    the reference agreement that the command's reports of the same run show, with the same
    numbers (the references named ref1, ref2: texts have no file names)."""
    refs = [_lines(tmp_path / "data", p, 60) for p in ZHEN["refs"]]
    systems = [_lines(tmp_path / "data", p, 60) for p in ZHEN["systems"][:4]]
    _cli(["audit", "-r", *map(str, refs), "-s", *map(str, systems), "-m", *METRICS]
         + ["--bootstrap", "50", "--json", str(tmp_path / "audit.json"), "-q"])  # fmt: skip
    cli_dir = runs["cli"][0]
    cli = [mtpalette.report(cli_dir / "orange" / "run.json", tmp_path / "cli-orange.html"),
           mtpalette.report(tmp_path / "audit.json", tmp_path / "cli-audit.html")]  # fmt: skip
    texts = [p.read_text(encoding="utf-8").splitlines() for p in refs]
    outputs = {p.stem: p.read_text(encoding="utf-8").splitlines() for p in systems}
    table = mtpalette.orange(texts, outputs, METRICS, n_resamples=50, progress=False)
    audit = mtpalette.audit(texts, outputs, METRICS, n_resamples=50, progress=False)
    py = [mtpalette.report(table, tmp_path / "py-orange.html"),
          mtpalette.report(audit, tmp_path / "py-audit.html")]  # fmt: skip
    for a, b in zip(cli, py, strict=True):
        a, b = a.read_text(encoding="utf-8"), b.read_text(encoding="utf-8")
        assert _sections(a) == _sections(b)
        assert "No error analysis" not in b and "not in this run" not in b
        numbers = _numbers(a)
        assert numbers.pop("inputs") == []  # the files' table: no decimals; texts have none
        assert _numbers(b) == numbers
        assert len(numbers["ref-agreement"]) == 12  # 2 references x 2 metrics x 3 scores
    orange_cli, orange_py = (p.read_text(encoding="utf-8") for p in (cli[0], py[0]))
    assert "Error analysis: candidates that outrank the references" in _sections(orange_py)
    browser = _browser(orange_py)
    assert browser == _browser(orange_cli) and len(browser["segments"]) > 20
    for row in table.rows:
        assert f"{100 * row.orange.value:.2f}%" in orange_py
    assert "<td>ref1</td><td>ref2</td>" in orange_py


def test_a_table_without_texts_is_reported(tmp_path):
    """A table made without texts (the engine's own) is reported, its error analysis named
    as missing."""
    from mtpalette.metaeval.candidates import compare_candidates
    from mtpalette.metaeval.orange import evaluate
    from mtpalette.sources.candidates import lists_and_metrics

    lists, parsed = lists_and_metrics([["a b c", "x y"], ["a b d", "x z"]],
                                      {"A": ["a b c", "x"], "B": ["a b", "y z"]}, "wer",
                                      "13a", False)  # fmt: skip
    table = evaluate(compare_candidates(lists, parsed), n_resamples=0)
    text = mtpalette.report(table, tmp_path / "t.html", title="in memory").read_text()
    assert "<title>in memory</title>" in text and "No error analysis" in text


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
