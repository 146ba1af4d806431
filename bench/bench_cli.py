"""Whole-process wall time of the mtpalette command line against its peers', in one run.

Usage: python bench/bench_cli.py [--quick] [--out FILE]

Each job runs complete processes (interpreter start, imports, reading the files, scoring,
printing to a pipe) with ``subprocess.run``, timed by ``time.perf_counter`` around it: the
best of 3 runs after 1 warm-up (``--quick``: 1 run and no warm-up, so a first run's cold
file cache may be in it). Jobs and targets (ratio = peer seconds / mtpalette seconds):

1. ``mtpalette --help`` vs ``sacrebleu --help``: mtpalette <= 0.1 s (issue 55); ``mtpalette
   score --help`` (a command's help: no numpy, rich or scoring path) <= 0.15 s;
2. corpus BLEU + chrF of one system (~2,000 lines): ``mtpalette score -r REF -i HYP -m bleu
   chrf`` vs ``sacrebleu REF -i HYP -m bleu chrf``: >= 3x;
3. sentence BLEU of 18,000 pairs: ``mtpalette score ... -m bleu --sentence`` vs ``sacrebleu
   REF -i HYP -m bleu --sentence-level``: >= 10x;
4. sentence ROUGE-L of 12,000 pairs: ``mtpalette score ... -m rouge-l --sentence`` vs a
   ``python -c`` process reading the same files and printing rouge-score's
   ``RougeScorer(['rougeL'])`` F per pair (each side with its default tokenizer; that
   process's own scoring time is printed below the table): >= 10x;
5. the same with rouge-score's own tokens (``-m rouge-l:tok=rouge-score``, the values equal to
   rouge-score's): issue 29 asks >= 15x rouge-score's scoring in-process.

Every tool starts as installed: mtpalette's modules are compiled to bytecode first (as pip does
when it installs a wheel; the peers' were compiled when they were installed), and the tools run
without ``PYTHONDONTWRITEBYTECODE``. From a source checkout with that variable set, every run
would compile mtpalette's modules again: about 0.07 s of CPU more per process here.

Data: WMT21 newstest zh-en system outputs with reference A from ../shared/data (or
$MTPALETTE_SHARED_DATA): the first system (1,948 lines) for job 2, systems concatenated with
the reference repeated, cut to 18,000 and 12,000 pairs, for jobs 3 and 4. Without it, the
bundled TED zh-en data, pooled and repeated to those sizes (said in the output). The CLIs are
found with ``shutil.which`` (rouge-score must import in this Python); a missing one is
skipped with a message and leaves its cells empty.
"""

from __future__ import annotations

import argparse
import glob
import importlib.util
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import SHARED  # bench/common.py: the shared data folder

REPO = Path(__file__).resolve().parents[1]

ROUGE_PEER = """
import sys, time
from rouge_score import rouge_scorer
def read(path):
    with open(path, encoding="utf-8", newline="\\n") as fh:
        return [line.rstrip("\\n") for line in fh]
hyps, refs = read(sys.argv[1]), read(sys.argv[2])
t0 = time.perf_counter()
scorer = rouge_scorer.RougeScorer(["rougeL"])
for hyp, ref in zip(hyps, refs):
    print(f"{scorer.score(ref, hyp)['rougeL'].fmeasure:.6f}")
print(f"inproc {time.perf_counter() - t0:.6f}", file=sys.stderr)
"""

JOBS = [  # name, data, mtpalette options, sacrebleu options (None: rouge-score), target
    ("--help", None, ["--help"], ["--help"], ("time", 0.1)),
    ("score --help", None, ["score", "--help"], ["--help"], ("time", 0.15)),
    ("corpus bleu+chrf", "corpus", ["-m", "bleu", "chrf"], ["-m", "bleu", "chrf"], ("ratio", 3)),
    ("sentence bleu", "bleu", ["-m", "bleu", "--sentence"], ["-m", "bleu", "--sentence-level"],
     ("ratio", 10)),
    ("sentence rouge-l", "rouge", ["-m", "rouge-l", "--sentence"], None, ("ratio", 10)),
    ("sentence rouge-l, rouge-score's tokens", "rouge",
     ["-m", "rouge-l:tok=rouge-score", "--sentence"], None, ("ratio", 15)),
]  # fmt: skip


