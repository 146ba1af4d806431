"""Golden values of the WMT26 General MT human ranking (``rank --protocol wmt26``), computed by
running the organisers' own analysis (run, never copied) on real ESA ratings.

Source: wmt-conference/wmt26-general-mt, ``humeval/02b-analyze_results.py`` at commit
a6ae235cd03c474aa2c44e1c66920353310c70c2 (the file's sha256 is checked: SHA256 below) with
``humeval/utils.py`` (``LANG_TO_NAME``). Their test is ``is_significantly_better`` (a paired
then an unpaired one-sided ``scipy.stats.bootstrap``, 100 resamples, unseeded), their rank
ranges and cluster lines are computed in the per-language loop, the global order in
``model_average_rank``.

Data: the WMT24 ESA ratings of en-cs and en-ja that ``scripts/wmt24_rank_golden.py``
extracted from the shared data (``scripts/shared_data.py: wmt24_rank_root``, the same rows,
byte for byte, built by mtpalette's ESA reader; one rating per system
and item, so an item's mean annotation is its rating). They are written in the organisers'
input layout, ``humeval/data/annotations_filtered.json`` (one entry per item, its id
``<domain>_###_<doc>_###_<item>`` so that their code finds the domain and the document), in
a temporary copy of their ``humeval`` folder, with an empty ``wmt26_participants.jsonl``.

Their file is run unmodified (``runpy``), once per language pair and seed, with three stand-ins
set from this script: ``typst`` (a module whose ``compile`` records the tables they would
typeset: each system's mean, rank range and cluster line), matplotlib's ``Agg`` backend, and
``scipy.stats.bootstrap`` wrapped to pass ``rng=numpy.random.default_rng(seed)`` to every call
(a fresh stream per test: the resample indices mtpalette draws, so that both sides use the
same indices). Their order of items (a ``set`` turned into a list) is recorded from the run's
globals: mtpalette is given the items in that order. One more run with both pairs gives the
global order.

Usage (from the repository root; numpy, scipy, matplotlib)::

    python scripts/wmt26_rank_golden.py --checkout /path/to/wmt26-general-mt

It writes ``tests/data/wmt26_rank/golden.json``, which ``tests/metaeval/test_wmt26_golden.py``
compares with ``rank --protocol wmt26 --rank-range-rule wmt26``.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import hashlib
import io
import json
import os
import platform
import runpy
import shutil
import sys
import tempfile
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from shared_data import wmt24_rank_root  # noqa: E402  (the ratings, built from ../shared/data)

OUT = ROOT / "tests" / "data" / "wmt26_rank" / "golden.json"
REPO = "wmt-conference/wmt26-general-mt"
COMMIT = "a6ae235cd03c474aa2c44e1c66920353310c70c2"
SCRIPT = "humeval/02b-analyze_results.py"
SHA256 = "5322479c78c0179772b3ede0b9ca84079695d8803d00b39da0f4db618d773607"
#: their language codes (utils.LANG_TO_NAME) of the pairs
LANGS = {"en-cs": "eng_Latn---ces_Latn", "en-ja": "eng_Latn---jpn_Jpan"}
SEP = "_###_"
#: their names of the pairs (utils.LANG_TO_NAME) in the global tables
NAMES = {"English---Czech": "en-cs", "English---Japanese": "en-ja"}


def ratings(lp: str) -> list[dict[str, str]]:
    with gzip.open(wmt24_rank_root() / f"{lp}.tsv.gz", "rt", encoding="utf-8") as fh:
        header, *rows = [line.rstrip("\n").split("\t") for line in fh]
    return [dict(zip(header, r, strict=True)) for r in rows]


def item_id(row: dict[str, str]) -> str:
    return SEP.join((row["domain"], row["doc"], row["item"]))


def annotations(lps: list[str]) -> dict[str, list[dict]]:
    """Their input: per pair, one entry per item with every system's score."""
    out = {}
    for lp in lps:
        items: dict[str, dict[str, dict[str, float]]] = {}
        for row in ratings(lp):
            items.setdefault(item_id(row), {})[row["system"]] = {"score": float(row["score"])}
        out[LANGS[lp]] = [{"item": [{"item_id": i}], "annotation": [a]} for i, a in items.items()]
    return out


@contextlib.contextmanager
def stand_ins(seed: int):
    """typst (recording), Agg, and scipy.stats.bootstrap with a fresh seeded stream per call."""
    import matplotlib
    import numpy as np
    import scipy.stats

    matplotlib.use("Agg")
    compiled: list[dict] = []
    typst = types.ModuleType("typst")
    typst.compile = lambda input, sys_inputs, output: compiled.append(  # noqa: A006
        {"template": input, "output": output, **{k: json.loads(v) for k, v in sys_inputs.items()}}
    )
    original = scipy.stats.bootstrap

    def seeded(*args, **kwargs):
        return original(*args, **kwargs, rng=np.random.default_rng(seed))

    sys.modules["typst"] = typst
    scipy.stats.bootstrap = seeded
    try:
        yield compiled
    finally:
        scipy.stats.bootstrap = original
        del sys.modules["typst"]


