"""``mtpalette rank``: rank systems as WMT does, every pair tested, with rank ranges and
clusters, from metrics computed here, stored segment scores (COMET, MetricX...), human
ratings in a long table, or an mt-metrics-eval folder.

Options -> :class:`~mtpalette.api.rank_run.RankRun` -> :func:`~mtpalette.api.rank_run.run_rank`
-> one table per ranking (and AutoRank when there are several).
"""

from __future__ import annotations

from mtpalette.api.rank_run import RankRun
from mtpalette.cli import options as o
from mtpalette.cli.console import (
    emit_note,
    emit_signatures,
    emit_table,
    result_console,
    show_written,
)


@o.with_options(RankRun, o.QUIET)
def rank_cmd(**options) -> None:
    """Rank systems with a test between every pair: rank ranges and clusters, as WMT.

    Examples: `mtpalette rank -r ref.txt --systems-dir outputs/ -m chrf --protocol bootstrap`;
    `mtpalette rank --table esa.tsv --domain-col domain --protocol wmt24`; `mtpalette rank
    --scores comet=comet.json --scores metricx=preds.jsonl --correction holm`; `mtpalette rank
    --wmt25-scores automatic_scores/ --lp en-cs_CZ --autorank wmt25`.
    """
    from rich.console import Console

    from mtpalette.api.rank_run import run_rank
    from mtpalette.progress import ConsoleFeedback

    console = Console(stderr=True, quiet=options["quiet"])
    result = run_rank(o.fill(RankRun, options), ConsoleFeedback(console))
    show_written(console, result.outputs)
    show_rankings(result)


def show_rankings(result) -> None:
    """One table per ranking (systems in order, rank range, cluster, score, and each domain's
    score), the tests' settings, and AutoRank."""
    from rich.table import Table

    out = result_console()
    for r in result.rankings:
        title = f"{r.name}: {r.protocol}" + (f", {r.correction} correction" if r.correction
                                             != "none" else "")  # fmt: skip
        t = Table(title=title)
        cols = ["Rank", "System", "Cluster", r.name, *r.domains]
        for col in cols:
            t.add_column(col, justify="left" if col == "System" else "right")
        for s in r.systems:
            span = str(s.rank_top)
            if s.rank_bottom != s.rank_top:
                span += f"-{s.rank_bottom}"
            cells = [span, s.system, str(s.cluster), f"{s.score:.4f}"]
            t.add_row(*cells, *(f"{s.domain_scores[d]:.4f}" for d in r.domains))
        emit_table(out, t)
        n_sig = sum(p.significant for p in r.pairs)
        direction = "higher" if r.higher_is_better else "lower"
        emit_note(
            out,
            f"{n_sig} of {len(r.pairs)} pairs differ significantly (alpha {r.alpha:g}, "
            f"{_test_name(r)}, correction {r.correction}); {direction} is better; "
            f"{_score_name(r)}; {_ranges_name(r)}",
        )
        for note in r.notes:
            emit_note(out, f"note: {note}")
    if result.autorank is not None and hasattr(result.autorank, "shown"):
        show_autorank25(out, result.autorank)
    elif result.autorank is not None:
        a = result.autorank
        t = Table(title="AutoRank: each ranking's scores rescaled to 1 (best) .. N, averaged")
        for col in ("System", "AutoRank", *a.metrics):
            t.add_column(col, justify="left" if col == "System" else "right")
        for k, s in enumerate(a.systems):
            t.add_row(s, f"{a.autorank[k]:.2f}", *(f"{a.rescaled[m][k]:.2f}" for m in a.metrics))
        emit_table(out, t)
        for note in a.notes:
            emit_note(out, f"note: {note}")
    if result.global_order is not None:
        show_global_order(out, result)
    emit_signatures(out, {r.name: r.signature for r in result.rankings})


def show_global_order(out, result) -> None:
    """WMT26's global table: the systems of every language pair by their mean fraction of
    systems ranked higher, then each pair's domain table."""
    from rich.table import Table

    t = Table(title="Global order (WMT26): mean over the language pairs of the share ranked higher")
    for col in ("System", "Share higher"):
        t.add_column(col, justify="left" if col == "System" else "right")
    for system, share in result.global_order:
        t.add_row(system, f"{share:.3f}")
    emit_table(out, t)
    domains = sorted({d for row in result.domain_tables.values() for d in row})
    if domains:
        t = Table(title="Domains: each domain's mean over the systems (human references left out)")
        for col in ("Pair", *domains):
            t.add_column(col, justify="left" if col == "Pair" else "right")
        for lp, row in result.domain_tables.items():
            t.add_row(lp, *(f"{row[d]:.2f}" if d in row else "-" for d in domains))
        emit_table(out, t)


def show_autorank25(out, a) -> None:
    """WMT25's AutoRank: one table per metric (systems by score, with their z), then the
    AutoRank table and the notes."""
    from rich.table import Table

    for m in a.shown:
        t = Table(title=f"{m}" + ("" if m in a.metrics else " (shown, not combined)"))
        for col in ("System", m, "z"):
            t.add_column(col, justify="left" if col == "System" else "right")
        for s in sorted((s for s in a.systems if m in s.scores), key=lambda s: -s.scores[m]):
            t.add_row(s.system, f"{s.scores[m]:.4f}", f"{s.z[m]:.3f}")
        emit_table(out, t)
    lp = f"{a.language_pair}: " if a.language_pair else ""
    t = Table(title=f"{lp}AutoRank (WMT25): mean robust z of {', '.join(a.metrics)}, 1 (best) .. N")
    for col in ("System", "AutoRank", "mean z"):
        t.add_column(col, justify="left" if col == "System" else "right")
    for s in a.systems:
        t.add_row(s.system, f"{s.autorank:.2f}", f"{s.mean_z:.3f}")
    emit_table(out, t)
    emit_note(out, "z = (score - median) / (max - 25th percentile) per metric, over the systems")
    for note in a.notes:
        emit_note(out, f"note: {note}")


def _ranges_name(r) -> str:
    if r.protocol == "wmt26":
        return ("rank range: below the closest system significantly better, to above the "
                "closest system it is significantly better than; clusters: a line where every "
                "system above is significantly better than every system below")  # fmt: skip
    return ("rank range: 1 + systems significantly better, to N - systems significantly worse; "
            "clusters: the finest cut with every pair across a cut significant")  # fmt: skip


def _range_rule(r) -> str:
    return "as the organisers' code (N - 1)" if "rank-range:wmt26" in r.signature else "corrected"


def _score_name(r) -> str:
    return {"corpus": "the score is the corpus score",
            "mean": "the score is the mean of the item scores",
            "mean-of-domain-means": "the score is the mean of the domains' mean item scores",
            }[r.system_score]  # fmt: skip


def _test_name(r) -> str:
    return {
        "wmt24": "WMT24: Wilcoxon per domain, Stouffer",
        "wmt26": f"WMT26: one-sided BCa bootstrap per pair, {r.n_resamples} resamples, seed "
        f"{r.seed}, rank ranges {_range_rule(r)}",
        "wilcoxon": "Wilcoxon signed-rank on shared items",
        "ttest": "paired t-test on shared items",
        "mannwhitney": "Mann-Whitney U (unpaired) on each system's items",
        "bootstrap": f"paired bootstrap, {r.n_resamples} resamples, seed {r.seed}",
        "ar": f"approximate randomization, {r.n_resamples} trials, seed {r.seed}",
    }[r.protocol]
