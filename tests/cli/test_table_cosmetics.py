"""Tables in pipes read well (issue 54): intervals as ``[a, b]`` (never ``-0.097 - -0.033``),
one number of decimals per column, no note about bold inside TSV output."""

from __future__ import annotations

import io

import numpy as np
from rich.console import Console

from mtpalette.cli.console import emit_table
from mtpalette.cli.demo import score_table
from mtpalette.cli.tables import _ci
from mtpalette.metrics import parse_specs


def test_intervals_are_bracketed_even_when_negative():
    assert _ci(-0.0971, -0.0333, 3) == "[-0.097, -0.033]"
    assert _ci(1.0, 2.5, 2) == "[1.00, 2.50]"
    assert _ci(float("nan"), 0.0, 2) == "-"


def test_a_piped_score_table_does_not_speak_of_bold():
    metrics = parse_specs(["chrf", "ter"])
    scores = {"A": [50.0, 40.0], "B": [55.5, 45.25]}
    out = io.StringIO()
    emit_table(Console(file=out, width=10**6), score_table(metrics, scores, title="t",
                                                           marked=False))  # fmt: skip
    text = out.getvalue()
    assert "bold" not in text and "[/" not in text
    assert text.splitlines()[-1] == "# ↓: lower is better"
    rows = [line.split("\t") for line in text.splitlines()[2:-1]]
    assert rows == [["A", "50.000", "40.000"], ["B", "55.500", "45.250"]]
    decimals = {len(cell.split(".")[1]) for row in rows for cell in row[1:]}
    assert decimals == {3}
    marked = score_table(metrics, scores, title="t")
    assert "bold" in str(marked.caption) and np.isfinite(len(marked.rows))
