"""ROSE trained on into-English judgments and tested on other target languages: the analogue of
Song and Cohn (2011), Tables 4 and 5.

* ROSE-rank: a ranking SVM on the WMT12 five-way relative rankings of the four into-English
  pairs (cs-en, de-en, es-en, fr-en), pooled;
* ROSE-reg: linear SVR on the WMT17 segment-level DA scores of the seven into-English sets;
* each with the core features only (any language: function words from stopwordsiso) and with
  the POS features (English only: the bundled UD tagger).

Tests, segment level, WMT12's Kendall tau on relative rankings (human ties left out, metric
ties discordant; 95% bootstrap over source segments):

* out of English (en-cs, en-de, en-es, en-fr): core-feature models against smoothed sentence
  BLEU (BLEU-S4);
* into English: leave-one-pair-out (trained on the three other into-English pairs) for
  ROSE-rank, and the WMT17-trained ROSE-reg, both with and without POS.

System level: Spearman's rho between the systems' mean metric score and WMT12's human system
score (the share of its pairwise comparisons it wins, ties left out), per language pair.

Writes ``OUT/rose.md``, ``OUT/rose.json`` and the models ``OUT/rose-*.json``.

Usage::

    python scripts/rose_experiments.py --out-dir results/rose
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from shared_data import shared_data  # noqa: E402  (scripts/shared_data.py)

INTO = ["cs-en", "de-en", "es-en", "fr-en"]
OUT_OF = ["en-cs", "en-de", "en-es", "en-fr"]
WMT17 = ["cs-en", "de-en", "fi-en", "lv-en", "ru-en", "tr-en", "zh-en"]


def wmt12_task(root: Path, lp: str):
    """(pairs, SegmentData of the judged translations) of one WMT12 language pair."""
    from mtpalette.io.judgments_wmt import read_wmt12_rankings
    from mtpalette.io.plain import read_lines
    from mtpalette.metaeval.segments import SegmentData

    base = root / "wmt12" / "wmt_data"
    rr = read_wmt12_rankings(base / "wmt12-manual-evaluation" / "wmt12.RNK_results.csv", lp)
    pairs = rr.pairs()
    tgt = lp.split("-")[1]
    ref = read_lines(base / "wmt12-data" / "plain" / "references" / f"newstest2012-ref.{tgt}")
    lines = sorted(set(pairs.line.tolist()))
    systems = sorted(set(pairs.better) | set(pairs.worse))
    folder = base / "wmt12-data" / "plain" / "system-outputs" / "newstest2012" / lp
    outs = {s: read_lines(folder / f"newstest2012.{lp}.{s}") for s in systems}
    human = np.full((len(systems), len(lines)), np.nan)
    row = {s: k for k, s in enumerate(systems)}
    col = {line: k for k, line in enumerate(lines)}
    for line, b, w in zip(pairs.line.tolist(), pairs.better, pairs.worse, strict=True):
        human[row[b], col[line]] = human[row[w], col[line]] = 0.0
    data = SegmentData(
        systems,
        human,
        [[outs[s][i] for i in lines] for s in systems],
        [[ref[i] for i in lines]],
        lines,
    )
    return pairs, data


def pair_features(pairs, data, extractor):
    """Features of the better and of the worse translation of every preference pair."""
    row = {s: k for k, s in enumerate(data.systems)}
    col = {int(i): k for k, i in enumerate(data.items)}
    cache: dict[tuple[int, int], int] = {}
    hyps, refs, keys = [], [], []
    for line, b, w in zip(pairs.line.tolist(), pairs.better, pairs.worse, strict=True):
        for s in (b, w):
            key = (row[s], col[line])
            if key not in cache:
                cache[key] = len(hyps)
                hyps.append(data.hyps[key[0]][key[1]])
                refs.append([r[key[1]] for r in data.refs])
            keys.append(cache[key])
    X = extractor(hyps, refs)
    idx = np.asarray(keys).reshape(-1, 2)
    return X[idx[:, 0]], X[idx[:, 1]]


def system_spearman(pairs, data, scores) -> float:
    """Spearman rho of the systems' mean metric score with their share of wins."""
    from mtpalette.stats.correlation import spearman

    wins = {s: [0, 0] for s in data.systems}
    for b, w in zip(pairs.better, pairs.worse, strict=True):
        wins[b][0] += 1
        wins[b][1] += 1
        wins[w][1] += 1
    human = np.array([wins[s][0] / wins[s][1] for s in data.systems])
    metric = np.nanmean(scores.oriented(), axis=1)
    return spearman(human, metric)


def evaluate(lp_tasks, specs, labels, args) -> tuple[list[str], dict]:
    from mtpalette.metaeval.relative_ranking import rr_table
    from mtpalette.metaeval.segments import score_segments
    from mtpalette.metrics import parse_specs

    lines = ["| pair | " + " | ".join(labels) + " |", "|---|" + "---:|" * len(labels)]
    sys_lines = list(lines)
    out = {}
    for lp, (pairs, data), lp_specs in lp_tasks:
        scores = score_segments(data, parse_specs(lp_specs))
        table = rr_table(pairs, data, scores, n_resamples=args.bootstrap, seed=args.seed)
        by = {r.metric: r for r in table.rows}
        cells = []
        for sc in scores:
            r = by[sc.name]
            mark = "**" if r.cluster == 1 else ""
            cells.append(f"{mark}{r.value:.3f}{mark} [{r.ci.low:.3f}, {r.ci.high:.3f}]")
        lines.append(f"| {lp} | " + " | ".join(cells) + " |")
        rhos = [system_spearman(pairs, data, sc) for sc in scores]
        sys_lines.append(
            f"| {lp} ({data.n_systems} systems) | " + " | ".join(f"{x:.3f}" for x in rhos) + " |"
        )
        out[lp] = {"segment": table.to_dict(), "system_spearman": rhos}
        print(f"  {lp}", flush=True)
    return lines + ["", "System level, Spearman rho:", ""] + sys_lines, out


