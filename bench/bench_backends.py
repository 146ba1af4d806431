"""When does a parallel backend pay off? Whole `mtpalette` processes, in-process against 2
local worker processes and a 2-worker Dask LocalCluster, in one run.

Usage: python bench/bench_backends.py [--quick]

Jobs (real data: WMT21 de-en system outputs and references A and B from ../shared/data, else the
bundled TED zh-en data, repeated, which the output says):

1. ``score`` with a 23-metric grid on one system (the metric groups are spread over workers);
2. chunked ORANGE (``orange --run-dir``, chunks of 50 segments) of the BLEU-S and ROUGE grids
   with the systems' outputs as candidates.

The kernels already use every core inside one process, so workers pay only when a job has
several heavy metric groups or many chunks; a worker's start (imports, the data sent to it)
is the price. The table says, per job and size, which backend was fastest.
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import SHARED  # bench/common.py: the shared data folder

REPO = Path(__file__).resolve().parents[1]
GRID = ["bleus:1..9", "nist", "wer", "per", "rouge-l", "rouge-w:1.1..2.0/0.2", "rouge-s:0..4",
        "chrf", "ter"]  # fmt: skip
ORANGE_GRID = ["bleus:1..4", "rouge-l", "rouge-s:4", "wer"]
BACKENDS = {
    "inproc": [],
    "processes x2": ["--backend", "processes", "--workers", "2"],
    "dask x2": ["--backend", "dask", "--workers", "2"],
}


def data(tmp: Path) -> tuple[list[Path], list[Path], str]:
    """(systems, references) as files."""
    root = SHARED / "wmt21" / "txt"
    systems = sorted(glob.glob(str(root / "system-outputs" / "newstest2021.de-en.hyp.*.en")))
    refs = [root / "references" / f"newstest2021.de-en.ref.{k}.en" for k in "AB"]
    if systems and all(r.exists() for r in refs):
        return [Path(s) for s in systems[:8]], refs, "WMT21 de-en, 8 systems, refs A and B"
    from mtpalette.io.judgments_mqm import bundled_mqm_ted

    bundled = bundled_mqm_ted("zhen")["judgments"].parent  # the invented example data
    names = ["Aurora", "Birch", "Cobalt", "Dune", "Ember", "Fjord"]
    out = []
    for name in [*names, "ref", "refB"]:
        text = (bundled / f"{name}.txt").read_text(encoding="utf-8") * 4
        (tmp / f"{name}.txt").write_text(text, encoding="utf-8")
        out.append(tmp / f"{name}.txt")
    return out[:-2], out[-2:], "bundled example zh-en (invented) x4 (6 systems, 2 refs)"


def timed(args: list[str], runs: int, fresh: Path | None = None) -> float:
    """Best wall time of ``runs`` whole processes; ``fresh`` is removed before each run."""
    best = float("inf")
    for _ in range(runs):
        if fresh is not None:
            shutil.rmtree(fresh, ignore_errors=True)
        t = time.perf_counter()
        subprocess.run(args, check=True, capture_output=True)
        best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="one run each")
    args = ap.parse_args()
    exe = shutil.which("mtpalette")
    if exe is None:
        sys.exit("mtpalette is not installed in this environment")
    runs = 1 if args.quick else 2
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        systems, refs, what = data(tmp)
        print(f"data: {what}; {os.cpu_count()} cores; best of {runs}")
        jobs = {
            "score, 23 metrics, 1 system": [exe, "score", "-r", *map(str, refs), "-i",
                                            str(systems[0]), "-m", *GRID],
            "chunked ORANGE, 7 metrics": [exe, "orange", "--refs", *map(str, refs),
                                          "--systems", *map(str, systems), "-m", *ORANGE_GRID,
                                          "--bootstrap", "0", "-q", "--chunk-size", "50"],
        }  # fmt: skip
        print("\n| job | " + " | ".join(BACKENDS) + " | fastest |")
        print("|---|" + "---|" * (len(BACKENDS) + 1))
        for name, base in jobs.items():
            times = {}
            for label, extra in BACKENDS.items():
                cmd, run_dir = [*base, *extra], None
                if "orange" in base:
                    run_dir = tmp / f"run-{label.replace(' ', '')}"
                    cmd += ["--run-dir", str(run_dir)]
                times[label] = timed(cmd, runs, fresh=run_dir)
            cells = " | ".join(f"{t:.1f} s" for t in times.values())
            print(f"| {name} | {cells} | {min(times, key=times.get)} |")


if __name__ == "__main__":
    main()
