"""Paired significance tests of MT systems: mtpalette against sacrebleu, in one run.

Usage: python bench/bench_paired.py [--systems 10] [--quick]

1. Whole command-line processes (interpreter start, reading, scoring, resampling, printing),
   best of 3 for mtpalette and one run of sacrebleu (it takes tens of seconds):
   ``--paired-bs`` (1,000 resamples) with BLEU, chrF and TER on 5 systems and on every
   system; ``--paired-ar`` (10,000 trials) with BLEU on 3 systems. Ratio = sacrebleu seconds /
   mtpalette seconds.
2. Agreement on every pair: each of ``--systems`` systems is the baseline in turn (paired-bs,
   1,000 resamples, BLEU), in sacrebleu's Python API and in mtpalette's; for every ordered
   pair the significant / not-significant call at p < 0.05 is compared, with the largest
   differences of p-value, mean and CI half-width. mtpalette draws sacrebleu's resamples
   (same generator, same order), so p-values should be equal and means and CIs equal to
   sacrebleu's float32 rounding.
3. Scale, mtpalette only, in-process: 10,000 resamples of 20 systems x 3,000 segments x 10
   metrics (paired bootstrap against the first system). The 3,000 segments are WMT21 de-en
   (1,000) followed by zh-en (1,948) and the first 52 de-en segments again; the 20 systems are
   the de-en systems with the zh-en system of the same rank after them, repeated where a pair
   has fewer than 20. Scoring and resampling are timed apart; peak memory is the process's.

Data: WMT21 newstest de-en (19 systems, reference A) and zh-en from ../shared/data (or
$MTPALETTE_SHARED_DATA). Without it the script stops with a message: the bundled data is too
small for these sizes.
"""

from __future__ import annotations

import argparse
import glob
import os
import platform
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from common import SHARED  # bench/common.py: the shared data folder

from mtpalette.io.plain import read_lines

REPO = Path(__file__).resolve().parents[1]
WMT21 = SHARED / "wmt21" / "txt"
SCALE_SPECS = ["bleu", "chrf", "ter", "wer", "nist", "bleus:1..4", "rouge-l"]


def _files(lp: str) -> tuple[list[str], str]:
    tgt = lp.split("-")[1]
    files = sorted(glob.glob(str(WMT21 / "system-outputs" / f"newstest2021.{lp}.hyp.*.{tgt}")))
    return files, str(WMT21 / "references" / f"newstest2021.{lp}.ref.A.{tgt}")


def _name(path: str) -> str:
    return Path(path).name.split(".")[3]


def _run(command: list[str]) -> float:
    t0 = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command[:3])}... failed:\n{done.stderr[-1500:]}")
    return seconds


def whole_processes(files: list[str], ref: str, repeat: int) -> list[tuple[str, float, float]]:
    mtp = shutil.which("mtpalette")
    sacre = shutil.which("sacrebleu")
    jobs = [
        ("paired-bs, 5 systems, bleu chrf ter", files[:5], ["-m", "bleu", "chrf", "ter"], "bs"),
        (
            f"paired-bs, {len(files)} systems, bleu chrf ter",
            files,
            ["-m", "bleu", "chrf", "ter"],
            "bs",
        ),
        ("paired-ar, 3 systems, bleu", files[:3], ["-m", "bleu"], "ar"),
    ]
    rows = []
    for label, systems, metrics, test in jobs:
        ours = [mtp, "score", "-r", ref, "-i", *systems, *metrics, f"--paired-{test}"]
        best = min(_run(ours) for _ in range(repeat))
        theirs = [sacre, ref, "-i", *systems, *metrics, f"--paired-{test}", "-f", "text"]
        peer = _run(theirs) if sacre else float("nan")
        rows.append((label, best, peer))
        print(f"  {label}: mtpalette {best:.2f} s, sacrebleu {peer:.1f} s", flush=True)
    return rows


