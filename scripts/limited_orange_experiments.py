"""Limited ORANGE on real data: the vertical (metric vs -syn) and horizontal (BLEUS vs ROUGE-L
vs ROUGE-S) comparisons of Yu et al., Tables IV-V.

Set-up, as in the paper (four online systems, one reference, a pivot translation):

* Chinese: WMT21 en-zh; candidates Online-A, -B, -G, -Y; reference A; pivot Online-W; Chinese
  segmented with jieba; synonyms from Cilin; the 4-gram LM trained on 9,943 real Chinese
  sentences of other test sets (NTREX-128 zh, WMT19 en-zh references, WMT19/17 zh-en and WMT21
  zh-en sources); IBM Model 1 P(S|T) trained on 3,994 en-zh pairs (NTREX-128, WMT19 en-zh);
* English: WMT21 de-en; the same online systems; reference A; pivot Online-W; synonyms from
  WordNet (``/usr/share/wordnet``, skipped when absent); LM on the English references of WMT17
  and WMT19 de-en; P(S|T) on their German-English pairs.

Each language runs three rankings: the paper's features (ade, flu, sim; ``pivot`` mode, where
ade and flu reduce to the pivot similarity m), the same features in ``direct`` mode (each
translation's own LM and TM probabilities), and sim alone. Writes ``OUT/limited_orange.md``.

Usage::

    python scripts/limited_orange_experiments.py --out-dir results
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from shared_data import shared_data  # noqa: E402  (scripts/shared_data.py)

METRICS = ["bleus:4", "bleus-syn:4", "rouge-l", "rouge-l-syn", "rouge-s:*", "rouge-s-syn:*"]
SYSTEMS = ["Online-A", "Online-B", "Online-G", "Online-Y"]
RUNS = [
    ("ade+flu+sim, pivot mode (the paper)", ["--features", "ade,flu,sim"]),
    ("ade+flu+sim, direct mode", ["--features", "ade,flu,sim", "--feature-mode", "direct"]),
    ("sim only", ["--features", "sim"]),
]


def setups(d: Path) -> dict[str, dict]:
    w = d / "wmt21" / "txt"
    w17, w19 = d / "wmt17-19" / "WMT17", d / "wmt17-19" / "WMT19"

    def lp(pair: str, tgt: str) -> dict:
        hyp = w / "system-outputs" / f"newstest2021.{pair}.hyp"
        return {
            "refs": [w / "references" / f"newstest2021.{pair}.ref.A.{tgt}"],
            "systems": [Path(f"{hyp}.{s}.{tgt}") for s in SYSTEMS],
            "pivot": Path(f"{hyp}.Online-W.{tgt}"),
            "source": w / "sources" / f"newstest2021.{pair}.src.{pair[:2]}",
        }

    return {
        "Chinese (WMT21 en-zh)": {
            **lp("en-zh", "zh"),
            "tokenize": "jieba",
            "synonyms": "cilin",
            "lm": [
                d / "ntrex" / "NTREX-128" / "newstest2019-ref.zho-CN.txt",
                w19 / "references" / "newstest2019-enzh-ref.zh",
                w19 / "source" / "newstest2019-zhen-src.zh",
                w17 / "source" / "newstest2017-zhen-src.zh",
                w / "sources" / "newstest2021.zh-en.src.zh",
            ],
            "tm_source": [
                d / "ntrex" / "NTREX-128" / "newstest2019-src.eng.txt",
                w19 / "source" / "newstest2019-enzh-src.en",
            ],
            "tm_target": [
                d / "ntrex" / "NTREX-128" / "newstest2019-ref.zho-CN.txt",
                w19 / "references" / "newstest2019-enzh-ref.zh",
            ],
        },
        "English (WMT21 de-en)": {
            **lp("de-en", "en"),
            "tokenize": "13a",
            "synonyms": "wordnet",
            "lm": [
                w17 / "references" / "newstest2017-deen-ref.en",
                w19 / "references" / "newstest2019-deen-ref.en",
            ],
            "tm_source": [
                w17 / "source" / "newstest2017-deen-src.de",
                w19 / "source" / "newstest2019-deen-src.de",
            ],
            "tm_target": [
                w17 / "references" / "newstest2017-deen-ref.en",
                w19 / "references" / "newstest2019-deen-ref.en",
            ],
        },
    }


def run(setup: dict, extra: list[str], out_dir: Path, args) -> dict[str, dict]:
    from mtpalette.cli.app import app

    argv = [
        "orange",
        "--refs",
        *map(str, setup["refs"]),
        "--systems",
        *map(str, setup["systems"]),
        "--pivot",
        str(setup["pivot"]),
        "--source",
        str(setup["source"]),
        "--lm-text",
        *map(str, setup["lm"]),
        "--tm-source",
        *map(str, setup["tm_source"]),
        "--tm-target",
        *map(str, setup["tm_target"]),
        "--synonyms",
        setup["synonyms"],
        "--tokenize",
        setup["tokenize"],
        "-m",
        *(f"{m},syn={setup['synonyms']}" if "-syn" in m else m for m in METRICS),
        "--bootstrap",
        str(args.bootstrap),
        "--seed",
        str(args.seed),
        "--out-dir",
        str(out_dir),
        "-q",
        *extra,
    ]
    try:
        app(argv, standalone_mode=False)
    except SystemExit as exc:
        if exc.code:
            raise
    with open(out_dir / "table.csv", encoding="utf-8") as fh:
        return {re.sub(r"[:,]syn=[^,]*", "", r["metric"]): r for r in csv.DictReader(fh)}


def main(argv=None) -> int:
    from mtpalette.io.runfile import atomic_writer

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out-dir", type=Path, required=True)
    ap.add_argument("--data-dir", type=Path, default=shared_data())
    ap.add_argument("--bootstrap", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=12345)
    args = ap.parse_args(argv)
    if not (args.data_dir / "wmt21").is_dir():
        print(f"SKIP: {args.data_dir / 'wmt21'} is absent")
        return 0
    lines = [
        "# Limited ORANGE: one reference, four online systems, a pivot\n",
        "ORANGE (%) of the human reference ranked among 4 systems by the combined feature "
        f"score (lower is better), 95% bootstrap interval ({args.bootstrap} resamples over "
        f"segments, seed {args.seed}); '=': equivalent to the best (paired bootstrap).\n",
    ]
    for name, setup in setups(args.data_dir).items():
        if setup["synonyms"] == "wordnet" and not Path("/usr/share/wordnet/data.noun").exists():
            lines.append(f"_SKIP {name}: WordNet (Debian wordnet-base) is not installed._\n")
            continue
        lines += [
            f"## {name}\n",
            "| ranking | " + " | ".join(METRICS) + " |",
            "|---|" + "---:|" * len(METRICS),
        ]
        for label, extra in RUNS:
            with tempfile.TemporaryDirectory() as tmp:
                rows = run(setup, extra, Path(tmp), args)
            cells = []
            for m in METRICS:
                r = rows[m]
                mark = (
                    " best"
                    if r["best"] == "True"
                    else (" =" if r["equivalent_to_best"] == "True" else "")
                )
                cells.append(f"{100 * float(r['orange']):.2f}{mark}")
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
            print(f"  {name}: {label}", flush=True)
        lines.append("")
    with atomic_writer(args.out_dir / "limited_orange.md") as fh:
        fh.write("\n".join(lines) + "\n")
    print(f"wrote {args.out_dir / 'limited_orange.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
