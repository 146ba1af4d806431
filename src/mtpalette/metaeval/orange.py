"""ORANGE: how high a metric ranks the human references among machine translations.

For segment ``i`` with candidates ``c_1..c_{N_i}`` (an n-best list, or several systems'
outputs) and references ``r_1..r_R`` (R >= 2), a metric scores the candidates and an *oracle*;
the oracle's rank among the candidates, divided by ``N_i + 1``, is low for a metric that
prefers human translations. Two oracle definitions are offered:

``leave-one-out`` (mtpalette's reading of section 2, which only says to rank the references
within the combined list; the fairer one)
    For each ``k``, ``r_k`` and every candidate are scored against the same ``R - 1`` other
    references; ``r_k`` is ranked among the candidates; the segment's rank is the mean of the
    ``R`` ranks. References and candidates are scored under identical conditions.
``average-score`` (section 4, eq. 10; what the paper's tables used)
    Each ``r_k`` is scored against the other ``R - 1`` references and the mean of those ``R``
    scores is the oracle score; the candidates are scored against *all* ``R`` references
    (with the metric's own multi-reference policy) and the oracle is ranked among them.
    Note the asymmetry: candidates see one reference more than the references do, so with a
    metric whose score grows with the number of references (BLEU's max-clipping, best-of-R
    edit distances) the candidates are favoured and ORANGE is higher (worse) than with
    ``leave-one-out``. It is offered to reproduce the paper.

Rank of the oracle among ``N`` candidates: ``1 + #(strictly better) + w * #(ties)`` with
``w = 1/2`` (``mid``, default), ``0`` (``optimistic``) or ``1`` (``pessimistic``); better
follows the metric's direction (WER, PER, TER: lower is better). Two scores tie when they
differ by at most ``1e-9`` relative (so that one quantity computed in two floating-point ways
still ties). With ``leave-one-out`` the rank is the mean over the ``R`` held-out references,
so each candidate carries two counts: in how many of the ``R`` comparisons it beats the oracle
and in how many it ties.

ORANGE = ``(1/S) * sum_i rank_i / (N_i + 1)``: the paper's eq. 10 normalises by ``S (N + 1)``
with one N for all segments; real n-best lists and system pools vary in length, so each
segment is normalised by its own ``N_i + 1`` (equal to eq. 10 when N is constant). Segments
with fewer than ``min_candidates`` (at least 1) candidates are left out and counted. The
average rank (the paper's "Avg Rank") is reported next to it.

95% confidence intervals come from a bootstrap over segments; the same resampled segments
serve every metric, so the difference between a metric and the best one (lowest ORANGE) is a
paired bootstrap: a metric is *equivalent* to the best when the 95% interval of that difference
includes 0. This is our reading of the paper's grey cells: the paper names no test; it marks
metrics equivalent "when we factor in the 95% confidence intervals".

References
----------
Lin and Och (2004), ORANGE: a method for evaluating automatic evaluation metrics for machine
translation, COLING; sections 2 and 4, eq. 10, tables 2-7, figure 1. Yu et al., Limited
ORANGE (candidate lists from several MT systems). Koehn (2004), paired bootstrap resampling.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.kernels.ragged import Delimited
from mtpalette.metrics.base import Signature
from mtpalette.records import Record, out, written
from mtpalette.stats.bootstrap import (
    BootstrapCI,
    PairedDiff,
    bootstrap_cis,
    compare_with_best,
    resolve_seed,
)

ORACLES = ("leave-one-out", "average-score")
TIE_POLICIES: dict[str, float] = {"mid": 0.5, "optimistic": 0.0, "pessimistic": 1.0}
#: scores within this relative distance are ties
TIE_RTOL = 1e-9
EQUIVALENCE_TEST = (
    "paired bootstrap over segments: a metric is equivalent to the best (lowest ORANGE) when "
    "the {conf:g}% {method} interval of its per-segment ORANGE difference with the best "
    "includes 0"
)


def tie_weight(policy: str) -> float:
    """The share of tied candidates counted above the oracle.

    Examples
    --------
    >>> tie_weight("mid"), tie_weight("optimistic"), tie_weight("pessimistic")
    (0.5, 0.0, 1.0)
    """
    try:
        return TIE_POLICIES[policy]
    except KeyError:
        raise UserInputError(
            f"unknown tie policy {policy!r}; expected one of {', '.join(TIE_POLICIES)}"
        ) from None


def check_oracle(oracle: str) -> str:
    """``oracle`` if it names an oracle definition, else a :class:`UserInputError`."""
    if oracle not in ORACLES:
        raise UserInputError(
            f"unknown oracle definition {oracle!r}; expected one of {', '.join(ORACLES)}"
        )
    return oracle


def compare_with_oracle(
    cand: np.ndarray, oracle: np.ndarray, *, higher_is_better: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Element-wise: is each candidate strictly better than the oracle, and is it a tie?

    NaN scores are neither better nor tied.

    Examples
    --------
    >>> better, tie = compare_with_oracle(np.array([3.0, 2.0, 1.0]), np.array(2.0),
    ...                                   higher_is_better=True)
    >>> better.tolist(), tie.tolist()
    ([True, False, False], [False, True, False])
    >>> compare_with_oracle(np.array([0.1]), np.array(0.2), higher_is_better=False)[0].tolist()
    [True]
    """
    cand = np.asarray(cand, dtype=np.float64)
    oracle = np.asarray(oracle, dtype=np.float64)
    diff = cand - oracle if higher_is_better else oracle - cand
    scale = np.maximum(1.0, np.maximum(np.abs(cand), np.abs(oracle)))
    tie = np.abs(diff) <= TIE_RTOL * scale
    better = (diff > 0) & ~tie
    return better, tie


