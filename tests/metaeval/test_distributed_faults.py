"""Faults of chunked, resumable and distributed ORANGE runs (issue 51), each one line that
names what failed - the scheduler, the worker, the run folder, the file - with the
``--resume`` hint, and nothing computed lost.

On real processes (a ``dask scheduler`` and ``dask worker`` processes on 127.0.0.1, started
and stopped here): the scheduler killed mid-run, then the run resumed on a new cluster to the
bytes of an uninterrupted run; a worker of another mtpalette version, and one without the
shared storage, joining mid-run; a worker on a full disk; a list too large for a worker's
memory limit. A worker is made "of another version" or "on a full disk" by a ``--preload``
file that patches it; a run is held mid-run by a gate file its workers wait on (chunks 0 and
1 run, the others wait while the gate exists), so that every fault lands mid-run, never by
luck of timing.

In process: a full disk (a real tmpfs where mount namespaces are allowed, and an injected
``ENOSPC``), a list too large for the memory here, a ``MemoryError``, and the options once
accepted without a word or with a traceback (``--scheduler notanaddress``, ``--resume`` on a
missing or empty folder, ``--workers`` with the in-process backend or with a scheduler).
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import time
from pathlib import Path

import pytest
from dask_processes import cli_argv, dask_argv
from real_data import mqm_ted
from typer.testing import CliRunner

pytest.importorskip("distributed")

from mtpalette.cli.app import app  # noqa: E402

ROOT = mqm_ted("zhen")["root"]
SYSTEMS = ("Facebook-AI", "NiuTrans", "Online-W", "SMU")
N = 60
GRID = ["-m", "bleus:1..4", "wer", "rouge-w:1.2", "rouge-s:4"]
#: the budget of one run: a cluster that does not come up fails the test, never hangs it
DEADLINE = 120

#: files a worker loads at its start (``dask worker --preload``; Dask may load one twice:
#: each patches once)
PRELOADS = {
    # every chunk from the third on waits while the gate file exists
    "gate.py": """
import os, time
import mtpalette.metaeval.chunked as chunked
if not hasattr(chunked.score_chunk, "patched"):
    _score = chunked.score_chunk
    def score_chunk(task):
        while task.index >= 2 and os.path.exists(os.environ["MTPALETTE_TEST_GATE"]):
            time.sleep(0.05)
        return _score(task)
    score_chunk.patched = True
    chunked.score_chunk = score_chunk
""",
    # a worker of another mtpalette version, as far as anything can tell
    "other_version.py": """
import mtpalette._version
mtpalette._version.__version__ = "0.0.0+other"
""",
    # a disk that fills up after two chunk files
    "full_disk.py": """
import errno
import pyarrow.parquet as pq
if not hasattr(pq.write_table, "patched"):
    _write, _done = pq.write_table, [0]
    def write_table(table, where, *args, **kwargs):
        if _done[0] >= 2:
            raise OSError(errno.ENOSPC, "Error writing bytes to file. Detail: [errno 28] No "
                          "space left on device")
        _done[0] += 1
        return _write(table, where, *args, **kwargs)
    write_table.patched = True
    pq.write_table = write_table
