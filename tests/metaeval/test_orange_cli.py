"""``mtpalette orange`` end to end on the bundled WMT21 TED zh-en data (13 systems, references
``ref`` and ``refB``): the printed table, the written files, and agreement with the library."""

from __future__ import annotations

import csv
import itertools
import json
import subprocess
import sys

import pytest
from real_data import mqm_ted
from typer.testing import CliRunner

from mtpalette.cli.app import app
from mtpalette.errors import UserInputError
from mtpalette.io.nbest import write_moses_nbest
from mtpalette.metaeval.candidates import CandidateLists, compare_candidates
from mtpalette.metaeval.orange import evaluate
from mtpalette.metrics import parse_specs

ZHEN = mqm_ted("zhen")["root"]
REFS = [str(ZHEN / "ref.txt"), str(ZHEN / "refB.txt")]
NOT_SYSTEMS = ["source.txt", "seg_ids.txt", "*.gz"]


def _run(args):
    result = CliRunner().invoke(app, ["orange", *args], catch_exceptions=True)
    return result


def test_systems_dir_end_to_end(tmp_path, ted_zhen):
    out = tmp_path / "run"
    result = _run(
        [
            "--refs",
            *REFS,
            "--systems-dir",
            str(ZHEN),
            "--exclude",
            *NOT_SYSTEMS,
            "-m",
            "bleus:1..4",
            "bleu",
            "--bootstrap",
            "200",
            "--seed",
            "3",
            "--curve-step",
            "4",
            "--out-dir",
            str(out),
            "--quiet",
        ]
    )
    assert result.exit_code == 0, result.output
    for word in ("Method", "ORANGE", "Avg Rank", "95%-CI-L", "bleus:3", "best", "seed:3"):
        assert word in result.output
    assert {p.name for p in out.iterdir()} == {
        "run.json",
        "table.csv",
        "curve.csv",
        "curve.png",
        "errors.jsonl",
    }
    run = json.loads((out / "run.json").read_text())
    rows = run["results"]["table"]["rows"]
    assert [r["metric"] for r in rows] == ["bleus:1", "bleus:2", "bleus:3", "bleus:4", "bleu"]
    assert run["inputs"]["candidates"]["systems"] == sorted(ted_zhen[0])
    assert run["seeds"] == {"bootstrap": 3} and run["settings"]["oracle"] == "leave-one-out"
    assert all("orange:leave-one-out|refs:2|ties:mid" in r["signature"] for r in rows)
    assert sum(r["best"] for r in rows) == 1

    # the same numbers from the library
    systems, refs = ted_zhen
    lists = CandidateLists.from_systems({n: systems[n] for n in sorted(systems)}, refs)
    comps = compare_candidates(lists, parse_specs(["bleus:1..4", "bleu"]))
    table = evaluate(comps, n_resamples=200, seed=3)
    for mine, lib in zip(rows, table.rows, strict=True):
        assert mine["orange"] == lib.orange.value and mine["avg_rank_low"] == lib.avg_rank.low
        assert mine["equivalent_to_best"] == lib.equivalent

    with open(out / "table.csv") as fh:
        table_rows = list(csv.DictReader(fh))
    assert float(table_rows[3]["orange"]) == pytest.approx(rows[3]["orange"])
    with open(out / "curve.csv") as fh:
        curve = list(csv.DictReader(fh))
    assert [int(r["cutoff"]) for r in curve if r["metric"] == "bleu"] == [1, 5, 9, 13]
    last = [r for r in curve if r["metric"] == "bleus:2"][-1]
    assert float(last["orange"]) == pytest.approx(rows[1]["orange"])
    errors = [json.loads(x) for x in (out / "errors.jsonl").read_text().splitlines()]
    assert {e["metric"] for e in errors} == {r["metric"] for r in rows}
    first = errors[0]
    assert first["n_comparisons"] == 2 and len(first["references"]) == 2
    assert all(c["beats"] >= 1 and c["origin"] in systems for c in first["candidates"])
    for e in errors:  # most beaten references first, then best score first
        keys = [(-c["beats"], -c["score"]) for c in e["candidates"]]
        assert keys == sorted(keys)
    assert any(len({c["beats"] for c in e["candidates"]}) == 2 for e in errors)


