"""BLANC / ACS speed: the paper's worst case and real pairs, in one run.

Usage: python bench/bench_blanc.py [--pairs 20000] [--slow-pairs 300]

* Worst case (Lita et al. 2005, section 2.3.4): two 50-word sentences of one repeated word,
  every size up to 50. The paper reports "less than two seconds on a low-end desktop". Timed:
  our grid recurrence (Rust core), and the paper's three-step algorithm in Python (the slow twin,
  :func:`mtpalette.kernels.acs.acs_counts_slow`), with their ratio.
* Real pairs (WMT21 into English when ``../shared/data`` exists, else the bundled TED data):
  BLANC sentence scores per second (n = 4 and every size), scoring encoded text and end to end,
  against the paper's algorithm on a subset, and against ROUGE-L from rouge-score (the usual
  cost of a Python sentence metric, for scale).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))

from common import real_pairs, timed  # noqa: E402

from mtpalette.kernels.acs import AcsSettings, acs_pair  # noqa: E402
from mtpalette.kernels.reference.acs import acs_counts_slow  # noqa: E402
from mtpalette.metrics import parse_specs  # noqa: E402
from mtpalette.metrics.scoring import TextPairs, compute_stats  # noqa: E402
from mtpalette.text.encode import Encoder, TextView  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=20000)
    ap.add_argument("--slow-pairs", type=int, default=300)
    args = ap.parse_args()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start")

    same = [1] * 50
    s = AcsSettings(0.5, 0.5, kmax=50)
    acs_pair(same, same, s)  # load the core
    t_fast, _ = timed(lambda: acs_pair(same, same, s), repeat=20)
    t0 = time.perf_counter()
    acs_counts_slow(same, same, s)
    t_slow = time.perf_counter() - t0
    print("\nworst case: 50 x 50 words, one repeated word, sizes 1..50 (2,500 matches)")
    print(f"  mtpalette grid recurrence   {t_fast * 1e3:10.3f} ms")
    print(f"  paper's algorithm (Python)  {t_slow * 1e3:10.1f} ms   ratio {t_slow / t_fast:,.0f}x")

    hyps, refs, what = real_pairs(args.pairs)
    one = [refs[0]]
    print(f"\nreal pairs: {what}; {len(hyps)} pairs, 1 reference")
    rows = []
    for spec in ("blanc", "blanc:n=*", "blanc:alpha=0.5,beta=0.5,n=*"):
        metrics = parse_specs([spec])
        pairs = TextPairs.parallel(hyps, one)
        compute_stats(metrics, pairs)
        t_score, _ = timed(lambda m=metrics, p=pairs: compute_stats(m, p), repeat=3)
        t_e2e, _ = timed(lambda m=metrics: compute_stats(m, TextPairs.parallel(hyps, one)))
        rows.append((spec, len(hyps) / t_score, len(hyps) / t_e2e))

    k = min(args.slow_pairs, len(hyps))
    enc = Encoder(TextView("13a", False)).encode(hyps[:k] + one[0][:k])
    t0 = time.perf_counter()
    for i in range(k):
        c, r = enc[i].tolist(), enc[k + i].tolist()
        for a, b in ((c, r), (c, c), (r, r)):
            acs_counts_slow(a, b, AcsSettings(0.0, 0.0, kmax=4))
    slow_rate = k / (time.perf_counter() - t0)

    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(["rougeL"])
    t, _ = timed(lambda: [scorer.score(one[0][i], hyps[i]) for i in range(k)])
    rouge_rate = k / t

    print(f"  paper's algorithm in Python, n=4 (3 ACS per pair): {slow_rate:10,.0f} pairs/s")
    print(f"  rouge-score ROUGE-L (for scale):                    {rouge_rate:10,.0f} pairs/s")
    print(f"{'spec':32s} {'encoded pairs/s':>16s} {'end to end':>12s} {'x paper alg':>12s}")
    for spec, score, e2e in rows:
        print(f"{spec:32s} {score:16,.0f} {e2e:12,.0f} {score / slow_rate:12,.0f}")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
