"""``mtpalette demo``: the main jobs on the bundled example data, zh-en, which the project
invented (``scripts/make_demo_data.py``; ``data/example/README.md``): sentences from a small
grammar, two independent references, 8 "systems" made by seeded errors, and MQM-style ratings
derived from those errors (synthetic, not human). Real data is not shipped: the README says
how to run the same commands on the WMT21 TED MQM data.

1. Corpus scores of the 8 systems against both references, with signatures, as a table (the
   best system per metric in bold).
2. ORANGE: how each metric ranks the held-out reference among the 8 systems' outputs
   (leave-one-out over the two references), written to ``--out-dir``/orange.
3. Correlation of the same metrics with the synthetic MQM scores (Pearson and Kendall, 95%
   intervals), at segment level (``--out-dir``/correlation) and at system level, the systems'
   corpus scores against their mean score (``--out-dir``/correlation-system).
4. The HTML report of the three runs, ``--out-dir``/report.html.

The metrics shown are those of :data:`SCORE_METRICS` / :data:`ORANGE_METRICS` whose family
is registered, so the demo follows the families the package has.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from mtpalette.errors import UserInputError

if TYPE_CHECKING:
    from rich.table import Table

    from mtpalette.metrics import Metric

#: metrics of the score table, in display order (those of unregistered families are skipped)
SCORE_METRICS = ["bleu", "bleus:4", "chrf", "wer", "per", "rouge-l", "rouge-w:1.2", "rouge-s:4"]
#: metrics of the ORANGE table
ORANGE_METRICS = ["bleus:1..4", *SCORE_METRICS[2:], "rouge-s:*"]
#: further families suggested at the end of the demo
MORE_METRICS = ["nist", "ter", "gtm", "rouge-su:4"]
DATA = ("data", "example", "mqm", "zhen")
REFERENCES = ("ref.txt", "refB.txt")
NOT_SYSTEMS = {*REFERENCES, "source.txt", "seg_ids.txt"}


def available(specs: list[str]) -> list[str]:
    """The specs whose metric family is registered.

    Examples
    --------
    >>> available(["bleus:1..4", "no-such-family:3"])
    ['bleus:1..4']
    """
    from mtpalette.metrics.registry import registered

    return registered(specs)[0]


def demo(
    out_dir: Annotated[
        Path, typer.Option("--out-dir", help="Where the ORANGE run is written.")
    ] = Path("mtpalette-demo"),
    metrics: Annotated[
        list[str] | None,
        typer.Option(
            "--metrics",
            "-m",
            help="Metric specs for both tables instead of the default set: -m nist ter.",
        ),
    ] = None,
) -> None:
    """Score the example systems (invented by mtpalette), run ORANGE and the correlation
    with their synthetic MQM-style ratings, write the report."""
    from rich.console import Console

    from mtpalette.api.correlation_run import CorrelationOutputs, CorrelationRun, run_correlation
    from mtpalette.api.orange_run import OrangeOutputs, OrangeRun, run_orange
    from mtpalette.cli.console import emit_signatures, emit_table, result_console
    from mtpalette.cli.tables import show_correlation, show_orange
    from mtpalette.io.plain import read_lines
    from mtpalette.metrics import parse_specs
    from mtpalette.progress import ConsoleFeedback
    from mtpalette.reporting.html import write_report
    from mtpalette.sources.inputs import CandidateInputs, JudgedInputs
    from mtpalette.sources.scoring import score_systems

    root = Path(str(resources.files("mtpalette").joinpath(*DATA)))
    ref_paths = [root / name for name in REFERENCES]
    systems = sorted(p for p in root.glob("*.txt") if p.name not in NOT_SYSTEMS)
    console = result_console()

    if out_dir.exists() and not out_dir.is_dir():
        raise UserInputError("--out-dir is a file; expected a folder (new or existing)",
                             path=str(out_dir))  # fmt: skip
    score_specs = metrics or available(SCORE_METRICS)
    parsed = parse_specs(score_specs)
    refs = [read_lines(p) for p in ref_paths]
    scored = score_systems({p.stem: read_lines(p) for p in systems}, refs, score_specs)
    scores = {name: [s.value for s in result.corpus] for name, result in scored.items()}
    title = (
        f"Example zh-en (invented by mtpalette): {len(refs[0])} segments, {len(refs)} "
        "references (corpus scores)"
    )
    emit_table(console, score_table(parsed, scores, title=title, marked=console.is_terminal))
    emit_signatures(console, next(iter(scored.values())).signatures)
    console.print()
    orange_dir, corr_dir = out_dir / "orange", out_dir / "correlation"
    system_dir = out_dir / "correlation-system"
    notes = Console(stderr=True)
    feedback = ConsoleFeedback(notes)
    candidates = CandidateInputs(ref_paths, systems=systems)
    orange_metrics = metrics or available(ORANGE_METRICS)
    ranking = OrangeRun(candidates, orange_metrics, outputs=OrangeOutputs(out_dir=orange_dir))
    show_orange(run_orange(ranking, feedback), notes)
    common = dict(statistics=["pearson", "kendall"], test="bootstrap", metrics=score_specs)
    for level, folder, keep in (("segment", corr_dir, True), ("system", system_dir, False)):
        console.print()
        outputs = CorrelationOutputs(out_dir=folder, keep_scores=keep)
        run = CorrelationRun(JudgedInputs(bundled="zhen"), level=level, outputs=outputs, **common)
        show_correlation(run_correlation(run, feedback), notes)
    report = write_report(
        [orange_dir / "run.json", corr_dir / "run.json", system_dir / "run.json"],
        out_dir / "report.html",
        title="mtpalette demo: example zh-en data (invented; synthetic MQM-style ratings)",
    )
    console.print(
        f"\nORANGE run: {orange_dir}/ (run.json, table.csv, curve.png, errors.jsonl); "
        f"correlation runs: {corr_dir}/ (segment level), {system_dir}/ (system level)\n"
        f"[bold]Report: {report}[/bold] (open it in a browser)"
    )
    more = [s for s in available(MORE_METRICS) if s not in score_specs]
    if more:
        console.print(f"Other metrics: mtpalette demo -m {' '.join(more)}", style="dim")


def score_table(
    metrics: list[Metric], scores: dict[str, list[float]], *, title: str, marked: bool = True
) -> Table:
    """A rich table of systems by metrics; with ``marked`` (a terminal), the best value of
    each column in bold (TSV shows no bold, so its caption does not speak of it)."""
    import numpy as np
    from rich.table import Table

    caption = ("bold: the best system for that metric; " if marked else "") + "↓: lower is better"
    table = Table(
        title=title,
        caption=caption,
        caption_justify="left",
        min_width=max(len(title), len(caption)) + 4,
    )
    table.add_column("system", no_wrap=True)
    for m in metrics:
        table.add_column(m.spec + ("" if m.higher_is_better else " ↓"), justify="right")
    values = np.array(list(scores.values()), dtype=np.float64).reshape(len(scores), len(metrics))
    best = [
        (np.nanmax if m.higher_is_better else np.nanmin)(values[:, j])
        for j, m in enumerate(metrics)
    ]
    for name, row in zip(scores, values, strict=True):
        table.add_row(
            name,
            *(
                f"[bold]{v:.3f}[/bold]" if marked and v == best[j] else f"{v:.3f}"
                for j, v in enumerate(row)
            ),
        )
    return table
