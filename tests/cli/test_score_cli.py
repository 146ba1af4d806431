"""``mtpalette score``: outputs equal the Python API in every format, inputs from files,
stdin and tables, atomic ``-o``, and every kind of bad input gives a one-line message naming
the file and line, exit code 2 and no traceback."""

import io
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from real_data import mqm_ted

from mtpalette import corpus_score, sentence_scores
from mtpalette.cli.app import main

SPECS = ["bleu", "chrf", "wer", "bleus:1..2"]
EXPANDED = ["bleu", "chrf", "wer", "bleus:1", "bleus:2"]


def run(monkeypatch, capsys, *args, stdin=None):
    """Run the real entry point (``main``) in-process; returns (exit code, stdout, stderr)."""
    monkeypatch.setattr(sys, "argv", ["mtpalette", *map(str, args)])
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    code = 0
    try:
        main()
    except SystemExit as exc:
        code = exc.code or 0
    out = capsys.readouterr()
    return code, out.out, out.err


def _write(path, lines):
    path.write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    return path


@pytest.fixture
def files(tmp_path, ted_zhen):
    systems, (ref_a, ref_b) = ted_zhen
    hyps = systems["Online-W"]
    paths = {
        "hyp": _write(tmp_path / "hyp.txt", hyps),
        "refA": _write(tmp_path / "refA.txt", ref_a),
        "refB": _write(tmp_path / "refB.txt", ref_b),
    }
    return paths, hyps, [ref_a, ref_b]


def test_corpus_json_equals_api(monkeypatch, capsys, files):
    paths, hyps, refs = files
    args = ["score", "-i", paths["hyp"], "-f", "json"]
    code, out, err = run(
        monkeypatch, capsys, *args, "-r", paths["refA"], paths["refB"], "-m", *SPECS
    )
    assert code == 0 and err == ""
    rows = json.loads(out)
    api = corpus_score(hyps, refs, SPECS)
    assert [r["metric"] for r in rows] == EXPANDED
    assert [r["score"] for r in rows] == [s.value for s in api]  # exact: full precision
    assert [r["signature"] for r in rows] == [str(s.signature) for s in api]
    assert [r["higher_is_better"] for r in rows] == [True, True, False, True, True]
    assert set(rows[0]) == {"metric", "spec", "score", "higher_is_better", "signature", "details"}
    assert rows[0]["details"] == api[0].details and rows[2]["details"] == api[2].details
    assert set(rows[0]["details"]) == {"precisions", "bp", "ratio", "hyp_len", "ref_len"}
    # the flag repeated gives the same run
    repeated = ["-r", paths["refA"], "-r", paths["refB"], *(x for s in SPECS for x in ("-m", s))]
    assert run(monkeypatch, capsys, *args, *repeated)[1] == out


def test_corpus_text_is_an_aligned_table(monkeypatch, capsys, files):
    paths, hyps, refs = files
    code, out, _ = run(
        monkeypatch, capsys, "score", "-i", paths["hyp"], "-r", paths["refA"], "-m", *SPECS
    )
    assert code == 0
    table, block = out.split("\n\n")
    header, *lines = table.splitlines()
    assert header.split() == ["metric", "score", "better"]
    api = corpus_score(hyps, refs[:1], SPECS)
    for line, score in zip(lines, api, strict=True):
        metric, value, better = line.split()
        assert (metric, value) == (score.metric, f"{score.value:.4f}")
        assert better == ("higher" if score.higher_is_better else "lower")
    # each distinct signature once; the two BLEU-S share a line
    block = block.splitlines()
    assert block[0] == "signatures:" and len(block) == 1 + 4
    assert "  bleus:1, bleus:2|" + str(api[3].signature).split("|", 1)[1] in block
    assert f"  {api[0].signature}" in block
    _, full, _ = run(
        monkeypatch,
        capsys,
        *["score", "-i", paths["hyp"], "-r", paths["refA"], "-m", *SPECS, "--signatures"],
    )
    assert full.split("\n\n")[1].splitlines()[1:] == [f"  {s.signature}" for s in api]
    code, out, _ = run(
        monkeypatch, capsys, "score", "-i", paths["hyp"], "-r", paths["refA"], "-w", "1"
    )
    assert out.splitlines()[1].split()[1] == f"{api[0].value:.1f}"


