"""The data of a correlation task and every metric's scores of it.

A *task* is human scores of several systems' translations of the same items (segments),
the translations and the references (:class:`SegmentData`). Every metric scores every rated
translation once (:func:`score_segments`, sharing tokenization and grouped passes), giving
each its :class:`MetricScores`. :meth:`SegmentData.pair_data` builds from both the one data
object of meta-evaluation, :class:`~mtpalette.metaeval.tasks.LanguagePairData`, which
:mod:`mtpalette.metaeval.correlation`, :mod:`mtpalette.metaeval.pair_tables` and the task
engine take.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.io.judgments import Judgments, ScoredTexts
from mtpalette.metaeval.candidates import display_names
from mtpalette.metaeval.tasks import LanguagePairData
from mtpalette.metrics.base import Metric
from mtpalette.metrics.scoring import TextPairs, compute_stats
from mtpalette.signature import Signature
from mtpalette.stats.grouping import system_means

#: how a metric's system score is made from its segments (``correlate --system-score``)
SYSTEM_SCORES = {
    "corpus": "corpus score of the rated segments",
    "mean": "mean of the rated segments",
}


def require_varied(human: np.ndarray) -> None:
    """Refuse human scores that are all equal (NaN: unrated): no correlation exists.

    Examples
    --------
    >>> require_varied(np.array([[1.0, np.nan], [2.0, 1.0]]))
    >>> require_varied(np.array([[1.0, np.nan], [1.0, 1.0]]))
    Traceback (most recent call last):
    mtpalette.errors.UserInputError: the human scores are all equal: no correlation can be computed
    """
    if len(np.unique(human[~np.isnan(human)])) < 2:
        raise UserInputError("the human scores are all equal: no correlation can be computed")


@dataclass
class SegmentData:
    """Human scores of ``S`` systems on ``I`` items, the translations and the references.

    Attributes
    ----------
    systems:
        System names (rows).
    human:
        ``(S, I)`` human scores, higher is better, NaN where unrated.
    hyps:
        ``hyps[s][i]``: system ``s``'s translation of item ``i``.
    refs:
        ``refs[k][i]``: reference ``k`` of item ``i``.
    items:
        The judgments' id of each item.
    info:
        Provenance (files, dropped systems, format); ``lines``: each item's text line.
    srcs:
        The source sentence of every item, when known (plugin metrics may read it).
    """

    systems: list[str]
    human: np.ndarray
    hyps: list[list[str]]
    refs: list[list[str]]
    items: list[Any]
    info: dict[str, Any] = field(default_factory=dict)
    srcs: list[str] | None = None

    def __post_init__(self) -> None:
        self.human = np.asarray(self.human, dtype=np.float64)
        S, n = self.human.shape
        if len(self.systems) != S or len(self.hyps) != S or any(len(h) != n for h in self.hyps):
            raise ValueError("systems, human scores and translations do not match")
        if not self.refs or any(len(r) != n for r in self.refs):
            raise ValueError("every reference stream needs one entry per item")

    @property
    def n_systems(self) -> int:
        return len(self.systems)

    @property
    def n_items(self) -> int:
        return self.human.shape[1]

    @property
    def n_rated(self) -> int:
        return int((~np.isnan(self.human)).sum())

    @classmethod
    def from_judgments(
        cls,
        judgments: Judgments,
        outputs: Mapping[str, Sequence[str]],
        refs: Sequence[Sequence[str]],
        *,
        seg_ids: Sequence[Any] | None = None,
        id_base: int | None = None,
        ref_names: Sequence[str] | None = None,
    ) -> SegmentData:
        """Align judgments with system output files (one line per segment) and references.

        Systems with outputs but no judgments are an error; judged systems without outputs
        are left out (listed in ``info["unscored_systems"]``).

        Examples
        --------
        >>> import numpy as np
        >>> j = Judgments(["A", "B"], [1, 2], np.array([[0.5, 0.1], [0.2, np.nan]]), "generic",
        ...               "j.tsv", item_base=1)
        >>> d = SegmentData.from_judgments(j, {"A": ["a1", "a2"], "B": ["b1", "b2"]},
        ...                                [["r1", "r2"]])
        >>> d.hyps, d.n_rated
        ([['a1', 'a2'], ['b1', 'b2']], 3)
        """
        if not refs:
            raise UserInputError("no reference given")
        n_lines = len(refs[0])
        for k, r in enumerate(refs):
            if len(r) != n_lines:
                name = ref_names[k] if ref_names else f"reference {k + 1}"
                raise UserInputError(f"{name} has {len(r)} lines, the first reference {n_lines}")
        judgments.require(outputs, listed_as="judged systems:")
        systems = [s for s in judgments.systems if s in outputs]
        if not systems:
            raise UserInputError("no judged system has an output file")
        lines = judgments.line_indices(seg_ids=seg_ids, id_base=id_base)
        for s in systems:
            if len(outputs[s]) != n_lines:
                first = ref_names[0] if ref_names else "the references"
                raise UserInputError(f"system {s!r} has {len(outputs[s])} lines, {first} {n_lines}")
        if lines.size and lines.max() >= n_lines:
            bad = int(np.argmax(lines))
            raise UserInputError(
                f"segment id {judgments.items[bad]!r} points to line {int(lines.max()) + 1}, "
                f"but the texts have {n_lines} lines",
                path=judgments.path,
            )
        sub = judgments.select(systems)
        hyps = [[outputs[s][line] for line in lines.tolist()] for s in systems]
        ref_cols = [[r[line] for line in lines.tolist()] for r in refs]
        info = {
            "judgments": judgments.path,
            "format": judgments.kind,
            "unscored_systems": [s for s in judgments.systems if s not in outputs],
            "lines": lines,
            "n_lines": n_lines,
        }
        if judgments.docs is not None:
            info["docs"] = [judgments.docs.get(item) for item in judgments.items]
        return cls(systems, sub.scores, hyps, ref_cols, list(judgments.items), info)

    @classmethod
    def from_scored_texts(cls, st: ScoredTexts, *, name: str = "all") -> SegmentData:
        """One row of judged translations (WMT17 test set): a single pseudo-system."""
        return cls(
            [name],
            st.scores[None, :],
            [list(st.hyps)],
            [list(st.refs)],
            list(range(1, len(st) + 1)),
            {"judgments": st.path, "format": "wmt17-testset"},
        )

    def select_items(self, keep: Sequence[int] | np.ndarray) -> SegmentData:
        """Only these item columns (e.g. the first ``n`` for a quick run)."""
        idx = np.asarray(keep, dtype=np.int64)
        info = dict(self.info)
        if "docs" in info:
            info["docs"] = [info["docs"][i] for i in idx.tolist()]
        if "lines" in info:
            info["lines"] = np.asarray(info["lines"])[idx]
        return SegmentData(
            self.systems,
            self.human[:, idx],
            [[h[i] for i in idx.tolist()] for h in self.hyps],
            [[r[i] for i in idx.tolist()] for r in self.refs],
            [self.items[i] for i in idx.tolist()],
            info,
            None if self.srcs is None else [self.srcs[i] for i in idx.tolist()],
        )

    def with_sources(self, lines: Sequence[str], path: str) -> SegmentData:
        """The same task with each item's source sentence, from the source file's ``lines``
        (one per text line, as the references)."""
        where = self.info.get("lines")
        if where is None:
            raise UserInputError("these judgments carry their own texts; --source does not apply")
        n_lines = int(self.info.get("n_lines", len(lines)))
        if len(lines) != n_lines:
            raise UserInputError(
                f"has {len(lines)} lines but the references have {n_lines}",
                path=path,
                line=min(len(lines), n_lines) + 1,
            )
        return replace(self, srcs=[lines[i] for i in np.asarray(where).tolist()])

    def pair_data(
        self, scores: Sequence[MetricScores], *, system_score: str = "corpus"
    ) -> LanguagePairData:
        """The one data object of meta-evaluation for these judged texts and their scores:
        human and oriented metric scores at segment level; at system level each system's
        mean human score over its rated segments and each metric's
        :meth:`MetricScores.system_scores`, oriented; ``scored`` keeps every
        :class:`MetricScores` (direction, signature, statistics).

        Examples
        --------
        >>> from mtpalette.metrics import parse_specs
        >>> d = SegmentData(["A", "B"], [[0.0, -1.0], [-5.0, np.nan]],
        ...                 [["a b", "c d"], ["a x", "c d"]], [["a b", "c d"]], [0, 1])
        >>> lp = d.pair_data(score_segments(d, parse_specs(["wer"], tokenize="none")))
        >>> lp.human["human"]["sys"].tolist(), lp.metrics["wer"]["sys"].tolist()
        ([-0.5, -5.0], [-0.0, -0.5])
        """
        if system_score not in SYSTEM_SCORES:
            raise UserInputError(f"unknown system score {system_score!r}; expected corpus or mean")
        metrics: dict[str, dict[str, Any]] = {}
        origins: dict[str, dict[str, str]] = {"human:human": {"sys": "mean of rated segments"}}
        for sc in scores:
            sys_ = sc.sign * sc.system_scores(system_score)
            metrics[sc.name] = {"seg": sc.oriented(), "sys": sys_}
            origins[sc.name] = {"seg": "segment scores", "sys": SYSTEM_SCORES[system_score]}
        human = {"human": {"seg": self.human, "sys": system_means(self.human)}}
        return LanguagePairData(list(self.systems), human, metrics, {}, origins,
                                scored={sc.name: sc for sc in scores})  # fmt: skip

    def drop_systems(self, names: Sequence[str]) -> SegmentData:
        keep = [k for k, s in enumerate(self.systems) if s not in set(names)]
        return SegmentData(
            [self.systems[k] for k in keep],
            self.human[keep],
            [self.hyps[k] for k in keep],
            self.refs,
            self.items,
            dict(self.info),
            self.srcs,
        )


@dataclass
class MetricScores:
    """One metric's scores of every rated translation of a :class:`SegmentData`.

    ``seg`` holds the metric's own scores (NaN where unrated); :meth:`oriented` negates an
    error metric. ``stats[s]`` are the sufficient statistics of system ``s``'s rated items
    (rows in item order, ``rated[s]`` marking which), for corpus scores.
    """

    name: str
    metric: Metric
    seg: np.ndarray
    stats: list[np.ndarray] = field(repr=False)
    rated: np.ndarray = field(repr=False)
    signature: Signature

    @property
    def higher_is_better(self) -> bool:
        return self.metric.higher_is_better

    @property
    def sign(self) -> float:
        return 1.0 if self.metric.higher_is_better else -1.0

    def oriented(self) -> np.ndarray:
        """Segment scores with higher = better."""
        return self.sign * self.seg

    def system_scores(self, kind: str = "corpus") -> np.ndarray:
        """The metric's own score of each system on its rated items, not negated: its corpus
        score (``corpus``), or the mean of its segment scores (``mean``, and where the
        metric has no corpus score: stored segment scores)."""
        if kind == "corpus":
            try:
                return self.sign * self.corpus_scores(None)[0]
            except (AttributeError, TypeError, ValueError):  # scores without statistics
                pass
        return system_means(self.seg)

    def corpus_scores(self, counts: np.ndarray | None = None) -> np.ndarray:
        """Oriented corpus score of each system on its rated items, each item repeated
        ``counts[r, i]`` times (``(m, S)``; one row of ones when ``counts`` is None)."""
        n_items = self.seg.shape[1]
        if counts is None:
            counts = np.ones((1, n_items))
        out = np.empty((counts.shape[0], len(self.stats)))
        for s, st in enumerate(self.stats):
            c = counts[:, self.rated[s]].astype(np.int64)
            for r in range(counts.shape[0]):
                rows = np.repeat(st, c[r], axis=0)
                out[r, s] = self.metric.corpus_score(rows) if len(rows) else np.nan
        return self.sign * out


def _unique_texts(data: SegmentData) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    """Distinct (item, text) pairs among the rated entries, and each entry's index."""
    rated = ~np.isnan(data.human)
    seen: dict[tuple[int, str], int] = {}
    texts: list[str] = []
    segs: list[int] = []
    s_idx, i_idx = np.nonzero(rated)
    inverse = np.empty(len(s_idx), dtype=np.int64)
    for e, (s, i) in enumerate(zip(s_idx.tolist(), i_idx.tolist(), strict=True)):
        text = data.hyps[s][i]
        j = seen.get((i, text))
        if j is None:
            j = seen[(i, text)] = len(texts)
            texts.append(text)
            segs.append(i)
        inverse[e] = j
    return texts, np.asarray(segs, dtype=np.int64), inverse, np.stack([s_idx, i_idx])