def main(argv=None) -> int:
    from mtpalette.io.judgments_wmt import read_wmt17_testset
    from mtpalette.io.runfile import Run, atomic_writer
    from mtpalette.train.rose import FeatureExtractor, SvmSettings, fit_ranking, fit_regression

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out-dir", type=Path, required=True)
    ap.add_argument("--data-dir", type=Path, default=shared_data())
    ap.add_argument("--bootstrap", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--C", type=float, default=1.0)
    args = ap.parse_args(argv)
    if not (args.data_dir / "wmt12").is_dir():
        print(f"SKIP: {args.data_dir / 'wmt12'} is absent")
        return 0
    out = args.out_dir
    out.mkdir(parents=True, exist_ok=True)
    tasks = {lp: wmt12_task(args.data_dir, lp) for lp in INTO + OUT_OF}
    print("data read", flush=True)

    def rank_model(lps, pos, name, lang="en"):
        ex = FeatureExtractor(lang=lang, pos=pos)
        Xb, Xw = zip(*(pair_features(*tasks[lp], ex) for lp in lps), strict=True)
        m = fit_ranking(
            np.vstack(Xb),
            np.vstack(Xw),
            ex,
            SvmSettings(C=args.C, seed=args.seed),
            info={"trained_on": f"WMT12 relative rankings {', '.join(lps)}"},
        )
        path = out / f"rose-{name}.json"
        m.save(path)
        return path

    def reg_model(pos, name):
        ex = FeatureExtractor(lang="en", pos=pos)
        Xs, ys = [], []
        for lp in WMT17:
            st = read_wmt17_testset(
                args.data_dir / "wmt17-19" / "WMT17" / "testset" / f"testset_{lp}.tsv"
            )
            Xs.append(ex(list(st.hyps), [[r] for r in st.refs]))
            ys.append(np.asarray(st.scores))
        m = fit_regression(
            np.vstack(Xs),
            np.concatenate(ys),
            ex,
            SvmSettings(C=args.C, seed=args.seed),
            info={"trained_on": "WMT17 segment DA, 7 into-English pairs"},
        )
        path = out / f"rose-{name}.json"
        m.save(path)
        return path

    rank_core = rank_model(INTO, False, "rank-core")
    reg_core = reg_model(False, "reg-core")
    reg_pos = reg_model(True, "reg-pos")
    print("models trained", flush=True)
    parts = ["# ROSE: trained on into-English judgments, tested on held-out pairs\n"]
    labels = ["BLEU-S4", "ROSE-rank (core)", "ROSE-reg (core)"]
    results = {}
    # out of English: core features with the target language's function words
    lp_tasks = []
    for lp in OUT_OF:
        tgt = lp.split("-")[1]
        specs = ["bleus:4"]
        for name, path in (("rank", rank_core), ("reg", reg_core)):
            from mtpalette.train.rose import RoseModel

            m = RoseModel.load(path)
            m.lang = tgt  # same weights, the target language's function words
            p = out / f"rose-{name}-core-{tgt}.json"
            m.save(p)
            specs.append(f"rose:@{p}")
        lp_tasks.append((lp, tasks[lp], specs))
    md, res = evaluate(lp_tasks, None, labels, args)
    parts += [
        "## Out of English (trained on cs/de/es/fr-en; WMT12 tau, segment level)\n",
        "Models trained into English, applied with the target language's function-word "
        "list; bold = first significance cluster (paired bootstrap).\n",
        *md,
        "",
    ]
    results["out_of_english"] = res
    # into English: leave one pair out for ranking; POS variants
    lp_tasks = []
    for lp in INTO:
        others = [x for x in INTO if x != lp]
        rc = rank_model(others, False, f"rank-core-no-{lp}")
        rp = rank_model(others, True, f"rank-pos-no-{lp}")
        lp_tasks.append(
            (
                lp,
                tasks[lp],
                ["bleus:4", f"rose:@{rc}", f"rose:@{rp}", f"rose:@{reg_core}", f"rose:@{reg_pos}"],
            )
        )
    labels = ["BLEU-S4", "ROSE-rank", "ROSE-rank + POS", "ROSE-reg", "ROSE-reg + POS"]
    md, res = evaluate(lp_tasks, None, labels, args)
    parts += [
        "## Into English (ROSE-rank: trained on the other three pairs; ROSE-reg: WMT17 DA)\n",
        *md,
        "",
    ]
    results["into_english"] = res
    with atomic_writer(out / "rose.md") as fh:
        fh.write("\n".join(parts))
    Run(
        "rose-experiment",
        settings={"C": args.C, "bootstrap": args.bootstrap},
        seeds={"bootstrap": args.seed, "svm": args.seed},
        results=results,
    ).save(out / "rose.json")
    print(f"wrote {out / 'rose.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
