"""Run many metrics over one set of texts: tokenize once per view, share work per group."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import chain, repeat
from operator import is_not
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.metrics.base import Metric, Pairs
from mtpalette.text.encode import Encoder, TextView


@dataclass
class TextPairs:
    """Candidates as text, each tied to a segment, and the references of every segment.

    ``refs[k][s]`` is the ``k``-th reference of segment ``s`` or ``None`` when that segment
    has fewer references.

    Examples
    --------
    >>> tp = TextPairs.parallel(["a b"], [["a b"], ["a c"]])
    >>> tp.n_refs, tp.n_segments, tp.seg.tolist()
    (2, 1, [0])
    """

    hyps: Sequence[str]
    seg: np.ndarray
    refs: Sequence[Sequence[str | None]]
    #: the source sentence of every segment, when known (plugins may read it)
    srcs: Sequence[str] | None = None
    #: the whole corpus's references (``refs[k][s]`` of every segment) when ``refs`` are a
    #: block of it: corpus-wide weights (NIST's) come from them (:class:`Pairs`)
    corpus_refs: Sequence[Sequence[str | None]] | None = None
    #: the encoders of every view; given by the caller, they are shared with other pairs
    #: (ORANGE's rounds, one per held-out reference), so each line is tokenized once for all
    _encoders: dict[TextView, Encoder] | None = field(default=None, repr=False)
    _pairs: dict[TextView, Pairs] = field(default_factory=dict, repr=False)
    _hyp_rows: dict[TextView, np.ndarray] = field(default_factory=dict, repr=False)
    _distinct: dict[TextView, tuple | None] = field(default_factory=dict, repr=False)
    _lowered: tuple | None = field(default=None, repr=False)
    _ref_mask: np.ndarray | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self._shared = self._encoders is not None
        if self._encoders is None:
            self._encoders = {}

    @classmethod
    def parallel(
        cls,
        hyps: Sequence[str],
        refs: Sequence[Sequence[str | None]],
        srcs: Sequence[str] | None = None,
    ) -> TextPairs:
        """One candidate per segment, as in a system output file with its references."""
        return cls(hyps, np.arange(len(hyps), dtype=np.int64), refs, srcs)

    @property
    def n_refs(self) -> int:
        return len(self.refs)

    def without_reference(self, k: int) -> TextPairs:
        """The same candidates as text against every reference but the ``k``-th."""
        drop = lambda refs: None if refs is None else [r for j, r in enumerate(refs) if j != k]  # noqa: E731
        return TextPairs(self.hyps, self.seg, drop(self.refs), self.srcs, drop(self.corpus_refs))

    @property
    def n_segments(self) -> int:
        return len(self.refs[0]) if self.refs else 0

    def texts(self, lowercase: bool) -> tuple[Sequence[str], Sequence[Sequence[str | None]]]:
        """``(hyps, refs)``, lower-cased when ``lowercase`` (Python's own ``lower()``, as
        sacrebleu, once per distinct string and kept): equal strings come back as one string
        object, which the compiled routes straight from text tokenize once.

        Examples
        --------
        >>> hyps, refs = TextPairs.parallel(["A b", "A b"], [["A B", None]]).texts(True)
        >>> hyps, refs, hyps[0] is hyps[1]
        (['a b', 'a b'], [['a b', None]], True)
        """
        if not lowercase:
            return self.hyps, self.refs
        if self._lowered is None:
            lower = {t: t.lower() for t in chain(self.hyps, *self.refs) if t is not None}
            self._lowered = (
                list(map(lower.__getitem__, self.hyps)),
                [[None if r is None else lower[r] for r in row] for row in self.refs],
            )
        return self._lowered

    def encoder(self, view: TextView) -> Encoder:
        if view not in self._encoders:
            self._encoders[view] = Encoder(view)
            ref_view = view.for_refs()
            if ref_view != view:  # the references' tokenizer, on the same vocabulary
                self._encoders[ref_view] = Encoder(ref_view, self._encoders[view].vocab)
        return self._encoders[view]

    def is_encoded(self, view: TextView) -> bool:
        """Whether the pairs are encoded for ``view`` already."""
        return view in self._pairs

    def prefer_encoded(self, view: TextView) -> bool:
        """Whether counting ids beats a metric's own pass over the text (a route straight
        from text): the pairs are encoded for ``view`` already, or they share their encoders
        with other pairs, which then tokenize none of these lines again."""
        return view in self._pairs or self._shared

    def encoded(self, view: TextView) -> Pairs:
        """The pairs encoded for ``view``; computed once and cached."""
        if view not in self._pairs:
            flat = list(chain.from_iterable(self.refs))
            P = len(self.hyps)
            encoder = self.encoder(view)
            if view.for_refs() == view:
                # one call: the new lines of candidates and references are tokenized together
                rows = encoder.rows([*self.hyps, *flat])
                both = encoder.take(rows)
                hyp, refs = both.span(0, P), both.span(P, len(both))
            else:
                rows = encoder.rows(self.hyps)
                hyp = encoder.take(rows)
                refs = self._encoders[view.for_refs()].encode(flat)
            self._hyp_rows[view] = rows[:P]
            corpus = None
            if self.corpus_refs is not None:
                corpus_lines = list(chain.from_iterable(self.corpus_refs))
                corpus = self._encoders[view.for_refs()].encode(corpus_lines)
            self._pairs[view] = Pairs(
                hyp=hyp,
                seg=np.asarray(self.seg, dtype=np.int64),
                refs=refs,
                ref_mask=self.ref_mask(),
                corpus_refs=corpus,
            )
        return self._pairs[view]

    def ref_mask(self) -> np.ndarray:
        """``(R, S)`` bool: whether segment ``s`` has its ``k``-th reference (computed once;
        not to be written to)."""
        if self._ref_mask is None:
            flat = list(chain.from_iterable(self.refs))
            mask = np.fromiter(map(is_not, flat, repeat(None)), dtype=bool, count=len(flat))
            self._ref_mask = mask.reshape(self.n_refs, self.n_segments)
            self._ref_mask.flags.writeable = False
        return self._ref_mask

    def present(self) -> np.ndarray:
        """``(P, R)`` bool: whether each candidate has its ``k``-th reference.

        Examples
        --------
        >>> TextPairs(["a", "b"], np.array([1, 0]), [["x", None]]).present().tolist()
        [[False], [True]]
        """
        return self.ref_mask()[:, np.asarray(self.seg, dtype=np.int64)].T

    def distinct(self, view: TextView) -> tuple[np.ndarray, np.ndarray] | None:
        """The distinct (candidate, segment) pairs for ``view``: ``(first, inverse)``, a
        candidate of each distinct pair and the distinct pair of every candidate; None when
        fewer than a tenth of the pairs repeat (taking the subset and spreading its rows back
        would then cost about what they save).

        Examples
        --------
        >>> tp = TextPairs(["a", "b", "a", "a"], np.array([0, 0, 0, 1]), [["x", "y"]])
        >>> first, inverse = tp.distinct(TextView("none"))
        >>> first.tolist(), inverse.tolist()
        ([0, 3, 1], [0, 2, 0, 1])
        """
        if view not in self._distinct:  # computed once, for every metric group of the view
            self.encoded(view)
            key = self._hyp_rows[view] * max(self.n_segments, 1) + np.asarray(self.seg, np.int64)
            _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
            few = 10 * (len(key) - len(first)) < len(key)
            self._distinct[view] = None if few else (first, inverse)
        return self._distinct[view]


def check_lengths(pairs: Pairs, limit: int | None, what: str) -> None:
    """Refuse a candidate or reference longer than ``limit`` tokens, naming its segment
    (1-based) and ``what`` set the limit."""
    if limit is None:
        return
    for side, rows in (("candidate", pairs.hyp), ("reference", pairs.refs)):
        lengths = rows.lengths()
        if len(lengths) and int(lengths.max()) > limit:
            row = int(np.argmax(lengths > limit))
            seg = int(pairs.seg[row]) if side == "candidate" else row % pairs.n_segments
            raise UserInputError(
                f"segment {seg + 1}: a {side} of {int(lengths[row]):,} tokens; {what} takes at "
                f"most {limit:,} tokens per sentence"
            )


def compute_stats(
    metrics: Sequence[Metric],
    pairs: TextPairs,
    *,
    max_tokens: int | None = None,
    leave_out: bool = False,
) -> dict[Metric, Any]:
    """Sufficient statistics of every metric, sharing tokenization and grouped passes.

    Sentences longer than a metric's :meth:`~Metric.token_limit` (the metrics whose cost
    grows with the square of the length), or than ``max_tokens`` for every metric, are
    refused before any work, naming the segment.

    ``leave_out``: per metric a list of ``R`` arrays, the statistics against every reference
    but the ``k``-th (:meth:`~Metric.compute_group_leaving_out`, ORANGE's leave-one-out).
    """
    groups: dict[object, list[Metric]] = {}
    for metric in metrics:
        groups.setdefault(metric.group_key(), []).append(metric)
    # the groups without a route straight from text first: a view they encode is then
    # encoded already when a text route is asked, which declines (counting ids is cheaper
    # than tokenizing the text again)
    ordered = sorted(groups.values(), key=lambda g: hasattr(type(g[0]), "compute_group_text"))
    out: dict[Metric, np.ndarray] = {}
    for members in ordered:
        cls = type(members[0])
        first = members[0]
        if getattr(cls, "reads_text", False):  # plugins score raw text (metrics/plugin.py)
            if leave_out:
                per_k = [cls.compute_text(members, pairs.without_reference(k))
                         for k in range(pairs.n_refs)]  # fmt: skip
                out.update(zip(members, map(list, zip(*per_k, strict=True)), strict=True))
            else:
                out.update(zip(members, cls.compute_text(members, pairs), strict=True))
            continue
        fused = getattr(cls, "compute_group_text", None)  # reads every view of the group
        if fused is not None and max_tokens is None and not leave_out:
            if all(m.token_limit() is None for m in members):
                stats = fused(members, pairs)  # straight from text, when it applies
                if stats is not None:
                    out.update(zip(members, stats, strict=True))
                    continue
        extra = [pairs.encoded(view) for view in first.extra_views()]
        encoded = pairs.encoded(first.view())
        check_lengths(encoded, max_tokens, "--max-tokens")
        for m in members:
            check_lengths(encoded, m.token_limit(), f"{m.spec} (its cost grows with the square "
                          "of the length)")  # fmt: skip
        run = cls.compute_group_leaving_out if leave_out else cls.compute_group
        distinct = pairs.distinct(first.view()) if cls.per_pair else None
        if distinct is None:
            stats = run(members, encoded, *extra)
        else:  # each distinct (candidate, segment) pair once (equal rows: equal lines)
            index, inverse = distinct
            sub = [p.subset(index) for p in (encoded, *extra)]
            found = run(members, *sub)
            if leave_out:
                stats = [[a[inverse] for a in per_k] for per_k in found]
            else:
                stats = [x[inverse] for x in found]
        out.update(zip(members, stats, strict=True))
    return {m: out[m] for m in metrics}


def _group_stats(task: tuple) -> list[np.ndarray]:
    """One metric group's statistics on the whole data (a worker's task)."""
    from mtpalette.metrics.registry import parse_specs

    specs, hyps, seg, refs, srcs, tokenize, lowercase, max_tokens = task
    metrics = parse_specs(list(specs), tokenize=tokenize, lowercase=lowercase)
    stats = compute_stats(metrics, TextPairs(hyps, seg, refs, srcs), max_tokens=max_tokens)
    return [stats[m] for m in metrics]


def compute_stats_on(
    metrics: Sequence[Metric],
    pairs: TextPairs,
    backend,
    *,
    tokenize: str,
    lowercase: bool,
    max_tokens: int | None = None,
) -> dict[Metric, np.ndarray]:
    """:func:`compute_stats` with the metric groups spread over a
    :class:`~mtpalette.parallel.Backend`: each worker computes whole groups on all the data,
    so every number equals the in-process one (NIST's corpus-wide information weights
    included)."""
    from mtpalette.parallel import run_tasks

    groups: dict[object, list[Metric]] = {}
    for metric in metrics:
        groups.setdefault(metric.group_key(), []).append(metric)
    members = list(groups.values())
    if backend is None or backend.name == "inproc" or len(members) < 2:
        return compute_stats(metrics, pairs, max_tokens=max_tokens)
    texts = (list(pairs.hyps), pairs.seg, pairs.refs, pairs.srcs)
    tasks = [
        (tuple(m.spec for m in group), *texts, tokenize, lowercase, max_tokens) for group in members
    ]
    out: dict[Metric, np.ndarray] = {}
    for i, stats in run_tasks(_group_stats, tasks, backend):
        out.update(zip(members[i], stats, strict=True))
    return {m: out[m] for m in metrics}
