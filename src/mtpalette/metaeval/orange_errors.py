"""The error analysis of an ORANGE run: per segment, the candidates a metric ranks above the
oracle (the human references), most comparisons won first, with their scores where they were
kept (:class:`~mtpalette.metaeval.orange.Comparisons`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.metaeval.orange import Comparisons, segment_ranks


def outranking_order(
    beats: np.ndarray, scores: np.ndarray | None, higher_is_better: bool
) -> np.ndarray:
    """The candidates (indices into ``beats``) that outrank the oracle in at least one
    comparison, as the error analysis lists them: most comparisons won first, then best
    score first, then list order.

    Examples
    --------
    >>> outranking_order(np.array([0, 2, 1, 2]), np.array([0.9, 0.1, 0.5, 0.3]), True).tolist()
    [3, 1, 2]
    """
    beats = np.asarray(beats, dtype=np.int64)
    idx = np.flatnonzero(beats > 0)
    if scores is None:
        return idx[np.argsort(-beats[idx], kind="stable")]
    sign = 1.0 if higher_is_better else -1.0
    return idx[np.lexsort((-sign * np.asarray(scores)[idx], -beats[idx]))]


def error_analysis(
    comp: Comparisons,
    *,
    ties: str = "mid",
    texts: Sequence[str] | None = None,
    origins: Sequence[str] | None = None,
    references: Sequence[Sequence[str]] | None = None,
    max_per_segment: int | None = None,
) -> Iterator[dict[str, Any]]:
    """Per segment, the candidates that outrank the oracle (one JSON-ready dict per segment).

    A candidate *outranks* the oracle when it scores strictly better in at least one of the
    ``K`` comparisons (``beats`` says in how many; with ``leave-one-out`` K = R). Candidates
    are listed by ``beats`` then by score, best first; ``max_per_segment`` keeps the first
    ones (``n_outranking`` always gives the full count). Segments where no candidate
    outranks the oracle are skipped.

    Parameters
    ----------
    comp:
        The metric's comparisons (with ``cand_scores`` and ``oracle_scores`` for scores).
    texts, origins:
        Per candidate (flat, in list order): its text and where it came from (system name or
        n-best position).
    references:
        ``references[k][s]``: the reference texts, to show next to the candidates.

    Examples
    --------
    >>> c = Comparisons.from_scores("m", [0.9, 0.5, 0.1], [0.5], [0, 3])
    >>> rec = next(error_analysis(c, texts=["a", "b", "c"]))
    >>> rec["oracle_rank"], [(x["text"], x["score"]) for x in rec["candidates"]]
    (2.5, [('a', 0.9)])
    """
    if comp.cutoffs is not None:
        raise UserInputError(
            f"{comp.metric}: a run combined from chunks keeps per-segment sums, not each "
            "candidate's comparisons: no error analysis (run it without --run-dir)"
        )
    ranks = segment_ranks(comp, ties=ties).tolist()
    kept = None if comp.scored is None else np.asarray(comp.scored, dtype=np.int64)
    better = comp.better.astype(np.int64)  # counters may be unsigned
    offsets = comp.offsets.tolist()
    outranking = np.zeros(len(better) + 1, dtype=np.int64)
    np.cumsum(better > 0, out=outranking[1:])
    n_outranking = (outranking[comp.offsets[1:]] - outranking[comp.offsets[:-1]]).tolist()
    oracle_scores = None if comp.oracle_scores is None else comp.oracle_scores.tolist()
    ref_scores = None if comp.ref_scores is None else comp.ref_scores.T.tolist()
    for s in range(comp.n_segments):
        lo, hi = offsets[s], offsets[s + 1]
        n_out = n_outranking[s]
        if n_out == 0:
            continue
        beats = better[lo:hi]
        pos = None  # where each listed candidate's scores are
        if kept is None:
            scores = None if comp.cand_scores is None else comp.cand_scores[lo:hi]
            idx = outranking_order(beats, scores, comp.higher_is_better)
            if comp.cand_scores is not None:
                pos = lo + idx
        else:
            a, b = np.searchsorted(kept, [lo, hi])
            idx = outranking_order(
                beats[kept[a:b] - lo], comp.cand_scores[a:b], comp.higher_is_better
            )
            pos, idx = a + idx, kept[a:b][idx] - lo
            if (max_per_segment is None or max_per_segment > len(idx)) and len(idx) < n_out:
                raise ValueError(
                    f"segment {s + 1}: scores were kept for {len(idx)} of its {n_out} "
                    f"outranking candidates; list at most {len(idx)} (max_per_segment)"
                )
        if max_per_segment is not None:
            idx = idx[:max_per_segment]
        one = None if pos is None or comp.cand_scores is None else comp.cand_scores[pos].tolist()
        each = None
        if pos is not None and comp.cand_scores_k is not None:
            each = comp.cand_scores_k[:, pos[: len(idx)]].T.tolist()
        cands = []
        for n, (j, won) in enumerate(zip(idx.tolist(), beats[idx].tolist(), strict=True)):
            item: dict[str, Any] = {"index": j, "beats": won}
            if one is not None:
                item["score"] = round(one[n], 6)
            if each is not None:
                item["scores"] = [round(v, 6) for v in each[n]]
            if origins is not None:
                item["origin"] = origins[lo + j]
            if texts is not None:
                item["text"] = texts[lo + j]
            cands.append(item)
        record: dict[str, Any] = {
            "metric": comp.metric,
            "segment": s + 1,  # numbered from 1, as everywhere in the outputs
            "n_candidates": hi - lo,
            "n_comparisons": comp.n_comparisons,
            "oracle": comp.oracle,
            "oracle_rank": ranks[s],
            "n_outranking": n_out,
        }
        if oracle_scores is not None:
            record["oracle_score"] = oracle_scores[s]
        if ref_scores is not None:
            record["reference_scores"] = [round(v, 6) for v in ref_scores[s]]
        if references is not None:
            record["references"] = [ref[s] for ref in references]
        record["candidates"] = cands
        yield record


def error_records(
    comparisons: Sequence[Comparisons], lists: Any, *, ties: str, most: int
) -> Iterator[dict[str, Any]]:
    """Per metric and segment, the candidates that outrank the references (at most ``most``
    listed): the records of ``errors.jsonl`` and of the report of :func:`orange`'s table.
    ``lists``: the :class:`~mtpalette.metaeval.candidates.CandidateLists` compared (not
    imported here: that module imports this one)."""
    for c in comparisons:
        yield from error_analysis(c, ties=ties, texts=lists.texts, origins=lists.origins,
                                  references=lists.refs, max_per_segment=most)  # fmt: skip