def test_corpus_tsv_at_full_precision(monkeypatch, capsys, files):
    paths, hyps, refs = files
    code, out, _ = run(
        monkeypatch,
        capsys,
        *["score", "-i", paths["hyp"], "-r", paths["refA"], paths["refB"]],
        *["-m", *SPECS, "-f", "tsv", "--lowercase", "--tokenize", "intl"],
    )
    assert code == 0
    header, *rows = [line.split("\t") for line in out.splitlines()]
    assert header == ["metric", "spec", "score", "higher_is_better", "signature", "details"]
    api = corpus_score(hyps, refs, SPECS, lowercase=True, tokenize="intl")
    assert [float(r[2]) for r in rows] == [s.value for s in api]
    assert all("|case:lc|" in r[4] for r in rows) and "|tok:intl|" in rows[0][4]


def test_sentence_tsv_from_stdin(monkeypatch, capsys, files):
    paths, hyps, refs = files
    code, out, err = run(
        monkeypatch,
        capsys,
        *["score", "-r", paths["refA"], "-m", "bleus:4", "wer", "--sentence", "-f", "tsv"],
        stdin="".join(h + "\n" for h in hyps),
    )
    assert code == 0
    header, *rows = [line.split("\t") for line in out.splitlines()]
    assert header == ["segment", "bleus:4", "wer"] and len(rows) == len(hyps)
    api = sentence_scores(hyps, refs[:1], ["bleus:4", "wer"])
    assert [int(r[0]) for r in rows] == list(range(1, len(hyps) + 1))
    np.testing.assert_array_equal([float(r[1]) for r in rows], api["bleus:4"])
    np.testing.assert_array_equal([float(r[2]) for r in rows], api["wer"])
    # the numbers stay machine-readable; the signatures go to stderr
    assert [line.split("|")[0] for line in err.splitlines()] == ["# bleus:4", "# wer"]


def test_sentence_json_lines_and_text(monkeypatch, capsys, files):
    paths, hyps, refs = files
    base = ["score", "-i", paths["hyp"], "-r", paths["refA"], paths["refB"], "--sentence"]
    code, out, _ = run(monkeypatch, capsys, *base, "-m", "chrf", "rouge-l", "-f", "jsonl")
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert (
        json.loads(run(monkeypatch, capsys, *base, "-m", "chrf", "rouge-l", "-f", "json")[1])[::-1]
        == records[::-1]
    )  # json: one document of the same records
    api = sentence_scores(hyps, refs, ["chrf", "rouge-l"])
    assert len(records) == len(hyps) and set(records[0]) == {"segment", "chrf", "rouge-l"}
    assert [r["segment"] for r in records] == list(range(1, len(hyps) + 1))
    np.testing.assert_array_equal([r["chrf"] for r in records], api["chrf"])
    np.testing.assert_array_equal([r["rouge-l"] for r in records], api["rouge-l"])

    code, out, err = run(monkeypatch, capsys, *base, "-m", "chrf", "rouge-l")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split() == ["segment", "chrf", "rouge-l"]
    for i in (0, 17, len(hyps) - 1):
        assert lines[i + 1].split() == [
            str(i + 1),
            f"{api['chrf'][i]:.4f}",
            f"{api['rouge-l'][i]:.4f}",
        ]
    assert lines[len(hyps) + 1] == "" and lines[-1].startswith("  rouge-l|nrefs:2|")
    _, out, _ = run(monkeypatch, capsys, *base, "-m", "chrf", "-w", "2")
    assert out.splitlines()[1].split() == ["1", f"{api['chrf'][0]:.2f}"]


