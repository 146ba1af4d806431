"""Reference aggregation for MBR: each candidate against the weighted mean of the references'
n-gram counts, for chrF, chrF++ and sentence BLEU.

Exact MBR scores N candidates against M pseudo-references (N x M utility calls). Reference
aggregation (DeNero et al. 2009; Vamvas and Sennrich 2024) averages the references' n-gram
counts first, with weights (uniform, or the softmax of the samples' log-probabilities), and
compares each candidate once with that aggregate: the matches of an order are
``sum_g min(c_i(g), sum_j w_j c_j(g))``, the reference n-grams ``sum_j w_j |r_j|_n``, and
BLEU's reference length the weighted expected length. The definitions are those of fastchrf's
``aggregate_chrf`` and mbrs's ``expected_scores_reference_aggregation``; the counts come from
the compiled kernel :func:`mtpalette.kernels.pairwise.aggregate_ngram_stats`, in float64.

Partial aggregation (``partitions=s``): the references are cut into ``s`` contiguous blocks of
``floor(M / s)`` references (the remainder dropped), each block aggregated, and a candidate's
expected utility is the mean over the blocks of its score against each (weighted by the
blocks' probability mass when log-probabilities are given). ``s = M`` is exact pairwise MBR
(every candidate against every reference, itself included), ``s = 1`` full aggregation.

References
----------
DeNero, Chiang and Knight (2009), Fast consensus decoding over translation forests;
Vamvas and Sennrich (2024), Linear-time minimum Bayes risk decoding with reference
aggregation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mtpalette.errors import UserInputError

#: the utilities reference aggregation is defined for (their statistics are n-gram counts)
AGGREGATABLE = ("chrf", "chrf++ (chrf:w=2)", "bleu (sentence, compat=sacrebleu)")


@dataclass(frozen=True)
class Aggregation:
    """Per segment, the block utilities of reference aggregation.

    Attributes
    ----------
    utilities:
        Per segment, ``(N, s)``: every candidate's score against each block's aggregate.
    mass:
        Per segment, ``(s,)``: each block's weight in the expected utility (1/s, or the
        block's probability mass).
    """

    utilities: list[np.ndarray]
    mass: list[np.ndarray]

    def expected(self) -> list[np.ndarray]:
        """Per segment, every candidate's expected utility (the blocks' weighted mean)."""
        return [u @ w if u.shape[1] else np.zeros(u.shape[0]) for u, w in zip(
            self.utilities, self.mass, strict=True)]  # fmt: skip


def block_weights(
    m: int, partitions: int, lprobs: Sequence[float] | None = None, *, segment: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The weight and block of each of ``m`` references, and each block's mass.

    Blocks are ``partitions`` contiguous runs of ``m // partitions`` references (block -1: the
    remainder, dropped). Weights are uniform, or the softmax of ``lprobs`` over the kept
    references; within a block they are normalised to sum to one, and the block's mass is
    its share of the total.

    Examples
    --------
    >>> w, g, mass = block_weights(5, 2)
    >>> w.tolist(), g.tolist(), mass.tolist()
    ([0.5, 0.5, 0.5, 0.5, 0.0], [0, 0, 1, 1, -1], [0.5, 0.5])
    >>> w, g, mass = block_weights(2, 1, [0.0, np.log(3.0)])
    >>> [round(x, 12) for x in w.tolist()], mass.tolist()
    ([0.25, 0.75], [1.0])
    """
    if partitions < 1:
        raise UserInputError(f"--partitions must be at least 1 (got {partitions})")
    if m == 0:  # a segment without references: no block, every utility 0
        return np.zeros(0), np.zeros(0, dtype=np.int64), np.zeros(partitions)
    if m < partitions:
        raise UserInputError(
            f"segment {segment + 1}: {m} reference(s) cannot be cut into {partitions} "
            "partitions (at most one per reference)"
        )
    size = m // partitions
    kept = size * partitions
    group = np.full(m, -1, dtype=np.int64)
    group[:kept] = np.arange(kept) // size
    if lprobs is None:
        p = np.full(kept, 1.0 / kept)
    else:
        lp = np.asarray(lprobs, dtype=np.float64)
        if lp.shape != (m,) or not np.all(np.isfinite(lp)):
            raise UserInputError(
                f"segment {segment + 1}: expected {m} finite log-probabilities, one per "
                f"reference, got {lp.shape[0] if lp.ndim == 1 else lp.shape}"
            )
        lp = lp[:kept]
        e = np.exp(lp - lp.max())
        p = e / e.sum()
    mass = p.reshape(partitions, size).sum(axis=1)
    weight = np.zeros(m)
    with np.errstate(invalid="ignore", divide="ignore"):
        within = p.reshape(partitions, size) / mass[:, None]
    # a block of no mass (underflow) keeps uniform weights; its mass 0 removes it
    within[mass == 0] = 1.0 / size
    weight[:kept] = within.ravel()
    if lprobs is None:
        mass = np.full(partitions, 1.0 / partitions)
    return weight, group, mass


