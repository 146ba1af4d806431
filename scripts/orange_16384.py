"""The paper's Figure 1 at N up to 16,384: ORANGE of BLEUS4, PER, WER, ROUGE-L, ROUGE-W-1.2 and
ROUGE-S4 as the candidate lists grow.

No real 16,384-best lists exist offline, so the lists are POOLED from real German system
outputs (``bench/bench_orange.py``: each segment's own 22 WMT19 en-de outputs first, then
outputs of other segments of WMT19 and WMT21 en-de with a similar length), written as a Moses
n-best file and scored with the chunked, streamed ``mtpalette orange --run-dir``. References:
the official WMT19 en-de reference and NTREX (leave-one-out).

Writes ``OUT/orange_16384.md`` and ``OUT/orange_16384/{run.json,table.csv,curve.csv,curve.png}``.

Usage::

    python scripts/orange_16384.py --out-dir results --segments 100
"""

from __future__ import annotations

import argparse
import csv
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

FIGURE1 = ["bleus:4", "per", "wer", "rouge-l", "rouge-w:1.2", "rouge-s:4"]
SHOW = [1, 16, 64, 256, 1024, 4096, 16384]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out-dir", type=Path, required=True)
    ap.add_argument("--segments", type=int, default=100)
    ap.add_argument("--candidates", type=int, default=16384)
    ap.add_argument("--seed", type=int, default=12345)
    args = ap.parse_args(argv)
    from bench_orange import DATA, pooled_nbest

    if not DATA.is_dir():
        print(f"SKIP: {DATA} is absent")
        return 0
    from mtpalette.cli.app import app
    from mtpalette.io.nbest import write_moses_nbest
    from mtpalette.io.runfile import atomic_writer

    out = args.out_dir / "orange_16384"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        segments, ids, hyps, refs = pooled_nbest(args.segments, args.candidates, args.seed)
        ref_files = []
        for k in range(2):
            p = tmp_path / f"ref{k}.txt"
            p.write_text("\n".join(refs[k][s] for s in segments) + "\n", encoding="utf-8")
            ref_files.append(p)
        local = {int(s): i for i, s in enumerate(segments)}
        nbest = tmp_path / "pooled.nbest"
        write_moses_nbest(nbest, [local[s] for s in ids], hyps)
        t0 = time.perf_counter()
        try:
            app(
                [
                    "orange",
                    "--refs",
                    *map(str, ref_files),
                    "--nbest",
                    str(nbest),
                    "-m",
                    *FIGURE1,
                    "--run-dir",
                    str(tmp_path / "run"),
                    "--chunk-size",
                    "2",
                    "--curve-step",
                    "64",
                    "--bootstrap",
                    "1000",
                    "-q",
                ],
                standalone_mode=False,
            )
        except SystemExit as exc:
            if exc.code:
                raise
        seconds = time.perf_counter() - t0
        for name in ("run.json", "table.csv", "curve.csv", "curve.png"):
            shutil.copy(tmp_path / "run" / name, out / name)
    with open(out / "curve.csv", encoding="utf-8") as fh:
        curve = list(csv.DictReader(fh))
    cut = {int(r["cutoff"]) for r in curve}
    show = sorted({min(cut, key=lambda c, n=n: abs(c - n)) for n in SHOW})  # nearest cutoffs
    lines = [
        "# ORANGE vs N up to 16,384 (the paper's Figure 1)\n",
        f"{args.segments} segments of WMT19 en-de, {args.candidates} candidates each: the 22 "
        "WMT19 systems' outputs of the segment, then real German outputs of OTHER segments "
        "(WMT19 + WMT21 en-de, similar length) POOLED to reach the size. References: official "
        f"WMT19 and NTREX, leave-one-out. Chunked streamed run: {seconds:.0f} s on 2 cores. "
        "ORANGE in %, lower is better; the full curve (step 64) is in `orange_16384/curve.csv` "
        "and `curve.png`.\n",
        "| N | " + " | ".join(FIGURE1) + " |",
        "|---:|" + "---:|" * len(FIGURE1),
    ]
    by = {(int(r["cutoff"]), r["metric"]): float(r["orange"]) for r in curve}
    for n in show:
        lines.append(f"| {n} | " + " | ".join(f"{100 * by[(n, m)]:.2f}" for m in FIGURE1) + " |")
    with atomic_writer(args.out_dir / "orange_16384.md") as fh:
        fh.write("\n".join(lines) + "\n")
    print(f"wrote {args.out_dir / 'orange_16384.md'} ({seconds:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
