"""A WMT task set over 30 stored metrics: ``mtpalette wmt`` against mt-metrics-eval's
``TaskSet.Run``, whole processes, the same folder, tasks, k and seed. WMT24's tasks at WMT's
k = 1000 (the significance tests), or WMT23's at k = 0 (``--style wmt23 --k 0``: start-up,
reading the folder and every task's correlations, no test).

Usage: python bench/bench_wmt.py [--style wmt24|wmt23] [--k 1000] [--mtme-metrics 3]
       [--mtme-timeout 900] [--folder DIR] [--workers 2] [--runs full,parallel,subset,mtme]
       [--rounds 1]

The issue's two runs:

    python bench/bench_wmt.py --style wmt23 --k 0 --mtme-metrics 30 --runs subset,mtme --rounds 5
    python bench/bench_wmt.py --k 1000 --mtme-metrics 3 --runs subset,mtme

Data: an mt-metrics-eval folder (``wmt21.tedtalks``, en-de and zh-en) of the whole annotated
WMT21 TED MQM set (529 segments per pair; 12 and 13 judged systems), built by
``scripts/mtme_folder.py`` from ``../shared/data/mqm/ted`` (without it the benchmark skips),
with its stored metrics replaced by the 30 of
:data:`METRICS`: real metrics computed by mtpalette on the folder's texts against each pair's
standard reference (en-de refA, zh-en refB), written as stored score files
``metric-scores/LP/NAME-REF.seg.score`` (sentence scores) and ``.sys.score`` (corpus scores),
error metrics negated. ``--folder DIR`` keeps the folder for the next run.

Runs (``--runs``), each a whole process, printed with wall and CPU time:

* ``full``: ``mtpalette wmt --task-set STYLE -k K`` over the 30 metrics, mt-metrics-eval's
  draws, in one process;
* ``parallel``: the same with independent draws over ``--workers`` processes;
* ``subset``: ``mtpalette wmt`` over the first ``--mtme-metrics`` metrics (mt-metrics-eval's
  draws, like for like with ``mtme``);
* ``mtme``: mt-metrics-eval's ``TaskSet.Run`` of the same tasks (``tasks.WMT24``'s or
  ``tasks.WMT23``'s, on ``wmt21.tedtalks``, ``primary=False``; :func:`mtme_task_set`) over
  the folder read by its ``data.EvalSet``, on
  those first metrics (its cost grows with the number of metric pairs), stopped at
  ``--mtme-timeout`` (then a lower bound). mt-metrics-eval runs from ``$MTME_SRC`` with
  ``$MTME_PYTHON`` (see bench/common.py: mtme_checkout).

The average correlations (rescaled, weighted; independent of the draws) of every run are
compared with mt-metrics-eval's where both finished. mt-metrics-eval orders the systems by
iterating a Python set, so its order changes with ``PYTHONHASHSEED``, and SPA's p-values (a
count of sign flips with ``>=``, ties included) depend slightly on which system of a pair
comes first: its own average correlations move by one count in one system pair
(7.6e-6 here) from one hash seed to another, and equal mtpalette's (sorted systems) for
some. Clusters also depend on the draws: compared, not required equal.

Each run is timed ``--rounds`` times (after one untimed run when more than one), the fastest
kept; both sides run from cached byte code (bench/common.py: bytecode_env).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (  # noqa: E402
    REPO,
    bytecode_env,
    machine,
    mtme_checkout,
    mtme_env,
    run_process,
)

TEST_SET = "wmt21.tedtalks"
STD_REF = {"en-de": "refA", "zh-en": "refB"}
#: 30 metric specs (one metric each), computed by mtpalette; the first ones are those
#: mt-metrics-eval runs with ``--mtme-metrics N``
METRICS = (
    ["chrf", "bleu", "ter", "rouge-l", "wer", "nist", "gtm", "blanc"]
    + [f"bleus:{n}" for n in range(1, 10)]
    + ["chrf++", "chrf:beta=1", "chrf:beta=3", "chrf:n=4", "per", "nist:n=3", "gtm:2"]
    + ["rouge-n:1", "rouge-n:2", "rouge-n:3", "rouge-w", "rouge-s", "rouge-su"]
)


def stored_name(spec: str) -> str:
    """A spec as a stored metric's base name (no dots or white space): ``chrf:beta=1`` ->
    ``chrf_beta_1``."""
    return re.sub(r"[^A-Za-z0-9+]+", "_", spec)


def build_folder(out: Path) -> Path:
    """The test set folder with the 30 metrics of :data:`METRICS` as its stored scores."""
    import importlib.util

    import numpy as np

    from mtpalette.io.mtme_write import write_mtme_scores
    from mtpalette.io.plain import read_lines
    from mtpalette.sources.scoring import score_systems

    script = REPO / "scripts" / "mtme_folder.py"
    spec = importlib.util.spec_from_file_location("mtme_folder", script)
    mf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mf)
    root = out / TEST_SET
    if not (mf.shared_data() / "mqm" / "ted").is_dir():
        raise SystemExit(f"SKIP: {mf.shared_data()}/mqm/ted is absent (set MTPALETTE_SHARED_DATA)")
    mf.build(out, None, None, stored_metrics=False)
    shutil.rmtree(root / "metric-scores", ignore_errors=True)
    for lp, ref in STD_REF.items():
        files = sorted((root / "system-outputs" / lp).glob("*.txt"))
        outputs = {p.stem: read_lines(str(p)) for p in files}
        reference = outputs.pop(ref)
        scored = score_systems(outputs, [reference], METRICS)
        first = next(iter(scored.values()))
        assert len(first.corpus) == len(METRICS)
        for k, (name, score) in enumerate(zip(METRICS, first.corpus, strict=True)):
            sign = 1.0 if score.higher_is_better else -1.0
            seg = {s: sign * np.asarray(v.sentence[score.metric]) for s, v in scored.items()}
            sys_ = {s: sign * v.corpus[k].value for s, v in scored.items()}
            write_mtme_scores(root, lp, stored_name(name), {"seg": seg, "sys": sys_}, ref=ref)
    return root


# ----------------------------------------------------------------------------------------
# mt-metrics-eval's side (runs in $MTME_PYTHON)
# ----------------------------------------------------------------------------------------
def mtme_task_set(tasks, style: str, k: int):
    """mt-metrics-eval's task set of ``style`` (its ``tasks.WMT24`` or ``tasks.WMT23`` at
    68a481a) on this test set, with its weights. WMT24: per pair system SPA and segment acc-eq
    with tie calibration and the pairs test, human outputs for en-de (as ``--task-set wmt24``
    says for en-de); WMT23: pooled system accuracy (weight = number of pairs), per pair
    system and segment Pearson and segment acc-eq, no human outputs (en-de and zh-en have one
    reference in WMT23)."""
    ts = tasks.TaskSet()
    seg_acc_eq = dict(level="seg", corr_fcn="KendallWithTiesOpt", avg_by="item",
                      perm_test="pairs", corr_fcn_args={"sample_rate": 1.0})  # fmt: skip
    lps = sorted(STD_REF)
    if style == "wmt23":
        kw = dict(human=False, primary=False, k=k)
        ts.Append(tasks.Task(TEST_SET, ",".join(lps), level="sys", corr_fcn="accuracy", **kw))
        for lp in lps:
            ts.Append(tasks.Task(TEST_SET, lp, level="sys", corr_fcn="pearson", **kw))
            ts.Append(tasks.Task(TEST_SET, lp, level="seg", corr_fcn="pearson", **kw))
            ts.Append(tasks.Task(TEST_SET, lp, **seg_acc_eq, **kw))
        weights = [len(lps)] + [1] * (len(ts) - 1)
        return ts, [w / sum(weights) for w in weights]
    for lp in lps:
        kw = dict(human=lp == "en-de", primary=False, k=k)
        ts.Append(tasks.Task(TEST_SET, lp, level="sys", corr_fcn="pce", **kw))
        ts.Append(tasks.Task(TEST_SET, lp, **seg_acc_eq, **kw))
    return ts, [1 / len(ts)] * len(ts)


def child_mtme(args) -> dict:
    import types

    import numpy as np

    sys.modules.setdefault("apache_beam", types.ModuleType("apache_beam"))
    from mt_metrics_eval import data, tasks

    keep = set(args.metrics.split(","))
    start, cpu = time.perf_counter(), time.process_time()
    evs = {}
    for lp in sorted(STD_REF):
        e = data.EvalSet(TEST_SET, lp, read_stored_metric_scores=False, path=args.folder)
        for f in sorted(Path(args.folder, TEST_SET, "metric-scores", lp).glob("*.score")):
            name, level = e.ParseMetricFilename(str(f))
            basename, refs = e.ParseMetricName(name)
            if basename in keep:
                e.AddMetric(basename, refs, level, data.ReadScoreFile(str(f)))
        evs[(TEST_SET, lp)] = e
    ts, weights = mtme_task_set(tasks, args.style, args.k)
    np.random.seed(args.seed)
    res = ts.Run(eval_set_dict=evs)
    ranking = res.AverageCorrMatrix(weights)[0] if args.k else {}
    # its display names mark metrics that are not primary submissions with '*'
    return {
        "seconds": time.perf_counter() - start,
        "cpu": time.process_time() - cpu,
        "average_corrs": {m.lstrip("*"): v for m, v in res.AverageCorrs(weights).items()},
        "ranks": {m.lstrip("*"): int(r) for m, (_, r) in ranking.items()},
    }


# ----------------------------------------------------------------------------------------
# the driver (mtpalette's environment)
# ----------------------------------------------------------------------------------------
def best_of(rounds: int, run) -> dict:
    """``run()`` ``rounds`` times (after one untimed run when ``rounds`` > 1, which fills the
    byte-code cache): the fastest wall and CPU times, and the last run's results."""
    if rounds > 1:
        run()
    out = [run() for _ in range(rounds)]
    best = dict(out[-1])
    best["wall"] = min(r["wall"] for r in out)
    best["cpu"] = min(r["cpu"] for r in out)
    return best


