"""Span scoring at WMT25 size: mtpalette's ``wmt25`` protocol against the organisers' scorer.

Usage: python bench/bench_spans.py [--lps 16] [--systems 20] [--segments 1500]
       [--annotators 5] [--peer-lps 1] [--wmt25-git DIR] [--resamples 1000]

1. A generated job of WMT25 metrics task 2's size (16 language pairs x 20 systems x 1,500
   segments of 40-160 characters, gold spans and 5 annotators, 0-3 spans per segment, every
   severity including insertion points, undecided spans and omissions). Ours: every
   annotator's per-segment ``wmt25`` counts (spans checked, given as arrays) and the scores per
   language pair; then the same from Python lists of ``(start, end, severity)`` (packing
   included); the matching measure ``mpp``; a stratified bootstrap of all 5 annotators
   (paired, ``--resamples``).
2. The organisers' ``scripts/scoring/task2/scoring_esa.py`` (wmt25-mteval d1f6ab9, taken from
   the snapshot ``--wmt25-git`` with ``git show`` and run unmodified as a process) on TSV files
   of the first ``--peer-lps`` pairs of the same job, one annotator; ours on the same pairs,
   the values compared (to 1e-9, from their recorded full-precision values as
   ``scripts/spans_golden.py`` records them: 4-digit scores.txt lines are compared too). The
   ratio is theirs / ours on the same files, and their time scaled to the full job is printed
   (their per-character loop is linear in characters).

Without the snapshot, part 2 is skipped with a message. The data are generated (no shared data
needed): texts are random letters, so file reading is not what is timed on our side.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from mtpalette.stats.span_input import SEVERITIES, SpanArrays
from mtpalette.stats.span_scores import aggregate_counts, bootstrap_span_scores, stack_counts
from mtpalette.stats.spans import span_counts

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))
import spans_golden  # noqa: E402  (writes their file format, runs their scorer)

SEV_P = np.array([0.35, 0.4, 0.1, 0.1, 0.05])  # minor, major, critical, undecided, omission


def generate(n: int, lengths: np.ndarray, rng: np.random.Generator) -> SpanArrays:
    """0-3 spans per segment, vectorised; 10% insertion points."""
    per = rng.choice(4, size=n, p=[0.35, 0.35, 0.2, 0.1])
    seg = np.repeat(np.arange(n), per)
    length = lengths[seg]
    start = (rng.random(seg.shape[0]) * (length + 1)).astype(np.int64)
    width = rng.integers(1, 25, seg.shape[0])
    width[rng.random(seg.shape[0]) < 0.1] = 0
    end = np.minimum(start + width, length)
    sev = rng.choice(len(SEVERITIES), size=seg.shape[0], p=SEV_P)
    return SpanArrays(seg, start, end, sev, n)


def as_lists(spans: SpanArrays) -> list[list[tuple[int, int, str]]]:
    out: list[list] = [[] for _ in range(spans.n_segments)]
    for s, a, b, v in zip(spans.segment, spans.start, spans.end, spans.severity, strict=True):
        out[int(s)].append((int(a), int(b), SEVERITIES[int(v)]))
    return out


def _timed(fn):
    t = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - t


def ours(lengths, gold, annotators, lps, args) -> dict:
    figures = {}
    t0 = time.perf_counter()
    counts = [span_counts("wmt25", lengths, gold, a) for a in annotators]
    scores = [aggregate_counts(c, lps) for c in counts]
    figures["wmt25 arrays, all annotators"] = time.perf_counter() - t0
    lists_gold, lists_pred = as_lists(gold), as_lists(annotators[0])
    _, figures["wmt25 from lists, one annotator"] = _timed(
        lambda: span_counts("wmt25", lengths, lists_gold, lists_pred)
    )
    _, figures["mpp arrays, one annotator"] = _timed(
        lambda: span_counts("mpp", lengths, gold, annotators[0])
    )
    _, figures[f"bootstrap {args.resamples}, all annotators paired"] = _timed(
        lambda: bootstrap_span_scores(stack_counts(counts), lps, n_resamples=args.resamples, seed=1)
    )
    print("mean F1 over pairs:", [round(s.mean[2], 4) for s in scores])
    return figures


def _segments_for_peer(n_peer, lengths, lps, systems, rng) -> list[dict]:
    letters = np.array(list("abcdefghij klmnopqrstuvwxyz"))
    segs = []
    for k in range(n_peer):
        text = "".join(rng.choice(letters, int(lengths[k])))
        text = "x" + text[1:-1] + "x" if len(text) > 1 else "x" * len(text)
        segs.append(
            {"lp": lps[k], "system": systems[k], "doc": "d", "segment": k, "domain": "news",
             "text": text}
        )  # fmt: skip
    return segs


def peer(args, lengths, gold, pred, lps, systems) -> None:
    if args.wmt25_git is None or not args.wmt25_git.is_dir():
        print(
            f"SKIP peer: no snapshot at {args.wmt25_git} (give --wmt25-git, a git directory of "
            "wmt-conference/wmt25-mteval)"
        )
        return
    per_lp = args.systems * args.segments
    n_peer = args.peer_lps * per_lp
    rng = np.random.default_rng(2)
    keep = lambda s: s.where(s.segment < n_peer)  # noqa: E731
    g, p = keep(gold), keep(pred)
    g = SpanArrays(g.segment, g.start, g.end, g.severity, n_peer)
    p = SpanArrays(p.segment, p.start, p.end, p.severity, n_peer)
    # their TSV cannot hold an omission's offsets, and pandas needs text offset columns
    inputs = {
        "segments": _segments_for_peer(n_peer, lengths, lps, systems, rng),
        "gold": [[list(x) for x in s] for s in as_lists(g)],
        "annotators": {"pred": [[list(x) for x in s] for s in as_lists(p)]},
    }
    with tempfile.TemporaryDirectory(prefix="bench-spans-") as tmp:
        script = spans_golden.extract(args.wmt25_git, spans_golden.WMT25, Path(tmp))
        folder = Path(tmp) / "job"
        spans_golden.write_wmt25(folder, inputs, "pred")
        (folder / "out").mkdir()
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        t = time.perf_counter()
        subprocess.run(
            [sys.executable, str(script), str(folder), str(folder / "out")],
            check=True, capture_output=True, env=env,
        )  # fmt: skip
        theirs = time.perf_counter() - t
        lines = spans_golden._lines((folder / "out" / "scores.txt").read_text())
        (folder / "rec").mkdir()
        recorded = subprocess.run(
            [sys.executable, spans_golden.__file__, "record", str(script), "get_char_f1",
             str(folder), str(folder / "rec")],
            check=True, capture_output=True, text=True, env=env,
        ).stdout  # fmt: skip
        calls = json.loads(recorded.strip().splitlines()[-1])
    t = time.perf_counter()
    c = span_counts("wmt25", lengths[:n_peer], g, p)
    s = aggregate_counts(c, lps[:n_peer])
    ours_s = time.perf_counter() - t
    order = [k[: -len("_f1")] for k in lines if k.endswith("_f1") and k != "avg_f1"]
    mine = {
        lp.replace("-", ""): (s.precision[i], s.recall[i], s.f1[i]) for i, lp in enumerate(s.groups)
    }
    diff = max(
        abs(a - b)
        for lp, call in zip(order, calls, strict=True)
        for a, b in zip(call, mine[lp], strict=True)
    )
    print(f"peer on {n_peer} segments ({args.peer_lps} pair(s)): theirs {theirs:.2f} s, "
          f"ours {ours_s:.3f} s, ratio {theirs / ours_s:.0f}x; "
          f"largest |difference| of P, R, F1: {diff:.1e}")  # fmt: skip
    scale = len(lengths) / n_peer
    print(f"their time scaled to the full job, one annotator: {theirs * scale:.0f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lps", type=int, default=16)
    ap.add_argument("--systems", type=int, default=20)
    ap.add_argument("--segments", type=int, default=1500)
    ap.add_argument("--annotators", type=int, default=5)
    ap.add_argument("--peer-lps", type=int, default=1)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument(
        "--wmt25-git", type=Path, default=None
    )
    args = ap.parse_args()
    rng = np.random.default_rng(57)
    n = args.lps * args.systems * args.segments
    lengths = rng.integers(40, 161, n)
    lps = np.repeat([f"l{i:02d}-xx" for i in range(args.lps)], args.systems * args.segments)
    systems = np.tile(np.repeat([f"sys{i}" for i in range(args.systems)], args.segments), args.lps)
    gold = generate(n, lengths, rng)
    annotators = [generate(n, lengths, rng) for _ in range(args.annotators)]
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}; {n} segments, {int(lengths.sum())} characters, "
          f"{len(gold)} gold spans, {args.annotators} annotators")  # fmt: skip
    figures = ours(lengths, gold, annotators, lps, args)
    for k, v in figures.items():
        print(f"ours: {k}: {v:.2f} s")
    peer(args, lengths, gold, annotators[0], lps, systems)
    print(json.dumps({k: round(v, 3) for k, v in figures.items()}))


if __name__ == "__main__":
    main()
