"""ORANGE experiments on real data: the paper's full metric grid on WMT multi-reference sets.

Candidate lists are several MT systems' outputs for the same sources (Limited ORANGE; no
real n-best lists exist offline):

* ``wmt21-de-en``: newstest2021 de-en, 19 systems, references A and B;
* ``wmt21-en-de``: newstest2021 en-de, 20 systems, references A, C and D;
* ``wmt21-en-zh``: newstest2021 en-zh, 29 systems, references A and B, Chinese segmented
  into words (``--tokenize jieba``; ``--zh-tokenize zh`` for sacrebleu's characters);
* ``wmt19-en-de``: newstest2019 en-de, 22 systems, 8 references (the official one, NTREX and
  Google's 6 extra references).

Each experiment runs ``mtpalette orange`` for each oracle definition, writing
``OUT/<experiment>/<oracle>/{run.json,table.csv,curve.csv,curve.png,errors.jsonl}``, and the
script collects every table into ``OUT/summary.md`` in the paper's layout. Metric families
not registered yet are skipped with a note.

Usage::

    python scripts/orange_experiments.py --out-dir results/orange
    python scripts/orange_experiments.py --out-dir /tmp/o --segments 40 --bootstrap 100  # check
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from shared_data import shared_data  # noqa: E402  (scripts/shared_data.py)

DATA = shared_data()
GRID = ["bleus:1..9", "nist", "wer", "per", "rouge-l", "rouge-w:1.1..2.0/0.1", "rouge-s:0..9,*"]
W21 = DATA / "wmt21" / "txt"
W19 = DATA / "wmt17-19" / "WMT19"
EXTRA = DATA / "wmt19-extra-refs" / "wmt19" / "ende"


def experiments(zh_tokenize: str) -> dict[str, dict]:
    def w21(lp: str, refs: str, tgt: str, tok: str = "13a") -> dict:
        return {
            "refs": [W21 / "references" / f"newstest2021.{lp}.ref.{r}.{tgt}" for r in refs],
            "systems_dir": W21 / "system-outputs",
            "glob": f"newstest2021.{lp}.hyp.*",
            "tokenize": tok,
        }

    return {
        "wmt21-de-en": w21("de-en", "AB", "en"),
        "wmt21-en-de": w21("en-de", "ACD", "de"),
        "wmt21-en-zh": w21("en-zh", "AB", "zh", zh_tokenize),
        "wmt19-en-de": {
            "refs": [
                W19 / "references" / "newstest2019-ende-ref.de",
                DATA / "ntrex" / "NTREX-128" / "newstest2019-ref.deu.txt",
                *(
                    EXTRA / f"wmt19-ende-{n}.ref"
                    for n in ("ar", "arp", "hqall", "hqp", "hqr", "wmtp")
                ),
            ],
            "systems_dir": W19 / "system-outputs" / "en-de",
            "glob": "newstest2019.*",
            "tokenize": "13a",
        },
    }


def _slice(files: list[Path], n: int, folder: Path) -> list[Path]:
    """The first ``n`` lines of each file, copied into ``folder`` (same file names)."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for f in files:
        lines = f.read_text(encoding="utf-8").split("\n")[:n]
        target = folder / f.name
        target.write_text("\n".join(lines) + "\n", encoding="utf-8")
        out.append(target)
    return out


def run_one(name: str, exp: dict, oracle: str, specs: list[str], args) -> Path:
    from mtpalette.cli.app import app
    from mtpalette.io.nbest import list_system_files

    refs = list(exp["refs"])
    systems = list_system_files(exp["systems_dir"], pattern=exp["glob"])
    if args.segments:
        tmp = Path(args.out_dir) / "_slices" / name
        refs = _slice(refs, args.segments, tmp / "refs")
        systems = _slice(systems, args.segments, tmp / "systems")
    out = Path(args.out_dir) / name / oracle
    argv = [
        "orange",
        "--refs",
        *map(str, refs),
        "--systems",
        *map(str, systems),
        "-m",
        *specs,
        "--oracle",
        oracle,
        "--bootstrap",
        str(args.bootstrap),
        "--seed",
        str(args.seed),
        "--tokenize",
        exp["tokenize"],
        "--out-dir",
        str(out),
    ]
    if args.quiet:
        argv.append("--quiet")
    print(
        f"\n=== {name} ({len(systems)} systems, {len(refs)} references, "
        f"tokenize {exp['tokenize']}), oracle {oracle}",
        flush=True,
    )
    app(argv, standalone_mode=False)
    return out / "run.json"


def markdown(run_file: Path, name: str) -> str:
    run = json.loads(run_file.read_text(encoding="utf-8"))
    t = run["results"]["table"]
    n = t["n_candidates"]
    head = (
        f"### {name}, oracle `{t['oracle']}`\n\n"
        f"{t['n_segments']} segments, {t['n_refs']} references, {n['max']} systems per "
        f"list, ties `{t['ties']}`, bootstrap {t['bootstrap']} (seed {t['seed']}), "
        f"tokenize `{run['settings']['tokenize']}`. **bold** = best, = : statistically "
        "equivalent to the best (95% paired bootstrap).\n\n"
        "| Method | ORANGE | Avg Rank | 95%-CI-L | 95%-CI-U | |\n"
        "|---|---:|---:|---:|---:|---|\n"
    )
    lines = []
    for r in t["rows"]:
        mark = "**best**" if r["best"] else ("=" if r["equivalent_to_best"] else "")
        low = "-" if r["avg_rank_low"] is None else f"{r['avg_rank_low']:.2f}"
        high = "-" if r["avg_rank_high"] is None else f"{r['avg_rank_high']:.2f}"
        method = f"**{r['metric']}**" if r["best"] else r["metric"]
        lines.append(
            f"| {method} | {100 * r['orange']:.2f}% | {r['avg_rank']:.2f} | {low} "
            f"| {high} | {mark} |"
        )
    return head + "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--only", nargs="+", help="experiment names (default: all)")
    ap.add_argument("--oracles", nargs="+", default=["leave-one-out", "average-score"])
    ap.add_argument("--metrics", nargs="+", default=GRID)
    ap.add_argument("--segments", type=int, help="use only the first N segments (a check)")
    ap.add_argument("--bootstrap", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--zh-tokenize", default="jieba", choices=["jieba", "zh", "char"])
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    if not DATA.is_dir():
        print(f"SKIP: {DATA} is absent")
        return 0
    from mtpalette.metrics import known_metrics

    specs = []
    for spec in args.metrics:
        if spec.split(":", 1)[0] in known_metrics():
            specs.append(spec)
        else:
            print(f"note: metric family of {spec!r} is not available yet; skipped")
    Path(args.out_dir).mkdir(parents=True, exist_ok=True)
    todo = experiments(args.zh_tokenize)
    names = args.only or list(todo)
    unknown = set(names) - set(todo)
    if unknown:
        ap.error(f"unknown experiments {sorted(unknown)}; known: {', '.join(todo)}")
    parts = [
        "# ORANGE on WMT multi-reference test sets\n",
        "Candidate lists: the MT systems' outputs for each segment (Limited ORANGE). "
        f"Metrics: {' '.join(specs)}.\n",
    ]
    if args.segments:
        parts.append(f"**Only the first {args.segments} segments of each set (a check).**\n")
    for name in names:
        for oracle in args.oracles:
            run_file = run_one(name, todo[name], oracle, specs, args)
            parts.append(markdown(run_file, name))
    summary = Path(args.out_dir) / "summary.md"
    summary.write_text("\n".join(parts), encoding="utf-8")
    print(f"\nwrote {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
