"""Compute golden correlation values with google-research/mt-metrics-eval (run, not copied).

Usage (see README.md in this folder for the exact commit)::

    git -C MTME_CLONE archive HEAD mt_metrics_eval | tar -x -C /tmp/mtme
    pip install --target /tmp/mtme_deps dacite
    PYTHONPATH=/tmp/mtme:/tmp/mtme_deps python tests/data/mtme/make_golden.py \
        > tests/data/mtme/golden.json

Inputs, stored in the output next to the values:

* ``synthetic``: a 6 x 12 matrix of "human" scores on a 0-100 grid (many ties, some unrated
  entries) and metric scores rounded to one decimal (ties), from numpy's default_rng(20230);
* ``noisy_ties``: an 8 x 15 matrix of human scores in {0, 1, 2, 3} and a metric equal to
  them plus Gaussian noise (sd 0.3, rounded to 0.01), from default_rng(7): a case where tie
  calibration chooses a positive threshold;
* ``mqm_zhen``: real data - the MQM scores of the first 30 annotated segments of the WMT21 TED
  zh-en MQM data (13 systems; ``mqm_ted_zhen.avg_seg_scores.tsv.gz`` as
  ``scripts/extract_mqm_ted.py --out $MQM_TED`` writes it from the shared data) and sacrebleu's
  sentence chrF of each translation against ``ref`` and ``refB``, also rounded to whole points
  (``mqm_zhen_rounded``) to add metric ties. The MQM scores are not written to golden.json
  (third-party ratings, issue 56): the tests read them from the shared data.
"""

from __future__ import annotations

import gzip
import json
import math
import os
import sys
import types
from pathlib import Path

import numpy as np
import sacrebleu

# mt_metrics_eval.data imports apache_beam at module level only for its parallel mode, which
# AssignRanks does not use; an empty stand-in lets it import without installing beam.
sys.modules.setdefault("apache_beam", types.ModuleType("apache_beam"))
from mt_metrics_eval import data as mtme_data  # noqa: E402
from mt_metrics_eval import stats  # noqa: E402

SEGMENTS = 30
#: the mt-metrics-eval commit the archive in /tmp/mtme was taken from
MTME_COMMIT = "68a481aea1a787392d55af8f76ac8ef40c5f4664"


def synthetic() -> tuple[list[list[float | None]], list[list[float]]]:
    rng = np.random.default_rng(20230)
    shape = (6, 12)
    base = rng.normal(size=shape)
    human = np.round((50 + 20 * base + 10 * rng.normal(size=shape)) / 5) * 5
    metric = np.round(base + 0.8 * rng.normal(size=shape), 1)
    gold: list[list[float | None]] = human.tolist()
    for s, i in [(0, 3), (2, 7), (5, 0), (4, 11), (1, 7)]:
        gold[s][i] = None
    return gold, metric.tolist()


def noisy_ties() -> tuple[list[list[float | None]], list[list[float]]]:
    """Human scores with many ties and a metric = human + small noise: calibration helps."""
    rng = np.random.default_rng(7)
    shape = (8, 15)
    human = rng.integers(0, 4, size=shape).astype(float)
    metric = np.round(human + 0.3 * rng.normal(size=shape), 2)
    gold: list[list[float | None]] = human.tolist()
    gold[3][4] = None
    return gold, metric.tolist()


def mqm_zhen() -> tuple[list[str], list[list[float | None]], list[list[float]]]:
    root = Path(os.environ["MQM_TED"]) / "zhen"
    seg_ids = [int(x) for x in (root / "seg_ids.txt").read_text().split()][:SEGMENTS]
    refs = [
        (root / f"{r}.txt").read_text(encoding="utf-8").split("\n")[:SEGMENTS]
        for r in ("ref", "refB")
    ]
    with gzip.open(str(root / "mqm_ted_zhen.avg_seg_scores.tsv.gz"), "rt") as fh:
        lines = fh.read().splitlines()[1:]
    avg = {}
    for line in lines:
        system, rest = line.split("\t")
        score, seg = rest.split(" ")
        avg[(system, int(seg))] = None if score == "None" else float(score)
    systems = sorted(
        p.name[:-4]
        for p in root.iterdir()
        if p.name.endswith(".txt")
        and p.name not in ("ref.txt", "refB.txt", "source.txt", "seg_ids.txt")
    )
    gold, metric = [], []
    for system in systems:
        hyps = (root / f"{system}.txt").read_text(encoding="utf-8").split("\n")[:SEGMENTS]
        gold.append([avg[(system, s)] for s in seg_ids])
        metric.append(
            [sacrebleu.sentence_chrf(h, [r[i] for r in refs]).score for i, h in enumerate(hyps)]
        )
    return systems, gold, metric


def flat(matrix):
    return [v for row in matrix for v in row]


def clean(x):
    if isinstance(x, (list, tuple)):
        return [clean(v) for v in x]
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) else x


