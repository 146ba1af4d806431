"""Chunked ORANGE: the same numbers on every backend (Dask LocalCluster included), streamed
n-best files, and a run killed with SIGKILL then resumed gives byte-identical results."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from real_data import mqm_ted
from typer.testing import CliRunner

from mtpalette.cli.app import app
from mtpalette.errors import UserInputError
from mtpalette.io.nbest import write_moses_nbest
from mtpalette.metaeval.candidates import CandidateLists, compare_candidates
from mtpalette.metaeval.chunked import (
    combine,
    nbest_chunks,
    nbest_slices,
    run_chunks,
    system_chunks,
)
from mtpalette.metrics import parse_specs
from mtpalette.parallel import Backend, chunk_ranges

ROOT = mqm_ted("zhen")["root"]
SYSTEMS = ("Facebook-AI", "NiuTrans", "Online-W", "SMU", "DIDI-NLP", "MiSS")
SPECS = ["bleus:4", "wer", "rouge-w:1.2"]


def _head(src: Path, dst: Path, n: int) -> Path:
    dst.write_text("\n".join(src.read_text(encoding="utf-8").split("\n")[:n]) + "\n")
    return dst


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("chunked")
    refs = [_head(ROOT / n, tmp / n, 240) for n in ("ref.txt", "refB.txt")]
    systems = [_head(ROOT / f"{s}.txt", tmp / f"{s}.txt", 240) for s in SYSTEMS]
    return refs, systems


def _lists(refs, systems):
    read = lambda p: p.read_text(encoding="utf-8").split("\n")[:240]  # noqa: E731
    return CandidateLists.from_systems(
        {p.stem: read(p) for p in systems},
        [read(r) for r in refs],
        ref_names=[r.name for r in refs],
    )


def _chunked(lists, run_dir, backend):
    metrics = parse_specs(SPECS)
    run_chunks(
        system_chunks(lists, 50),
        run_dir,
        specs=SPECS,
        tokenize="13a",
        lowercase=False,
        oracle="leave-one-out",
        backend=backend,
        stamp="test-run",
    )
    return combine(
        run_dir,
        len(chunk_ranges(lists.n_segments, 50)),
        SPECS,
        [m.higher_is_better for m in metrics],
        n_segments=lists.n_segments,
        oracle="leave-one-out",
        n_refs=2,
        signatures=["", "", ""],
        stamp="test-run",
        chunk_size=50,
        cutoffs_for=lambda longest: np.arange(1, longest + 1),  # every candidate's counts
    )


def test_backends_give_the_same_comparisons(inputs, tmp_path):
    lists = _lists(*inputs)
    whole = compare_candidates(lists, parse_specs(SPECS))
    for name, backend in [
        ("inproc", Backend()),
        ("dask", Backend("dask", workers=2)),  # a LocalCluster on loopback, 2 processes
    ]:
        got = _chunked(lists, tmp_path / name, backend)
        every = np.arange(1, int(lists.n_candidates.max()) + 1)
        for a, b in zip(whole, got, strict=True):
            # the compact form's sums at every cutoff: each candidate's counts, differenced
            assert b.better.size == 0 and b.cutoffs.tolist() == every.tolist()
            for x, y in zip(a.sums_at(every), b.sums_at(every), strict=True):
                np.testing.assert_array_equal(x, y)
            np.testing.assert_array_equal(a.offsets, b.offsets)


def test_streamed_nbest_equals_reading_it_whole(inputs, tmp_path):
    lists = _lists(*inputs)
    # a real-text n-best file: every segment's systems' outputs, some segments left empty
    path = tmp_path / "nbest.txt"
    keep = [s for s in range(lists.n_segments) if s % 7 != 3]
    ids = [s for s in keep for _ in range(int(lists.n_candidates[s]))]
    hyps = [lists.texts[i] for s in keep for i in range(lists.offsets[s], lists.offsets[s + 1])]
    write_moses_nbest(path, ids, hyps)
    chunks = list(nbest_chunks(path, lists.refs, 37))
    assert [c[1] for c in chunks] == [a for a, _ in chunk_ranges(lists.n_segments, 37)]
    texts = [t for _, _, c in chunks for t in c.texts]
    assert texts == hyps
    counts = np.concatenate([c.n_candidates for _, _, c in chunks])
    assert counts.tolist() == [
        int(lists.n_candidates[s]) if s in keep else 0 for s in range(lists.n_segments)
    ]
    bad = tmp_path / "unsorted.txt"
    bad.write_text("2 ||| a\n1 ||| b\n")
    with pytest.raises(UserInputError, match=r"unsorted\.txt:2: segment id 1 after 2"):
        list(nbest_chunks(bad, lists.refs, 10))
    # what a worker reads from the file's byte ranges is what the stream gives, with CRLF
    # line ends and 1-based ids too
    crlf = tmp_path / "nbest-crlf.txt"
    crlf.write_bytes(
        "".join(
            f"{s + 1} ||| {h} ||| f=0 ||| 0\r\n" for s, h in zip(ids, hyps, strict=True)
        ).encode("utf-8")
    )
    for file, base in ((path, 0), (crlf, 1)):
        for size in (1, 37, 500):
            streamed = list(
                nbest_chunks(file, lists.refs, size, id_base=base, ref_names=["a", "b"])
            )
            sliced = list(nbest_slices(file, lists.refs, size, id_base=base, ref_names=["a", "b"]))
            assert [(i, a) for i, a, _ in sliced] == [(i, a) for i, a, _ in streamed]
            for (_, _, want), (_, _, part) in zip(streamed, sliced, strict=True):
                got = part.load()
                assert got.texts == want.texts and got.origins == want.origins
                assert got.offsets.tolist() == want.offsets.tolist()
                assert got.refs == want.refs and got.ref_names == want.ref_names
    for content, message in [
        (b"0 ||| a\n1 ||| b\rc\n", r"cr\.txt:2: a carriage return inside the line"),
        (b"0 ||| a\n\n1 ||| b\n", r"cr\.txt:2: empty line"),
        (b"0 ||| a\n999 ||| b\n", "segment id 999 has no reference"),
    ]:
        (tmp_path / "cr.txt").write_bytes(content)
        with pytest.raises(UserInputError, match=message):
            list(nbest_slices(tmp_path / "cr.txt", lists.refs, 10))
    (tmp_path / "low.txt").write_bytes(b"0 ||| a\n")
    with pytest.raises(UserInputError, match="segment id 0 has no reference"):
        list(nbest_slices(tmp_path / "low.txt", lists.refs, 10, id_base=1))
    with pytest.raises(UserInputError, match="segment id 0 has no reference"):
        list(nbest_chunks(tmp_path / "low.txt", lists.refs, 10, id_base=1))


def _cli(args):
    code = "from mtpalette.cli.app import main; main()"
    return [sys.executable, "-c", code, *args]


def test_killed_run_resumes_to_identical_results(inputs, tmp_path):
    refs, systems = inputs
    grid = ["-m", "bleus:1..4", "wer", "rouge-w:1.1..2.0/0.1", "rouge-s:0..4"]
    common = [
        "orange",
        "--refs",
        *map(str, refs),
        "--systems",
        *map(str, systems),
        *grid,
        "--bootstrap",
        "200",
        "--chunk-size",
        "8",
        "-q",
        "--curve-step",  # asked: system outputs get no curve by default
        "1",
    ]
    whole = tmp_path / "whole"
    done = subprocess.run(_cli([*common, "--run-dir", str(whole)]), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    n_chunks = len(chunk_ranges(240, 8))

    killed = tmp_path / "killed"
    proc = subprocess.Popen(
        _cli([*common, "--run-dir", str(killed)]), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    deadline = time.time() + 120
    while time.time() < deadline:
        have = len(list((killed / "chunks").glob("*.parquet"))) if killed.exists() else 0
        if have >= 3:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    have = sorted((killed / "chunks").glob("*.parquet"))
    assert 3 <= len(have) < n_chunks, "the run was not interrupted mid-way"
    assert not (killed / "table.csv").exists()

    again = subprocess.run(
        _cli([*common, "--run-dir", str(killed)]), capture_output=True, text=True
    )
    assert again.returncode == 2 and "--resume" in again.stderr  # no silent overwrite
    resumed = subprocess.run(
        _cli([*common, "--run-dir", str(killed), "--resume"]), capture_output=True, text=True
    )
    assert resumed.returncode == 0, resumed.stderr
    for name in ("table.csv", "curve.csv"):
        assert (killed / name).read_bytes() == (whole / name).read_bytes()
    for i in range(n_chunks):
        a = pq.read_table(whole / "chunks" / f"chunk-{i:05d}.parquet")
        b = pq.read_table(killed / "chunks" / f"chunk-{i:05d}.parquet")
        assert a.equals(b)
    segs = np.concatenate(
        [
            pq.read_table(killed / "chunks" / f"chunk-{i:05d}.parquet").column("segment").to_numpy()
            for i in range(n_chunks)
        ]
    )
    assert np.array_equal(np.unique(segs), np.arange(240))  # none lost
    assert len(segs) == 240 * len(systems)  # none duplicated
    assert not list((killed / "chunks").glob("*.tmp*"))


def test_resume_refuses_a_different_run(inputs, tmp_path):
    refs, systems = inputs
    base = [
        "orange",
        "--refs",
        *map(str, refs),
        "--systems",
        *map(str, systems),
        "--bootstrap",
        "0",
        "--chunk-size",
        "100",
        "-q",
        "--run-dir",
        str(tmp_path / "r"),
    ]
    first = CliRunner().invoke(app, [*base, "-m", "bleus:4"])
    assert first.exit_code == 0, first.output
    other = CliRunner().invoke(app, [*base, "-m", "wer", "--resume"])
    assert other.exit_code != 0 and "metric_specs differ" in str(other.exception)
    orphan = CliRunner().invoke(app, [*base[:-2], "-m", "wer", "--resume"])
    assert "--resume needs --run-dir" in str(orphan.exception)


def test_scoring_on_worker_processes_equals_in_process(ted_zhen):
    from mtpalette.api import score_texts

    systems, refs = ted_zhen
    hyps = systems["SMU"][:200]
    streams = [r[:200] for r in refs]
    specs = ["bleus:1..4", "nist", "chrf", "rouge-l", "wer"]
    here = score_texts(hyps, streams, specs)
    there = score_texts(hyps, streams, specs, backend=Backend("processes", workers=2))
    for spec in here.specs:
        np.testing.assert_array_equal(here.stats[spec], there.stats[spec])
    assert [s.value for s in here.corpus] == [s.value for s in there.corpus]


def test_stale_chunks_are_never_trusted(inputs, tmp_path):
    """Once: delete manifest.json, re-run with 2 of the systems, and the old chunks (all
    systems) were combined: ORANGE over the wrong candidates. Chunks now carry the manifest's
    hash and their segment range; a chunk of another run is recomputed, and a copied-in one
    is refused at the combination."""
    import json
    import shutil

    refs, systems = inputs
    run_dir = tmp_path / "r"

    def orange(chosen, *extra):
        args = ["orange", "--refs", *map(str, refs), "--systems", *map(str, chosen),
                "--bootstrap", "0", "--chunk-size", "100", "-q", "-m", "bleus:4",
                "--run-dir", str(run_dir), "--json", str(tmp_path / "run.json"),
                *extra]  # fmt: skip
        result = CliRunner().invoke(app, args)
        return result, (
            json.loads((tmp_path / "run.json").read_text()) if result.exit_code == 0 else None
        )

    first, _ = orange(systems)
    assert first.exit_code == 0, first.output
    (run_dir / "manifest.json").unlink()
    stale, run = orange(systems[:2])
    assert stale.exit_code == 0, stale.output
    fresh_dir = tmp_path / "fresh"
    clean = CliRunner().invoke(app, ["orange", "--refs", *map(str, refs), "--systems",
                                     *map(str, systems[:2]), "--bootstrap", "0", "-q", "-m",
                                     "bleus:4", "--json", str(fresh_dir / "x.json"),
                                     "--out-dir", str(fresh_dir)])  # fmt: skip
    assert clean.exit_code == 0, clean.output
    expected = json.loads((fresh_dir / "x.json").read_text())["results"]["table"]["rows"]
    assert run["results"]["table"]["rows"][0]["orange"] == expected[0]["orange"]
    # a chunk copied from another run is refused by the combination, naming the file
    other = tmp_path / "other"
    shutil.copytree(run_dir, other)
    first_chunk = run_dir / "chunks" / "chunk-00000.parquet"
    shutil.copy(other / "chunks" / "chunk-00001.parquet", first_chunk)
    from mtpalette.metaeval.chunked import chunk_stamp

    assert chunk_stamp(first_chunk)[1] == 100  # holds segments 100.. in place of 0..
    again, run2 = orange(systems[:2], "--resume")
    assert again.exit_code == 0  # recomputed, not trusted
    assert run2["results"]["table"]["rows"][0]["orange"] == expected[0]["orange"]
    assert chunk_stamp(first_chunk)[1] == 0


def test_bad_run_folders_are_user_errors(inputs, tmp_path):
    """Once tracebacks: --run-dir naming a file, a manifest of the wrong type; and a folder
    left by a run that failed before its first chunk (--chunk-size 0 wrote its manifest
    first) blocked the next run."""
    refs, systems = inputs
    base = ["orange", "--refs", *map(str, refs), "--systems", *map(str, systems),
            "--bootstrap", "0", "-q", "-m", "bleus:4"]  # fmt: skip
    a_file = tmp_path / "file"
    a_file.write_text("x")
    result = CliRunner().invoke(app, [*base, "--run-dir", str(a_file)])
    assert "--run-dir needs a folder" in str(result.exception)
    odd = tmp_path / "odd"
    odd.mkdir()
    (odd / "manifest.json").write_text("[1, 2]")
    result = CliRunner().invoke(app, [*base, "--run-dir", str(odd), "--resume"])
    assert "not a JSON object" in str(result.exception)
    failed = tmp_path / "failed"
    result = CliRunner().invoke(app, [*base, "--run-dir", str(failed), "--chunk-size", "0"])
    assert "chunk size must be at least 1" in str(result.exception)
    assert not failed.exists()  # checked before the folder is made
    (failed / "chunks").mkdir(parents=True)  # a run that died before its first chunk
    (failed / "manifest.json").write_text('{"kind": "orange-chunked"}')
    result = CliRunner().invoke(app, [*base, "--run-dir", str(failed)])
    assert result.exit_code == 0, result.output


def test_concurrent_runs_on_one_folder_are_refused(inputs, tmp_path):
    """A second run on a folder in use is refused with one line; the lock dies with its
    holder, so a killed run still resumes."""
    import fcntl

    refs, systems = inputs
    run_dir = tmp_path / "r"
    base = ["orange", "--refs", *map(str, refs), "--systems", *map(str, systems),
            "--bootstrap", "0", "-q", "-m", "bleus:4", "--run-dir", str(run_dir)]  # fmt: skip
    assert CliRunner().invoke(app, base).exit_code == 0
    with open(run_dir / ".lock", "a+") as other:  # another run holds the folder
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        busy = CliRunner().invoke(app, [*base, "--resume"])
        assert "another run is using this folder" in str(busy.exception)
    assert CliRunner().invoke(app, [*base, "--resume"]).exit_code == 0


def test_the_compact_form_refuses_what_it_did_not_keep():
    from mtpalette.metaeval.orange import Comparisons, orange_curve
    from mtpalette.metaeval.orange_errors import error_analysis

    full = Comparisons.from_scores("m", [0.9, 0.5, 0.1, 0.8, 0.4], [0.5, 0.2], [0, 3, 5])
    b, t = full.sums_at([1, 3])
    compact = Comparisons.from_segment_sums(
        "m", True, full.offsets, [1, 3], b, t, 1, "leave-one-out", 2, ""
    )
    # what it kept equals the full form's: the whole lists and the cutoff 1
    assert orange_curve([compact], cutoffs=[1, 3]).orange["m"].tolist() == (
        orange_curve([full], cutoffs=[1, 3]).orange["m"].tolist()
    )
    with pytest.raises(UserInputError, match="not at 2: ask for the curve"):
        orange_curve([compact], cutoffs=[2])
    with pytest.raises(UserInputError, match="no error analysis"):
        next(error_analysis(compact))


def test_chunked_runs_keep_the_reference_agreement(inputs, tmp_path):
    """Once, a chunked run (and so every run through a Dask scheduler) left out the
    reference agreement that the same run in process gives; now every backend gives the
    same rows, printed and in run.json (on Dask computed on a worker: a LocalCluster of two
    processes on loopback)."""
    import json

    from mtpalette.api.chunked import Chunking
    from mtpalette.api.orange_run import OrangeOutputs, OrangeRun, run_orange
    from mtpalette.sources.inputs import CandidateInputs

    refs, systems = inputs

    def run(chunking=None, out=None):
        given = OrangeRun(
            CandidateInputs(list(refs), systems=list(systems)), metrics=["bleus:4", "wer"],
            bootstrap=0, chunking=chunking, outputs=OrangeOutputs(out_dir=out),
        )  # fmt: skip
        return run_orange(given, progress=False).references

    plain = run()
    assert plain is not None and len(plain.rows) == 2 * 2  # references x metrics
    for backend in ("inproc", "dask"):
        run_dir = tmp_path / backend
        workers = 2 if backend == "dask" else 1
        chunked = run(Chunking(run_dir, chunk_size=50, backend=backend, workers=workers))
        assert chunked is not None and chunked.to_dict() == plain.to_dict()
        record = json.loads((run_dir / "run.json").read_text())["results"]
        assert record["reference_agreement"] == plain.to_dict()
