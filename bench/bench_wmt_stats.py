"""WMT task sets: mtpalette's ``TaskSet.run`` against mt-metrics-eval's ``TaskSet.Run``, whole
processes, same data, same tasks, same k and seed.

Usage: python bench/bench_wmt_stats.py [--style wmt24|wmt23] [--k 30] [--block-size 10]
       [--extra N] [--mtme-timeout 100]

Data: the bundled WMT21 TED MQM data (en-de, zh-en; 13 systems x 529 segments) with the four
sacrebleu metrics of ``tests/data/mtme_tasks/inputs.json.gz``. ``--extra N`` adds N derived
metrics (a stored metric plus Gaussian noise, rounded like the others) to measure how the
cost grows with metric pairs; say so when quoting numbers. mt-metrics-eval runs from the
checkout named by ``$MTME_SRC`` with the Python named by ``$MTME_PYTHON`` (a virtual
environment with its dependencies; see scripts/mtme_tasks_golden.py; skipped with a message
when either is unset or absent); a run stopped at ``--mtme-timeout`` is reported as a lower
bound.
mtpalette runs with mt-metrics-eval's draws (``mtme``: equal results) and with
``independent`` draws.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import REPO, mtme_checkout, mtme_env, run_process  # noqa: E402

INPUTS = REPO / "tests" / "data" / "mtme_tasks" / "inputs.json.gz"


def _human(lp: str, systems: list[str]) -> list[list]:
    """The WMT21 TED MQM scores of ``systems`` (``scripts/extract_mqm_ted.py`` on the shared
    data, into a temporary folder)."""
    import importlib.util
    import tempfile

    from common import SHARED

    if not (SHARED / "mqm" / "ted").is_dir():
        raise SystemExit(f"SKIP: {SHARED}/mqm/ted is absent (set MTPALETTE_SHARED_DATA)")
    spec = importlib.util.spec_from_file_location("x", REPO / "scripts" / "extract_mqm_ted.py")
    ext = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ext)
    with tempfile.TemporaryDirectory() as tmp:
        ext.main(SHARED, Path(tmp))
        return ext.mqm_avg_matrix(Path(tmp), lp.replace("-", ""), systems)


def load(extra: int) -> dict:
    import numpy as np

    with gzip.open(INPUTS, "rt") as fh:
        raw = json.load(fh)
    for lp, d in raw.items():  # the MQM scores are not stored: rebuilt from the shared data
        d["human_seg"] = _human(lp, d["systems"])
    rng = np.random.default_rng(0)
    for d in raw.values():
        base = list(d["metrics_seg"].items())
        for e in range(extra):
            name, x = base[e % len(base)]
            noisy = np.asarray(x) + rng.normal(scale=2.0, size=np.shape(x))
            d["metrics_seg"][f"{name}~{e}"] = np.round(noisy, 4).tolist()
    return raw


def child_mtpalette(args) -> dict:
    import numpy as np

    from mtpalette.metaeval import tasks as T

    raw = load(args.extra)
    data = {}
    for lp, d in raw.items():
        h = np.array(d["human_seg"], dtype=float)
        metrics = {}
        for m, x in d["metrics_seg"].items():
            x = np.array(x, dtype=float)
            metrics[m] = {"seg": x, "sys": np.array([np.mean(r) for r in x.tolist()])}
        human = {"mqm": {"seg": h, "sys": np.array([np.mean(r) for r in h.tolist()])}}
        data[lp] = T.LanguagePairData(d["systems"], human, metrics)
    sys.path.insert(0, str(REPO / "tests" / "metaeval"))
    from test_tasks import _task_set

    ts = _task_set(args.style, args.k, args.block_size)
    start, cpu = time.perf_counter(), time.process_time()
    res = ts.run(data, seed=args.seed, draws=args.draws)
    return _summary(
        start, cpu, res.average_corrs(), [d for r in res.results for d in r.draws.values()]
    )


def _summary(start: float, cpu: float, avg: dict, draws: list) -> dict:
    return {
        "seconds": time.perf_counter() - start,
        "cpu": time.process_time() - cpu,
        "permutations": int(sum(len(d) for d in draws)),
        "average_corrs": avg,
    }


def child_mtme(args) -> dict:
    import importlib.util

    spec = importlib.util.spec_from_file_location("g", REPO / "scripts" / "mtme_tasks_golden.py")
    g = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(g)
    g.mtme_data.GetCorrelations = g._get_correlations
    import numpy as np

    lps = load(args.extra)
    ts, weights = g.task_set(args.style, args.k, args.block_size)
    evs = {(g.TEST_SET, lp): g._Evs(lps[lp]) for lp in lps}
    np.random.seed(args.seed)
    start, cpu = time.perf_counter(), time.process_time()
    res = ts.Run(eval_set_dict=evs)
    draws = []
    for r in res:
        n = len(r.metrics)
        draws += [r.Draws(i, j) for i in range(n) for j in range(i + 1, n)] if args.k else []
    return _summary(start, cpu, res.AverageCorrs(weights), draws)


def run_child(kind: str, args, timeout: float | None, mtme=None) -> tuple[float, dict | None]:
    cmd = [sys.executable, __file__, "--child", kind, "--style", args.style, "--k", str(args.k),
           "--block-size", str(args.block_size), "--extra", str(args.extra),
           "--seed", str(args.seed), "--draws", args.draws]  # fmt: skip
    env = None
    if kind == "mtme":
        cmd[0] = str(mtme[1])
        env = mtme_env(mtme)
    wall, _, out = run_process(cmd, timeout=timeout, env=env)
    return wall, None if out is None else json.loads(out.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--child", choices=["mtme", "mtpalette"])
    ap.add_argument("--style", default="wmt24", choices=["wmt24", "wmt23"])
    ap.add_argument("--k", type=int, default=30)
    ap.add_argument("--block-size", type=int, default=10)
    ap.add_argument("--extra", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--draws", default="mtme")
    ap.add_argument("--mtme-timeout", type=float, default=100.0)
    args = ap.parse_args()
    if args.child:
        res = child_mtme(args) if args.child == "mtme" else child_mtpalette(args)
        print(json.dumps(res))
        return
    n_metrics = 4 + args.extra
    print(f"{args.style}-style task set, 2 language pairs x {n_metrics} metrics, k={args.k}, "
          f"block_size={args.block_size}, seed={args.seed}")  # fmt: skip
    rows = []
    wall, res = run_child("mtpalette", args, None)
    rows.append(("mtpalette (mtme draws)", wall, res))
    indep = argparse.Namespace(**{**vars(args), "draws": "independent"})
    wall_i, res_i = run_child("mtpalette", indep, None)
    rows.append(("mtpalette (independent draws)", wall_i, res_i))
    mtme = mtme_checkout()
    res_m = None
    if mtme is not None:
        wall_m, res_m = run_child("mtme", args, args.mtme_timeout, mtme)
        rows.append(("mt-metrics-eval", wall_m, res_m))
    for name, w, r in rows:
        if r:
            per = 1000 * r["cpu"] / max(r["permutations"], 1)
            inner = (f"{r['seconds']:7.1f} s run, {r['cpu']:7.1f} s CPU, "
                     f"{r['permutations']} permutations, {per:.1f} ms CPU each")  # fmt: skip
        else:
            inner = "(stopped at the time limit: a lower bound)"
        print(f"{name:30s} {w:7.1f} s process; {inner}")
    if res_m:
        same = all(
            abs(res["average_corrs"][m] - v) < 1e-12 for m, v in res_m["average_corrs"].items()
        )
        print(f"average correlations equal to mt-metrics-eval's: {same}")
    if len(rows) == 3:
        bound = "" if res_m else ">= "
        print(f"speed-up (whole process, mtme draws): {bound}{rows[2][1] / wall:.1f}x; "
              f"independent draws: {bound}{rows[2][1] / wall_i:.1f}x")  # fmt: skip


if __name__ == "__main__":
    main()
