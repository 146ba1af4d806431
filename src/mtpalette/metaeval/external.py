"""Metrics from score files: ORANGE and human correlation of precomputed segment scores.

An external metric (COMET, BLEURT, MetricX... run elsewhere) enters mtpalette as a
:class:`~mtpalette.io.scorefile.ScoreFile` keyed by system, segment and held-out reference.
This module turns it into the same objects the built-in metrics produce:

* :func:`external_comparisons` - a :class:`~mtpalette.metaeval.orange.Comparisons` for ORANGE
  (leave-one-out needs the ``heldout`` rows; average-score the plain ones);
* :func:`external_segment_scores` - a :class:`~mtpalette.metaeval.segments.MetricScores`
  for correlations (the corpus score of a system is the mean of its segment scores);

and :func:`export_orange_scores` / :func:`export_segment_scores` write a built-in metric's
scores in that layout, which is how the round trip is tested.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.io.mtme_files import parse_metric_filename
from mtpalette.io.nbest import system_names
from mtpalette.io.scorefile import ScoreFile
from mtpalette.metaeval.candidates import CandidateLists
from mtpalette.metaeval.orange import Comparisons, check_oracle
from mtpalette.metaeval.segments import MetricScores, SegmentData
from mtpalette.metrics.base import Metric, Pairs, Signature
from mtpalette.metrics.scoring import TextPairs, compute_stats


class ExternalMetric(Metric):
    """A metric whose scores come from a file: looked up, never computed from text."""

    name: ClassVar[str] = "external"

    def __init__(self, label: str, source: ScoreFile, *, higher_is_better: bool = True) -> None:
        super().__init__(tokenize="none")
        self.label = label
        self.source = source
        self.higher = higher_is_better

    @property
    def higher_is_better(self) -> bool:  # type: ignore[override]
        return self.higher

    @property
    def spec(self) -> str:
        return self.label

    def signature(self, *, n_refs: int) -> Signature:
        """The file's signature: ``nrefs`` is the references the file was computed with, as
        its name says (an MTME ``NAME-refA.refB.seg.score``: 2; ``NAME-src``: 0), or
        ``file`` when the name does not say; never the run's ``n_refs``, which the file's
        scores did not see."""
        from mtpalette._version import __version__

        digest = _file_digest(self.source.path)
        fields: dict[str, Any] = {
            "nrefs": file_nrefs(self.source.path), "source": "file", "file": self.source.path,
        }  # fmt: skip
        if digest:
            fields["sha256"] = digest[:16]
        fields["higher"] = self.higher
        return Signature(self.label, fields, __version__)

    def compute(self, pairs: Pairs, *extra: Pairs) -> np.ndarray:
        raise UserInputError(
            f"{self.label!r} comes from a score file: it can be looked up for the systems and "
            "segments of that file, not computed for new text"
        )

    def sentence_scores(self, stats: np.ndarray) -> np.ndarray:
        return stats[:, 0]

    corpus_combine = "mean"

    def corpus_score(self, stats: np.ndarray) -> float:
        return float(stats[:, 0].mean()) if len(stats) else float("nan")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ExternalMetric) and other.label == self.label

    def __hash__(self) -> int:
        return hash(("external", self.label))


def file_nrefs(paths: str) -> int | str:
    """How many references a score file was computed with, from its MTME name
    (``NAME-REF.LEVEL.score``, ``REF`` as ``refA``, ``refA.refB`` or ``src``); ``"file"``
    when a name does not say (another format, ``all``) or the files of ``paths`` (joined by
    ``", "``) disagree.

    Examples
    --------
    >>> file_nrefs("m/COMET-refA.refB.seg.score"), file_nrefs("Kiwi-src.seg.score")
    (2, 0)
    >>> file_nrefs("comet.json"), file_nrefs("BLEU-refA.seg.score, BLEU-refB.seg.score")
    ('file', 1)
    """
    counts = set()
    for name in paths.split(", "):
        try:
            refs = parse_metric_filename(name)[1]
        except UserInputError:
            return "file"
        if refs == "all":
            return "file"
        counts.add(0 if refs == "src" else len(refs.split(".")))
    return counts.pop() if len(counts) == 1 else "file"


def _file_digest(paths: str) -> str:
    h = hashlib.sha256()
    for name in paths.split(", "):
        p = Path(name)
        if not p.is_file():
            return ""
        h.update(p.read_bytes())
    return h.hexdigest()


def reference_names(
    lists_or_names: CandidateLists | Sequence[str] | None, n_refs: int
) -> list[str]:
    """The names references go by in score files: their file names shortened like system
    names (``newstest2021.de-en.ref.A.en`` and ``...ref.B.en`` -> ``A``, ``B``), or ``ref1``,
    ``ref2``... when the files are unknown."""
    names = lists_or_names.ref_names if isinstance(lists_or_names, CandidateLists) else None
    if (
        names is None
        and lists_or_names is not None
        and not isinstance(lists_or_names, CandidateLists)
    ):
        names = list(lists_or_names)
    if not names or len(names) != n_refs:
        return [f"ref{k + 1}" for k in range(n_refs)]
    return system_names(names)


def _origins(lists: CandidateLists) -> list[str]:
    if lists.origins is None:
        raise UserInputError("these candidate lists do not say where each candidate came from")
    return lists.origins


def external_comparisons(
    lists: CandidateLists, metric: ExternalMetric, *, oracle: str = "leave-one-out"
) -> Comparisons:
    """ORANGE comparisons of an external metric, as :func:`compare_candidates` gives them."""
    check_oracle(oracle)
    R, S = lists.n_refs, lists.n_segments
    if R < 2:
        raise UserInputError("ORANGE needs at least 2 references per segment")
    refs = reference_names(lists, R)
    origins = _origins(lists)
    seg = lists.segment_of_candidates()
    src = metric.source
    if oracle == "leave-one-out":
        cand, orc = external_heldout_scores(lists, metric)
    else:
        cand = np.array([[src.get(o, int(s) + 1) for o, s in zip(origins, seg, strict=True)]])
        orc = np.array(
            [[np.mean([_ref_score(src, refs[k], s + 1) for k in range(R)]) for s in range(S)]]
        )
    return Comparisons.from_scores(
        metric.label,
        cand,
        orc,
        lists.offsets,
        higher_is_better=metric.higher_is_better,
        oracle=oracle,
        n_refs=R,
        signature=metric.signature(n_refs=R),
    )


def external_heldout_scores(
    lists: CandidateLists, metric: ExternalMetric
) -> tuple[np.ndarray, np.ndarray]:
    """``(cand (R, P), refs (R, S))`` looked up: with reference ``k`` held out, each
    candidate's and reference ``k``'s score against the other references."""
    R, S = lists.n_refs, lists.n_segments
    src = metric.source
    if not src.has_heldout():
        raise UserInputError(
            "leave-one-out scores need each candidate's score with each reference held out "
            "(a 'heldout' column); give those rows or use --oracle average-score",
            path=src.path,
        )
    refs = reference_names(lists, R)
    origins = _origins(lists)
    seg = lists.segment_of_candidates()
    cand = np.array(
        [
            [src.get(o, int(s) + 1, refs[k]) for o, s in zip(origins, seg, strict=True)]
            for k in range(R)
        ]
    )
    orc = np.array([[_ref_score(src, refs[k], s + 1) for s in range(S)] for k in range(R)])
    return cand, orc


def _ref_score(src: ScoreFile, ref: str, segment: int) -> float:
    """A reference's score against the others: the ``heldout = ref`` row, else the plain one."""
    key = (ref, segment, ref)
    return src.scores[key] if key in src.scores else src.get(ref, segment)


