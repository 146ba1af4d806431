"""Golden values of WMT task sets and SPA on real data, computed by running mt-metrics-eval
(google-research/mt-metrics-eval at 68a481a; run, never copied).

Data: the WMT21 TED MQM data (``scripts/extract_mqm_ted.py --out $MQM_TED`` writes it from the
shared data): MQM segment scores of the 13 MT systems of each pair (all 529 annotated segments
are rated; read from ``$MQM_TED``, never written to the repository: ``inputs.json.gz`` holds
the systems and the metric scores only) and four metrics computed here with sacrebleu
against reference A - sentence chrF, chrF++, BLEU and TER (negated), rounded to 4 decimals;
system scores are the means of the segment scores.

mt-metrics-eval runs its own ``TaskSet.Run``, ``CompareMetrics*``, ``AverageCorrs``,
``AverageRanks`` and ``AverageCorrMatrix`` on tasks built as WMT24's (system SPA, segment
acc-eq with the ``pairs`` test) and WMT23's (pooled accuracy, system and segment Pearson,
segment acc-eq) over ``wmt21.tedtalks`` en-de and zh-en, with ``np.random.seed`` fixed before
each run. Only its loader is replaced (``data.GetCorrelations``, which reads its folders) by
one that serves the scores above with the systems in sorted order (mt-metrics-eval orders
them by iterating a Python set, which changes with PYTHONHASHSEED).

SPA's p-values are float32 matrix products, whose last bits OpenBLAS computes differently
with one thread and with several, and with its AVX-512 (SkylakeX) kernel and its Haswell one;
mtpalette sums them in the order of the AVX-512 kernel on one thread on any machine
(``stats.pairwise.sign_products``), so mt-metrics-eval runs here with
``OPENBLAS_NUM_THREADS=1`` on an AVX-512 CPU with ``OPENBLAS_CORETYPE`` unset (or SkylakeX).

Usage (two steps: sacrebleu lives in mtpalette's environment, mt-metrics-eval in its own)::

    python scripts/extract_mqm_ted.py --out $MQM_TED
    MQM_TED=... .venv/bin/python scripts/mtme_tasks_golden.py scores   # writes inputs.json.gz
    MQM_TED=... OPENBLAS_NUM_THREADS=1 PYTHONPATH=$MTME_SRC \\
        $MTME_PYTHON scripts/mtme_tasks_golden.py
"""

from __future__ import annotations

import gzip
import json
import os
import sys
import time
import types
from pathlib import Path

import numpy as np

if sys.argv[1:] != ["scores"]:
    sys.modules.setdefault("apache_beam", types.ModuleType("apache_beam"))
    from mt_metrics_eval import data as mtme_data
    from mt_metrics_eval import pce, stats, tasks

MTME_COMMIT = "68a481aea1a787392d55af8f76ac8ef40c5f4664"
ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("MQM_TED", "mqm_ted"))
OUT = ROOT / "tests" / "data" / "mtme_tasks" / "golden.json.gz"
INPUTS = OUT.with_name("inputs.json.gz")
LPS = {"en-de": "ende", "zh-en": "zhen"}
TEST_SET = "wmt21.tedtalks"


def read_lp(folder: str) -> dict:
    import sacrebleu

    root = DATA / folder
    seg_ids = [int(x) for x in (root / "seg_ids.txt").read_text().split()]
    ref = (root / "ref.txt").read_text(encoding="utf-8").split("\n")[: len(seg_ids)]
    with gzip.open(root / f"mqm_ted_{folder}.avg_seg_scores.tsv.gz", "rt") as fh:
        lines = fh.read().splitlines()[1:]
    mqm = {}
    for line in lines:
        system, rest = line.split("\t")
        score, seg = rest.split(" ")
        mqm[(system, int(seg))] = None if score == "None" else float(score)
    skip = {"ref.txt", "refB.txt", "source.txt", "seg_ids.txt"}
    systems = sorted(p.name[:-4] for p in root.glob("*.txt") if p.name not in skip)
    chrfpp = sacrebleu.metrics.CHRF(word_order=2)
    bleu = sacrebleu.metrics.BLEU(effective_order=True)
    ter = sacrebleu.metrics.TER()
    human, metrics = [], {"chrF": [], "chrF++": [], "BLEU": [], "TER": []}
    for system in systems:
        hyps = (root / f"{system}.txt").read_text(encoding="utf-8").split("\n")[: len(seg_ids)]
        human.append([mqm[(system, s)] for s in seg_ids])
        pairs = list(zip(hyps, ref, strict=True))
        metrics["chrF"].append([sacrebleu.sentence_chrf(h, [r]).score for h, r in pairs])
        metrics["chrF++"].append([chrfpp.sentence_score(h, [r]).score for h, r in pairs])
        metrics["BLEU"].append([bleu.sentence_score(h, [r]).score for h, r in pairs])
        metrics["TER"].append([-ter.sentence_score(h, [r]).score for h, r in pairs])
    metrics = {k: np.round(np.array(v), 4).tolist() for k, v in metrics.items()}
    return {"systems": systems, "human_seg": human, "metrics_seg": metrics}


def sys_mean(matrix) -> list:
    return [float(np.mean([v for v in row if v is not None])) for row in matrix]


class _Evs:
    """What the patched loader and CompareMetricsWithGlobalAccuracy need of an EvalSet."""

    def __init__(self, lp: dict):
        self.lp = lp

    def DisplayName(self, name, fmt="spreadsheet"):  # noqa: N802 - mt-metrics-eval's name
        return name


