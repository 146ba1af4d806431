"""Bad input across the commands beyond one-case-one-input: backend options, outputs that
would overwrite inputs, a failing run's partial outputs, line endings and encodings. The
one-input cases (once a loop here) are in test_bad_input_matrix.py, one pytest case each."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from real_data import mqm_ted

from mtpalette.cli.app import main

ROOT = mqm_ted("zhen")["root"]


def _head(src: Path, dst: Path, n: int) -> Path:
    dst.write_text("\n".join(src.read_text(encoding="utf-8").split("\n")[:n]) + "\n")
    return dst


def run(monkeypatch, capsys, *args):
    monkeypatch.setattr(sys, "argv", ["mtpalette", *map(str, args)])
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code or 0
    return code, capsys.readouterr().err


@pytest.mark.parametrize("bad", ["--backend nope", "--workers 0", "--scheduler tcp://x:1"])
def test_bad_backend_options(tmp_path, monkeypatch, capsys, bad):
    r1 = _head(ROOT / "ref.txt", tmp_path / "r1.txt", 20)
    r2 = _head(ROOT / "refB.txt", tmp_path / "r2.txt", 20)
    s1 = _head(ROOT / "SMU.txt", tmp_path / "s1.txt", 20)
    code, err = run(
        monkeypatch,
        capsys,
        "orange",
        "--refs",
        r1,
        r2,
        "--systems",
        s1,
        "--run-dir",
        tmp_path / "run",
        *bad.split(),
    )
    assert code == 2 and err.startswith("mtpalette: error: ")


def test_outputs_never_overwrite_inputs(tmp_path, monkeypatch, capsys):
    """Once exit 0 with the input overwritten; now refused by inode, whatever the spelling."""
    r1 = _head(ROOT / "ref.txt", tmp_path / "r1.txt", 30)
    r2 = _head(ROOT / "refB.txt", tmp_path / "r2.txt", 30)
    s1 = _head(ROOT / "SMU.txt", tmp_path / "s1.txt", 30)
    s2 = _head(ROOT / "MiSS.txt", tmp_path / "s2.txt", 30)
    run_json = tmp_path / "run.json"
    orange = ["orange", "--refs", r1, r2, "--systems", s1, s2, "-m", "bleus:4"]
    assert run(monkeypatch, capsys, *orange, "--json", run_json)[0] == 0
    (tmp_path / "link.txt").symlink_to(s1)
    cases = [
        (["score", "-r", r1, "-i", s1, "-o", s1], s1),
        (["score", "-r", r1, "-i", s1, "-o", tmp_path / "." / "r1.txt"], r1),
        (["score", "-r", r1, "-i", tmp_path / "link.txt", "-o", s1], s1),
        ([*orange, "--csv", r2], r2),
        (["report", run_json, "-o", run_json], run_json),
    ]
    for args, victim in cases:
        before = victim.read_bytes()
        code, err = run(monkeypatch, capsys, *args)
        assert code == 2 and "is also an input of this command" in err, (args, err)
        assert victim.read_bytes() == before
    # outside a command (library use) nothing is tracked
    from mtpalette.io.runfile import atomic_writer

    with atomic_writer(s2) as fh:
        fh.write("rewritten\n")
    assert s2.read_text() == "rewritten\n"


def test_a_failing_run_writes_no_output(tmp_path, monkeypatch, capsys):
    """Once exit 2 with table.csv and curve.csv written beside a --json into a missing
    folder: every output folder is now checked before any work."""
    r1 = _head(ROOT / "ref.txt", tmp_path / "r1.txt", 20)
    r2 = _head(ROOT / "refB.txt", tmp_path / "r2.txt", 20)
    s1 = _head(ROOT / "SMU.txt", tmp_path / "s1.txt", 20)
    t, c = tmp_path / "t.csv", tmp_path / "c.csv"
    code, err = run(
        monkeypatch, capsys, "orange", "--refs", r1, r2, "--systems", s1, "--csv", t,
        "--curve-csv", c, "--json", tmp_path / "nodir" / "run.json",
    )  # fmt: skip
    assert code == 2 and "the output folder does not exist" in err
    assert not t.exists() and not c.exists()


def test_line_endings_bom_and_encodings(tmp_path, monkeypatch, capsys):
    """CRLF and a BOM give the scores of the plain file; NUL bytes and Latin-1 are refused
    with the line; a 1-segment input and one system are valid runs."""
    lines = (ROOT / "SMU.txt").read_text(encoding="utf-8").split("\n")[:40]
    ref = _head(ROOT / "ref.txt", tmp_path / "ref.txt", 40)
    plain = tmp_path / "plain.txt"
    plain.write_text("\n".join(lines) + "\n", encoding="utf-8")
    variants = {
        "crlf.txt": ("\r\n".join(lines) + "\r\n").encode(),
        "bom.txt": b"\xef\xbb\xbf" + ("\n".join(lines) + "\n").encode(),
    }
    for name, data in variants.items():
        (tmp_path / name).write_bytes(data)
        code, _ = run(monkeypatch, capsys, "score", "-r", ref, "-i", tmp_path / name,
                      "-m", "bleu", "chrf", "-o", tmp_path / f"{name}.out")  # fmt: skip
        assert code == 0
    run(monkeypatch, capsys, "score", "-r", ref, "-i", plain, "-m", "bleu", "chrf", "-o",
        tmp_path / "plain.out")  # fmt: skip
    for name in variants:
        assert (tmp_path / f"{name}.out").read_text() == (tmp_path / "plain.out").read_text()
    bad = {
        "nul.txt": ("\n".join(lines[:5]) + "\nx\x00y\n" + "\n".join(lines[6:]) + "\n").encode(),
        "latin.txt": ("\n".join(lines[:2]) + "\n").encode()
        + "café\n".encode("latin-1")
        + ("\n".join(lines[3:]) + "\n").encode(),
    }
    for name, data in bad.items():
        (tmp_path / name).write_bytes(data)
        code, err = run(monkeypatch, capsys, "score", "-r", ref, "-i", tmp_path / name)
        line = 6 if name == "nul.txt" else 3
        assert code == 2 and f"{name}:{line}:" in err and "Traceback" not in err, err
    one = _head(ROOT / "SMU.txt", tmp_path / "one.txt", 1)
    one_ref = _head(ROOT / "ref.txt", tmp_path / "one_ref.txt", 1)
    assert run(monkeypatch, capsys, "score", "-r", one_ref, "-i", one, "-m", "ter")[0] == 0
