"""``rank --protocol wmt24`` against a plain numpy + scipy loop of the same Wilcoxon tests and
against the WMT24 organisers' ranking code; run as ``python bench/bench_rank.py --protocol
wmt24`` (see that script's docstring).

Data: the WMT24 ESA ratings of ``../shared/data/wmt24`` as the tests read them (``<lp>.tsv.gz``,
built by ``scripts/shared_data.py: wmt24_rank_root``) (every language pair
there: en-cs and en-ja, waves 2 and 3; see its README).

* mtpalette: ``run_rank(RankRun(table=..., protocol="wmt24"))`` per language pair (reading
  the table included), and ``pairwise_tests`` alone (the tests on the matrix).
* the loop: pandas reads the same TSV; for every pair and domain one
  ``scipy.stats.wilcoxon(d, method=..., correction=False, zero_method="wilcox")`` call with
  the method scipy <= 1.14 chose (what WMT24 ran); Stouffer per pair; the system scores.
* the organisers: ``tools.get_pvalues(df, macro_avg=True)``, ``get_ranks`` and
  ``get_clusters`` of wmt-conference/wmt24-news-systems ``humeval/tools.py`` (a checkout of
  the commit of scripts/wmt24_rank_golden.py, ``--wmt24-checkout``), imported and called
  unmodified on the rows of the TSV in their column names (``ipdb``, imported and unused,
  is given as an empty module when absent). The system table they take (the mean of the
  domain means, sorted) is computed here with pandas and timed with them. Their code calls
  the installed scipy's ``wilcoxon`` with its defaults: with scipy >= 1.15 some small-domain
  p-values differ from scipy 1.14's (see tests/data/wmt24_rank/README.md).

Ratios are the others' time over mtpalette's, best of ``--rounds`` in process and best of 3
as whole processes (one process per language pair for each of the three; all from cached
byte code, after one untimed run each: bench/common.py, bytecode_env).
"""

from __future__ import annotations

import math
import os
import shutil
import sys
import tempfile
import time
import types
import warnings
from pathlib import Path

from common import REPO, bytecode_env, machine, run_process


def table(lp: str) -> Path:
    """The WMT24 ESA ratings of ``lp`` as the ranking tests read them, built from the shared
    data (``scripts/shared_data.py: wmt24_rank_root``)."""
    sys.path.insert(0, str(REPO / "scripts"))
    from shared_data import wmt24_rank_root

    return wmt24_rank_root() / f"{lp}.tsv.gz"


def read_frame(lp: str):
    import pandas as pd

    return pd.read_csv(table(lp), sep="\t")


def loop_rank(lp: str) -> dict:
    """Every pair's Stouffer p-value (keyed by the two systems, sorted) by one scipy call per
    pair and domain, and the systems' scores."""
    import numpy as np
    from scipy.stats import norm, wilcoxon

    df = read_frame(lp)
    wide = df.pivot(index="item", columns="system", values="score")
    domain = df.drop_duplicates("item").set_index("item")["domain"].reindex(wide.index)
    scores = {s: float(np.mean([wide.loc[domain == d, s].dropna().mean()
                                for d in domain.unique()])) for s in wide.columns}  # fmt: skip
    systems = list(wide.columns)
    out = {}
    for i, a in enumerate(systems):
        for b in systems[i + 1 :]:
            z = []
            for d in domain.unique():
                diff = (wide.loc[domain == d, a] - wide.loc[domain == d, b]).dropna().to_numpy()
                if diff.size == 0:
                    continue
                if not diff.any():
                    p = 1.0
                else:
                    method = "exact" if diff.size <= 50 and diff.all() else "asymptotic"
                    p = wilcoxon(diff, method=method, correction=False,
                                 zero_method="wilcox").pvalue  # fmt: skip
                z.append(norm.ppf(1 - p))
            out[tuple(sorted((a, b)))] = float(1 - norm.cdf(np.sum(z) / np.sqrt(len(z))))
    return {"p": out, "scores": scores}


