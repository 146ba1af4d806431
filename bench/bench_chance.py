"""The tie-calibrated acc-eq chance level (issue 55): ``correlate --stat acc-eq --grouping none``
on one metric, with the chance level and without it, as whole processes; in process, one
random metric through the pair table built once (``HumanPairs.best_value``) against one
through ``tie_calibration`` (what each of the 200 simulations cost before), values compared.

Usage: python bench/bench_chance.py [--systems 9] [--segments 315] [--sims 5]

Data: the real WMT21 TED MQM en-de ratings and outputs (the first ``--systems`` systems, the
first ``--segments`` segments) from ../shared/data (or $MTPALETTE_SHARED_DATA).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time

from common import REPO, machine, run_process, skip_without_shared_data


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--systems", type=int, default=9)
    ap.add_argument("--segments", type=int, default=315)
    ap.add_argument("--sims", type=int, default=5, help="random metrics timed in process")
    args = ap.parse_args()
    if skip_without_shared_data("the WMT21 TED MQM ratings"):
        return
    import numpy as np

    from mtpalette.stats.chance import acc_eq_chance
    from mtpalette.stats.tie_calibration import HumanPairs, tie_calibration

    paths = _script("shared_data").mqm_ted("ende")
    systems = [p for p in paths["systems"] if not p.stem.startswith("ref")][: args.systems]
    ex = _script("extract_mqm_ted")
    human = np.array(
        ex.mqm_avg_matrix(paths["root"].parent, "ende", [p.stem for p in systems], args.segments),
        dtype=float,
    )
    print(f"{machine()}; TED MQM en-de: {human.shape[0]} systems x {human.shape[1]} segments")

    rng = np.random.default_rng(12345)
    metrics = [rng.random(human.shape) for _ in range(args.sims)]
    t0 = time.process_time()
    pairs = HumanPairs(human)
    built = time.process_time() - t0
    t0 = time.process_time()
    fast = [pairs.best_value(m) for m in metrics]
    per_fast = (time.process_time() - t0) / args.sims
    t0 = time.process_time()
    slow = [tie_calibration(human, m).value for m in metrics]
    per_slow = (time.process_time() - t0) / args.sims
    worst = max(abs(a - b) for a, b in zip(fast, slow, strict=True))
    print(
        f"one random metric (CPU): tie_calibration {per_slow:.2f} s, the pair table once "
        f"{built:.2f} s then {per_fast:.3f} s each: {per_slow / per_fast:.0f}x; largest value "
        f"difference {worst:.1g}"
    )
    t0 = time.process_time()
    c = acc_eq_chance(human, calibrated=True)
    print(
        f"acc_eq_chance (CPU {time.process_time() - t0:.2f} s): {c.value:.4f}, "
        f"{c.n_simulations} random metrics, standard error {c.std_error:.2g} (stops at "
        f"{c.tolerance}); before: 200 x tie_calibration = {200 * per_slow:.0f} s of CPU"
    )
    base = [sys.executable, "-m", "mtpalette", "correlate", "-j", str(paths["judgments"]),
            "--seg-ids", str(paths["seg_ids"]), "-r", *map(str, paths["refs"]),
            "-s", *map(str, systems), "-m", "chrf", "--stat", "acc-eq", "--grouping", "none",
            "--max-items", str(args.segments), "--bootstrap", "0", "--no-baselines",
            "-q"]  # fmt: skip
    best = {}
    for _ in range(3):
        for name, extra in (("--chance on", []), ("--chance off", ["--chance", "off"])):
            wall, cpu, _ = run_process(base + extra)
            old = best.get(name, (float("inf"), float("inf")))
            best[name] = (min(old[0], wall), min(old[1], cpu))
    for name, (wall, cpu) in best.items():
        print(f"correlate {name}, whole process (best of 3): wall {wall:.2f} s, CPU {cpu:.2f} s")


if __name__ == "__main__":
    main()
