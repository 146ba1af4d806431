"""``mtpalette demo``: score the bundled real data (WMT21 TED, MQM-annotated systems)."""

from __future__ import annotations

from importlib import resources

import typer

from mtpalette.io.plain import read_lines
from mtpalette.metrics import parse_specs
from mtpalette.metrics.scoring import TextPairs, compute_stats

DEMO_METRICS = ["bleu", "bleus:4", "chrf", "nist"]


def demo() -> None:
    """Score every system of the bundled zh-en TED data against its two references."""
    root = resources.files("mtpalette") / "data" / "mqm_ted" / "zhen"
    refs = [read_lines(str(root / "ref.txt")), read_lines(str(root / "refB.txt"))]
    systems = sorted(
        p.name[:-4]
        for p in root.iterdir()
        if p.name.endswith(".txt")
        and p.name not in {"ref.txt", "refB.txt", "source.txt", "seg_ids.txt"}
    )
    from mtpalette.metrics.registry import known_metrics

    specs = [s for s in DEMO_METRICS if s.split(":")[0] in known_metrics()]
    metrics = parse_specs(specs)
    typer.echo(f"WMT21 TED zh-en, {len(refs[0])} segments, 2 references; corpus scores:")
    typer.echo("system".ljust(16) + "".join(m.spec.rjust(10) for m in metrics))
    for system in systems:
        hyps = read_lines(str(root / f"{system}.txt"))
        stats = compute_stats(metrics, TextPairs.parallel(hyps, refs))
        typer.echo(system.ljust(16) + "".join(f"{m.corpus_score(stats[m]):10.2f}" for m in metrics))
