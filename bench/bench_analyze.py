"""Whole command-line runs of ``mtpalette analyze`` against compare-mt 0.2.10 on the same files.

Usage: python bench/bench_analyze.py [--lines N] [--systems 3 8 13] [--repeat 3]
       [--compare-mt /tmp/cmt-venv/bin/compare-mt] [--same-pairs]

Data: WMT21 newstest en-de from ../shared/data (or $MTPALETTE_SHARED_DATA): reference A
(``references/newstest2021.en-de.ref.A.de``) and the first 3, 8 and 13 systems in name order
(``system-outputs/newstest2021.en-de.hyp.*.de``), the first ``--lines`` lines of each (default
all 1,002); without the shared data the script stops with a message.

Jobs, each a whole process (best of ``--repeat``, stdout to /dev/null, exit status checked):

mtpalette runs with ``--compat compare-mt`` (compare-mt's word splitting and its sentence
BLEU), so both do the same work on the same words.

1. word accuracy by frequency + BLEU by reference-length bucket: ``mtpalette analyze -a words
   length --compat compare-mt -q``; compare-mt ``--compare_scores score_type=bleu
   --compare_word_accuracies bucket_type=freq --compare_sentence_buckets
   bucket_type=length,statistic_type=score,score_measure=bleu``. compare-mt runs its n-gram
   and sentence-example analyses by default (with two systems or more); they are switched off
   by giving both options no value.
2. plus n-gram differences and sentence examples: ``-a words length ngrams examples``;
   compare-mt ``--compare_ngrams compare_type=match --compare_sentence_examples
   score_type=sentbleu``. mtpalette compares the first system with each other one (S - 1
   pairs); compare-mt compares systems 0 and 1 only, unless ``--same-pairs`` gives it
   ``compare_directions=0-1;0-2;...`` too.

compare-mt gets ``--output_directory`` (an HTML report with PNG and PDF figures, part of its
time) up to 8 systems; with more its report crashes (``IndexError`` in ``make_bar_chart``: 8
bar colours), so it prints text only, as mtpalette does. Ratio = compare-mt / mtpalette.
Without compare-mt (``--compare-mt``, default /tmp/cmt-venv/bin/compare-mt) mtpalette is
timed alone.

Both tools start as installed: their modules run from byte code cached by an untimed first
run of each command (``common.bytecode_env``: ``PYTHONPYCACHEPREFIX``, a temporary folder;
without ``PYTHONDONTWRITEBYTECODE``, which a shell may set: from a source checkout every
mtpalette process would then compile its modules again, about 0.2 s). Each command is timed as the
best wall time and the best CPU time (user + system of the process) of ``--repeat`` runs, the
two commands of a row taking turns run by run (a burst of load on the shared machine falls on
both); on a loaded machine the CPU ratio is the steadier one.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import SHARED, bytecode_env, machine, skip_without_shared_data

WMT21 = SHARED / "wmt21" / "txt"
REF = WMT21 / "references" / "newstest2021.en-de.ref.A.de"
#: compare-mt 0.2.10's bar colours: its HTML report fails with more systems
CMT_COLOURS = 8


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=None, help="first N lines (default all)")
    ap.add_argument("--systems", type=int, nargs="+", default=[3, 8, 13])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--compare-mt", default="/tmp/cmt-venv/bin/compare-mt")
    ap.add_argument("--same-pairs", action="store_true",
                    help="compare-mt compares the same S - 1 pairs as mtpalette")  # fmt: skip
    args = ap.parse_args()
    if skip_without_shared_data("WMT21 en-de system outputs"):
        return
    files = sorted((WMT21 / "system-outputs").glob("newstest2021.en-de.hyp.*.de"))
    if not REF.exists() or len(files) < max(args.systems):
        sys.exit(f"{REF} or {max(args.systems)} en-de systems under {WMT21} not found")
    cmt = Path(args.compare_mt)
    if not cmt.exists():
        print(f"compare-mt not found at {cmt} (--compare-mt PATH): timing mtpalette alone")
        cmt = None
    print(machine())
    print(f"reference: {REF}")
    for f in files[: max(args.systems)]:
        print(f"system:    {f}")

    with tempfile.TemporaryDirectory(prefix="bench_analyze_") as tmp:
        env = bytecode_env(dict(os.environ), Path(tmp) / "pycache")
        ref, hyps = REF, files
        if args.lines is not None:
            ref, hyps = _head(REF, tmp, args.lines), [_head(f, tmp, args.lines) for f in files]
        n = sum(1 for _ in open(ref, encoding="utf-8"))
        print(
            f"{n} lines each; best of {args.repeat} whole processes after an untimed one, "
            "stdout to /dev/null, byte code cached"
        )
        rows = []
        for job in (1, 2):
            for S in args.systems:
                sys_files = [str(h) for h in hyps[:S]]
                commands = [_mtpalette(job, str(ref), sys_files)]
                if cmt is not None:
                    commands.append(
                        _compare_mt(cmt, job, str(ref), sys_files, tmp, args.same_pairs)
                    )
                ours, *theirs = _best(commands, args.repeat, env)
                rows.append((job, S, n, ours, theirs[0] if theirs else None))
                print(f"  job {job}, {S} systems: done", file=sys.stderr)
    _table(rows)
    print(
        "Notes: compare-mt runs n-grams and sentence examples by default; job 1 switches them "
        "off (options given with no value).\ncompare-mt also writes its HTML report with "
        "figures (--output_directory) up to 8 systems (text only beyond: its report crashes); "
        "mtpalette prints text only (-q)."
    )
    if not args.same_pairs:
        print(
            "Job 2: mtpalette compares the 1st system with each other one (S - 1 pairs), "
            "compare-mt only systems 0 and 1 (its default; --same-pairs aligns them)."
        )


def _mtpalette(job: int, ref: str, sys_files: list[str]) -> list[str]:
    analyses = ["words", "length"] + (["ngrams", "examples"] if job == 2 else [])
    return [sys.executable, "-m", "mtpalette", "analyze", "-r", ref, "-s", *sys_files,
            "-a", *analyses, "--compat", "compare-mt", "-q"]  # fmt: skip


def _compare_mt(
    cmt: Path, job: int, ref: str, sys_files: list[str], tmp: str, same_pairs: bool
) -> list[str]:
    command = [str(cmt), ref, *sys_files, "--compare_scores", "score_type=bleu",
               "--compare_word_accuracies", "bucket_type=freq", "--compare_sentence_buckets",
               "bucket_type=length,statistic_type=score,score_measure=bleu"]  # fmt: skip
    if job == 1:  # no value: an empty list, which switches the default analyses off
        command += ["--compare_ngrams", "--compare_sentence_examples"]
    else:
        directions = ""
        if same_pairs:
            directions = ",compare_directions=" + ";".join(
                f"0-{k}" for k in range(1, len(sys_files))
            )
        command += ["--compare_ngrams", "compare_type=match" + directions,
                    "--compare_sentence_examples", "score_type=sentbleu" + directions]  # fmt: skip
    if len(sys_files) > CMT_COLOURS:  # its bar charts crash (IndexError) past 8 systems
        return command
    out_dir = Path(tmp) / f"cmt-report-{job}-{len(sys_files)}"
    return command + ["--output_directory", str(out_dir)]


def _best(commands: list[list[str]], repeat: int, env: dict) -> list[tuple[float, float]]:
    """Best wall time and best CPU time (user + system) of ``repeat`` whole runs of each
    command, after one untimed run (it fills the byte-code cache); the commands take turns,
    so that a burst of load on the shared machine falls on both; a non-zero exit ends the
    benchmark."""
    best = [[float("inf"), float("inf")] for _ in commands]
    for k in range(repeat + 1):
        for command, found in zip(commands, best, strict=True):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  text=True, check=False, env=env)  # fmt: skip
            wall = time.perf_counter() - t0
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if done.returncode != 0:
                sys.exit(f"{' '.join(command)} exited {done.returncode}:\n{done.stderr[-1500:]}")
            if k > 0:
                used = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
                found[:] = min(found[0], wall), min(found[1], used)
    return [tuple(found) for found in best]


def _head(path: Path, tmp: str, lines: int) -> Path:
    """The first ``lines`` lines of ``path``, written under ``tmp`` with the same name."""
    out = Path(tmp) / path.name
    with open(path, encoding="utf-8") as src, open(out, "w", encoding="utf-8") as dst:
        for k, line in enumerate(src):
            if k >= lines:
                break
            dst.write(line)
    return out


def _table(rows: list[tuple]) -> None:
    jobs = {1: "words+length", 2: "+ngrams+examples"}
    print(f"\n{'job':<18}{'systems':>8}{'lines':>7}{'mtpalette s':>13}{'compare-mt s':>14}"
          f"{'ratio':>8}{'mtp CPU s':>11}{'cmt CPU s':>11}{'CPU ratio':>11}")  # fmt: skip
    for job, S, n, ours, theirs in rows:
        line = f"{jobs[job]:<18}{S:>8}{n:>7}{ours[0]:13.2f}"
        if theirs is None:
            print(f"{line}{'-':>14}{'-':>8}{ours[1]:11.2f}{'-':>11}{'-':>11}")
            continue
        print(f"{line}{theirs[0]:14.2f}{theirs[0] / ours[0]:7.1f}x{ours[1]:11.2f}"
              f"{theirs[1]:11.2f}{theirs[1] / ours[1]:10.1f}x")  # fmt: skip


if __name__ == "__main__":
    main()