""",
}


class Processes:
    """Schedulers and workers as processes, their logs in files, all killed by ``stop``."""

    def __init__(self, where: Path) -> None:
        self.where = where
        self.procs: dict[str, subprocess.Popen] = {}

    def start(self, name: str, cmd: list[str], env: dict[str, str] | None = None) -> None:
        log = open(self.where / f"{name}.log", "w")  # noqa: SIM115 - closed with the process
        home = self.where / f"home-{name}"
        home.mkdir(exist_ok=True)
        self.procs[name] = subprocess.Popen(
            cmd, stdout=log, stderr=subprocess.STDOUT, cwd=home,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
        )  # fmt: skip

    def scheduler(self, name: str) -> str:
        file = self.where / f"{name}.json"
        self.start(name, dask_argv("dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                               "--no-dashboard", "--scheduler-file", str(file)))  # fmt: skip
        deadline = time.time() + 60
        while not file.exists() and time.time() < deadline:
            time.sleep(0.05)
        assert file.exists(), (self.where / f"{name}.log").read_text()
        time.sleep(0.2)  # the file is written whole
        return json.loads(file.read_text())["address"]

    def worker(self, name: str, address: str, *extra: str, wrap=(), env=None) -> None:
        cmd = dask_argv("dask_worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard",
                    "--name", name, *extra)  # fmt: skip
        self.start(name, [*wrap, *cmd], env)

    def wait_workers(self, address: str, n: int) -> None:
        from distributed import Client

        with Client(address, timeout=30) as client:
            client.wait_for_workers(n, timeout=60)

    def kill(self, name: str) -> None:
        proc = self.procs.pop(name)
        proc.kill()
        proc.wait(timeout=20)

    def stop(self) -> None:
        for name in list(self.procs):
            self.kill(name)


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """The inputs (system outputs and the same candidates as an n-best file), the preload
    files, and the tables of uninterrupted in-process runs."""
    d = tmp_path_factory.mktemp("faults")
    head = lambda n: (ROOT / n).read_text(encoding="utf-8").split("\n")[:N]  # noqa: E731
    refs = []
    for name in ("ref.txt", "refB.txt"):
        (d / name).write_text("\n".join(head(name)) + "\n", encoding="utf-8")
        refs.append(str(d / name))
    systems = []
    for s in SYSTEMS:
        (d / f"{s}.txt").write_text("\n".join(head(f"{s}.txt")) + "\n", encoding="utf-8")
        systems.append(str(d / f"{s}.txt"))
    outputs = [head(f"{s}.txt") for s in SYSTEMS]
    (d / "shared").mkdir()
    nbest = d / "shared" / "nbest.txt"
    nbest.write_text("".join(f"{i} ||| {out[i]} ||| f=0 ||| 0\n" for i in range(N)
                             for out in outputs), encoding="utf-8")  # fmt: skip
    for name, text in PRELOADS.items():
        (d / name).write_text(text, encoding="utf-8")
    files = {"dir": d, "refs": refs, "systems": systems, "nbest": str(nbest)}
    for kind in ("systems", "nbest"):
        run = d / f"expected-{kind}"
        got = CliRunner().invoke(app, _args(files, kind, run))
        assert got.exit_code == 0, got.output
        files[f"expected-{kind}"] = _outputs(run)
    return files


def _args(files, kind: str, run_dir: Path, *extra: str) -> list[str]:
    candidates = ["--nbest", files["nbest"]] if kind == "nbest" else ["-s", *files["systems"]]
    return ["orange", "--refs", *files["refs"], *candidates, *GRID, "--chunk-size", "4",
            "--bootstrap", "0", "-q", "--run-dir", str(run_dir), *extra]  # fmt: skip


def _outputs(run_dir: Path) -> dict[str, bytes]:
    names = ("table.csv", "curve.csv")
    return {n: (run_dir / n).read_bytes() for n in names if (run_dir / n).exists()}


def _chunks(run_dir: Path) -> dict[str, tuple[bytes, int]]:
    """The chunk files: their bytes and the time they were written."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted((run_dir / "chunks").glob("*.parquet"))}  # fmt: skip


def _one_line(err: str) -> str:
    assert "Traceback" not in err and 'File "' not in err, err[-3000:]
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("mtpalette: error: "), err[-3000:]
    return lines[0]


