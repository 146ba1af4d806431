"""ROUGE-L vs rouge-score, WER vs jiwer, TER vs sacrebleu, the ROUGE-S0..9,* grid: one run.

Usage: python bench/bench_rouge_edit.py [--pairs 50000] [--peer-pairs 3000]

mtpalette is timed on text already encoded (the kernels and score formulas) and end to end
from text; peers on a subset (rouge-score per pair; jiwer's batched corpus call on all pairs).
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

from common import real_pairs, timed  # noqa: E402

from mtpalette.metrics import parse_specs  # noqa: E402
from mtpalette.metrics.scoring import TextPairs, compute_stats  # noqa: E402


def ours(specs, hyps, refs, tokenize="13a"):
    metrics = parse_specs(specs, tokenize=tokenize)
    pairs = TextPairs.parallel(hyps, refs)
    compute_stats(metrics, pairs)  # warm: compile or load the cache, encode once
    t_score, _ = timed(lambda: compute_stats(metrics, pairs), repeat=3)
    t_e2e, _ = timed(lambda: compute_stats(metrics, TextPairs.parallel(hyps, refs)))
    return len(hyps) / t_score, len(hyps) / t_e2e


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=50000)
    ap.add_argument("--peer-pairs", type=int, default=3000)
    args = ap.parse_args()
    hyps, refs, what = real_pairs(args.pairs)
    one = [refs[0]]
    k = min(args.peer_pairs, len(hyps))
    print(f"data: {what}; {len(hyps)} pairs; peers timed on {k} pairs unless said")
    rows = []

    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(["rougeL"])
    t, _ = timed(lambda: [scorer.score(one[0][i], hyps[i]) for i in range(k)])
    peer = k / t
    score, e2e = ours(["rouge-l"], hyps, one)
    rows += [("ROUGE-L, 1 ref", "rouge-score", peer, score, e2e)]

    import jiwer

    t, _ = timed(lambda: jiwer.wer(one[0], hyps))
    peer = len(hyps) / t
    score, e2e = ours(["wer"], hyps, one, tokenize="none")
    rows += [("WER, 1 ref (corpus call, all pairs)", "jiwer.wer(list, list)", peer, score, e2e)]

    from sacrebleu.metrics import TER

    ter = TER()
    t, _ = timed(lambda: [ter.sentence_score(hyps[i], [one[0][i]]) for i in range(k)])
    peer = k / t
    score, e2e = ours(["ter"], hyps, one)
    rows += [("TER, 1 ref", "sacrebleu TER", peer, score, e2e)]

    score, e2e = ours(["rouge-s:0..9,*"], hyps, refs)
    rows += [("ROUGE-S0..9,* (11 metrics), 2 refs", "-", float("nan"), score, e2e)]
    score, e2e = ours(["rouge-w:1.1..2.0/0.1"], hyps, refs)
    rows += [("ROUGE-W-1.1..2.0 (10 metrics), 2 refs", "-", float("nan"), score, e2e)]

    print(
        f"\n{'task':40s} {'peer':24s} {'peer p/s':>10s} {'ours p/s':>10s} {'ratio':>7s} "
        f"{'e2e p/s':>10s} {'ratio':>7s}"
    )
    for task, name, peer, score, e2e in rows:
        print(
            f"{task:40s} {name:24s} {peer:10,.0f} {score:10,.0f} {score / peer:7.1f} "
            f"{e2e:10,.0f} {e2e / peer:7.1f}"
        )


if __name__ == "__main__":
    main()
