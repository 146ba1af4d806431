"""Can ORANGE be trusted here? How often machine output outranks the held-out reference.

ORANGE assumes that a reference is a better translation than the machine outputs of its
segment (Lin and Och, 2004, who name the risk in their conclusion). With strong modern
systems that premise can fail. For each metric, on candidate lists with ``R >= 2``
references, each reference ``k`` is held out in turn and scored, as every candidate is,
against the other references (ORANGE's leave-one-out setting); then:

* **outranked**: the share of (segment, held-out reference) cases in which at least one
  candidate scores strictly better than the reference;
* **outranking candidates**: the share of (candidate, held-out reference) pairs in which the
  candidate scores strictly better;
* **humans agree**: where humans rated both the candidates and the references (MQM TED rates
  ``ref`` and ``refB`` like systems), the share of the metric's outranking (candidate,
  reference) pairs in which humans rate the candidate at least as good as the reference;

and, from the human scores alone, the share of cases in which some rated candidate is rated
at least as good as the reference. Every share has a percentile bootstrap interval over
segments (seeded).

A high "outranked" with a high "humans agree" says the references are no longer better than
the systems - ORANGE then rewards metrics for ranking good systems below poorer references.
A high "outranked" with a low "humans agree" says the metric, not the premise, is at fault.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.metaeval.candidates import ONE_REFERENCE, CandidateLists
from mtpalette.metaeval.external import (
    ExternalMetric,
    external_heldout_scores,
    reference_names,
)
from mtpalette.metrics.base import Metric
from mtpalette.metrics.scoring import TextPairs, compute_stats
from mtpalette.stats.bootstrap import BootstrapCI
from mtpalette.stats.resampling import (
    Seed,
    bootstrap_interval,
    index_batches,
    resample_counts,
    resolve_seed,
)

#: the metrics audited when none is named
DEFAULT_METRICS = ["bleus:4", "chrf", "rouge-l", "wer"]
#: the label of the audit's progress bar
HELD_OUT = "scoring with each reference held out"


def heldout_scores(lists: CandidateLists, metric: Metric) -> tuple[np.ndarray, np.ndarray]:
    """``(cand (R, P), refs (R, S))``: with reference ``k`` held out, every candidate's and
    reference ``k``'s score against the other references."""
    R, S = lists.n_refs, lists.n_segments
    if R < 2:
        raise UserInputError(ONE_REFERENCE)
    seg = lists.segment_of_candidates()
    if isinstance(metric, ExternalMetric):
        return external_heldout_scores(lists, metric)
    cand = np.empty((R, len(lists.texts)))
    refs = np.empty((R, S))
    both_seg = np.concatenate([seg, np.arange(S)])
    for k in range(R):
        others = [lists.refs[j] for j in range(R) if j != k]
        pairs = TextPairs(list(lists.texts) + list(lists.refs[k]), both_seg, others)
        stats = compute_stats([metric], pairs)[metric]
        scores = np.asarray(metric.sentence_scores(stats), dtype=np.float64)
        cand[k], refs[k] = scores[: len(lists.texts)], scores[len(lists.texts) :]
    return cand, refs


@dataclass(frozen=True)
class AuditRow:
    """One metric's audit line."""

    metric: str
    outranked: BootstrapCI
    outranking_candidates: BootstrapCI
    humans_agree: BootstrapCI | None
    humans_prefer: BootstrapCI | None
    n_outranking_rated: int
    higher_is_better: bool

    def to_dict(self) -> dict[str, Any]:
        def ci(x: BootstrapCI | None) -> dict[str, float] | None:
            return None if x is None else {"value": x.value, "low": x.low, "high": x.high}

        return {
            "metric": self.metric,
            "outranked": ci(self.outranked),
            "outranking_candidates": ci(self.outranking_candidates),
            "humans_agree": ci(self.humans_agree),
            "humans_prefer": ci(self.humans_prefer),
            "n_outranking_rated_pairs": self.n_outranking_rated,
            "higher_is_better": self.higher_is_better,
        }


