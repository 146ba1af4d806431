"""``mtpalette demo``: the main jobs on the bundled real data (WMT21 TED zh-en, MQM-annotated).

1. Corpus scores of the 13 systems against both human references, with signatures.
2. ORANGE: how each metric ranks the held-out human reference among the 13 systems' outputs
   (leave-one-out over the two references), written to ``--out-dir``.
"""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from mtpalette.cli.orange import orange
from mtpalette.io.plain import read_lines
from mtpalette.metrics import parse_specs
from mtpalette.metrics.scoring import TextPairs, compute_stats

SCORE_METRICS = ["bleu", "bleus:4", "chrf", "nist", "wer", "per", "rouge-l", "rouge-s:4"]
ORANGE_METRICS = [
    "bleus:1..4",
    "nist",
    "chrf",
    "wer",
    "per",
    "rouge-l",
    "rouge-w:1.2",
    "rouge-s:4",
    "rouge-s:*",
]
NOT_SYSTEMS = {"ref.txt", "refB.txt", "source.txt", "seg_ids.txt"}


def demo(
    out_dir: Annotated[
        Path, typer.Option("--out-dir", help="Where the ORANGE run is written.")
    ] = Path("mtpalette-demo"),
) -> None:
    """Score the bundled systems and run ORANGE on them."""
    root = Path(str(resources.files("mtpalette") / "data" / "mqm_ted" / "zhen"))
    ref_paths = [root / "ref.txt", root / "refB.txt"]
    refs = [read_lines(p) for p in ref_paths]
    systems = sorted(p for p in root.glob("*.txt") if p.name not in NOT_SYSTEMS)
    metrics = parse_specs(SCORE_METRICS)
    # a pipe or a file gets rich's 80 columns by default: too narrow for nine columns
    console = Console() if sys.stdout.isatty() else Console(width=160)
    table = Table(title=f"WMT21 TED zh-en: {len(refs[0])} segments, 2 references (corpus scores)")
    table.add_column("system", no_wrap=True)
    for m in metrics:
        table.add_column(m.spec + (" ↓" if not m.higher_is_better else ""), justify="right")
    for path in systems:
        stats = compute_stats(metrics, TextPairs.parallel(read_lines(path), refs))
        table.add_row(path.stem, *(f"{m.corpus_score(stats[m]):.3f}" for m in metrics))
    console.print(table)
    for m in metrics:
        console.print(f"  {m.signature(n_refs=2)}", style="dim")
    console.print()
    orange(
        refs=ref_paths,
        systems=systems,
        metrics=ORANGE_METRICS,
        out_dir=out_dir,
        bootstrap=1000,
        seed=12345,
    )
    console.print(
        f"\nORANGE run written to {out_dir}/ (run.json, table.csv, curve.png, errors.jsonl)"
    )
