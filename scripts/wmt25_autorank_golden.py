"""Golden values of WMT25's AutoRank (``mtpalette rank --wmt25-scores DIR --autorank wmt25``),
computed by running the organisers' own code (run, never copied) on their public inputs.

Sources (read-only checkouts, not part of this repository):

* prosho-97/wmt-automatic-eval at 2d6481485d5d4db5b3e452669de860c5f2127a08 (2025-09-20):
  ``autorank/compute_autorank.py`` (``compute_autorank``: the system score, the robust scaling,
  the metrics kept per language pair, ``average_and_rank``);
* wmt-conference/wmt25-general-mt at ebae87369fc8931d7f1c6faf8192e8f04a480d1f (2025-08-26):
  the inputs ``data/automatic_scores/<system>.jsonl`` and ``data/systems_metadata_updated3.json``
  (the metadata file ``compute_autorank.py`` reads by default), and the published preliminary
  ranking ``preliminary_ranking/latex_source/generated_report.tex`` (the tables of
  ``WMT25_preliminary_ranking.pdf``, AutoRank printed to one decimal).

``compute_autorank.py`` reads one pickle per metric, ``<dir>/<metric>/outputs.pickle``:
``{system: {lp: {domain: {document_id: [paragraph scores]}}}}``. The pickles of three metrics
are not in their repository (too large), so this script writes all of them, in a temporary
folder, from the public ``automatic_scores`` JSON Lines (the same scores, per document, one
file per system), then imports their module unmodified (``ipdb``, which it imports and never
uses, is given a stand-in module) and calls its ``compute_autorank(lp, args)`` for every
language pair, with its default metadata file and no domain. Its returned table gives every
system's AutoRank and each metric's system score (``<metric>_raw``), recorded at full
precision (the robust z of each metric, which their table also has, is left out: the
AutoRank depends on it alone). The printed AutoRank of the published report is compared
with theirs.

Usage (from the repository root; numpy, pandas)::

    git clone https://github.com/prosho-97/wmt-automatic-eval /tmp/wmt-automatic-eval
    git -C /tmp/wmt-automatic-eval checkout 2d6481485d5d4db5b3e452669de860c5f2127a08
    git clone https://github.com/wmt-conference/wmt25-general-mt /tmp/wmt25-general-mt
    git -C /tmp/wmt25-general-mt checkout ebae87369fc8931d7f1c6faf8192e8f04a480d1f
    python scripts/wmt25_autorank_golden.py --autoeval /tmp/wmt-automatic-eval \\
        --wmt25 /tmp/wmt25-general-mt

It writes ``tests/data/wmt25/autorank_golden.json``. ``tests/metaeval/test_wmt25_autorank.py``
compares mtpalette with it when ``$MTPALETTE_WMT25_DIR`` names the wmt25-general-mt checkout.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import pickle
import platform
import re
import runpy
import sys
import tempfile
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "wmt25" / "autorank_golden.json"
AUTOEVAL = ("prosho-97/wmt-automatic-eval", "2d6481485d5d4db5b3e452669de860c5f2127a08")
WMT25 = ("wmt-conference/wmt25-general-mt", "ebae87369fc8931d7f1c6faf8192e8f04a480d1f")
METADATA = "data/systems_metadata_updated3.json"
REPORT = "preliminary_ranking/latex_source/generated_report.tex"


def write_pickles(scores_dir: Path, out: Path) -> list[str]:
    """Their input layout from the public JSON Lines: one pickle per metric."""
    per_metric: dict[str, dict] = {}
    for path in sorted(scores_dir.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            for metric, values in row["metric_scores"].items():
                lps = per_metric.setdefault(metric, {}).setdefault(path.stem, {})
                docs = lps.setdefault(row["language_pair"], {}).setdefault(row["domain"], {})
                docs[row["document_id"]] = values
    for metric, outputs in per_metric.items():
        (out / metric).mkdir(parents=True)
        with open(out / metric / "outputs.pickle", "wb") as fh:
            pickle.dump(outputs, fh)
    return sorted(per_metric)


def their_module(autoeval: Path) -> dict:
    sys.modules.setdefault("ipdb", types.ModuleType("ipdb"))  # imported, never used
    return runpy.run_path(str(autoeval / "autorank" / "compute_autorank.py"),
                          run_name="compute_autorank")  # fmt: skip


def published(report: str, mod: dict) -> dict[str, dict[str, str]]:
    """``{language pair: {system: printed AutoRank}}`` from the report's tables (systems by
    their own names: the report's renames undone)."""
    names = {}
    for lp in mod["human_evaluated_lps"] + _other_lps(mod):
        names[_pretty(lp, mod["LANG_CODE_2_LANG_COUNTRY"])] = lp
    back = {v: k for k, v in mod["system_renames"].items()}
    out: dict[str, dict[str, str]] = {}
    for block in report.split("\\begin{table*}")[1:]:
        title = re.search(r"\\textbf\{([^}]*)\}", block).group(1)
        lines = [x.strip() for x in block.splitlines()]
        header = next(x for x in lines if x.startswith("System Name"))
        at = [c.strip() for c in header.split("&")].index("AutoRank $\\downarrow$")
        start = lines.index(header) + 2
        rows = {}
        for x in lines[start:]:
            if x.startswith("\\bottomrule"):
                break
            if x.startswith("\\rowcolor") or not x:
                continue
            cells = [c.strip() for c in x.removesuffix("\\\\").split("&")]
            name = cells[0].removeprefix("\\official ").replace("\\_", "_").replace("\\&", "&")
            rows[back.get(name, name)] = re.sub(r"\\cellcolor\{[^}]*\}", "", cells[at])
        out[names[title]] = rows
    return out