def run_theirs(checkout: Path, lps: list[str], seed: int) -> tuple[list[dict], dict]:
    """Their analysis on ``lps``: the typeset tables and the run's globals."""
    text = (checkout / SCRIPT).read_bytes()
    if hashlib.sha256(text).hexdigest() != SHA256:
        raise SystemExit(f"{SCRIPT} is not the file of commit {COMMIT} (sha256 differs)")
    old = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="wmt26-rank-") as tmp:
        humeval = Path(tmp) / "humeval"
        (humeval / "data").mkdir(parents=True)
        shutil.copy(checkout / SCRIPT, humeval)
        shutil.copy(checkout / "humeval" / "utils.py", humeval)
        (Path(tmp) / "wmt26_participants.jsonl").write_text("")
        (humeval / "data" / "annotations_filtered.json").write_text(json.dumps(annotations(lps)))
        sys.path.insert(0, str(humeval))
        sys.modules.pop("utils", None)
        try:
            with stand_ins(seed) as compiled, contextlib.redirect_stdout(io.StringIO()):
                env = runpy.run_path(str(humeval / Path(SCRIPT).name), run_name="analysis")
        finally:
            sys.path.remove(str(humeval))
            os.chdir(old)
    return compiled, env


def per_pair(checkout: Path, lp: str, seeds: list[int]) -> dict:
    item_of = {item_id(r): r["item"] for r in ratings(lp)}
    out: dict = {"seeds": {}}
    for seed in seeds:
        compiled, env = run_theirs(checkout, [lp], seed)
        [table] = [c for c in compiled if "results_perlang" in c["output"]]
        order = [item_of[i] for i in env["item_ids"]]
        out.setdefault("item_order", order)
        if order != out["item_order"]:
            out["seeds"][str(seed)] = {"item_order": order}  # (the same within one process)
        out["seeds"].setdefault(str(seed), {})["systems"] = [
            {"system": r["model"], "score": r["scores_mean"], "rank_top": r["rank_top"],
             "rank_bottom": r["rank_bottom"], "line": r["cluster"]}
            for r in table["data"]
        ]  # fmt: skip
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkout", type=Path, required=True,
                        help=f"a checkout of {REPO} at {COMMIT[:7]}")  # fmt: skip
    parser.add_argument("--seeds", type=int, default=20, help="seeds 0 .. N-1 (20)")
    parser.add_argument("--golden", type=Path, default=OUT)
    a = parser.parse_args()
    import numpy
    import scipy

    seeds = list(range(a.seeds))
    lps = {lp: per_pair(a.checkout, lp, seeds) for lp in LANGS}
    compiled, _ = run_theirs(a.checkout, list(LANGS), 0)
    [glob] = [c["data"] for c in compiled if c["output"].endswith("results_global.pdf")]
    [domains] = [c["data"] for c in compiled if c["output"].endswith("results_global_domains.pdf")]
    golden = {
        "what": "WMT26 human ranking: the organisers' 02b-analyze_results.py run unmodified on "
        "WMT24 ESA ratings (tests/data/wmt24_rank) with scipy.stats.bootstrap given "
        "rng=numpy.random.default_rng(seed) per call (scripts/wmt26_rank_golden.py)",
        "organisers_code": {"repo": REPO, "commit": COMMIT, "file": SCRIPT, "sha256": SHA256},
        "command": f"python scripts/wmt26_rank_golden.py --checkout CHECKOUT --seeds {a.seeds}",
        "environment": {"python": platform.python_version(), "numpy": numpy.__version__,
                        "scipy": scipy.__version__},
        "parameters": {"n_resamples": 100, "alpha": 0.05, "seeds": seeds,
                       "rank_range_rule": "wmt26"},
        "lps": lps,
        "global_order": [[m, {NAMES[k]: v for k, v in langs.items()}] for m, langs in glob],
        "domains": {NAMES[name]: row for name, row in domains},
    }  # fmt: skip
    a.golden.parent.mkdir(parents=True, exist_ok=True)
    a.golden.write_text(json.dumps(golden, indent=1) + "\n", encoding="utf-8")
    for lp, g in lps.items():
        print(f"{lp}: {len(g['item_order'])} items, {len(seeds)} seeds")


if __name__ == "__main__":
    main()
