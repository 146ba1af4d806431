"""Sentence chrF, sentence BLEU and corpus BLEU from text: mtpalette against the Rust peers
(fastchrf, bleuscore) and sacrebleu, in one process.

Usage: python bench/bench_text_peers.py [--pairs 20000] [--sacre-pairs 3000] [--rounds 5]

Data: real WMT21 pairs (``common.real_pairs``: the into-English pairs of ../shared/data, else
the bundled TED data, said in the output), one reference (fastchrf and bleuscore take the
references per segment as lists; one keeps the jobs equal). Every timing starts from the
lists of strings and ends with the scores (tokenizing included), best of 3.

* sentence chrF: ``sentence_scores(..., ["chrf"])`` vs fastchrf ``pairwise_chrf`` with one
  hypothesis and one reference per segment (its sentence chrF); values compared;
* sentence BLEU: ``sentence_scores(..., ["bleu"])`` vs ``sacrebleu.sentence_bleu`` (on the
  first ``--sacre-pairs`` pairs: it is slow; its per-pair rate is used), in ``--rounds``
  rounds of both (the median ratio and the range are printed); values compared;
* corpus BLEU: ``corpus_score(..., "bleu")`` vs ``sacrebleu.corpus_bleu`` and bleuscore's
  ``compute`` (Rust; 13a tokens, no smoothing: with one reference its brevity penalty is
  sacrebleu's); values printed.
Peers missing: their rows say so.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))

from common import real_pairs, timed  # noqa: E402

from mtpalette import corpus_score, sentence_scores  # noqa: E402
from mtpalette.kernels.threads import num_threads  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", type=int, default=20000)
    ap.add_argument("--sacre-pairs", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=5, help="sentence BLEU rounds (median)")
    args = ap.parse_args()
    hyps, refs, what = real_pairs(args.pairs)
    hyps, ref = hyps[: args.pairs], refs[0][: args.pairs]
    n = len(hyps)
    print(
        f"data: {what}; {n:,} pairs, 1 reference; {os.cpu_count()} cores, "
        f"{num_threads()} kernel threads, load average {os.getloadavg()[0]:.1f}"
    )

    # sentence chrF
    t_ours, ours = timed(lambda: sentence_scores(hyps, [ref], ["chrf"])["chrf"], repeat=3)
    line = f"sentence chrF: mtpalette {n / t_ours:,.0f} pairs/s"
    try:
        from fastchrf import pairwise_chrf
    except ImportError:
        print(line + "; fastchrf not installed (pip install fastchrf)")
    else:
        hl, rl = [[h] for h in hyps], [[r] for r in ref]
        t_fc, theirs = timed(lambda: pairwise_chrf(hl, rl), repeat=3)
        theirs = np.asarray(theirs, dtype=float).reshape(n)
        diff = np.abs(theirs - ours).max()
        same = "identical" if diff == 0 else f"max difference {diff:.2e}"
        print(f"{line}; fastchrf {n / t_fc:,.0f} pairs/s; {t_fc / t_ours:.1f}x; values {same}")

    # sentence BLEU: rounds of ours then sacrebleu's, one after the other, so that a machine
    # whose speed drifts (a shared one) moves both sides of each round's ratio alike
    line = "sentence BLEU: mtpalette"
    try:
        import sacrebleu
    except ImportError:
        sacrebleu = None
        t_ours, _ = timed(lambda: sentence_scores(hyps, [ref], ["bleu"]), repeat=3)
        print(f"{line} {n / t_ours:,.0f} pairs/s; sacrebleu not installed")
    else:
        k = min(args.sacre_pairs, n)
        pairs = list(zip(hyps[:k], ref[:k], strict=True))
        rates, ratios, diff = [], [], 0.0
        for _ in range(args.rounds):
            t_ours, ours = timed(lambda: sentence_scores(hyps, [ref], ["bleu"])["bleu"], repeat=3)
            t_sb, theirs = timed(lambda: [sacrebleu.sentence_bleu(h, [r]).score for h, r in pairs])
            diff = max(diff, float(np.abs(np.array(theirs) - ours[:k]).max()))
            rates.append((n / t_ours, k / t_sb))
            ratios.append(n / t_ours / (k / t_sb))
        ours_rate, sb_rate = np.median(rates, axis=0)
        print(
            f"{line} {ours_rate:,.0f} pairs/s; sacrebleu.sentence_bleu {sb_rate:,.0f} pairs/s "
            f"({k:,} pairs); {np.median(ratios):.0f}x (median of {args.rounds} rounds; "
            f"{min(ratios):.0f}-{max(ratios):.0f}x); max difference {diff:.1e}"
        )

    # corpus BLEU
    t_ours, (score,) = timed(lambda: corpus_score(hyps, [ref], "bleu"), repeat=3)
    print(f"corpus BLEU: mtpalette {t_ours * 1e3:.1f} ms, BLEU {score.value:.4f}")
    if sacrebleu is not None:
        t_sb, theirs = timed(lambda: sacrebleu.corpus_bleu(hyps, [ref]), repeat=3)
        print(
            f"  sacrebleu.corpus_bleu {t_sb * 1e3:.1f} ms, BLEU {theirs.score:.4f}; "
            f"{t_sb / t_ours:.1f}x"
        )
    try:
        import bleuscore
    except ImportError:
        print("  bleuscore not installed (pip install bleuscore)")
    else:
        rl = [[r] for r in ref]
        t_bs, theirs = timed(lambda: bleuscore.compute(rl, hyps, 4, False), repeat=3)
        print(
            f"  bleuscore.compute {t_bs * 1e3:.1f} ms, BLEU {100 * theirs['bleu']:.4f}; "
            f"{t_bs / t_ours:.1f}x"
        )


if __name__ == "__main__":
    main()
