"""Benchmark: ORANGE with the paper's full metric grid on 900 segments x 1024 candidates x 4
references, on real text.

No real 1024-best lists exist offline, so candidate lists are POOLED from real system outputs:
segment i gets the 22 WMT19 en-de system outputs for its own source sentence first, then
German sentences drawn (seeded) from the other segments' outputs of WMT19 en-de and WMT21
en-de, chosen among those of similar length to the segment's reference. The references are
4 of the 8 WMT19 en-de references (official, NTREX, and two of Google's extra references).
The n-best list is written as a Moses n-best file and read back, so reading is timed too.

Usage::

    python bench/bench_orange.py                      # 900 x 1024 x 4 (the target: < 10 min)
    python bench/bench_orange.py --segments 50 --candidates 64     # a quick check

Reports wall time per phase and peak memory (max RSS). Families of the grid that are not
registered yet are skipped with a note. Skips with a message when the shared data
(bench/common.py) is absent.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from common import SHARED, skip_without_shared_data  # bench/common.py: the shared data folder

DATA = SHARED
GRID = ["bleus:1..9", "nist", "wer", "per", "rouge-l", "rouge-w:1.1..2.0/0.1", "rouge-s:0..9,*"]
WMT19 = DATA / "wmt17-19" / "WMT19"
REFS = [
    WMT19 / "references" / "newstest2019-ende-ref.de",
    DATA / "ntrex" / "NTREX-128" / "newstest2019-ref.deu.txt",
    DATA / "wmt19-extra-refs" / "wmt19" / "ende" / "wmt19-ende-ar.ref",
    DATA / "wmt19-extra-refs" / "wmt19" / "ende" / "wmt19-ende-hqr.ref",
]


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


class Clock:
    def __init__(self) -> None:
        self.t0 = time.perf_counter()
        self.last = self.t0
        self.phases: list[tuple[str, float]] = []

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.phases.append((name, now - self.last))
        print(f"  {name:<38} {now - self.last:8.1f} s   peak RSS {peak_mb():7.0f} MB", flush=True)
        self.last = now

    @property
    def total(self) -> float:
        return time.perf_counter() - self.t0


def pooled_nbest(n_seg: int, n_cand: int, seed: int):
    """Candidate lists pooled from real German system outputs (see the module docstring)."""
    from mtpalette.io.plain import read_lines

    refs = [read_lines(p) for p in REFS]
    sys_files = sorted((WMT19 / "system-outputs" / "en-de").iterdir())
    own = [read_lines(p) for p in sys_files]
    S_all = len(refs[0])
    rng = np.random.default_rng(seed)
    segments = np.sort(rng.choice(S_all, size=n_seg, replace=False))
    wmt21 = sorted((DATA / "wmt21" / "txt" / "system-outputs").glob("newstest2021.en-de.hyp.*"))
    pool = [(s, line) for lines in own for s, line in enumerate(lines)]
    pool += [(-1, line) for p in wmt21 for line in read_lines(p)]
    pool_len = np.array([len(line) for _, line in pool])
    pool_seg = np.array([s for s, _ in pool])
    order = np.argsort(pool_len, kind="stable")
    sorted_len = pool_len[order]
    ids, hyps = [], []
    n_own = min(len(own), n_cand)
    for s in segments.tolist():
        chosen = [lines[s] for lines in own[:n_own]]
        need = n_cand - n_own
        if need > 0:
            target = len(refs[0][s])
            lo = np.searchsorted(sorted_len, 0.7 * target)
            hi = np.searchsorted(sorted_len, 1.3 * target + 1)
            window = order[lo:hi]
            window = window[pool_seg[window] != s]
            if len(window) < need:  # very short or long sentence: widen to the whole pool
                window = order[pool_seg[order] != s]
            pick = rng.choice(window, size=need, replace=len(window) < need)
            chosen += [pool[j][1] for j in pick.tolist()]
        ids += [int(s)] * len(chosen)
        hyps += chosen
    return segments, ids, hyps, refs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--segments", type=int, default=900)
    ap.add_argument("--candidates", type=int, default=1024)
    ap.add_argument("--refs", type=int, default=4, choices=range(2, len(REFS) + 1))
    ap.add_argument("--oracle", default="leave-one-out")
    ap.add_argument("--bootstrap", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--metrics", nargs="+", default=GRID)
    ap.add_argument("--curve-step", type=int, default=64)
    ap.add_argument("--errors-max", type=int, default=10)
    args = ap.parse_args()
    if skip_without_shared_data():
        return 0

    from mtpalette.io.nbest import read_nbest, write_moses_nbest
    from mtpalette.io.runfile import write_jsonl
    from mtpalette.metaeval.candidates import CandidateLists, compare_candidates
    from mtpalette.metaeval.orange import evaluate, orange_curve
    from mtpalette.metaeval.orange_errors import error_analysis
    from mtpalette.metrics import known_metrics, parse_specs

    specs = []
    for spec in args.metrics:
        family = spec.split(":", 1)[0]
        if family in known_metrics():
            specs.append(spec)
        else:
            print(f"note: metric family {family!r} is not available yet; {spec!r} skipped")
    metrics = parse_specs(specs)
    print(
        f"ORANGE benchmark: {args.segments} segments x {args.candidates} candidates x "
        f"{args.refs} references, oracle {args.oracle}, {len(metrics)} metrics "
        f"({' '.join(specs)}), bootstrap {args.bootstrap}"
    )
    print(
        "candidates: the 22 WMT19 en-de system outputs of each segment, then German "
        "sentences POOLED from other segments' outputs (WMT19 + WMT21 en-de, similar length)"
    )

    clock = Clock()
    segments, ids, hyps, refs = pooled_nbest(args.segments, args.candidates, args.seed)
    refs = refs[: args.refs]
    clock.lap("pool candidates from real outputs")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "pooled.nbest"
        write_moses_nbest(path, ids, hyps)
        clock.lap(f"write Moses n-best ({len(hyps):,} lines)")
        nbest = read_nbest(path)
        clock.lap("read n-best")
    keep_refs = [[r[s] for s in segments.tolist()] for r in refs]
    remap = {int(s): i for i, s in enumerate(segments.tolist())}
    nbest = type(nbest)(
        np.array([remap[int(i)] for i in nbest.ids]),
        nbest.hyps,
        nbest.features,
        nbest.scores,
        nbest.lines,
        nbest.path,
    )
    lists = CandidateLists.from_nbest(nbest, keep_refs)
    del nbest, ids, hyps
    clock.lap("group into candidate lists")

    step_t = [time.perf_counter()]

    def progress(done: int, total: int, what: str) -> None:
        now = time.perf_counter()
        print(f"    [{done:>3}/{total}] {what:<55} {now - step_t[0]:7.1f} s", flush=True)
        step_t[0] = now

    comps = compare_candidates(
        lists, metrics, oracle=args.oracle, keep_scores=args.errors_max, progress=progress
    )
    clock.lap("score + compare (all metrics)")
    table = evaluate(comps, n_resamples=args.bootstrap, seed=args.seed)
    clock.lap(f"ORANGE table + bootstrap ({args.bootstrap})")
    curve = orange_curve(comps, step=args.curve_step)
    clock.lap(f"curve (step {args.curve_step}, {len(curve.cutoffs)} points)")
    with tempfile.TemporaryDirectory() as tmp:
        n = write_jsonl(
            Path(tmp) / "errors.jsonl",
            (
                rec
                for c in comps
                for rec in error_analysis(
                    c, texts=lists.texts, origins=lists.origins, max_per_segment=args.errors_max
                )
            ),
            plain=True,
        )
    clock.lap(f"error analysis ({n:,} records)")

    print(f"\n{'Method':<14}{'ORANGE':>9}{'AvgRank':>10}{'CI-L':>8}{'CI-U':>8}")
    for row in table.rows:
        mark = "best" if row.best else ("= best" if row.equivalent else "")
        print(
            f"{row.metric:<14}{100 * row.orange.value:8.2f}%{row.avg_rank.value:10.1f}"
            f"{row.avg_rank.low:8.1f}{row.avg_rank.high:8.1f}  {mark}"
        )
    setup = sum(t for name, t in clock.phases[:2])  # pooling and writing the n-best file
    print(
        f"\nTOTAL {clock.total:.1f} s wall, peak RSS {peak_mb():.0f} MB "
        f"({len(lists.texts):,} candidates, {len(metrics)} metrics, {args.refs} refs); "
        f"the ORANGE run (reading the n-best file to the error analysis) "
        f"{clock.total - setup:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