def mtpalette_run(folder: Path, args, metrics: list[str], extra: list[str], env: dict) -> dict:
    """``mtpalette wmt`` as a whole process: times, average correlations and clusters."""
    fd, name = tempfile.mkstemp(prefix="wmt-run-", suffix=".json", dir=folder.parent)
    os.close(fd)
    out = Path(name)
    exe = shutil.which("mtpalette")
    cmd = [exe] if exe else [sys.executable, "-c", "from mtpalette.cli.app import main; main()"]
    cmd += ["wmt", "--mtme", str(folder), "--task-set", args.style, "--lp", ",".join(STD_REF),
            "-k", str(args.k), "--seed", str(args.seed), "--json", str(out), "-q",
            "--mtme-metrics", *metrics, *extra]  # fmt: skip
    wall, cpu, _ = run_process(cmd, env=env)
    res = json.loads(out.read_text())
    out.unlink()
    g = res.get("global_ranking", {})
    perms = sum(n for t in res["tasks"] for n in t.get("n_draws", {}).values())
    return {"wall": wall, "cpu": cpu, "average_corrs": res["average_corrs"],
            "ranks": dict(zip(g.get("metrics", []), g.get("ranks", []), strict=True)),
            "permutations": perms}  # fmt: skip


def mtme_run(args, subset: list[str], env: dict, mtme) -> dict:
    """mt-metrics-eval's ``TaskSet.Run`` as a whole process (this file's ``--child-mtme``)."""
    cmd = [str(mtme[1]), __file__, "--child-mtme", "--folder", str(args.folder), "--k",
           str(args.k), "--style", args.style, "--seed", str(args.seed),
           "--metrics", ",".join(subset)]  # fmt: skip
    wall, cpu, out = run_process(cmd, timeout=args.mtme_timeout, env=env)
    res = json.loads(out.strip().splitlines()[-1]) if out else {}
    return {"wall": wall, "cpu": cpu, "finished": out is not None, **res}


