"""The writers' registry: every format written atomically and read back; ``-`` is standard
output; a new format is one writer."""

from __future__ import annotations

import csv
import json
import os

import numpy as np
import pytest

from mtpalette.io import inputs, writers
from mtpalette.io.writers import WRITERS, render, write

ROWS = [
    {"metric": "bleu", "score": 30.25, "ok": True, "note": None},
    {"metric": "chrF2 ü", "score": float("nan"), "ok": False, "note": "a,b"},
]


def test_the_formats_of_the_issue_are_registered():
    assert {"text", "json", "jsonl", "tsv", "csv", "latex", "parquet"} <= set(WRITERS)


def test_every_text_format_reads_back(tmp_path):
    write("json", {"rows": ROWS}, tmp_path / "t.json")
    assert json.loads((tmp_path / "t.json").read_text())["rows"][1]["score"] is None
    assert write("jsonl", ROWS, tmp_path / "t.jsonl") == 2
    lines = (tmp_path / "t.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(x)["metric"] for x in lines] == ["bleu", "chrF2 ü"]
    write("csv", ROWS, tmp_path / "t.csv")
    with open(tmp_path / "t.csv", newline="", encoding="utf-8") as fh:
        got = list(csv.DictReader(fh))
    assert got[1] == {"metric": "chrF2 ü", "score": "", "ok": "False", "note": "a,b"}
    write("tsv", ROWS, tmp_path / "t.tsv", digits=1)
    cells = [x.split("\t") for x in (tmp_path / "t.tsv").read_text().splitlines()]
    assert cells == [["metric", "score", "ok", "note"], ["bleu", "30.2", "true", ""],
                     ["chrF2 ü", "nan", "false", "a,b"]]  # fmt: skip
    write("text", "as it is\n", tmp_path / "t.txt")
    assert (tmp_path / "t.txt").read_text() == "as it is\n"


def test_latex_takes_text_or_objects_that_render_themselves(tmp_path):
    class Table:
        def to_latex(self) -> str:
            return "\\begin{tabular}{l}\\end{tabular}"

    assert render("latex", [Table(), Table()]).count("\n") == 1
    write("latex", Table(), tmp_path / "t.tex")
    assert (tmp_path / "t.tex").read_text() == Table().to_latex()


def test_binary_formats_read_back(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    write("parquet", [{"a": 1, "b": "x"}, {"a": 2, "b": "y"}], tmp_path / "t.parquet")
    assert pq.read_table(tmp_path / "t.parquet").to_pylist() == [{"a": 1, "b": "x"},
                                                                 {"a": 2, "b": "y"}]  # fmt: skip
    write("npz", {"m": np.eye(2)}, tmp_path / "t.npz")
    with np.load(tmp_path / "t.npz") as z:
        assert np.array_equal(z["m"], np.eye(2))
    write("bytes", b"\x89PNG", tmp_path / "t.png")
    assert (tmp_path / "t.png").read_bytes() == b"\x89PNG"
    with pytest.raises(ValueError, match="binary"):
        render("npz", {"m": np.eye(2)})


def test_a_failing_writer_leaves_the_old_file(tmp_path):
    p = tmp_path / "t.json"
    p.write_text("old\n")
    with pytest.raises(TypeError):
        write("jsonl", [{"a": 1}, object()], p, plain=True)  # the second record fails
    assert p.read_text() == "old\n"
    assert os.listdir(tmp_path) == ["t.json"]


def test_dash_is_standard_output_which_then_holds_the_document(capsys):
    with inputs.tracking():
        write("json", {"a": 1}, "-", indent=None)
        assert inputs.stdout_claimed()
    assert capsys.readouterr().out == '{"a": 1}\n'


def test_an_unknown_format_names_the_known_ones(tmp_path):
    with pytest.raises(ValueError, match="unknown output format 'xml'; expected one of text"):
        write("xml", ROWS, tmp_path / "t.xml")


def test_a_new_format_is_one_writer(tmp_path, monkeypatch):
    """A format registered here is written by ``write``, and ``mtpalette score`` prints it
    once :data:`~mtpalette.cli.render.FORMATS` names it: nothing else changes."""
    from mtpalette.cli import render as score_render

    monkeypatch.setattr(writers, "WRITERS", dict(WRITERS))

    @writers.writer("md")
    def _markdown(rows, fh):
        keys = list(rows[0])
        fh.write("| " + " | ".join(keys) + " |\n")
        fh.writelines("| " + " | ".join(str(r[k]) for k in keys) + " |\n" for r in rows)

    write("md", ROWS[:1], tmp_path / "t.md")
    assert (tmp_path / "t.md").read_text().splitlines()[1] == "| bleu | 30.25 | True | None |"
    monkeypatch.setattr(score_render, "FORMATS", (*score_render.FORMATS, "md"))
    records = [{"metric": "bleu", "score": 30.25, "higher_is_better": True}]
    report = score_render.records_report(records, "md", signatures={})
    assert report == "| metric | score | higher_is_better |\n| bleu | 30.25 | True |\n"
