"""BLANC trained on one data set and tested on another: the analogue of Lita et al. (2005),
Table 1, and BLANC trained to minimise ORANGE.

Experiments (95% percentile bootstrap intervals; clusters from the paired bootstrap):

* ``human``: BLANC's (alpha, beta, gamma, bf) fitted by hill-climbing to the mean segment-level
  Pearson over the seven WMT17 to-English DA test sets (560 judged translations each), then
  tested on the bundled MQM TED data (WMT21, 13 systems x 529 segments; zh-en with 2
  references, en-de with 1): segment-level Pearson and Kendall tau-b, and system-level Pearson
  of the systems' mean scores, against BLEU-S4 (smoothed sentence BLEU), NIST, ROUGE-L,
  ROUGE-S* and untrained BLANC;
* ``orange``: BLANC fitted to minimise ORANGE (leave-one-out) on the first half of WMT21
  de-en (19 systems, references A and B), then ORANGE on the second half and on WMT21 en-de
  (20 systems, references A, C, D), against the same metrics and WER, and its correlation
  with MQM on TED zh-en and en-de.

Writes ``OUT/summary.md``, the trained parameter files ``OUT/blanc-*.json`` and run files.
WMT data is read from ``--data-dir`` (default ../shared/data); what is absent is skipped.

Usage::

    python scripts/blanc_experiments.py --out-dir results/blanc
    python scripts/blanc_experiments.py --out-dir /tmp/b --max-evals 60 --bootstrap 100  # check
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from shared_data import mqm_ted, shared_data  # noqa: E402  (scripts/shared_data.py)

BASELINES = ["bleus:4", "nist", "rouge-l", "rouge-s:*", "blanc"]
WMT17_PAIRS = ["cs-en", "de-en", "fi-en", "lv-en", "ru-en", "tr-en", "zh-en"]


def _ted(lp: str):
    from mtpalette.io.judgments_read import read_judgments
    from mtpalette.io.plain import read_lines
    from mtpalette.metaeval.segments import SegmentData

    paths = mqm_ted(lp)  # the real WMT21 TED MQM data, from the shared data
    judged = read_judgments(paths["judgments"])
    refs = [read_lines(p) for p in paths["refs"]]
    outputs = {p.name[:-4]: read_lines(p) for p in paths["systems"]}
    return SegmentData.from_judgments(judged, outputs, refs, seg_ids=read_lines(paths["seg_ids"]))


def _corr_tables(data, specs, args, title):
    from mtpalette.metaeval.correlation import correlation_table
    from mtpalette.metaeval.segments import score_segments
    from mtpalette.metrics import parse_specs

    sys.path.insert(0, str(Path(__file__).parent))
    from correlation_experiments import md_table

    scores = score_segments(data, parse_specs(specs))
    common = dict(n_resamples=args.bootstrap, seed=args.seed, test="bootstrap")
    parts, out = [], {}
    for what, kw in [
        ("segment level", dict(statistic="pearson")),
        ("segment level", dict(statistic="kendall")),
        ("system level, mean scores", dict(statistic="pearson", level="system")),
    ]:
        if kw.get("level") == "system":
            kw["system_score"] = "mean"
        table = correlation_table(data.pair_data(scores), **common, **kw)
        key = f"{kw['statistic']}|{kw.get('level', 'segment')}"
        out[key] = table.to_dict()
        parts.append(md_table(table, f"{title}: {kw['statistic']}, {what}"))
    return parts, out


def _rename(table_md: str, path: Path, label: str) -> str:
    """Tables name a metric by its canonical spec: show the trained one by ``label``."""
    from mtpalette.metrics import parse_specs

    return table_md.replace(parse_specs([f"blanc:@{path}"])[0].spec, label)


def human(args, out_dir: Path) -> list[str]:
    from mtpalette.io.judgments_wmt import read_wmt17_testset
    from mtpalette.metaeval.segments import SegmentData
    from mtpalette.metrics.blanc import BlancParams
    from mtpalette.train.blanc import HumanObjective, train_blanc

    root = args.data_dir / "wmt17-19" / "WMT17" / "testset"
    if not root.is_dir():
        return [f"_SKIP human: {root} is absent._\n"]
    train_sets = [
        SegmentData.from_scored_texts(read_wmt17_testset(root / f"testset_{lp}.tsv"))
        for lp in WMT17_PAIRS
    ]
    base = BlancParams(n=args.n)
    obj = HumanObjective(train_sets, base=base, statistic="pearson")
    t0 = time.time()
    result = train_blanc(
        obj, restarts=args.restarts, seed=args.seed, max_evaluations=args.max_evals
    )
    path = out_dir / "blanc-wmt17da.json"
    result.save(path)
    p = result.params
    parts = [
        "## BLANC trained on WMT17 DA (segment Pearson), tested on MQM TED\n",
        f"Training: mean segment-level Pearson over the 7 WMT17 to-English DA sets "
        f"({sum(d.n_items for d in train_sets)} judged translations). Hill-climbing, "
        f"{args.restarts} restarts, seed {args.seed}, {result.climb.n_evaluations} evaluations, "
        f"{time.time() - t0:.0f} s. Trained: alpha={p.alpha:.3g}, beta={p.beta:.3g}, "
        f"gamma={p.gamma:.3g}, bf={p.bf:.3g}, n={p.n}, gap={p.gap}. Mean Pearson on the "
        f"training sets: {result.value:.4f} (untrained BLANC {obj.value_of(base):.4f}).\n",
    ]
    label = "blanc (trained, WMT17 DA)"
    results = {"params": p.to_dict(), "train_value": result.value}
    for lp in ("zhen", "ende"):
        data = _ted(lp)
        md, res = _corr_tables(data, [*BASELINES, f"blanc:@{path}"], args, f"MQM TED {lp}")
        parts.extend(_rename(m, path, label) for m in md)
        results[lp] = res
    print("  human done", flush=True)
    return parts, results


def _wmt21_lists(args, lp: str, refs: str, tgt: str, segments: slice):
    from mtpalette.io.nbest import list_system_files, read_systems, system_names
    from mtpalette.io.plain import read_lines
    from mtpalette.metaeval.candidates import CandidateLists

    txt = args.data_dir / "wmt21" / "txt"
    ref_files = [txt / "references" / f"newstest2021.{lp}.ref.{r}.{tgt}" for r in refs]
    files = list_system_files(txt / "system-outputs", pattern=f"newstest2021.{lp}.hyp.*")
    outputs = read_systems(files, system_names(files))
    outputs = {k: v[segments] for k, v in outputs.items()}
    return CandidateLists.from_systems(outputs, [read_lines(f)[segments] for f in ref_files])


def _orange_md(lists, specs, args, title, path: Path, label: str) -> tuple[str, dict]:
    from mtpalette.metaeval.candidates import compare_candidates
    from mtpalette.metaeval.orange import evaluate
    from mtpalette.metrics import parse_specs

    table = evaluate(
        compare_candidates(lists, parse_specs(specs)), n_resamples=args.bootstrap, seed=args.seed
    )
    lines = [
        f"#### {title}\n",
        f"{lists.n_segments} segments, {lists.n_refs} references, "
        f"{int(lists.n_candidates[0])} systems per list; leave-one-out; bootstrap "
        f"{args.bootstrap} (seed {args.seed}); = : equivalent to the best (paired bootstrap).\n",
        "| Metric | ORANGE | 95% CI | |",
        "|---|---:|---:|---|",
    ]
    for row in table.rows:
        ci = row.orange
        name = _rename(row.metric, path, label)
        mark = "**best**" if row is table.best else ("=" if row.equivalent else "")
        lines.append(
            f"| {name} | {100 * ci.value:.2f}% | [{100 * ci.low:.2f}, {100 * ci.high:.2f}] | "
            f"{mark} |"
        )
    return "\n".join(lines) + "\n", table.to_dict(with_segment_ranks=False)


def orange(args, out_dir: Path):
    from mtpalette.metrics.blanc import BlancParams
    from mtpalette.train.blanc import OrangeObjective, train_blanc

    if not (args.data_dir / "wmt21" / "txt").is_dir():
        return [f"_SKIP orange: {args.data_dir / 'wmt21'} is absent._\n"], {}
    half = args.orange_segments // 2
    train_lists = _wmt21_lists(args, "de-en", "AB", "en", slice(0, half))
    base = BlancParams(n=args.n)
    obj = OrangeObjective(train_lists, base=base)
    t0 = time.time()
    result = train_blanc(
        obj, restarts=args.restarts, seed=args.seed, max_evaluations=args.max_evals
    )
    path = out_dir / "blanc-orange-wmt21deen.json"
    result.save(path)
    p = result.params
    parts = [
        "## BLANC trained to minimise ORANGE (WMT21 de-en, first half), tested elsewhere\n",
        f"Training: ORANGE (leave-one-out) on segments 1-{half} of WMT21 de-en "
        f"({train_lists.n_segments} segments x {int(train_lists.n_candidates[0])} systems, "
        f"references A and B); {result.climb.n_evaluations} evaluations, "
        f"{time.time() - t0:.0f} s. Trained: alpha={p.alpha:.3g}, beta={p.beta:.3g}, "
        f"gamma={p.gamma:.3g}, bf={p.bf:.3g}. Training ORANGE {100 * result.value:.2f}% "
        f"(untrained BLANC {100 * obj.orange(base):.2f}%).\n",
    ]
    label = "blanc (trained, ORANGE)"
    specs = [*BASELINES, "wer", f"blanc:@{path}"]
    results = {"params": p.to_dict(), "train_orange": result.value}
    tests = [
        ("WMT21 de-en, held-out second half", "de-en", "AB", "en", slice(half, 2 * half)),
        ("WMT21 en-de", "en-de", "ACD", "de", slice(0, args.orange_segments)),
    ]
    for title, lp, refs, tgt, seg in tests:
        md, res = _orange_md(
            _wmt21_lists(args, lp, refs, tgt, seg), specs, args, title, path, label
        )
        parts.append(md)
        results[title] = res
    for lp in ("zhen", "ende"):
        md, res = _corr_tables(_ted(lp), [*BASELINES, f"blanc:@{path}"], args, f"MQM TED {lp}")
        parts.extend(_rename(m, path, label) for m in md)
        results[f"ted-{lp}"] = res
    print("  orange done", flush=True)
    return parts, results


def main(argv: list[str] | None = None) -> int:
    from mtpalette.io.runfile import Run, atomic_writer

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out-dir", type=Path, required=True)
    ap.add_argument("--data-dir", type=Path, default=shared_data())
    ap.add_argument("--experiments", nargs="*", default=["human", "orange"])
    ap.add_argument("--bootstrap", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--restarts", type=int, default=4)
    ap.add_argument("--max-evals", type=int, default=600)
    ap.add_argument("--n", type=int, default=4, help="largest skip-n-gram size (0: all)")
    ap.add_argument("--orange-segments", type=int, default=1000)
    args = ap.parse_args(argv)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    parts = ["# BLANC trained and tested on real data\n"]
    for name in args.experiments:
        print(f"=== {name}", flush=True)
        fn = {"human": human, "orange": orange}[name]
        got = fn(args, args.out_dir)
        md, res = got if isinstance(got, tuple) else (got, {})
        parts.extend(md)
        Run(
            f"blanc-experiment:{name}",
            settings={k: str(v) for k, v in vars(args).items()},
            seeds={"search": args.seed, "bootstrap": args.seed},
            results=res,
        ).save(args.out_dir / f"{name}.json")
    with atomic_writer(args.out_dir / "summary.md") as fh:
        fh.write("\n".join(parts))
    print(f"wrote {args.out_dir / 'summary.md'}")
    return 0


if __name__ == "__main__":
    np.seterr(all="ignore")
    sys.exit(main())