def values(gold, metric, *, like_threshold: float, epsilon: float) -> dict:
    num_sys = len(gold)
    corr = stats.Correlation(num_sys, flat(gold), flat(metric))
    out: dict = {}
    for by in ("none", "item", "sys"):
        o = out[by] = {}
        o["pearson"] = clean(corr.Pearson(by)[0])
        o["spearman"] = clean(corr.Spearman(by)[0])
        o["kendall_b_scipy"] = clean(corr.Kendall(by)[0])
        o["kendall_c_scipy"] = clean(corr.Kendall(by, variant="c")[0])
        for variant in ("b", "c", "23", "acc23"):
            o[f"variants_{variant}"] = clean(corr.KendallVariants(by, variant)[0])
        for variant in ("b", "23", "acc23"):
            o[f"variants_{variant}_eps"] = clean(
                corr.KendallVariants(by, variant, epsilon=epsilon)[0]
            )
        for variant in ("acc23", "23"):
            value, threshold, _ = stats.KendallWithTiesOpt(
                flat(gold), flat(metric), variant, num_sys, by, sample_rate=1.0
            )
            o[f"opt_{variant}"] = [clean(value), clean(threshold)]
        o["kendall_like"] = clean(corr.KendallLike(by, thresh=like_threshold)[0])
    # system level: mean over each system's rated items
    g_sys = [float(np.mean([v for v in row if v is not None])) for row in gold]
    m_sys = [
        float(np.mean([m for v, m in zip(grow, mrow, strict=True) if v is not None]))
        for grow, mrow in zip(gold, metric, strict=True)
    ]
    sys_corr = stats.Correlation(len(g_sys), g_sys, m_sys)
    agree, pairs = stats.Agreement(g_sys, m_sys)
    out["system"] = {
        "gold": g_sys,
        "metric": m_sys,
        "pearson": clean(sys_corr.Pearson()[0]),
        "kendall_b": clean(sys_corr.KendallVariants()[0]),
        "pairwise_accuracy": clean(agree / pairs),
        "opt_acc23": clean(
            list(stats.KendallWithTiesOpt(g_sys, m_sys, "acc23", sample_rate=1.0)[:2])
        ),
    }
    return out


def main() -> None:
    gold_s, metric_s = synthetic()
    systems, gold_q, metric_q = mqm_zhen()
    metric_qr = [[float(round(v)) for v in row] for row in metric_q]
    sig = np.array(
        [
            [0.0, 0.30, 0.01, 0.001, 0.0],
            [0.0, 0.0, 0.20, 0.04, 0.002],
            [0.0, 0.0, 0.0, 0.50, 0.03],
            [0.0, 0.0, 0.0, 0.0, 0.06],
            [0.0, 0.0, 0.0, 0.0, 0.0],
        ]
    )
    williams_cases = [
        (0.6, 0.4, 0.5, 100),
        (0.35, 0.30, 0.8, 560),
        (0.1, 0.5, 0.2, 30),
        (0.9, 0.89, 0.95, 13),
    ]
    golden = {
        "provenance": {
            "tool": "google-research/mt-metrics-eval",
            "commit": MTME_COMMIT,
            "functions": "stats.Correlation.{Pearson,Spearman,Kendall,KendallVariants,"
            "KendallLike}, stats.KendallWithTiesOpt(sample_rate=1.0), "
            "stats.Agreement, stats.WilliamsTest, data.AssignRanks",
            "numpy": np.__version__,
            "command": "PYTHONPATH=/tmp/mtme:/tmp/mtme_deps python tests/data/mtme/make_golden.py",
        },
        "synthetic": {
            "gold": gold_s,
            "metric": metric_s,
            "like_threshold": 25.0,
            "epsilon": 0.25,
            "values": values(gold_s, metric_s, like_threshold=25.0, epsilon=0.25),
        },
        "noisy_ties": {
            "gold": noisy_ties()[0],
            "metric": noisy_ties()[1],
            "like_threshold": 1.0,
            "epsilon": 0.2,
            "values": values(*noisy_ties(), like_threshold=1.0, epsilon=0.2),
        },
        "mqm_zhen": {
            "systems": systems,
            "metric": metric_q,
            "like_threshold": 1.0,
            "epsilon": 2.0,
            "values": values(gold_q, metric_q, like_threshold=1.0, epsilon=2.0),
        },
        "mqm_zhen_rounded": {
            "metric": metric_qr,
            "like_threshold": 1.0,
            "epsilon": 2.0,
            "values": values(gold_q, metric_qr, like_threshold=1.0, epsilon=2.0),
        },
        "williams": [
            {
                "r12": a,
                "r13": b,
                "r23": c,
                "n": n,
                "p_one_sided": clean(stats.WilliamsTest(a, b, c, n)),
                "p_two_sided": clean(stats.WilliamsTest(a, b, c, n, one_sided=False)),
            }
            for a, b, c, n in williams_cases
        ],
        "assign_ranks": {
            "sig_matrix": sig.tolist(),
            "pval": 0.05,
            "ranks": mtme_data.AssignRanks(sig, 0.05),
        },
    }
    json.dump(golden, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
