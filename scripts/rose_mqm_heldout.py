"""ROSE trained on the bundled MQM TED zh-en data, tested on MQM data it never saw.

Trains ROSE-reg with ``mtpalette train-rose --bundled zhen`` in several settings - the
defaults (C and epsilon chosen by 5-fold cross-validation grouped by segment, targets
standardised), ``--loss squared`` as it trained before (C = 1), ``--loss squared`` with C
chosen by cross-validation, and the old fixed default (``--C 1 --epsilon 0.1``) - and scores
them with BLEU-S4 on the expert MQM ratings of WMT21 newstest2021 zh-en (news, not TED: a
different test set and domain; the 8 systems whose outputs are in ``wmt21/txt``, reference A):
segment-level Pearson with 95% bootstrap intervals over segments and significance clusters.

Reads ``../shared/data`` relative to the repository (skips with a message when absent):
``mqm/newstest2021/zhen/mqm_newstest2021_zhen.avg_seg_scores.tsv`` (``seg_id`` is the 1-based
line of the WMT21 files: chrF's segment Pearson with MQM is 0.21 on these rows) and
``wmt21/txt``. Writes ``results/rose/mqm_heldout.{md,json}`` and the models beside them.

    python scripts/rose_mqm_heldout.py [--out-dir results/rose] [--bootstrap 1000]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))
from shared_data import mqm_ted as real_mqm_ted  # noqa: E402  (scripts/shared_data.py)
from shared_data import shared_data  # noqa: E402

DATA = shared_data()
SYSTEMS = ["Borderline", "DIDI-NLP", "Facebook-AI", "IIE-MT", "MiSS", "NiuTrans", "Online-W", "SMU"]
#: label -> train-rose options (besides the real MQM TED zh-en data's)
RUNS = {
    "ROSE (defaults: epsilon-SVR, C and epsilon by CV)": [],
    "ROSE --loss squared (C = 1, as before)": ["--loss", "squared", "--C", "1"],
    "ROSE --loss squared (C by CV)": ["--loss", "squared"],
    "ROSE --C 1 --epsilon 0.1 (fixed, no search)": ["--C", "1", "--epsilon", "0.1"],
}


def heldout_task():
    from mtpalette.cli.correlate import load_task

    mqm = DATA / "mqm/newstest2021/zhen/mqm_newstest2021_zhen.avg_seg_scores.tsv"
    out = DATA / "wmt21/txt/system-outputs"
    files = [out / f"newstest2021.zh-en.hyp.{name}.en" for name in SYSTEMS]
    ref = DATA / "wmt21/txt/references/newstest2021.zh-en.ref.A.en"
    data, _, _ = load_task(judgments=mqm, refs=[ref], systems=files, id_base=1)
    return data.select_items(
        [k for k in range(data.n_items) if (data.human[:, k] == data.human[:, k]).any()]
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out-dir", type=Path, default=REPO / "results" / "rose")
    ap.add_argument("--bootstrap", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=12345)
    args = ap.parse_args(argv)
    if not (DATA / "mqm" / "newstest2021").is_dir() or not (DATA / "wmt21" / "txt").is_dir():
        print(f"skipped: {DATA} (MQM newstest2021 and WMT21 texts) not found", file=sys.stderr)
        return 0
    from typer.testing import CliRunner

    from mtpalette.cli.app import app
    from mtpalette.metaeval.correlation import correlation_table
    from mtpalette.metaeval.segments import score_segments
    from mtpalette.metrics import parse_specs

    args.out_dir.mkdir(parents=True, exist_ok=True)
    zhen = real_mqm_ted("zhen")  # the real WMT21 TED MQM data (--bundled is the invented example)
    real_zhen = [
        *("--judgments", str(zhen["judgments"]), "--seg-ids", str(zhen["seg_ids"])),
        *("--refs", *map(str, zhen["refs"]), "--systems", *map(str, zhen["systems"])),
    ]
    specs, labels, models = ["bleus:4"], {"bleus:4": "BLEU-S4"}, {}
    for k, (label, opts) in enumerate(RUNS.items()):
        path = args.out_dir / f"rose-mqm-zhen-{k}.json"
        started = time.perf_counter()
        result = CliRunner().invoke(app, ["train-rose", *real_zhen, *opts, "-o", str(path), "-q"])
        if result.exit_code != 0:
            raise SystemExit(f"train-rose {' '.join(opts)} failed:\n{result.output}")
        model = json.loads(path.read_text())
        models[label] = {
            "options": opts,
            "file": path.name,
            "seconds": round(time.perf_counter() - started, 1),
            "C": model["info"]["C"],
            "epsilon": model["info"].get("epsilon"),
            "cv": model["info"].get("cv"),
        }
        spec = f"rose:@{path}"
        specs.append(spec)
        labels[f"rose:@{path.name}"] = label
        print(f"trained: {label} ({models[label]['seconds']} s)", flush=True)
    data = heldout_task()
    scores = score_segments(data, parse_specs(specs))
    table = correlation_table(data.pair_data(scores), n_resamples=args.bootstrap, seed=args.seed)
    lines = [
        "# ROSE trained on MQM TED zh-en, tested on MQM newstest2021 zh-en",
        "",
        f"`python scripts/rose_mqm_heldout.py` ({args.bootstrap} bootstrap resamples over "
        f"segments, seed {args.seed}). Test: {data.n_rated} MQM-rated translations of "
        f"{data.n_items} segments by {data.n_systems} systems ({', '.join(data.systems)}), "
        "reference A; higher MQM is better (minus the error penalty). Bold: the first "
        "significance cluster.",
        "",
        "| metric | training | segment Pearson [95% CI] |",
        "|---|---|---|",
    ]
    for row in table.rows:
        label = labels.get(row.metric, row.metric)
        info = models.get(label)
        how = (
            "-"
            if info is None
            else f"C = {info['C']:g}"
            + (f", epsilon = {info['epsilon']:g}" if info["epsilon"] else "")
        )
        mark = "**" if row.cluster == 1 else ""
        ci = f"[{row.ci.low:.3f}, {row.ci.high:.3f}]"
        lines.append(f"| {label} | {how} | {mark}{row.value:.3f}{mark} {ci} |")
    lines += ["", "Cross-validated Pearson on the training data (5 folds grouped by segment):", ""]
    for label, info in models.items():
        cv = info["cv"] or {}
        if "grid" not in cv:
            lines.append(f"- {label}: no search ({cv.get('skipped', 'all given')})")
            continue
        cells = ", ".join(
            " ".join(f"{k}={v:g}" for k, v in row["params"].items()) + f": {row['mean']:.3f}"
            for row in cv["grid"]
        )
        lines.append(f"- {label}: chosen {cv['chosen']}; {cells}")
    (args.out_dir / "mqm_heldout.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (args.out_dir / "mqm_heldout.json").write_text(
        json.dumps(
            {"table": table.to_dict(), "labels": labels, "models": models}, indent=1, default=str
        ),
        encoding="utf-8",
    )
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
