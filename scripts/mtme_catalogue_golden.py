"""Golden values of MTME's task catalogue on the folder ``wmt21.tedtalks`` that
``scripts/mtme_folder.py build --out DIR --docs 3 --per-doc 6`` writes from the shared data.

Runs google-research/mt-metrics-eval (MTME) at commit
68a481aea1a787392d55af8f76ac8ef40c5f4664 on the small MQM folder written by
``scripts/mtme_folder.py build`` and prints, as JSON, what MTME's own task machinery
(``tasks.Task(...).Run``, i.e. ``data.GetCorrelations`` then ``data.CompareMetrics``,
``data.CompareMetricsWithPairwiseConfidenceError`` or
``data.CompareMetricsWithGlobalAccuracy``; k = 0, so no significance test) computes for every
stored metric that uses the standard reference (refA for en-de, refB for zh-en; gold ``mqm``):

* level ``sys``: ``pearson``, ``spearman``, ``kendall``, ``KendallLike`` (its default
  thresh=25, above every difference of this folder's MQM scores, so 0; and thresh=1.0),
  ``KendallWithTiesOpt`` (variant acc23, sample_rate 1.0), ``pce`` (MTME's soft pairwise
  accuracy, computed from segment-level scores) and ``accuracy`` (pairwise accuracy of one
  language pair, and pooled over ``en-de,zh-en``);
* level ``seg``, each with avg_by ``none``, ``sys`` and ``item``: ``pearson``, ``spearman``,
  ``kendall``, ``KendallLike`` (thresh 25 and 1.0), ``KendallVariants`` (variant b),
  ``KendallWithTiesOpt`` (acc23, sample_rate 1.0), and ``pearson`` with ``{"pdp": True}``;
* levels ``doc`` and ``domain`` only where the folder has human scores at that level (it has
  none: they are skipped and the JSON says so).

Every task is built with ``human=False``, ``primary=False``, ``use_outliers=False``, ``k=0``
and the standard gold and reference, so the systems compared are the MT systems with human
scores (references and ``metricsystem5``, which has no human score, left out). The JSON also
records, per language pair, the system-level vectors: the systems MTME keeps, the order in
which MTME's ``EvalSet.Correlation`` packed them (it iterates a Python set: run with
``PYTHONHASHSEED=0``; MTME's pce depends on that order), the stored human ``mqm.sys.score``
and each metric's stored ``.sys.score``. Floats are full precision; NaN is written as null
(none at present).

Usage (from the repository root; ``$MTME_SRC``: the MTME checkout, ``$MTME_PYTHON``: a Python
with numpy, scipy, dacite and absl-py; ``apache_beam`` is replaced by an empty module)::

    PYTHONHASHSEED=0 OPENBLAS_NUM_THREADS=1 PYTHONPATH=$MTME_SRC $MTME_PYTHON \\
        scripts/mtme_catalogue_golden.py DIR \\
        > tests/data/mtme_folder/catalogue_golden.json
"""

from __future__ import annotations

import json
import math
import os
import sys
import types
from pathlib import Path

MTME_COMMIT = "68a481aea1a787392d55af8f76ac8ef40c5f4664"
TEST_SET = "wmt21.tedtalks"
LPS = ["en-de", "zh-en"]
AVG_BYS = ["none", "sys", "item"]
TIES = {"variant": "acc23", "sample_rate": 1.0}
#: (corr_fcn, avg_by, corr_fcn_args) of the system-level tasks of one language pair
SYS_TASKS = [
    ("pearson", "none", {}),
    ("spearman", "none", {}),
    ("kendall", "none", {}),
    ("KendallLike", "none", {}),
    ("KendallLike", "none", {"thresh": 1.0}),
    ("KendallWithTiesOpt", "none", TIES),
    ("pce", "none", {}),
    ("accuracy", "none", {}),
]
#: the same for the segment level
SEG_TASKS = [
    (fcn, avg_by, args)
    for avg_by in AVG_BYS
    for fcn, args in [
        ("pearson", {}),
        ("spearman", {}),
        ("kendall", {}),
        ("KendallLike", {}),
        ("KendallLike", {"thresh": 1.0}),
        ("KendallVariants", {}),
        ("KendallWithTiesOpt", TIES),
        ("pearson", {"pdp": True}),
    ]
]
FIXED = {"human": False, "primary": False, "use_outliers": False, "k": 0}


def clean(x):
    """A float for JSON, None for NaN or None."""
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) else x