def _start(args: list[str]) -> subprocess.Popen:
    return subprocess.Popen(cli_argv(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)  # fmt: skip


def _wait_for_chunks(run_dir: Path, n: int, proc: subprocess.Popen) -> None:
    deadline = time.time() + DEADLINE
    while time.time() < deadline and proc.poll() is None:
        if len(list((run_dir / "chunks").glob("*.parquet"))) >= n:
            return
        time.sleep(0.02)
    proc.kill()
    raise AssertionError(f"not {n} chunks: {proc.communicate()[1][-3000:]}")


def _resume(files, kind: str, run_dir: Path, *extra: str) -> None:
    """Resume the run (in process, or with ``extra`` options) and find the tables of an
    uninterrupted run."""
    done = subprocess.run(cli_argv(*_args(files, kind, run_dir, "--resume", *extra)),
                          capture_output=True, text=True, timeout=DEADLINE)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert _outputs(run_dir) == files[f"expected-{kind}"]


@pytest.fixture
def cluster(tmp_path):
    procs = Processes(tmp_path)
    yield procs
    procs.stop()


def _gated(data, tmp_path):
    gate = tmp_path / "gate"
    gate.write_text("closed")
    return gate, ["--preload", str(data["dir"] / "gate.py")], {"MTPALETTE_TEST_GATE": str(gate)}


# --------------------------------------------------------------------------------------------
# on real Dask processes


def test_the_scheduler_killed_mid_run_is_one_line_and_the_run_resumes_identically(
    data, cluster, tmp_path
):
    gate, preload, env = _gated(data, tmp_path)
    address = cluster.scheduler("scheduler")
    for name in ("w1", "w2"):
        cluster.worker(name, address, *preload, env=env)
    cluster.wait_workers(address, 2)
    run = tmp_path / "run"
    proc = _start(_args(data, "systems", run, "--backend", "dask", "--scheduler", address))
    _wait_for_chunks(run, 2, proc)
    kept = _chunks(run)
    cluster.kill("scheduler")  # mid-run: the other chunks wait at the gate
    _, err = proc.communicate(timeout=DEADLINE)
    assert proc.returncode == 2
    line = _one_line(err)
    assert f"lost the Dask scheduler at {address} mid-run" in line
    assert f"kept in {run}: run again with --resume" in line
    assert not (run / "table.csv").exists()
    gate.unlink()
    cluster.stop()
    # a new cluster: the run resumes there, recomputes only the missing chunks, and gives
    # the bytes of an uninterrupted run
    again = cluster.scheduler("scheduler2")
    cluster.worker("w3", again)
    cluster.wait_workers(again, 1)
    _resume(data, "systems", run, "--backend", "dask", "--scheduler", again)
    after = _chunks(run)
    assert {k: after[k] for k in kept} == kept  # nothing computed was lost or done twice
    assert len(after) == N // 4


def test_a_worker_of_another_version_joining_mid_run_is_refused(data, cluster, tmp_path):
    gate, preload, env = _gated(data, tmp_path)
    address = cluster.scheduler("scheduler")
    cluster.worker("good", address, *preload, env=env)
    cluster.wait_workers(address, 1)
    run = tmp_path / "run"
    proc = _start(_args(data, "systems", run, "--backend", "dask", "--scheduler", address))
    _wait_for_chunks(run, 2, proc)
    cluster.worker("other", address, "--preload", str(data["dir"] / "other_version.py"))
    cluster.wait_workers(address, 2)
    gate.unlink()  # results come back now, after "other" joined
    _, err = proc.communicate(timeout=DEADLINE)
    assert proc.returncode == 2
    line = _one_line(err)
    assert "a worker joined" in line and "mid-run with another mtpalette" in line
    assert "Dask worker other (tcp://127.0.0.1:" in line and "has 0.0.0+other" in line
    assert f"kept in {run}: run again with --resume" in line
    assert not (run / "table.csv").exists()  # nothing of "other" was combined
    cluster.kill("other")
    _resume(data, "systems", run, "--backend", "dask", "--scheduler", address)


def test_a_late_worker_without_the_shared_storage_is_named(data, cluster, tmp_path):
    """A worker in a mount namespace of its own, where the folder of the n-best file and the
    run folder is an empty tmpfs, joins mid-run: named, with the folder it does not see."""
    if subprocess.run(["unshare", "--mount", "true"], capture_output=True).returncode != 0:
        pytest.skip("no mount namespaces here (unshare --mount needs root)")
    gate, preload, env = _gated(data, tmp_path)
    shared = Path(data["nbest"]).parent
    address = cluster.scheduler("scheduler")
    cluster.worker("good", address, *preload, env=env)
    cluster.wait_workers(address, 1)
    run = shared / f"run-{tmp_path.name}"
    proc = _start(_args(data, "nbest", run, "--backend", "dask", "--scheduler", address))
    _wait_for_chunks(run, 2, proc)
    blind = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
             f'mount -t tmpfs none {shared} && exec "$@"', "sh"]  # fmt: skip
    cluster.worker("blind", address, wrap=blind)
    cluster.wait_workers(address, 2)
    gate.unlink()
    _, err = proc.communicate(timeout=DEADLINE)
    assert proc.returncode == 2
    line = _one_line(err)
    assert line.startswith(f"mtpalette: error: {run / 'chunks'}: Dask worker blind (tcp://")
    assert "joined mid-run and cannot see or write this folder" in line
    assert f"cannot read {data['nbest']}" in line
    assert f"kept in {run}: run again with --resume" in line
    cluster.kill("blind")
    _resume(data, "nbest", run, "--backend", "dask", "--scheduler", address)


