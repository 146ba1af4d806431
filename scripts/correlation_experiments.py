"""Correlation of the seeds' metrics with human judgments on real data, and ORANGE vs humans.

Experiments (every interval a 95% percentile bootstrap; clusters from the PERM-BOTH
permutation test unless said otherwise):

* ``mqm-ted-ende``, ``mqm-ted-zhen`` (bundled with mtpalette; WMT21 TED talks, expert MQM,
  13 systems x 529 segments; references ``ref`` (en-de) and ``ref`` + ``refB`` (zh-en)):
  segment level - Pearson and Kendall tau-b without grouping, acc-eq with tie calibration
  grouped by item (Deutsch et al. 2023); system level - Pearson of corpus scores with the
  mean MQM score (13 systems; bootstrap over segments);
* ``wmt17-da``: WMT17 segment-level DA, the 7 to-English test sets (560 judged translations
  each, lower-cased and tokenized, texts inside the files): Pearson, as WMT17;
* ``wmt12-rr``: WMT12 five-way relative rankings, 8 language pairs: WMT12's Kendall tau
  (human ties excluded, metric ties discordant), bootstrap over source segments, clusters
  from the paired bootstrap;
* ``wmt21-sys``: WMT21 system-level DA z-scores (to-English, 7 pairs, reference A, the human
  "system" left out): Pearson and pairwise accuracy of corpus scores, bootstrap over
  systems, and the accuracy pooled over all pairs of all language pairs (Kocmi et al. 2021);
* ``agree-zhen``: ORANGE (leave-one-out, references ``ref`` and ``refB``) vs the segment-level
  Kendall tau-b with MQM on MQM TED zh-en; Kendall tau-b between the two orderings of the
  metrics, with a bootstrap interval over segments.

Error metrics (WER, PER, TER) are negated before correlating: a good metric is positive.
Writes ``OUT/summary.md`` (markdown tables) and ``OUT/<experiment>.json`` (run files).
Data other than MQM TED is read from ``--data-dir`` (default ../shared/data); experiments
whose data is absent are skipped with a note. Metric families not registered yet are skipped
with a note.

Usage::

    python scripts/correlation_experiments.py --out-dir results/correlation
    python scripts/correlation_experiments.py --out-dir /tmp/c --segments 60 --bootstrap 100 \\
        --permutations 100   # a quick check on slices
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from shared_data import mqm_ted as real_mqm_ted  # noqa: E402  (scripts/shared_data.py)
from shared_data import shared_data  # noqa: E402

SEED_METRICS = [
    "bleus:4",
    "nist",
    "wer",
    "per",
    "rouge-l",
    "rouge-w:1.2",
    "rouge-s:4",
    "chrf",
    "ter",
]
EXPERIMENTS = ["mqm-ted-ende", "mqm-ted-zhen", "wmt17-da", "wmt12-rr", "wmt21-sys", "agree-zhen"]
WMT17_PAIRS = ["cs-en", "de-en", "fi-en", "lv-en", "ru-en", "tr-en", "zh-en"]
WMT12_PAIRS = ["cs-en", "de-en", "es-en", "fr-en", "en-cs", "en-de", "en-es", "en-fr"]
WMT21_PAIRS = ["cs-en", "de-en", "ha-en", "is-en", "ja-en", "ru-en", "zh-en"]
LABEL = {
    "pearson": "Pearson r",
    "kendall-b": "Kendall tau-b",
    "acc-eq": "acc-eq (tie cal.)",
    "pairwise-accuracy": "pairwise accuracy",
    "rr-kendall": "WMT12 tau",
}


def available_specs(specs: list[str]) -> tuple[list[str], list[str]]:
    from mtpalette.metrics import known_metrics

    known = set(known_metrics())
    ok = [s for s in specs if s.split(":", 1)[0] in known]
    return ok, [s for s in specs if s not in ok]


# ------------------------------------------------------------------------------ markdown
def md_table(table, title: str, note: str = "") -> str:
    stat = LABEL.get(table.statistic, table.statistic)
    conf = f"{100 * table.confidence:g}%"
    has_eps = any(r.epsilon is not None for r in table.rows)
    head = f"#### {title}\n\n"
    if note:
        head += note + "\n\n"
    cols = ["Metric", stat, f"{conf} CI", "Cluster"] + (["epsilon"] if has_eps else [])
    lines = ["| " + " | ".join(cols) + " |", "|---|" + "---:|" * (len(cols) - 1)]
    for r in table.rows:
        ci = "-" if r.ci.low != r.ci.low else f"[{r.ci.low:.3f}, {r.ci.high:.3f}]"
        name = r.metric + ("" if r.higher_is_better else " (neg.)")
        cells = [
            f"**{name}**" if r.cluster == 1 else name,
            f"{r.value:.4f}",
            ci,
            "-" if r.cluster is None else str(r.cluster),
        ]
        if has_eps:
            cells.append("-" if r.epsilon is None else f"{r.epsilon:.3g}")
        lines.append("| " + " | ".join(cells) + " |")
    test = {
        "permutation": f"PERM-BOTH permutation test, {table.n_permutations} draws",
        "bootstrap": "paired bootstrap",
        "none": "none",
        "williams": "Williams",
    }[table.test]
    foot = (
        f"\n{table.n_resamples} bootstrap resamples over {table.unit} "
        f"({table.n_units}), seed {table.seed}; clusters: {test}, alpha {table.alpha:g}; "
        "**bold** = cluster 1.\n"
    )
    return head + "\n".join(lines) + foot


# --------------------------------------------------------------------------- experiments
def mqm_ted(lp: str, specs, args) -> tuple[list[str], dict]:
    from mtpalette.io.judgments_read import read_judgments
    from mtpalette.io.plain import read_lines
    from mtpalette.metaeval.correlation import correlation_table
    from mtpalette.metaeval.segments import SegmentData, score_segments
    from mtpalette.metrics import parse_specs

    paths = real_mqm_ted(lp)  # the real WMT21 TED MQM data, from the shared data
    judged = read_judgments(paths["judgments"])
    refs = [read_lines(p) for p in paths["refs"]]
    outputs = {p.name[:-4]: read_lines(p) for p in paths["systems"]}
    data = SegmentData.from_judgments(judged, outputs, refs, seg_ids=read_lines(paths["seg_ids"]))
    if args.segments:
        data = data.select_items(range(min(args.segments, data.n_items)))
    scores = score_segments(data, parse_specs(specs))
    common = dict(
        n_resamples=args.bootstrap, seed=args.seed, n_permutations=args.permutations, test=args.test
    )
    runs = [
        ("segment level, no grouping", dict(statistic="pearson")),
        ("segment level, no grouping", dict(statistic="kendall")),
        (
            "segment level, grouped by item, tie calibration",
            dict(statistic="acc-eq", grouping="item", epsilon=None),
        ),
        ("system level (corpus scores vs mean MQM)", dict(statistic="pearson", level="system")),
    ]
    parts, out = [], {}
    refs_txt = " + ".join(p.stem for p in paths["refs"])
    for what, kw in runs:
        t0 = time.time()
        table = correlation_table(data.pair_data(scores), **common, **kw)
        out[f"{kw['statistic']}|{kw.get('grouping', 'none')}|{kw.get('level', 'segment')}"] = (
            table.to_dict()
        )
        parts.append(
            md_table(
                table,
                f"MQM TED {lp}: {LABEL.get(table.statistic, table.statistic)}, {what}",
                f"{data.n_systems} systems x {data.n_items} segments ({data.n_rated} rated), "
                f"references: {refs_txt}.",
            )
        )
        print(f"  {lp} {kw} {time.time() - t0:.1f}s", flush=True)
    return parts, out


def wmt17(specs, args, root: Path) -> tuple[list[str], dict]:
    from mtpalette.io.judgments_wmt import read_wmt17_testset
    from mtpalette.metaeval.correlation import correlation_table
    from mtpalette.metaeval.segments import SegmentData, score_segments
    from mtpalette.metrics import parse_specs

    parts, out = [], {}
    for lp in WMT17_PAIRS:
        st = read_wmt17_testset(root / "WMT17" / "testset" / f"testset_{lp}.tsv")
        data = SegmentData.from_scored_texts(st)
        if args.segments:
            data = data.select_items(range(min(args.segments, data.n_items)))
        scores = score_segments(data, parse_specs(specs))
        table = correlation_table(
            data.pair_data(scores),
            statistic="pearson",
            n_resamples=args.bootstrap,
            seed=args.seed,
            n_permutations=args.permutations,
            test=args.test,
        )
        out[lp] = table.to_dict()
        parts.append(
            md_table(
                table,
                f"WMT17 DA {lp}: Pearson r, segment level",
                f"{data.n_items} judged translations (texts lower-cased and "
                "tokenized by WMT), one reference.",
            )
        )
        print(f"  wmt17 {lp}", flush=True)
    return parts, out


def wmt12(specs, args, root: Path) -> tuple[list[str], dict]:
    from mtpalette.io.judgments_wmt import read_wmt12_rankings
    from mtpalette.io.plain import read_lines
    from mtpalette.metaeval.relative_ranking import rr_table
    from mtpalette.metaeval.segments import SegmentData, score_segments
    from mtpalette.metrics import parse_specs

    base = root / "wmt_data"
    rnk = base / "wmt12-manual-evaluation" / "wmt12.RNK_results.csv"
    parts, out = [], {}
    for lp in WMT12_PAIRS:
        rr = read_wmt12_rankings(rnk, lp)
        pairs = rr.pairs()
        tgt = lp.split("-")[1]
        ref = read_lines(base / "wmt12-data" / "plain" / "references" / f"newstest2012-ref.{tgt}")
        lines = sorted(set(pairs.line.tolist()))
        if args.segments:
            lines = lines[: args.segments]
            keep = np.isin(pairs.line, lines)
            pairs = type(pairs)(
                pairs.line[keep],
                [b for b, k in zip(pairs.better, keep, strict=True) if k],
                [w for w, k in zip(pairs.worse, keep, strict=True) if k],
                pairs.n_ties,
                pairs.n_blank,
            )
        systems = sorted(set(pairs.better) | set(pairs.worse))
        folder = base / "wmt12-data" / "plain" / "system-outputs" / "newstest2012" / lp
        outs = {s: read_lines(folder / f"newstest2012.{lp}.{s}") for s in systems}
        col = {line: k for k, line in enumerate(lines)}
        human = np.full((len(systems), len(lines)), np.nan)
        row = {s: k for k, s in enumerate(systems)}
        for line, b, w in zip(pairs.line.tolist(), pairs.better, pairs.worse, strict=True):
            human[row[b], col[line]] = 0.0
            human[row[w], col[line]] = 0.0
        data = SegmentData(
            systems,
            human,
            [[outs[s][i] for i in lines] for s in systems],
            [[ref[i] for i in lines]],
            lines,
        )
        scores = score_segments(data, parse_specs(specs))
        table = rr_table(pairs, data, scores, n_resamples=args.bootstrap, seed=args.seed)
        out[lp] = table.to_dict()
        parts.append(
            md_table(
                table,
                f"WMT12 relative rankings {lp}: WMT12 Kendall tau, segment level",
                f"{len(pairs.line)} pairwise preferences from {len(rr)} rankings over "
                f"{len(lines)} source segments, {len(systems)} systems ({pairs.n_ties} human ties "
                "left out; metric ties count as discordant); clusters from the paired bootstrap.",
            )
        )
        print(f"  wmt12 {lp}", flush=True)
    return parts, out


def wmt21(specs, args, root: Path) -> tuple[list[str], dict]:
    from mtpalette.io.judgments_wmt import read_wmt_system_ranking
    from mtpalette.io.plain import read_lines
    from mtpalette.metaeval.correlation import system_table
    from mtpalette.metrics import parse_specs
    from mtpalette.metrics.scoring import TextPairs, compute_stats

    parts, out = [], {}
    pooled: dict[str, list[int]] = {}
    txt = root / "txt"
    for lp in WMT21_PAIRS:
        ranking = read_wmt_system_ranking(
            root / "humaneval" / "newstest2021-toen" / f"ad-sys-ranking-{lp}-z-names.csv"
        )
        src, tgt = lp.split("-")
        ref = read_lines(txt / "references" / f"newstest2021.{lp}.ref.A.{tgt}")
        human, outputs, missing = {}, {}, []
        for name, sid, z in zip(ranking.systems, ranking.ids, ranking.scores.tolist(), strict=True):
            if name.upper().startswith("HUMAN"):
                continue
            for cand in (name, sid.rpartition(".")[0]):
                f = txt / "system-outputs" / f"newstest2021.{lp}.hyp.{cand}.{tgt}"
                if f.exists():
                    outputs[name] = read_lines(f)
                    human[name] = z
                    break
            else:
                missing.append(name)
        n = len(ref) if not args.segments else min(args.segments, len(ref))
        metrics = parse_specs(specs)
        scores: dict[str, dict[str, float]] = {m.spec: {} for m in metrics}
        for name, lines in outputs.items():
            stats = compute_stats(metrics, TextPairs.parallel(lines[:n], [ref[:n]]))
            for m in metrics:
                scores[m.spec][name] = m.corpus_score(stats[m])
        directions = {m.spec: m.higher_is_better for m in metrics}
        signatures = {m.spec: str(m.signature(n_refs=1)) for m in metrics}
        note = (
            f"{len(human)} systems (DA z-scores; reference A; {n} segments)"
            + (f"; no output for {', '.join(missing)}" if missing else "")
            + "; bootstrap over systems."
        )
        for stat in ("pearson", "pairwise-accuracy"):
            table = system_table(
                human,
                scores,
                directions=directions,
                signatures=signatures,
                statistic=stat,
                n_resamples=args.bootstrap,
                seed=args.seed,
                n_permutations=args.permutations,
                test=args.test,
            )
            out[f"{lp}|{stat}"] = table.to_dict()
            parts.append(
                md_table(table, f"WMT21 {lp}: {LABEL[table.statistic]}, system level", note)
            )
        # pooled pairwise accuracy (Kocmi et al. 2021): agreeing pairs over all pairs
        names = list(human)
        h = np.array([human[s] for s in names])
        for m in metrics:
            x = np.array([scores[m.spec][s] for s in names]) * (1 if m.higher_is_better else -1)
            iu, ju = np.triu_indices(len(names), k=1)
            agree = int((np.sign(h[iu] - h[ju]) == np.sign(x[iu] - x[ju])).sum())
            acc = pooled.setdefault(m.spec, [0, 0])
            acc[0] += agree
            acc[1] += len(iu)
        print(f"  wmt21 {lp}", flush=True)
    rows = sorted(pooled.items(), key=lambda kv: -kv[1][0] / kv[1][1])
    lines = [
        "#### WMT21 to-English, pairwise accuracy pooled over the 7 language pairs",
        "",
        "| Metric | accuracy | agreeing pairs / pairs |",
        "|---|---:|---:|",
    ]
    for spec, (a, b) in rows:
        lines.append(f"| {spec} | {a / b:.4f} | {a} / {b} |")
    out["pooled_pairwise_accuracy"] = {k: v[0] / v[1] for k, v in pooled.items()}
    parts.append("\n".join(lines) + "\n")
    return parts, out


def agree_zhen(specs, args) -> tuple[list[str], dict]:
    from mtpalette.io.judgments_read import read_judgments
    from mtpalette.io.plain import read_lines
    from mtpalette.metaeval.agreement import agreement
    from mtpalette.metaeval.segments import SegmentData
    from mtpalette.metrics import parse_specs

    paths = real_mqm_ted("zhen")
    judged = read_judgments(paths["judgments"])
    refs = [read_lines(p) for p in paths["refs"]]
    outputs = {p.name[:-4]: read_lines(p) for p in paths["systems"]}
    data = SegmentData.from_judgments(judged, outputs, refs, seg_ids=read_lines(paths["seg_ids"]))
    keep = list(range(data.n_items if not args.segments else min(args.segments, data.n_items)))
    data = data.select_items(keep)
    rated = {n: judged.scores[judged.systems.index(n)][keep] for n in ("ref", "refB")}
    parts, out = [], {}
    for stat in ("kendall", "pearson"):
        a = agreement(
            data,
            parse_specs(specs),
            statistic=stat,
            n_resamples=args.bootstrap,
            seed=args.seed,
            reference_scores=rated,
        )
        out[stat] = a.to_dict()
        lines = [
            f"#### ORANGE vs human {LABEL.get(a.statistic, a.statistic)} on MQM TED zh-en",
            "",
            f"{a.n_systems} systems x {a.n_segments} segments, references ref and "
            f"refB; ORANGE {a.oracle} (ties {a.ties}; lower is better).",
            "",
            "| Metric | ORANGE | 95% CI | rank | correlation | 95% CI | rank |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for r in a.rows:
            lines.append(
                f"| {r.metric} | {100 * r.orange.value:.2f}% | [{100 * r.orange.low:.2f}, "
                f"{100 * r.orange.high:.2f}] | {r.orange_rank:g} | {r.correlation.value:.4f} | "
                f"[{r.correlation.low:.3f}, {r.correlation.high:.3f}] | {r.human_rank:g} |"
            )
        lines += [
            "",
            f"Kendall tau-b between the orderings: **{a.tau.value:.3f}** "
            f"[{a.tau.low:.3f}, {a.tau.high:.3f}] ({a.n_resamples} bootstrap resamples "
            f"over segments, seed {a.seed}).",
            "",
        ]
        for name, v in a.reference_orange.items():
            lines.append(
                f"- human ORANGE of reference `{name}` (its mean rank by MQM among "
                f"the systems / (N+1)): {100 * v:.2f}%"
            )
        parts.append("\n".join(lines) + "\n")
        print(f"  agree {stat}", flush=True)
    return parts, out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--data-dir", default=str(shared_data()))
    ap.add_argument("--only", nargs="+", choices=EXPERIMENTS, help="experiments (default all)")
    ap.add_argument("--metrics", nargs="+", default=SEED_METRICS)
    ap.add_argument("--segments", type=int, help="only the first N segments (a check)")
    ap.add_argument("--bootstrap", type=int, default=1000)
    ap.add_argument("--permutations", type=int, default=1000)
    ap.add_argument("--test", default="permutation", choices=["permutation", "bootstrap", "none"])
    ap.add_argument("--seed", type=int, default=12345)
    args = ap.parse_args(argv)
    from mtpalette.io.runfile import Run, atomic_writer

    specs, skipped = available_specs(args.metrics)
    for s in skipped:
        print(f"note: {s} is not registered yet; skipped")
    data = Path(args.data_dir)
    out_dir = Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    todo = args.only or EXPERIMENTS
    parts = [
        "# Correlation with human judgments\n",
        f"Metrics: {' '.join(specs)}"
        + (f" (not available yet: {' '.join(skipped)})" if skipped else "")
        + ". Error metrics are "
        "negated before correlating, so a good metric has a positive correlation.\n",
    ]
    if args.segments:
        parts.append(f"**A check on the first {args.segments} segments of each set only.**\n")
    needs = {"wmt17-da": data / "wmt17-19", "wmt12-rr": data / "wmt12", "wmt21-sys": data / "wmt21"}
    for name in todo:
        if name in needs and not needs[name].is_dir():
            note = f"SKIP {name}: {needs[name]} is absent"
            print(note)
            parts.append(f"_{note}._\n")
            continue
        print(f"=== {name}", flush=True)
        t0 = time.time()
        if name.startswith("mqm-ted-"):
            md, res = mqm_ted(name.rsplit("-", 1)[1], specs, args)
        elif name == "wmt17-da":
            md, res = wmt17(specs, args, needs[name])
        elif name == "wmt12-rr":
            md, res = wmt12(specs, args, needs[name])
        elif name == "wmt21-sys":
            md, res = wmt21(specs, args, needs[name])
        else:
            md, res = agree_zhen(specs, args)
        parts.append(f"## {name}\n")
        parts.extend(md)
        settings: dict[str, Any] = {
            "metrics": specs,
            "skipped": skipped,
            "segments": args.segments,
            "bootstrap": args.bootstrap,
            "permutations": args.permutations,
            "test": args.test,
        }
        Run(
            f"correlation-experiment:{name}",
            settings=settings,
            seeds={"bootstrap": args.seed},
            results=res,
        ).save(out_dir / f"{name}.json")
        print(f"    {time.time() - t0:.1f}s", flush=True)
    summary = out_dir / "summary.md"
    with atomic_writer(summary) as fh:
        fh.write("\n".join(parts))
    print(f"wrote {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
