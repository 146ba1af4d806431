"""Shared helpers of the benchmarks: real data loading and timing (not part of the package).
mtpalette is imported only where needed: mt-metrics-eval's side of a benchmark imports this
module from a Python without mtpalette."""

from __future__ import annotations

import glob
import os
import time
from pathlib import Path

#: the repository root (this file is bench/common.py)
REPO = Path(__file__).resolve().parents[1]


def shared_data() -> Path:
    """The shared data folder: ``$MTPALETTE_SHARED_DATA`` when set, else ``../shared/data``
    next to the repository (as ``scripts/shared_data.py``); it may be absent, and every
    benchmark then skips or falls back with a message (:func:`skip_without_shared_data`)."""
    env = os.environ.get("MTPALETTE_SHARED_DATA")
    return Path(env) if env else REPO.parent / "shared" / "data"


def skip_without_shared_data(what: str = "the real WMT data") -> bool:
    """Print why the benchmark skips and return True when the shared data is absent."""
    if SHARED.is_dir():
        return False
    print(f"SKIP: {SHARED} is absent (the benchmark needs {what}; set MTPALETTE_SHARED_DATA)")
    return True


SHARED = shared_data()


def wmt21_pairs(lp: str = "de-en", refs: tuple[str, ...] = ("A", "B")):
    """All systems' outputs of one WMT21 pair with their references repeated, or None."""
    from mtpalette.io.plain import read_lines

    root = SHARED / "wmt21" / "txt"
    tgt = lp.split("-")[1]
    files = sorted(glob.glob(str(root / "system-outputs" / f"newstest2021.{lp}.hyp.*.{tgt}")))
    if not files:
        return None
    ref_lines = [read_lines(root / "references" / f"newstest2021.{lp}.ref.{r}.{tgt}") for r in refs]
    hyps = [line for f in files for line in read_lines(f)]
    return hyps, [r * len(files) for r in ref_lines], f"WMT21 {lp}, {len(files)} systems"


def bundled_pairs():
    """The bundled example zh-en data (invented by the project: 8 systems, 2 references)."""
    from mtpalette.io.judgments_mqm import bundled_mqm_ted
    from mtpalette.io.plain import read_lines

    root = bundled_mqm_ted("zhen")["judgments"].parent
    refs = [read_lines(str(root / "ref.txt")), read_lines(str(root / "refB.txt"))]
    names = [
        p.name
        for p in root.iterdir()
        if p.name.endswith(".txt")
        and p.name not in {"ref.txt", "refB.txt", "source.txt", "seg_ids.txt"}
    ]
    hyps = [line for n in sorted(names) for line in read_lines(str(root / n))]
    what = f"bundled example zh-en (invented), {len(names)} systems"
    return hyps, [r * len(names) for r in refs], what


INTO_ENGLISH = ("de-en", "cs-en", "ru-en", "en-cs", "en-ru")  # two references each


def real_pairs(min_pairs: int, lps: tuple[str, ...] = INTO_ENGLISH):
    """At least ``min_pairs`` real pairs with two references: the WMT21 into-English pairs
    pooled when ../shared/data exists, else the bundled data, repeated only if still short
    (the returned description says which)."""
    hyps, refs, parts = [], [[], []], []
    for lp in lps:
        data = wmt21_pairs(lp)
        if data is None:
            break
        hyps += data[0]
        for k in range(2):
            refs[k] += data[1][k]
        parts.append(data[2])
        if len(hyps) >= min_pairs:
            break
    if not hyps:
        print("../shared/data not found: using the bundled TED data instead")
        hyps, refs, what = bundled_pairs()
    else:
        what = " + ".join(parts)
    if len(hyps) < min_pairs:
        times = -(-min_pairs // len(hyps))
        hyps, refs = hyps * times, [r * times for r in refs]
        what += f", repeated x{times}"
    return hyps, refs, what


def timed(fn, *args, repeat: int = 1, **kwargs):
    """(best seconds, result) of ``repeat`` calls."""
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn(*args, **kwargs)
        best = min(best, time.perf_counter() - t0)
    return best, out


def machine() -> str:
    """Core count and load average, for the first line of a benchmark's output (ratios
    matter more than absolute times on a shared machine)."""
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    return f"{os.cpu_count()} cores, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"


def mtme_checkout() -> tuple[Path, Path] | None:
    """``($MTME_SRC, $MTME_PYTHON)``: a checkout of google-research/mt-metrics-eval and a
    Python with its dependencies (numpy, scipy, absl-py, dacite; ``apache_beam`` is replaced
    by an empty module), or None with a message when either is unset or absent."""
    src, py = os.environ.get("MTME_SRC"), os.environ.get("MTME_PYTHON")
    if src and py and Path(src).is_dir() and Path(py).exists():
        return Path(src), Path(py)
    print(
        "mt-metrics-eval not found: set MTME_SRC (its checkout) and MTME_PYTHON (a Python "
        f"with its dependencies); now {src}, {py}: skipped"
    )
    return None


def mtme_env(checkout: tuple[Path, Path]) -> dict:
    """The environment of an mt-metrics-eval process: its checkout on ``PYTHONPATH`` and one
    OpenBLAS thread, as mtpalette computes SPA's float32 products (with several threads the
    last bits of a product differ, and an SPA p-value may move by 1/1000)."""
    return {**os.environ, "PYTHONPATH": str(checkout[0]), "OPENBLAS_NUM_THREADS": "1"}


def bytecode_env(base: dict, cache: Path) -> dict:
    """The environment of a whole process timed against another: modules run from byte code
    cached on the first run, as an installed package's do. (A shell may set
    ``PYTHONDONTWRITEBYTECODE``; then every process compiles every module of a source
    checkout again, about 0.2 s of mtpalette's start-up, while pip-installed peers keep
    their compiled files.) The cache is the folder ``cache`` (``PYTHONPYCACHEPREFIX``), not
    the source trees; time a process after one untimed run."""
    env = {k: v for k, v in base.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPYCACHEPREFIX": str(cache)}


def run_process(
    cmd: list[str], *, timeout: float | None = None, env: dict | None = None
) -> tuple[float, float, str | None]:
    """Run a whole process: ``(wall seconds, CPU seconds of it and its children, stdout)``;
    stdout is None when it was stopped at ``timeout`` (the times are then lower bounds).
    A failing process ends the benchmark with its stderr."""
    import resource
    import subprocess

    def cpu() -> float:
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return r.ru_utime + r.ru_stime

    start, cpu0 = time.perf_counter(), cpu()
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return time.perf_counter() - start, cpu() - cpu0, None
    wall = time.perf_counter() - start
    if out.returncode:
        raise SystemExit(f"{' '.join(map(str, cmd))} failed:\n{out.stderr}")
    return wall, cpu() - cpu0, out.stdout