def score_segments(data: SegmentData, metrics: Sequence[Metric]) -> list[MetricScores]:
    """Every metric's score of every rated translation (identical texts scored once).

    Examples
    --------
    >>> from mtpalette.metrics import parse_specs
    >>> d = SegmentData(["A", "B"], [[1.0, 0.0], [0.0, np.nan]], [["a b", "c"], ["a", "d"]],
    ...                 [["a b", "c d"]], [1, 2])
    >>> [s] = score_segments(d, parse_specs(["bleus:2"], tokenize="none"))
    >>> s.seg.round(1).tolist()  # "c" vs "c d": precisions 1, brevity penalty exp(1 - 2)
    [[100.0, 36.8], [36.8, nan]]
    """
    if not metrics:
        raise UserInputError("no metric given")
    texts, segs, inverse, where = _unique_texts(data)
    if not texts:
        raise UserInputError("no rated translation to score")
    pairs = TextPairs(texts, segs, data.refs, data.srcs)
    stats = compute_stats(list(metrics), pairs)
    return _metric_scores(data, metrics, [stats[m][inverse] for m in metrics], where)


def rated_view(data: SegmentData, metrics: Sequence[Metric], stats) -> list[MetricScores]:
    """:func:`score_segments` of statistics computed already: ``stats[k][s]`` holds metric
    ``k``'s sufficient statistics of system ``s``'s translation of every item of ``data``
    (one row per item; e.g. :func:`mtpalette.sources.scoring.score_systems` of all segments),
    of which the rated rows are taken, so that a run scores its texts once.

    Examples
    --------
    >>> from mtpalette.metrics import parse_specs
    >>> d = SegmentData(["A", "B"], [[1.0, 0.0], [0.0, np.nan]], [["a b", "c"], ["a", "d"]],
    ...                 [["a b", "c d"]], [1, 2])
    >>> ms = parse_specs(["bleus:2"], tokenize="none")
    >>> full = score_segments(SegmentData(d.systems, np.zeros((2, 2)), d.hyps, d.refs, d.items),
    ...                       ms)
    >>> [s] = rated_view(d, ms, [full[0].stats])
    >>> s.seg.round(1).tolist()
    [[100.0, 36.8], [36.8, nan]]
    """
    rated = ~np.isnan(data.human)
    if not rated.any():
        raise UserInputError("no rated translation to score")
    where = np.stack(np.nonzero(rated))
    # entries in row-major order, as score_segments takes them: system by system, items ascending
    rows = [np.concatenate([np.asarray(st[s])[rated[s]] for s in range(data.n_systems)])
            for st in stats]  # fmt: skip
    return _metric_scores(data, metrics, rows, where)


def _metric_scores(data: SegmentData, metrics: Sequence[Metric], rows, where) -> list[MetricScores]:
    """Each metric's :class:`MetricScores` from ``rows[k]``, metric ``k``'s statistics of
    every rated entry (at ``where``), system by system, items ascending."""
    rated = ~np.isnan(data.human)
    out = []
    for m, name, st in zip(metrics, display_names(metrics), rows, strict=True):
        scores = np.asarray(m.sentence_scores(st), dtype=np.float64)
        seg = np.full(data.human.shape, np.nan)
        seg[where[0], where[1]] = scores
        # entries are in row-major order: system by system, items ascending
        bounds = np.r_[0, np.cumsum(rated.sum(axis=1))]
        per_system = [st[bounds[s] : bounds[s + 1]] for s in range(data.n_systems)]
        out.append(
            MetricScores(name, m, seg, per_system, rated, m.signature(n_refs=len(data.refs)))
        )
    return out
