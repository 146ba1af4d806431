"""A real Dask cluster: a ``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1,
each started and stopped here. A chunked ORANGE run on it (with a relative ``--run-dir``)
equals the in-process run; the scheduler's log shows one client connection for the whole run;
killing a worker mid-run still gives the same results; a worker that cannot see the run
folder is refused in one line before any chunk runs."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
from dask_processes import cli_argv, dask_argv
from real_data import mqm_ted

pytest.importorskip("distributed")

ROOT = mqm_ted("zhen")["root"]
SYSTEMS = ("Facebook-AI", "NiuTrans", "Online-W", "SMU")
N = 120
#: the whole test's budget: a cluster that does not come up fails the test, never hangs it
DEADLINE = 150


def _head(src: Path, dst: Path) -> Path:
    dst.write_text("\n".join(src.read_text(encoding="utf-8").split("\n")[:N]) + "\n")
    return dst


class Cluster:
    """A scheduler and its workers as processes, their logs in files."""

    def __init__(self, where: Path) -> None:
        self.where = where
        self.file = where / "scheduler.json"
        self.log = where / "scheduler.log"
        self.procs: dict[str, subprocess.Popen] = {}
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.env = env
        self._start("scheduler", dask_argv("dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                    "--no-dashboard", "--scheduler-file", str(self.file)))  # fmt: skip
        deadline = time.time() + 60
        while not self.file.exists() and time.time() < deadline:
            time.sleep(0.1)
        assert self.file.exists(), self.log.read_text()
        import json

        self.address = json.loads(self.file.read_text())["address"]

    def _start(self, name: str, cmd: list[str], cwd: Path | None = None) -> None:
        log = open(self.where / f"{name}.log", "w")
        self.procs[name] = subprocess.Popen(
            cmd, stdout=log, stderr=subprocess.STDOUT, env=self.env, cwd=cwd or self.where
        )

    def add_worker(self, name: str, cwd: Path) -> None:
        # a working folder of its own: a relative path would land there, not in the run's
        self._start(name, dask_argv("dask_worker", self.address, "--nthreads", "1", "--no-nanny",
                    "--no-dashboard", "--name", name), cwd)  # fmt: skip

    def wait_workers(self, n: int) -> None:
        from distributed import Client

        with Client(self.address, timeout=30) as client:
            client.wait_for_workers(n, timeout=60)

    def n_workers(self) -> int:
        from distributed import Client

        with Client(self.address, timeout=30) as client:
            return len(client.scheduler_info()["workers"])

    def stop(self) -> None:
        for proc in self.procs.values():  # no nannies: each process is the whole worker
            proc.kill()
            proc.wait(timeout=20)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """One cluster for the module's tests, in file order: the run, a worker killed (one
    worker left), a blind worker added."""
    where = tmp_path_factory.mktemp("cluster")
    c = Cluster(where)
    for name in ("w1", "w2"):
        home = where / f"home-{name}"
        home.mkdir()
        c.add_worker(name, home)
    c.wait_workers(2)
    yield c
    c.stop()


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """The inputs, and the in-process run's table."""
    data = tmp_path_factory.mktemp("data")
    refs = [_head(ROOT / n, data / n) for n in ("ref.txt", "refB.txt")]
    systems = [_head(ROOT / f"{s}.txt", data / f"{s}.txt") for s in SYSTEMS]
    here = subprocess.run(_orange(refs, systems, str(data / "inproc")),
                          capture_output=True, text=True, timeout=DEADLINE)  # fmt: skip
    assert here.returncode == 0, here.stderr
    return refs, systems, (data / "inproc" / "table.csv").read_bytes()


def _orange(refs, systems, run_dir: str, *extra: str) -> list[str]:
    return cli_argv("orange", "--refs", *map(str, refs), "--systems", *map(str, systems),
                "-m", "bleus:1..4", "wer", "rouge-w:1.1..1.5/0.1", "rouge-s:4",
                "--chunk-size", "6", "--run-dir", run_dir, "-q", *extra)  # fmt: skip


def _client_ids(log: Path) -> set[str]:
    return set(re.findall(r"Receive client connection: (\S+)", log.read_text()))


