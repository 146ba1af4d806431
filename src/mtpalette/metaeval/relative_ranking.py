"""WMT12's relative-ranking Kendall tau of metrics (human pairwise preferences, human ties
excluded), with intervals and clusters from resampling source segments: the table of
:mod:`mtpalette.metaeval.correlation` for relative rankings.

References
----------
Callison-Burch et al. (2012), Findings of the 2012 Workshop on Statistical Machine
Translation (the metric task's tau).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.io.judgments import PreferencePairs
from mtpalette.metaeval.correlation import CorrelationTable, _table
from mtpalette.metaeval.segments import MetricScores, SegmentData
from mtpalette.stats.correlation import rr_kendall
from mtpalette.stats.resampling import Seed, index_batches, resample_counts, resolve_seed
from mtpalette.stats.significance import CorrelationResamples


def rr_table(
    pairs: PreferencePairs,
    data: SegmentData,
    scores: Sequence[MetricScores],
    *,
    metric_ties: str = "discordant",
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: Seed = 12345,
    alpha: float = 0.05,
) -> CorrelationTable:
    """WMT12 relative-ranking tau of every metric (human ties excluded).

    ``data`` holds the judged systems' translations with ``data.items`` the 0-based lines
    and ``data.human`` finite wherever a translation takes part in a pair. Intervals and the
    clusters' paired test resample source segments (lines).
    """
    if metric_ties not in ("discordant", "exclude"):
        raise UserInputError("metric ties must be 'discordant' or 'exclude'")
    row = {s: k for k, s in enumerate(data.systems)}
    col = {int(i): k for k, i in enumerate(data.items)}
    try:
        rb = np.array([row[s] for s in pairs.better])
        rw = np.array([row[s] for s in pairs.worse])
        ci = np.array([col[int(x)] for x in pairs.line])
    except KeyError as exc:
        raise UserInputError(f"a judged system or line has no translation: {exc}") from None
    n_items = data.n_items
    per_metric = []
    values = np.empty(len(scores))
    for j, sc in enumerate(scores):
        m = sc.oriented()
        b, w = m[rb, ci], m[rw, ci]
        if np.isnan(b).any() or np.isnan(w).any():
            raise UserInputError(f"metric {sc.name} has no score for a judged translation")
        values[j] = rr_kendall(b, w, metric_ties=metric_ties)
        con = np.bincount(ci, b > w, minlength=n_items)
        tie = np.bincount(ci, b == w, minlength=n_items)
        dis = np.bincount(ci, b < w, minlength=n_items)
        if metric_ties == "discordant":
            dis = dis + tie
        per_metric.append((con, dis))
    rng, recorded = resolve_seed(seed)
    dist = np.full((n_resamples, len(scores)), np.nan)
    done = 0
    for idx in index_batches(n_items, n_resamples, rng):
        counts = resample_counts(idx, n_items)
        for j, (con, dis) in enumerate(per_metric):
            num = counts @ (con - dis)
            den = counts @ (con + dis)
            with np.errstate(invalid="ignore", divide="ignore"):
                dist[done : done + len(idx), j] = np.where(den > 0, num / den, np.nan)
        done += len(idx)
    res = CorrelationResamples.percentile(
        "rr-kendall",
        "none",
        "segment",
        values,
        dist,
        unit="items",
        n_units=n_items,
        confidence=confidence,
        seed=recorded,
    )
    names = [s.name for s in scores]
    return _table(
        res,
        names,
        scores,
        res.paired_p_value,
        "bootstrap",
        alpha,
        0,
        {
            "n_pairs": int(len(pairs.line)),
            "n_human_ties": pairs.n_ties,
            "metric_ties": metric_ties,
            "n_systems": data.n_systems,
        },
    )