def _views(metric):
    """The (view, order) pairs whose n-grams the metric counts, and how it scores them."""
    from mtpalette.metrics.bleu import BLEU
    from mtpalette.metrics.chrf import ChrF

    if isinstance(metric, ChrF):
        views = [(metric.view(), metric.n)] + [(v, metric.w) for v in metric.extra_views()]
        return [(v, n) for v, n in views if n], "chrf"
    if isinstance(metric, BLEU) and metric.compat == "sacrebleu":
        return [(metric.view(), metric.n)], "bleu"
    raise UserInputError(
        f"reference aggregation is defined for {', '.join(AGGREGATABLE)}; not for "
        f"{metric.spec!r} (use --decoder pairwise or pruning)"
    )


def _scores(metric, kind: str, stats: np.ndarray) -> np.ndarray:
    """The utility of aggregated statistics ``(..., orders, 3)``."""
    if kind == "chrf":
        from mtpalette.metrics.chrf import f_scores

        # as sacrebleu: no candidate n-grams of an order the reference does not have
        stats[..., 0] = np.where(stats[..., 1] > 0, stats[..., 0], 0.0)
        return f_scores(stats, metric.beta, metric.eps)
    n = metric.n
    rows = np.empty(stats.shape[:-2] + (2 + 2 * n,))
    rows[..., 0] = stats[..., 0, 0]  # candidate length: its unigrams
    rows[..., 1] = stats[..., 0, 1]  # the expected reference length
    rows[..., 2 : 2 + n] = stats[..., 2]
    rows[..., 2 + n :] = stats[..., 0]
    flat = rows.reshape(-1, rows.shape[-1])
    return metric.sentence_scores(flat).reshape(rows.shape[:-1])


def aggregate(
    candidates: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]] | None = None,
    metric: str = "chrf",
    *,
    partitions: int = 1,
    reference_lprobs: Sequence[Sequence[float]] | None = None,
    lowercase: bool = False,
    tokenize: str = "13a",
) -> Aggregation:
    """Every candidate's utility against the aggregated references of its segment.

    Parameters
    ----------
    candidates
        Per segment, its candidates.
    references
        Per segment, the references; None: the candidates themselves (MBR, each candidate
        among its own references, as in fastchrf and mbrs).
    metric
        ``chrf`` (any chrF or chrF++ spec) or ``bleu`` (sentence BLEU, its smoothing and
        effective order).
    partitions
        Contiguous blocks of references aggregated separately (1: all together).
    reference_lprobs
        Per segment, a log-probability per reference; None: uniform weights.

    Examples
    --------
    >>> agg = aggregate([["a b c", "a b d"]], partitions=2)
    >>> [round(x, 6) for x in agg.expected()[0].tolist()]  # = the mean of the pairwise scores
    [69.444444, 69.444444]
    """
    from mtpalette.kernels.pairwise import aggregate_ngram_stats
    from mtpalette.metrics import parse_specs
    from mtpalette.metrics.pairwise import BLOCK_CELLS, _blocks, _check, _offsets
    from mtpalette.text.encode import Encoder

    cands, refs = _check(candidates, references)
    (m,) = parse_specs([metric], tokenize=tokenize, lowercase=lowercase)
    views, kind = _views(m)
    if reference_lprobs is not None and len(reference_lprobs) != len(refs):
        raise UserInputError(
            f"{len(reference_lprobs):,} segments of log-probabilities for {len(refs):,} segments"
        )
    parts = [
        block_weights(
            len(r), partitions, None if reference_lprobs is None else reference_lprobs[s],
            segment=s,
        )
        for s, r in enumerate(refs)
    ]  # fmt: skip
    encoders = [Encoder(view) for view, _ in views]
    per = sum(order for _, order in views)
    utilities: list[np.ndarray] = []
    for lo, hi in _blocks([(len(c), partitions) for c in cands], per, BLOCK_CELLS):
        flat_c = [c for seg in cands[lo:hi] for c in seg]
        flat_r = [r for seg in refs[lo:hi] for r in seg]
        c_seg = _offsets([len(seg) for seg in cands[lo:hi]])
        r_seg = _offsets([len(seg) for seg in refs[lo:hi]])
        weight = np.concatenate([parts[s][0] for s in range(lo, hi)])
        group = np.concatenate([parts[s][1] for s in range(lo, hi)])
        count = np.full(hi - lo, partitions, dtype=np.int64)
        stats = [
            aggregate_ngram_stats(
                enc.encode(flat_c), c_seg, enc.encode(flat_r), r_seg, weight, group, count, order
            )
            for enc, (_, order) in zip(encoders, views, strict=True)
        ]
        # one scoring call for the block: every segment's (N_s, s) rows stacked
        st = np.concatenate([np.concatenate([p[s] for p in stats], axis=2)
                             for s in range(hi - lo)])  # fmt: skip
        flat = _scores(m, kind, st)
        utilities += np.split(flat, np.cumsum([len(c) for c in cands[lo:hi]])[:-1])
    return Aggregation(utilities, [p[2] for p in parts])
