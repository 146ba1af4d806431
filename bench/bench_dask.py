"""Dask against in-process: whole `mtpalette orange` processes of chunked ORANGE (`--run-dir`)
in-process, on a local Dask cluster of 2 workers and on a scheduler with 2 workers started here,
in one run (issue 43).

Usage: python bench/bench_dask.py [--quick] [--rounds 2] [--chunk-size 50]

1. Timing: the paper's 34-metric grid (`bleus:1..9 nist wer per rouge-l rouge-w:1.1..2.0/0.1
   rouge-s:0..9,*`, as bench_orange.py) on WMT19 en-de: the 22 systems' outputs of
   ../shared/data/wmt17-19/WMT19/system-outputs/en-de as candidates (1,997 segments; `--quick`:
   the first 400), 4 references (official, NTREX and two of Google's extra ones), chunks of 50
   segments, on three backends: `--backend inproc`; `--backend dask --workers 2` (a
   LocalCluster the client starts); `--backend dask --scheduler ADDRESS` (a `dask scheduler`
   and two `dask worker --nthreads 1 --no-nanny` processes started by this script, each in its
   own working folder, stopped at the end). Rounds run the three backends in turn; the best
   wall time is kept. The table.csv files of every run (and the chunk files) must be
   byte-identical. Start-up is measured apart: a trivial run (one chunk of `wer`, no
   bootstrap) on each backend, and the time until the first chunk file appears.
2. Memory: the CLIENT's peak RSS at 65,536 candidates per segment on Dask against the
   in-process run's at 4,096 (`--quick`: 16,384 against 1,024), 16 segments, chunks of one
   segment, `bleus:4`, 2 references. These candidate lists are SYNTHETIC lists of REAL
   sentences: each segment's 22 system outputs, then German system outputs of other segments
   (WMT19 + WMT21 en-de) of similar length, drawn with replacement (bench_orange.pooled_nbest),
   written as a Moses n-best file.

Measurement: each client is a child process polled every 0.05 s with psutil; its peak RSS is
the kernel's high-water mark of that one process (VmHWM in /proc/PID/status, read at each
poll), so a local cluster's worker processes are not counted in it (they are reported apart,
as the largest sum of the client's and its children's RSS seen at a poll). Where the client
never had a child process (in-process, --scheduler) the figure is wait4's ru_maxrss, which is
exact (polling can miss the last 0.05 s). Skips with a message
when the shared data (bench/common.py) is absent.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import machine, skip_without_shared_data  # bench/common.py

POLL = 0.05
MEM_METRIC = "bleus:4"
MEM_SEGMENTS = 16


def vmhwm_mb(pid: int) -> float:
    """The kernel's peak RSS of one process (VmHWM), in MB; 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def watch(cmd, env, log: Path, run_dir: Path | None = None, others=()) -> dict:
    """Run one whole client process and poll it: wall time, the client's peak RSS (VmHWM),
    the largest RSS of the client with its children, the time to the first chunk file, the
    largest RSS of ``others`` (the scheduler and workers) during the run."""
    import psutil

    t0 = time.perf_counter()
    with open(log, "w") as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, env=env)
    client = psutil.Process(proc.pid)
    hwm = tree = 0.0
    first = None
    had_children = False
    other_peak = {name: 0.0 for name, _ in others}
    chunks = run_dir / "chunks" if run_dir else None
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        try:
            rss = client.memory_info().rss
            kids = client.children(recursive=True)
            had_children = had_children or bool(kids)
            for kid in kids:
                try:
                    rss += kid.memory_info().rss
                except psutil.Error:
                    pass
            tree = max(tree, rss / 2**20)
            hwm = max(hwm, vmhwm_mb(proc.pid))
        except psutil.Error:
            pass
        for name, p in others:
            try:
                other_peak[name] = max(other_peak[name], p.memory_info().rss / 2**20)
            except psutil.Error:
                pass
        if first is None and chunks is not None and chunks.is_dir():
            if any(chunks.glob("chunk-*")):
                first = time.perf_counter() - t0
        time.sleep(POLL)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    text = log.read_text(errors="replace")
    if proc.returncode:
        raise SystemExit(f"{' '.join(map(str, cmd))} failed ({proc.returncode}):\n{text[-3000:]}")
    maxrss = usage.ru_maxrss / 1024  # the client and its reaped descendants
    return {
        "wall": wall,
        # exact (wait4) when the client never had a child process, else the polled VmHWM
        "client_mb": hwm if had_children else max(hwm, maxrss),
        "polled_mb": hwm,
        "maxrss_mb": maxrss,
        "tree_mb": tree,
        "first_chunk": first,
        "others": other_peak,
        "large_graph": text.count("large graph"),
    }


