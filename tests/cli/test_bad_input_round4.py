"""The round-4 bad-input matrix (issue 40), part 1: outputs that never destroy what they touch.

(a) every file output of every command written to a symbolic link (its target replaced, the
link kept), a named pipe (streamed), a folder (refused), ``-`` (standard output), a read-only
folder and a full disk (refused, the old file as it was, nothing half-written); every
``--out-dir`` complete or absent, a previous run's folder kept whole when a run fails; a full
standard output one line. (b) stored scores never replaced without ``--overwrite`` (or
``overwrite=True``) and names that would lead out of their folder refused. (c) chunk files
that prove their content: a damaged or foreign chunk recomputed with one line naming it, the
manifest written only by the run that holds the lock.

Every case runs the command in process and asserts its exit code, that there is no traceback,
that the message names the file or the argument, and what became of every file of its folder
(:func:`~bad_input_files.snapshot`: a failing case changes nothing). Part 2 (the values of
inputs, the Python API, degenerate statistics and warnings) is test_bad_input_round4_values.py.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import sys
import threading
from pathlib import Path

import pytest
from bad_input_files import (
    FAST,
    NO_TEST,
    SYS4,
    FullStdout,
    argv_of,
    full_disk,
    make_inputs,
    orange_run_file,
    read_only,
    run,
    snapshot,
)

from mtpalette.errors import UserInputError


@pytest.fixture(scope="module")
def names(tmp_path_factory) -> dict[str, str]:
    d = tmp_path_factory.mktemp("inputs")
    files = make_inputs(d)
    files["run"] = orange_run_file(d, files)
    return files


def _no_traceback(err: str) -> None:
    assert "Traceback" not in err and 'File "' not in err, err[-2000:]


# --------------------------------------------------------------------------------------------
# (a) file outputs: (id, command line with {OUT}, what the output holds; None: binary)
CORR = f"correlate -j {{j}} -r {{r1}} {SYS4} -m chrf {NO_TEST}"
ORANGE = f"orange -r {{r1}} {{r2}} {SYS4} -m chrf {FAST}"
RANK = "rank -r {r1} -s {s1} {s2} {s3} -m chrf"
BLANC = f"train-blanc -j {{j}} -r {{r1}} {SYS4} --restarts 1 --max-evals 2"
FILE_OUTPUTS = [
    ("score-o", "score -r {r1} -i {s1} -m bleu -o {OUT}", "bleu"),
    ("correlate-json", f"{CORR} --json {{OUT}}", '"kind": "correlate"'),
    ("correlate-csv", f"{CORR} --csv {{OUT}}", "statistic,grouping,level"),
    ("orange-json", f"{ORANGE} --json {{OUT}}", '"kind": "orange"'),
    ("orange-csv", f"{ORANGE} --csv {{OUT}}", "metric,"),
    ("orange-curve-csv", f"{ORANGE} --curve-step 1 --curve-csv {{OUT}}", "cutoff,metric,orange"),
    ("orange-curve-plot", f"{ORANGE} --curve-step 1 --curve-plot {{OUT}}", None),
    ("orange-errors", f"{ORANGE} --errors {{OUT}}", '"metric": "chrf"'),
    ("agree-json", f"agree -j {{j}} -r {{r1}} {{r2}} {SYS4} -m chrf bleu ter {FAST} --json {{OUT}}",
     '"kind": "agree"'),
    ("audit-json", f"audit -j {{j}} -r {{r1}} {{r2}} {SYS4} -m chrf {FAST} --json {{OUT}}",
     '"kind": "audit"'),
    ("rank-json", f"{RANK} --json {{OUT}}", '"kind": "rank"'),
    ("rank-tsv", f"{RANK} --tsv {{OUT}}", "system\t"),
    ("rank-latex", f"{RANK} --latex {{OUT}}", "\\begin{tabular}"),
    ("analyze-json", "analyze -r {r1} -s {s1} {s2} -m chrf --json {OUT}", '"kind": "analyze"'),
    ("analyze-csv", "analyze -r {r1} -s {s1} {s2} -m chrf --csv {OUT}", "analysis,bucket,system"),
    ("wmt-json", "wmt --mtme {mtme} --lp zh-en --mtme-metrics chrF -k 0 --json {OUT}",
     '"average_corrs"'),
    ("mbr-o", "mbr {nb} -m chrf -o {OUT}", "\n"),
    ("mbr-scores", "mbr {nb} -m chrf --scores {OUT}", "segment\tindex\tutility\tcandidate"),
    ("mbr-matrix", "mbr {nb} -m chrf --matrix {OUT}", None),
    ("report-o", "report {run} -o {OUT}", "<html"),
    ("train-blanc-o", f"{BLANC} -o {{OUT}}",
     '"metric": "blanc"'),
    ("train-rose-o", f"train-rose -j {{j}} -r {{r1}} {SYS4} --C 1 -o {{OUT}}", '"metric": "rose"'),
]  # fmt: skip
OLD = b"the previous output, to keep\n"
#: kind: (exit code, what the message says after "OUT: ")
KINDS = {
    "symlink": (0, None),
    "fifo": (0, None),
    "folder": (2, "is a folder; expected a file name"),
    "dash": (0, None),
    "read-only": (2, "cannot write the output: permission denied"),
    "full-disk": (2, "cannot write the output: no space left on the device"),
}


def _file_cases() -> list:
    cases = []
    for name, argv, holds in FILE_OUTPUTS:
        for kind, (code, message) in KINDS.items():
            if kind == "dash" and holds is None:
                continue  # a binary file on standard output: not a case of its own
            cases.append(pytest.param(argv, holds, kind, code, message, id=f"{name}-{kind}"))
    return cases


def _read_fifo(path: Path, got: list[bytes]) -> threading.Thread:
    def read() -> None:
        with open(path, "rb") as fh:
            got.append(fh.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    return reader


@pytest.mark.parametrize(("argv", "holds", "kind", "code", "message"), _file_cases())
def test_file_output(names, tmp_path, monkeypatch, capsys, argv, holds, kind, code, message):
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "sub" / ("out.png" if holds is None else "out.file")  # a figure: by suffix
    out.parent.mkdir()
    got: list[bytes] = []
    reader = None
    if kind == "symlink":
        (tmp_path / "target.file").write_bytes(OLD)
        out.symlink_to(tmp_path / "target.file")
    elif kind == "fifo":
        os.mkfifo(out)
        reader = _read_fifo(out, got)
    elif kind == "folder":
        out.mkdir()
        (out / "inside.txt").write_bytes(OLD)
    elif kind != "dash":
        out.write_bytes(OLD)
    if kind == "read-only":
        read_only(monkeypatch, out.parent)
    if kind == "full-disk":
        full_disk(monkeypatch)
    where = "-" if kind == "dash" else str(out)
    before = snapshot(tmp_path)
    got_code, stdout, err = run(monkeypatch, capsys, argv_of(argv, {**names, "OUT": where}))
    if reader is not None:
        reader.join(timeout=20)
        if reader.is_alive():  # the command never opened the pipe: free the reader
            os.close(os.open(out, os.O_WRONLY | os.O_NONBLOCK))
            reader.join(timeout=20)
    _no_traceback(err)
    assert got_code == code, (got_code, err[-2000:])
    if code == 2:
        assert f"{out}: {message}" in err, err[-2000:]
        assert err.splitlines()[-1].startswith("mtpalette: error: ")
        assert snapshot(tmp_path) == before, "a refused run changed or left a file"
        return
    after = snapshot(tmp_path)
    if kind == "symlink":
        link = str(out.relative_to(tmp_path))
        assert out.is_symlink() and after[link] == before[link]
        written = after["target.file"]
        assert written != OLD and set(after) - set(before) <= {"sub/out.pairs.file"}  # rank
    elif kind == "fifo":
        assert out.is_fifo() and got and got[0]
        written = got[0]
    else:  # dash
        assert not (tmp_path / "-").exists() and not Path("-").exists()
        written = stdout.encode()
    if holds is not None:
        assert holds.encode() in written, written[:500]


def test_dev_stdout_is_written_as_a_stream(names, tmp_path, monkeypatch, capfd):
    """Once replaced by a plain file when run as root (the device link gone)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["mtpalette", *argv_of("score -r {r1} -i {s1}", names),
                                      "-m", "bleu", "-o", "/dev/stdout"])  # fmt: skip
    from mtpalette.cli.app import main

    with pytest.raises(SystemExit) as exit_:
        main()
    assert exit_.value.code in (0, None) and "bleu" in capfd.readouterr().out
    assert Path("/dev/stdout").is_symlink() or not Path("/dev/stdout").is_file()


