"""Shared helpers of the benchmarks: real data loading and timing (not part of the package)."""

from __future__ import annotations

import glob
import os
import time
from importlib import resources
from pathlib import Path

from mtpalette.io.plain import read_lines

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
    root = SHARED / "wmt21" / "txt"
    tgt = lp.split("-")[1]
    files = sorted(glob.glob(str(root / "system-outputs" / f"newstest2021.{lp}.hyp.*.{tgt}")))
    if not files:
        return None
    ref_lines = [read_lines(root / "references" / f"newstest2021.{lp}.ref.{r}.{tgt}") for r in refs]
    hyps = [line for f in files for line in read_lines(f)]
    return hyps, [r * len(files) for r in ref_lines], f"WMT21 {lp}, {len(files)} systems"


def bundled_pairs():
    """The bundled TED zh-en data (13 systems, 2 references)."""
    root = resources.files("mtpalette") / "data" / "mqm_ted" / "zhen"
    refs = [read_lines(str(root / "ref.txt")), read_lines(str(root / "refB.txt"))]
    names = [
        p.name
        for p in root.iterdir()
        if p.name.endswith(".txt")
        and p.name not in {"ref.txt", "refB.txt", "source.txt", "seg_ids.txt"}
    ]
    hyps = [line for n in sorted(names) for line in read_lines(str(root / n))]
    return hyps, [r * len(names) for r in refs], f"bundled TED zh-en, {len(names)} systems"


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