def test_a_full_disk_on_a_worker_names_the_run_folder_and_the_worker(data, cluster, tmp_path):
    address = cluster.scheduler("scheduler")
    cluster.worker("full", address, "--preload", str(data["dir"] / "full_disk.py"))
    cluster.wait_workers(address, 1)
    run = tmp_path / "run"
    done = subprocess.run(
        cli_argv(*_args(data, "systems", run, "--backend", "dask", "--scheduler", address)),
        capture_output=True, text=True, timeout=DEADLINE,
    )  # fmt: skip
    assert done.returncode == 2
    line = _one_line(done.stderr)
    assert line.startswith(f"mtpalette: error: {run}: cannot write chunks/chunk-000")
    assert "in this run folder (No space left on device)" in line
    assert "run again with --resume" in line and "(on Dask worker full (tcp://" in line
    kept = _chunks(run)
    assert len(kept) == 2 and not list((run / "chunks").glob("*.tmp*"))
    _resume(data, "systems", run)  # in process: the backend is no part of the run
    assert {k: v for k, v in _chunks(run).items() if k in kept} == kept


def test_a_list_too_large_for_a_worker_s_memory_is_refused(data, cluster, tmp_path):
    """A worker with a memory limit (no spilling, pausing or killing: the refusal is
    mtpalette's) and a segment of 100,000 candidates: refused before it is scored, with its
    size and the memory left under the limit."""
    big = tmp_path / "big.txt"
    hyps = [h for h in Path(data["systems"][0]).read_text(encoding="utf-8").split("\n") if h]
    with open(big, "w", encoding="utf-8") as fh:
        for i in range(100_000):
            fh.write(f"0 ||| {hyps[i % len(hyps)]} {i}\n")
        for s in range(1, N):
            fh.write(f"{s} ||| {hyps[s]}\n")
    address = cluster.scheduler("scheduler")
    quiet = {f"DASK_DISTRIBUTED__WORKER__MEMORY__{k}": "False"
             for k in ("TARGET", "SPILL", "PAUSE", "TERMINATE")}  # fmt: skip
    cluster.worker("small", address, "--memory-limit", "120MB", env=quiet)
    cluster.wait_workers(address, 1)
    run = tmp_path / "run"
    args = ["orange", "--refs", *data["refs"], "--nbest", str(big), "-m", "bleus:4", "wer",
            "--chunk-size", "1", "-q", "--bootstrap", "0", "--run-dir", str(run),
            "--backend", "dask", "--scheduler", address]  # fmt: skip
    done = subprocess.run(cli_argv(*args), capture_output=True, text=True, timeout=DEADLINE)
    assert done.returncode == 2
    line = _one_line(done.stderr)
    assert f"segment 0 of {big} (100,000 candidates," in line
    assert "MB of memory to score, more than the" in line
    assert "left under the memory limit (120 MB) of Dask worker small (tcp://" in line
    assert "one segment's list is never split" in line and "--resume" in line


