"""The round-5 bad-input matrix (issue 51): one output per path, and ``-`` sends exactly one
document to standard output.

(a) two outputs of one run on one path (as given, by another spelling, through a symbolic
link, or the files a command names itself: rank's ``.pairs.tsv`` beside ``--tsv``, the run
file beside ``--report``, the run folder's ``run.json``) are refused before any work, naming
the path and both options; (b) two outputs on standard output too (it takes one document);
(c) ``--json -`` (``-o -``) leaves standard output holding exactly the document, which
``json.loads`` reads, and ``--tsv -``/``--csv -`` only the table: the text table and every
message go to standard error; (d) ``data --copy`` onto a file is one line naming it.

Every refused case asserts exit code 2, no traceback, the message (path and options) and that
no file of its folder changed (:func:`~bad_input_files.snapshot`). ``wmt``, ``agree``,
``audit``, ``score`` and the training commands write one file each: they have cases of (c)
only (an output on one of their inputs is round 4's).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from bad_input_files import FAST, NO_TEST, SYS4, argv_of, make_inputs, run, snapshot


@pytest.fixture(scope="module")
def names(tmp_path_factory) -> dict[str, str]:
    return make_inputs(tmp_path_factory.mktemp("inputs"))


def _no_traceback(err: str) -> None:
    assert "Traceback" not in err and 'File "' not in err, err[-2000:]


CORR = f"correlate -j {{j}} -r {{r1}} {SYS4} -m chrf {NO_TEST}"
ORANGE = f"orange -r {{r1}} {{r2}} {SYS4} -m chrf {FAST}"
RANK = "rank -r {r1} -s {s1} {s2} {s3} -m chrf"
ANALYZE = "analyze -r {r1} -s {s1} {s2} -m chrf"
AGREE = f"agree -j {{j}} -r {{r1}} {{r2}} {SYS4} -m chrf bleu ter {FAST}"
AUDIT = f"audit -j {{j}} -r {{r1}} {{r2}} {SYS4} -m chrf {FAST}"
WMT = "wmt --mtme {mtme} --lp zh-en --mtme-metrics chrF -k 0"
BLANC = f"train-blanc -j {{j}} -r {{r1}} {SYS4} --restarts 1 --max-evals 2"
ROSE = f"train-rose -j {{j}} -r {{r1}} {SYS4} --C 1"
MBR = "mbr {nb} -m chrf"
OLD = b"the previous output, to keep\n"

# --------------------------------------------------------------------------------------------
# (a) two outputs on one path: (id, command line; {A} and {B} name one file, which exists,
# what the message says in the parentheses after "{A}: two outputs on one path")
SAME_PATH = [
    ("rank-tsv-json", f"{RANK} --tsv {{A}} --json {{B}}", "--json and --tsv"),
    ("rank-json-latex", f"{RANK} --json {{A}} --latex {{B}}", "--json and --latex"),
    ("rank-tsv-latex", f"{RANK} --tsv {{A}} --latex {{B}}", "--tsv and --latex"),
    ("rank-latex-report", f"{RANK} --latex {{A}} --report {{B}}", "--latex and --report"),
    ("correlate-json-csv", f"{CORR} --json {{A}} --csv {{B}}", "--json and --csv"),
    ("correlate-csv-report", f"{CORR} --json {{W}}/c.json --csv {{A}} --report {{B}}",
     "--csv and --report"),
    ("orange-json-csv", f"{ORANGE} --json {{A}} --csv {{B}}", "--json and --csv"),
    ("orange-csv-curve-csv", f"{ORANGE} --csv {{A}} --curve-csv {{B}}", "--csv and --curve-csv"),
    ("orange-curve-csv-errors", f"{ORANGE} --curve-csv {{A}} --errors {{B}}",
     "--curve-csv and --errors"),
    ("orange-json-errors", f"{ORANGE} --json {{A}} --errors {{B}}", "--json and --errors"),
    ("orange-json-report", f"{ORANGE} --json {{A}} --report {{B}}", "--json and --report"),
    ("analyze-json-csv", f"{ANALYZE} --json {{A}} --csv {{B}}", "--json and --csv"),
    ("analyze-csv-report", f"{ANALYZE} --json {{W}}/a.json --csv {{A}} --report {{B}}",
     "--csv and --report"),
    ("mbr-o-scores", f"{MBR} -o {{A}} --scores {{B}}", "-o and --scores"),
    ("mbr-scores-matrix", f"{MBR} --scores {{A}} --matrix {{B}}", "--scores and --matrix"),
]  # fmt: skip
#: how the second option names the first one's file
SPELLINGS = ("same", "dot-dot", "symlink")
#: the files a command names itself: (id, command line, the path named, the options)
IMPLIED = [
    ("rank-pairs-file", f"{RANK} --tsv {{W}}/r.tsv --latex {{W}}/r.pairs.tsv",
     "{W}/r.pairs.tsv", "--tsv's pairs file and --latex"),
    ("rank-pairs-file-json", f"{RANK} --tsv {{W}}/r --json {{W}}/r.pairs.tsv",
     "{W}/r.pairs.tsv", "--json and --tsv's pairs file"),
    ("rank-report-run-file", f"{RANK} --report {{W}}/r.html --tsv {{W}}/r.run.json",
     "{W}/r.run.json", "--report's run file and --tsv"),
    ("analyze-report-run-file", f"{ANALYZE} --report {{W}}/a.html --csv {{W}}/a.run.json",
     "{W}/a.run.json", "--report's run file and --csv"),
    ("correlate-run-folder", f"{CORR} --out-dir {{W}}/run --csv {{W}}/run/run.json",
     "{W}/run/run.json", "the run folder's run.json and --csv"),
    ("orange-run-folder", f"{ORANGE} --out-dir {{W}}/run --errors {{W}}/run/table.csv",
     "{W}/run/table.csv", "the run folder's table.csv and --errors"),
    ("orange-run-folder-curve",
     f"{ORANGE} --curve-step 1 --out-dir {{W}}/run --json {{W}}/run/curve.csv",
     "{W}/run/curve.csv", "--json and the run folder's curve.csv"),
]  # fmt: skip


def _refused(tmp_path, before, got, stdout, err, message) -> None:
    _no_traceback(err)
    assert got == 2, (got, err[-2000:])
    assert message in err, err[-2000:]
    assert err.splitlines()[-1].startswith("mtpalette: error: ")
    assert stdout == "", stdout[:500]
    assert snapshot(tmp_path) == before, "a refused run changed or left a file"


def _workdir(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    return work


@pytest.mark.parametrize("spelling", SPELLINGS)
@pytest.mark.parametrize(("argv", "options"), [pytest.param(a, o, id=i) for i, a, o in SAME_PATH])
def test_two_outputs_on_one_path(names, tmp_path, monkeypatch, capsys, argv, options, spelling):
    work = _workdir(tmp_path, monkeypatch)
    target = work / "out.html"  # a suffix every option takes (--report's, a figure's too)
    target.write_bytes(OLD)
    other = {"same": target, "dot-dot": work / ".." / "work" / "out.html", "symlink": work / "ln"}
    if spelling == "symlink":
        (work / "ln").symlink_to(target)
    before = snapshot(tmp_path)
    paths = {"A": str(target), "B": str(other[spelling]), "W": str(work)}
    got, stdout, err = run(monkeypatch, capsys, argv_of(argv, {**names, **paths}))
    _refused(tmp_path, before, got, stdout, err, f"two outputs on one path ({options}")
    if spelling == "same":  # else the message names both spellings
        assert f"{target}: two outputs on one path ({options}); give each its own file" in err
    else:
        assert (
            f"{target}" in err
            and f"also named {other[spelling]}); give each" in err
            or (f"{other[spelling]}: two" in err and f"also named {target})" in err)
        ), err


@pytest.mark.parametrize(
    ("argv", "path", "options"), [pytest.param(a, p, o, id=i) for i, a, p, o in IMPLIED]
)
def test_an_output_on_a_file_the_command_names(
    names, tmp_path, monkeypatch, capsys, argv, path, options
):
    work = _workdir(tmp_path, monkeypatch)
    before = snapshot(tmp_path)
    got, stdout, err = run(monkeypatch, capsys, argv_of(argv, {**names, "W": str(work)}))
    path = path.format(W=work)
    _refused(tmp_path, before, got, stdout, err, f"{path}: two outputs on one path ({options})")


# --------------------------------------------------------------------------------------------
# (b) two outputs on standard output: (id, command line, the options named)
TWO_DASHES = [
    ("rank-json-tsv", f"{RANK} --json - --tsv -", "(--json and --tsv)"),
    ("rank-tsv-latex", f"{RANK} --tsv - --latex -", "(--tsv and --latex)"),
    ("correlate-json-csv", f"{CORR} --json - --csv -", "(--json and --csv)"),
    ("orange-json-csv", f"{ORANGE} --json - --csv -", "(--json and --csv)"),
    ("orange-curve-csv-errors", f"{ORANGE} --curve-csv - --errors -", "(--curve-csv and --errors)"),
    ("analyze-json-csv", f"{ANALYZE} --json - --csv -", "(--json and --csv)"),
    ("mbr-o-scores", f"{MBR} -o - --scores -", "(-o and --scores)"),
]


@pytest.mark.parametrize(("argv", "options"), [pytest.param(a, o, id=i) for i, a, o in TWO_DASHES])
def test_two_outputs_on_standard_output(names, tmp_path, monkeypatch, capsys, argv, options):
    _workdir(tmp_path, monkeypatch)
    before = snapshot(tmp_path)
    got, stdout, err = run(monkeypatch, capsys, argv_of(argv, names))
    _refused(tmp_path, before, got, stdout, err, f"-: two outputs on standard output {options}; "
             "it takes one document: give the other a file")  # fmt: skip


REPORT_FROM_STDOUT = {
    "rank": f"{RANK} --json - --report {{W}}/r.html",
    "correlate": f"{CORR} --json - --report {{W}}/r.html",
    "orange": f"{ORANGE} --json - --report {{W}}/r.html",
    "analyze": f"{ANALYZE} --json - --report {{W}}/r.html",
}
#: without -o standard output is the selection's: --matrix - would leave it nowhere
MBR_SELECTION = {"mbr-matrix": f"{MBR} --matrix -"}


@pytest.mark.parametrize(
    "argv", [pytest.param(a, id=i) for i, a in {**REPORT_FROM_STDOUT, **MBR_SELECTION}.items()]
)
def test_standard_output_taken_by_another_document(names, tmp_path, monkeypatch, capsys, argv):
    work = _workdir(tmp_path, monkeypatch)
    before = snapshot(tmp_path)
    got, stdout, err = run(monkeypatch, capsys, argv_of(argv, {**names, "W": str(work)}))
    message = ("--report is built from the run file: give --json a file" if "--report" in argv
               else "-: standard output takes the selection when there is no -o")  # fmt: skip
    _refused(tmp_path, before, got, stdout, err, message)


# --------------------------------------------------------------------------------------------
# (c) `-`: standard output holds the one document; the table and the messages go to stderr
JSON_DASH = {  # id: (command line, a key of the document, what stderr shows then)
    "rank": (f"{RANK} --json -", "kind", "Rank\tSystem\tCluster"),
    "correlate": (f"{CORR} --json -", "kind", "Metric\tPearson"),
    "orange": (f"{ORANGE} --json -", "kind", "Method\tORANGE"),
    "analyze": (f"{ANALYZE} --json -", "kind", "sentences (words) in the bucket"),
    "wmt": (f"{WMT} --json -", "average_corrs", "Global ranking"),
    "agree": (f"{AGREE} --json -", "kind", "Kendall tau-b between the two orderings"),
    "audit": (f"{AUDIT} --json -", "kind", "ORANGE premise audit"),
    "score": ("score -r {r1} -i {s1} {s2} -m bleu chrf -f json -o -", None, None),
    "train-blanc": (f"{BLANC} -o -", "metric", "BLANC trained on"),
    "train-rose": (f"{ROSE} -o -", "metric", "written to -"),
}


@pytest.mark.parametrize(
    ("argv", "key", "shown"), [pytest.param(*v, id=k) for k, v in JSON_DASH.items()]
)
def test_json_dash_is_the_only_document(names, tmp_path, monkeypatch, capsys, argv, key, shown):
    monkeypatch.chdir(tmp_path)
    got, stdout, err = run(monkeypatch, capsys, argv_of(argv, names))
    _no_traceback(err)
    assert got == 0, err[-2000:]
    document = json.loads(stdout)  # the whole of standard output: one JSON document
    assert key is None or key in document, str(document)[:500]
    if shown is not None:  # the table (or summary) not lost: on standard error
        assert shown in err, err[-2000:]
    assert list(tmp_path.iterdir()) == []


TABLE_DASH = {  # id: (command line, delimiter, the header's first cell); no other line
    "rank-tsv": (f"{RANK} --tsv -", "\t", "ranking"),
    "correlate-csv": (f"{CORR} --csv -", ",", "statistic"),
    "orange-csv": (f"{ORANGE} --csv -", ",", "metric"),
    "orange-curve-csv": (f"{ORANGE} --curve-step 1 --curve-csv -", ",", "cutoff"),
    "analyze-csv": (f"{ANALYZE} --csv -", ",", "analysis"),
    "mbr-scores": (f"{MBR} -o {{W}}/sel.txt --scores -", "\t", "segment"),
    "mbr-scores-no-o": (f"{MBR} --scores -", "\t", "segment"),  # it holds the selection
}


@pytest.mark.parametrize(
    ("argv", "delimiter", "first"), [pytest.param(*v, id=k) for k, v in TABLE_DASH.items()]
)
def test_table_dash_is_the_only_table(names, tmp_path, monkeypatch, capsys, argv, delimiter, first):
    work = _workdir(tmp_path, monkeypatch)
    got, stdout, err = run(monkeypatch, capsys, argv_of(argv, {**names, "W": str(work)}))
    _no_traceback(err)
    assert got == 0, err[-2000:]
    rows = list(csv.reader(io.StringIO(stdout), delimiter=delimiter))
    assert rows[0][0] == first, stdout[:500]
    assert len(rows) > 1 and {len(r) for r in rows} == {len(rows[0])}, stdout[:2000]
    assert not any(line.startswith("#") for line in stdout.splitlines()), stdout[:2000]


def test_errors_dash_is_json_lines(names, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    got, stdout, err = run(monkeypatch, capsys, argv_of(f"{ORANGE} --errors -", names))
    _no_traceback(err)
    assert got == 0, err[-2000:]
    records = [json.loads(line) for line in stdout.splitlines()]
    assert records and all(r["metric"] == "chrf" for r in records)
    assert "Method\tORANGE" in err


def test_without_dash_the_table_stays_on_stdout(names, tmp_path, monkeypatch, capsys):
    """The rule is only for ``-``: a run writing files prints its table on standard output,
    and the next command of the same process too (the claim ends with its command)."""
    work = _workdir(tmp_path, monkeypatch)
    got, stdout, _ = run(monkeypatch, capsys, argv_of(f"{RANK} --json -", names))
    assert got == 0 and json.loads(stdout)["kind"] == "rank"
    got, stdout, err = run(monkeypatch, capsys, argv_of(f"{RANK} --json {{W}}/r.json",
                                                        {**names, "W": str(work)}))  # fmt: skip
    assert got == 0 and "Rank\tSystem\tCluster" in stdout and f"wrote {work}/r.json" in err


# --------------------------------------------------------------------------------------------
# (d) data --copy onto a file
@pytest.mark.parametrize("where", ["file", "under-a-file"])
def test_data_copy_onto_a_file(tmp_path, monkeypatch, capsys, where):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_bytes(OLD)
    dest = tmp_path / "notes.txt" if where == "file" else tmp_path / "notes.txt" / "data"
    before = snapshot(tmp_path)
    got, stdout, err = run(monkeypatch, capsys, ["data", "--copy", str(dest)])
    message = ("is a file; expected a folder (new or existing)" if where == "file"
               else "cannot make the folder")  # fmt: skip
    _refused(tmp_path, before, got, stdout, err, f"{dest}: {message}")
    assert len(err.strip().splitlines()) == 1, err