def _item_lines(data: SegmentData) -> np.ndarray:
    lines = data.info.get("lines")
    if lines is None:
        return np.arange(data.n_items)
    return np.asarray(lines, dtype=np.int64)


def external_segment_scores(data: SegmentData, metric: ExternalMetric) -> MetricScores:
    """The :class:`MetricScores` of an external metric on ``data``'s rated translations."""
    lines = _item_lines(data)
    rated = ~np.isnan(data.human)
    seg = np.full(data.human.shape, np.nan)
    for s, system in enumerate(data.systems):
        for i in np.flatnonzero(rated[s]):
            seg[s, i] = metric.source.get(system, int(lines[i]) + 1)
    stats = [seg[s, rated[s]][:, None] for s in range(data.n_systems)]
    return MetricScores(
        metric.label, metric, seg, stats, rated, metric.signature(n_refs=len(data.refs))
    )


def external_system_scores(systems: Sequence[str], metric: ExternalMetric) -> np.ndarray:
    """The system scores of an external metric read from a system-level file (one score per
    system), in the order of ``systems``, oriented (higher is better); a system without a
    score is refused, naming the file."""
    by_system: dict[str, list[float]] = {}
    for (system, _, _), value in metric.source.scores.items():  # one key per system (its
        by_system.setdefault(system, []).append(value)  # reference, as the file names it)
    missing = [s for s in systems if s not in by_system]
    if missing:
        raise UserInputError(
            f"no system score for {', '.join(missing[:5])}"
            + (f" (and {len(missing) - 5} more)" if len(missing) > 5 else ""),
            path=metric.source.path,
        )
    twice = [s for s in systems if len(by_system[s]) > 1]
    if twice:
        raise UserInputError(f"several system scores for {', '.join(twice[:5])}",
                             path=metric.source.path)  # fmt: skip
    sign = 1.0 if metric.higher_is_better else -1.0
    return np.array([sign * by_system[s][0] for s in systems], dtype=np.float64)