# --------------------------------------------------------------------------------------------
# in process


def _failed(cli, args: list[str]) -> str:
    code, _, err = cli(*args)
    assert code == 2, err[-3000:]
    return _one_line(err)


def test_a_full_disk_in_process_names_the_run_folder(data, cli, tmp_path, monkeypatch):
    """Once ``<stdout>``: the chunk file's ``ENOSPC`` (as pyarrow raises it) reached the
    handler of a full standard output."""
    import pyarrow.parquet as pq

    write, done = pq.write_table, [0]

    def full(table, where, *args, **kwargs):
        if done[0] >= 2:
            raise OSError(errno.ENOSPC, "Error writing bytes to file. Detail: [errno 28] No "
                          "space left on device")  # fmt: skip
        done[0] += 1
        return write(table, where, *args, **kwargs)

    run = tmp_path / "run"
    monkeypatch.setattr(pq, "write_table", full)
    line = _failed(cli, _args(data, "systems", run))
    assert line == (
        f"mtpalette: error: {run}: cannot write chunks/chunk-00002.parquet in this run folder "
        "(No space left on device): make room there, then run again with --resume; the chunks "
        "done are kept"
    )
    kept = _chunks(run)
    assert sorted(kept) == ["chunk-00000.parquet", "chunk-00001.parquet"]
    assert not list((run / "chunks").glob("*.tmp*"))
    monkeypatch.setattr(pq, "write_table", write)
    code, _, err = cli(*_args(data, "systems", run, "--resume"))
    assert code == 0, err
    assert _outputs(run) == data["expected-systems"]
    assert {k: v for k, v in _chunks(run).items() if k in kept} == kept


def test_a_real_full_disk_names_the_run_folder(data, tmp_path):
    """The run folder on a 64 kB tmpfs (a mount namespace of its own): the run stops at the
    chunk that does not fit, in one line naming the folder; its copy resumes to the bytes of
    an uninterrupted run."""
    if subprocess.run(["unshare", "--mount", "true"], capture_output=True).returncode != 0:
        pytest.skip("no mount namespaces here (unshare --mount needs root)")
    disk, out = tmp_path / "disk", tmp_path / "out"
    disk.mkdir()
    out.mkdir()
    run = disk / "run"
    orange = " ".join(f"'{a}'" for a in cli_argv(*_args(data, "systems", run)))
    script = (f"mount -t tmpfs -o size=64k none {disk} && {{ {orange} 2> {out}/err; "
              f"echo $? > {out}/code; cp -a {run} {out}/run; }}")  # fmt: skip
    subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", script],
                   check=True, timeout=DEADLINE)  # fmt: skip
    assert (out / "code").read_text().strip() == "2"
    line = _one_line((out / "err").read_text())
    assert line.startswith(f"mtpalette: error: {run}: cannot write chunks/chunk-000")
    assert "(No space left on device)" in line and "run again with --resume" in line
    kept = _chunks(out / "run")
    assert 0 < len(kept) < N // 4
    # the manifest names no folder: the copy resumes where the disk was full
    code = subprocess.run(cli_argv(*_args(data, "systems", out / "run", "--resume")),
                          capture_output=True, text=True, timeout=DEADLINE)  # fmt: skip
    assert code.returncode == 0, code.stderr
    assert _outputs(out / "run") == data["expected-systems"]
    assert {k: v for k, v in _chunks(out / "run").items() if k in kept} == kept


def _big_segment(path: Path, data, big: int) -> Path:
    """The n-best file with segment 5's list ``big`` candidates long."""
    hyps = [h for h in Path(data["systems"][0]).read_text(encoding="utf-8").split("\n") if h]
    with open(path, "w", encoding="utf-8") as fh:
        for s in range(N):
            for i in range(big if s == 5 else 4):
                fh.write(f"{s} ||| {hyps[(s + i) % len(hyps)]} {i}\n")
    return path