# --------------------------------------------------------------------------------------------
# (a) --out-dir: complete or absent; a previous complete run kept whole when a run fails
OUT_DIR_COMMANDS = {
    "orange": f"{ORANGE} --curve-step 1 --out-dir {{OUT}}",
    "correlate": f"{CORR} --out-dir {{OUT}}",
    "agree": f"agree -j {{j}} -r {{r1}} {{r2}} {SYS4} -m chrf bleu ter {FAST} --out-dir {{OUT}}",
}
#: kind: (exit code, message, files written before the disk fills up)
OUT_DIR_KINDS = {
    "is-a-file": (2, "--out-dir is a file; expected a folder (new or existing)", None),
    "new-full-disk-first-file": (2, "no space left on the device", 0),
    "new-full-disk-second-file": (2, "no space left on the device", 1),
    "old-full-disk-second-file": (2, "no space left on the device", 1),
    "new-read-only-parent": (2, "permission denied", None),
    "old-replaced": (0, None, None),
    "symlink-to-folder": (0, None, None),
}
OUT_DIR_CASES = [
    pytest.param(argv, kind, *spec, id=f"{command}-{kind}")
    for command, argv in OUT_DIR_COMMANDS.items()
    for kind, spec in OUT_DIR_KINDS.items()
    if not (command == "agree" and kind.endswith("second-file"))  # agree writes one file
]


