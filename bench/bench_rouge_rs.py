"""ROUGE-1 / ROUGE-2 / ROUGE-L from raw text: mtpalette against rouge-score-rs and rouge-score.

Usage: python bench/bench_rouge_rs.py [--pairs 11250] [--peer-pairs 1500] [--stem | --pretokenized]

One process, the same real pairs for everyone (WMT21 zh-en system outputs against reference
A from ../shared/data, else the bundled TED zh-en data), raw text as a summarisation user
passes it (rouge-score's tokenizer runs inside every timing). Peers: rouge-score-rs 0.2.x
(``RougeScorer.score_batch``, Rust, all cores) and rouge-score (Python, on a subset). Every
mtpalette value is checked equal to the peers' before a time is printed. Timings are the best
of 7 runs; pairs/s and the ratio to rouge-score-rs are printed.

``--pretokenized``: the texts are first (once, untimed) made rouge-score's tokens joined by
single spaces (its default tokenizer, no stemming), and mtpalette is timed through its generic
route, ``sentence_scores(hyps, [refs], ["rouge-n:1", ...], tokenize="none")`` (whitespace
tokens, encoded ids, the n-gram / LCS kernels), against rouge-score-rs and rouge-score on the
same strings (their tokenizer is then an identity). Every mtpalette F is checked equal to
rouge-score-rs's (bit for bit, else within 1e-15: the footer says which).
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

#: rouge-score's type -> the generic mtpalette metric (whitespace tokens with tokenize="none")
GENERIC = {"rouge1": "rouge-n:1", "rouge2": "rouge-n:2", "rougeL": "rouge-l"}
#: timings are the best of this many runs, for every contender alike (a shared machine's
#: noise moves a single run by 20-40%)
REPEAT = 7
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


def pretokenize(texts: list[str]) -> list[str]:
    """rouge-score's default tokenizer (no stemming), tokens joined by single spaces; each
    distinct text once."""
    from rouge_score.tokenizers import DefaultTokenizer

    tok, done = DefaultTokenizer(use_stemmer=False), {}
    for t in texts:
        if t not in done:
            done[t] = " ".join(tok.tokenize(t))
    return [done[t] for t in texts]


def peers(types, hyps, targets, stem, k, rs_rs, rs_py):
    """(rouge-score-rs pairs/s, its {type: (n, 3)}, rouge-score pairs/s on the first ``k``
    pairs, its {type: (k, 3)}); None for a peer not installed."""
    rate_rs = vals_rs = rate_py = vals_py = None
    if rs_rs is not None:
        scorer = rs_rs.RougeScorer(types, use_stemmer=stem)
        t_rs, theirs = timed(lambda s=scorer: s.score_batch(targets, hyps), repeat=REPEAT)
        vals_rs = {t: np.array([tuple(x[t]) for x in theirs]) for t in types}
        rate_rs = len(hyps) / t_rs
    if rs_py is not None:
        k = min(k, len(hyps))
        scorer = rs_py.RougeScorer(types, use_stemmer=stem)
        pairs = list(zip(targets[:k], hyps[:k], strict=True))
        t_py, theirs = timed(lambda s=scorer: [s.score(t, h) for t, h in pairs])
        vals_py = {t: np.array([tuple(x[t]) for x in theirs]) for t in types}
        rate_py = k / t_py
    return rate_rs, vals_rs, rate_py, vals_py


def same_f(ours: np.ndarray, theirs: np.ndarray) -> str:
    """Assert equal F values: bit for bit, else to 1e-15; which one held."""
    try:
        np.testing.assert_array_equal(ours, theirs)
        return "bit-equal"
    except AssertionError:
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-15)
        return "equal to 1e-15 (not bit-equal)"


def fmt(x):
    return f"{x:,.0f}" if x else "-"


def row(name, rate, rate2, rate_rs, rate_py):
    print(
        f"{name:<12} {fmt(rate):>12} {fmt(rate2):>12} {fmt(rate_rs):>15} "
        f"{fmt(rate_py):>12} {(f'{rate / rate_rs:.2f}x' if rate_rs else '-'):>8} "
        f"{(f'{rate / rate_py:.0f}x' if rate_py else '-'):>14}"
    )


def run_pretokenized(hyps, targets, args, rs_rs, rs_py) -> None:
    """The generic route on rouge-score's tokens joined by spaces (see the module doc)."""
    from mtpalette import sentence_scores

    hyps, targets = pretokenize(hyps), pretokenize(targets)
    print(f"{'job':<12} {'generic':>12} {'text route':>12} {'rouge-score-rs':>15} "
          f"{'rouge-score':>12} {'x rs-rs':>8} {'x rouge-score':>14}")  # fmt: skip
    equal_rs, equal_py = set(), set()
    for name, types in JOBS:
        specs = [GENERIC[t] for t in types]
        t_gen, gen = timed(
            lambda specs=specs: sentence_scores(hyps, [targets], specs, tokenize="none"),
            repeat=REPEAT,
        )
        t_txt, txt = timed(
            lambda types=types: rouge_score_batch(hyps, targets, types), repeat=REPEAT
        )
        rate_rs, vals_rs, rate_py, vals_py = peers(
            types, hyps, targets, False, args.peer_pairs, rs_rs, rs_py
        )
        for t, spec in zip(types, specs, strict=True):
            np.testing.assert_array_equal(txt[t][:, 2], gen[spec])
            if vals_rs is not None:
                equal_rs.add(same_f(gen[spec], vals_rs[t][:, 2]))
            if vals_py is not None:
                equal_py.add(same_f(gen[spec][: len(vals_py[t])], vals_py[t][:, 2]))
        row(name, len(hyps) / t_gen, len(hyps) / t_txt, rate_rs, rate_py)
    print(
        f"pairs/s, best of {REPEAT}, pre-tokenized text; 'generic' = sentence_scores(..., "
        "tokenize='none') (ratios are its), 'text route' = rouge_score_batch on the same "
        f"strings; F vs rouge-score-rs: {', '.join(sorted(equal_rs)) or 'not checked'}; "
        f"vs rouge-score: {', '.join(sorted(equal_py)) or 'not checked'}"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=11250)
    ap.add_argument("--peer-pairs", type=int, default=1500, help="pairs for rouge-score")
    ap.add_argument("--stem", action="store_true", help="use_stemmer=True everywhere")
    ap.add_argument(
        "--pretokenized",
        action="store_true",
        help="rouge-score's tokens joined by spaces, mtpalette's generic route (tokenize='none')",
    )
    args = ap.parse_args()
    if args.pretokenized and args.stem:
        ap.error("--pretokenized is without stemming: drop --stem")
    hyps, targets, what = zh_en_pairs(args.pairs)
    kind = "pre-tokenized by rouge-score" if args.pretokenized else "raw text"
    print(f"data: {what}; {len(hyps):,} pairs, {kind}; stemming {args.stem}")
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
        if args.pretokenized:
            sys.exit("--pretokenized needs rouge-score's tokenizer: pip install rouge-score")
    if args.pretokenized:
        run_pretokenized(hyps, targets, args, rs_rs, rs_py)
        return

    from mtpalette import sentence_scores

    print(f"{'job':<12} {'mtpalette':>12} {'registry':>12} {'rouge-score-rs':>15} "
          f"{'rouge-score':>12} {'x rs-rs':>8} {'x rouge-score':>14}")  # fmt: skip
    for name, types in JOBS:
        t_ours, ours = timed(
            lambda types=types: rouge_score_batch(hyps, targets, types, use_stemmer=args.stem),
            repeat=REPEAT,
        )
        specs = specs_for(types, use_stemmer=args.stem)
        t_reg, reg = timed(
            lambda specs=specs: sentence_scores(hyps, [targets], specs), repeat=REPEAT
        )
        for t, values in zip(types, reg.values(), strict=True):
            np.testing.assert_array_equal(values, ours[t][:, 2])
        rate_rs, vals_rs, rate_py, vals_py = peers(
            types, hyps, targets, args.stem, args.peer_pairs, rs_rs, rs_py
        )
        for t in types:
            if vals_rs is not None:
                np.testing.assert_array_equal(ours[t], vals_rs[t])
            if vals_py is not None:
                np.testing.assert_array_equal(ours[t][: len(vals_py[t])], vals_py[t])
        row(name, len(hyps) / t_ours, len(hyps) / t_reg, rate_rs, rate_py)
    print(
        f"pairs/s, best of {REPEAT}; 'mtpalette' = rouge_score_batch (text to scores in the core), "
        "'registry' = sentence_scores with tok=rouge-score; values equal to the peers'"
    )


if __name__ == "__main__":
    main()
