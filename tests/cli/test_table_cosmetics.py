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


def test_a_piped_agreement_table_names_every_column_and_brackets_its_intervals():
    """agree's TSV: every column named in full (no two alike, no trailing blank, where
    "95% CI " and "# " told the halves apart), intervals as [a, b], one number of decimals
    per column; the numbers are invented."""
    from types import SimpleNamespace as NS

    from mtpalette.cli.tables import print_agreement

    def ci(value, low, high):
        return NS(value=value, low=low, high=high)

    rows = [NS(metric="m1", orange=ci(0.3806, 0.3273, 0.4352), orange_rank=2,
               correlation=ci(0.4275, 0.381, 0.4804), human_rank=1),
            NS(metric="m2", orange=ci(0.362, 0.3097, 0.4185), orange_rank=1,
               correlation=ci(-0.0412, -0.0971, -0.0333), human_rank=2)]  # fmt: skip
    a = NS(confidence=0.95, statistic="kendall", oracle="leave-one-out", ties="mid",
           grouping="none", n_systems=8, n_segments=60, n_refs=2, rows=rows,
           tau=ci(-1.0, -1.0, 1.0), n_resamples=1000, seed=1, note=None,
           reference_orange={})  # fmt: skip
    out = io.StringIO()
    print_agreement(Console(file=out, width=10**6), a)
    lines = out.getvalue().splitlines()
    header = lines[1].split("\t")
    assert header == ["Metric", "ORANGE %", "ORANGE 95% CI", "ORANGE #", "tau-b",
                      "tau-b 95% CI", "tau-b #"]  # fmt: skip
    assert lines[3].split("\t") == ["m2", "36.20", "[30.97, 41.85]", "1", "-0.0412",
                                     "[-0.0971, -0.0333]", "2"]  # fmt: skip
    assert "between the two orderings: -1.000 [-1.000, 1.000] (95%" in lines[4]
