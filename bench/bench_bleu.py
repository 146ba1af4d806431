"""Sentence BLEU-S4 and smoothed sentence BLEU: mtpalette vs sacrebleu and NLTK, in one run.

Usage: python bench/bench_bleu.py [--pairs 50000] [--sacre-pairs 5000] [--nltk-pairs 2000]
                                  [--json bench/results/bench_bleu.json | --no-json]

Data: WMT21 system outputs with their two references (de-en, cs-en, ru-en, en-cs, en-ru pooled
until --pairs is reached) from ../shared/data; without it, the bundled TED data repeated (and
the output says so: repeated lines are tokenized once, which flatters end-to-end figures).

mtpalette is timed two ways: end to end from text (a fresh TextPairs: every distinct line
tokenized once, encoded, n-gram kernel, score formula) and scoring only (text already
encoded: kernel and formula). Peers are timed on an evenly spaced subset and their per-pair
rate is used for the ratios: ``sacrebleu.sentence_bleu`` (exp smoothing, effective order),
sacrebleu's add-k (k = 1, no effective order; equal to BLEU-S4), NLTK's ``sentence_bleu`` on
pre-split 13a tokens (its tokenization is not timed) with smoothing method 2 (add one for
n > 1, as BLEU-S) and method 3 (NIST's geometric smoothing, as sacrebleu's exp).

A fresh process is timed too (import, first call, second call on the bundled data): the
kernels are compiled at install time (Rust core), so the first call costs what the second
does, with no compile step. Tokenization is timed on the
distinct lines of the data: mtpalette's encoder (tokenize + int ids) vs sacrebleu's tokenizer
objects (fresh, so their line caches start empty).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))

from common import real_pairs, timed  # noqa: E402

from mtpalette.kernels.threads import num_threads  # noqa: E402
from mtpalette.metrics import parse_specs  # noqa: E402
from mtpalette.metrics.scoring import TextPairs, compute_stats  # noqa: E402
from mtpalette.text.encode import Encoder, TextView  # noqa: E402

COMPILE_SNIPPET = """
import json, os, sys, time
t0 = time.perf_counter()
sys.path.insert(0, {bench!r})
from common import bundled_pairs
from mtpalette import sentence_scores
t1 = time.perf_counter()
hyps, refs, _ = bundled_pairs()
specs = ["bleus:4", "bleu"]
t2 = time.perf_counter()
sentence_scores(hyps, refs, specs)
t3 = time.perf_counter()
sentence_scores(hyps, refs, specs)
t4 = time.perf_counter()
print(json.dumps({{"import": t1 - t0, "first": t3 - t2, "again": t4 - t3}}))
"""


def compile_times() -> dict[str, dict[str, float]]:
    """Two fresh processes on the bundled data: import, first call and second call."""
    bench = os.path.dirname(os.path.abspath(__file__))
    code = COMPILE_SNIPPET.format(bench=bench)
    out = {}
    for label in ("first process", "second process"):
        run = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        out[label] = json.loads(run.stdout.strip().splitlines()[-1])
    return out


def subset(n_total: int, k: int) -> list[int]:
    """``k`` evenly spaced indices of ``range(n_total)``."""
    k = min(k, n_total)
    return [i * n_total // k for i in range(k)]


def mtpalette_rates(spec: str, hyps, refs) -> dict[str, float]:
    metrics = parse_specs([spec])

    def score(pairs):
        stats = compute_stats(metrics, pairs)
        return [m.sentence_scores(stats[m]) for m in metrics]

    score(TextPairs.parallel(hyps, refs))  # warm: load the compiled kernels
    t_e2e, _ = timed(lambda: score(TextPairs.parallel(hyps, refs)), repeat=5)
    encoded = TextPairs.parallel(hyps, refs)
    score(encoded)
    t_score, _ = timed(lambda: score(encoded), repeat=5)
    return {"end_to_end": len(hyps) / t_e2e, "scoring": len(hyps) / t_score}


def peer_rate(fn, items) -> float:
    t, _ = timed(lambda: [fn(*item) for item in items])
    return len(items) / t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", type=int, default=50000)
    ap.add_argument("--sacre-pairs", type=int, default=5000)
    ap.add_argument("--nltk-pairs", type=int, default=2000)
    ap.add_argument(
        "--json", default=os.path.join(os.path.dirname(__file__), "results", "bench_bleu.json")
    )
    ap.add_argument("--no-json", action="store_true")
    args = ap.parse_args()
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)

    import sacrebleu
    from nltk.translate.bleu_score import SmoothingFunction
    from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu
    from sacrebleu.metrics import BLEU
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International

    hyps, refs, what = real_pairs(args.pairs)
    n_refs = len(refs)
    load = os.getloadavg()
    print(f"data: {what}; {len(hyps):,} pairs, {n_refs} references each")
    print(
        f"machine: {os.cpu_count()} cores, {num_threads()} kernel threads, "
        f"load average {load[0]:.2f} at start"
    )
    results: dict = {"data": what, "pairs": len(hyps), "refs": n_refs, "load_start": load[0]}

    comp = compile_times()
    results["compile"] = comp
    for label, c in comp.items():
        print(
            f"fresh process ({label}): import {c['import']:.2f} s, first call on the "
            f"bundled data {c['first']:.2f} s, second call {c['again']:.2f} s "
            f"(first-use overhead ~ {c['first'] - c['again']:.2f} s)"
        )

    ours = {spec: mtpalette_rates(spec, hyps, refs) for spec in ("bleus:4", "bleu", "bleus:1..9")}

    idx = subset(len(hyps), args.sacre_pairs)
    items = [(hyps[i], [r[i] for r in refs]) for i in idx]
    sacre_exp = peer_rate(lambda h, r: sacrebleu.sentence_bleu(h, r).score, items)
    addk = BLEU(smooth_method="add-k", smooth_value=1)
    sacre_addk = peer_rate(lambda h, r: addk.sentence_score(h, r).score, items)
    # the same numbers? (sanity check on the subset)
    sub_h, sub_r = [h for h, _ in items], [[r[k] for _, r in items] for k in range(n_refs)]
    from mtpalette import sentence_scores

    mine = sentence_scores(sub_h, sub_r, ["bleu", "bleus:4"])
    diff_exp = max(
        abs(a - sacrebleu.sentence_bleu(h, r).score)
        for a, (h, r) in zip(mine["bleu"], items, strict=True)
    )
    diff_addk = max(
        abs(a - addk.sentence_score(h, r).score)
        for a, (h, r) in zip(mine["bleus:4"], items, strict=True)
    )

    tok = Tokenizer13a()
    nidx = subset(len(hyps), args.nltk_pairs)
    nltk_items = [
        ([tok(r[i]).split() for r in refs], tok(hyps[i]).split()) for i in nidx
    ]  # pre-split: NLTK's tokenization is not timed
    smoothing = SmoothingFunction()
    nltk_m2 = peer_rate(
        lambda r, h: nltk_sentence_bleu(r, h, smoothing_function=smoothing.method2), nltk_items
    )
    nltk_m3 = peer_rate(
        lambda r, h: nltk_sentence_bleu(r, h, smoothing_function=smoothing.method3), nltk_items
    )

    rows = [
        ("mtpalette bleus:4, end to end from text", ours["bleus:4"]["end_to_end"]),
        ("mtpalette bleus:4, scoring encoded text", ours["bleus:4"]["scoring"]),
        ("mtpalette bleu (exp, eff), end to end", ours["bleu"]["end_to_end"]),
        ("mtpalette bleu (exp, eff), scoring encoded", ours["bleu"]["scoring"]),
        ("mtpalette bleus:1..9 (9 scores), end to end", ours["bleus:1..9"]["end_to_end"]),
        ("sacrebleu.sentence_bleu (exp, eff)", sacre_exp),
        ("sacrebleu BLEU add-k=1 (= bleus:4)", sacre_addk),
        ("nltk sentence_bleu method2 (~bleus:4)", nltk_m2),
        ("nltk sentence_bleu method3 (~exp)", nltk_m3),
    ]
    print(
        f"\nsentence scores: sacrebleu on {len(items):,} pairs, NLTK on {len(nltk_items):,} "
        f"(evenly spaced); max |mtpalette - sacrebleu| on them: bleu {diff_exp:.1e}, "
        f"bleus:4 {diff_addk:.1e}"
    )
    print(f"{'implementation':46s} {'pairs/s':>11s} {'x sacrebleu':>12s} {'x nltk':>8s}")
    for name, rate in rows:
        print(f"{name:46s} {rate:11,.0f} {rate / sacre_exp:12.1f} {rate / nltk_m3:8.1f}")
    results["sentence"] = {name: rate for name, rate in rows}
    results["max_abs_diff"] = {"bleu": diff_exp, "bleus:4": diff_addk}

    distinct = list(dict.fromkeys(hyps + [r for ref in refs for r in ref]))
    n_chars = sum(map(len, distinct))
    tok_rows = []
    for name, view, peer in (
        ("13a", TextView("13a"), Tokenizer13a),
        ("intl", TextView("intl"), TokenizerV14International),
    ):
        Encoder(view).encode(distinct[:100])  # warm
        t_ours, _ = timed(lambda view=view: Encoder(view).encode(distinct), repeat=3)
        t_theirs, _ = timed(lambda peer=peer: [t.split() for t in map(peer(), distinct)])
        tok_rows.append((name, len(distinct) / t_ours, len(distinct) / t_theirs))
    print(
        f"\ntokenize, {len(distinct):,} distinct lines ({n_chars / len(distinct):.0f} characters "
        f"on average); mtpalette = tokenize + int ids, sacrebleu = tokenize + split"
    )
    print(f"{'tokenizer':10s} {'mtpalette lines/s':>18s} {'sacrebleu lines/s':>18s} {'ratio':>7s}")
    for name, a, b in tok_rows:
        print(f"{name:10s} {a:18,.0f} {b:18,.0f} {a / b:7.1f}")
    results["tokenize"] = {name: {"mtpalette": a, "sacrebleu": b} for name, a, b in tok_rows}
    results["load_end"] = os.getloadavg()[0]
    print(f"\nload average at the end: {results['load_end']:.2f}")

    if not args.no_json:
        os.makedirs(os.path.dirname(args.json), exist_ok=True)
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=2)
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
