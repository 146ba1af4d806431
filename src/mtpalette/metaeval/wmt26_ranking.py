"""The WMT26 General MT human ranking (``rank --protocol wmt26``).

The organisers' analysis (wmt-conference/wmt26-general-mt ``humeval/02b-analyze_results.py``,
read, not copied), for one language pair:

* an item's score is the mean of its annotations; a system's score is the mean over the items
  it has; the systems are ordered by score (ties here by name, with a note);
* a pair is tested by WMT26's one-sided bootstrap (:mod:`mtpalette.stats.wmt26_bootstrap`);
* the rank range of the system at position ``k`` (1-based): from one below the closest system
  above it that is significantly better than it (1 if none), to one above the closest system
  below it that it is significantly better than. When it beats nobody below, the range ends
  at ``N`` (rule ``corrected``, the default); the organisers' loop reports ``N - 1`` there for
  every system but the last (rule ``wmt26``, kept to reproduce their tables);
* a cluster line after position ``k`` when every system at or above it is significantly
  better than every system below (their ``yes_cluster``); a system's ``cluster`` counts the
  lines above it, plus 1. Their weaker ``yes_local`` line (``k`` significantly better than
  ``k + 1`` alone) is named in the notes;
* each system's domain scores are its mean over its items of the domain.

Across language pairs, :func:`global_order` is the organisers' global table: a system's mean,
over the pairs it is in, of the fraction of that pair's systems with a higher score.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.metaeval.system_ranking import (
    RANK_RANGE_RULES,
    RankedSystem,
    SystemPair,
    SystemRanking,
    ranking_signature,
)
from mtpalette.metrics.base import Signature
from mtpalette.stats import wmt26_bootstrap as wb


def rank_wmt26(
    scores: np.ndarray,
    systems: Sequence[str],
    *,
    domains: Sequence[str] | None = None,
    n_resamples: int = wb.N_RESAMPLES,
    seed: int | None = 0,
    alpha: float = wb.ALPHA,
    higher_is_better: bool = True,
    name: str = "score",
    signature: str | Signature = "",
    rank_range_rule: str = "corrected",
) -> SystemRanking:
    """Rank ``systems`` by their item ``scores`` (``(systems, items)``, each item's mean
    annotation, NaN where a system has none) as WMT26 does.

    Examples
    --------
    >>> x = np.array([[80.0, 90, 85, 70, 95, 88], [60.0, 65, 70, 55, 62, 58],
    ...               [81.0, 89, 86, 71, 94, 90]])
    >>> r = rank_wmt26(x, ["A", "B", "C"], seed=1)
    >>> [(s.system, s.rank_top, s.rank_bottom, s.cluster) for s in r.systems]
    [('C', 1, 2, 1), ('A', 1, 2, 1), ('B', 3, 3, 2)]
    >>> r2 = rank_wmt26(x, ["A", "B", "C"], seed=1, rank_range_rule="wmt26")
    >>> [(s.rank_top, s.rank_bottom) for s in r2.systems]  # C beats nobody below: 2, not 3
    [(1, 2), (1, 2), (3, 3)]
    """
    x, names = _checked(scores, systems, domains, rank_range_rule)
    sign = 1.0 if higher_is_better else -1.0
    own = np.array([_mean(row[~np.isnan(row)]) for row in x])
    order = sorted(range(len(names)), key=lambda k: (-sign * own[k], names[k]))
    notes = [f"{names[a]} and {names[b]} have the same score; ordered by name"
             for a, b in zip(order, order[1:], strict=False) if own[a] == own[b]]  # fmt: skip
    tests = wb.significance(sign * x, n_resamples=n_resamples, seed=seed, alpha=alpha)
    sig = tests.better[np.ix_(order, order)]  # in ranking order
    top, bottom = rank_ranges(sig, rule=rank_range_rule)
    lines = cluster_lines(sig)
    cluster = 1 + np.concatenate([[0], np.cumsum(lines)])[: len(order)]
    notes += [f"a local line after {names[order[k]]}: significantly better than "
              f"{names[order[k + 1]]}, not than every system below"
              for k in range(len(order) - 1) if sig[k, k + 1] and not lines[k]]  # fmt: skip
    notes += [f"{names[order[j]]} is below {names[order[i]]} by its score but significantly "
              "better by WMT26's test" for i in range(len(order)) for j in range(i + 1, len(order))
              if sig[j, i]]  # fmt: skip
    per_domain = _domain_scores(x, domains)
    ranked = [
        RankedSystem(names[k], float(own[k]), int(top[pos]), int(bottom[pos]),
                     int(cluster[pos]), int((~np.isnan(x[k])).sum()),
                     {d: v[k] for d, v in per_domain.items()})  # fmt: skip
        for pos, k in enumerate(order)
    ]
    pairs = [
        SystemPair(names[a], names[b], float(own[a] - own[b]), float("nan"), float("nan"),
                   bool(tests.better[a, b]), int(tests.n_shared[a, b]), {},
                   _shared_difference(x[a], x[b]))  # fmt: skip
        for i, a in enumerate(order)
        for b in order[i + 1 :]
    ]
    missing = "none" if not np.isnan(x).any() else "mark"
    fields = ranking_signature(name, "wmt26", "mean", higher_is_better, missing, "none", alpha,
                               n_resamples, seed, signature)  # fmt: skip
    fields = fields.with_fields(**{"rank-range": rank_range_rule})
    return SystemRanking(
        name, "wmt26", "none", alpha, higher_is_better, ranked, pairs, x.shape[1],
        list(dict.fromkeys(domains)) if domains is not None else [], n_resamples, seed,
        str(fields), notes, missing, "mean",
    )  # fmt: skip


def _checked(scores, systems, domains, rule) -> tuple[np.ndarray, list[str]]:
    if rule not in RANK_RANGE_RULES:
        raise UserInputError(f"--rank-range-rule must be one of {', '.join(RANK_RANGE_RULES)} "
                             f"(got {rule!r})")  # fmt: skip
    x = np.asarray(scores, dtype=np.float64)
    names = [str(s) for s in systems]
    if x.ndim != 2 or x.shape[0] != len(names) or len(names) < 2:
        raise UserInputError(f"expected one row of scores per system, two systems or more "
                             f"({len(names)} systems)")  # fmt: skip
    if len(set(names)) != len(names):
        raise UserInputError("two systems have the same name")
    if np.isinf(x).any():
        raise UserInputError("scores must be finite (NaN or None: no score)")
    empty = [n for n, row in zip(names, x, strict=True) if np.isnan(row).all()]
    if empty:
        raise UserInputError(f"no scored item for system(s) {', '.join(empty)}")
    if domains is not None and len(domains) != x.shape[1]:
        raise UserInputError(f"{len(domains)} domains for {x.shape[1]} items")
    return x, names


def _mean(values: np.ndarray) -> float:
    import math

    return math.fsum(values) / len(values)


def _shared_difference(a: np.ndarray, b: np.ndarray) -> float:
    both = ~np.isnan(a) & ~np.isnan(b)
    return float(np.mean(a[both] - b[both])) if both.any() else float("nan")


def _domain_scores(x: np.ndarray, domains: Sequence[str] | None) -> dict[str, list[float]]:
    """``{domain: [each system's mean over its items of the domain (NaN: none)]}``."""
    if domains is None:
        return {}
    labels = np.asarray(domains, dtype=object)
    out = {}
    for d in dict.fromkeys(domains):
        cols = x[:, labels == d]
        out[d] = [_mean(r[~np.isnan(r)]) if (~np.isnan(r)).any() else float("nan") for r in cols]
    return out


def rank_ranges(better: np.ndarray, *, rule: str = "corrected") -> tuple[np.ndarray, np.ndarray]:
    """``(top, bottom)``, 1-based, of the systems in ranking order (``better[i, j]``: the
    ``i``-th is significantly better than the ``j``-th); see the module docstring.

    Examples
    --------
    >>> b = np.array([[0, 1, 1], [0, 0, 0], [0, 0, 0]], dtype=bool)
    >>> [v.tolist() for v in rank_ranges(b)], [v.tolist() for v in rank_ranges(b, rule="wmt26")]
    ([[1, 2, 2], [1, 3, 3]], [[1, 2, 2], [1, 2, 3]])
    """
    n = better.shape[0]
    top = np.ones(n, dtype=int)
    bottom = np.full(n, n, dtype=int)
    for k in range(n):
        above = np.flatnonzero(better[:k, k])
        if above.size:
            top[k] = above[-1] + 2
        below = np.flatnonzero(better[k, k + 1 :])
        if below.size:
            bottom[k] = k + below[0] + 1
        elif rule == "wmt26" and k < n - 1:
            bottom[k] = n - 1
    return top, bottom


def cluster_lines(better: np.ndarray) -> np.ndarray:
    """``(N - 1,)``: a line after the ``k``-th system (ranking order) when every system at or
    above it is significantly better than every system below.

    Examples
    --------
    >>> b = np.array([[0, 1, 1], [0, 0, 0], [0, 0, 0]], dtype=bool)
    >>> cluster_lines(b).tolist()
    [True, False]
    >>> b[1, 2] = True
    >>> cluster_lines(b).tolist()
    [True, True]
    """
    n = better.shape[0]
    return np.array([bool(better[: k + 1, k + 1 :].all()) for k in range(n - 1)], dtype=bool)


def domain_table(ranking: SystemRanking, *, exclude_prefix: str = "Human (") -> dict[str, float]:
    """A language pair's row of the organisers' domain table: per domain, the mean over the
    systems (those named ``exclude_prefix...`` left out: human references) of each system's
    mean over its items of the domain.

    Examples
    --------
    >>> x = np.array([[80.0, 90, 70], [60.0, 70, 50], [99.0, 99, 99]])
    >>> r = rank_wmt26(x, ["A", "B", "Human (ref)"], domains=["news", "news", "speech"], seed=1)
    >>> domain_table(r)
    {'news': 75.0, 'speech': 60.0}
    """
    rows = [s.domain_scores for s in ranking.systems if not s.system.startswith(exclude_prefix)]
    out = {}
    for d in ranking.domains:
        values = [row[d] for row in rows if not np.isnan(row[d])]
        out[d] = _mean(np.array(values)) if values else float("nan")
    return out


def global_order(rankings: Mapping[str, SystemRanking]) -> list[tuple[str, float]]:
    """The systems of several language pairs' rankings (``{pair: ranking}``) by their mean,
    over the pairs they are in, of the fraction of that pair's systems with a higher score
    (0 is first everywhere); ties by name.

    Examples
    --------
    >>> x = np.array([[80.0, 90, 85], [60.0, 65, 70]])
    >>> r1 = rank_wmt26(x, ["A", "B"], seed=1)
    >>> r2 = rank_wmt26(x[::-1], ["A", "C"], seed=1)
    >>> global_order({"p1": r1, "p2": r2})  # A: 0 of 2 higher, then 1 of 2
    [('C', 0.0), ('A', 0.25), ('B', 0.5)]
    """
    fractions: dict[str, list[float]] = {}
    for r in rankings.values():
        sign = 1.0 if r.higher_is_better else -1.0
        scores = {s.system: sign * s.score for s in r.systems}
        for s, v in scores.items():
            higher = sum(1 for w in scores.values() if w > v)
            fractions.setdefault(s, []).append(higher / len(scores))
    means = {s: float(np.mean(v)) for s, v in fractions.items()}
    return sorted(means.items(), key=lambda kv: (kv[1], kv[0]))