def test_nbest_with_varying_lengths_matches_library(tmp_path, ted_zhen):
    # an n-best file pooled from the real systems: segment s gets the first 3 + s % 7 systems,
    # segment 4 gets none; ids are written out of order
    systems, refs = ted_zhen
    names = sorted(systems)
    S = 30
    ids, hyps = [], []
    for s in reversed(range(S)):
        if s == 4:
            continue
        for n in names[: 3 + s % 7]:
            ids.append(s)
            hyps.append(systems[n][s])
    nbest = tmp_path / "pool.nbest"
    write_moses_nbest(nbest, ids, hyps)
    ref_files = []
    for k, ref in enumerate(refs):
        p = tmp_path / f"ref{k}.txt"
        p.write_text("\n".join(ref[:S]) + "\n", encoding="utf-8")
        ref_files.append(str(p))
    result = _run(
        [
            "--refs",
            *ref_files,
            "--nbest",
            str(nbest),
            "-m",
            "bleus:4",
            "--oracle",
            "average-score",
            "--ties",
            "pessimistic",
            "--bootstrap",
            "100",
            "--json",
            str(tmp_path / "r.json"),
            "--quiet",
        ]
    )
    assert result.exit_code == 0, result.output
    run = json.loads((tmp_path / "r.json").read_text())
    table = run["results"]["table"]
    assert table["n_segments"] == S - 1 and table["n_skipped"] == 1
    assert table["n_candidates"] == {
        "min": 3,
        "max": 9,
        "mean": pytest.approx(sum(3 + s % 7 for s in range(S) if s != 4) / (S - 1)),
    }
    row = table["rows"][0]
    assert "orange:average-score" in row["signature"] and "ties:pessimistic" in row["signature"]
    lists = CandidateLists(
        [systems[n][s] for s in range(S) if s != 4 for n in names[: 3 + s % 7]],
        [0, *itertools.accumulate(0 if s == 4 else 3 + s % 7 for s in range(S))],
        [r[:S] for r in refs],
    )
    comps = compare_candidates(lists, parse_specs(["bleus:4"]), oracle="average-score")
    lib = evaluate(comps, ties="pessimistic", n_resamples=100, seed=12345).rows[0]
    assert row["orange"] == lib.orange.value and row["avg_rank_high"] == lib.avg_rank.high


def test_one_reference_is_refused_with_exit_code_2():
    cmd = [
        sys.executable,
        "-c",
        "from mtpalette.cli.app import main; main()",
        "orange",
        "--refs",
        REFS[0],
        "--systems",
        str(ZHEN / "SMU.txt"),
        str(ZHEN / "NiuTrans.txt"),
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert "ORANGE needs at least 2 references" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_candidates_must_be_given_once():
    result = _run(["--refs", *REFS, "--nbest", "x.nbest", "--systems", str(ZHEN / "SMU.txt")])
    assert isinstance(result.exception, UserInputError)
    assert "give the candidates once" in str(result.exception)


def test_bad_options_are_user_errors():
    base = ["--refs", *REFS, "--systems", str(ZHEN / "SMU.txt"), str(ZHEN / "MiSS.txt")]
    for extra, message in (
        (["--ties", "median"], "unknown tie policy"),
        (["--oracle", "best"], "unknown oracle"),
        (["-m", "nosuchmetric"], "unknown metric"),
    ):
        result = _run([*base, *extra])
        assert isinstance(result.exception, UserInputError), result.output
        assert message in str(result.exception)


def test_systems_dir_leaves_out_what_is_not_a_system(tmp_path):
    """The bundled folder holds a source, segment ids and judgments beside the 13 systems:
    once they became candidates (15 systems, ORANGE 57.06% instead of 65.21%)."""
    out = tmp_path / "run.json"
    result = _run(["--refs", *REFS, "--systems-dir", str(ZHEN), "-m", "bleus:4",
                   "--bootstrap", "0", "--json", str(out)])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "65.21" in result.output and "13 candidates per list" in result.output
    assert len(json.loads(out.read_text())["inputs"]["candidates"]["systems"]) == 13
    for name in (
        "source.txt (not a system output by its name)",
        "seg_ids.txt",
        "ref.txt (an input of this run)",
        "mqm_ted_zhen.tsv.gz (9916 lines, not 529)",  # gzip'd text, read as any text
    ):
        assert name in result.output  # fmt: skip
    # a copy of a system with a line missing is named with its line count
    folder = tmp_path / "outs"
    folder.mkdir()
    for name in ("SMU.txt", "MiSS.txt"):
        (folder / name).write_text((ZHEN / name).read_text(encoding="utf-8"), encoding="utf-8")
    lines = (ZHEN / "NiuTrans.txt").read_text(encoding="utf-8").split("\n")
    (folder / "cut.txt").write_text("\n".join(lines[1:]), encoding="utf-8")
    result = _run(["--refs", *REFS, "--systems-dir", str(folder), "-m", "bleus:4",
                   "--bootstrap", "0"])  # fmt: skip
    assert result.exit_code == 0 and "cut.txt (528 lines, not 529)" in result.output
