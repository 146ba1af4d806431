"""WER vs jiwer, TER vs sacrebleu, the edit-distance kernel vs rapidfuzz, PER and GTM: one run.

Usage: python bench/bench_edit.py [--pairs 20000] [--peer-pairs 1000]

Data: the WMT21 into-English outputs with two references when ../shared/data is there,
otherwise the bundled TED zh-en data (the first line printed says which). mtpalette is timed
on text already encoded (kernels and score formulas, best of 3) and end to end from text;
jiwer on all pairs in its batched corpus call, sacrebleu's TER per pair on ``--peer-pairs``.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))

from common import real_pairs, timed  # noqa: E402

from mtpalette.kernels.edit import edit_distances  # noqa: E402
from mtpalette.metrics import parse_specs  # noqa: E402
from mtpalette.metrics.scoring import TextPairs, compute_stats  # noqa: E402
from mtpalette.text.encode import TextView  # noqa: E402


def ours(specs, hyps, refs, tokenize="13a"):
    """(pairs/s on encoded text, pairs/s end to end, the statistics)."""
    metrics = parse_specs(specs, tokenize=tokenize)
    pairs = TextPairs.parallel(hyps, refs)
    compute_stats(metrics, pairs)  # warm: load the compiled kernels, encode once
    t_score, stats = timed(lambda: compute_stats(metrics, pairs), repeat=3)
    t_e2e, _ = timed(lambda: compute_stats(metrics, TextPairs.parallel(hyps, refs)))
    return len(hyps) / t_score, len(hyps) / t_e2e, stats


def rapidfuzz_distances(pairs) -> np.ndarray:
    """The same (P, R) distances with rapidfuzz: ids become characters, cpdist on all cores."""
    from rapidfuzz import process
    from rapidfuzz.distance import Levenshtein

    def strings(rows):
        text = rows.ids.astype("<u4").tobytes().decode("utf-32-le", "surrogatepass")
        off = rows.offsets.tolist()
        return [text[off[i] : off[i + 1]] for i in range(len(off) - 1)]

    hyps, refs = strings(pairs.hyp), strings(pairs.refs)
    S = pairs.n_segments
    out = np.empty((len(hyps), pairs.n_refs))
    for k in range(pairs.n_refs):
        mine = [refs[k * S + s] for s in pairs.seg.tolist()]
        out[:, k] = process.cpdist(hyps, mine, scorer=Levenshtein.distance, workers=-1)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=20000)
    ap.add_argument("--peer-pairs", type=int, default=1000)
    args = ap.parse_args()
    hyps, refs, what = real_pairs(args.pairs)
    one = [refs[0]]
    k = min(args.peer_pairs, len(hyps))
    print(f"data: {what}; {len(hyps)} pairs; sacrebleu timed on {k} pairs")
    rows = []

    import jiwer

    t, theirs = timed(lambda: jiwer.wer(one[0], hyps))
    peer = len(hyps) / t
    score, e2e, stats = ours(["wer"], hyps, one, tokenize="none")
    (wer,) = stats
    assert abs(wer.corpus_score(stats[wer]) - theirs) < 1e-12
    rows += [("WER, 1 ref (corpus)", "jiwer.wer(list, list)", peer, score, e2e)]

    from sacrebleu.metrics import TER

    ter = TER()
    t, _ = timed(lambda: [ter.sentence_score(hyps[i], [one[0][i]]) for i in range(k)])
    peer = k / t
    score, e2e, _ = ours(["ter"], hyps, one)
    rows += [("TER, 1 ref", "sacrebleu TER", peer, score, e2e)]
    t, _ = timed(lambda: [ter.sentence_score(hyps[i], [r[i] for r in refs]) for i in range(k)])
    peer = k / t
    score, e2e, _ = ours(["ter"], hyps, refs)
    rows += [("TER, 2 refs", "sacrebleu TER", peer, score, e2e)]

    score, e2e, _ = ours(["per"], hyps, refs, tokenize="none")
    rows += [("PER, 2 refs", "-", float("nan"), score, e2e)]
    score, e2e, _ = ours(["gtm:1..3"], hyps, refs)
    rows += [("GTM-1,2,3 (3 metrics), 2 refs", "-", float("nan"), score, e2e)]

    print(
        f"\n{'task':32s} {'peer':22s} {'peer p/s':>10s} {'ours p/s':>11s} {'ratio':>7s} "
        f"{'e2e p/s':>10s} {'ratio':>7s}"
    )
    for task, name, peer, score, e2e in rows:
        print(
            f"{task:32s} {name:22s} {peer:10,.0f} {score:11,.0f} {score / peer:7.1f} "
            f"{e2e:10,.0f} {e2e / peer:7.1f}"
        )

    # the edit-distance kernel: Rust bit-parallel vs rapidfuzz on the same encoded pairs
    pairs = TextPairs.parallel(hyps, refs).encoded(TextView("none"))
    edit_distances(pairs)
    t_nb, ours_d = timed(lambda: edit_distances(pairs), repeat=3)
    t_rf, theirs_d = timed(lambda: rapidfuzz_distances(pairs), repeat=3)
    assert (ours_d == theirs_d).all()
    n = len(hyps) * pairs.n_refs
    print(
        f"\nLevenshtein over words, {n:,} pairs x refs: mtpalette {n / t_nb:,.0f}/s, "
        f"rapidfuzz cpdist (with id->char conversion) {n / t_rf:,.0f}/s"
    )


if __name__ == "__main__":
    main()
