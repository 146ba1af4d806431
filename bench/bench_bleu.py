"""Sentence BLEU-S and smoothed sentence BLEU: mtpalette vs sacrebleu and NLTK, one run.

Usage: python bench/bench_bleu.py [--pairs 50000] [--peer-pairs 3000]

Prints pairs/s and ratios. mtpalette is timed three ways: the scoring alone on text already
encoded (the kernel and the score formula), and end to end from text (tokenizing each
distinct line once, encoding, scoring). Peers are timed on a subset and their per-pair rate is
used for the ratio. numba's compile time is measured in a fresh process without the cache.
"""

from __future__ import annotations

import argparse
import logging
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))

from common import real_pairs, timed  # noqa: E402

from mtpalette.metrics import parse_specs  # noqa: E402
from mtpalette.metrics.scoring import TextPairs, compute_stats  # noqa: E402
from mtpalette.text.tokenizers import tokenize_13a  # noqa: E402

COMPILE_SNIPPET = """
import time
t0 = time.perf_counter()
from mtpalette import sentence_scores
sentence_scores(["a b c"], [["a b d"]], ["bleus:4", "bleu"])
print(time.perf_counter() - t0)
"""


def compile_time(disable_cache: bool) -> float:
    env = dict(os.environ)
    if disable_cache:
        env["NUMBA_CACHE_DIR"] = os.path.join("/tmp", f"mtpalette-nocache-{os.getpid()}")
    out = subprocess.run(
        [sys.executable, "-c", COMPILE_SNIPPET], env=env, capture_output=True, text=True, check=True
    )
    return float(out.stdout.strip())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=50000)
    ap.add_argument("--peer-pairs", type=int, default=3000)
    args = ap.parse_args()
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    hyps, refs, what = real_pairs(args.pairs)
    print(f"data: {what}; {len(hyps)} pairs, {len(refs)} references each")
    print(
        f"numba: first call in a fresh process {compile_time(True):.2f} s without cache, "
        f"{compile_time(False):.2f} s with the on-disk cache (includes imports)"
    )

    rows = []
    for spec in ("bleus:4", "bleu"):
        metric = parse_specs([spec])[0]
        pairs = TextPairs.parallel(hyps, refs)
        t_enc, _ = timed(pairs.encoded, metric.view())
        compute_stats([metric], pairs)  # warm (compiled or loaded from cache)

        def score_only(metric=metric, pairs=pairs):
            stats = compute_stats([metric], pairs)[metric]
            return metric.sentence_scores(stats)

        t_score, _ = timed(score_only, repeat=3)

        def end_to_end(metric=metric):
            p = TextPairs.parallel(hyps, refs)
            return metric.sentence_scores(compute_stats([metric], p)[metric])

        t_e2e, _ = timed(end_to_end)
        rows.append((f"mtpalette {spec} (scoring, encoded text)", len(hyps) / t_score))
        rows.append((f"mtpalette {spec} (end to end from text)", len(hyps) / t_e2e))

    import sacrebleu
    from sacrebleu.metrics import BLEU

    k = min(args.peer_pairs, len(hyps))
    sub_h, sub_r = hyps[:k], [[r[i] for r in refs] for i in range(k)]
    t, _ = timed(lambda: [sacrebleu.sentence_bleu(h, r) for h, r in zip(sub_h, sub_r, strict=True)])
    sacre_rate = k / t
    rows.append(("sacrebleu.sentence_bleu (exp smoothing)", sacre_rate))
    addk = BLEU(smooth_method="add-k", smooth_value=1, max_ngram_order=4)
    t, _ = timed(lambda: [addk.sentence_score(h, r) for h, r in zip(sub_h, sub_r, strict=True)])
    rows.append(("sacrebleu BLEU add-k=1 (= BLEU-S4)", k / t))
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    smooth = SmoothingFunction().method2
    t, _ = timed(
        lambda: [
            sentence_bleu([tokenize_13a(x) for x in r], tokenize_13a(h), smoothing_function=smooth)
            for h, r in zip(sub_h, sub_r, strict=True)
        ]
    )
    nltk_rate = k / t
    rows.append(("nltk sentence_bleu (method2, 13a tokens)", nltk_rate))

    print(f"\n{'implementation':48s} {'pairs/s':>12s} {'x sacrebleu':>12s} {'x nltk':>8s}")
    for name, rate in rows:
        print(f"{name:48s} {rate:12,.0f} {rate / sacre_rate:12.1f} {rate / nltk_rate:8.1f}")

    distinct = list(dict.fromkeys(hyps + [r for ref in refs for r in ref]))
    t0 = time.perf_counter()
    for line in distinct:
        tokenize_13a(line)
    ours = len(distinct) / (time.perf_counter() - t0)
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    tok = Tokenizer13a()
    t0 = time.perf_counter()
    for line in distinct:
        tok(line)
    theirs = len(distinct) / (time.perf_counter() - t0)
    from mtpalette.text.encode import Encoder, TextView

    t_enc, _ = timed(Encoder(TextView("13a")).encode, distinct)
    print(
        f"\ntokenize 13a, {len(distinct)} distinct lines: mtpalette {ours:,.0f} lines/s, "
        f"sacrebleu {theirs:,.0f} lines/s (x{ours / theirs:.2f}); "
        f"tokenize+encode {len(distinct) / t_enc:,.0f} lines/s"
    )


if __name__ == "__main__":
    main()
