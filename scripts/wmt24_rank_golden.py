"""Golden values of the WMT24 General MT human ranking ("wmt24" protocol of ``mtpalette rank``),
computed by running the organisers' own code (run, never copied).

Source: https://github.com/wmt-conference/wmt24-news-systems at commit
bfa937ee53586aa173d68657b89b8642693f7b66 (2025-10-06); the ranking code is
``humeval/calculate_clusters.py`` (``main``) and ``humeval/tools.py`` (``load_data``,
``attach_resources``, ``get_pvalues``, ``weighted_wilcoxon_signed_rank_test``, ``get_ranks``,
``get_clusters``). Their statistics code (``weighted_wilcoxon_signed_rank_test`` to
``get_clusters``) is unchanged since commit 9beb2ee (2024-10-01, "latest fix of ranks"); later
commits changed data loading and tables only. Before it (e.g. 46252a5, 2024-09-13) the domain
tests were one-sided (``alternative="greater"``) and wins/losses came from the two directions.

Data: their ESA ratings ``humeval/esa_generalMT2024_wave2.csv`` and ``..._wave3.csv`` (waves 0
and 1 and the MQM files are over 4 MiB and were not in the snapshot available here), with the
domain of each segment from ``txt/documents/<lp>.docs``. The repository states no licence (no
LICENSE file, nothing in its README); the data were published by the WMT24 organisers for
research use - see tests/data/wmt24_rank/README.md.

Three steps:

``extract`` (their environment) runs their ``load_data`` (quality-control filtering: BAD
control items, tutorial, ``#incomplete`` and ``#dup`` documents and the canary are dropped; the
latest rating per annotator and item is kept) and ``attach_resources`` (domain of each
segment), then applies ``main``'s checks (duplicate ratings would be averaged, language pairs
with under 100 ratings per system skipped) and writes ``tests/data/wmt24_rank/<lp>.tsv.gz``:
header ``system  domain  doc  item  score``; item = their ESA ``segment_id`` (unique within
the lp), score = ESA 0-100 score as rated. All systems and items of the selected waves are kept.

``golden`` (their environment) reads exactly those TSV files, feeds them to their unmodified
``calculate_clusters.main`` in place of its loader (``load_data``/``attach_resources`` are
replaced by a function returning the TSV rows with their column names; LaTeX table writers are
replaced by functions that capture their inputs) and writes ``golden.json``. Per-domain
p-values are recorded by wrapping ``tools.weighted_wilcoxon_signed_rank_test``: for every call
``main`` makes, the wrapper also calls the original once per domain on that domain's rows with
``macro_avg=False``, which is exactly their per-domain ``wilcoxon(...).pvalue``.

``check`` (any environment with numpy, pandas, scipy; no code of theirs) re-implements the
protocol independently from the TSV files and compares with ``golden.json``: p-values from
(a) a transcription of scipy<=1.14's ``wilcoxon`` defaults and (b) the installed
``scipy.stats.wilcoxon``; Stouffer both as they write it and in a numerically careful form.

Usage (from the repository root)::

    git clone https://github.com/wmt-conference/wmt24-news-systems /tmp/wmt24-news-systems
    git -C /tmp/wmt24-news-systems checkout bfa937ee53586aa173d68657b89b8642693f7b66
    python3 -m venv /tmp/wmt24-venv
    /tmp/wmt24-venv/bin/pip install numpy==2.1.3 pandas==2.2.3 scipy==1.14.1 \\
        absl-py==2.5.1 ipdb==0.13.13 openpyxl==3.1.5 jinja2
    /tmp/wmt24-venv/bin/python scripts/wmt24_rank_golden.py extract \\
        --checkout /tmp/wmt24-news-systems
    # the same run under current numpy/pandas/scipy, kept only for its differing values:
    python3 -m venv /tmp/wmt24-venv-latest
    /tmp/wmt24-venv-latest/bin/pip install numpy pandas scipy absl-py ipdb openpyxl jinja2
    /tmp/wmt24-venv-latest/bin/python scripts/wmt24_rank_golden.py golden \\
        --checkout /tmp/wmt24-news-systems --golden /tmp/wmt24-golden-latest.json
    /tmp/wmt24-venv/bin/python scripts/wmt24_rank_golden.py golden \\
        --checkout /tmp/wmt24-news-systems --alt /tmp/wmt24-golden-latest.json
    python3 scripts/wmt24_rank_golden.py check

(``extract``/``golden`` default to ``--lps en-cs,en-ja`` and
``--waves esa_generalMT2024_wave2.csv,esa_generalMT2024_wave3.csv``; with a full clone, which
also has waves 0 and 1, keep that default to reproduce these files.) scipy is pinned to 1.14.1
because their code filters warnings that only scipy<=1.14 emits and because ``wilcoxon``'s
``method='auto'`` changed in later versions (see ``check``).
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import io
import json
import math
import os
import platform
import sys
import tempfile
from itertools import combinations
from pathlib import Path

REPO = "wmt-conference/wmt24-news-systems"
COMMIT = "bfa937ee53586aa173d68657b89b8642693f7b66"
ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "wmt24_rank"
DEFAULT_LPS = "en-cs,en-ja"
DEFAULT_WAVES = "esa_generalMT2024_wave2.csv,esa_generalMT2024_wave3.csv"
HEADER = ["system", "domain", "doc", "item", "score"]
ALPHA = 0.05  # tools.ALPHA_THRESHOLD


# ----------------------------------------------------------------------------- helpers
def _their_modules(checkout: Path):
    sys.path.insert(0, str(checkout / "humeval"))
    import calculate_clusters  # noqa: E402  (their module)
    import tools  # noqa: E402  (their module)

    return tools, calculate_clusters


@contextlib.contextmanager
def _scratch(checkout: Path):
    """A scratch working directory: their code reads ``../txt`` and ``AutoRank.xlsx`` relative
    to the cwd and writes tables, pickles and CSVs there; keep all of that out of both trees."""
    old = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="wmt24-rank-") as tmp:
        run = Path(tmp) / "run"
        run.mkdir()
        os.symlink(checkout / "txt", Path(tmp) / "txt")
        os.symlink(checkout / "humeval" / "AutoRank.xlsx", run / "AutoRank.xlsx")
        os.chdir(run)
        try:
            yield run
        finally:
            os.chdir(old)


def _fmt_score(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def _read_tsv(path: Path) -> list[list[str]]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        rows = [line.rstrip("\n").split("\t") for line in fh]
    assert rows[0] == HEADER, rows[0]
    return rows[1:]


def _num(x):
    """JSON-safe float (json writes floats by repr)."""
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def _versions() -> dict:
    import numpy
    import pandas
    import scipy

    return {
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "pandas": pandas.__version__,
        "scipy": scipy.__version__,
    }


# ----------------------------------------------------------------------------- extract
def extract(checkout: Path, lps: list[str], waves: list[str], out: Path) -> None:
    import pandas as pd

    tools, _ = _their_modules(checkout)
    with _scratch(checkout), contextlib.redirect_stdout(sys.stderr):
        frames = [
            tools.load_data(str(checkout / "humeval" / w), is_mqm=w.startswith("mqm"))
            for w in waves
        ]
        df = pd.concat(frames)
        df = tools.attach_resources(df)
    # calculate_clusters.main, lines 50-53: duplicates would be averaged (dropping domain_name)
    groups = df.groupby(["annot_id", "lp", "system_id", "orig_segment_id"])
    assert len(groups) == len(df), "duplicate ratings: main() would average them"
    out.mkdir(parents=True, exist_ok=True)
    for lp in lps:
        sub = df[df["lp"] == lp]
        assert len(sub), f"no ratings for {lp} in {waves}"
        per_system = sub.groupby("system_id")["annot_id"].count().mean()
        assert per_system >= 100, f"{lp}: main() skips lps with < 100 ratings per system"
        assert (sub["doc_id"] == sub["document_name"]).all()
        assert sub.groupby(["system_id", "segment_id"]).size().max() == 1
        assert sub.groupby("segment_id")["orig_segment_id"].nunique().max() == 1
        sub = sub.assign(item_int=sub["segment_id"].astype(int))
        sub = sub.sort_values(["system_id", "item_int"])
        buf = io.StringIO()
        buf.write("\t".join(HEADER) + "\n")
        for r in sub.itertuples(index=False):
            fields = [r.system_id, r.domain_name, r.doc_id, str(r.item_int), _fmt_score(r.overall)]
            assert all("\t" not in f and "\n" not in f for f in fields)
            buf.write("\t".join(fields) + "\n")
        path = out / f"{lp}.tsv.gz"
        with (
            open(path, "wb") as raw,
            gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz,
        ):
            gz.write(buf.getvalue().encode("utf-8"))
        print(
            f"{path}: {len(sub)} ratings, {sub['system_id'].nunique()} systems, "
            f"{sub['segment_id'].nunique()} items, {sub['doc_id'].nunique()} docs, "
            f"{path.stat().st_size} bytes",
            file=sys.stderr,
        )


# ----------------------------------------------------------------------------- golden
def _tsv_frame(out: Path, lps: list[str]):
    import pandas as pd

    recs = []
    for lp in lps:
        src, tgt = lp.split("-")
        for system, domain, doc, item, score in _read_tsv(out / f"{lp}.tsv.gz"):
            recs.append(
                {
                    "user_id": "",
                    "system_id": system,
                    "segment_id": item,
                    "segment_type": "TGT",
                    "source_lang": src,
                    "target_lang": tgt,
                    "overall": float(score),
                    "doc_id": doc,
                    "method": "ESA",
                    "wave": "excerpt",
                    "lp": lp,
                    # their keys (tools.load_data, lines 204-205)
                    "annot_id": f"{system}-{doc}-{item}-{lp}-excerpt",
                    "orig_segment_id": f"{doc}-{item}-{lp}",
                    "domain_name": domain,
                    "document_name": doc,
                }
            )
    return pd.DataFrame(recs)


def _merge_alt(doc: dict, alt_path: Path) -> None:
    """Annotate ``doc`` with the values of the same run under another environment where they
    differ (p-values compared exactly; scores must agree to 1e-12 relative): ``p_alt`` per
    domain and pair, ``significant_alt``, ``rank_top_alt``/``rank_bottom_alt``/``cluster_alt``
    per system."""
    alt = json.loads(alt_path.read_text(encoding="utf-8"))
    doc["provenance"]["alt_environment"] = alt["provenance"]["environment"]
    for lp, g in doc["lps"].items():
        a = alt["lps"][lp]
        assert [s["system"] for s in a["systems"]] == [s["system"] for s in g["systems"]]
        for s, t in zip(g["systems"], a["systems"], strict=True):
            assert abs(s["score"] - t["score"]) <= 1e-12 * abs(s["score"])
            for k in ("rank_top", "rank_bottom", "cluster"):
                if s[k] != t[k]:
                    s[k + "_alt"] = t[k]
        for q, r in zip(g["pairs"], a["pairs"], strict=True):
            assert (q["a"], q["b"]) == (r["a"], r["b"])
            for dom, v in q["domains"].items():
                if v["p"] != r["domains"][dom]["p"]:
                    v["p_alt"] = r["domains"][dom]["p"]
            if q["p"] != r["p"]:
                q["p_alt"] = r["p"]
            if q["significant"] != r["significant"]:
                q["significant_alt"] = r["significant"]


def golden(checkout: Path, lps: list[str], out: Path, dest: Path, alt: Path | None = None) -> None:
    tools, cc = _their_modules(checkout)
    excerpt = _tsv_frame(out, lps)

    # --- loader replaced: first call serves the excerpt, the other files nothing
    calls = []

    def fake_load_data(filename, is_mqm=False, **kw):
        calls.append(filename)
        return excerpt.copy() if len(calls) == 1 else excerpt.iloc[0:0].copy()

    cc.load_data = fake_load_data
    cc.attach_resources = lambda df: df.reset_index(drop=True)

    # --- outputs captured instead of written as LaTeX
    captured = {}

    def cap_latex(results, extended=False):
        captured["results_extended" if extended else "results"] = results

    cc.generate_latex_tables = cap_latex
    cc.generate_max_per_domain = lambda results: None
    cc.generate_head_to_head = lambda h2h: captured.__setitem__("head_to_head", h2h)
    cc.generate_online_llm_head_to_head_wins = lambda h2h, ext: None

    # --- per-domain p-values: instrument (not edit) their test
    current = {}
    per_domain = {}
    orig_combinations = tools.combinations
    orig_test = tools.weighted_wilcoxon_signed_rank_test

    orig_get_pvalues = cc.get_pvalues

    def tracking_get_pvalues(df, macro_avg=True):
        (current["lp"],) = df["lp"].unique()  # main() calls it once per lp with df_lp
        return orig_get_pvalues(df, macro_avg)

    def tracking_combinations(systems, r):
        for s1, s2 in orig_combinations(systems, r):
            current["pair"] = (current["lp"], s1, s2)
            yield s1, s2

    def recording_test(df, x, y, macro_avg=True):
        lp, s1, s2 = current["pair"]
        key = (lp, s1, s2) if (x, y) == ("overall1", "overall2") else (lp, s2, s1)
        doms = {}
        for domain in df["domain_name"].unique():  # their order (tools.py line 245)
            sub = df[df["domain_name"] == domain]
            d = (sub[x] - sub[y]).to_numpy()
            doms[domain] = {
                "n": int(len(d)),
                "n_nonzero": int((d != 0).sum()),
                "p": orig_test(sub, x, y, macro_avg=False),
            }
        p = orig_test(df, x, y, macro_avg=macro_avg)
        per_domain[key] = {"domains": doms, "p": p, "n": int(len(df))}
        return p

    cc.get_pvalues = tracking_get_pvalues
    tools.combinations = tracking_combinations
    tools.weighted_wilcoxon_signed_rank_test = recording_test

    cc.FLAGS(["wmt24_rank_golden"])  # absl defaults: micro=False, preload=False
    assert cc.FLAGS.micro is False
    with _scratch(checkout), contextlib.redirect_stdout(sys.stderr):
        cc.main([])

    results, h2h = captured["results"], captured["head_to_head"]
    lp_names = {lp: cc.language_mapping[lp[:2]] + "-" + cc.language_mapping[lp[3:5]] for lp in lps}
    doc = {
        "provenance": {
            "repo": f"https://github.com/{REPO}",
            "commit": COMMIT,
            "code": "humeval/calculate_clusters.py main(); humeval/tools.py get_pvalues, "
            "weighted_wilcoxon_signed_rank_test, get_ranks, get_clusters",
            "data": "humeval/esa_generalMT2024_wave2.csv + wave3.csv (ESA), domains from "
            "txt/documents/<lp>.docs; excerpt files <lp>.tsv.gz in this folder",
            "command": "/tmp/wmt24-venv/bin/python scripts/wmt24_rank_golden.py golden "
            "--checkout /tmp/wmt24-news-systems" + (f" --alt {alt}" if alt is not None else ""),
            "environment": _versions(),
        },
        "parameters": {
            "alpha": ALPHA,
            "micro": False,
            "min_ratings_per_system": 100,
            "system_score": "mean of ratings per (system, domain), then unweighted mean over "
            "the domains the system has ratings in; sorted descending",
            "pair_test": "per domain: scipy.stats.wilcoxon(d, alternative='two-sided') on the "
            "differences of items rated for both systems (defaults: "
            "zero_method='wilcox', correction=False, method='auto')",
            "combination": "Stouffer: z_i = norm.ppf(1 - p_i) with p_i two-sided, "
            "Z = sum(z_i)/sqrt(k) over the k domains with shared items, "
            "p = 1 - norm.cdf(Z) (one-sided upper tail)",
            "wins_losses": "a pair counts if p(a,b) < alpha (strict): win if score(a) > "
            "score(b) else loss; rank_top = losses+1, "
            "rank_bottom = n_systems - wins",
            "clusters": "in score order, a new cluster starts after position i iff no pair "
            "(k <= i < j) has p > alpha (strict)",
        },
        "lps": {},
    }
    for lp in lps:
        ar = results[lp_names[lp]]
        scores, pvalues, ranks, clusters = h2h[lp_names[lp]]
        domains = [c[len("domain_") :] for c in ar.columns if c.startswith("domain_")]
        systems = []
        for _, row in ar.iterrows():
            wins, losses = (int(v) for v in row["wins/losses"].split("/"))
            top, bottom = row["rank"]
            systems.append(
                {
                    "system": row["system_id"],
                    "score": _num(row["overall"]),
                    "domain_scores": {d: _num(row[f"domain_{d}"]) for d in domains},
                    "rank_top": int(top),
                    "rank_bottom": int(bottom),
                    "wins": wins,
                    "losses": losses,
                    "cluster": int(row["cluster"]),
                }
            )
        order = [s["system"] for s in systems]
        pairs = []
        for i, a in enumerate(order):
            for b in order[i + 1 :]:
                ab, ba = per_domain[(lp, a, b)], per_domain[(lp, b, a)]
                pab = pvalues[(a, b)]
                assert ab["p"] == pab or (math.isnan(ab["p"]) and math.isnan(pab))
                pair = {
                    "a": a,
                    "b": b,
                    "n": ab["n"],
                    "domains": {
                        d: {"n": v["n"], "n_nonzero": v["n_nonzero"], "p": _num(v["p"])}
                        for d, v in ab["domains"].items()
                    },
                    "p": _num(pvalues[(a, b)]),
                    "significant": bool(pvalues[(a, b)] < ALPHA),
                }
                # their p is computed for both directions; record b->a only if it differs
                if _num(pvalues[(b, a)]) != pair["p"]:
                    pair["p_ba"] = _num(pvalues[(b, a)])
                    pair["significant_ba"] = bool(pvalues[(b, a)] < ALPHA)
                for d, v in ba["domains"].items():
                    if _num(v["p"]) != pair["domains"][d]["p"]:
                        pair["domains"][d]["p_ba"] = _num(v["p"])
                pairs.append(pair)
        doc["lps"][lp] = {
            "file": f"{lp}.tsv.gz",
            "n_systems": len(order),
            "n_pairs": len(pairs),
            "domains": domains,
            "n_items": int(excerpt.loc[excerpt["lp"] == lp, "segment_id"].nunique()),
            "n_ratings": int((excerpt["lp"] == lp).sum()),
            "n_clusters": max(s["cluster"] for s in systems),
            "systems": systems,
            "pairs": pairs,
        }
    if alt is not None:
        _merge_alt(doc, alt)
    dest.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {dest} ({dest.stat().st_size} bytes)", file=sys.stderr)


# ----------------------------------------------------------------------------- check
def _exact_counts(n: int) -> list[int]:
    """Number of subsets of {1..n} with each rank sum (null distribution of W+)."""
    counts = [1]
    for k in range(1, n + 1):
        new = counts + [0] * k
        for s, c in enumerate(counts):
            new[s + k] += c
        counts = new
    return counts


def wilcoxon_v114(d) -> tuple[float, str]:
    """Two-sided p of scipy<=1.14 ``wilcoxon(d)`` defaults (zero_method='wilcox',
    correction=False, method='auto'): exact distribution if len(d) <= 50 and no zero
    differences (ties kept, statistic rounded conservatively), else normal approximation on
    the non-zero differences with tie-corrected variance."""
    import numpy as np
    from scipy.stats import norm, rankdata

    d = np.asarray(d, dtype=float)
    nz = d[d != 0]
    if len(nz) == 0:
        raise ValueError("all differences zero (scipy 1.14 raises here)")
    r = rankdata(np.abs(nz))
    r_plus = float(r[nz > 0].sum())
    n = len(nz)
    if len(d) <= 50 and n == len(d):
        counts = _exact_counts(n)
        total = 2**n
        lo, hi = math.floor(r_plus), math.ceil(r_plus)
        sf = sum(counts[lo:]) / total
        cdf = sum(counts[: hi + 1]) / total
        return min(1.0, 2 * min(sf, cdf)), "exact"
    _, t = np.unique(np.abs(nz), return_counts=True)
    se = math.sqrt((n * (n + 1) * (2 * n + 1) - float((t**3 - t).sum()) / 2) / 24)
    z = (r_plus - n * (n + 1) / 4) / se
    return float(2 * norm.sf(abs(z))), "approx"


def check(out: Path, dest: Path) -> int:
    import numpy as np
    import scipy
    from scipy.stats import norm, wilcoxon

    gold = json.loads(dest.read_text(encoding="utf-8"))
    alpha = gold["parameters"]["alpha"]
    ok = True
    print(
        f"check: scipy {scipy.__version__}, golden computed with scipy "
        f"{gold['provenance']['environment']['scipy']}"
    )
    for lp, g in gold["lps"].items():
        rows = _read_tsv(out / g["file"])
        ratings = {}  # system -> item -> (domain, score)
        for system, domain, _doc, item, score in rows:
            ratings.setdefault(system, {})[item] = (domain, float(score))
        # scores
        score, dom_score = {}, {}
        for s, items in ratings.items():
            by_dom = {}
            for dom, sc in items.values():
                by_dom.setdefault(dom, []).append(sc)
            dom_score[s] = {k: math.fsum(v) / len(v) for k, v in by_dom.items()}
            score[s] = math.fsum(dom_score[s].values()) / len(dom_score[s])
        order = sorted(score, key=lambda s: -score[s])  # (ties: see report)
        # pairwise
        diffs = {
            "p_v114": 0.0,
            "p_installed": 0.0,
            "p_careful": 0.0,
            "dom_v114": 0.0,
            "dom_installed": 0.0,
            "dom_alt": 0.0,
        }
        flips = {"installed": [], "careful": []}
        p_mine = {}
        gpairs = {(q["a"], q["b"]): q for q in g["pairs"]}
        for a, b in combinations(order, 2):
            shared = sorted(set(ratings[a]) & set(ratings[b]))
            per = {}
            for it in shared:
                per.setdefault(ratings[a][it][0], []).append(ratings[a][it][1] - ratings[b][it][1])
            p114, pinst = [], []
            gp = gpairs[(a, b)] if (a, b) in gpairs else gpairs[(b, a)]
            for dom, d in per.items():
                v114, _ = wilcoxon_v114(d)
                try:
                    vinst = float(wilcoxon(np.asarray(d), alternative="two-sided").pvalue)
                except ValueError:
                    vinst = float("nan")
                p114.append(v114)
                pinst.append(vinst)
                gd = gp["domains"][dom]["p"]
                diffs["dom_v114"] = max(diffs["dom_v114"], abs(v114 - gd))
                if not math.isnan(vinst):
                    diffs["dom_installed"] = max(diffs["dom_installed"], abs(vinst - gd))
                    galt = gp["domains"][dom].get("p_alt", gd)
                    diffs["dom_alt"] = max(diffs["dom_alt"], abs(vinst - galt))

            def stouffer(ps):  # as in tools.py lines 259-261
                z = [norm.ppf(1 - p) for p in ps]
                return float(1 - norm.cdf(np.sum(z) / np.sqrt(len(ps))))

            def stouffer_careful(ps):
                return float(norm.sf(sum(norm.isf(p) for p in ps) / math.sqrt(len(ps))))

            p_mine[(a, b)] = stouffer(p114)
            for name, val in (
                ("p_v114", p_mine[(a, b)]),
                ("p_installed", stouffer(pinst)),
                ("p_careful", stouffer_careful(p114)),
            ):
                diffs[name] = max(diffs[name], abs(val - gp["p"]))
            if (stouffer(pinst) < alpha) != gp["significant"]:
                flips["installed"].append((a, b))
            if (stouffer_careful(p114) < alpha) != gp["significant"]:
                flips["careful"].append((a, b))

        def p(a, b, p_mine=p_mine):
            return p_mine[(a, b)] if (a, b) in p_mine else p_mine[(b, a)]

        n = len(order)
        mine = {}
        for s in order:
            wins = sum(1 for t in order if t != s and p(s, t) < alpha and score[s] > score[t])
            losses = sum(1 for t in order if t != s and p(s, t) < alpha and not score[s] > score[t])
            mine[s] = [losses + 1, n - wins]
        cluster, c = {}, 1
        for i, s in enumerate(order):
            cluster[s] = c
            linked = (p(order[k], order[j]) > alpha for k in range(i + 1) for j in range(i + 1, n))
            if not any(linked):
                c += 1
        gs = g["systems"]
        same_order = [x["system"] for x in gs] == order
        score_diff = max(abs(x["score"] - score[x["system"]]) for x in gs)
        dom_diff = max(
            abs(v - dom_score[x["system"]][k]) for x in gs for k, v in x["domain_scores"].items()
        )
        rank_ok = all([x["rank_top"], x["rank_bottom"]] == mine[x["system"]] for x in gs)
        clus_ok = all(x["cluster"] == cluster[x["system"]] for x in gs)
        print(f"{lp}: {n} systems, {len(g['pairs'])} pairs, domains {g['domains']}")
        print(
            f"  order equal: {same_order}; max |score diff| {score_diff:.3g}; "
            f"max |domain score diff| {dom_diff:.3g}; ranks equal: {rank_ok}; "
            f"clusters equal: {clus_ok}"
        )
        print(
            f"  max |p diff| per domain: scipy<=1.14 transcription {diffs['dom_v114']:.3g}, "
            f"installed scipy.stats.wilcoxon {diffs['dom_installed']:.3g} "
            f"(vs p_alt where recorded: {diffs['dom_alt']:.3g})"
        )
        print(
            f"  max |p diff| combined: transcription {diffs['p_v114']:.3g}, installed scipy "
            f"{diffs['p_installed']:.3g}, careful Stouffer (isf/sf) {diffs['p_careful']:.3g}"
        )
        print(
            f"  significance flips: installed scipy {flips['installed']}, careful Stouffer "
            f"{flips['careful']}"
        )
        ok &= same_order and rank_ok and clus_ok and score_diff < 1e-9 and diffs["p_v114"] < 1e-9
    print("OK" if ok else "MISMATCH")
    return 0 if ok else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=["extract", "golden", "check"])
    ap.add_argument("--checkout", type=Path, default=Path("/tmp/wmt24-news-systems"))
    ap.add_argument("--lps", default=DEFAULT_LPS)
    ap.add_argument("--waves", default=DEFAULT_WAVES)
    ap.add_argument("--out", type=Path, default=OUT, help="folder of the TSV excerpts")
    ap.add_argument("--golden", type=Path, default=None, help="golden.json path")
    ap.add_argument(
        "--alt",
        type=Path,
        default=None,
        help="golden mode: a golden.json of the same run under another environment "
        "(newer scipy) whose differing values are recorded as *_alt",
    )
    args = ap.parse_args()
    lps = args.lps.split(",")
    dest = args.golden or args.out / "golden.json"
    if args.mode == "extract":
        extract(args.checkout.resolve(), lps, args.waves.split(","), args.out)
    elif args.mode == "golden":
        golden(args.checkout.resolve(), lps, args.out, dest, args.alt)
    else:
        return check(args.out, dest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
