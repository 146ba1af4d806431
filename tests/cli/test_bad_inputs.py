"""Bad input across the commands: one clear line naming the file and the line, exit code 2,
and no output left behind (``score`` has its own, longer matrix in test_score_cli.py)."""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

import pytest

from mtpalette.cli.app import main

ROOT = Path(str(resources.files("mtpalette") / "data" / "mqm_ted" / "zhen"))


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


def make_cases(tmp: Path):
    def write(name: str, content) -> Path:
        p = tmp / name
        p.write_bytes(content if isinstance(content, bytes) else content.encode())
        return p

    r1, r2 = (
        _head(ROOT / "ref.txt", tmp / "r1.txt", 60),
        _head(ROOT / "refB.txt", tmp / "r2.txt", 60),
    )
    s1 = _head(ROOT / "SMU.txt", tmp / "s1.txt", 60)
    short = _head(ROOT / "MiSS.txt", tmp / "short.txt", 59)
    nb = write("nb.txt", "0 ||| a b\n1 a c\n")
    nbu = write("nbu.txt", b"0 ||| a b\n1 ||| a \xff c\n")
    head = "system\tsegment\tscore\n"
    j_nan = write("j_nan.tsv", head + "s1\t1\tnan\n")
    j_dup = write("j_dup.tsv", head + "s1\t1\t0.5\ns1\t1\t0.7\n")
    j_missing = write("j_missing.tsv", head + "s1\t1\t\n")
    sc_dup = write("sc.tsv", head + "s1\t1\t0.5\ns1\t1\t0.5\n")
    j_const = write("j_const.tsv", head + "".join(f"s1\t{i}\t1.0\n" for i in range(1, 61)))
    j_null = write("j_null.jsonl", '{"system": "s1", "segment": 1, "score": 1}\n'
                   '{"system": null, "segment": 2, "score": 0.5}\n')  # fmt: skip
    j_huge = write("j_huge.jsonl", '{"system": "s1", "segment": 1, "score": 1' + "0" * 400 + "}\n")
    refs = ["--refs", r1, r2]
    out = tmp / "out"
    return [
        (
            ["orange", *refs, "--systems", s1, short, "--out-dir", out],
            f"{short}:60: has 59 lines but system 's1' has 60",
            out,
        ),
        (["orange", *refs, "--nbest", nb, "--out-dir", out], f"{nb}:2: no '|||' separator", out),
        (["orange", *refs, "--nbest", nbu, "--out-dir", out], f"{nbu}:2: invalid UTF-8", out),
        (
            ["orange", *refs, "--systems", s1, "-m", "nosuch", "--out-dir", out],
            "unknown metric 'nosuch'",
            out,
        ),
        (
            ["orange", *refs, "--systems", s1, "--json", tmp / "nodir" / "run.json"],
            "the output folder does not exist",
            tmp / "nodir",
        ),
        (
            ["orange", *refs, "--systems", s1, "--scores", f"x={sc_dup}", "--out-dir", out],
            f"{sc_dup}:3: duplicate score for system 's1', segment 1",
            out,
        ),
        (
            ["correlate", "--judgments", j_nan, "--refs", r1, "--systems", s1, "--out-dir", out],
            f"{j_nan}:2: score is 'nan'; expected a finite number",
            out,
        ),
        (
            [
                "correlate",
                "--judgments",
                j_missing,
                "--refs",
                r1,
                "--systems",
                s1,
                "--out-dir",
                out,
            ],
            f"{j_missing}:2: missing score",
            out,
        ),
        (
            ["correlate", "--judgments", j_dup, "--refs", r1, "--systems", s1, "--out-dir", out],
            f"{j_dup}:3: duplicate judgment of system 's1' segment 1 (first on line 2)",
            out,
        ),
        (["audit", *refs, "--nbest", nb], f"{nb}:2: no '|||' separator", None),
        (
            [
                "train-blanc",
                "--judgments",
                j_dup,
                "--refs",
                r1,
                "--systems",
                s1,
                "-o",
                out / "b.json",
            ],
            f"{j_dup}:3: duplicate judgment",
            out,
        ),
        (["report", tmp / "r1.txt", "-o", out / "x.html"], "r1.txt:1: not valid JSON", out),
        # once tracebacks: constant human scores, impossible training settings
        (
            [
                "train-blanc",
                "--judgments",
                j_const,
                "--refs",
                r1,
                "--systems",
                s1,
                "-o",
                out / "b.json",
            ],
            "the human scores are all equal",
            out,
        ),
        (
            ["agree", "--judgments", j_const, "--refs", r1, r2, "--systems", s1],
            "the human scores are all equal",
            None,
        ),
        (
            [
                "train-blanc",
                "--judgments",
                j_const,
                "--refs",
                r1,
                "--systems",
                s1,
                "--restarts",
                "0",
                "-o",
                out / "b.json",
            ],
            "--restarts and --max-evals must be at least 1",
            out,
        ),
        (
            [
                "train-rose",
                "--judgments",
                j_const,
                "--refs",
                r1,
                "--systems",
                s1,
                "--C",
                "-1",
                "-o",
                out / "r.json",
            ],
            "--C must be a positive number",
            out,
        ),
        # once a system "None", silently dropped
        (
            ["correlate", "--judgments", j_null, "--refs", r1, "--systems", s1, "--out-dir", out],
            f'{j_null}:2: "system" is null; expected a non-empty string',
            out,
        ),
        (  # once an OverflowError traceback
            ["correlate", "--judgments", j_huge, "--refs", r1, "--systems", s1, "--out-dir", out],
            f"{j_huge}:1: score is 100000000000...(401 characters); expected a finite number",
            out,
        ),
        # once tracebacks (negative seeds) or a "95% CI" from one resample
        (
            ["orange", *refs, "--systems", s1, "--seed", "-1", "--out-dir", out],
            "--seed must be between 0 and 2**63 - 1",
            out,
        ),
        (["audit", *refs, "--nbest", nb, "--seed", "-5"], "--seed must be between 0", None),
        (
            ["correlate", "--judgments", j_dup, "--refs", r1, "--systems", s1, "--bootstrap", "1"],
            "--bootstrap 1 is too few for a 95% interval",
            None,
        ),
        (
            [
                "train-blanc",
                "--judgments",
                j_dup,
                "--refs",
                r1,
                "--systems",
                s1,
                "--seed",
                "-1",
                "-o",
                out / "b.json",
            ],
            "--seed must be between 0",
            out,
        ),
    ]


def test_bad_input_matrix(tmp_path, monkeypatch, capsys):
    for args, message, leftover in make_cases(tmp_path):
        code, err = run(monkeypatch, capsys, *args)
        assert code == 2, (args, err)
        assert err.startswith("mtpalette: error: ") and message in err, (message, err)
        assert "Traceback" not in err and err.count("\n") == 1, err
        if leftover is not None:
            assert not leftover.exists(), f"{leftover} left behind by {args[0]}"


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