@dataclass(frozen=True)
class Audit:
    """The audit of one data set: per metric rows and the human-only share."""

    rows: list[AuditRow]
    human_outranked: BootstrapCI | None
    human_outranked_strict: BootstrapCI | None
    n_segments: int
    n_refs: int
    n_candidates: int
    ref_names: list[str]
    n_resamples: int
    confidence: float
    seed: int | None

    def to_pandas(self):
        """One row per metric, flat: each share as three columns (``outranked``,
        ``outranked_low``, ``outranked_high``...)."""
        from mtpalette.records import frame

        return frame(r.to_dict() for r in self.rows)

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON (the shares nested as ``{value, low, high}``)."""
        from mtpalette.records import dumps

        return dumps(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        h, hs = self.human_outranked, self.human_outranked_strict
        return {
            "n_segments": self.n_segments,
            "n_refs": self.n_refs,
            "n_candidates": self.n_candidates,
            "references": self.ref_names,
            "human_outranked": None
            if h is None
            else {"value": h.value, "low": h.low, "high": h.high},
            "human_outranked_strict": None
            if hs is None
            else {"value": hs.value, "low": hs.low, "high": hs.high},
            "rows": [r.to_dict() for r in self.rows],
            "bootstrap": self.n_resamples,
            "confidence": self.confidence,
            "seed": self.seed,
            "definitions": {
                "outranked": "share of (segment, held-out reference) cases where some candidate "
                "scores strictly better than the reference, both against the other references",
                "outranking_candidates": "share of (candidate, held-out reference) pairs where "
                "the candidate scores strictly better",
                "humans_agree": "share of the metric's outranking (candidate, reference) pairs, "
                "both rated, where humans rate the candidate at least as good",
                "humans_prefer": "the same with the candidate rated strictly better",
                "human_outranked": "share of (segment, rated reference) cases where some rated "
                "candidate is rated at least as good as the reference (strict: better)",
            },
        }


class _Ratio:
    """Per-segment numerators and denominators; the ratio of sums and its bootstrap."""

    def __init__(self, num: np.ndarray, den: np.ndarray) -> None:
        self.num, self.den = num.astype(np.float64), den.astype(np.float64)

    def value(self, counts: np.ndarray | None = None) -> np.ndarray | float:
        if counts is None:
            d = self.den.sum()
            return float(self.num.sum() / d) if d else float("nan")
        n, d = counts @ self.num, counts @ self.den
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(d > 0, n / np.where(d > 0, d, 1), np.nan)


def audit(
    lists: CandidateLists,
    metrics: Sequence[Metric],
    *,
    candidate_human: np.ndarray | None = None,
    reference_human: np.ndarray | None = None,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: Seed = 12345,
    progress=None,
) -> Audit:
    """Audit ORANGE's premise on ``lists`` for every metric.

    Parameters
    ----------
    candidate_human:
        ``(P,)`` human score of each candidate (NaN where unrated), higher is better.
    reference_human:
        ``(R, S)`` human score of each reference (NaN where unrated).
    progress:
        Optional wrapper of the metric loop (e.g. a progress bar's ``track``).

    Examples
    --------
    >>> from mtpalette.metrics import parse_specs
    >>> cl = CandidateLists.from_systems({"A": ["a b c", "x"], "B": ["a b", "y z"]},
    ...                                  [["a b c", "x y"], ["a b d", "x z"]])
    >>> a = audit(cl, parse_specs(["bleus:1"], tokenize="none"), n_resamples=0)
    >>> # segment 1: with "a b d" held out, "a b c" (scored against "a b c") beats it; with
    >>> # "a b c" held out nothing does; segment 2: no candidate beats either reference
    >>> a.rows[0].outranked.value
    0.25
    """
    R, S = lists.n_refs, lists.n_segments
    if R < 2 and metrics:
        raise UserInputError(
            "the metric part of the audit holds each reference out, so it needs at least 2 "
            "references per segment; with one, give no metric for the human part alone"
        )
    seg = lists.segment_of_candidates()
    P = len(seg)
    rng, recorded = resolve_seed(seed)
    batches = list(index_batches(S, n_resamples, rng)) if n_resamples else []
    counts = np.vstack([resample_counts(idx, S) for idx in batches]) if batches else None

    def ci(ratio: _Ratio) -> BootstrapCI:
        value = ratio.value()
        if counts is None:
            lo = hi = float("nan")
        else:
            lo, hi = bootstrap_interval(ratio.value(counts), confidence)
        return BootstrapCI(value, lo, hi, S, n_resamples, confidence, "percentile", recorded)

    def per_segment(x: np.ndarray) -> np.ndarray:
        return np.bincount(seg, weights=x.astype(np.float64), minlength=S)

    rated_pair = None
    human_ge = human_gt = None
    if candidate_human is not None and reference_human is not None:
        ch = np.asarray(candidate_human, dtype=np.float64)
        rh = np.asarray(reference_human, dtype=np.float64)
        if ch.shape != (P,) or rh.shape != (R, S):
            raise ValueError("candidate_human must be (P,) and reference_human (R, S)")
        rated_pair = ~np.isnan(ch)[None, :] & ~np.isnan(rh[:, seg])  # (R, P)
        human_ge = rated_pair & (np.nan_to_num(ch)[None, :] >= np.nan_to_num(rh[:, seg]))
        human_gt = rated_pair & (np.nan_to_num(ch)[None, :] > np.nan_to_num(rh[:, seg]))

    rows = []
    for m in metrics if progress is None else progress(metrics):
        cand, refs = heldout_scores(lists, m)
        sign = 1.0 if m.higher_is_better else -1.0
        beats = sign * cand > sign * refs[:, seg]  # (R, P)
        any_beats = np.stack([per_segment(beats[k]) > 0 for k in range(R)])  # (R, S)
        outranked = _Ratio(any_beats.sum(axis=0), np.full(S, R))
        share = _Ratio(per_segment(beats.sum(axis=0)), per_segment(np.full(P, R)))
        agree = prefer = None
        n_rated = 0
        if rated_pair is not None and human_ge is not None and human_gt is not None:
            used = beats & rated_pair
            n_rated = int(used.sum())
            den = per_segment(used.sum(axis=0))
            agree = ci(_Ratio(per_segment((used & human_ge).sum(axis=0)), den))
            prefer = ci(_Ratio(per_segment((used & human_gt).sum(axis=0)), den))
        rows.append(
            AuditRow(m.spec, ci(outranked), ci(share), agree, prefer, n_rated, m.higher_is_better)
        )
    human_out = human_strict = None
    if human_ge is not None and human_gt is not None and reference_human is not None:
        rated_ref = ~np.isnan(np.asarray(reference_human, dtype=np.float64))  # (R, S)
        outs = []
        for rel in (human_ge, human_gt):
            some = np.stack([per_segment(rel[k]) > 0 for k in range(R)]) & rated_ref
            outs.append(ci(_Ratio(some.sum(axis=0), rated_ref.sum(axis=0))))
        human_out, human_strict = outs
    return Audit(
        rows,
        human_out,
        human_strict,
        S,
        R,
        P,
        reference_names(lists, R),
        n_resamples,
        confidence,
        recorded,
    )


def audit_of_run(run: Any, feedback: Any):
    """The audit ``run`` (an audit run's description) asks for: its judged systems (with the
    human scores of candidates and rated references) or its candidates read, its metrics
    (:data:`DEFAULT_METRICS` unless named; none with one reference: the human part alone)
    and score files, the reference agreement, and the audit with a bar counting the metrics
    scored with each reference held out. Returns ``(audit, lists, metrics, specs, agreement,
    inputs)``: ``metrics`` parsed (the score files' last), ``specs`` as named, ``inputs`` the
    record of what was read."""
    from mtpalette.metaeval.references import reference_agreement_of
    from mtpalette.metrics import parse_specs
    from mtpalette.sources.candidates import judged_lists
    from mtpalette.sources.checks import bootstrap_of
    from mtpalette.sources.external import parse_scores

    cand_human = ref_human = None
    if run.judged.given:
        lists, cand_human, ref_human, inputs = judged_lists(run.judged, feedback)
    else:
        assert run.candidates is not None  # the run's validate() said so
        lists, _ = run.candidates.load()
        inputs = {"refs": [str(p) for p in run.candidates.refs]}
    specs = list(run.metrics or ([] if run.scores else DEFAULT_METRICS))
    if lists.n_refs < 2:
        if run.metrics or run.scores:
            raise UserInputError(
                "the metric part of the audit needs at least 2 references; with one, give no "
                "-m/--scores for the human part alone"
            )
        specs = []
    parsed = parse_specs(specs, tokenize=run.tokenize, lowercase=run.lowercase)
    external = parse_scores(run.scores, reference_names(lists, lists.n_refs), beside=parsed)
    agreement = reference_agreement_of(lists, parsed, run, feedback)
    parsed += external
    feedback.note(
        f"auditing {lists.n_segments} segments, {lists.n_refs} reference(s), "
        f"{len(parsed)} metric(s)"
    )
    result = audit(
        lists,
        parsed,
        candidate_human=cand_human,
        reference_human=ref_human,
        **bootstrap_of(run),
        progress=lambda ms: feedback.track(ms, HELD_OUT),
    )
    return result, lists, parsed, specs, agreement, inputs