def test_table_inputs_equal_plain_files(monkeypatch, capsys, files, tmp_path):
    paths, hyps, (ref_a, ref_b) = files
    tsv = tmp_path / "d.tsv"
    tsv.write_text(
        "id\tmt\tref1\tref2\n"
        + "".join(
            f"{i}\t{h}\t{a}\t{b}\n"
            for i, (h, a, b) in enumerate(zip(hyps, ref_a, ref_b, strict=True))
        ),
        encoding="utf-8",
    )
    jsonl = tmp_path / "d.data"
    jsonl.write_text(
        "".join(
            json.dumps({"hyp": h, "ref": [a, b]}, ensure_ascii=False) + "\n"
            for h, a, b in zip(hyps, ref_a, ref_b, strict=True)
        ),
        encoding="utf-8",
    )
    common = ["-m", *SPECS, "-f", "tsv"]
    plain = run(
        monkeypatch,
        capsys,
        *["score", "-i", paths["hyp"], "-r", paths["refA"], paths["refB"], *common],
    )
    from_tsv = run(
        monkeypatch,
        capsys,
        *["score", "--table", tsv, "--hyp-col", "mt", "--ref-col", "ref1", "ref2", *common],
    )
    from_jsonl = run(
        monkeypatch, capsys, "score", "--table", jsonl, "--table-format", "jsonl", *common
    )
    assert plain[0] == from_tsv[0] == from_jsonl[0] == 0
    assert from_tsv[1] == plain[1] and from_jsonl[1] == plain[1]


def test_jsonl_with_a_variable_number_of_references(monkeypatch, capsys, files, tmp_path):
    paths, hyps, (ref_a, ref_b) = files
    jsonl = tmp_path / "v.jsonl"
    jsonl.write_text(
        "".join(
            json.dumps({"hyp": h, "ref": a if i % 2 else [a, b]}, ensure_ascii=False) + "\n"
            for i, (h, a, b) in enumerate(zip(hyps, ref_a, ref_b, strict=True))
        ),
        encoding="utf-8",
    )
    code, out, _ = run(monkeypatch, capsys, "score", "--table", jsonl, "-m", "bleu", "-f", "json")
    assert code == 0
    holes = [None if i % 2 else b for i, b in enumerate(ref_b)]
    assert json.loads(out)[0]["score"] == corpus_score(hyps, [ref_a, holes], ["bleu"])[0].value


def test_output_file_is_written_atomically(monkeypatch, capsys, files, tmp_path):
    paths, _, _ = files
    target = tmp_path / "out" / "scores.json"
    target.parent.mkdir()
    args = ["score", "-r", paths["refA"], "-i", paths["hyp"], "-f", "json"]
    _, stdout_text, _ = run(monkeypatch, capsys, *args)
    code, out, _ = run(monkeypatch, capsys, *args, "-o", target)
    assert code == 0 and out == "" and target.read_text(encoding="utf-8") == stdout_text
    assert os.listdir(target.parent) == ["scores.json"]
    # a failing run leaves the previous file untouched and no temporary file behind
    code, _, err = run(monkeypatch, capsys, *args, "-m", "nosuch", "-o", target)
    assert code == 2 and "unknown metric 'nosuch'" in err
    assert target.read_text(encoding="utf-8") == stdout_text
    assert os.listdir(target.parent) == ["scores.json"]


