"""References are not systems: the same reference twice is refused (once: nrefs:2, and an
ORANGE of 18.67 % for every metric), and a copy of a reference among the systems is left out
with a note (once: scored as a system with BLEU 100, or ranked as a candidate against itself)."""

from __future__ import annotations

import shutil

import pytest
from real_data import mqm_ted

ZHEN = mqm_ted("zhen")
REF_A, REF_B = ZHEN["refs"]
SYSTEMS = ZHEN["systems"][:3]


@pytest.mark.parametrize("command", ["score", "orange"])
def test_the_same_reference_twice_is_refused(cli, tmp_path, command):
    copy = tmp_path / "copy.txt"
    shutil.copy(REF_A, copy)
    flag = "-i" if command == "score" else "-s"
    for refs in ([REF_A, REF_A], [REF_A, copy]):
        code, _, err = cli(command, "-r", *refs, flag, *SYSTEMS)
        assert code == 2 and "hold the same text" in err, err


def test_the_same_reference_column_twice_is_refused(cli, tmp_path):
    table = tmp_path / "t.tsv"
    table.write_text("hyp\tref\nthe cat\tthe cat sat\n", encoding="utf-8")
    code, _, err = cli("score", "--table", table, "--ref-col", "ref", "ref")
    assert code == 2 and "'ref' given twice" in err


def test_a_copy_of_a_reference_is_not_a_system(cli, tmp_path):
    folder = tmp_path / "outputs"
    folder.mkdir()
    for p in SYSTEMS:
        shutil.copy(p, folder / p.name)
    shutil.copy(REF_B, folder / "human.txt")  # reference B, under another name
    code, out, err = cli("score", "-r", REF_A, REF_B, "--systems-dir", folder, "-m", "bleu")
    assert code == 0, err
    assert "left out, a copy of a reference: human (= " in err and "human" not in out
    code, out, err = cli(
        "orange", "-r", REF_A, REF_B, "--systems-dir", folder, "-m", "bleu",
        "--bootstrap", "0",
    )  # fmt: skip
    assert code == 0, err
    assert "left out, a copy of a reference: human" in err and "3 candidates per list" in out