def test_a_run_on_a_real_cluster_equals_in_process(cluster, inputs, tmp_path):
    refs, systems, expected = inputs
    before = _client_ids(cluster.log)  # the fixture's own wait_workers client
    work = tmp_path / "work"
    work.mkdir()
    # a relative run folder, resolved on this machine and sent to the workers as a whole path
    done = subprocess.run(
        _orange(refs, systems, "run", "--backend", "dask", "--scheduler", cluster.address),
        capture_output=True, text=True, cwd=work, timeout=DEADLINE,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert (work / "run" / "table.csv").read_bytes() == expected
    assert len(list((work / "run" / "chunks").glob("*.parquet"))) == 20
    # nothing was written under a worker's own working folder
    assert not list((cluster.where / "home-w1").rglob("*.parquet"))
    assert not list((cluster.where / "home-w2").rglob("*.parquet"))
    # one client connection for the whole run of 20 chunks
    assert len(_client_ids(cluster.log) - before) == 1, cluster.log.read_text()[-2000:]


def test_workers_read_their_part_of_a_shared_nbest_file(cluster, inputs, tmp_path):
    """With an n-best file, each worker reads its chunk's byte range itself: the same table
    as in process."""
    refs, systems, _ = inputs
    outputs = [p.read_text(encoding="utf-8").split("\n")[:N] for p in systems]
    nbest = tmp_path / "nbest.txt"
    nbest.write_text(
        "".join(f"{s} ||| {out[s]} ||| f=0 ||| 0\n" for s in range(N) for out in outputs),
        encoding="utf-8",
    )
    args = ["orange", "--refs", *map(str, refs), "--nbest", str(nbest), "-m", "bleus:4", "wer",
            "--chunk-size", "7", "-q"]  # fmt: skip
    here = subprocess.run(cli_argv(*args, "--run-dir", str(tmp_path / "here")),
                          capture_output=True, text=True, timeout=DEADLINE)  # fmt: skip
    assert here.returncode == 0, here.stderr
    there = subprocess.run(
        cli_argv(*args, "--run-dir", str(tmp_path / "there"), "--backend", "dask",
             "--scheduler", cluster.address),
        capture_output=True, text=True, timeout=DEADLINE,
    )  # fmt: skip
    assert there.returncode == 0, there.stderr
    for name in ("table.csv", "curve.csv"):
        want = (tmp_path / "here" / name).read_bytes()
        assert (tmp_path / "there" / name).read_bytes() == want


def test_a_worker_killed_mid_run_changes_nothing(cluster, inputs, tmp_path):
    refs, systems, expected = inputs
    run = tmp_path / "run"
    proc = subprocess.Popen(
        _orange(refs, systems, str(run), "--backend", "dask", "--scheduler", cluster.address,
                "--chunk-size", "2"),
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.time() + 100
    while time.time() < deadline and proc.poll() is None:
        if len(list((run / "chunks").glob("*.parquet"))) >= 3:
            break
        time.sleep(0.02)
    killed_mid_run = proc.poll() is None
    cluster.procs["w1"].send_signal(signal.SIGKILL)  # its tasks go to the other worker
    _, err = proc.communicate(timeout=DEADLINE)
    assert proc.returncode == 0, err
    assert killed_mid_run, "the run ended before the worker was killed"
    assert (run / "table.csv").read_bytes() == expected


def test_a_worker_that_cannot_see_the_run_folder_is_refused(cluster, tmp_path):
    """A third worker in a mount namespace of its own, where the run folder is an empty
    tmpfs: it is named, in one line, before any chunk runs."""
    from mtpalette.errors import UserInputError
    from mtpalette.parallel import Backend, _close_clients, check_shared_folder

    probe = subprocess.run(["unshare", "--mount", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("no mount namespaces here (unshare --mount needs root)")
    folder = tmp_path / "shared"
    folder.mkdir()
    backend = Backend("dask", scheduler=cluster.address)
    blind = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
             f"mount -t tmpfs none {folder} && exec \"$@\"", "sh",
             *dask_argv("dask_worker", cluster.address, "--nthreads", "1",
                    "--no-nanny", "--no-dashboard", "--name", "elsewhere")]  # fmt: skip
    try:
        check_shared_folder(backend, str(folder))  # every worker sees it: no error
        n = cluster.n_workers()
        cluster._start("elsewhere", blind, tmp_path)
        cluster.wait_workers(n + 1)
        with pytest.raises(UserInputError, match="elsewhere.*cannot see or write this folder"):
            check_shared_folder(backend, str(folder))
    finally:
        _close_clients()  # before the cluster goes: no reconnection attempts at exit