def _get_correlations(evs, level, *args, **kwargs):
    lp = evs.lp
    n = len(lp["systems"])
    if level == "seg":
        gold = [v for row in lp["human_seg"] for v in row]
        mets = {m: [v for row in x for v in row] for m, x in lp["metrics_seg"].items()}
    else:
        gold = sys_mean(lp["human_seg"])
        mets = {m: sys_mean(x) for m, x in lp["metrics_seg"].items()}
    return {m: stats.Correlation(n, gold, x) for m, x in mets.items()}


def task_set(style: str, k: int, block_size: int):
    ts = tasks.TaskSet()
    kw = dict(gold="mqm", k=k, block_size=block_size, human=False)
    lps = sorted(LPS)
    if style == "wmt23":
        ts.Append(tasks.Task(TEST_SET, ",".join(lps), level="sys", corr_fcn="accuracy",
                             gold=["mqm"] * len(lps), k=k, block_size=block_size,
                             human=False))  # fmt: skip
    for lp in lps:
        if style == "wmt23":
            ts.Append(tasks.Task(TEST_SET, lp, level="sys", corr_fcn="pearson", **kw))
            ts.Append(tasks.Task(TEST_SET, lp, level="seg", corr_fcn="pearson", **kw))
        else:
            ts.Append(tasks.Task(TEST_SET, lp, level="sys", corr_fcn="pce", **kw))
        ts.Append(tasks.Task(TEST_SET, lp, level="seg", corr_fcn="KendallWithTiesOpt",
                             avg_by="item", perm_test="pairs",
                             corr_fcn_args={"sample_rate": 1.0}, **kw))  # fmt: skip
    weights = ([len(lps)] if style == "wmt23" else []) + [1] * (len(ts) - (style == "wmt23"))
    return ts, [w / sum(weights) for w in weights]


def run(style: str, lps: dict, k: int, block_size: int, seed: int) -> dict:
    ts, weights = task_set(style, k, block_size)
    evs = {(TEST_SET, lp): _Evs(lps[lp]) for lp in lps}
    np.random.seed(seed)
    start = time.perf_counter()
    res = ts.Run(eval_set_dict=evs)
    elapsed = time.perf_counter() - start
    out_tasks = []
    for task, r in zip(ts, res, strict=True):
        n = len(r.metrics)
        draws = {f"{i},{j}": r.Draws(i, j).tolist() for i in range(n) for j in range(i + 1, n)}
        out_tasks.append({
            "lang": task.lang, "level": task.level, "corr_fcn": task.corr_fcn,
            "avg_by": task.avg_by, "perm_test": task.perm_test,
            "corr_fcn_args": task.corr_fcn_args, "metrics": r.metrics,
            "corrs": [float(r.Corr(m)) for m in r.metrics],
            "ranks": [int(r.Rank(m)) for m in r.metrics],
            "matrix": r.matrix.tolist(), "draws": draws if k else {},
        })  # fmt: skip
    out = {
        "style": style, "k": k, "block_size": block_size, "seed": seed, "weights": weights,
        "mtme_seconds": elapsed, "tasks": out_tasks,
        "average_corrs": res.AverageCorrs(weights), "average_ranks": res.AverageRanks(weights),
    }  # fmt: skip
    if k:
        corr_ranks, matrix = res.AverageCorrMatrix(weights)
        out["average_corr_matrix"] = {
            "metrics": list(corr_ranks),
            "corrs": [float(c) for c, _ in corr_ranks.values()],
            "ranks": [int(r) for _, r in corr_ranks.values()],
            "matrix": matrix.tolist(),
        }
    print(style, "k", k, f"{elapsed:.1f}s", file=sys.stderr)
    return out


def spa_values(lps: dict) -> list[dict]:
    out = []
    for lp, d in lps.items():
        n = len(d["systems"])
        gold = [v for row in d["human_seg"] for v in row]
        for m, x in d["metrics_seg"].items():
            flat = [v for row in x for v in row]
            default = stats.Correlation(n, gold, flat).PairwiseConfidenceError()[0]
            g, mm = np.array(d["human_seg"], float), np.array(x, float)
            other = pce.compute_one_minus_pce(
                pce.compute_pairwise_p_values(g, 300, 11),
                pce.compute_pairwise_p_values(mm, 300, 11),
            )
            out.append({"lp": lp, "metric": m, "seed4_k1000": float(default),
                        "seed11_k300": float(other)})  # fmt: skip
    return out


def main() -> None:
    from extract_mqm_ted import mqm_avg_matrix

    with gzip.open(INPUTS, "rt") as fh:
        lps = json.load(fh)
    for lp, d in lps.items():  # the MQM scores, from the shared data's rebuild
        d["human_seg"] = mqm_avg_matrix(DATA, LPS[lp], d["systems"])
    golden = {
        "source": f"google-research/mt-metrics-eval@{MTME_COMMIT}, run by "
        "scripts/mtme_tasks_golden.py on src/mtpalette/data/mqm_ted (WMT21 TED MQM)",
        "numpy": np.__version__,
        "inputs": INPUTS.name,
        "spa": spa_values(lps),
        "runs": [
            run("wmt24", lps, 0, 100, 0),
            run("wmt24", lps, 30, 10, 1234),
            run("wmt23", lps, 0, 100, 0),
            run("wmt23", lps, 30, 10, 99),
        ],
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(OUT, "wt") as fh:
        json.dump(golden, fh)
    print("wrote", OUT, file=sys.stderr)


if __name__ == "__main__":
    if sys.argv[1:] == ["scores"]:
        INPUTS.parent.mkdir(parents=True, exist_ok=True)
        with gzip.open(INPUTS, "wt") as fh:
            inputs = {lp: read_lp(folder) for lp, folder in LPS.items()}
            for d in inputs.values():
                del d["human_seg"]  # third-party ratings: read from $MQM_TED by the golden step
            json.dump(inputs, fh)
    else:
        mtme_data.GetCorrelations = _get_correlations
        main()
