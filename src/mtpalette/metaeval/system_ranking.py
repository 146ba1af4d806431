"""Ranking systems as WMT does: every pair tested, rank ranges, clusters (and AutoRank).

:func:`rank_systems` takes one score per system and item (a metric computed here, stored
scores of a neural metric, human ratings) and a protocol, and returns a
:class:`SystemRanking`: the systems in order with their score, rank range and cluster, and
every pair's difference and p-value (adjusted for the number of pairs when asked). The
statistics are :mod:`mtpalette.stats.ranking` (item tests, correction, ranges, clusters) and
:func:`mtpalette.stats.paired.all_pairs` (paired bootstrap and approximate randomization of
corpus scores, sacrebleu's draws) - the same resampling machinery as the paired tests of
``score --paired-bs``, with every pair in place of one baseline.

Protocols, named in every output's signature:

* ``wmt26``: WMT26 General MT's human ranking (a one-sided BCa bootstrap per pair, its own
  rank ranges and cluster lines): :func:`mtpalette.metaeval.wmt26_ranking.rank_wmt26`, which
  :func:`rank_systems` does not run;
* ``wmt24``: WMT24 General MT's human ranking (per-domain Wilcoxon tests combined by
  Stouffer's method; the system score is the unweighted mean of the domain means);
* ``wilcoxon``, ``ttest``: a paired test on the items two systems share (comet-compare's);
* ``mannwhitney``: the unpaired Wilcoxon rank-sum test of all of each system's items (for
  ratings that do not share items; WMT's DA rankings of 2019-2021);
* ``bootstrap``, ``ar``: paired bootstrap resampling or approximate randomization on the
  corpus score (recomputed from sufficient statistics: BLEU from summed n-gram counts), or on
  the mean of item scores; every system must have a score for every item.

AutoRank (WMT24's and WMT25's) is :mod:`mtpalette.metaeval.autorank`; :class:`AutoRank` and
:func:`autorank` are re-exported here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.metaeval.autorank import AutoRank as AutoRank  # re-exported
from mtpalette.metaeval.autorank import autorank as autorank  # re-exported
from mtpalette.metrics.base import Signature
from mtpalette.records import Record, latex_text, out
from mtpalette.stats import ranking as rk
from mtpalette.stats.signed_rank import RULE as WILCOXON_RULE

PROTOCOLS = ("wmt24", "wmt26", "wilcoxon", "ttest", "mannwhitney", "bootstrap", "ar")

#: what a ranking does when the systems are not scored on the same items: ``refuse`` (the
#: default of the paired protocols), ``common`` (every score and test on the items every
#: system has) or ``mark`` (WMT's rule, the default of ``wmt24`` and ``mannwhitney``: each
#: system's score over its own items, each pair tested on the items it shares; a pair whose
#: shared items favour the system ranked lower is never significant, and is named)
MISSING_RULES = ("refuse", "common", "mark")

#: ``wmt26``'s rank-range rules: ``corrected`` ends a range that beats nobody below at N,
#: ``wmt26`` at N - 1 as the organisers' code does
RANK_RANGE_RULES = ("corrected", "wmt26")


@dataclass(frozen=True)
class RankedSystem(Record):
    """A system's line: its score (in the score's own direction), WMT's rank range, its
    cluster (1 = best), the number of items it has a score for, and its domain scores."""

    system: str
    score: float
    rank_top: int
    rank_bottom: int
    cluster: int
    n_items: int
    domain_scores: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class SystemPair(Record):
    """One pair, ``a`` ranked above ``b``: the score difference ``a - b`` (own direction),
    the mean difference on the items the two share (what a paired test compares; the same
    number when every system has every item), the test's p-value, the p-value adjusted for
    the number of pairs, whether it is significant at the ranking's alpha, the items the two
    share, and per-domain p-values."""

    a: str
    b: str
    difference: float
    p_value: float
    p_adjusted: float
    significant: bool
    n_items: int
    domain_p_values: dict[str, float] = field(default_factory=dict)
    shared_difference: float = field(default=float("nan"), metadata=out(after="difference"))


@dataclass(frozen=True)
class SystemRanking(Record):
    """Systems in order (best first), every pair, and how they were compared: ``missing``
    is the rule for items some systems lack (``none`` when every system has every item,
    else one of :data:`MISSING_RULES`), ``system_score`` what a system's score is
    (``corpus``: the metric's corpus score; ``mean``: the mean of its item scores;
    ``mean-of-domain-means``: WMT24's)."""

    name: str
    protocol: str
    correction: str
    alpha: float
    higher_is_better: bool
    # written after the settings and notes: the systems, then the pairs
    systems: list[RankedSystem] = field(metadata=out(after="notes"))
    pairs: list[SystemPair] = field(metadata=out(after="systems"))
    n_items: int
    domains: list[str]
    n_resamples: int
    seed: int | None
    signature: Signature
    notes: list[str] = field(default_factory=list)
    # written beside the other settings
    missing: str = field(default="none", metadata=out(after="higher_is_better"))
    system_score: str = field(default="mean", metadata=out(after="missing"))

    def system(self, name: str) -> RankedSystem:
        return next(s for s in self.systems if s.system == name)

    def pair(self, a: str, b: str) -> SystemPair:
        """The pair of ``a`` and ``b`` in either order (as ranked)."""
        return next(p for p in self.pairs if {p.a, p.b} == {a, b})

    def p_matrix(self, *, adjusted: bool = True) -> np.ndarray:
        """``(S, S)`` p-values in ranking order (NaN on the diagonal)."""
        names = [s.system for s in self.systems]
        at = {n: k for k, n in enumerate(names)}
        out = np.full((len(names), len(names)), np.nan)
        for p in self.pairs:
            v = p.p_adjusted if adjusted else p.p_value
            out[at[p.a], at[p.b]] = out[at[p.b], at[p.a]] = v
        return out

    def to_pandas(self):
        """One row per system (the records of :class:`RankedSystem`, domain scores as
        ``domain_scores_<domain>`` columns); :meth:`pairs_frame` has the pairs."""
        from mtpalette.records import frame

        return frame(s.to_dict() for s in self.systems)

    def pairs_frame(self):
        """One row per pair (the records of :class:`SystemPair`)."""
        from mtpalette.records import frame

        return frame(p.to_dict() for p in self.pairs)

    def to_json(self) -> str:
        from mtpalette.records import dumps

        return dumps(self.to_dict())

    def to_latex(self, *, digits: int = 1) -> str:
        """The table in WMT's style: rank range, system, score; a rule between clusters."""
        lines = [
            "\\begin{tabular}{clr}",
            "\\toprule",
            f"Rank & System & {latex_text(self.name)} \\\\",
            "\\midrule",
        ]
        for k, s in enumerate(self.systems):
            if k and s.cluster != self.systems[k - 1].cluster:
                lines.append("\\midrule")
            ranks = (
                f"{s.rank_top}"
                if s.rank_top == s.rank_bottom
                else (f"{s.rank_top}--{s.rank_bottom}")
            )
            lines.append(f"{ranks} & {latex_text(s.system)} & {s.score:.{digits}f} \\\\")
        lines += ["\\bottomrule", "\\end{tabular}"]
        return "\n".join(lines) + "\n"


def _order(names: Sequence[str], oriented: np.ndarray) -> tuple[list[int], list[str]]:
    """Systems by decreasing oriented score, ties broken by name (and said so)."""
    order = sorted(range(len(names)), key=lambda k: (-oriented[k], names[k]))
    notes = []
    values = oriented[order]
    for k in range(1, len(order)):
        if values[k] == values[k - 1]:
            notes.append(
                f"{names[order[k - 1]]} and {names[order[k]]} have the same score; ordered by name"
            )
    return order, notes


def rank_systems(
    scores: Any,
    systems: Sequence[str],
    *,
    protocol: str = "wilcoxon",
    domains: Sequence[str] | None = None,
    correction: str = "none",
    alpha: float = 0.05,
    higher_is_better: bool = True,
    name: str = "score",
    metric: Any = None,
    stats: Sequence[np.ndarray] | None = None,
    n_resamples: int = 1000,
    seed: int | None = 12345,
    signature: str | Signature = "",
    missing: str | None = None,
) -> SystemRanking:
    """Rank ``systems`` by their ``scores`` (``(systems, items)``, NaN where a system has no
    score for an item, in the score's own direction ``higher_is_better``).

    ``bootstrap`` and ``ar`` resample the corpus score of ``metric`` from each system's
    sufficient statistics ``stats`` when given (the score is then the corpus score), else the
    mean of the item scores. See the module docstring for the protocols. ``missing``: what
    to do when the systems are not scored on the same items (:data:`MISSING_RULES`; by
    default ``mark`` for ``wmt24`` and ``mannwhitney``, else ``refuse``).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> base = rng.normal(size=60)
    >>> x = np.vstack([base + 1.0, base + 0.98, base - 1.0]) + 0.1 * rng.normal(size=(3, 60))
    >>> r = rank_systems(x, ["A", "B", "C"], protocol="wilcoxon")
    >>> [(s.system, s.rank_top, s.rank_bottom, s.cluster) for s in r.systems]
    [('A', 1, 2, 1), ('B', 1, 2, 1), ('C', 3, 3, 2)]
    """
    _check_settings(protocol, correction, alpha)
    if protocol == "wmt26":
        raise UserInputError("the wmt26 protocol is metaeval.wmt26_ranking.rank_wmt26")
    x = np.asarray(scores, dtype=np.float64)
    names = list(systems)
    _check_matrix(x, names, domains)
    x, domains, rule, notes = _items(x, names, protocol, domains, missing)
    if protocol == "wmt24":
        if domains is None:
            raise UserInputError(
                "the wmt24 protocol tests each domain: give the items' domains (--domain-col, "
                "or an mt-metrics-eval folder's documents)"
            )
        small = [d for d in dict.fromkeys(domains) if list(domains).count(d) < 2]
        if small:
            raise UserInputError(f"domain(s) with fewer than two items: {', '.join(small)}")
    _check_resamples(protocol, correction, alpha, n_resamples, len(names))
    sign = 1.0 if higher_is_better else -1.0
    p, shared, by_domain, own, n_used = _tests(
        sign * x, names, protocol, domains, metric, stats, n_resamples, seed, alpha, sign
    )
    of_items = stats is None or protocol in rk.ITEM_TESTS
    # what a paired test compares; a corpus score has every item of every system
    paired = (rk.shared_differences(x, domains if protocol == "wmt24" else None) if of_items
              else own[:, None] - own[None, :])  # fmt: skip
    adjusted = rk.adjust(p, correction)
    significant = adjusted < alpha
    order, ties = _order(names, sign * own)
    if rule == "mark" and protocol in ("wmt24", "wilcoxon", "ttest"):
        significant, reversed_notes = _reversed(significant, sign * own, sign * paired, names,
                                                p, shared)  # fmt: skip
        notes += reversed_notes
    better = (sign * own)[:, None] > (sign * own)[None, :]
    top, bottom = rk.rank_ranges(significant, better)
    cluster = rk.clusters(significant[np.ix_(order, order)])
    per_domain = rk.domain_scores(x, domains) if domains is not None else {}
    ranked = [
        RankedSystem(names[k], float(own[k]), int(top[k]), int(bottom[k]), int(cluster[pos]),
                     int((~np.isnan(x[k])).sum()),
                     {d: float(v[k]) for d, v in per_domain.items()})  # fmt: skip
        for pos, k in enumerate(order)
    ]
    pairs = [
        SystemPair(names[a], names[b], float(own[a] - own[b]), float(p[a, b]),
                   float(adjusted[a, b]), bool(significant[a, b]), int(shared[a, b]),
                   {d: float(m[a, b]) for d, m in (by_domain or {}).items()},
                   float(paired[a, b]))  # fmt: skip
        for i, a in enumerate(order)
        for b in order[i + 1 :]
    ]
    score_kind = "corpus" if not of_items else (
        "mean-of-domain-means" if protocol == "wmt24" else "mean")  # fmt: skip
    return SystemRanking(
        name, protocol, correction, alpha, higher_is_better, ranked, pairs, x.shape[1],
        list(dict.fromkeys(domains)) if domains is not None else [],
        n_used, seed if n_used else None,
        ranking_signature(name, protocol, score_kind, higher_is_better, rule, correction, alpha,
                          n_used, seed, signature),
        ties + notes, rule, score_kind,
    )  # fmt: skip


def _check_settings(protocol: str, correction: str, alpha: float) -> None:
    if protocol not in PROTOCOLS:
        raise UserInputError(
            f"unknown protocol {protocol!r}; expected one of {', '.join(PROTOCOLS)}"
        )
    if correction not in rk.CORRECTIONS:
        raise UserInputError(
            f"unknown correction {correction!r}; expected one of {', '.join(rk.CORRECTIONS)}"
        )
    if not 0.0 < alpha < 1.0:
        raise UserInputError(f"alpha must be between 0 and 1 (got {alpha})")


def _check_matrix(x: np.ndarray, names: list[str], domains: Sequence[str] | None) -> None:
    if x.ndim != 2 or x.shape[0] != len(names):
        raise UserInputError(f"expected one row of scores per system ({len(names)} systems)")
    if len(names) < 2:
        raise UserInputError("ranking needs two systems or more")
    if len(set(names)) != len(names):
        raise UserInputError("two systems have the same name")
    infinite = np.argwhere(np.isinf(x))
    if infinite.size:
        s, i = infinite[0]
        raise UserInputError(
            f"the score of {names[s]!r} on item {i + 1} is {x[s, i]}: scores must be finite "
            "(NaN or None: no score)"
        )
    empty = [n for n, row in zip(names, x, strict=True) if np.isnan(row).all()]
    if empty:
        raise UserInputError(f"no scored item for system(s) {', '.join(empty)}")
    if domains is not None and len(domains) != x.shape[1]:
        raise UserInputError(f"{len(domains)} domains for {x.shape[1]} items")


def _items(x, names, protocol, domains, missing):
    """``(scores, domains, rule, notes)`` on the items the rule ``missing`` keeps (items no
    system has are left out under every rule); ``rule`` is ``none`` when every system has
    every item."""
    if missing is None:
        missing = "mark" if protocol in ("wmt24", "mannwhitney") else "refuse"
    if missing not in MISSING_RULES:
        raise UserInputError(
            f"--missing must be one of {', '.join(MISSING_RULES)} (got {missing!r})"
        )
    scored = ~np.isnan(x)
    notes = []
    anyone = scored.any(axis=0)
    if not anyone.all():
        notes.append(f"{int((~anyone).sum())} item(s) without a score from any system left out")
        x, scored = x[:, anyone], scored[:, anyone]
        domains = _kept(domains, anyone)
    if scored.all():
        return x, domains, "none", notes
    n = x.shape[1]
    lacking = ", ".join(f"{names[s]} ({int(scored[s].sum())})" for s in range(len(names))
                        if not scored[s].all())  # fmt: skip
    common = scored.all(axis=0)
    k = int(common.sum())
    if missing == "refuse" or (missing == "mark" and protocol in ("bootstrap", "ar")):
        why = ("resamples every item of every system" if protocol in ("bootstrap", "ar") else
               "would compare means over different items")  # fmt: skip
        raise UserInputError(
            f"the systems are not scored on the same {n} items (scored items: {lacking}): "
            f"{protocol} {why}. Choose --missing common (every score and test on the {k} "
            "items every system has)"
            + ("" if protocol in ("bootstrap", "ar") else
               " or --missing mark (WMT's rule: each system's mean over its own items, each "
               "pair tested on the items it shares, a pair whose shared items favour the "
               "lower-ranked system never significant)")  # fmt: skip
        )
    if missing == "common":
        if k < 2:
            raise UserInputError(
                f"--missing common: {k} item(s) have a score from every system; a ranking "
                "needs 2 or more (--missing mark tests each pair on the items it shares)"
            )
        notes.append(f"--missing common: {n - k} of {n} items left out (not scored by every "
                     f"system: {lacking}); every score and test is on the {k} items all "
                     "systems have")  # fmt: skip
        domains = _kept(domains, common)
        return x[:, common], domains, "common", notes
    notes.append(f"--missing mark: the systems are scored on different items ({lacking} of "
                 f"{n}); each system's score is its mean over its own items and each pair is "
                 "tested on the items it shares")  # fmt: skip
    return x, domains, "mark", notes


def _kept(domains: Sequence[str] | None, keep: np.ndarray) -> list[str] | None:
    return None if domains is None else [str(d) for d in np.asarray(domains, dtype=object)[keep]]


def _reversed(significant, own, paired, names, p, shared):
    """``significant`` without the pairs whose shared items favour the system that the
    means over each system's own items rank lower (all oriented: higher is better), and a
    note naming each of them."""
    flip = significant & (np.sign(paired) != np.sign(own[:, None] - own[None, :]))
    notes = []
    for a, b in zip(*np.nonzero(np.triu(flip)), strict=True):
        hi, lo = (a, b) if own[a] > own[b] else (b, a)
        notes.append(
            f"{names[hi]} is above {names[lo]} by its mean over its own items, but on the "
            f"{shared[a, b]} items they share {names[lo]} is ahead (p {p[a, b]:.3g}): the "
            "pair compares different items, so it is not counted as a significant difference"
        )
    return significant & ~flip, notes


def _check_resamples(protocol, correction, alpha, n, n_systems) -> None:
    """Refuse a Holm correction that no pair can pass: its smallest adjusted p-value is the
    number of pairs times the test's smallest p-value, ``1 / (resamples + 1)``."""
    pairs = n_systems * (n_systems - 1) // 2
    if protocol in ("bootstrap", "ar") and correction == "holm" and pairs / (n + 1) >= alpha:
        raise UserInputError(
            f"with {n} resamples the smallest p-value is 1/{n + 1}, and Holm's correction "
            f"multiplies it by the {pairs} pairs: no pair could reach alpha {alpha:g}. Use "
            f"--resamples {math.floor(pairs / alpha)} or more (or --correction bh)"
        )


def _tests(oriented, names, protocol, domains, metric, stats, n_resamples, seed, alpha, sign):
    """``(p, shared items, per-domain p, each system's score in its own direction, resamples
    used)``."""
    x = oriented
    if protocol in rk.ITEM_TESTS:
        try:
            tests = rk.pairwise_tests(x, protocol, domains=domains)
        except ValueError as exc:
            raise UserInputError(_named(str(exc), names)) from None
        own = sign * rk.system_scores(x, domains if protocol == "wmt24" else None)
        return tests.p, tests.n_shared, tests.by_domain, own, 0
    from mtpalette.stats.paired import MeanOfScores, all_pairs

    of_items = stats is None
    if of_items:  # every system has every item (the rule of _items)
        metric, stats = MeanOfScores("mean"), list(x)
    elif bool(metric.higher_is_better) != (sign > 0):
        raise UserInputError(f"{metric.spec}: its direction and the ranking's differ")
    test = "bs" if protocol == "bootstrap" else "ar"
    try:
        res = all_pairs([metric], [[st] for st in stats], names, test=test,
                        n_trials=n_resamples, alpha=alpha, seed=seed)  # fmt: skip
    except ValueError as exc:
        raise UserInputError(str(exc)) from None
    shared = np.full((len(names), len(names)), x.shape[1])
    own = sign * res.score[:, 0] if of_items else res.score[:, 0]
    return res.p_value[:, :, 0], shared, None, own, res.n_trials


def _named(message: str, names: Sequence[str]) -> str:
    """``systems 3 and 5 ...`` with the systems' names."""
    import re

    return re.sub(
        r"systems (\d+) and (\d+)",
        lambda m: f"systems {names[int(m.group(1))]!r} and {names[int(m.group(2))]!r}",
        message,
    )


def ranking_signature(name, protocol, score_kind, higher, missing, correction, alpha, n, seed,
                      metric_signature) -> Signature:  # fmt: skip
    """Every setting that changes the ranking, as used (``alpha`` to its last digit), with
    the signature of the score ranked (``metric_signature``: a signature or its text) nested;
    the Wilcoxon protocols name the rule choosing the exact or the normal distribution
    (:data:`mtpalette.stats.signed_rank.RULE`).

    Examples
    --------
    >>> s = ranking_signature("chrf", "bootstrap", "corpus", True, "none", "holm", 0.05, 1000,
    ...                       7, "chrf|nrefs:1|version:0")
    >>> str(s).split("|")[:3], str(s.fields["score"])
    (['chrf', 'what:system-ranking', 'protocol:bootstrap'], 'chrf|nrefs:1|version:0')
    """
    from mtpalette._version import __version__

    fields = {"what": "system-ranking", "protocol": protocol, "system-score": score_kind,
              "higher-is-better": bool(higher), "missing": missing, "correction": correction,
              "alpha": float(alpha)}  # fmt: skip
    if n:
        fields |= {"resamples": n, "seed": seed}
    if protocol in ("wilcoxon", "wmt24"):  # scipy changed its default rule in 1.15
        fields["wilcoxon"] = WILCOXON_RULE
    if metric_signature:
        fields["score"] = Signature.of(metric_signature)
    return Signature(name, fields, __version__)
