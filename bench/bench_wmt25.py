"""Reading and scoring a WMT25-sized language pair: ~40 systems x 2,000 paragraphs in 400
documents, BLEU, chrF and chrF++ at paragraph and document level, against sacrebleu.

Usage: python bench/bench_wmt25.py [--systems 40] [--paragraphs 2000] [--sacre-systems 4]

Data (made here, said in the output): WMT25-format files written into a temporary folder
from the real WMT21 en-de texts of ../shared/data (source, reference A and the 20 system
outputs of newstest2021, 1,002 segments). A paragraph is 4 consecutive sentences (about 90
words, as WMT25's paragraphs of about 100), pooled round the 1,002 segments (paragraph ``k``
starts at sentence ``3k``), 5 paragraphs a document. Synthetic system ``s`` takes each
sentence from a real system chosen by (s, sentence) and, with probability 0.2, drops one
word of it (seeded): 40 different systems from 20 real ones. Nothing of it is kept.

Timed (best of ``--repeat``):

* reading: ``Wmt25Inputs.load`` (test set and every system file parsed and checked, the
  paragraphs split and matched);
* mtpalette, per level: one ``score_systems`` call for all systems and the three metrics,
  which gives both system scores (corpus, and the mean of segment scores) and every segment
  score;
* sacrebleu, per level, on ``--sacre-systems`` systems (it takes minutes for all; its time
  is scaled to every system, said as such): ``corpus_bleu``, ``corpus_chrf``,
  ``CHRF(word_order=2).corpus_score`` and the same metrics' ``sentence_*`` on every segment
  (the mean system score needs them); values compared with mtpalette's.

Measured 2026-12-07 (2 cores, load average 9 from other work; ``--sacre-systems 2
--repeat 1``): 58 MB of JSONL read, checked and matched in 1.4 s; paragraph level (2,000
segments x 40 systems, BLEU + chrF + chrF++, corpus and mean system scores and every
segment score) 14.8 s against sacrebleu's 1,942 s scaled (131x); document level (400
segments) 18.1 s against 2,009 s (111x); mtpalette's values equal sacrebleu's exactly
(largest difference 0.0).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))

from common import SHARED, machine, skip_without_shared_data, timed  # noqa: E402

METRICS = ["bleu", "chrf", "chrf++"]


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def write_files(folder: Path, n_systems: int, n_paragraphs: int, seed: int = 25) -> str:
    """The test set and system files of one synthetic WMT25 pair, from WMT21 en-de."""
    from mtpalette.io.wmt25 import write_jsonl

    root = SHARED / "wmt21" / "txt"
    src = _lines(root / "sources" / "newstest2021.en-de.src.en")
    ref = _lines(root / "references" / "newstest2021.en-de.ref.A.de")
    real = sorted((root / "system-outputs").glob("newstest2021.en-de.hyp.*.de"))
    outputs = [_lines(p) for p in real]
    n = len(src)
    per_doc = 5
    paragraphs = [[(3 * k + j) % n for j in range(4)] for k in range(n_paragraphs)]
    docs = [paragraphs[d : d + per_doc] for d in range(0, n_paragraphs, per_doc)]
    lp = "en-de_DE"

    def doc_id(d: int) -> str:
        return f"{lp}_#_news_#_doc{d}"

    def text(lines, doc):
        return "\n\n".join(" ".join(lines[i] for i in par) for par in doc)

    rows = [{"doc_id": doc_id(d), "collection_id": "general", "domain": "news",
             "src_lang": "en", "tgt_lang": "de_DE", "src_text": text(src, doc),
             "refs": {"refA": {"ref": text(ref, doc)}}} for d, doc in enumerate(docs)]  # fmt: skip
    write_jsonl(folder / "testset.jsonl", rows)
    rng = random.Random(seed)
    (folder / "systems").mkdir()
    for s in range(n_systems):
        lines = []
        for i in range(n):
            words = outputs[(s * 7 + i * (s + 1)) % len(outputs)][i].split(" ")
            if len(words) > 3 and rng.random() < 0.2:
                del words[rng.randrange(len(words))]
            lines.append(" ".join(words))
        rows = [{"doc_id": doc_id(d), "hypothesis": text(lines, doc), "metadata": {}}
                for d, doc in enumerate(docs)]  # fmt: skip
        write_jsonl(folder / "systems" / f"sys{s:02d}.jsonl", rows)
    return f"WMT21 en-de ({len(real)} real systems, {n} segments) pooled"


def sacre(hyps: dict[str, list[str]], refs: list[str]) -> dict[str, dict[str, tuple]]:
    """sacrebleu's corpus score and mean sentence score of each metric, per system."""
    import sacrebleu

    chrfpp = sacrebleu.CHRF(word_order=2)
    funcs = {
        "bleu": (sacrebleu.corpus_bleu, sacrebleu.sentence_bleu),
        "chrf": (sacrebleu.corpus_chrf, sacrebleu.sentence_chrf),
        "chrf++": (chrfpp.corpus_score, chrfpp.sentence_score),
    }
    out = {}
    for name, h in hyps.items():
        out[name] = {
            m: (corpus(h, [refs]).score,
                float(np.mean([sentence(x, [r]).score for x, r in zip(h, refs, strict=True)])))
            for m, (corpus, sentence) in funcs.items()
        }  # fmt: skip
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--systems", type=int, default=40)
    ap.add_argument("--paragraphs", type=int, default=2000)
    ap.add_argument("--sacre-systems", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    if skip_without_shared_data("WMT21 en-de texts"):
        return
    from mtpalette.sources.scoring import score_systems
    from mtpalette.sources.wmt25 import Wmt25Inputs, system_scores

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        t0 = time.perf_counter()
        what = write_files(folder, args.systems, args.paragraphs)
        size = sum(p.stat().st_size for p in folder.rglob("*.jsonl")) / 1e6
        print(f"data: {what} into {args.systems} systems x {args.paragraphs} paragraphs "
              f"({size:.1f} MB of JSONL, written in {time.perf_counter() - t0:.1f} s); "
              f"{machine()}")  # fmt: skip
        inputs = Wmt25Inputs(folder / "testset.jsonl", [folder / "systems"], "en-de_DE")
        t_read, pair = timed(inputs.load, lambda text: None, repeat=args.repeat)
    n_words = sum(len(p.split()) for d in pair.sources for p in d) / args.paragraphs
    print(f"reading (test set + {len(pair.systems)} system files, checked, paragraphs "
          f"matched): {t_read:.2f} s; {n_words:.0f} source words a paragraph")  # fmt: skip
    print(
        f"{'level':10} {'segments':>9} {'mtpalette s':>12} {'sacrebleu s':>12} {'ratio':>7}"
        f"  (sacrebleu on {args.sacre_systems} systems, scaled to {len(pair.systems)})"
    )
    for level in ("paragraph", "document"):
        hyps, refs, _ = pair.segments(level)
        t_ours, scored = timed(score_systems, hyps, refs, METRICS, progress=False,
                               repeat=args.repeat)  # fmt: skip
        corpus = system_scores(scored, level=level, system_score="corpus")
        mean = system_scores(scored, level=level, system_score="mean")
        some = dict(list(hyps.items())[: args.sacre_systems])
        t_sacre, theirs = timed(sacre, some, refs[0])
        t_sacre *= len(hyps) / len(some)
        worst = max(
            abs(ours[name].corpus[k].value - theirs[name][m][j])
            for name in some
            for k, m in enumerate(METRICS)
            for j, ours in enumerate((corpus, mean))
        )
        n_seg = len(next(iter(hyps.values())))
        print(f"{level:10} {n_seg:9,} {t_ours:12.2f} {t_sacre:12.1f} {t_sacre / t_ours:6.0f}x"
              f"  largest difference from sacrebleu {worst:.1e}")  # fmt: skip


if __name__ == "__main__":
    main()