@pytest.mark.parametrize(
    ("size", "what", "advice"),
    [("4", "segments 4-7", "give a smaller --chunk-size"),
     ("1", "segment 5", "one segment's list is never split")],
)  # fmt: skip
def test_a_list_too_large_for_the_memory_here_is_refused(
    data, cli, tmp_path, monkeypatch, size, what, advice
):
    """Refused before it is scored, with its size and the memory available; the chunks
    before it are kept, and the run resumes once there is the memory."""
    from mtpalette.metaeval import chunked

    nbest = _big_segment(tmp_path / "nbest.txt", data, 5000)
    run = tmp_path / "run"
    args = ["orange", "--refs", *data["refs"], "--nbest", str(nbest), "-m", "bleus:4", "wer",
            "--chunk-size", size, "-q", "--bootstrap", "0", "--run-dir", str(run)]  # fmt: skip
    small = (2_000_000, "available on this machine")
    monkeypatch.setattr(chunked, "memory_available", lambda: small)
    line = _failed(cli, args)
    assert f"{what} of {nbest} (5,0" in line and " candidates, " in line
    assert "MB of memory to score, more than the 2.0 MB available on this machine: " in line
    assert advice in line and line.endswith("the chunks done are kept: run again with --resume")
    kept = _chunks(run)
    assert len(kept) == (1 if size == "4" else 5)
    monkeypatch.undo()
    code, _, err = cli(*args, "--resume")
    assert code == 0, err
    assert {k: v for k, v in _chunks(run).items() if k in kept} == kept


def test_out_of_memory_in_process_is_one_line(data, cli, tmp_path, monkeypatch):
    """A MemoryError scoring a chunk, and one reading a streamed n-best file: one line each,
    naming the segments or the file, where a traceback was."""
    from mtpalette.metaeval import chunked, orange_runs

    def no_memory(lists, *args, **kwargs):
        raise MemoryError

    run = tmp_path / "run"
    monkeypatch.setattr(chunked, "compare_candidates", no_memory)
    line = _failed(cli, _args(data, "nbest", run))
    assert f"out of memory scoring segments 0-3 of {data['nbest']} (" in line
    assert "MB available on this machine: give a smaller --chunk-size" in line
    assert line.endswith("run again with --resume")
    monkeypatch.undo()

    def stream(*args, **kwargs):
        yield from list(chunked.nbest_chunks(*args, **kwargs))[:2]
        raise MemoryError

    monkeypatch.setattr(orange_runs, "nbest_chunks", stream)
    line = _failed(cli, _args(data, "nbest", tmp_path / "run2"))
    assert line.startswith(f"mtpalette: error: {data['nbest']}: out of memory reading the ")
    assert "one segment's list is never split" in line and "--resume" in line
    assert len(_chunks(tmp_path / "run2")) == 2


OPTIONS = [  # (id, options, environment, message)
    ("scheduler-not-an-address", "--backend dask --scheduler notanaddress", {},
     "--scheduler 'notanaddress' is not a Dask scheduler address (no port); expected "
     "tcp://host:port"),
    ("scheduler-port", "--backend dask --scheduler tcp://127.0.0.1:99999", {},
     "port '99999' is not a number from 1 to 65535"),
    ("scheduler-scheme", "--backend dask --scheduler http://127.0.0.1:8786", {},
     "unknown scheme 'http'; Dask's are tcp, tls, ws, wss, ucx, inproc"),
    ("scheduler-env", "--backend dask", {"DASK_SCHEDULER_ADDRESS": "notanaddress"},
     "$DASK_SCHEDULER_ADDRESS 'notanaddress' is not a Dask scheduler address"),
    ("workers-inproc", "--workers 2", {},
     "--workers 2 needs --backend processes or dask: the in-process backend runs one task "
     "after the other"),
    ("workers-scheduler", "--backend dask --workers 2 --scheduler tcp://127.0.0.1:8786", {},
     "--workers 2 starts a local Dask cluster, but --scheduler names the cluster at "
     "tcp://127.0.0.1:8786, whose own workers run the tasks"),
    ("workers-env", "--backend dask --workers 2", {"DASK_SCHEDULER_ADDRESS": "127.0.0.1:8786"},
     "--workers 2 starts a local Dask cluster, but $DASK_SCHEDULER_ADDRESS names the cluster"),
    ("resume-missing", "--resume", {}, "--resume: there is no run here to continue"),
    ("resume-empty", "--resume", {}, "--resume: there is no run here to continue"),
]  # fmt: skip


