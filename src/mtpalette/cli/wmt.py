"""``mtpalette wmt``: a WMT task set (WMT23, WMT24, WMT25 or your own) on an mt-metrics-eval
folder: each task's table, then the global ranking, as WMT's results papers print them.

Options -> :class:`~mtpalette.api.wmt_run.WmtRun` -> :func:`~mtpalette.api.wmt_run.run_wmt`
-> the tables below.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtpalette.api.wmt_run import WmtRun
from mtpalette.cli import options as o
from mtpalette.cli.console import (
    emit_note,
    emit_signatures,
    emit_table,
    result_console,
    show_written,
)

if TYPE_CHECKING:
    from rich.console import Console


@o.with_options(WmtRun, o.QUIET)
def wmt(**options) -> None:
    """Rank metrics as WMT does: per-task correlations and clusters, global ranking.

    Examples: `mtpalette wmt --mtme wmt24 --task-set wmt24 -m bleu chrf --mtme-metrics all
    -k 1000`; `mtpalette wmt --mtme wmt23 --task-set wmt23 --lp en-de,zh-en --json out.json`;
    `--draws independent --backend processes --workers 2` spreads the tests over 2 processes.
    """
    from rich.console import Console

    from mtpalette.api.wmt_run import run_wmt
    from mtpalette.progress import ConsoleFeedback

    console = Console(stderr=True, quiet=options["quiet"])
    show_wmt(run_wmt(o.fill(WmtRun, options), ConsoleFeedback(console)), console)


def show_wmt(out, console: Console) -> None:
    """Each task's table, then the global ranking (from the result's own lists: no pandas
    on the way to the terminal)."""
    from rich.table import Table

    show_written(console, out.outputs)
    stdout = result_console()
    res = out.result
    rows = zip(out.task_names, res.results, res.weights, strict=True)
    for n, (name, r, weight) in enumerate(rows, 1):
        table = Table(title=f"Task {n}: {name} (weight {weight:.3f})")
        for col in ("Metric", "Correlation", "Rank"):
            table.add_column(col, justify="left" if col == "Metric" else "right")
        for metric, corr, rank in zip(r.metrics, r.corrs, r.ranks, strict=True):
            table.add_row(metric, f"{corr:.4f}", str(rank))
        emit_table(stdout, table)
    clusters = all(r.task.k for r in res.results)
    avg_ranks = res.average_ranks()
    if clusters:
        g = res.average_corr_matrix()
        rows = [(m, c, str(k)) for m, c, k in zip(g.metrics, g.corrs, g.ranks, strict=True)]
    else:
        rows = [(m, c) for m, c in res.average_corrs().items()]
    table = Table(title="Global ranking: weighted average correlation (rescaled to 0-1)")
    cols = ["Metric", "Avg corr", "Avg rank"] + (["Cluster"] if clusters else [])
    for col in cols:
        table.add_column(col, justify="left" if col == "Metric" else "right")
    for metric, corr, *cluster in rows:
        table.add_row(metric, f"{corr:.4f}", f"{avg_ranks[metric]:.2f}", *cluster)
    emit_table(stdout, table)
    if not clusters:
        emit_note(stdout, "no clusters: run with -k N (N resamples per test) for them")
    partial = out.result.partial_metrics()
    if partial:
        emit_note(
            stdout,
            "not in every task, so left out of the global ranking: "
            + "; ".join(f"{m} (tasks {', '.join(map(str, t))})" for m, t in partial.items()),
        )
    for lp, left in out.left_out.items():
        if left:
            emit_note(stdout, f"{lp}: left out " + ", ".join(f"{s} ({w})" for s, w in left.items()))
    for lp, refs in out.human_as_systems.items():
        emit_note(stdout, f"{lp}: the tasks with human=True rank the human translation(s) "
                  f"{', '.join(refs)} as systems (correlate leaves them out)")  # fmt: skip
    emit_signatures(stdout, out.signatures)
