"""Pairwise (MBR-style) scoring: mtpalette.pairwise against fastchrf's pairwise_chrf.

Usage: python bench/bench_pairwise.py [--segments 200] [--n 64] [--big]

Real candidates: for each source segment of WMT21 zh-en (../shared/data), the outputs of the
systems and the references, cycled to ``--n`` candidates per segment (a sample list has
repeats too); without ../shared/data, the bundled TED zh-en systems. The candidates are their
own pseudo-references (N x N per segment, as MBR decoding). Every mtpalette chrF value is
checked against fastchrf's (same run, same inputs) and against mtpalette's own sentence chrF
(sacrebleu's). Pairwise BLEU-S and ROUGE-L throughputs are printed too (no peer). ``--big``
adds a 1,000 x 256 x 256 chrF run and prints its peak memory.
"""

from __future__ import annotations

import argparse
import glob
import os
import resource
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))

from common import SHARED, bundled_pairs, timed  # noqa: E402

from mtpalette import sentence_scores  # noqa: E402
from mtpalette.io.plain import read_lines  # noqa: E402
from mtpalette.metrics.pairwise import pairwise  # noqa: E402


def candidate_lists(segments: int, n: int):
    root = SHARED / "wmt21" / "txt"
    files = sorted(glob.glob(str(root / "system-outputs" / "newstest2021.zh-en.hyp.*.en")))
    files += sorted(glob.glob(str(root / "references" / "newstest2021.zh-en.ref.*.en")))
    if files:
        outputs = [read_lines(f) for f in files]
        what = f"WMT21 zh-en, {len(files)} systems and references"
    else:
        print("../shared/data not found: using the bundled TED zh-en data")
        hyps, refs, what = bundled_pairs()
        k = len(refs[0]) // 13
        outputs = [hyps[i * k : (i + 1) * k] for i in range(13)]
    lists = [[outputs[j % len(outputs)][s] for j in range(n)] for s in range(segments)]
    return lists, f"{what}, cycled to {n} per segment"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--segments", type=int, default=200)
    ap.add_argument("--n", type=int, default=64)
    ap.add_argument("--big", action="store_true", help="also 1,000 x 256 x 256 chrF, memory")
    args = ap.parse_args()
    lists, what = candidate_lists(args.segments, args.n)
    pairs = args.segments * args.n * args.n
    print(f"data: {what}; {args.segments} segments x {args.n} x {args.n} = {pairs:,} pairs")
    t_ours, ours = timed(lambda: pairwise(lists, metric="chrf"), repeat=2)
    check = [(s, i, j) for s in (0, args.segments - 1) for i in (0, 5) for j in (1, 7)]
    for s, i, j in check:
        got = sentence_scores([lists[s][i]], [[lists[s][j]]], ["chrf"])["chrf"][0]
        assert ours[s, i, j] == got, (s, i, j, ours[s, i, j], got)
    line = f"pairwise chrF: mtpalette {t_ours:.2f} s ({pairs / t_ours:,.0f} pairs/s)"
    try:
        from fastchrf import pairwise_chrf
    except ImportError:
        print(line + "; fastchrf not installed (pip install fastchrf)")
    else:
        t_fc, theirs = timed(lambda: pairwise_chrf(lists, lists), repeat=2)
        theirs = np.asarray(theirs)
        diff = np.abs(theirs - ours).max()
        same = "identical" if diff == 0 else f"max difference {diff:.2e}"
        print(f"{line}; fastchrf {t_fc:.2f} s; {t_fc / t_ours:.1f}x; values {same}")
    for spec in ("chrf++", "bleus:4", "rouge-l"):
        k = max(1, args.segments // 10)
        t, _ = timed(lambda spec=spec, k=k: pairwise(lists[:k], metric=spec))
        print(f"pairwise {spec}: {k * args.n * args.n / t:,.0f} pairs/s ({k} segments)")
    if args.big:
        big, _ = candidate_lists(1000, 256)
        t, out = timed(lambda: pairwise(big, metric="chrf"))
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            f"1,000 x 256 x 256 chrF: {t:.1f} s, {out.size:,} scores, "
            f"peak resident memory {rss:,.0f} MB"
        )


if __name__ == "__main__":
    main()