class Cluster:
    """A `dask scheduler` and `dask worker` processes on 127.0.0.1, stopped by ``stop``."""

    def __init__(self, folder: Path, workers: int = 2) -> None:
        import psutil

        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.procs: list[subprocess.Popen] = []
        self.log = folder / "scheduler.log"
        sched_file = folder / "scheduler.json"
        t0 = time.perf_counter()
        env = {k: v for k, v in os.environ.items() if k != "DASK_SCHEDULER_ADDRESS"}
        self._start(
            [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
             "--port", "0", "--scheduler-file", str(sched_file), "--no-dashboard"],
            self.log, folder, env,
        )  # fmt: skip
        while not (sched_file.exists() and sched_file.stat().st_size):
            self._alive(t0)
        self.address = json.loads(sched_file.read_text())["address"]
        for k in range(workers):
            wdir = folder / f"worker{k}"  # each worker in its own working folder
            wdir.mkdir(exist_ok=True)
            self._start(
                [sys.executable, "-m", "distributed.cli.dask_worker", self.address,
                 "--nthreads", "1", "--no-nanny", "--no-dashboard"],
                folder / f"worker{k}.log", wdir, env,
            )  # fmt: skip
        while self.log.read_text().count("Register worker") < workers:
            self._alive(t0)
        self.startup = time.perf_counter() - t0
        self.ps = [("scheduler", psutil.Process(self.procs[0].pid))] + [
            (f"worker{k}", psutil.Process(p.pid)) for k, p in enumerate(self.procs[1:])
        ]

    def _start(self, cmd, log: Path, cwd: Path, env) -> None:
        with open(log, "w") as out:
            self.procs.append(
                subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
            )

    def _alive(self, t0: float) -> None:
        if any(p.poll() is not None for p in self.procs) or time.perf_counter() - t0 > 120:
            self.stop()
            raise SystemExit(f"the Dask cluster did not start; see {self.folder}/*.log")
        time.sleep(0.1)

    def connections(self) -> int:
        """Client connections the scheduler has received so far."""
        return self.log.read_text().count("Receive client connection")

    def stop(self) -> None:
        for p in reversed(self.procs):  # workers first, then the scheduler
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def head_files(files: list[Path], n: int, folder: Path) -> list[Path]:
    """The first ``n`` lines of each file, under ``folder`` (same names)."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for f in files:
        with open(f, encoding="utf-8") as src:
            lines = [next(src) for _ in range(n)]
        (folder / f.name).write_text("".join(lines), encoding="utf-8")
        out.append(folder / f.name)
    return out


def fmt_mb(x: float) -> str:
    return f"{x:,.0f} MB"


def notes(res: dict) -> str:
    """The scheduler's and workers' largest RSS, client connections, 'large graph' warnings."""
    out = ""
    if "connections" in res:
        out += f", {res['connections']} client connection(s)"
    if res["others"]:
        workers = [fmt_mb(v) for k, v in res["others"].items() if k != "scheduler"]
        out += f", scheduler {fmt_mb(res['others']['scheduler'])}, workers {' / '.join(workers)}"
    if res["large_graph"]:
        out += f"; {res['large_graph']} 'large graph' warnings"
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="400 segments, one round, 16,384 vs 1,024")
    ap.add_argument("--rounds", type=int, help="rounds of the timing runs (2; --quick 1)")
    ap.add_argument("--chunk-size", type=int, default=50)
    ap.add_argument("--big", type=int, help="candidates per segment, Dask (65,536)")
    ap.add_argument("--small", type=int, help="candidates per segment, in-process (4,096)")
    ap.add_argument("--no-memory", action="store_true", help="the timing part only")
    ap.add_argument("--seed", type=int, default=12345)
    args = ap.parse_args()
    if skip_without_shared_data("WMT19 en-de system outputs and references"):
        return 0
    sys.path.insert(0, os.path.dirname(__file__))
    from bench_orange import GRID, REFS, WMT19, pooled_nbest

    exe = shutil.which("mtpalette")
    if exe is None:
        sys.exit("mtpalette is not installed in this environment")
    systems_dir = WMT19 / "system-outputs" / "en-de"
    systems = sorted(systems_dir.iterdir())
    if not systems or not all(r.exists() for r in REFS):
        print(f"SKIP: WMT19 en-de outputs or references missing under {WMT19.parent.parent}")
        return 0
    rounds = args.rounds or (1 if args.quick else 2)
    big = args.big or (16384 if args.quick else 65536)
    small = args.small or (1024 if args.quick else 4096)
    n_seg = 400 if args.quick else 1997
    env = {k: v for k, v in os.environ.items() if k != "DASK_SCHEDULER_ADDRESS"}
    print(f"machine: {machine()}; {time.strftime('%Y-%m-%d %H:%M')}")

    with tempfile.TemporaryDirectory(prefix="bench_dask_") as tmp_name:
        tmp = Path(tmp_name)
        if n_seg < 1997:
            refs = head_files(REFS, n_seg, tmp / "refs")
            systems = head_files(systems, n_seg, tmp / "systems")
        else:
            refs = list(REFS)
        tiny_refs = head_files(refs, args.chunk_size, tmp / "tiny" / "refs")
        tiny_sys = head_files(systems, args.chunk_size, tmp / "tiny" / "systems")
        print(
            f"timing: WMT19 en-de, {n_seg} segments x {len(systems)} systems' outputs as "
            f"candidates, {len(refs)} references, {len(GRID)} specs ({' '.join(GRID)}: 34 "
            f"metrics), chunks of {args.chunk_size} segments, best of {rounds}"
        )
        cluster = Cluster(tmp / "cluster")
        try:
            print(
                f"scheduler {cluster.address} and 2 workers (--nthreads 1 --no-nanny) up in "
                f"{cluster.startup:.1f} s"
            )
            backends = {
                "inproc": ["--backend", "inproc"],
                "dask --workers 2": ["--backend", "dask", "--workers", "2"],
                "dask --scheduler": ["--backend", "dask", "--scheduler", cluster.address],
            }
            others = {"dask --scheduler": cluster.ps}

            # start-up: one chunk of a light metric, no bootstrap
            trivial = {}
            for label, extra in backends.items():
                best = None
                for r in range(rounds):
                    run_dir = tmp / f"tiny-{r}-{label.split()[-1]}"
                    cmd = [exe, "orange", "-r", *map(str, tiny_refs), "-s", *map(str, tiny_sys),
                           "-m", "wer", "--bootstrap", "0", "-q", "--run-dir", str(run_dir),
                           "--chunk-size", str(args.chunk_size), *extra]  # fmt: skip
                    res = watch(cmd, env, tmp / "tiny.log", run_dir)
                    best = res if best is None or res["wall"] < best["wall"] else best
                trivial[label] = best
                print(f"  trivial run (1 chunk, wer), {label}: {best['wall']:.2f} s", flush=True)

            # the 34-metric grid, the backends in turn each round
            results: dict[str, list[dict]] = {label: [] for label in backends}
            tables: dict[str, bytes] = {}
            chunk_sets: dict[str, dict[str, bytes]] = {}
            for r in range(rounds):
                for label, extra in backends.items():
                    tag = f"{r}-{label.split()[-1].lstrip('-')}"
                    run_dir, out_dir = tmp / f"run-{tag}", tmp / f"out-{tag}"
                    conns = cluster.connections()
                    cmd = [exe, "orange", "-r", *map(str, refs), "-s", *map(str, systems),
                           "-m", *GRID, "-q", "--run-dir", str(run_dir), "--chunk-size",
                           str(args.chunk_size), "--out-dir", str(out_dir), *extra]  # fmt: skip
                    res = watch(cmd, env, tmp / f"log-{tag}.txt", run_dir, others.get(label, ()))
                    if label == "dask --scheduler":
                        res["connections"] = cluster.connections() - conns
                    results[label].append(res)
                    tables[f"{label} #{r + 1}"] = (out_dir / "table.csv").read_bytes()
                    chunk_sets[f"{label} #{r + 1}"] = {
                        p.name: p.read_bytes() for p in sorted((run_dir / "chunks").iterdir())
                    }
                    first = res["first_chunk"]
                    first = "-" if first is None else f"{first:.1f} s"
                    print(
                        f"  round {r + 1}, {label}: {res['wall']:.1f} s, first chunk at {first}, "
                        f"client peak {fmt_mb(res['client_mb'])} (with children "
                        f"{fmt_mb(res['tree_mb'])}), {len(chunk_sets[f'{label} #{r + 1}'])} "
                        f"chunks{notes(res)}",
                        flush=True,
                    )
                    shutil.rmtree(run_dir)
            ref_table = next(iter(tables.values()))
            same_tables = all(t == ref_table for t in tables.values())
            ref_chunks = next(iter(chunk_sets.values()))
            same_chunks = all(c == ref_chunks for c in chunk_sets.values())
            print(
                f"\ntable.csv byte-identical across all {len(tables)} runs: "
                f"{'YES' if same_tables else 'NO'}; chunk files byte-identical: "
                f"{'YES' if same_chunks else 'NO'}"
            )
            if not same_tables:
                for name, t in tables.items():
                    print(f"  {name}: {len(t)} bytes, {'same' if t == ref_table else 'DIFFERENT'}")

            best = {label: min(rs, key=lambda x: x["wall"]) for label, rs in results.items()}
            base, base_t = best["inproc"]["wall"], trivial["inproc"]["wall"]
            print(
                "\n| backend | grid wall (best) | trivial run | first chunk | grid - trivial | "
                "wall / inproc | (grid - trivial) / inproc's | client peak RSS (trivial run) | "
                "with children |"
            )
            print("|---|---|---|---|---|---|---|---|---|")
            for label, res in best.items():
                t0 = trivial[label]["wall"]
                first = res["first_chunk"]
                peak = max(x["client_mb"] for x in results[label])
                kids = max(x["tree_mb"] for x in results[label])
                print(
                    f"| {label} | {res['wall']:.1f} s | {t0:.1f} s | "
                    f"{'-' if first is None else f'{first:.1f} s'} | {res['wall'] - t0:.1f} s | "
                    f"{res['wall'] / base:.2f}x | {(res['wall'] - t0) / (base - base_t):.2f}x | "
                    f"{fmt_mb(peak)} ({fmt_mb(trivial[label]['client_mb'])}) | {fmt_mb(kids)} |"
                )
            print(
                f"(scheduler and 2 workers started outside the client in {cluster.startup:.1f} s; "
                "not in the --scheduler figures)"
            )

            if args.no_memory:
                return 0
            memory_check(args, exe, env, tmp, cluster, big, small, pooled_nbest, REFS)
        finally:
            cluster.stop()
    print(f"\nload average at the end: {os.getloadavg()[0]:.2f}")
    return 0


def memory_check(args, exe, env, tmp, cluster, big, small, pooled_nbest, ref_paths) -> None:
    from mtpalette.io.nbest import write_moses_nbest

    print(
        f"\nmemory: {MEM_SEGMENTS} segments, SYNTHETIC candidate lists of REAL sentences (each "
        "segment's 22 WMT19 en-de outputs, then other segments' German outputs of similar "
        f"length, WMT19 + WMT21, drawn with replacement), Moses n-best files; -m {MEM_METRIC}, "
        "2 references (official, NTREX), chunks of 1 segment, --bootstrap 200"
    )
    files, ref_files = {}, []
    for n in sorted({small, big}):
        segments, ids, hyps, refs = pooled_nbest(MEM_SEGMENTS, n, args.seed)
        if not ref_files:
            for k in range(2):
                p = tmp / f"mem-ref{k}.txt"
                p.write_text("".join(refs[k][s] + "\n" for s in segments), encoding="utf-8")
                ref_files.append(p)
        local = {int(s): i for i, s in enumerate(segments)}
        files[n] = tmp / f"nbest-{n}.txt"
        write_moses_nbest(files[n], [local[s] for s in ids], hyps)
        mb = files[n].stat().st_size / 2**20
        print(f"  n-best of {n:,} per segment: {len(hyps):,} lines, {mb:,.0f} MB", flush=True)
        del ids, hyps
    runs = [
        ("inproc", small, ["--backend", "inproc"], ()),
        ("dask --scheduler", big, ["--backend", "dask", "--scheduler", cluster.address],
         cluster.ps),
        ("dask --workers 2", big, ["--backend", "dask", "--workers", "2"], ()),
        ("inproc", big, ["--backend", "inproc"], ()),
    ]  # fmt: skip
    rows = []
    for label, n, extra, others in runs:
        run_dir = tmp / f"mem-run-{n}-{label.split()[-1].lstrip('-')}"
        cmd = [exe, "orange", "-r", *map(str, ref_files), "--nbest", str(files[n]), "-m",
               MEM_METRIC, "-q", "--bootstrap", "200", "--run-dir", str(run_dir),
               "--chunk-size", "1", *extra]  # fmt: skip
        conns = cluster.connections()
        res = watch(cmd, env, tmp / "mem.log", run_dir, others)
        if others:
            res["connections"] = cluster.connections() - conns
        shutil.rmtree(run_dir, ignore_errors=True)
        rows.append((label, n, res))
        print(
            f"  {label}, {n:,} per segment: {res['wall']:.1f} s, client peak "
            f"{fmt_mb(res['client_mb'])} (polled VmHWM {fmt_mb(res['polled_mb'])}, wait4 "
            f"ru_maxrss {fmt_mb(res['maxrss_mb'])}, with "
            f"children {fmt_mb(res['tree_mb'])}){notes(res)}",
            flush=True,
        )
    ref = rows[0][2]["client_mb"]
    print(
        "\n| run | candidates per segment | wall | client peak RSS | / in-process at "
        f"{small:,} | with children |"
    )
    print("|---|---|---|---|---|---|")
    for label, n, res in rows:
        print(
            f"| {label} | {n:,} | {res['wall']:.1f} s | {fmt_mb(res['client_mb'])} | "
            f"{res['client_mb'] / ref:.2f}x | {fmt_mb(res['tree_mb'])} |"
        )
    worst = max(res["client_mb"] for label, n, res in rows if label.startswith("dask"))
    print(
        f"Dask client at {big:,} per segment <= in-process at {small:,}: "
        f"{'YES' if worst <= ref else 'NO'} ({fmt_mb(worst)} against {fmt_mb(ref)})"
    )


if __name__ == "__main__":
    sys.exit(main())