def compare(name: str, ours: dict, theirs: dict) -> None:
    common = set(ours["average_corrs"]) & set(theirs["average_corrs"])
    diff = max(abs(ours["average_corrs"][m] - theirs["average_corrs"][m]) for m in common)
    line = f"  {name}: average correlations of {len(common)} metrics, max difference {diff:.1e}"
    if theirs["ranks"] and set(theirs["ranks"]) <= set(ours["ranks"]):
        same = sum(ours["ranks"][m] == r for m, r in theirs["ranks"].items())
        line += f"; global clusters equal for {same}/{len(theirs['ranks'])}"
    print(line)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--child-mtme", action="store_true")
    ap.add_argument("--folder", type=Path, default=None)
    ap.add_argument("--metrics", default="")
    ap.add_argument("--k", type=int, default=1000)
    ap.add_argument("--style", default="wmt24", choices=["wmt24", "wmt23"])
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--mtme-metrics", type=int, default=3)
    ap.add_argument("--mtme-timeout", type=float, default=900.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--runs", default="full,parallel,subset,mtme")
    ap.add_argument("--rounds", type=int, default=1)
    args = ap.parse_args()
    if args.child_mtme:
        print(json.dumps(child_mtme(args)))
        return
    runs = set(args.runs.split(","))
    tmp = None
    if args.folder is None:
        tmp = Path(tempfile.mkdtemp(prefix="bench_wmt_"))
        args.folder = tmp
    print(f"machine: {machine()} at start")
    root = args.folder / TEST_SET
    if not (root / "metric-scores").is_dir():
        t0 = time.perf_counter()
        build_folder(args.folder)
        print(f"built {root} with {len(METRICS)} metrics in {time.perf_counter() - t0:.0f} s")
    names = [stored_name(m) for m in METRICS]
    subset = names[: args.mtme_metrics]
    n_pairs = len(names) * (len(names) - 1) // 2
    tasks = {
        "wmt24": "system SPA + segment acc-eq (pairs test)",
        "wmt23": "pooled system accuracy + per pair system and segment Pearson and segment "
        "acc-eq (pairs test)",
    }[args.style]
    print(f"{args.style.upper()}-style task set: 2 language pairs x {len(names)} metrics "
          f"({n_pairs} metric pairs per task), {tasks}, k={args.k}, seed={args.seed}; "
          f"whole processes, best of {args.rounds}")  # fmt: skip
    cache = Path(tempfile.mkdtemp(prefix="bench_wmt_pyc_"))
    env = bytecode_env(dict(os.environ), cache)
    results: dict[str, dict] = {}
    rounds = args.rounds
    if "full" in runs:
        results["full"] = best_of(rounds, lambda: mtpalette_run(root, args, names, [], env))
    if "parallel" in runs:
        extra = ["--draws", "independent", "--backend", "processes", "--workers", str(args.workers)]
        results["parallel"] = best_of(rounds, lambda: mtpalette_run(root, args, names, extra, env))
    if "subset" in runs:
        results["subset"] = best_of(rounds, lambda: mtpalette_run(root, args, subset, [], env))
    mtme = mtme_checkout() if "mtme" in runs else None
    if mtme is not None:
        menv = bytecode_env(mtme_env(mtme), cache)
        results["mtme"] = best_of(rounds, lambda: mtme_run(args, subset, menv, mtme))
    shutil.rmtree(cache, ignore_errors=True)
    labels = {
        "full": f"mtpalette, {len(names)} metrics, mtme draws, 1 process",
        "parallel": f"mtpalette, {len(names)} metrics, independent, {args.workers} processes",
        "subset": f"mtpalette, {len(subset)} metrics, mtme draws, 1 process",
        "mtme": f"mt-metrics-eval, {len(subset)} metrics",
    }
    print("\nwhole processes:")
    for key, r in results.items():
        bound = "" if r.get("finished", True) else " (stopped at the time limit: lower bounds)"
        perms = f", {r['permutations']} permutations" if "permutations" in r else ""
        print(f"  {labels[key]:52s} {r['wall']:8.2f} s wall {r['cpu']:8.2f} s CPU{perms}{bound}")
    m = results.get("mtme")
    if m:
        ge = ">= " if not m["finished"] else ""
        # mt-metrics-eval's cost is one test per metric pair and task: scaled to all metrics
        # by the number of pairs (an extrapolation, not a run)
        scale = n_pairs / max(len(subset) * (len(subset) - 1) // 2, 1)
        hours = (m["wall"] * scale / 3600, m["cpu"] * scale / 3600)
        if scale > 1:
            print(f"  mt-metrics-eval, {len(names)} metrics, extrapolated x{scale:.0f} metric "
                  f"pairs: {ge}{hours[0]:.1f} h wall, {ge}{hours[1]:.1f} h CPU")  # fmt: skip
            for key in ("full", "parallel"):
                if key in results:
                    r = results[key]
                    print(f"  speed-up of {labels[key]} over the extrapolation: "
                          f"{ge}{m['wall'] * scale / r['wall']:.0f}x wall, "
                          f"{ge}{m['cpu'] * scale / r['cpu']:.0f}x CPU")  # fmt: skip
        for key in ("full", "parallel", "subset"):
            if key in results:
                r = results[key]
                print(f"  speed-up over mt-metrics-eval ({len(subset)} metrics) of {labels[key]}: "
                      f"{ge}{m['wall'] / r['wall']:.1f}x wall, "
                      f"{ge}{m['cpu'] / r['cpu']:.1f}x CPU")  # fmt: skip
        if m["finished"]:
            print("checks against mt-metrics-eval:")
            for key in ("full", "parallel", "subset"):
                if key in results:
                    compare(labels[key], results[key], m)
    print(f"machine: {machine()} at the end")
    if tmp is not None:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
