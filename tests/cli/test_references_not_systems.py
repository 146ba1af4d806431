"""References are not systems: the same reference twice is refused (once: nrefs:2, and an
ORANGE of 18.67 % for every metric), and a copy of a reference among the systems is left out
with a note (once: scored as a system with BLEU 100, or ranked as a candidate against itself)."""

from __future__ import annotations

import shutil
import sys

import pytest

from mtpalette.cli.app import main
from mtpalette.io.judgments import bundled_mqm_ted

ZHEN = bundled_mqm_ted("zhen")
REF_A, REF_B = ZHEN["refs"]
SYSTEMS = ZHEN["systems"][:3]


def run(monkeypatch, capsys, *args):
    monkeypatch.setattr(sys, "argv", ["mtpalette", *map(str, args)])
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code or 0
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("command", ["score", "orange"])
def test_the_same_reference_twice_is_refused(monkeypatch, capsys, tmp_path, command):
    copy = tmp_path / "copy.txt"
    shutil.copy(REF_A, copy)
    flag = "-i" if command == "score" else "-s"
    for refs in ([REF_A, REF_A], [REF_A, copy]):
        code, _, err = run(monkeypatch, capsys, command, "-r", *refs, flag, *SYSTEMS)
        assert code == 2 and "hold the same text" in err, err


def test_the_same_reference_column_twice_is_refused(monkeypatch, capsys, tmp_path):
    table = tmp_path / "t.tsv"
    table.write_text("hyp\tref\nthe cat\tthe cat sat\n", encoding="utf-8")
    code, _, err = run(monkeypatch, capsys, "score", "--table", table, "--ref-col", "ref", "ref")
    assert code == 2 and "'ref' given twice" in err


def test_a_copy_of_a_reference_is_not_a_system(monkeypatch, capsys, tmp_path):
    folder = tmp_path / "outputs"
    folder.mkdir()
    for p in SYSTEMS:
        shutil.copy(p, folder / p.name)
    shutil.copy(REF_B, folder / "human.txt")  # reference B, under another name
    code, out, err = run(
        monkeypatch, capsys, "score", "-r", REF_A, REF_B, "--systems-dir", folder, "-m", "bleu"
    )
    assert code == 0, err
    assert "left out, a copy of a reference: human (= " in err and "human" not in out
    code, out, err = run(
        monkeypatch, capsys, "orange", "-r", REF_A, REF_B, "--systems-dir", folder, "-m", "bleu",
        "--bootstrap", "0",
    )  # fmt: skip
    assert code == 0, err
    assert "left out, a copy of a reference: human" in err and "3-3 candidates" in out