def rank_of_oracle(
    oracle_score: float,
    cand_scores: Sequence[float],
    *,
    higher_is_better: bool = True,
    ties: str = "mid",
) -> float:
    """The rank of one oracle score among candidate scores (1 is best).

    Examples
    --------
    >>> # two candidates above 0.5, two tied with it, one below
    >>> scores = [0.9, 0.7, 0.5, 0.5, 0.1]
    >>> [rank_of_oracle(0.5, scores, ties=t) for t in ("optimistic", "mid", "pessimistic")]
    [3.0, 4.0, 5.0]
    >>> rank_of_oracle(0.2, [0.1, 0.3], higher_is_better=False)  # an error rate: 0.1 is better
    2.0
    """
    better, tie = compare_with_oracle(
        np.asarray(cand_scores, dtype=np.float64),
        np.asarray(oracle_score),
        higher_is_better=higher_is_better,
    )
    return 1.0 + float(better.sum()) + tie_weight(ties) * float(tie.sum())


def orange_score(ranks: Sequence[float], n_candidates: Sequence[int]) -> float:
    """ORANGE from per-segment oracle ranks: the mean of ``rank_i / (N_i + 1)``.

    Examples
    --------
    >>> round(orange_score([235.0], [1024]), 4)  # Lin and Och (2004), table 2: BLEUS6
    0.2293
    >>> orange_score([2.0, 2.0], [3, 1])  # per-segment normalisation: (2/4 + 2/2) / 2
    0.75
    """
    r = np.asarray(ranks, dtype=np.float64)
    n = np.asarray(n_candidates, dtype=np.float64)
    return float(np.mean(r / (n + 1.0)))