def _bad_inputs(tmp_path, paths):
    def make(name, content):
        path = tmp_path / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
        return path

    short = make("short.txt", "one line\n")
    bad_utf8 = make("bad.txt", b"fine\nbad \xff byte\n")
    empty = make("empty.txt", "")
    tsv = make("t.tsv", "hyp\tref\na\tb\nonly-one-field\n")
    header_only = make("h.tsv", "hyp\tref\n")
    jsonl = make("t.jsonl", '{"hyp": "a", "ref": "b"}\n{"hyp": "a"\n')
    nofield = make("n.jsonl", '{"hyp": "a", "ref": "b"}\n{"hyp": "a"}\n')
    hyp, ref = paths["hyp"], paths["refA"]
    out_dir = tmp_path / "existing-dir"
    out_dir.mkdir()
    return [
        (["-r", short, "-i", hyp], f"{short}:2: has 1 line but the hypotheses ({hyp}) have 529"),
        (["-r", ref, "-i", bad_utf8], f"{bad_utf8}:2: invalid UTF-8 (byte 0xff at byte 5"),
        (["-r", ref, "-i", empty], f"{empty}: the file is empty"),
        (["-r", tmp_path / "missing.txt", "-i", hyp], f"{tmp_path}/missing.txt: file not found"),
        (["-r", tmp_path, "-i", hyp], f"{tmp_path}: is a directory"),
        (["-r", ref, "-i", "-", "-r", "-"], "standard input ('-') can be read only once"),
        (["--table", tsv], f"{tsv}:3: expected 2 tab-separated fields as in the header, found 1"),
        (["--table", tsv, "--hyp-col", "mt"], f"{tsv}:1: no column 'mt'; the header has: hyp, ref"),
        (["--table", header_only], f"{header_only}:1: the table has a header but no rows"),
        (["--table", jsonl], f"{jsonl}:2: invalid JSON"),
        (["--table", nofield], f"{nofield}:2: no field 'ref'; this object has: hyp"),
        (["--table", tsv, "-r", ref], "give either --table or -r/--refs files, not both"),
        (["--table", tsv, "-i", hyp], "give either --table or -i/--input, not both"),
        (["-r", ref, "-i", hyp, "--ref-col", "x"], "--ref-col and --hyp-col need --table"),
        (
            ["-r", ref, "-i", hyp, "-m", "blue"],
            "unknown metric 'blue'; known metrics: blanc, bleu, ",
        ),
        (["-r", ref, "-i", hyp, "-m", "bleus:x"], "bad value 'x' for 'n' in 'bleus:x'"),
        (["-r", ref, "-i", hyp, "-m", "bleu:nosuch=1"], "metric 'bleu' has no option 'nosuch'"),
        (["-r", ref, "-i", hyp, "--tokenize", "moses"], "unknown tokenizer 'moses'; known"),
        (["-r", ref, "-i", hyp, "-o", tmp_path / "no" / "o.txt"], "output folder does not exist"),
        (["-r", ref, "-i", hyp, "-o", out_dir], f"{out_dir}: is a folder; expected a file name"),
        (["-i", hyp], "no references: give -r REF [REF ...] or --table FILE"),
    ]


def test_bad_input_matrix(monkeypatch, capsys, files, tmp_path):
    paths, _, _ = files
    before = set(os.listdir(tmp_path))
    cases = _bad_inputs(tmp_path, paths)
    for args, message in cases:
        code, out, err = run(monkeypatch, capsys, "score", *args)
        assert code == 2, (args, err)
        assert err.startswith("mtpalette: error: ") and message in err, (message, err)
        assert err.count("\n") == 1 and "Traceback" not in err and out == ""
    assert not (tmp_path / "no").exists()
    assert os.listdir(tmp_path / "existing-dir") == []
    created = set(os.listdir(tmp_path)) - before
    assert all(not name.startswith(".") for name in created)  # no temporary files left


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores file permissions")
def test_unwritable_and_unreadable(monkeypatch, capsys, files, tmp_path):
    paths, _, _ = files
    locked = tmp_path / "locked"
    locked.mkdir()
    os.chmod(locked, 0o500)
    secret = _write(tmp_path / "secret.txt", ["x"])
    os.chmod(secret, 0o000)
    try:
        base = ["score", "-r", paths["refA"], "-i", paths["hyp"]]
        code, _, err = run(monkeypatch, capsys, *base, "-o", locked / "o.txt")
        assert code == 2 and "cannot write the output here" in err
        assert os.listdir(locked) == []
        code, _, err = run(monkeypatch, capsys, "score", "-r", secret, "-i", paths["hyp"])
        assert code == 2 and f"{secret}: permission denied" in err
    finally:
        os.chmod(locked, 0o700)
        os.chmod(secret, 0o600)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--no-such-option"], "No such option"),
        (["-f", "xml"], "'xml' is not one of"),
        (["-w", "-1"], "--width"),
        (["--table-format", "xlsx"], "'xlsx' is not one of"),
    ],
)
def test_usage_errors_exit_2(monkeypatch, capsys, files, args, message):
    paths, _, _ = files
    code, out, err = run(monkeypatch, capsys, "score", "-r", paths["refA"], *args)
    assert code == 2 and message in err and out == ""


