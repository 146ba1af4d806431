"""``mtpalette spans`` timed as a whole process on a WMT25-sized job (issue 57).

Usage: python bench/bench_spans_cli.py DIR [--lps 16] [--systems 20] [--segments 1500]
       [--annotators 5] [--peer-lps 1] [--wmt25-git DIR]

Writes the job of ``bench/bench_spans.py`` (its generator, same seed: 16 language pairs x 20
systems x 1,500 segments of 40-160 random letters, gold spans and 5 annotators, 0-3 spans per
segment of every severity, insertion points, undecided spans and omissions) as generic span
JSONL files in DIR (``gold.jsonl``, ``a0.jsonl`` ... ), and prints the command to time with
farm-bench, e.g.::

    farm-bench -n 3 --timeout 1800 -- mtpalette spans --gold DIR/gold.jsonl \\
        --pred a0=DIR/a0.jsonl ... --bootstrap 0 -q

The whole process is timed: start-up, reading and checking 6 files of 480,000 segments each,
aligning the keys and texts, the ``wmt25`` counts of 7 annotators (the 5 and both baselines),
and the tables. Figures measured are in docs/spans.md ("Speed").

With the wmt25-mteval snapshot (``--wmt25-git``), DIR/peer holds the first ``--peer-lps``
pairs with the gold and annotator a0 twice: in the organisers' task-2 TSV layout
(``theirs/ref/task2_refs.tsv``, ``theirs/res/predictions.tsv``, written by
``scripts/spans_golden.py``) with their ``scoring_esa.py`` (d1f6ab9) taken unmodified from the
snapshot, and as our JSONL; the printed ``farm-bench --vs`` command times both whole processes.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_spans import as_lists, generate  # noqa: E402

from mtpalette.stats.span_input import SEVERITIES  # noqa: E402


def write(path: Path, spans, lps, systems, texts) -> None:
    order = np.argsort(spans.segment, kind="stable")
    seg, start, end, sev = (a[order] for a in (spans.segment, spans.start, spans.end,
                                               spans.severity))  # fmt: skip
    bounds = np.searchsorted(seg, np.arange(len(texts) + 1))
    with open(path, "w", encoding="utf-8") as fh:
        for k, text in enumerate(texts):
            a, b = bounds[k], bounds[k + 1]
            spans_k = [{"start": int(start[i]), "end": int(end[i]),
                        "severity": SEVERITIES[int(sev[i])]} for i in range(a, b)]  # fmt: skip
            row = {"lp": lps[k], "system": systems[k], "doc": "d", "segment": k, "text": text,
                   "spans": spans_k}  # fmt: skip
            fh.write(json.dumps(row) + "\n")


def write_peer(folder: Path, git_dir: Path, n_peer: int, gold, pred, lps, systems, texts):
    """The first ``n_peer`` segments, gold and one annotator, in their layout and ours."""
    import spans_golden  # scripts/, on the path through bench_spans

    from mtpalette.stats.span_input import SpanArrays

    def keep(s):
        k = s.where(s.segment < n_peer)
        return SpanArrays(k.segment, k.start, k.end, k.severity, n_peer)

    g, p = keep(gold), keep(pred)
    segments = [{"lp": lps[k], "system": systems[k], "doc": "d", "segment": k,
                 "domain": "news", "text": texts[k]} for k in range(n_peer)]  # fmt: skip
    inputs = {"segments": segments, "gold": [[list(x) for x in s] for s in as_lists(g)],
              "annotators": {"a0": [[list(x) for x in s] for s in as_lists(p)]}}  # fmt: skip
    spans_golden.write_wmt25(folder / "theirs", inputs, "a0")
    (folder / "theirs" / "out").mkdir(exist_ok=True)
    script = spans_golden.extract(git_dir, spans_golden.WMT25, folder)
    (folder / "ours").mkdir(exist_ok=True)
    write(folder / "ours" / "gold.jsonl", g, lps, systems, texts[:n_peer])
    write(folder / "ours" / "a0.jsonl", p, lps, systems, texts[:n_peer])
    print(
        f'farm-bench -n 5 --timeout 900 --vs "env PYTHONHASHSEED=0 {sys.executable} {script} '
        f'{folder}/theirs {folder}/theirs/out" -- mtpalette spans --gold '
        f"{folder}/ours/gold.jsonl --pred a0={folder}/ours/a0.jsonl --bootstrap 0 -q"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("dir", type=Path)
    ap.add_argument("--lps", type=int, default=16)
    ap.add_argument("--systems", type=int, default=20)
    ap.add_argument("--segments", type=int, default=1500)
    ap.add_argument("--annotators", type=int, default=5)
    ap.add_argument("--peer-lps", type=int, default=1)
    ap.add_argument("--peer-only", action="store_true", help="Write only DIR/peer.")
    ap.add_argument("--wmt25-git", type=Path, default=None,
                    help="a git directory of wmt-conference/wmt25-mteval (the peer)")  # fmt: skip
    args = ap.parse_args()
    rng = np.random.default_rng(1)  # as bench_spans.py
    n = args.lps * args.systems * args.segments
    lengths = rng.integers(40, 161, n)
    lps = list(np.repeat([f"l{i:02d}-xx" for i in range(args.lps)], args.systems * args.segments))
    systems = list(np.tile(np.repeat([f"sys{i}" for i in range(args.systems)], args.segments),
                           args.lps))  # fmt: skip
    gold = generate(n, lengths, rng)
    annotators = [generate(n, lengths, rng) for _ in range(args.annotators)]
    letters = np.array(list("abcdefghij klmnopqrstuvwxyz"))
    flat = "".join(np.random.default_rng(2).choice(letters, int(lengths.sum())))
    cuts = np.concatenate([[0], np.cumsum(lengths)])
    texts = [flat[cuts[k] : cuts[k + 1]] for k in range(n)]
    args.dir.mkdir(parents=True, exist_ok=True)
    if not args.peer_only:
        write(args.dir / "gold.jsonl", gold, lps, systems, texts)
    preds = []
    for j, a in enumerate(annotators):
        if not args.peer_only:
            write(args.dir / f"a{j}.jsonl", a, lps, systems, texts)
        preds += ["--pred", f"a{j}={args.dir / f'a{j}.jsonl'}"]
    print(f"{n} segments, {int(lengths.sum())} characters, {len(annotators)} annotators")
    print(
        "farm-bench -n 3 --timeout 1800 -- mtpalette spans --gold",
        args.dir / "gold.jsonl",
        *preds,
        "--bootstrap 0 -q",
    )
    if args.wmt25_git is not None and args.wmt25_git.is_dir():
        n_peer = args.peer_lps * args.systems * args.segments
        (args.dir / "peer").mkdir(exist_ok=True)
        write_peer(args.dir / "peer", args.wmt25_git, n_peer, gold, annotators[0], lps, systems,
                   texts)  # fmt: skip
    else:
        print(f"no snapshot at {args.wmt25_git}: no comparison with the organisers' scorer")


if __name__ == "__main__":
    main()
