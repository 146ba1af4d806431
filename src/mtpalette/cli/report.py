"""``mtpalette report``: one self-contained HTML file from run files.

Examples::

    mtpalette orange ... --out-dir orange-run/
    mtpalette correlate ... --keep-scores --out-dir corr-run/
    mtpalette report orange-run/run.json corr-run/run.json -o report.html
    mtpalette report ted/run.json news/run.json --labels TED,News -o orange.html

With several runs the report opens with one table of every metric's result, a column per
run and table (the ORANGE paper's tables 2-7 side by side), and a systems table per data set
of the correlation runs.

``orange --report PATH`` and ``correlate --report PATH`` write the report of their own run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def report(
    runs: Annotated[list[Path], typer.Argument(help="Run files (run.json) to report.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="HTML file to write.")] = Path(
        "report.html"
    ),
    title: Annotated[str, typer.Option("--title", help="Page title.")] = "mtpalette report",
    labels: Annotated[
        str | None,
        typer.Option(
            "--labels",
            help="Comma-separated data set names, one per run file "
            "(default: the folder of each run's references or judgments).",
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No messages.")] = False,
) -> None:
    """Write a self-contained HTML report (tables with CIs, plots, error browser)."""
    from rich.console import Console

    from mtpalette.reporting.html import write_report

    names = None if labels is None else [x.strip() for x in labels.split(",")]
    path = write_report(runs, output, title=title, labels=names)
    if path.is_file():  # not standard output (-) or a pipe
        size = path.stat().st_size
        Console(stderr=True, quiet=quiet).print(f"wrote {path} ({size / 1e6:.1f} MB)", style="dim",
                                                 soft_wrap=True)  # fmt: skip
