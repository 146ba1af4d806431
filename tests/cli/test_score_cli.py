"""``mtpalette score``: outputs, and every kind of bad input gives a clear message and exit 2."""

import json
import os
import sys

import pytest

from mtpalette import corpus_score
from mtpalette.cli.app import main


def run(monkeypatch, capsys, *args, stdin=None):
    monkeypatch.setattr(sys, "argv", ["mtpalette", *map(str, args)])
    if stdin is not None:
        import io

        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    code = 0
    try:
        main()
    except SystemExit as exc:
        code = exc.code or 0
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def files(tmp_path, ted_zhen):
    systems, (ref_a, ref_b) = ted_zhen
    paths = {}
    for name, lines in {"hyp": systems["Online-W"], "refA": ref_a, "refB": ref_b}.items():
        paths[name] = tmp_path / f"{name}.txt"
        paths[name].write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    return paths, systems["Online-W"], [ref_a, ref_b]


def test_corpus_json_equals_api(monkeypatch, capsys, files):
    paths, hyps, refs = files
    code, out, _ = run(
        monkeypatch,
        capsys,
        "score",
        "-r",
        paths["refA"],
        paths["refB"],
        "-i",
        paths["hyp"],
        "-m",
        "bleu",
        "chrf",
        "-f",
        "json",
    )
    assert code == 0
    rows = json.loads(out)
    api = corpus_score(hyps, refs, ["bleu", "chrf"])
    assert [r["score"] for r in rows] == [s.value for s in api]
    assert rows[0]["signature"].startswith("bleu|nrefs:2|")


def test_sentence_tsv_from_stdin(monkeypatch, capsys, files):
    paths, hyps, _ = files
    text = "".join(h + "\n" for h in hyps)
    code, out, _ = run(
        monkeypatch,
        capsys,
        "score",
        "-r",
        paths["refA"],
        "-m",
        "bleus:4",
        "--sentence",
        "-f",
        "tsv",
        stdin=text,
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "segment\tbleus:4" and len(lines) == len(hyps) + 1


def test_table_inputs(monkeypatch, capsys, tmp_path):
    tsv = tmp_path / "d.tsv"
    tsv.write_text("mt\tref1\tref2\na b c\ta b c\ta b d\n", encoding="utf-8")
    code, out, _ = run(
        monkeypatch,
        capsys,
        "score",
        "--table",
        tsv,
        "--hyp-col",
        "mt",
        "--ref-col",
        "ref1",
        "ref2",
        "-m",
        "rouge-l",
        "-f",
        "tsv",
    )
    assert code == 0 and out.startswith("rouge-l\t1.000000\trouge-l|nrefs:2")
    jsonl = tmp_path / "d.jsonl"
    jsonl.write_text('{"hyp": "a b", "ref": "a c"}\n', encoding="utf-8")
    code, out, _ = run(monkeypatch, capsys, "score", "--table", jsonl, "-m", "wer", "-f", "tsv")
    assert code == 0 and out.startswith("wer\t0.500000")


def test_output_file_is_written_atomically(monkeypatch, capsys, files, tmp_path):
    paths, _, _ = files
    target = tmp_path / "out.json"
    code, out, _ = run(
        monkeypatch,
        capsys,
        "score",
        "-r",
        paths["refA"],
        "-i",
        paths["hyp"],
        "-f",
        "json",
        "-o",
        target,
    )
    assert code == 0 and out == "" and json.loads(target.read_text())[0]["metric"] == "bleu"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def _bad_inputs(tmp_path, paths):
    short = tmp_path / "short.txt"
    short.write_text("one line\n", encoding="utf-8")
    bad_utf8 = tmp_path / "bad.txt"
    bad_utf8.write_bytes(b"fine\nbad \xff byte\n")
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    tsv = tmp_path / "t.tsv"
    tsv.write_text("hyp\tref\na\tb\nonly-one-field\n", encoding="utf-8")
    jsonl = tmp_path / "t.jsonl"
    jsonl.write_text('{"hyp": "a", "ref": "b"}\n{"hyp": "a"\n', encoding="utf-8")
    nofield = tmp_path / "n.jsonl"
    nofield.write_text('{"hyp": "a", "ref": "b"}\n{"hyp": "a"}\n', encoding="utf-8")
    ro = tmp_path / "readonly"
    ro.mkdir()
    os.chmod(ro, 0o500)
    hyp, ref = paths["hyp"], paths["refA"]
    return [
        (["-r", short, "-i", hyp], f"{short}: has 1 lines but the hypotheses"),
        (["-r", ref, "-i", bad_utf8], f"{bad_utf8}:2: invalid UTF-8"),
        (["-r", ref, "-i", empty], f"{empty}: the file is empty"),
        (["-r", tmp_path / "missing.txt", "-i", hyp], "missing.txt: file not found"),
        (["-r", tmp_path, "-i", hyp], "is a directory"),
        (["--table", tsv], f"{tsv}:3: expected 2 tab-separated fields"),
        (["--table", tsv, "--hyp-col", "mt"], f"{tsv}:1: no column 'mt'; the header has: hyp, ref"),
        (["--table", jsonl], f"{jsonl}:2: invalid JSON"),
        (["--table", nofield], f"{nofield}:2: no field 'ref'"),
        (["-r", ref, "-i", hyp, "-m", "blue"], "unknown metric 'blue'; known metrics: bleu"),
        (["-r", ref, "-i", hyp, "-m", "bleus:x"], "bad value 'x' for 'n'"),
        (["-r", ref, "-i", hyp, "--tokenize", "moses"], "unknown tokenizer 'moses'"),
        (["-r", ref, "-i", hyp, "-o", ro / "out.txt"], "cannot write the output here"),
        (["-i", hyp], "no references"),
    ]


def test_bad_input_matrix(monkeypatch, capsys, files, tmp_path):
    paths, _, _ = files
    if os.geteuid() == 0:  # root ignores directory permissions: test it another way
        pytest.skip("running as root: permission errors cannot be provoked")
    for args, message in _bad_inputs(tmp_path, paths):
        code, out, err = run(monkeypatch, capsys, "score", *args)
        assert code == 2, (args, err)
        assert message in err, (message, err)
        assert "Traceback" not in err and out == ""


def test_bad_input_matrix_as_root(monkeypatch, capsys, files, tmp_path):
    paths, _, _ = files
    cases = [c for c in _bad_inputs(tmp_path, paths) if "cannot write" not in c[1]]
    cases.append(
        (
            ["-r", paths["refA"], "-i", paths["hyp"], "-o", tmp_path / "no" / "o.txt"],
            "the output folder does not exist",
        )
    )
    for args, message in cases:
        code, out, err = run(monkeypatch, capsys, "score", *args)
        assert code == 2, (args, err)
        assert message in err, (message, err)
        assert "Traceback" not in err and out == ""
    assert not (tmp_path / "no").exists()


def test_usage_error_exit_code(monkeypatch, capsys):
    code, _, err = run(monkeypatch, capsys, "score", "--no-such-option")
    assert code == 2 and "No such option" in err