def main(folder: Path) -> dict:
    sys.modules.setdefault("apache_beam", types.ModuleType("apache_beam"))
    import numpy as np  # noqa: PLC0415
    from mt_metrics_eval import data, tasks  # noqa: PLC0415

    # Record (without changing anything) the order in which EvalSet.Correlation packs the
    # systems: it iterates set(sys_names).
    orders: dict[tuple[str, int], list[list[str]]] = {}
    original = data.EvalSet.Correlation

    def recording(self, gold_scores, metric_scores, sys_names=None, indexes=None):
        names = gold_scores if sys_names is None else sys_names
        n_items = len(next(iter(gold_scores.values())))
        orders.setdefault((self.lp, n_items), []).append(list(set(names)))
        return original(self, gold_scores, metric_scores, sys_names, indexes)

    data.EvalSet.Correlation = recording

    evs_dict = {
        (TEST_SET, lp): data.EvalSet(TEST_SET, lp, read_stored_metric_scores=True, path=str(folder))
        for lp in LPS
    }
    out: dict = {
        "provenance": {
            "tool": "google-research/mt-metrics-eval",
            "mtme_commit": MTME_COMMIT,
            "command": "PYTHONHASHSEED=0 OPENBLAS_NUM_THREADS=1 PYTHONPATH=$MTME_SRC "
            "$MTME_PYTHON scripts/mtme_catalogue_golden.py src/mtpalette/data/mtme",
            "calls": "data.EvalSet('wmt21.tedtalks', lp, read_stored_metric_scores=True, "
            "path=FOLDER); tasks.Task('wmt21.tedtalks', lang, level=..., corr_fcn=..., "
            "avg_by=..., corr_fcn_args=..., human=False, primary=False, use_outliers=False, "
            "k=0).Run(eval_set_dict) for each task (gold, refs: MTME's standard ones)",
            "environment": {
                "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED"),
                "OPENBLAS_NUM_THREADS": os.environ.get("OPENBLAS_NUM_THREADS"),
                "numpy": __import__("numpy").__version__,
                "scipy": __import__("scipy").__version__,
            },
        },
        "notes": [
            "value: what TaskResults.corr_ranks holds for the metric (the first element of "
            "what the correlation function returns, averaged as avg_by says); null: NaN.",
            "metric: MTME's base name of the stored metric that uses the standard reference; "
            "the task results name it as DisplayName(..., 'spreadsheet') ('*' for a "
            "non-primary metric).",
            "kendall is scipy.stats.kendalltau (tau-b); KendallLike is stats.KendallLike with "
            "its default thresh=25 (no pair of this folder's MQM scores differs by 25: "
            "MTME returns 0) or corr_fcn_args thresh=1.0, macro-averaged (as CompareMetrics "
            "calls it: a plain mean over the groups with two or more rated entries, a group "
            "without a qualifying pair counting as 0; Correlation.KendallLike instead weights "
            "each group by its number of pairs, i.e. pools them); "
            "KendallVariants is variant 'b'; pce is stats.PairwiseConfidenceError on the "
            "segment-level scores (num_permutations=1000, pce.py's fixed seed 4); "
            "accuracy is data.CompareMetricsWithGlobalAccuracy.",
            "pce needs segment-level metric scores: BLEU (system level only) has no pce value.",
            "pce depends on the order of the systems (its p-values are one-sided, p(system i > "
            "system j) for i before j, from one fixed draw of 1000 sign flips): with "
            "PYTHONHASHSEED=1 instead of 0 MTME packs them in another order and the pce values "
            "move by up to 5e-3; the other values agree to 1e-15. Reproduce pce with the "
            "systems in mtme_order_seg.",
            "human_sys: the stored mqm.sys.score of every system in it (references too); "
            "human_seg_mean: numpy.mean of each system's rated mqm.seg.score; systems: the "
            "systems every task compares (sorted); mtme_order_sys/mtme_order_seg: the order "
            "in which EvalSet.Correlation packed them (PYTHONHASHSEED=0).",
        ],
        "lps": {},
        "pooled_accuracy": [],
        "failed": [],
    }

    def run(task):
        try:
            res = task.Run(evs_dict)
        except Exception as e:  # noqa: BLE001  (recorded: which combinations MTME refuses)
            out["failed"].append({"task": task.name, "error": f"{type(e).__name__}: {e}"})
            return None
        return res.corr_ranks

    for lp in LPS:
        evs = evs_dict[(TEST_SET, lp)]
        std_ref = evs.std_ref
        # full names (BLEU-refB) of the metrics on the standard reference, by base name
        full = {
            evs.BaseMetric(m): m
            for m in sorted(evs.metric_names)
            if evs.ReferencesUsed(m) and evs.ReferencesUsed(m) <= {std_ref}
        }
        by_display = {evs.DisplayName(m, "spreadsheet"): b for b, m in full.items()}
        gold_sys = evs.Scores("sys", evs.StdHumanScoreName("sys"))
        gold_seg = evs.Scores("seg", evs.StdHumanScoreName("seg"))
        kept = (evs.sys_names - {std_ref} - evs.human_sys_names - evs.outlier_sys_names) & {
            s for s, v in gold_sys.items() if v and any(x is not None for x in v)
        }
        skipped_levels = {
            level: "no human scores at this level in the folder (MTME's std_gold for "
            f"{TEST_SET} {lp} is {dict(evs.info.std_gold)})"
            for level in ("doc", "domain")
            if level not in evs.levels
            or not any(evs.Scores(level, h) for h in evs.human_score_names)
        }
        entry: dict = {
            "std_ref": std_ref,
            "gold": {"sys": evs.StdHumanScoreName("sys"), "seg": evs.StdHumanScoreName("seg")},
            "all_systems": sorted(evs.sys_names),
            "human_sys_names": sorted(evs.human_sys_names),
            "systems": sorted(kept),
            "metrics": full,
            "human_sys": {s: clean(v[0]) for s, v in sorted(gold_sys.items())},
            "human_seg_mean": {
                s: clean(np.mean([x for x in v if x is not None]))
                if any(x is not None for x in v)
                else None
                for s, v in sorted(gold_seg.items())
            },
            "metric_sys": {
                b: {s: clean(v[0]) for s, v in sorted(evs.Scores("sys", m).items())}
                for b, m in full.items()
                if evs.Scores("sys", m)
            },
            "skipped_levels": skipped_levels,
            "values": [],
        }
        for level, specs in (("sys", SYS_TASKS), ("seg", SEG_TASKS)):
            for fcn, avg_by, args in specs:
                task = tasks.Task(
                    TEST_SET,
                    lp,
                    level=level,
                    corr_fcn=fcn,
                    avg_by=avg_by,
                    corr_fcn_args=dict(args),
                    **FIXED,
                )
                corr_ranks = run(task)
                if corr_ranks is None:
                    continue
                for name, (value, _rank) in sorted(corr_ranks.items()):
                    entry["values"].append(
                        {
                            "lp": lp,
                            "level": level,
                            "corr_fcn": fcn,
                            "avg_by": avg_by,
                            "corr_fcn_args": dict(args),
                            "metric": by_display.get(name, name),
                            "value": clean(value),
                        }
                    )
        out["lps"][lp] = entry

    pooled = tasks.Task(TEST_SET, ",".join(LPS), level="sys", corr_fcn="accuracy", **FIXED)
    corr_ranks = run(pooled) or {}
    display = {}
    for lp in LPS:
        evs = evs_dict[(TEST_SET, lp)]
        for b, m in out["lps"][lp]["metrics"].items():
            display[evs.DisplayName(m, "spreadsheet")] = b
    for name, (value, _rank) in sorted(corr_ranks.items()):
        out["pooled_accuracy"].append(
            {
                "lp": ",".join(LPS),
                "level": "sys",
                "corr_fcn": "accuracy",
                "avg_by": "none",
                "corr_fcn_args": {},
                "metric": display.get(name, name),
                "value": clean(value),
            }
        )

    # the system orders MTME packed (per language pair and number of items per system)
    for lp in LPS:
        n_seg = len(evs_dict[(TEST_SET, lp)].src)
        for level, n in (("sys", 1), ("seg", n_seg)):
            seen = orders.get((lp, n), [])
            distinct = [list(o) for o in dict.fromkeys(tuple(o) for o in seen)]
            out["lps"][lp][f"mtme_order_{level}"] = distinct[0] if len(distinct) == 1 else distinct
            # the systems MTME packed are the ones recorded as kept
            assert all(sorted(o) == out["lps"][lp]["systems"] for o in distinct), (lp, level)
    data.EvalSet.Correlation = original
    out["n_values"] = sum(len(e["values"]) for e in out["lps"].values()) + len(
        out["pooled_accuracy"]
    )
    return out


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    result = main(Path(sys.argv[1]))
    json.dump(result, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")
