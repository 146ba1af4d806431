"""The tables of the meta-evaluation commands (``orange``, ``correlate``, ``agree``,
``audit``), in the papers' layouts: rich tables on a terminal, TSV when piped
(:mod:`mtpalette.cli.console`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table

from mtpalette.cli.console import (
    emit_note,
    emit_signatures,
    emit_table,
    result_console,
    show_written,
)
from mtpalette.reporting.html import cluster_rows, orange_rows
from mtpalette.stats import catalogue

if TYPE_CHECKING:
    from mtpalette.api.correlation_run import CorrelationResult
    from mtpalette.api.orange_run import OrangeResult
    from mtpalette.metaeval.agreement import Agreement
    from mtpalette.metaeval.audit import Audit
    from mtpalette.metaeval.correlation import CorrelationTable
    from mtpalette.metaeval.orange import OrangeTable
    from mtpalette.stats.bootstrap import BootstrapCI


def print_orange(console: Console, table: OrangeTable, *, title: str = "") -> None:
    """The table in the paper's layout: Method, ORANGE, Avg Rank, 95% interval of the average
    rank, and a mark for the best metric and those statistically equivalent to it."""
    conf = f"{100 * table.confidence:g}%"
    if title:
        emit_note(console, title)
    t = Table()
    t.add_column("Method")
    t.add_column("ORANGE", justify="right")
    t.add_column("Avg Rank", justify="right")
    t.add_column(f"{conf}-CI-L", justify="right")
    t.add_column(f"{conf}-CI-U", justify="right")
    t.add_column("vs best", justify="left")
    digits = 1 if table.n_candidates["max"] >= 100 else 2
    # every metric tied with the best is "best"; the p-value of the paired test against the
    # best next to "= best" and every other metric (the report's texts)
    marks = orange_rows([row.to_dict() for row in table.rows])
    for row, m in zip(table.rows, marks, strict=True):
        mark, style = m["p_text"], None
        if m["best"]:
            mark, style = "best", "bold green"
        elif row.equivalent and table.n_resamples:
            mark, style = mark or "= best", "yellow"
        t.add_row(
            row.metric,
            f"{100 * row.orange.value:.2f}%",
            f"{row.avg_rank.value:.{digits}f}",
            _num(row.avg_rank.low, digits),
            _num(row.avg_rank.high, digits),
            mark,
            style=style,
        )
    emit_table(console, t)
    skipped = f", {table.n_skipped} left out (too few candidates)" if table.n_skipped else ""
    emit_note(
        console,
        f"oracle: {table.oracle}; ties: {table.ties}; ORANGE = mean of rank/(N_i+1) over "
        f"{table.n_segments} segments{skipped}; bootstrap: {table.n_resamples} resamples, "
        f"seed {table.seed}",
    )
    if table.test:
        emit_note(console, f"'= best': {table.test}; p: the paired test against the best")
    emit_signatures(console, {row.metric: row.signature for row in table.rows})


def _num(x: float, digits: int) -> str:
    return "-" if math.isnan(x) else f"{x:.{digits}f}"


def print_correlation(console: Console, table: CorrelationTable, *, title: str = "") -> None:
    """Metrics by decreasing correlation, with the interval, cluster and direction."""
    conf = f"{100 * table.confidence:g}%"
    if title:
        emit_note(console, title)
    t = Table()
    t.add_column("Metric")
    t.add_column(catalogue.label(table.statistic), justify="right")
    t.add_column(f"{conf} CI", justify="right")
    t.add_column("Cluster", justify="right")
    t.add_column("Dir", justify="center")
    t.add_column("p", justify="left")
    if any(r.epsilon is not None for r in table.rows):
        t.add_column("epsilon", justify="right")
    # the p-value that opened each cluster, and inside one the p-value against its first
    # metric (the report's texts); every metric tied with the highest value is bold
    marks = cluster_rows(table.to_dict())
    for r, m in zip(table.rows, marks, strict=True):
        ci = "-" if math.isnan(r.ci.low) else f"[{r.ci.low:.4f}, {r.ci.high:.4f}]"
        cells = [
            f"{r.metric} (baseline)" if r.baseline else r.metric,
            f"{r.value:.4f}",
            ci,
            "-" if r.cluster is None else str(r.cluster),
            "+" if r.higher_is_better else "-",
            m["p_text"],
        ]
        if r.epsilon is not None:
            cells.append(f"{r.epsilon:.4f}")  # one number of decimals in the column
        t.add_row(*cells, style="bold green" if r.cluster == 1 or m["top"] else None)
    emit_table(console, t)
    test = {
        "permutation": f"PERM-BOTH permutation test ({table.n_permutations} independent draws, "
                       + ("p = count / draws)" if table.info.get("p_convention") == "mtme"
                          else "p = (count + 1) / (draws + 1))"),
        "bootstrap": "paired bootstrap on the interval's resamples",
        "williams": "Williams' test",
        "none": "no test",
    }[table.test]
    entry = catalogue.find(table.statistic)
    if entry is not None and entry.group is None:  # SPA, PDP: a task of the engine, its test
        own = f"mt-metrics-eval's permutation test of {entry.sentence_name}"
        test = "no test" if table.test == "none" else f"{own} ({table.n_permutations} draws)"
    interval = (
        f"interval: percentile bootstrap over {table.unit} ({table.n_units}), "
        f"{table.n_resamples} resamples, seed {table.seed}"
        if table.n_resamples
        else f"no interval ({table.n_units} {table.unit}), seed {table.seed}"
    )
    origins = table.info.get("system_scores", {}).get("origins")
    if origins:
        emit_note(console, "system scores: " + "; ".join(f"{k}: {v}" for k, v in origins.items()))
    emit_note(
        console,
        f"{interval}; clusters: {test}, alpha "
        f"{table.alpha:g} (1 = best; a new cluster starts when a better-ranked metric of the "
        "current one is significantly better; p: the test that opened the cluster, inside one "
        "the test against its first metric); Dir '-': an error metric, negated before "
        "correlating",
    )
    _baseline_notes(console, table)


def print_agreement(console: Console, a: Agreement) -> None:
    """Both orderings side by side and the tau between them."""
    conf = f"{100 * a.confidence:g}%"
    label = catalogue.label(a.statistic)
    emit_note(
        console,
        f"ORANGE ({a.oracle}, ties {a.ties}; %, lower is better; # = rank) vs human "
        f"{label} (grouping {a.grouping}): "
        f"{a.n_systems} systems x {a.n_segments} segments, {a.n_refs} references",
    )
    t = Table()
    short = {"Kendall tau-b": "tau-b", "Pearson r": "r", "Spearman rho": "rho"}.get(label, label)
    headers = ("Metric", "ORANGE %", f"ORANGE {conf} CI", "ORANGE #", short,
               f"{short} {conf} CI", f"{short} #")  # fmt: skip
    for name in headers:  # each named in full: no two alike, no trailing blanks
        t.add_column(name, justify="left" if name == "Metric" else "right", no_wrap=True)
    for r in a.rows:
        t.add_row(
            r.metric,
            f"{100 * r.orange.value:.2f}",
            _ci(100 * r.orange.low, 100 * r.orange.high, 2),
            f"{r.orange_rank:g}",
            f"{r.correlation.value:.4f}",
            _ci(r.correlation.low, r.correlation.high, 4),
            f"{r.human_rank:g}",
        )
    emit_table(console, t)
    emit_note(
        console,
        f"Kendall tau-b between the two orderings: {a.tau.value:.3f} "
        f"{_ci(a.tau.low, a.tau.high, 3)} ({conf} percentile bootstrap over segments, "
        f"{a.n_resamples} resamples, seed {a.seed}; +1: ORANGE orders the metrics as humans do)",
    )
    if a.note:
        emit_note(console, f"note: {a.note}")
    for name, value in a.reference_orange.items():
        emit_note(
            console,
            f"human ORANGE of reference {name}: {100 * value:.2f}% (its mean rank by human "
            "score among the systems, / (N+1); 50% = no better than a system)",
        )


def _ci(lo: float, hi: float, digits: int) -> str:
    """An interval as ``[a, b]`` (a range printed ``a - b`` reads ``-0.097 - -0.033``).

    Examples
    --------
    >>> _ci(-0.0971, -0.0333, 3), _ci(float("nan"), 1.0, 3)
    ('[-0.097, -0.033]', '-')
    """
    if lo != lo:
        return "-"
    return f"[{lo:.{digits}f}, {hi:.{digits}f}]"


def _pct(ci: BootstrapCI | None) -> str:
    if ci is None:
        return "-"
    if ci.low != ci.low:
        return f"{100 * ci.value:.1f}%"
    return f"{100 * ci.value:.1f}% [{100 * ci.low:.1f}, {100 * ci.high:.1f}]"


def print_audit(console: Console, a: Audit) -> None:
    """The audit: per metric, how often candidates outrank the held-out reference."""
    title = (
        f"ORANGE premise audit: {a.n_segments} segments, {a.n_refs} reference(s) "
        f"({', '.join(a.ref_names)}), {a.n_candidates} candidates"
    )
    table = Table(title=title)
    cols = ("Metric", "outranked", "outranking cands", "humans >=", "humans >", "rated pairs")
    for col in cols:
        table.add_column(col, justify="left" if col == "Metric" else "right")
    for r in a.rows:
        table.add_row(
            r.metric,
            _pct(r.outranked),
            _pct(r.outranking_candidates),
            _pct(r.humans_agree),
            _pct(r.humans_prefer),
            str(r.n_outranking_rated) if r.humans_agree is not None else "-",
        )
    if a.human_outranked is not None:
        table.add_row("humans: some system >=", _pct(a.human_outranked), "-", "-", "-", "-")
        table.add_row("humans: some system >", _pct(a.human_outranked_strict), "-", "-", "-", "-")
    emit_table(console, table)
    emit_note(
        console,
        "outranked: share of (segment, held-out reference) cases where some candidate scores "
        "strictly better than the reference, both against the other references; humans >= "
        "(>): share of those outranking (candidate, reference) pairs that humans rate at least "
        f"as good as (better than) the reference; {a.n_resamples} bootstrap resamples over "
        f"segments (seed {a.seed}), {100 * a.confidence:g}% percentile intervals.",
    )


def show_orange(result: OrangeResult, notes: Console) -> None:
    """An ORANGE run: its table on standard output, the files it wrote on ``notes``."""
    out = result_console()
    print_orange(out, result.table, title=result.title)
    if result.references is not None:
        print_reference_agreement(out, result.references)
    show_written(notes, result.outputs)


def print_reference_agreement(console: Console, agreement) -> None:
    """Each reference against the others beside the best and median system."""
    t = Table()
    for col in ("Reference", "vs", "Metric", "Reference score", "Best system", "Median system"):
        t.add_column(col, justify="left" if col in ("Reference", "vs", "Metric") else "right")
    for r in agreement.rows:
        flag = " (closer than the best system)" if r.closer else ""
        t.add_row(
            r.reference + flag, ", ".join(r.against), r.metric, f"{r.reference_score:.4g}",
            f"{r.best_system} {r.best_score:.4g}", f"{r.median_score:.4g}",
        )  # fmt: skip
    emit_note(console, "Reference agreement: each reference scored against the others")
    emit_table(console, t)


def show_correlation(result: CorrelationResult, notes: Console) -> None:
    """A correlation run: one table per statistic, the signatures, the files written."""
    out = result_console()
    for table, title in zip(result.tables, result.titles, strict=True):
        print_correlation(out, table, title=title)
    emit_signatures(out, result.signatures)
    show_written(notes, result.outputs)


def _baseline_notes(console: Console, table: CorrelationTable) -> None:
    """The best trivial baseline, the metrics that do not beat it, the chance level, and the
    groups left out or degenerate."""
    for sentence in table.info.get("degenerate", {}).get("notes", []):
        emit_note(console, f"note: {sentence}")
    report = table.info.get("baselines")
    if report and "comparisons" in report:
        flagged = [c["metric"] for c in report["comparisons"] if not c["beats_baseline"]]
        verdict = (
            f"not significantly above it: {', '.join(flagged)}"
            if flagged
            else "every metric is significantly above it"
        )
        emit_note(
            console,
            f"baselines (length, marked): the best is {report['best_baseline']} "
            f"({report['baselines'][report['best_baseline']]:.4f}); {verdict} "
            f"(one-sided {report['test']} test)",
        )
    chance = table.info.get("chance")
    if chance and "chance" in chance:
        how = chance["method"]
        if how == "simulation":  # its precision: the random metrics and the standard error
            how += (f": {chance['simulations']} random metrics, standard error "
                    f"{chance['std_error']:.2g}")  # fmt: skip
            if chance.get("tolerance") is not None:
                how += f", stopping at {chance['tolerance']:g}"
        emit_note(console, f"chance level of {table.statistic}: {chance['chance']:.4f} "
                           f"({how})")  # fmt: skip
