"""Ranking many systems with every pair tested: mtpalette against a loop of sacrebleu paired
tests over the same pairs, in one run; and WMT24's human ranking (``--protocol wmt24``).

Usage: python bench/bench_rank.py [--systems 20] [--resamples 1000] [--sacrebleu-pairs 12]
       [--full]
       python bench/bench_rank.py --protocol wmt24 [--rounds 5] [--wmt24-checkout DIR]

``--protocol wmt24`` (bench_rank_wmt24.py): ``rank --protocol wmt24`` on the WMT24 ESA ratings
of ../shared/data/wmt24 as the tests read them (en-cs, en-ja; scripts/shared_data.py) against
a plain numpy + scipy loop of the same Wilcoxon tests (one ``scipy.stats.wilcoxon`` call per
pair and domain, Stouffer per pair) and against the organisers' ranking code
(``humeval/tools.py`` of wmt24-news-systems at the commit of scripts/wmt24_rank_golden.py,
run unmodified from a checkout), in process and as whole processes; p-values compared.

Data: WMT21 newstest zh-en (1,948 segments, reference A; the first ``--systems`` of its 23
systems) from ../shared/data (or $MTPALETTE_SHARED_DATA); without it the script stops with a
message (the bundled data has 13 systems).

1. In-process: ``mtpalette.rank(..., metric="bleu", protocol="bootstrap")`` over all
   ``S (S - 1) / 2`` pairs (scoring included, and the resampling alone), against sacrebleu's
   ``PairedTest`` run once per pair (paired bootstrap, same resamples, BLEU). sacrebleu's
   loop is timed on ``--sacrebleu-pairs`` pairs and scaled to all pairs (``--full``: every
   pair); its p-values are compared with mtpalette's on the pairs it ran.
2. Whole processes: ``mtpalette rank -r REF -i SYSTEMS -m bleu --protocol bootstrap`` (best
   of 3), against the same sacrebleu loop's per-pair time. Ratio = sacrebleu / mtpalette.
"""

from __future__ import annotations

import argparse
import glob
import itertools
import shutil
import subprocess
import sys
import time
from pathlib import Path

from common import SHARED, skip_without_shared_data

WMT21 = SHARED / "wmt21" / "txt"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--systems", type=int, default=20)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--sacrebleu-pairs", type=int, default=12)
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--protocol", choices=["bootstrap", "wmt24"], default="bootstrap")
    ap.add_argument("--rounds", type=int, default=5, help="wmt24: best of this many")
    ap.add_argument("--wmt24-checkout", type=Path, default=Path("/tmp/wmt24-news-systems"))
    ap.add_argument("--wmt24-worker", choices=["loop", "organisers"], help=argparse.SUPPRESS)
    ap.add_argument("lps", nargs="*", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.protocol == "wmt24" or args.wmt24_worker:
        from bench_rank_wmt24 import main as wmt24

        wmt24(args)
        return
    if skip_without_shared_data("WMT21 zh-en system outputs"):
        return
    from mtpalette.api import rank
    from mtpalette.io.plain import read_lines

    files = sorted(glob.glob(str(WMT21 / "system-outputs" / "newstest2021.zh-en.hyp.*.en")))
    files = files[: args.systems]
    ref_path = WMT21 / "references" / "newstest2021.zh-en.ref.A.en"
    systems = {Path(f).name.split(".")[3]: read_lines(f) for f in files}
    refs = [read_lines(ref_path)]
    S, n = len(systems), len(refs[0])
    pairs = list(itertools.combinations(sorted(systems), 2))
    print(f"WMT21 zh-en: {S} systems x {n} segments, {len(pairs)} pairs, "
          f"{args.resamples} resamples, BLEU")  # fmt: skip

    t0 = time.perf_counter()
    r = rank(systems=systems, refs=refs, metric="bleu", protocol="bootstrap",
             n_resamples=args.resamples)  # fmt: skip
    ours = time.perf_counter() - t0
    print(f"mtpalette rank (in-process, scoring included): {ours:.2f} s")

    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    todo = pairs if args.full else pairs[: args.sacrebleu_pairs]
    worst = 0.0
    t0 = time.perf_counter()
    for a, b in todo:
        _, res = PairedTest([(b, systems[b]), (a, systems[a])], {"BLEU": BLEU(references=refs)},
                            None, test_type="bs", n_samples=args.resamples)()  # fmt: skip
        worst = max(worst, abs(res["BLEU"][1].p_value - r.pair(a, b).p_value))
    per_pair = (time.perf_counter() - t0) / len(todo)
    theirs = per_pair * len(pairs)
    how = "all pairs" if args.full else f"{len(todo)} pairs, scaled to {len(pairs)}"
    print(
        f"sacrebleu PairedTest loop ({how}): {theirs:.1f} s; ratio {theirs / ours:.0f}x; "
        f"largest p-value difference on the pairs run: {worst:.2g}"
    )

    mtp = shutil.which("mtpalette")
    if mtp is None:
        print("mtpalette is not on PATH: no whole-process figure")
        return
    command = [mtp, "rank", "-r", str(ref_path), "-i", *files, "-m", "bleu", "--protocol",
               "bootstrap", "--resamples", str(args.resamples), "-q"]  # fmt: skip
    best = min(_run(command) for _ in range(3))
    print(
        f"mtpalette rank, whole process (best of 3): {best:.2f} s; ratio to the sacrebleu "
        f"loop {theirs / best:.0f}x"
    )


def _run(command: list[str]) -> float:
    t0 = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"mtpalette rank failed:\n{done.stderr[-1500:]}")
    return time.perf_counter() - t0


if __name__ == "__main__":
    main()