def read(path) -> list[str]:
    with open(path, encoding="utf-8", newline="\n") as fh:
        return [line.rstrip("\n") for line in fh]


def systems() -> tuple[list[tuple[list[str], list[str]]], str]:
    """[(hyps, refs)] per system: WMT21 zh-en when the shared data exist, else bundled TED."""
    root = SHARED / "wmt21" / "txt"
    files = sorted(glob.glob(str(root / "system-outputs" / "newstest2021.zh-en.hyp.*.en")))
    if files:
        ref = read(root / "references" / "newstest2021.zh-en.ref.A.en")
        return [(read(f), ref) for f in files], f"WMT21 newstest zh-en, ref A, {len(files)} systems"
    print(f"{SHARED} not found: using the bundled example zh-en data (invented) instead")
    from mtpalette.io.judgments_mqm import bundled_mqm_ted

    data = bundled_mqm_ted("zhen")["judgments"].parent
    skip = {"ref.txt", "refB.txt", "source.txt", "seg_ids.txt"}
    names = sorted(p.name for p in data.glob("*.txt") if p.name not in skip)
    ref = read(data / "ref.txt")
    what = f"bundled example zh-en (invented), {len(names)} systems"
    return [(read(data / n), ref) for n in names], what


def pool(sets, n: int) -> tuple[list[str], list[str], str]:
    """The first ``n`` pairs of the systems concatenated (repeated if still short)."""
    hyps = [h for s in sets for h in s[0]]
    refs = [r for s in sets for r in s[1]]
    times = -(-n // len(hyps))
    note = f" (repeated x{times})" if times > 1 else ""
    return (hyps * times)[:n], (refs * times)[:n], note


def write_pair(tmp: Path, name: str, hyps, refs) -> tuple[str, str]:
    paths = tmp / f"{name}.hyp", tmp / f"{name}.ref"
    for path, lines in zip(paths, (hyps, refs), strict=True):
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(paths[0]), str(paths[1])


def installed_env() -> dict[str, str]:
    """The tools' environment: bytecode read from (and written to) ``__pycache__``."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def compile_package(python: str | None) -> str:
    """Compile mtpalette's modules with the interpreter of its command; what was done."""
    code = "import compileall, os, mtpalette; compileall.compile_dir(os.path.dirname(mtpalette.__file__), quiet=1)"  # noqa: E501
    proc = python and subprocess.run([python, "-c", code], capture_output=True, text=True)
    if not proc or proc.returncode != 0:
        return "mtpalette's modules NOT compiled: its runs include compiling them"
    return "mtpalette's modules compiled to bytecode first (as an installed wheel's)"


def run_best(cmd, runs: int, warmup: int, min_lines: int) -> tuple[float, str]:
    """(best wall seconds, stderr of the last run) of ``warmup + runs`` processes."""
    best, err, env = float("inf"), "", installed_env()
    for i in range(warmup + runs):
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
        seconds = time.perf_counter() - t0
        if proc.returncode != 0:
            raise RuntimeError(f"exit {proc.returncode}: {' '.join(cmd)}\n{proc.stderr[-2000:]}")
        if proc.stdout.count("\n") < min_lines:  # every segment must have been scored
            raise RuntimeError(f"fewer than {min_lines} output lines: {' '.join(cmd)}")
        best, err = (min(best, seconds) if i >= warmup else best), proc.stderr
    return best, err


def version_of(package: str, python: str | None) -> str:
    """``package``'s version and the Python that runs it."""
    code = (
        "import sys, importlib.metadata as m; print(sys.version.split()[0], m.version(sys.argv[1]))"  # noqa: E501
    )
    proc = python and subprocess.run([python, "-c", code, package], capture_output=True, text=True)
    found = proc.stdout.split() if proc and proc.returncode == 0 else ["?", "?"]
    return f"{package} {found[1]} (Python {found[0]}, {python})"


def shebang(exe: str) -> str | None:
    """The interpreter of a console script."""
    head = Path(exe).read_bytes()[:300].decode("utf-8", "replace")
    return head[2:].split()[0] if head.startswith("#!") else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="1 run per job, no warm-up")
    ap.add_argument("--out", type=Path, help="also write the table as JSON here")
    args = ap.parse_args()
    runs, warmup = (1, 0) if args.quick else (3, 1)
    mtp, sacre = shutil.which("mtpalette"), shutil.which("sacrebleu")
    rouge = importlib.util.find_spec("rouge_score") is not None
    versions = [
        version_of("mtpalette", shebang(mtp)) if mtp else "mtpalette: not on PATH",
        version_of("sacrebleu", shebang(sacre)) if sacre else "sacrebleu: not on PATH",
        version_of("rouge-score", sys.executable) if rouge else "rouge-score: not importable",
    ]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"bench: Python {platform.python_version()} ({sys.executable}), {os.cpu_count()} cores")
    print(f"load {load:.2f}; whole processes, best of {runs} run(s) after {warmup} warm-up")
    print("\n".join("  " + v for v in versions))
    print(compile_package(shebang(mtp) if mtp else None))
    sets, what = systems()
    data = {"corpus": sets[0] + ("",) if len(sets[0][0]) >= 1000 else pool(sets, 2000)}
    data |= {"bleu": pool(sets, 18000), "rouge": pool(sets, 12000)}
    sizes = "; ".join(f"{k}: {len(v[0])} pairs{v[2]}" for k, v in data.items())
    print(f"data: {what}; {sizes}\n")
    table, notes = [], []
    with tempfile.TemporaryDirectory(prefix="bench_cli.") as tmp:
        for name, key, our_opts, peer_opts, (kind, goal) in JOBS:
            ours, peer, lines = [mtp, *our_opts], [sacre, *(peer_opts or [])], 0
            if key:
                hyp, ref = write_pair(Path(tmp), key, *data[key][:2])
                n = len(data[key][0])
                name, lines = f"{name}, {n} pairs", (n if "sentence" in name else 0)
                ours = [mtp, "score", "-r", ref, "-i", hyp, *our_opts]
                peer = [sacre, ref, "-i", hyp, *peer_opts] if peer_opts else None
                peer = peer or ([sys.executable, "-c", ROUGE_PEER, hyp, ref] if rouge else [None])
            times = {}
            for side, cmd in (("mtpalette", ours), ("peer", peer)):
                if cmd[0] is None:
                    print(f"skip {side} of '{name}': not installed")
                    continue
                try:
                    times[side], err = run_best(cmd, runs, warmup, lines)
                except RuntimeError as exc:
                    print(f"skip {side} of '{name}': {exc}")
                    continue
                if "inproc " in err:  # the rouge-score process's own scoring time
                    inproc = float(err.rsplit("inproc ", 1)[1].split()[0])
                    ours_s = times.get("mtpalette")
                    versus = (
                        f"; mtpalette's whole process {inproc / ours_s:.1f}x faster"
                        if ours_s
                        else ""
                    )
                    notes.append(
                        f"rouge-score in-process scoring alone ({name}): {inproc:.3f} s{versus}"
                    )
            m, p = times.get("mtpalette"), times.get("peer")
            ratio = p / m if m and p else None
            value = m if kind == "time" else ratio
            met = None if value is None else (value <= goal if kind == "time" else value >= goal)
            job = f"{name} (vs {'sacrebleu' if peer_opts else 'rouge-score'})"
            target = f"<= {goal} s" if kind == "time" else f">= {goal}x"
            row = {"job": job, "mtpalette_s": m, "peer_s": p, "ratio": ratio, "target": target}
            table.append(row | {"met": met})
    print("| job | mtpalette s | peer s | ratio | target | met |\n|---|---:|---:|---:|---|---|")
    for r in table:
        m, p = (("-" if x is None else f"{x:.3f}") for x in (r["mtpalette_s"], r["peer_s"]))
        ratio = "-" if r["ratio"] is None else f"{r['ratio']:.1f}x"
        met = "-" if r["met"] is None else ("yes" if r["met"] else "no")
        print(f"| {r['job']} | {m} | {p} | {ratio} | {r['target']} | {met} |")
    print("".join(f"\n{note}" for note in notes))
    if args.out:
        result = {"python": sys.version, "executable": sys.executable, "versions": versions}
        result |= {"data": f"{what}; {sizes}", "runs": runs, "warmup": warmup}
        result |= {"rows": table, "notes": notes}
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        print(f"written: {args.out}")


if __name__ == "__main__":
    main()