@pytest.mark.parametrize(("argv", "kind", "code", "message", "after"), OUT_DIR_CASES)
def test_out_dir(names, tmp_path, monkeypatch, capsys, argv, kind, code, message, after):
    monkeypatch.chdir(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    folder = work / "run"
    if kind == "is-a-file":
        folder.write_bytes(OLD)
    elif kind.startswith("old"):
        folder.mkdir()
        (folder / "run.json").write_bytes(OLD)
        (folder / "table.csv").write_bytes(OLD)
        (folder / "notes.txt").write_bytes(OLD)  # the user's own file: kept
    elif kind == "symlink-to-folder":
        (work / "real").mkdir()
        folder.symlink_to(work / "real")
    if after is not None:
        full_disk(monkeypatch, after)
    if kind.endswith("read-only-parent"):
        read_only(monkeypatch, work)
    before = snapshot(tmp_path)
    got, _, err = run(monkeypatch, capsys, argv_of(argv, {**names, "OUT": str(folder)}))
    _no_traceback(err)
    assert got == code, (got, err[-2000:])
    if code == 2:
        assert str(folder) in err and message in err, err[-2000:]
        assert snapshot(tmp_path) == before, "a failed run left its folder half-written"
        return
    real = work / "real" if kind == "symlink-to-folder" else folder
    record = json.loads((real / "run.json").read_text())
    assert record["format"] == "mtpalette-run"
    assert record["outputs"]["run_json"].endswith("run.json")
    assert not [p for p in work.iterdir() if p.name.startswith(".")]  # no stage left
    if kind == "old-replaced":
        assert (folder / "notes.txt").read_bytes() == OLD
    if kind == "symlink-to-folder":
        assert folder.is_symlink()


@pytest.mark.parametrize("argv", [pytest.param(a, id=c) for c, a in OUT_DIR_COMMANDS.items()])
def test_out_dir_dash_is_refused(names, tmp_path, monkeypatch, capsys, argv):
    monkeypatch.chdir(tmp_path)
    got, _, err = run(monkeypatch, capsys, argv_of(argv, {**names, "OUT": "-"}))
    _no_traceback(err)
    assert got == 2 and "--out-dir -: expected a folder, not standard output" in err
    assert list(tmp_path.iterdir()) == []


# (a) standard output on a full disk: one line, exit 2
STDOUT_COMMANDS = {
    "score": "score -r {r1} -i {s1} -m bleu",
    "correlate": CORR,
    "orange": ORANGE,
    "agree": f"agree -j {{j}} -r {{r1}} {{r2}} {SYS4} -m chrf bleu ter {FAST}",
    "audit": f"audit -j {{j}} -r {{r1}} {{r2}} {SYS4} -m chrf {FAST}",
    "rank": RANK,
    "analyze": "analyze -r {r1} -s {s1} {s2} -m chrf",
    "wmt": "wmt --mtme {mtme} --lp zh-en --mtme-metrics chrF -k 0",
    "mbr": "mbr {nb} -m chrf",
}


@pytest.mark.parametrize("argv", [pytest.param(a, id=c) for c, a in STDOUT_COMMANDS.items()])
def test_stdout_on_a_full_disk(names, tmp_path, monkeypatch, capsys, argv):
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdout", FullStdout())
    got, _, err = run(monkeypatch, capsys, argv_of(argv, names))
    _no_traceback(err)
    assert got == 2, err[-2000:]
    assert err.splitlines()[-1] == (
        "mtpalette: error: <stdout>: cannot write the output: no space left on the device"
    )


# --------------------------------------------------------------------------------------------
# (b) stored scores: never replaced without --overwrite; names kept inside their folder
def _stored(tmp: Path) -> dict[str, Path]:
    plain = tmp / "scores"
    plain.mkdir()
    (plain / "chrf.tsv").write_bytes(OLD)
    mtme = tmp / "mtmeout"
    (mtme / "metric-scores" / "zh-en").mkdir(parents=True)
    (mtme / "metric-scores" / "zh-en" / "chrf-r2.seg.score").write_bytes(OLD)
    return {"plain": plain, "mtme": mtme}


EXPORT = "--export-scores {scores}"
STORED_CASES = [  # (id, command line, exit code, message, the stored file replaced)
    ("orange-export", f"{ORANGE} {EXPORT}", 2,
     "{scores}/chrf.tsv: stored scores are there already; add --overwrite to replace them", False),
    ("orange-export-overwrite", f"{ORANGE} {EXPORT} --overwrite", 0, None, True),
    ("correlate-export", f"{CORR} {EXPORT}", 2,
     "{scores}/chrf.tsv: stored scores are there already", False),
    ("correlate-export-overwrite", f"{CORR} {EXPORT} --overwrite", 0, None, True),
    ("orange-export-mtme", f"{ORANGE} --export-scores {{mtmeout}} --export-mtme zh-en", 2,
     "chrf-r2.seg.score: stored scores are there already", False),
    ("orange-export-mtme-overwrite",
     f"{ORANGE} --export-scores {{mtmeout}} --export-mtme zh-en --overwrite", 0, None, True),
    ("orange-export-mtme-lp-dotdot", f"{ORANGE} --export-scores {{mtmeout}} --export-mtme ../..", 2,
     "{mtmeout}: --export-mtme: the language pair '../..' would reach outside the folder", False),
    ("orange-export-mtme-lp-slash", f"{ORANGE} --export-scores {{mtmeout}} --export-mtme zh/en", 2,
     "'zh/en' would reach outside the folder", False),
    ("orange-export-mtme-lp-hidden", f"{ORANGE} --export-scores {{mtmeout}} --export-mtme .zh-en",
     2, "'.zh-en' would reach outside the folder", False),
    ("orange-export-is-a-file", f"{ORANGE} --export-scores {{scores}}/chrf.tsv", 2,
     "{scores}/chrf.tsv: --export-scores is a file; expected a folder", False),
    ("correlate-mtme-lp-dotdot", "correlate --mtme {mtme} --lp ../.. -m chrf", 2,
     "{mtme}: language pair '../..' would reach outside the folder", False),
    ("correlate-mtme-lp-path", "correlate --mtme {mtme} --lp ../sources/zh-en -m chrf", 2,
     "language pair '../sources/zh-en' would reach outside", False),
    ("correlate-mtme-human-dotdot", "correlate --mtme {mtme} --lp zh-en --human ../../x -m chrf", 2,
     "no human scores '../../x' at seg level", False),
    ("score-mtme-ref-dotdot", "score --mtme {mtme} --lp zh-en --mtme-ref ../x -m chrf", 2,
     "no reference '../x' for zh-en", False),
    ("wmt-lp-dotdot", "wmt --mtme {mtme} --lp ../.. -m chrf", 2,
     "language pair '../..' would reach outside the folder", False),
    ("rank-mtme-lp-absolute", "rank --mtme {mtme} --lp /etc", 2,
     "language pair '/etc' would reach outside the folder", False),
]  # fmt: skip


@pytest.mark.parametrize(
    ("argv", "code", "message", "replaced"),
    [pytest.param(a, c, m, r, id=i) for i, a, c, m, r in STORED_CASES],
)
def test_stored_scores_on_the_command_line(
    names, tmp_path, monkeypatch, capsys, argv, code, message, replaced
):
    monkeypatch.chdir(tmp_path)
    stored = _stored(tmp_path)
    where = {**names, "scores": str(stored["plain"]), "mtmeout": str(stored["mtme"])}
    before = snapshot(tmp_path)
    got, _, err = run(monkeypatch, capsys, argv_of(argv, where))
    _no_traceback(err)
    assert got == code, (got, err[-2000:])
    if code == 2:
        assert message.format(**where) in err, err[-2000:]
        assert snapshot(tmp_path) == before
        return
    files = [stored["plain"] / "chrf.tsv",
             stored["mtme"] / "metric-scores" / "zh-en" / "chrf-r2.seg.score"]  # fmt: skip
    assert replaced == any(f.read_bytes() != OLD for f in files)


def _write_mtme(root: Path, **over):
    from mtpalette.io.mtme_write import write_mtme_scores

    seg = {s: [0.5] * 18 for s in ("SMU", "MiSS")}
    args = {"lp": "zh-en", "metric_name": "mine", "scores_by_level": {"seg": seg}, "ref": "refB"}
    return write_mtme_scores(root, **{**args, **over})


API_STORED = [  # (id, arguments replaced, message)
    ("stored-file", {"metric_name": "chrF"},
     "a stored score file is there already; pass overwrite=True"),
    ("lp-dotdot", {"lp": "../.."}, "language pair '../..' would reach outside the folder"),
    ("lp-absolute", {"lp": "/tmp/x"}, "language pair '/tmp/x' would reach outside the folder"),
    ("lp-separator", {"lp": f"zh-en{os.sep}x"}, "would reach outside the folder"),
    ("lp-hidden", {"lp": ".."}, "language pair '..' would reach outside the folder"),
    ("metric-separator", {"metric_name": "a/b"},
     "metric name 'a/b' would reach outside the folder"),
    ("metric-dots", {"metric_name": ".."}, "no white space or dots allowed"),
    ("reference-separator", {"ref": "a/b"}, "reference name 'a/b' would reach outside the folder"),
    ("reference-dotdot", {"ref": ["refA", "../r"]}, "MTME names hold no '-' or '.'"),
    ("system-with-tab", {"scores_by_level": {"sys": {"A\tB": 1.0}}},
     "system name 'A\\tB': expected a name without white space"),
    ("system-with-space", {"scores_by_level": {"sys": {"A B": 1.0}}}, "system name 'A B'"),
    ("short-list", {"scores_by_level": {"seg": {"SMU": [1.0, 2.0]}}},
     "has 2 scores for 18 segments"),
    ("unknown-system", {"scores_by_level": {"seg": {"Nobody": [1.0] * 18}}},
     "Nobody have no output"),
    ("nan-score", {"scores_by_level": {"seg": {"SMU": [float("nan")] * 18}}}, "a NaN score"),
    ("unknown-level", {"scores_by_level": {"para": {"SMU": [1.0]}}}, "unknown level 'para'"),
]  # fmt: skip


@pytest.mark.parametrize(("over", "message"), [pytest.param(o, m, id=i) for i, o, m in API_STORED])
def test_write_mtme_scores_refuses(names, tmp_path, over, message):
    root = tmp_path / "wmt21"
    shutil.copytree(names["mtme"], root)
    before = snapshot(tmp_path)
    with pytest.raises(UserInputError) as info:
        _write_mtme(root, **over)
    assert message in str(info.value), str(info.value)
    assert snapshot(tmp_path) == before


def test_write_mtme_scores_overwrites_when_asked(names, tmp_path):
    root = tmp_path / "wmt21"
    shutil.copytree(names["mtme"], root)
    stored = root / "metric-scores" / "zh-en" / "chrF-refB.seg.score"
    before = stored.read_bytes()
    [path] = _write_mtme(root, metric_name="chrF", overwrite=True)
    assert path == stored and stored.read_bytes() != before


# --------------------------------------------------------------------------------------------
# (c) chunk files: damaged or foreign chunks recomputed with one line; the lock before all
CHUNKED = f"{ORANGE} --chunk-size 4 --csv {{csv}} --run-dir {{rundir}}"


@pytest.fixture(scope="module")
def chunked(names, tmp_path_factory):
    """A complete chunked run (3 chunks of 4 segments) and its table."""
    d = tmp_path_factory.mktemp("chunked")
    mp = pytest.MonkeyPatch()

    class _Cap:  # a capsys of its own: the fixture is module-wide
        def readouterr(self):
            return type("R", (), {"out": "", "err": ""})()

    code, _, _ = run(mp, _Cap(), argv_of(CHUNKED, {**names, "csv": str(d / "t.csv"),
                                                   "rundir": str(d / "run")}))  # fmt: skip
    mp.undo()
    assert code == 0
    return d / "run", (d / "t.csv").read_bytes()


def _flip(path: Path) -> None:
    """Flip the first byte whose flip is seen (some bytes, such as statistics, change nothing
    read: test_chunk_damage.py flips every byte)."""
    from mtpalette.metaeval.chunked import chunk_problem

    original = path.read_bytes()
    for i in range(4, len(original)):
        data = bytearray(original)
        data[i] ^= 0xFF
        path.write_bytes(bytes(data))
        if chunk_problem(path):
            return
    raise AssertionError("no byte of the chunk is checked")


def _cut(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:100])