def agreement(files: list[str], ref: str, n_systems: int) -> dict[str, float]:
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    from mtpalette.api import compare_scored, score_systems

    files = files[:n_systems]
    systems = {_name(f): read_lines(f) for f in files}
    refs = [read_lines(ref)]
    scored = score_systems(systems, refs, ["bleu"])
    names = list(systems)
    out = {"pairs": 0, "same_call": 0, "max_dp": 0.0, "max_dmean": 0.0, "max_dci": 0.0}
    t_ours = t_theirs = 0.0
    for b, base in enumerate(names):
        order = [base] + [n for n in names if n != base]
        t0 = time.perf_counter()
        ours = compare_scored({n: scored[n] for n in order}, test="bs")
        t_ours += time.perf_counter() - t0
        t0 = time.perf_counter()
        metric = {"BLEU": BLEU(references=refs)}
        _, theirs = PairedTest([(n, systems[n]) for n in order], metric, None, test_type="bs")()
        t_theirs += time.perf_counter() - t0
        for s, result in enumerate(theirs["BLEU"]):
            out["max_dmean"] = max(out["max_dmean"], abs(ours.mean[s, 0] - result.mean))
            out["max_dci"] = max(out["max_dci"], abs(ours.ci[s, 0] - result.ci))
            if s == 0:
                continue
            out["pairs"] += 1
            out["same_call"] += int(bool(ours.significant[s, 0]) == (result.p_value < 0.05))
            out["max_dp"] = max(out["max_dp"], abs(ours.p_value[s, 0] - result.p_value))
        print(f"  baseline {b + 1}/{len(names)} done", flush=True)
    out["seconds_ours"], out["seconds_sacrebleu"] = t_ours, t_theirs
    return out


def scale(n_systems: int = 20, n_segments: int = 3000, n_resamples: int = 10000):
    from mtpalette.api import compare_scored, score_systems

    de, de_ref = _files("de-en")
    zh, zh_ref = _files("zh-en")
    refs = read_lines(de_ref) + read_lines(zh_ref)
    refs = (refs + read_lines(de_ref))[:n_segments]
    systems = {}
    for k in range(n_systems):
        d, z = de[k % len(de)], zh[k % len(zh)]
        lines = read_lines(d) + read_lines(z)
        systems[f"sys{k:02d}"] = (lines + read_lines(d))[:n_segments]
    t0 = time.perf_counter()
    scored = score_systems(systems, [refs], SCALE_SPECS)
    t_score = time.perf_counter() - t0
    n_metrics = len(next(iter(scored.values())).specs)
    t0 = time.perf_counter()
    result = compare_scored(scored, test="bs", n_trials=n_resamples)
    t_resample = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    significant = int(np.nansum(result.significant[1:]))
    return {
        "systems": n_systems,
        "segments": n_segments,
        "metrics": n_metrics,
        "resamples": n_resamples,
        "seconds_scoring": t_score,
        "seconds_resampling": t_resample,
        "peak_mb": peak,
        "significant_cells": significant,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--systems", type=int, default=10, help="systems in the agreement test")
    parser.add_argument("--quick", action="store_true", help="1 run per job, 5 systems")
    args = parser.parse_args()
    files, ref = _files("de-en")
    if not files:
        raise SystemExit(f"{WMT21} not found: this benchmark needs the WMT21 system outputs")
    load = os.getloadavg()[0]
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, load {load:.2f}")
    print(f"WMT21 de-en: {len(files)} systems x {len(read_lines(ref))} segments, reference A")
    print("\n1. whole processes (mtpalette best of 3; sacrebleu one run)")
    rows = whole_processes(files, ref, 1 if args.quick else 3)
    print(f"\n2. every pair of {args.systems} systems as baseline and system (BLEU, paired-bs)")
    agree = agreement(files, ref, 5 if args.quick else args.systems)
    print("\n3. scale (mtpalette only)")
    sc = scale(n_resamples=1000 if args.quick else 10000)

    print("\n| job | mtpalette | sacrebleu | ratio |\n|---|---|---|---|")
    for label, ours, theirs in rows:
        print(f"| {label} | {ours:.2f} s | {theirs:.1f} s | {theirs / ours:.0f}x |")
    print(
        f"\nagreement: {agree['same_call']}/{agree['pairs']} ordered pairs with the same call "
        f"at p < 0.05; max |p difference| {agree['max_dp']:.2g}, max |mean difference| "
        f"{agree['max_dmean']:.2g}, max |CI difference| {agree['max_dci']:.2g}; time "
        f"{agree['seconds_ours']:.2f} s vs {agree['seconds_sacrebleu']:.1f} s (sacrebleu "
        "API, statistics extracted once per baseline run)"
    )
    print(
        f"\nscale: {sc['resamples']:,} resamples of {sc['systems']} systems x "
        f"{sc['segments']:,} segments x {sc['metrics']} metrics: scoring "
        f"{sc['seconds_scoring']:.1f} s, resampling {sc['seconds_resampling']:.1f} s, peak "
        f"{sc['peak_mb']:.0f} MB ({sc['significant_cells']} of "
        f"{(sc['systems'] - 1) * sc['metrics']} system-metric cells significant)"
    )
    print(f"python {sys.version.split()[0]}")


if __name__ == "__main__":
    main()