@dataclass(frozen=True)
class Comparisons(Delimited):
    """How each candidate of each segment compares with the oracle, for one metric.

    Attributes
    ----------
    metric:
        The metric's spec.
    higher_is_better:
        The metric's direction.
    offsets:
        int64 ``(S + 1,)``: the candidates of segment ``s`` are ``offsets[s]:offsets[s + 1]``,
        in list order.
    better, ties:
        ``(P,)`` counts: in how many of the ``n_comparisons`` comparisons each candidate is
        strictly better than / tied with the oracle.
    n_comparisons:
        ``K``: ``R`` for ``leave-one-out``, 1 for ``average-score``.
    oracle:
        The oracle definition.
    n_refs:
        Number of references per segment.
    signature:
        The metric's signature (without the ORANGE settings).
    cand_scores, oracle_scores:
        Optional, for error analysis: each candidate's score and each segment's oracle score,
        averaged over the ``K`` comparisons.
    cand_scores_k, ref_scores:
        Optional, for error analysis: ``(K, P)`` each candidate's score in each comparison
        (with ``leave-one-out``, row ``k`` is against every reference but ``k``; with
        ``average-score``, one row against all references) and ``(R, S)`` each reference's
        score against the other references.
    scored:
        Optional: the candidates (flat indices, rising) whose scores ``cand_scores`` and
        ``cand_scores_k`` hold, when only those the error analysis lists were kept (the first
        ones of each segment in
        :func:`~mtpalette.metaeval.orange_errors.outranking_order`); None: every candidate's.
    cutoffs, better_at, ties_at:
        The compact form (:meth:`from_segment_sums`), where ``better`` and ``ties`` are empty:
        per segment, the sums of ``better`` and ``ties`` over its first ``min(N_i, n)``
        candidates for each ``n`` in ``cutoffs`` (rising, the last one ``max N_i``), ``(S,
        C)``. Ranks and curves need nothing else; a chunked run keeps this form, so its
        memory does not grow with the number of candidates.
    """

    metric: str
    higher_is_better: bool
    offsets: np.ndarray
    better: np.ndarray
    ties: np.ndarray
    n_comparisons: int
    oracle: str = "leave-one-out"
    n_refs: int = 0
    signature: Signature | str = ""
    cand_scores: np.ndarray | None = field(default=None, repr=False)
    oracle_scores: np.ndarray | None = field(default=None, repr=False)
    cand_scores_k: np.ndarray | None = field(default=None, repr=False)
    ref_scores: np.ndarray | None = field(default=None, repr=False)
    scored: np.ndarray | None = field(default=None, repr=False)
    cutoffs: np.ndarray | None = field(default=None, repr=False)
    better_at: np.ndarray | None = field(default=None, repr=False)
    ties_at: np.ndarray | None = field(default=None, repr=False)

    n_segments = Delimited.n_groups
    n_candidates = Delimited.sizes

    @classmethod
    def from_segment_sums(
        cls,
        metric: str,
        higher_is_better: bool,
        offsets: np.ndarray,
        cutoffs: np.ndarray,
        better_at: np.ndarray,
        ties_at: np.ndarray,
        n_comparisons: int,
        oracle: str,
        n_refs: int,
        signature: str,
    ) -> Comparisons:
        """The compact form (see the class): per-segment sums at ``cutoffs``, no candidate's
        own counts.

        Examples
        --------
        >>> full = Comparisons.from_scores("m", [0.9, 0.5, 0.1, 0.8], [0.5, 0.2], [0, 3, 4])
        >>> b, t = full.sums_at([1, 3])
        >>> c = Comparisons.from_segment_sums("m", True, full.offsets, [1, 3], b, t, 1,
        ...                                   "leave-one-out", 2, "")
        >>> segment_ranks(c).tolist(), segment_ranks(c, cutoff=1).tolist()
        ([2.5, 2.0], [2.0, 2.0])
        """
        empty = np.zeros(0, dtype=np.int64)
        return cls(
            metric, higher_is_better, np.asarray(offsets, dtype=np.int64), empty, empty,
            n_comparisons, oracle, n_refs, signature,
            cutoffs=np.asarray(cutoffs, dtype=np.int64),
            better_at=np.asarray(better_at, dtype=np.int64),
            ties_at=np.asarray(ties_at, dtype=np.int64),
        )  # fmt: skip

    def sums_at(self, cutoffs: Sequence[int] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per segment, the sums of ``better`` and of ``ties`` over its first ``min(N_i, n)``
        candidates for each ``n`` of ``cutoffs``: two int64 ``(S, C)`` arrays. In the compact
        form only its own cutoffs (or any at or past the longest list) are known.

        Examples
        --------
        >>> c = Comparisons.from_scores("m", [0.9, 0.5, 0.1], [0.5], [0, 3])
        >>> [x.tolist() for x in c.sums_at([1, 2, 3])]
        [[[1, 1, 1]], [[0, 1, 1]]]
        """
        cut = np.asarray(cutoffs, dtype=np.int64)
        if self.cutoffs is not None:
            longest = int(self.cutoffs[-1])
            wanted = np.minimum(cut, longest)  # past the longest list: the whole lists
            known = np.isin(wanted, self.cutoffs)
            if not known.all():
                raise UserInputError(
                    f"{self.metric}: this run kept its ranks at {len(self.cutoffs)} cutoffs "
                    f"(of N up to {longest}), not at {int(cut[~known][0])}: ask for the curve "
                    "when the run is made (--curve-step)"
                )
            col = np.searchsorted(self.cutoffs, wanted)
            return self.better_at[:, col], self.ties_at[:, col]
        starts = self.offsets[:-1]
        kept = starts[:, None] + np.minimum(self.n_candidates[:, None], cut[None, :])
        out = []
        for counts in (self.better, self.ties):
            csum = np.zeros(len(counts) + 1, dtype=np.int64)
            np.cumsum(counts, out=csum[1:])
            out.append(csum[kept] - csum[starts][:, None])
        return out[0], out[1]

    @classmethod
    def from_scores(
        cls,
        metric: str,
        cand_scores: Any,
        oracle_scores: Any,
        offsets: Any,
        *,
        higher_is_better: bool = True,
        oracle: str = "leave-one-out",
        n_refs: int = 0,
        signature: str = "",
    ) -> Comparisons:
        """Comparisons from scores: ``cand_scores`` ``(K, P)``, ``oracle_scores`` ``(K, S)``.

        Row ``k`` holds the scores of comparison ``k`` (held-out reference ``k`` for
        ``leave-one-out``; a single row for ``average-score``). 1-D inputs mean ``K = 1``.

        Examples
        --------
        >>> c = Comparisons.from_scores("m", [0.9, 0.5, 0.1], [0.5], [0, 3])
        >>> c.better.tolist(), c.ties.tolist(), segment_ranks(c).tolist()
        ([1, 0, 0], [0, 1, 0], [2.5])
        """
        cand = np.atleast_2d(np.asarray(cand_scores, dtype=np.float64))
        orc = np.atleast_2d(np.asarray(oracle_scores, dtype=np.float64))
        offsets = np.asarray(offsets, dtype=np.int64)
        n_cand = np.diff(offsets)
        if (
            cand.shape[0] != orc.shape[0]
            or orc.shape[1] != len(n_cand)
            or (cand.shape[1] != offsets[-1])
        ):
            raise ValueError("cand_scores (K, P) and oracle_scores (K, S) do not match offsets")
        seg = np.repeat(np.arange(len(n_cand)), n_cand)
        better, tie = compare_with_oracle(cand, orc[:, seg], higher_is_better=higher_is_better)
        return cls(
            metric,
            higher_is_better,
            offsets,
            better.sum(axis=0).astype(np.int32),
            tie.sum(axis=0).astype(np.int32),
            cand.shape[0],
            oracle,
            n_refs,
            signature,
            cand.mean(axis=0),
            orc.mean(axis=0),
            cand,
            orc if oracle == "leave-one-out" else None,
        )


def segment_ranks(comp: Comparisons, *, ties: str = "mid", cutoff: int | None = None) -> np.ndarray:
    """The oracle's rank in every segment (mean over the ``K`` comparisons).

    With ``cutoff`` only the first ``cutoff`` candidates of each list count.

    Examples
    --------
    >>> c = Comparisons.from_scores("m", [0.9, 0.5, 0.1, 0.8], [0.5, 0.2], [0, 3, 4])
    >>> segment_ranks(c).tolist(), segment_ranks(c, cutoff=1).tolist()
    ([2.5, 2.0], [2.0, 2.0])
    """
    w = tie_weight(ties)
    longest = int(comp.n_candidates.max(initial=0))
    better, tied = comp.sums_at([longest if cutoff is None else cutoff])
    return 1.0 + (better[:, 0] + w * tied[:, 0]) / comp.n_comparisons


@dataclass(frozen=True)
class OrangeRow(Record):
    """One metric's line of the ORANGE table.

    ``orange`` is a fraction (0.229 for 22.9%); ``diff_to_best`` the paired difference of
    ORANGE with the best metric's (``None`` without bootstrap); ``equivalent`` says that the
    difference is not significant (our reading of the paper's grey cells; also True for the best
    itself).
    """

    metric: str
    orange: BootstrapCI = field(
        metadata=out(parts={"orange": "value", "orange_low": "low", "orange_high": "high"})
    )
    avg_rank: BootstrapCI = field(metadata=out(
        parts={"avg_rank": "value", "avg_rank_low": "low", "avg_rank_high": "high"}))  # fmt: skip
    best: bool
    equivalent: bool = field(metadata=out("equivalent_to_best"))
    diff_to_best: PairedDiff | None = field(metadata=out(parts={
        "diff_to_best": "diff", "diff_low": "low", "diff_high": "high", "p_value": "p_value",
    }))  # fmt: skip
    signature: Signature = field(metadata=out(after="higher_is_better"))
    higher_is_better: bool = field(metadata=out("metric_higher_is_better"))

    @written(after="diff_to_best")
    def n_segments(self) -> int:
        """The segments the ORANGE was taken over."""
        return self.orange.n


@dataclass(frozen=True)
class OrangeTable(Record):
    """The ORANGE table of several metrics on the same candidate lists."""

    rows: list[OrangeRow] = field(metadata=out(after="test"))  # after the settings
    oracle: str
    ties: str
    n_resamples: int = field(metadata=out("bootstrap"))
    confidence: float
    seed: int | None
    n_segments: int
    n_skipped: int
    n_refs: int
    n_candidates: dict[str, float]
    # written by to_dict when asked (with_segment_ranks)
    segment_ranks: np.ndarray = field(repr=False, metadata=out(skip=True))
    segments: np.ndarray = field(repr=False, metadata=out(skip=True))
    test: str = field(default="", metadata=out("equivalence_test"))

    @property
    def best(self) -> OrangeRow:
        return next(row for row in self.rows if row.best)

    def to_pandas(self):
        """One row per metric (the keys of :meth:`OrangeRow.to_dict`)."""
        from mtpalette.records import frame

        return frame(row.to_dict() for row in self.rows)

    def to_json(self) -> str:
        """:meth:`to_dict` (without the per-segment ranks) as JSON."""
        from mtpalette.records import dumps

        return dumps(self.to_dict(with_segment_ranks=False))

    def to_dict(self, *, with_segment_ranks: bool = True) -> dict[str, Any]:
        out = super().to_dict()
        if with_segment_ranks:
            out["segments"] = self.segments + 1  # the kept segments, numbered from 1
            out["segment_ranks"] = {
                row.metric: np.round(self.segment_ranks[:, j], 6) for j, row in enumerate(self.rows)
            }
        return out


def _check_same_lists(comparisons: Sequence[Comparisons]) -> None:
    if not comparisons:
        raise UserInputError("no metric to evaluate")
    first = comparisons[0]
    for c in comparisons[1:]:
        if not np.array_equal(c.offsets, first.offsets) or c.oracle != first.oracle:
            raise ValueError("all comparisons must come from the same candidate lists and oracle")


def _kept_segments(comp: Comparisons, min_candidates: int) -> np.ndarray:
    keep = comp.n_candidates >= max(1, min_candidates)
    if not keep.any():
        raise UserInputError(f"no segment has at least {max(1, min_candidates)} candidate(s)")
    return keep


def orange_signature(
    comp: Comparisons,
    *,
    ties: str,
    n_resamples: int,
    seed: int | None,
    confidence: float,
    method: str,
    min_candidates: int = 1,
) -> Signature:
    """The metric's signature extended with every ORANGE setting.

    Examples
    --------
    >>> c = Comparisons.from_scores("m", [0.9, 0.5], [0.5], [0, 2], n_refs=2,
    ...                             signature="m|nrefs:1|version:0")
    >>> str(orange_signature(c, ties="mid", n_resamples=0, seed=None, confidence=0.95,
    ...                      method="percentile"))
    'm|nrefs:1|version:0|orange:leave-one-out|refs:2|ties:mid|norm:per-segment|bs:0'
    """
    fields: dict[str, Any] = {"orange": comp.oracle, "refs": comp.n_refs, "ties": ties,
                              "norm": "per-segment"}  # fmt: skip
    if min_candidates > 1:
        fields["minN"] = min_candidates
    fields["bs"] = n_resamples
    if n_resamples:
        fields |= {"seed": seed, "ci": f"{confidence:g}-{method}"}
    metric = Signature.of(comp.signature) if comp.signature else None
    return Signature(comp.metric, fields, None, extends=metric)


def evaluate(
    comparisons: Sequence[Comparisons],
    *,
    ties: str = "mid",
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int | np.random.Generator | None = 12345,
    method: str = "percentile",
    min_candidates: int = 1,
) -> OrangeTable:
    """The ORANGE table: ORANGE and average rank of every metric with bootstrap intervals,
    and which metrics are statistically equivalent to the best.

    Parameters
    ----------
    comparisons:
        One :class:`Comparisons` per metric, all on the same candidate lists.
    ties:
        ``mid``, ``optimistic`` or ``pessimistic``.
    n_resamples:
        Bootstrap resamples over segments (0: no intervals, no equivalence test).
    confidence, method:
        Interval coverage and kind (``percentile`` or ``basic``).
    seed:
        Seed of the bootstrap; every interval and the paired test use the same resamples.
    min_candidates:
        Segments with fewer candidates are left out (the paper dropped lists shorter than
        1024); segments without candidates are always left out.

    Examples
    --------
    >>> a = Comparisons.from_scores("a", [0.9, 0.5, 0.1, 0.8], [0.5, 0.9], [0, 3, 4])
    >>> t = evaluate([a], n_resamples=0)
    >>> r = t.rows[0]
    >>> r.avg_rank.value, r.orange.value  # ranks 2.5 of 3, 1 of 1: (2.5/4 + 1/2) / 2
    (1.75, 0.5625)
    """
    _check_same_lists(comparisons)
    tie_weight(ties)
    first = comparisons[0]
    keep = _kept_segments(first, min_candidates)
    n_cand = first.n_candidates[keep].astype(np.float64)
    ranks = np.column_stack([segment_ranks(c, ties=ties)[keep] for c in comparisons])
    norm = ranks / (n_cand + 1.0)[:, None]
    M = len(comparisons)
    recorded: int | None = None
    if n_resamples > 0:
        if isinstance(seed, np.random.Generator):
            seed = int(seed.integers(0, 2**32))
        _, recorded = resolve_seed(seed)
        cis = bootstrap_cis(
            np.hstack([norm, ranks]),
            n_resamples=n_resamples,
            confidence=confidence,
            method=method,
            seed=recorded,
        )
        versus = compare_with_best(
            norm,
            higher_is_better=False,
            n_resamples=n_resamples,
            confidence=confidence,
            method=method,
            seed=recorded,
        )
        best, equivalent, diffs = versus.best, versus.equivalent, versus.diffs
    else:
        nan = float("nan")
        cis = [
            BootstrapCI(float(v), nan, nan, len(n_cand), 0, confidence, "none", None)
            for v in np.concatenate([norm.mean(axis=0), ranks.mean(axis=0)])
        ]
        best = int(np.argmin(norm.mean(axis=0)))
        equivalent = np.arange(M) == best
        diffs = [None] * M
    settings = dict(ties=ties, n_resamples=n_resamples, seed=recorded, confidence=confidence,
                    method=method, min_candidates=min_candidates)  # fmt: skip
    rows = [
        OrangeRow(
            c.metric,
            cis[j],
            cis[M + j],
            j == best,
            bool(equivalent[j]),
            diffs[j],
            orange_signature(c, **settings),
            c.higher_is_better,
        )
        for j, c in enumerate(comparisons)
    ]
    all_n = first.n_candidates[keep]
    return OrangeTable(
        rows,
        first.oracle,
        ties,
        n_resamples,
        confidence,
        recorded,
        int(keep.sum()),
        int((~keep).sum()),
        first.n_refs,
        {"min": int(all_n.min()), "max": int(all_n.max()), "mean": float(all_n.mean())},
        ranks,
        np.flatnonzero(keep),
        EQUIVALENCE_TEST.format(conf=100 * confidence, method=method) if n_resamples else "",
    )


@dataclass(frozen=True)
class OrangeCurve(Record):
    """ORANGE and average rank of every metric when only the first ``n`` candidates of each
    list are kept, for each cutoff ``n`` (the paper's figure 1)."""

    cutoffs: np.ndarray
    orange: dict[str, np.ndarray]
    avg_rank: dict[str, np.ndarray]
    ties: str = field(metadata=out(first=True))

    def rows(self) -> list[dict[str, Any]]:
        """Long format: one row per (cutoff, metric)."""
        return [
            {
                "cutoff": int(n),
                "metric": metric,
                "orange": float(self.orange[metric][i]),
                "avg_rank": float(self.avg_rank[metric][i]),
            }
            for i, n in enumerate(self.cutoffs)
            for metric in self.orange
        ]


def curve_cutoffs(max_n: int, step: int) -> np.ndarray:
    """Cutoffs ``1, 1 + step, 1 + 2 step, ...`` and always ``max_n`` itself.

    Examples
    --------
    >>> curve_cutoffs(10, 4).tolist()
    [1, 5, 9, 10]
    """
    if step < 1:
        raise UserInputError("the curve step must be at least 1")
    cut = np.arange(1, max_n + 1, step, dtype=np.int64)
    if cut.size == 0 or cut[-1] != max_n:
        cut = np.append(cut, max_n)
    return cut


def orange_curve(
    comparisons: Sequence[Comparisons],
    *,
    step: int = 1,
    cutoffs: Sequence[int] | None = None,
    ties: str = "mid",
    min_candidates: int = 1,
) -> OrangeCurve:
    """ORANGE at each cutoff ``n``, keeping the first ``n`` candidates of each list in order.

    A segment with ``N_i < n`` candidates keeps all of them and is normalised by
    ``N_i + 1``. The segments are those of :func:`evaluate` (same ``min_candidates``), so the
    last point equals the table's value.

    Examples
    --------
    >>> a = Comparisons.from_scores("a", [0.9, 0.5, 0.1, 0.8], [0.5, 0.9], [0, 3, 4])
    >>> c = orange_curve([a])
    >>> # n=1: (2/2 + 1/2)/2; n=2: (2.5/3 + 1/2)/2; n=3: (2.5/4 + 1/2)/2
    >>> c.cutoffs.tolist(), c.orange["a"].round(6).tolist()
    ([1, 2, 3], [0.75, 0.666667, 0.5625])
    """
    _check_same_lists(comparisons)
    first = comparisons[0]
    keep = _kept_segments(first, min_candidates)
    n_cand = first.n_candidates[keep]
    cut = (
        curve_cutoffs(int(n_cand.max()), step)
        if cutoffs is None
        else np.asarray(sorted(set(int(n) for n in cutoffs)), dtype=np.int64)
    )
    if cut.size == 0 or cut[0] < 1:
        raise UserInputError("curve cutoffs must be positive")
    orange: dict[str, np.ndarray] = {}
    avg: dict[str, np.ndarray] = {}
    w = tie_weight(ties)
    kept = np.minimum(n_cand[:, None], cut[None, :])  # (S kept, C)
    for c in comparisons:
        better, tied = c.sums_at(cut)  # every cutoff from one pass
        ranks = 1.0 + (better[keep] + w * tied[keep]) / c.n_comparisons
        # each cutoff's mean over one contiguous row: numpy's pairwise sum, as for one vector
        by_cut, norm = np.ascontiguousarray(ranks.T), np.ascontiguousarray((ranks / (kept + 1.0)).T)
        orange[c.metric] = np.array([row.mean() for row in norm])
        avg[c.metric] = np.array([row.mean() for row in by_cut])
    return OrangeCurve(cut, orange, avg, ties)
