"""ROUGE-1 / ROUGE-2 / ROUGE-L from raw text: mtpalette against rouge-score-rs and rouge-score.

Usage: python bench/bench_rouge_rs.py [--pairs 11250] [--peer-pairs 1500] [--stem]

One process, the same real pairs for everyone (WMT21 zh-en system outputs against reference
A from ../shared/data, else the bundled TED zh-en data), raw text as a summarisation user
passes it (rouge-score's tokenizer runs inside every timing). Peers: rouge-score-rs 0.2.x
(``RougeScorer.score_batch``, Rust, all cores) and rouge-score (Python, on a subset). Every
mtpalette value is checked equal to the peers' before a time is printed. Timings are the best
of 3 runs; pairs/s and the ratio to rouge-score-rs are printed.
"""

from __future__ import annotations

import argparse
import glob
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))

from common import SHARED, bundled_pairs, timed  # noqa: E402

from mtpalette.io.plain import read_lines  # noqa: E402
from mtpalette.metrics.rouge_score_compat import rouge_score_batch, specs_for  # noqa: E402

JOBS = [("ROUGE-1", ["rouge1"]), ("ROUGE-2", ["rouge2"]), ("ROUGE-L", ["rougeL"]),
        ("ROUGE-1/2/L", ["rouge1", "rouge2", "rougeL"])]  # fmt: skip


def zh_en_pairs(n: int):
    root = SHARED / "wmt21" / "txt"
    files = sorted(glob.glob(str(root / "system-outputs" / "newstest2021.zh-en.hyp.*.en")))
    if not files:
        print("../shared/data not found: using the bundled TED zh-en data")
        hyps, refs, what = bundled_pairs()
        return hyps[:n], refs[0][:n], what
    ref = read_lines(root / "references" / "newstest2021.zh-en.ref.A.en")
    hyps, targets = [], []
    for f in files:
        hyps += read_lines(f)
        targets += ref
        if len(hyps) >= n:
            break
    return hyps[:n], targets[:n], f"WMT21 zh-en, {len(files)} system files, reference A"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=11250)
    ap.add_argument("--peer-pairs", type=int, default=1500, help="pairs for rouge-score")
    ap.add_argument("--stem", action="store_true", help="use_stemmer=True everywhere")
    args = ap.parse_args()
    hyps, targets, what = zh_en_pairs(args.pairs)
    print(f"data: {what}; {len(hyps):,} pairs, raw text; stemming {args.stem}")
    try:
        from rouge_score_rs import rouge_scorer as rs_rs
    except ImportError:
        rs_rs = None
        print("rouge-score-rs not installed (pip install rouge-score-rs): its column is empty")
    try:
        from rouge_score import rouge_scorer as rs_py
    except ImportError:
        rs_py = None
        print("rouge-score not installed: its column is empty")

    from mtpalette import sentence_scores

    print(f"{'job':<12} {'mtpalette':>12} {'registry':>12} {'rouge-score-rs':>15} "
          f"{'rouge-score':>12} {'x rs-rs':>8} {'x rouge-score':>14}")  # fmt: skip
    for name, types in JOBS:
        t_ours, ours = timed(
            lambda types=types: rouge_score_batch(hyps, targets, types, use_stemmer=args.stem),
            repeat=3,
        )
        specs = specs_for(types, use_stemmer=args.stem)
        t_reg, reg = timed(lambda specs=specs: sentence_scores(hyps, [targets], specs), repeat=3)
        for t, values in zip(types, reg.values(), strict=True):
            np.testing.assert_array_equal(values, ours[t][:, 2])
        rate_rs = rate_py = None
        if rs_rs is not None:
            scorer = rs_rs.RougeScorer(types, use_stemmer=args.stem)
            t_rs, theirs = timed(lambda s=scorer: s.score_batch(targets, hyps), repeat=3)
            for t in types:
                np.testing.assert_array_equal(ours[t], np.array([tuple(x[t]) for x in theirs]))
            rate_rs = len(hyps) / t_rs
        if rs_py is not None:
            k = min(args.peer_pairs, len(hyps))
            scorer = rs_py.RougeScorer(types, use_stemmer=args.stem)
            t_py, theirs = timed(
                lambda s=scorer, k=k: [
                    s.score(t, h) for t, h in zip(targets[:k], hyps[:k], strict=True)
                ]
            )
            for t in types:
                np.testing.assert_array_equal(ours[t][:k], np.array([tuple(x[t]) for x in theirs]))
            rate_py = k / t_py
        rate = len(hyps) / t_ours

        def fmt(x):
            return f"{x:,.0f}" if x else "-"

        print(
            f"{name:<12} {fmt(rate):>12} {fmt(len(hyps) / t_reg):>12} {fmt(rate_rs):>15} "
            f"{fmt(rate_py):>12} {(f'{rate / rate_rs:.2f}x' if rate_rs else '-'):>8} "
            f"{(f'{rate / rate_py:.0f}x' if rate_py else '-'):>14}"
        )
    print(
        "pairs/s, best of 3; 'mtpalette' = rouge_score_batch (text to scores in the core), "
        "'registry' = sentence_scores with tok=rouge-score; values equal to the peers'"
    )


if __name__ == "__main__":
    main()
