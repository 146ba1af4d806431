"""MBR decoders: reference aggregation and pruning against exact MBR and against their peers.

Usage: python bench/bench_mbr_aggregate.py [--segments 200] [--n 64]

The candidate lists of bench/bench_pairwise.py (WMT21 zh-en system outputs and references from
../shared/data, cycled to ``--n`` per segment; the bundled example without it), each its own
pseudo-references. In one run, on the same lists:

* aggregate chrF: mtpalette's ``aggregate`` against fastchrf's ``aggregate_chrf`` (time, ratio,
  the largest difference of the values);
* pruning MBR (chrF, mbrs's defaults: alpha 0.99, schedule 8..256, 500 resamples): mtpalette
  against mbrs's ``DecoderPruningMBR`` (mbrs with fastchrf-backed chrF) when mbrs imports;
* for every decoder (exact pairwise, aggregate, partial aggregation with s = 2, 4, 8, pruning):
  its time and how often its choice equals exact MBR's (every candidate against every
  pseudo-reference, itself included, as the peers do).

A peer that is not installed is skipped with a line saying so.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))

from bench_pairwise import candidate_lists  # noqa: E402
from common import timed  # noqa: E402

from mtpalette.metrics.mbr import mbr  # noqa: E402
from mtpalette.metrics.mbr_aggregate import aggregate  # noqa: E402


def _fastchrf(lists, t_ours, ours) -> None:
    try:
        from fastchrf import aggregate_chrf
    except ImportError:
        print("  fastchrf: not installed (pip install 'fastchrf>=0.2'): no comparison")
        return
    t_fc, theirs = timed(lambda: aggregate_chrf(lists, lists), repeat=2)
    diff = np.abs(np.asarray(theirs) - ours).max()
    print(f"  fastchrf aggregate_chrf {t_fc:.3f} s; mtpalette {t_fc / t_ours:.1f}x faster; "
          f"largest difference {diff:.1e}")  # fmt: skip


def _mbrs_pruning(lists, t_ours, ours) -> None:
    try:
        from mbrs.decoders import DecoderPruningMBR
        from mbrs.metrics import MetricChrF
    except Exception as e:  # mbrs imports torch, COMET, BLEURT... on import
        print(f"  mbrs: not importable ({type(e).__name__}: {e}): no comparison")
        _estimate(lists, t_ours, ours)
        return
    metric = MetricChrF(MetricChrF.Config(fastchrf=True))
    decoder = DecoderPruningMBR(DecoderPruningMBR.Config(), metric)

    def run():
        return [decoder.decode(c, c, nbest=1).idx[0] for c in lists]

    t_mbrs, idx = timed(run)
    same = np.mean(np.array(idx) == ours.index)
    print(f"  mbrs pruning_mbr {t_mbrs:.2f} s; mtpalette {t_mbrs / t_ours:.1f}x faster; "
          f"same choice in {same:.1%} of segments (other bootstrap draws)")  # fmt: skip


def _estimate(lists, t_ours, ours) -> None:
    """A labelled estimate, not a measurement: the cells pruning scored, each timed through
    sacrebleu's CHRF.sentence_score (mbrs's chrF utility per pair unless fastchrf=True), one
    process (mbrs spreads them over a process pool)."""
    from sacrebleu.metrics.chrf import CHRF

    cells = sum(int(np.isfinite(m).sum()) for m in ours.matrices)
    scorer = CHRF()
    pairs = [(c[i], c[j]) for c in lists[:40] for i in range(0, len(c), 3) for j in range(8)]
    t, _ = timed(lambda: [scorer.sentence_score(h, [r]) for h, r in pairs])
    guess = cells * t / len(pairs)
    print(f"  estimate only: the {cells:,} cells pruning scored cost ~{guess:.1f} s through "
          f"sacrebleu's sentence chrF (mbrs's utility, one process): ~{guess / t_ours:.0f}x")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--segments", type=int, default=200)
    ap.add_argument("--n", type=int, default=64)
    args = ap.parse_args()
    lists, what = candidate_lists(args.segments, args.n)
    print(f"data: {what}; {args.segments} segments x {args.n} candidates (chrF)")
    t_exact, exact = timed(lambda: mbr(lists, include_self=True), repeat=2)
    print(f"exact pairwise MBR: {t_exact:.3f} s")
    t_agg, agg = timed(lambda: aggregate(lists), repeat=2)
    values = np.stack(agg.expected())
    print(f"aggregate chrF (s = 1): {t_agg:.3f} s")
    _fastchrf(lists, t_agg, values)
    rows = []
    for s in (1, 2, 4, 8):
        t, sel = timed(lambda s=s: mbr(lists, decoder="aggregate", partitions=s), repeat=2)
        rows.append((f"aggregate, s = {s}", t, sel))
    t_pr, pruned = timed(lambda: mbr(lists, decoder="pruning"), repeat=2)
    rows.append(("pruning (mbrs defaults)", t_pr, pruned))
    print("pruning MBR:")
    _mbrs_pruning(lists, t_pr, pruned)
    print(f"{'decoder':<26}{'time s':>9}{'vs exact':>10}{'same choice as exact':>22}")
    print(f"{'exact pairwise':<26}{t_exact:>9.3f}{1.0:>9.1f}x{'100.0%':>22}")
    for name, t, sel in rows:
        same = np.mean(sel.index == exact.index)
        print(f"{name:<26}{t:>9.3f}{t_exact / t:>9.1f}x{same:>22.1%}")


if __name__ == "__main__":
    main()