def _restamp(path: Path, **meta: str) -> None:
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    old = {k.decode(): v.decode() for k, v in (table.schema.metadata or {}).items()}
    pq.write_table(table.replace_schema_metadata({**old, **meta}), path, compression="zstd")


CHUNK_CASES = [  # (id, what is done to the run folder, extra options, exit code, message)
    ("flipped-byte", lambda r: _flip(r / "chunks" / "chunk-00001.parquet"), "--resume", 0,
     "chunks/chunk-00001.parquet is damaged"),
    ("cut-file",
     lambda r: _cut(r / "chunks" / "chunk-00002.parquet"), "--resume", 0,
     "chunk-00002.parquet is damaged (unreadable"),
    ("older-version",
     lambda r: _restamp(r / "chunks" / "chunk-00000.parquet", **{"mtpalette.version": "0.0.1"}),
     "--resume", 0, "chunk-00000.parquet is written by mtpalette 0.0.1, not this version"),
    ("another-runs-chunk",
     lambda r: _restamp(r / "chunks" / "chunk-00001.parquet", **{"mtpalette.manifest": "0" * 64}),
     "--resume", 0, "resuming: 2 of 3 chunks already done"),
    ("new-run-on-a-run", lambda r: None, "", 2,
     "this run directory already holds a run: add --resume"),
    ("resume-another-run", lambda r: None, "--resume -m bleu", 2,
     "--resume: the run directory holds a different run (metric_specs differ)"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("damage", "extra", "code", "message"),
    [pytest.param(d, e, c, m, id=i) for i, d, e, c, m in CHUNK_CASES],
)
def test_chunk_files(names, chunked, tmp_path, monkeypatch, capsys, damage, extra, code, message):
    source, table = chunked
    rundir = tmp_path / "run"
    shutil.copytree(source, rundir)
    damage(rundir)
    manifest = (rundir / "manifest.json").read_bytes()
    before = snapshot(tmp_path)
    where = {**names, "csv": str(tmp_path / "t.csv"), "rundir": str(rundir)}
    got, _, err = run(monkeypatch, capsys, argv_of(f"{CHUNKED} {extra}", where))
    _no_traceback(err)
    assert got == code, (got, err[-2000:])
    assert message in err and (rundir / "manifest.json").read_bytes() == manifest, err[-2000:]
    if code == 2:
        assert snapshot(tmp_path) == before
        return
    assert (tmp_path / "t.csv").read_bytes() == table  # recomputed to the same numbers
    assert sum("is damaged" in line or "is written by" in line for line in err.splitlines()) <= 1


@pytest.mark.parametrize("extra", ["", "--resume"], ids=["new-run", "resume"])
def test_only_the_lock_holder_writes_the_manifest(
    names, chunked, tmp_path, monkeypatch, capsys, extra
):
    """Once the loser of two runs started at once overwrote manifest.json before it was
    refused, and the winner could not resume."""
    rundir = tmp_path / "run"
    shutil.copytree(chunked[0], rundir)
    before = snapshot(tmp_path)
    where = {**names, "csv": str(tmp_path / "t.csv"), "rundir": str(rundir)}
    with open(rundir / ".lock", "a+") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)  # another run holds the folder
        got, _, err = run(monkeypatch, capsys, argv_of(f"{CHUNKED} -m bleu {extra}", where))
    _no_traceback(err)
    assert got == 2 and f"{rundir}: another run is using this folder now" in err
    assert snapshot(tmp_path) == before