# ---------------------------------------------------------------------------- exporting
def _sentence(metric: Metric, hyps, seg, refs) -> np.ndarray:
    stats = compute_stats([metric], TextPairs(hyps, np.asarray(seg, dtype=np.int64), refs))
    return np.asarray(metric.sentence_scores(stats[metric]), dtype=np.float64)


def export_orange_scores(
    lists: CandidateLists, metric: Metric
) -> Iterator[tuple[str, int, str, float]]:
    """A built-in metric's rows for every ORANGE need: candidates against all references and
    with each reference held out; each reference against the others."""
    R, S = lists.n_refs, lists.n_segments
    refs = reference_names(lists, R)
    origins = _origins(lists)
    seg = lists.segment_of_candidates()
    segments = np.arange(S)
    first = _sentence(metric, lists.texts, seg, lists.refs)
    for system, s, score in zip(origins, seg, first, strict=True):
        yield system, int(s) + 1, "", float(score)
    for k in range(R):
        others = [lists.refs[j] for j in range(R) if j != k]
        cand = _sentence(metric, lists.texts, seg, others)
        for system, s, score in zip(origins, seg, cand, strict=True):
            yield system, int(s) + 1, refs[k], float(score)
        own = _sentence(metric, lists.refs[k], segments, others)
        for s, score in enumerate(own):
            yield refs[k], s + 1, refs[k], float(score)


def export_segment_scores(
    data: SegmentData, metric: Metric
) -> Iterator[tuple[str, int, str, float]]:
    """A built-in metric's score of every rated translation of ``data``, keyed by system and
    line."""
    lines = _item_lines(data)
    rated = ~np.isnan(data.human)
    s_idx, i_idx = np.nonzero(rated)
    hyps = [data.hyps[s][i] for s, i in zip(s_idx.tolist(), i_idx.tolist(), strict=True)]
    scores = _sentence(metric, hyps, i_idx, data.refs)
    for s, i, score in zip(s_idx.tolist(), i_idx.tolist(), scores, strict=True):
        yield data.systems[s], int(lines[i]) + 1, "", float(score)