def _other_lps(mod: dict) -> list[str]:
    """The pairs their ``__main__`` ranks besides the human-evaluated ones."""
    return ["en-bn_BD", "en-de_DE", "en-el_GR", "en-fa_IR", "en-hi_IN", "en-id_ID", "en-kn_IN",
            "en-lt_LT", "en-mr_IN", "en-ro_RO", "en-th_TH", "en-sr_Latn_RS", "en-sv_SE",
            "en-tr_TR", "en-vi_VN"]  # fmt: skip


def _pretty(lp: str, names: dict) -> str:
    def one(code: str) -> str:
        entry = names.get(code) or names.get(code.split("_")[0]) or {}
        return entry.get("language", code)

    src, tgt = lp.split("-")
    return f"{one(src)}-{one(tgt)}"


def run(autoeval: Path, wmt25: Path) -> dict:
    mod = their_module(autoeval)
    lps = mod["human_evaluated_lps"] + _other_lps(mod)
    printed = published((wmt25 / REPORT).read_text(encoding="utf-8"), mod)
    result: dict = {}
    with tempfile.TemporaryDirectory(prefix="wmt25-autorank-") as tmp:
        outputs, res = Path(tmp) / "metrics_outputs", Path(tmp) / "res"
        res.mkdir()
        metrics = write_pickles(wmt25 / "data" / "automatic_scores", outputs)
        args = argparse.Namespace(metrics_outputs_path=outputs, teams_path=wmt25 / METADATA,
                                  lps=[], domain=None, out_path=res)  # fmt: skip
        for lp in lps:
            with contextlib.redirect_stdout(io.StringIO()):
                df, _ = mod["compute_autorank"](lp, args)
            shown = [c.removesuffix("_raw") for c in df.columns if c.endswith("_raw")]
            combined = ["chrF++"] if lp in mod["chrf_only"] else shown
            systems = []
            for name, row in df.iterrows():
                systems.append({
                    "system": name, "autorank": float(row["autorank"]),
                    "scores": {m: float(row[f"{m}_raw"]) for m in shown},
                })  # fmt: skip
            mine = {s["system"]: f"{round(s['autorank'], 1)}" for s in systems}
            pub = printed.get(lp, {})
            result[lp] = {
                "metrics": combined, "shown": shown, "systems": systems, "published": pub,
                "published_equal": sum(mine.get(k) == v for k, v in pub.items()),
            }  # fmt: skip
    return {"metrics_in_inputs": metrics, "lps": result}


def _one_line(m: re.Match) -> str:
    return "{" + re.sub(r"\s*\n\s*", " ", m.group(1)) + "}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--autoeval", type=Path, required=True,
                        help="checkout of prosho-97/wmt-automatic-eval")  # fmt: skip
    parser.add_argument("--wmt25", type=Path, required=True,
                        help="checkout of wmt-conference/wmt25-general-mt")  # fmt: skip
    parser.add_argument("--golden", type=Path, default=OUT)
    a = parser.parse_args()
    import numpy
    import pandas

    body = run(a.autoeval, a.wmt25)
    golden = {
        "what": "WMT25 AutoRank per language pair, from the organisers' compute_autorank.py "
        "run unmodified on the public automatic_scores (scripts/wmt25_autorank_golden.py)",
        "organisers_code": {"repo": AUTOEVAL[0], "commit": AUTOEVAL[1],
                            "file": "autorank/compute_autorank.py"},
        "inputs": {"repo": WMT25[0], "commit": WMT25[1], "scores": "data/automatic_scores",
                   "metadata": METADATA, "published": REPORT},
        "command": "python scripts/wmt25_autorank_golden.py --autoeval CHECKOUT --wmt25 CHECKOUT",
        "environment": {"python": platform.python_version(), "numpy": numpy.__version__,
                        "pandas": pandas.__version__},
        **body,
    }  # fmt: skip
    a.golden.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(golden, indent=1)
    # one line per system (the file is long but diffs by system)
    text = re.sub(r"\{\n\s+(\"system\"[^{}]*?\{[^{}]*\})\n\s+\}", _one_line, text)
    a.golden.write_text(text + "\n", encoding="utf-8")
    for lp, g in body["lps"].items():
        print(f"{lp}: {len(g['systems'])} systems, printed AutoRank equal for "
              f"{g['published_equal']} of {len(g['published'])}")


if __name__ == "__main__":
    main()
