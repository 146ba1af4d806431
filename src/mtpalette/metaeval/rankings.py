"""The rankings of a rank run: each score source ranked by the run's protocol (``wmt26`` by
WMT26's own test and rules, :mod:`mtpalette.metaeval.wmt26_ranking`; any other by
:func:`~mtpalette.metaeval.system_ranking.rank_systems`), several sources combined by AutoRank
(WMT24's or WMT25's, :mod:`mtpalette.metaeval.autorank`) on the systems they all score, and a
table's language pairs ranked apart (under ``wmt26``, ordered together as WMT26's global table
orders them).

The sources are read by :mod:`mtpalette.sources.rank`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mtpalette.errors import UserInputError
from mtpalette.feedback import Feedback

if TYPE_CHECKING:
    from mtpalette.metaeval.system_ranking import SystemRanking


def rank_source(source, domains, *, rank_range_rule="corrected", **settings) -> SystemRanking:
    """One source ranked: the one call of :func:`rank_systems` (or, for ``wmt26``, of
    :func:`~mtpalette.metaeval.wmt26_ranking.rank_wmt26`) behind both doors of ``rank``."""
    from mtpalette.metaeval.system_ranking import rank_systems

    if settings["protocol"] == "wmt26":
        return _rank_wmt26(source, domains, rank_range_rule=rank_range_rule, **settings)
    name, stats = source.ranked_as(settings["protocol"])
    return rank_systems(
        source.matrix, source.systems, domains=domains, higher_is_better=source.higher_is_better,
        name=name, metric=source.metric, stats=stats, signature=source.signature, **settings,
    )  # fmt: skip


def _rank_wmt26(source, domains, *, protocol, correction, alpha, n_resamples, seed, missing,
                rank_range_rule) -> SystemRanking:  # fmt: skip
    from mtpalette.metaeval.wmt26_ranking import rank_wmt26

    if correction != "none" or missing not in (None, "mark"):
        raise UserInputError("the wmt26 protocol has no correction and tests each pair on the "
                             "items it shares (--missing mark)")  # fmt: skip
    return rank_wmt26(source.matrix, source.systems, domains=domains, n_resamples=n_resamples,
                      seed=seed, alpha=alpha, higher_is_better=source.higher_is_better,
                      name=source.name, signature=source.signature,
                      rank_range_rule=rank_range_rule)  # fmt: skip


def check_shared_systems(sources) -> None:
    """Several sources are combined by AutoRank, which needs two systems they all score:
    refused before any test is run."""
    if len(sources) < 2:
        return
    shared = set.intersection(*(set(s.systems) for s in sources))
    if len(shared) < 2:
        listed = "; ".join(f"{s.name}: {', '.join(s.systems[:4])}"
                           + (" ..." if len(s.systems) > 4 else "") for s in sources)  # fmt: skip
        raise UserInputError(
            f"the score sources share {len(shared)} system(s) ({listed}); AutoRank combines "
            "them on the systems every source scores and needs two: rank them in separate runs"
        )


def rank_sources(run: Any, sources, feedback: Feedback):
    """Every source of ``run`` (a rank run's description: protocol, correction, resampling,
    ``lp_col``, ``autorank``) ranked, with a bar counting them. Returns ``(rankings,
    autorank, global_order, domain_tables)``: AutoRank of several sources (None: one source,
    or a table's language pairs, ranked apart), and under ``wmt26`` the pairs' global order
    and domain tables (else None)."""
    from mtpalette.metaeval.autorank import autorank, autorank25

    if run.lp_col is None:  # several sources are combined by AutoRank
        check_shared_systems(sources)
    rankings = []
    with feedback.steps("ranking") as step:
        for k, src in enumerate(sources):
            if step is not None:
                step(k, len(sources), f"{src.name}: {run.protocol}")
            rankings.append(
                rank_source(src, src.domains, protocol=run.protocol, correction=run.correction,
                            alpha=run.alpha, n_resamples=run.resamples, seed=run.seed,
                            missing=run.missing, rank_range_rule=run.rank_range_rule)  # fmt: skip
            )
    if run.lp_col is not None:  # language pairs ranked apart: no AutoRank across them
        if run.protocol != "wmt26":
            return rankings, None, None, None
        from mtpalette.metaeval.wmt26_ranking import domain_table, global_order

        by_lp = {src.lp: r for src, r in zip(sources, rankings, strict=True)}
        tables = {lp: domain_table(r) for lp, r in by_lp.items()}
        return rankings, None, global_order(by_lp), tables
    auto = None
    scores = {r.name: {s.system: s.score for s in r.systems} for r in rankings}
    if len(rankings) > 1 and run.autorank == "wmt25":
        auto = autorank25(scores, higher_is_better={r.name: r.higher_is_better for r in rankings})
    elif len(rankings) > 1:
        auto = autorank(scores, {r.name: r.higher_is_better for r in rankings}, only_shared=True)
    return rankings, auto, None, None
