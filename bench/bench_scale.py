"""Scale: time and peak memory of chunked ORANGE as N grows (1,024 -> 4,096 -> 16,384
candidates per segment), and the speed-up of 2 local workers over 1.

Candidate lists are POOLED from real German system outputs (WMT19 + WMT21 en-de, similar
length; see bench_orange.py) and written as Moses n-best files; each run is
``mtpalette orange --nbest ... --run-dir ... --chunk-size C`` in a fresh process, so the
n-best file is streamed chunk by chunk and peak memory should not grow with N. Metrics: the
paper's Figure 1 set (BLEUS4, PER, WER, ROUGE-L, ROUGE-W-1.2, ROUGE-S4), references: the
official WMT19 en-de one and NTREX.

Usage::

    python bench/bench_scale.py [--segments 24] [--sizes 1024 4096 16384] [--chunk-size 2]

Skips with a message when the shared data (bench/common.py) is absent.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, os.path.dirname(__file__))

from bench_orange import DATA, pooled_nbest  # noqa: E402

FIGURE1 = ["bleus:4", "per", "wer", "rouge-l", "rouge-w:1.2", "rouge-s:4"]
RUNNER = """
import resource, sys, time
from mtpalette.cli.app import main
t0 = time.perf_counter()
try:
    main()
except SystemExit as exc:
    if exc.code:
        raise
me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print("BENCH", time.perf_counter() - t0, max(me, kids) / 1024, file=sys.stderr)
"""


def run(args: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    proc = subprocess.run(
        [sys.executable, "-c", RUNNER, *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
    )
    if proc.returncode:
        raise SystemExit(proc.stderr[-2000:])
    line = [ln for ln in proc.stderr.splitlines() if ln.startswith("BENCH")][-1]
    _, seconds, mb = line.split()
    return float(seconds), float(mb)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--segments", type=int, default=24)
    ap.add_argument("--sizes", type=int, nargs="+", default=[1024, 4096, 16384])
    ap.add_argument("--chunk-size", type=int, default=2)
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--keep", type=Path, help="keep the largest run's folder here")
    args = ap.parse_args()
    if not DATA.is_dir():
        print(f"SKIP: {DATA} is absent (the benchmark needs the real WMT data)")
        return 0
    from mtpalette.io.nbest import write_moses_nbest

    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    print(
        f"{args.segments} segments, 2 references, metrics {' '.join(FIGURE1)}, "
        f"chunks of {args.chunk_size} segments; candidates POOLED from real outputs"
    )
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        ref_files = []
        for n in args.sizes:
            segments, ids, hyps, refs = pooled_nbest(args.segments, n, args.seed)
            if not ref_files:
                for k in range(2):
                    p = tmp_path / f"ref{k}.txt"
                    p.write_text("\n".join(refs[k][s] for s in segments) + "\n", encoding="utf-8")
                    ref_files.append(p)
            local = {int(s): i for i, s in enumerate(segments)}
            nbest = tmp_path / f"nbest{n}.txt"
            write_moses_nbest(nbest, [local[s] for s in ids], hyps)
            run_dir = args.keep if (args.keep and n == max(args.sizes)) else tmp_path / f"run{n}"
            common = [
                "orange",
                "--refs",
                *map(str, ref_files),
                "--nbest",
                str(nbest),
                "-m",
                *FIGURE1,
                "--bootstrap",
                "200",
                "--chunk-size",
                str(args.chunk_size),
                "--curve-step",
                str(max(1, n // 64)),
                "-q",
            ]
            seconds, mb = run([*common, "--run-dir", str(run_dir)])
            rows.append({"N": n, "candidates": len(hyps), "seconds": seconds, "peak_mb": mb})
            print(
                f"  N = {n:6d}: {len(hyps):8,d} candidates  {seconds:7.1f} s  "
                f"{len(hyps) / seconds:8,.0f} candidates/s  peak RSS {mb:6.0f} MB",
                flush=True,
            )
        n = args.sizes[len(args.sizes) // 2]
        nbest = tmp_path / f"nbest{n}.txt"
        speed = {}
        for workers in (1, 2):
            common = [
                "orange",
                "--refs",
                *map(str, ref_files),
                "--nbest",
                str(nbest),
                "-m",
                *FIGURE1,
                "--bootstrap",
                "0",
                "--chunk-size",
                str(args.chunk_size),
                "-q",
                "--backend",
                "processes",
                "--workers",
                str(workers),
            ]
            t, _ = run(
                [*common, "--run-dir", str(tmp_path / f"w{workers}")],
                env={"RAYON_NUM_THREADS": "1"},
            )
            speed[workers] = t
            print(
                f"  N = {n}, processes backend, {workers} worker(s), 1 kernel thread each: "
                f"{t:.1f} s",
                flush=True,
            )
    print(f"speed-up of 2 workers over 1: {speed[1] / speed[2]:.2f}x")
    print(json.dumps({"rows": rows, "workers": speed}))
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
