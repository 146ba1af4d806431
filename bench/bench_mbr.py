"""MBR selection with the chrF utility, whole processes: `mtpalette mbr` against fastchrf and mbrs.

Usage: python bench/bench_mbr.py [--segments 1000] [--n 64] [--mbrs-segments 20]

A JSONL samples file (``{"id": s, "hyps": [...]}``) of real candidates (see
``bench_pairwise.candidate_lists``) is written once; each tool then runs in a fresh Python
process that reads it, selects per segment the candidate of highest expected chrF against the
others, and writes the selection. fastchrf: ``pairwise_chrf`` then the argmax in numpy; mbrs:
``DecoderMBR`` with ``MetricChrF`` (sacrebleu's chrF, on ``--mbrs-segments`` segments only:
it is slow). The selections are compared (chrF of a candidate with itself is 100 for all, so
counting it or not selects the same). Peers missing: skipped with a message.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(__file__))

from bench_pairwise import candidate_lists  # noqa: E402

FASTCHRF = """
import json, sys
import numpy as np
from fastchrf import pairwise_chrf
lists = [json.loads(line)["hyps"] for line in open(sys.argv[1], encoding="utf-8")]
u = np.asarray(pairwise_chrf(lists, lists))
best = u.mean(axis=2).argmax(axis=1)
text = "".join(seg[i] + "\\n" for seg, i in zip(lists, best))
open(sys.argv[2], "w", encoding="utf-8").write(text)
"""

MBRS = """
import json, sys
from mbrs.decoders import DecoderMBR
from mbrs.metrics import MetricChrF
lists = [json.loads(line)["hyps"] for line in open(sys.argv[1], encoding="utf-8")]
decoder = DecoderMBR(DecoderMBR.Config(), MetricChrF(MetricChrF.Config()))
out = [decoder.decode(seg, seg).sentence[0] for seg in lists]
open(sys.argv[2], "w", encoding="utf-8").write("".join(s + "\\n" for s in out))
"""


def run(cmd: list[str], out: Path) -> tuple[float, list[str]] | None:
    t0 = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    if done.returncode != 0:
        print(f"  {cmd[0]} ... failed: {done.stderr.strip().splitlines()[-1:]}")
        return None
    return seconds, out.read_text(encoding="utf-8").splitlines()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--segments", type=int, default=1000)
    ap.add_argument("--n", type=int, default=64)
    ap.add_argument("--mbrs-segments", type=int, default=20)
    args = ap.parse_args()
    lists, what = candidate_lists(args.segments, args.n)
    tmp = Path(tempfile.mkdtemp())
    samples = tmp / "samples.jsonl"
    samples.write_text(
        "".join(json.dumps({"id": s, "hyps": seg}) + "\n" for s, seg in enumerate(lists)),
        encoding="utf-8",
    )
    print(f"data: {what}; {args.segments} segments x {args.n} samples, MBR with chrF")
    mtp = tmp / "mtpalette.txt"
    ours = run(
        [sys.executable, "-c", "from mtpalette.cli.app import main; main()", "mbr",
         str(samples), "-m", "chrf", "-o", str(mtp)],
        mtp,
    )  # fmt: skip
    assert ours is not None
    print(f"mtpalette mbr: {ours[0]:.2f} s")
    fc = tmp / "fastchrf.txt"
    theirs = run([sys.executable, "-c", FASTCHRF, str(samples), str(fc)], fc)
    if theirs is not None:
        same = sum(a == b for a, b in zip(ours[1], theirs[1], strict=True))
        print(
            f"fastchrf (pairwise_chrf + argmax): {theirs[0]:.2f} s; "
            f"{theirs[0] / ours[0]:.1f}x; same selection in {same}/{len(lists)} segments"
        )
    k = min(args.mbrs_segments, len(lists))
    small = tmp / "small.jsonl"
    small.write_text("".join(samples.read_text(encoding="utf-8").splitlines(True)[:k]))
    mb = tmp / "mbrs.txt"
    theirs = run([sys.executable, "-c", MBRS, str(small), str(mb)], mb)
    if theirs is not None:
        mine = tmp / "mine_small.txt"
        ours_k = run(
            [sys.executable, "-c", "from mtpalette.cli.app import main; main()", "mbr",
             str(small), "-m", "chrf", "-o", str(mine)],
            mine,
        )  # fmt: skip
        same = sum(a == b for a, b in zip(ours_k[1], theirs[1], strict=True))
        print(
            f"mbrs (MetricChrF, {k} segments): {theirs[0]:.2f} s; mtpalette on the same "
            f"{ours_k[0]:.2f} s; {theirs[0] / ours_k[0]:.1f}x; same selection in {same}/{k}"
        )


if __name__ == "__main__":
    main()
