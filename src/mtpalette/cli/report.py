"""``mtpalette report``: one self-contained HTML file from run files.

Examples::

    mtpalette orange ... --out-dir orange-run/
    mtpalette correlate ... --keep-scores --out-dir corr-run/
    mtpalette report orange-run/run.json corr-run/run.json -o report.html

``orange --report PATH`` and ``correlate --report PATH`` write the report of their own run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from mtpalette.report.html import write_report


def report(
    runs: Annotated[list[Path], typer.Argument(help="Run files (run.json) to report.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="HTML file to write.")] = Path(
        "report.html"
    ),
    title: Annotated[str, typer.Option("--title", help="Page title.")] = "mtpalette report",
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No messages.")] = False,
) -> None:
    """Write a self-contained HTML report (tables with CIs, plots, error browser)."""
    path = write_report(runs, output, title=title)
    size = path.stat().st_size
    Console(stderr=True, quiet=quiet).print(f"wrote {path} ({size / 1e6:.1f} MB)", style="dim")