@pytest.mark.parametrize(
    "entry", [["-c", "from mtpalette.cli.app import main; main()"], ["-m", "mtpalette"]]
)
def test_installed_entry_point(files, tmp_path, entry):
    """The console script (and ``python -m mtpalette``) as users run it: bad input is one
    line on stderr and exit 2; a good run pipes through stdin."""
    paths, hyps, refs = files
    command = [sys.executable, *entry, "score"]
    bad = subprocess.run(
        [*command, "-r", paths["refA"], "-i", tmp_path / "missing.txt"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr == f"mtpalette: error: {tmp_path}/missing.txt: file not found\n"
    good = subprocess.run(
        [*command, "-r", paths["refA"], "-m", "bleu", "-f", "json"],
        input=paths["hyp"].read_text(encoding="utf-8"),
        capture_output=True,
        text=True,
        check=False,
    )
    assert good.returncode == 0, good.stderr
    assert json.loads(good.stdout)[0]["score"] == corpus_score(hyps, refs[:1], "bleu")[0].value


@pytest.fixture
def three_systems(tmp_path, ted_zhen):
    systems, (ref_a, ref_b) = ted_zhen
    names = ["SMU", "Online-W", "MiSS"]
    folder = tmp_path / "systems"
    folder.mkdir()
    paths = [_write(folder / f"wmt21.{name}.txt", systems[name]) for name in names]
    refs = [_write(tmp_path / "refA.txt", ref_a), _write(tmp_path / "refB.txt", ref_b)]
    return paths, refs, {name: systems[name] for name in names}, [ref_a, ref_b]


def test_several_systems_and_paired_bootstrap_equal_the_api(monkeypatch, capsys, three_systems):
    from mtpalette import paired_test

    paths, refs, systems, ref_texts = three_systems
    args = ["score", "-i", *paths, "-r", *refs, "-m", "bleu", "ter", "--paired-bs", "-f", "json"]
    code, out, _ = run(monkeypatch, capsys, *args, "--paired-bs-n", "200")
    assert code == 0
    rows = json.loads(out)
    api = paired_test(systems, ref_texts, ["bleu", "ter"], n_trials=200)
    assert [(r["system"], r["metric"]) for r in rows] == [
        (s, m) for s in systems for m in ("bleu", "ter")
    ]
    expected = api.rows()
    for row, want in zip(rows, expected, strict=True):
        for key in ("score", "mean", "ci_low", "ci_high", "p_value", "significant", "baseline"):
            assert row[key] == want[key], key
    assert rows[0]["baseline"] and rows[0]["p_value"] is None
    assert "|bs:200|seed:12345|" in rows[0]["signature"]
    # the text table: one row per system, the baseline marked, a star on significant cells
    code, out, _ = run(monkeypatch, capsys, *args[:-2], "--baseline", "MiSS", "-m", "bleu")
    table = out.split("\n\n")[0].splitlines()
    assert [line.split()[0] for line in table] == ["system", "SMU", "Online-W", "MiSS"]
    assert table[3].endswith("baseline") and "p=0.0010*" in table[1]


def test_systems_dir_leaves_out_the_other_inputs(monkeypatch, capsys, three_systems):
    paths, refs, systems, ref_texts = three_systems
    folder = paths[0].parent
    _write(folder / "source.txt", ["x"] * len(ref_texts[0]))
    _write(folder / "ids.txt", [str(i) for i in range(len(ref_texts[0]))])
    code, out, err = run(
        monkeypatch, capsys, "score", "--systems-dir", folder, "-r", *refs, "-f", "tsv"
    )
    assert code == 0 and "systems: 3 from" in err and "source.txt" in err
    rows = [line.split("\t") for line in out.splitlines()[1:]]
    assert sorted(r[0] for r in rows) == sorted(systems)
    api = corpus_score(systems["SMU"], ref_texts, ["bleu"])[0].value
    assert float(next(r for r in rows if r[0] == "SMU")[3]) == api


def test_several_systems_sentence_rows_and_bad_combinations(monkeypatch, capsys, three_systems):
    paths, refs, systems, ref_texts = three_systems
    base = ["score", "-i", *paths[:2], "-r", refs[0]]
    code, out, _ = run(monkeypatch, capsys, *base, "-m", "wer", "--sentence", "-f", "tsv")
    rows = [line.split("\t") for line in out.splitlines()]
    n = len(ref_texts[0])
    assert code == 0 and rows[0] == ["system", "segment", "wer"] and len(rows) == 1 + 2 * n
    assert rows[n + 1][:2] == ["Online-W", "1"]
    api = sentence_scores(systems["Online-W"], ref_texts[:1], ["wer"])["wer"]
    assert [float(r[2]) for r in rows[n + 1 :]] == api.tolist()
    short = _write(paths[0].parent / "short.txt", ["a"])
    for args, message in [
        ([*base, "--paired-bs", "--paired-ar"], "give either --paired-bs or --paired-ar"),
        (["score", "-i", paths[0], "-r", refs[0], "--paired-bs"], "a paired test needs a baseline"),
        (
            [*base, "--paired-bs", "--baseline", "nosuch"],
            "baseline 'nosuch' is not one of the systems",
        ),
        ([*base, "--confidence", "--sentence"], "drop --sentence"),
        ([*base, "--baseline", "SMU"], "--baseline names the system of a paired test"),
        (
            ["score", "-i", *paths[:2], short, "-r", refs[0]],
            f"{short}:2: has 1 line but the first system ({paths[0]}) has 529",
        ),
        ([*base, short], f"{short}:2: has 1 line but the hypotheses ({paths[0]}) have 529"),
        ([*base, "--systems-dir", paths[0].parent], "either -i/--input files or --systems-dir"),
    ]:
        code, out, err = run(monkeypatch, capsys, *args)
        assert code == 2 and message in err and out == "", (message, err)


#: packages `mtpalette score` must not import: other commands' (a shared help string once
#: pulled in scipy.stats: +0.7 s), rich (typer's help only), regex (the intl tokenizer only),
#: hashlib (run files and caches: 5 ms of OpenSSL)
SCORE_FORBIDDEN = (
    "scipy", "sklearn", "pandas", "pyarrow", "matplotlib", "jinja2", "dask", "distributed",
    "threadpoolctl", "rich", "regex", "hashlib",
)  # fmt: skip
#: the package's modules it must not import: meta-evaluation, statistics, the HTML report,
#: training, the judgment and mt-metrics-eval readers, run files, the paired tests (imported
#: when a test is asked for); the run's own description (api/score_run.ScoreRun) is its door
SCORE_FORBIDDEN_OWN = (
    "mtpalette.metaeval", "mtpalette.stats", "mtpalette.reporting", "mtpalette.train",
    "mtpalette.models", "mtpalette.io.judgments", "mtpalette.io.mtme_files",
    "mtpalette.io.runfile", "mtpalette.sources.folders", "mtpalette.io.wmt25",
    "mtpalette.text.paragraphs", "mtpalette.api.paired",
)  # fmt: skip
#: the metric modules every scoring run imports (the families are imported when named)
METRIC_MACHINERY = {"base", "domains", "registry", "scoring"}
#: the project's example data (invented; src/mtpalette/data/example/README.md)
BUNDLED_ZHEN = os.path.join(os.path.dirname(__file__), "../../src/mtpalette/data/example/mqm/zhen")


def _modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``code`` (which may end by
    SystemExit)."""
    wrapped = (
        "import sys\ntry:\n" + "".join(f"    {line}\n" for line in code.splitlines())
        + "except SystemExit:\n    pass\nfinally:\n"
        "    print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )  # fmt: skip
    out = subprocess.run([sys.executable, "-c", wrapped], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    return set(out.stderr.split())


def _forbidden(modules: set[str]) -> list[str]:
    return sorted(
        m
        for m in modules
        if m.split(".")[0] in SCORE_FORBIDDEN or m.startswith(SCORE_FORBIDDEN_OWN)
    )


def test_score_imports_no_meta_evaluation_at_start():
    """`mtpalette score` stays light: importing the command loads no other command's
    packages, no meta-evaluation or statistics module and no metric family."""
    modules = _modules_after("import mtpalette.cli.score")
    assert _forbidden(modules) == []
    metrics = {m.split(".")[2] for m in modules if m.startswith("mtpalette.metrics.")}
    assert metrics <= METRIC_MACHINERY


@pytest.mark.parametrize(
    "specs, families",
    [(["rouge-l", "--sentence"], {"rouge"}), (["bleu", "chrf"], {"bleu", "chrf"})],
)
def test_score_run_imports_only_its_metrics(specs, families):
    """A whole run, files read, scored and printed, imports the named metric families only
    (no registry of every metric) and nothing of :data:`SCORE_FORBIDDEN`."""
    ref, hyp = (os.path.join(BUNDLED_ZHEN, name) for name in ("ref.txt", "Aurora.txt"))
    argv = ["mtpalette", "score", "-r", ref, "-i", hyp, "-m", *specs]
    modules = _modules_after(f"from mtpalette.cli.app import main\nsys.argv = {argv!r}\nmain()")
    assert _forbidden(modules) == []
    metrics = {m.split(".")[2] for m in modules if m.startswith("mtpalette.metrics.")}
    assert metrics == METRIC_MACHINERY | families


def test_help_imports_no_command_and_no_numpy():
    """`mtpalette --help` lists the commands without importing any of them, nor numpy."""
    modules = _modules_after(
        "from mtpalette.cli.app import main\nsys.argv = ['mtpalette', '--help']\nmain()"
    )
    own = {m for m in modules if m.startswith("mtpalette")}
    assert own == {
        "mtpalette", "mtpalette._version", "mtpalette.api", "mtpalette.cli",
        "mtpalette.cli.app", "mtpalette.cli.pipes", "mtpalette.errors", "mtpalette.exports",
    }  # fmt: skip
    assert "numpy" not in modules and "rich" not in modules


@pytest.mark.parametrize("given, expected", [(None, "20"), ("28", "28")])
def test_main_shortens_the_blas_threads_spin_unless_set(given, expected):
    """The command line sets OpenBLAS's idle spin to 2^20 cycles before numpy is imported,
    keeping a value the user set (the threads' number, and so the results, do not change)."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_THREAD_TIMEOUT"}
    if given is not None:
        env["OPENBLAS_THREAD_TIMEOUT"] = given
    code = (
        "import os, sys\nfrom mtpalette.cli.app import main\nsys.argv = ['mtpalette', '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(os.environ['OPENBLAS_THREAD_TIMEOUT'], 'numpy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.stdout.split()[-2:] == [expected, "False"]


def test_table_with_one_column_per_system(monkeypatch, capsys, three_systems, tmp_path):
    paths, refs, systems, (ref_a, ref_b) = three_systems
    names = list(systems)
    tsv = tmp_path / "wide.tsv"
    rows = zip(*(systems[n] for n in names), ref_a, ref_b, strict=True)
    tsv.write_text(
        "\t".join([*names, "ref1", "ref2"]) + "\n" + "".join("\t".join(r) + "\n" for r in rows),
        encoding="utf-8",
    )
    common = ["-m", "bleu", "chrf", "-f", "tsv", "--paired-bs", "--paired-bs-n", "100"]
    wide = run(
        monkeypatch,
        capsys,
        *["score", "--table", tsv, "--hyp-col", *names, "--ref-col", "ref1", "ref2", *common],
    )
    files = run(monkeypatch, capsys, "score", "-i", *paths, "-r", *refs, *common)
    assert wide[0] == files[0] == 0 and wide[1] == files[1]  # names: the file stems, the columns
    code, _, err = run(
        monkeypatch, capsys, "score", "--table", tsv, "--hyp-col", names[0], names[0]
    )
    assert code == 2 and "given twice" in err


def test_latex_table_of_a_paired_test(monkeypatch, capsys, three_systems):
    from mtpalette import paired_test

    paths, refs, systems, ref_texts = three_systems
    args = ["score", "-i", *paths, "-r", *refs, "-m", "bleu", "ter", "--paired-bs", "-f", "latex"]
    code, out, _ = run(monkeypatch, capsys, *args)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "\\begin{tabular}{lrr}" and lines[-1] == "\\end{tabular}"
    assert lines[2] == "System & bleu $\\uparrow$ & ter $\\downarrow$ \\\\"
    api = paired_test(systems, ref_texts, ["bleu", "ter"])
    rows = lines[4:-2]
    assert rows[0].startswith("\\textit{SMU} & ")
    for s, row in enumerate(rows):
        cells = row.removesuffix(" \\\\").split(" & ")[1:]
        for m, cell in enumerate(cells):
            assert cell.startswith(f"{api.score[s, m]:.4f} $\\pm$ {api.ci[s, m]:.4f}")
            assert cell.endswith("$^*$") == bool(api.significant[s, m])
    code, _, err = run(monkeypatch, capsys, *args[:-4], "--sentence", "-f", "latex")
    assert code == 2 and "drop --sentence" in err


def test_mt_metrics_eval_folder(monkeypatch, capsys, tmp_path, ted_zhen):
    """``score --mtme DIR --lp zh-en``: every system output of an mt-metrics-eval folder but
    the reference itself, against ``references/zh-en.refA.txt``."""
    systems, (ref_a, _) = ted_zhen
    root = tmp_path / "wmt21"
    for sub in ("references", "sources", "system-outputs/zh-en"):
        (root / sub).mkdir(parents=True)
    _write(root / "sources" / "zh-en.txt", ref_a)  # MTME reads a source; its text unused here
    _write(root / "references" / "zh-en.refA.txt", ref_a)
    _write(root / "system-outputs" / "zh-en" / "refA.txt", ref_a)
    for name in ("SMU", "MiSS"):
        _write(root / "system-outputs" / "zh-en" / f"{name}.txt", systems[name])
    code, out, _ = run(
        monkeypatch, capsys, "score", "--mtme", root, "--lp", "zh-en", "-m", "bleu", "-f", "json"
    )
    assert code == 0
    rows = json.loads(out)
    assert [r["system"] for r in rows] == ["MiSS", "SMU"]
    for r in rows:
        assert r["score"] == corpus_score(systems[r["system"]], [ref_a], "bleu")[0].value
    code, _, err = run(monkeypatch, capsys, "score", "--mtme", root, "-m", "bleu")
    assert code == 2 and "--lp" in err
    code, _, err = run(
        monkeypatch, capsys, "score", "--mtme", root, "--lp", "zh-en", "--mtme-ref", "refB"
    )
    assert code == 2 and "refB" in err and "refA" in err  # the references there are listed


def test_long_table_gives_one_row_per_system(monkeypatch, capsys, tmp_path):
    """A long table (one row per system and segment, the layout pandas users keep) scores
    each system as its own file would; once its system column was ignored and every system
    pooled into one score, exit 0."""
    import pandas as pd

    zhen = mqm_ted("zhen")
    ref = zhen["refs"][0].read_text(encoding="utf-8").split("\n")[:40]
    names = [p.stem for p in zhen["systems"][:3]]
    hyps = {p.stem: p.read_text(encoding="utf-8").split("\n")[:40] for p in zhen["systems"][:3]}
    rows = [
        {"system": n, "segment": i + 1, "hyp": hyps[n][i], "ref": ref[i]}
        for i in reversed(range(40))  # any order: segments are matched by id
        for n in names
    ]
    long = tmp_path / "long.jsonl"
    pd.DataFrame(rows).to_json(long, orient="records", lines=True, force_ascii=False)
    (tmp_path / "ref.txt").write_text("\n".join(ref) + "\n", encoding="utf-8")
    files = []
    for n in names:
        files.append(tmp_path / f"{n}.txt")
        files[-1].write_text("\n".join(hyps[n]) + "\n", encoding="utf-8")
    code, by_table, err = run(monkeypatch, capsys, "score", "--table", long, "-m", "bleu", "chrf")
    assert code == 0, err
    code, by_files, err = run(
        monkeypatch, capsys, "score", "-r", tmp_path / "ref.txt", "-i", *files, "-m", "bleu", "chrf"
    )
    assert code == 0, err
    assert by_table == by_files
    code, _, err = run(monkeypatch, capsys, "score", "--table", long, "--hyp-col", "hyp", "ref")
    assert code == 2 and "system column" in err