@pytest.mark.parametrize(("options", "env", "message"),
                         [pytest.param(o, e, m, id=i) for i, o, e, m in OPTIONS])  # fmt: skip
def test_options_once_taken_without_a_word(data, cli, tmp_path, monkeypatch, request, options,
                                          env, message):  # fmt: skip
    """Each refused before any work, in one line, nothing written."""
    run = tmp_path / "run"
    if request.node.callspec.id == "resume-empty":
        run.mkdir()
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    before = sorted(tmp_path.rglob("*"))
    line = _failed(cli, _args(data, "systems", run, *options.split()))
    assert message in line
    if "resume" in options:
        assert line.startswith(f"mtpalette: error: {run}: ")
    assert sorted(tmp_path.rglob("*")) == before


def test_score_refuses_workers_it_would_not_use(data, cli):
    code, out, err = cli("score", "-r", data["refs"][0], "-i", data["systems"][0], "--workers", "3")
    assert code == 2 and out == ""
    assert "--workers 3 needs --backend processes or dask" in _one_line(err)


# --------------------------------------------------------------------------------------------
# the combination, and the faults' words


def test_a_chunk_of_another_version_is_never_combined(data, tmp_path):
    """Whatever wrote it (a worker of another version that slipped through), the combination
    refuses a chunk stamped with another mtpalette version, naming it."""
    import pyarrow.parquet as pq

    from mtpalette.errors import UserInputError
    from mtpalette.metaeval.chunked import chunk_path, combine, manifest_hash

    run = tmp_path / "run"
    assert CliRunner().invoke(app, _args(data, "systems", run)).exit_code == 0
    path = chunk_path(run, 3)
    table = pq.read_table(path)
    meta = {**table.schema.metadata, b"mtpalette.version": b"0.0.0+other"}
    pq.write_table(table.replace_schema_metadata(meta), path, compression="zstd")
    manifest = json.loads((run / "manifest.json").read_text())
    with pytest.raises(UserInputError, match=r"chunk-00003.parquet: this chunk is written by "
                       r"mtpalette 0.0.0\+other, not this version .*--resume"):  # fmt: skip
        combine(run, N // 4, ["wer"], [False], n_segments=N, oracle="leave-one-out", n_refs=2,
                signatures=[""], stamp=manifest_hash(manifest), chunk_size=4)  # fmt: skip


def test_the_words_of_cluster_faults():
    """What a fault found on the client side says (a task lost with its workers again and
    again, workers killed by it, a connection lost while the scheduler lives); a task's own
    error is not the cluster's."""
    from distributed import KilledWorker
    from distributed.client import FutureCancelledError

    from mtpalette.parallel import _fault

    where = "the Dask scheduler at tcp://10.0.0.5:8786"
    killed = _fault(KilledWorker("k", "tcp://10.0.0.7:4000", 3), where, True)
    assert killed.startswith(f"the workers of {where} died 4 times running one task (the last: "
                             "tcp://10.0.0.7:4000); most often that is memory")  # fmt: skip
    lost = _fault(FutureCancelledError("k", "lost"), where, True)
    assert lost.startswith(f"a task was lost with its worker 4 times on {where}")
    assert _fault(FutureCancelledError("k", "scheduler-connection-lost"), where, True) == (
        f"lost {where} mid-run (its connection closed)"
    )
    assert _fault(ConnectionResetError("reset"), where, False) == f"lost {where} mid-run (reset)"
    assert _fault(ValueError("a bug"), where, True) is None
