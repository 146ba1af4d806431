"""Sentence BLEU at the floor: mtpalette against a tight C loop of the same work, per pair.

Usage: python bench/bench_bleu_floor.py [--sizes 1875 18750] [--rounds 7] [--sacre-pairs 1875]
                                        [--chunk 20] [--cc cc]

The C loop is ``bench/bleu_floor.c``, compiled here with the system C compiler (``cc -O2``; a
benchmark, not the product): 13a tokenization as sacrebleu's ``Tokenizer13a``, n-grams 1..4
counted and clipped against one reference, and sacrebleu's ``compute_bleu`` with exp
smoothing and the effective order, one pair after the other, nothing kept between pairs.
It runs on the same pairs as mtpalette's public call, ``mtpalette.sentence_scores(hyps,
[refs], ["bleu"])`` (from the strings to the scores: tokenizing, counting, the formula and the
Python around them), and its scores must equal mtpalette's within 1e-9, else the benchmark
stops. ``sacrebleu.sentence_bleu`` is timed on the first ``--sacre-pairs`` pairs, for context,
and mtpalette once more on the first size in calls of ``--chunk`` pairs (the cost per call
that small batches pay).

Data: WMT21 de-en (then the other into-English pairs, ``common.real_pairs``) from
../shared/data, reference A, the first N pairs for each size; the benchmark skips without it.
Costs are CPU time per pair (the process's, every thread counted: ``time.process_time`` for
Python, ``CLOCK_PROCESS_CPUTIME_ID`` inside the C program around its loop, not its start-up),
best of ``--rounds`` rounds; each round runs the C program (best of 3 loops) and then 3 calls of
mtpalette, so that a shared machine's drift moves both sides alike; the range of the rounds'
ratios is printed too. Wall time per pair is printed beside (mtpalette may use several
threads on large inputs).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(__file__))

from common import machine, real_pairs, skip_without_shared_data  # noqa: E402

C_SOURCE = Path(__file__).with_name("bleu_floor.c")
TOLERANCE = 1e-9


def compile_floor(cc: str, out_dir: str) -> str | None:
    """The C loop compiled with ``cc -O2``, or None (with the reason printed)."""
    if shutil.which(cc) is None:
        print(f"SKIP: no C compiler {cc!r} on PATH (the C loop is compiled at bench time)")
        return None
    exe = os.path.join(out_dir, "bleu_floor")
    run = subprocess.run(
        [cc, "-O2", "-o", exe, str(C_SOURCE), "-lm"], capture_output=True, text=True
    )
    if run.returncode != 0:
        print(f"SKIP: {cc} -O2 {C_SOURCE.name} failed:\n{run.stderr}")
        return None
    return exe


def write_lines(path: str, lines: list[str]) -> None:
    if any("\n" in line for line in lines):
        raise ValueError(f"{path}: a line with a line break cannot be passed to the C loop")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("".join(line + "\n" for line in lines))


def run_floor(exe: str, hyp_file: str, ref_file: str, out_file: str, loops: int = 3):
    """(best CPU seconds of the C loop, wall seconds of the process, its scores)."""
    t0 = time.perf_counter()
    run = subprocess.run(
        [exe, hyp_file, ref_file, str(loops), out_file], capture_output=True, text=True, check=True
    )
    wall = time.perf_counter() - t0
    fields = run.stdout.split()
    cpu = float(fields[fields.index("cpu_seconds") + 1])
    with open(out_file, encoding="utf-8") as f:
        scores = [float(line) for line in f]
    return cpu, wall, scores


def time_ours(hyps: list[str], ref: list[str], calls: int = 3):
    """(best CPU seconds, best wall seconds, scores) of ``calls`` calls of the public API."""
    from mtpalette import sentence_scores

    best_cpu = best_wall = float("inf")
    scores = None
    for _ in range(calls):
        c0, w0 = time.process_time(), time.perf_counter()
        scores = sentence_scores(hyps, [ref], ["bleu"])["bleu"]
        best_wall = min(best_wall, time.perf_counter() - w0)
        best_cpu = min(best_cpu, time.process_time() - c0)
    return best_cpu, best_wall, scores


def time_ours_chunked(hyps: list[str], ref: list[str], chunk: int, rounds: int) -> float:
    """Best CPU seconds of scoring the pairs ``chunk`` at a time, one public call each: what
    a caller pays per pair when its inputs come in small batches (the per-call overhead)."""
    from mtpalette import sentence_scores

    parts = [(hyps[i : i + chunk], [ref[i : i + chunk]]) for i in range(0, len(hyps), chunk)]
    best = float("inf")
    for _ in range(rounds):
        c0 = time.process_time()
        for h, r in parts:
            sentence_scores(h, r, ["bleu"])
        best = min(best, time.process_time() - c0)
    return best


def time_sacrebleu(hyps: list[str], ref: list[str], rounds: int):
    """(best CPU seconds, scores) of ``sacrebleu.sentence_bleu`` over the pairs."""
    import sacrebleu

    best, scores = float("inf"), None
    for _ in range(rounds):
        c0 = time.process_time()
        scores = [sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(hyps, ref, strict=True)]
        best = min(best, time.process_time() - c0)
    return best, scores


def max_diff(a, b) -> float:
    return max((abs(x - y) for x, y in zip(a, b, strict=True)), default=0.0)


def bench_size(exe: str, tmp: str, hyps: list[str], ref: list[str], rounds: int) -> dict:
    n = len(hyps)
    hyp_file, ref_file = os.path.join(tmp, f"hyp{n}.txt"), os.path.join(tmp, f"ref{n}.txt")
    out_file = os.path.join(tmp, f"scores{n}.txt")
    write_lines(hyp_file, hyps)
    write_lines(ref_file, ref)
    time_ours(hyps, ref, calls=1)  # warm: the first call imports the metric modules
    c_cpu = c_wall = o_cpu = o_wall = float("inf")
    ratios = []
    for _ in range(rounds):
        cpu, wall, c_scores = run_floor(exe, hyp_file, ref_file, out_file)
        ocpu, owall, o_scores = time_ours(hyps, ref)
        diff = max_diff(c_scores, o_scores)
        if diff > TOLERANCE:
            worst = max(range(n), key=lambda i: abs(c_scores[i] - o_scores[i]))
            raise SystemExit(
                f"the C loop and mtpalette differ by {diff:.3g} (pair {worst}: C "
                f"{c_scores[worst]!r}, mtpalette {o_scores[worst]!r}):\n"
                f"  hyp {hyps[worst]!r}\n  ref {ref[worst]!r}"
            )
        ratios.append(ocpu / cpu)
        c_cpu, c_wall = min(c_cpu, cpu), min(c_wall, wall)
        o_cpu, o_wall = min(o_cpu, ocpu), min(o_wall, owall)
    return {
        "n": n,
        "c_cpu": c_cpu,
        "c_wall": c_wall,
        "ours_cpu": o_cpu,
        "ours_wall": o_wall,
        "ratios": ratios,
        "diff": diff,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1875, 18750])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--sacre-pairs", type=int, default=1875)
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    ap.add_argument(
        "--chunk", type=int, default=20, help="pairs per call of the small-batch row (0: none)"
    )
    args = ap.parse_args()
    if skip_without_shared_data("the WMT21 system outputs and references"):
        return
    hyps, refs, what = real_pairs(max(args.sizes))
    ref = refs[0]
    print(f"data: {what}; reference A; machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        exe = compile_floor(args.cc, tmp)
        if exe is None:
            return
        rows = [bench_size(exe, tmp, hyps[:n], ref[:n], args.rounds) for n in args.sizes]
    k = min(args.sacre_pairs, len(hyps))
    sb_cpu, sb_scores = time_sacrebleu(hyps[:k], ref[:k], rounds=3)
    _, _, ours_k = time_ours(hyps[:k], ref[:k], calls=1)
    sb_pair = sb_cpu / k
    n0 = args.sizes[0]
    chunked = time_ours_chunked(hyps[:n0], ref[:n0], args.chunk, 5) if args.chunk else None
    print(
        f"C loop: {C_SOURCE.name}, {args.cc} -O2; scores equal to mtpalette's within "
        f"{TOLERANCE:g} (max difference {max(r['diff'] for r in rows):.1e}); "
        f"sacrebleu.sentence_bleu on the first {k:,} pairs (max difference from mtpalette "
        f"{max_diff(sb_scores, ours_k):.1e})"
    )
    print(
        f"\n{'pairs':>7s} {'implementation':34s} {'CPU us/pair':>12s} {'wall us/pair':>13s} "
        f"{'x C loop (CPU)':>15s}"
    )
    for r in rows:
        n = r["n"]
        lo, hi = min(r["ratios"]), max(r["ratios"])
        for name, cpu, wall in (
            ("C loop (bleu_floor.c)", r["c_cpu"], r["c_wall"]),
            ("mtpalette sentence_scores bleu", r["ours_cpu"], r["ours_wall"]),
            ("sacrebleu.sentence_bleu", sb_pair * n, float("nan")),
        ):
            wall_s = "-" if wall != wall else f"{wall / n * 1e6:13.3f}"
            print(
                f"{n:7,d} {name:34s} {cpu / n * 1e6:12.3f} {wall_s:>13s} {cpu / r['c_cpu']:15.2f}"
            )
        print(
            f"{'':7s} mtpalette / C loop: {r['ours_cpu'] / r['c_cpu']:.2f}x CPU (best of "
            f"{len(r['ratios'])} rounds; rounds {lo:.2f}-{hi:.2f}x); sacrebleu / mtpalette "
            f"{sb_pair * n / r['ours_cpu']:.0f}x"
        )
        if chunked is not None and n == n0:
            print(
                f"{n:7,d} {f'mtpalette, {args.chunk} pairs per call':34s} "
                f"{chunked / n * 1e6:12.3f} {'-':>13s} {chunked / r['c_cpu']:15.2f}"
            )
        print("         (C wall includes the process start and reading the files)")
    print(f"\nload average at the end: {machine()}")


if __name__ == "__main__":
    main()