def organisers_rank(checkout: Path, lp: str) -> dict:
    """Their get_pvalues, get_ranks and get_clusters on the TSV's rows (their columns)."""
    tools = their_tools(checkout)
    df = read_frame(lp)
    df = df.rename(columns={"system": "system_id", "score": "overall", "domain": "domain_name"})
    df["orig_segment_id"] = df["doc"] + "-" + df["item"].astype(str) + "-" + lp
    per_domain = df.groupby(["system_id", "domain_name"])["overall"].mean().reset_index()
    avg = per_domain.groupby("system_id")["overall"].mean().reset_index()
    avg = avg.set_index("system_id", drop=False).sort_values("overall", ascending=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pvalues = tools.get_pvalues(df, True)
        ranks, _, _ = tools.get_ranks(pvalues, avg)
        clusters = tools.get_clusters(pvalues, avg)
    p = {tuple(sorted(k)): float(v) for k, v in pvalues.items()}
    return {"p": p, "ranks": ranks, "clusters": clusters}


def their_tools(checkout: Path):
    if "tools" in sys.modules:
        return sys.modules["tools"]
    try:
        import ipdb  # noqa: F401  (imported by their modules, never called)
    except ImportError:
        sys.modules["ipdb"] = types.ModuleType("ipdb")
    sys.path.insert(0, str(checkout / "humeval"))
    import tools  # their module

    return tools


def ours_rank(lp: str):
    from mtpalette.api import RankRun, run_rank

    run = RankRun(table=table(lp), domain_col="domain", doc_col="doc",
                  protocol="wmt24")  # fmt: skip
    [r] = run_rank(run).rankings
    return r


def ours_tests_only(lp: str):
    """pairwise_tests alone, on the matrix read beforehand."""
    from mtpalette.io.item_scores import read_long_scores
    from mtpalette.stats.ranking import pairwise_tests

    s = read_long_scores(table(lp), domain_col="domain", doc_col="doc")
    _, items, x = s.matrix()
    domains = [s.domains[i] for i in items]
    return lambda: pairwise_tests(x, "wmt24", domains=domains)


def best(fn, rounds: int) -> tuple[float, object]:
    t, out = float("inf"), None
    for _ in range(rounds):
        t0 = time.perf_counter()
        out = fn()
        t = min(t, time.perf_counter() - t0)
    return t, out


def main(args) -> None:
    lps = args.lps or ["en-cs", "en-ja"]
    if args.wmt24_worker:  # one whole process of the loop or of the organisers' code
        for lp in lps:
            if args.wmt24_worker == "loop":
                loop_rank(lp)
            else:
                organisers_rank(args.wmt24_checkout, lp)
        return
    theirs_ok = (args.wmt24_checkout / "humeval" / "tools.py").exists()
    print(f"{machine()}; WMT24 ESA ratings: {', '.join(lps)}")
    import pandas  # noqa: F401  (imports are timed by the whole processes, not here)
    import scipy.stats  # noqa: F401

    import mtpalette.api  # noqa: F401

    if theirs_ok:
        their_tools(args.wmt24_checkout)
    else:
        print(f"no checkout of wmt24-news-systems at {args.wmt24_checkout}: organisers skipped")
    rows = []
    for lp in lps:
        t_ours, r = best(lambda lp=lp: ours_rank(lp), args.rounds)
        tests = ours_tests_only(lp)
        t_tests, _ = best(tests, args.rounds)
        t_loop, loop = best(lambda lp=lp: loop_rank(lp), max(1, args.rounds // 2))  # slow
        ours_p = {tuple(sorted((q.a, q.b))): q.p_value for q in r.pairs}
        equal = sum(ours_p[k] == v for k, v in loop["p"].items())
        line = (f"{lp}: {len(r.systems)} systems, {len(r.pairs)} pairs x {len(r.domains)} "
                f"domains; mtpalette {t_ours * 1e3:.0f} ms (tests alone {t_tests * 1e3:.1f} "
                f"ms); loop {t_loop * 1e3:.0f} ms, {t_loop / t_ours:.1f}x; p-values equal to "
                f"the loop's: {equal} of {len(loop['p'])}")  # fmt: skip
        t_org = math.nan
        if theirs_ok:
            t_org, org = best(lambda lp=lp: organisers_rank(args.wmt24_checkout, lp), 1)
            diff = max(abs(ours_p[k] - v) for k, v in org["p"].items())
            same = sum(ours_p[k] == v for k, v in org["p"].items())
            line += (f"; organisers {t_org * 1e3:.0f} ms, {t_org / t_ours:.1f}x (p equal "
                     f"{same} of {len(org['p'])}, largest difference {diff:.2g}, their "
                     "scipy's defaults)")  # fmt: skip
        print(line)
        rows.append((t_ours, t_tests, t_loop, t_org))
    tot = [sum(col) for col in zip(*rows, strict=True)]
    print(f"all pairs, in process: mtpalette {tot[0]:.3f} s (tests alone {tot[1]:.3f} s); "
          f"loop {tot[2]:.2f} s = {tot[2] / tot[0]:.1f}x (tests alone: {tot[2] / tot[1]:.0f}x); "
          f"organisers {tot[3]:.2f} s = {tot[3] / tot[0]:.1f}x")  # fmt: skip
    whole_processes(lps, args, theirs_ok)


def whole_processes(lps: list[str], args, theirs_ok: bool) -> None:
    """Best of 3 of the sum over language pairs of one process each: wall and CPU."""
    me = [sys.executable, str(Path(__file__).with_name("bench_rank.py"))]
    commands = {
        "mtpalette rank": lambda lp: [sys.executable, "-m", "mtpalette", "rank", "--table",
                                      str(table(lp)), "--domain-col", "domain",
                                      "--doc-col", "doc", "--protocol", "wmt24", "-q"],
        "loop": lambda lp: [*me, "--wmt24-worker", "loop", lp],
    }  # fmt: skip
    if theirs_ok:
        checkout = str(args.wmt24_checkout)
        commands["organisers"] = lambda lp: [
            *me,
            "--wmt24-worker",
            "organisers",
            "--wmt24-checkout",
            checkout,
            lp,
        ]
    best_of: dict[str, tuple[float, float]] = {}
    cache = Path(tempfile.mkdtemp(prefix="bench_rank_pyc_"))
    env = bytecode_env(dict(os.environ), cache)
    for make in commands.values():  # untimed: fills the byte-code cache
        run_process(make(lps[0]), env=env)
    for _ in range(3):
        for name, make in commands.items():  # in turn, so that drift hits all alike
            wall = cpu = 0.0
            for lp in lps:
                w, c, _ = run_process(make(lp), env=env)
                wall, cpu = wall + w, cpu + c
            old = best_of.get(name, (math.inf, math.inf))
            best_of[name] = (min(old[0], wall), min(old[1], cpu))
    shutil.rmtree(cache, ignore_errors=True)
    w0, c0 = best_of["mtpalette rank"]
    for name, (w, c) in best_of.items():
        print(
            f"whole processes, {name} ({len(lps)} processes, best of 3): wall {w:.2f} s, "
            f"CPU {c:.2f} s; ratio to mtpalette: wall {w / w0:.1f}x, CPU {c / c0:.1f}x"
        )
