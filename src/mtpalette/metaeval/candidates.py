"""Candidate lists for ORANGE and their scoring against subsets of the references.

A :class:`CandidateLists` holds, for every segment, its candidates in list order (an n-best
list, or one output per system in the order the systems were given) and ``R`` references.
:func:`compare_candidates` scores everything needed by one oracle definition and returns, per
metric, a :class:`~mtpalette.metaeval.orange.Comparisons`.

Work is shared as much as the metric interface allows:

* ``leave-one-out``: for each held-out reference ``k`` one :class:`TextPairs` holds every
  segment's candidates plus ``r_k`` as one more candidate of its segment, scored against the
  other ``R - 1`` references; every metric group (``bleus:1..9`` one n-gram pass,
  ``rouge-s:0..9,*`` one skip-bigram pass) runs once per ``k`` over all segments. ``R``
  scorings of ``P + S`` texts in all.
* ``average-score``: the candidates once against all ``R`` references, and each ``r_k`` once
  against the other ``R - 1``.
* All :class:`TextPairs` share one encoder per text view, so each distinct line is
  tokenized once per run; identical candidates of one segment (systems that agree) are
  scored once.
* Each group's statistics are turned into scores and compared with the oracle right away, so
  memory holds per metric two small counters per candidate (and, for error analysis, one
  float32 score).

References
----------
Lin and Och (2004), ORANGE, sections 2 and 4. Yu et al., Limited ORANGE (several systems'
outputs as the candidate list).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.io.nbest import NBestList
from mtpalette.kernels.ragged import Delimited
from mtpalette.kernels.threads import num_threads
from mtpalette.metaeval.orange import Comparisons, check_oracle, compare_with_oracle
from mtpalette.metaeval.orange_errors import outranking_order
from mtpalette.metrics.base import Metric
from mtpalette.metrics.scoring import TextPairs, compute_stats
from mtpalette.text.encode import Encoder, TextView

#: ``progress(done, total, what)`` is called after each step of the scoring
Progress = Callable[[int, int, str], None]

ONE_REFERENCE = (
    "ORANGE needs at least 2 references per segment: a reference is ranked by scoring it "
    "against the other references, and with a single reference there is nothing to score it "
    "against honestly (got 1 reference file). With one reference, use Limited ORANGE: "
    "--pivot FILE ranks the reference by features against a pivot translation."
)


@dataclass
class CandidateLists(Delimited):
    """Every segment's candidates (in list order) and its ``R`` references.

    Attributes
    ----------
    texts:
        All candidates, segment after segment.
    offsets:
        int64 ``(S + 1,)``: segment ``s`` owns ``texts[offsets[s]:offsets[s + 1]]``.
    refs:
        ``refs[k][s]``: reference ``k`` of segment ``s``.
    origins:
        Per candidate, where it came from (a system name, or ``n-best #j``).
    ref_names:
        A name per reference stream (file names), for reports.
    srcs:
        The source sentence of every segment, when known (plugin metrics may read it).

    Examples
    --------
    >>> cl = CandidateLists.from_systems({"A": ["a b", "c"], "B": ["a", "c d"]},
    ...                                  [["a b", "c d"], ["a c", "c"]])
    >>> cl.texts, cl.offsets.tolist(), cl.origins
    (['a b', 'a', 'c', 'c d'], [0, 2, 4], ['A', 'B', 'A', 'B'])
    """

    texts: list[str]
    offsets: np.ndarray
    refs: list[list[str]]
    origins: list[str] | None = None
    ref_names: list[str] | None = None
    info: dict[str, Any] = field(default_factory=dict)
    srcs: list[str] | None = None

    def __post_init__(self) -> None:
        self.offsets = np.asarray(self.offsets, dtype=np.int64)
        if (
            self.offsets.ndim != 1
            or len(self.offsets) < 1
            or self.offsets[0] != 0
            or (np.any(np.diff(self.offsets) < 0))
            or self.offsets[-1] != len(self.texts)
        ):
            raise ValueError("offsets must rise from 0 to len(texts)")
        S = len(self.offsets) - 1
        for k, ref in enumerate(self.refs):
            if len(ref) != S:
                name = self.ref_names[k] if self.ref_names else f"reference {k + 1}"
                raise UserInputError(f"{name} has {len(ref)} segments, the candidate lists {S}")
            if any(r is None for r in ref):
                raise UserInputError("every segment needs every reference (found a missing one)")
        if self.origins is not None and len(self.origins) != len(self.texts):
            raise ValueError("one origin per candidate")
        if self.srcs is not None and len(self.srcs) != S:
            raise UserInputError(f"{len(self.srcs)} source sentences for {S} segments")

    n_segments = Delimited.n_groups
    n_candidates = Delimited.sizes

    @property
    def n_refs(self) -> int:
        return len(self.refs)

    def segment_of_candidates(self) -> np.ndarray:
        """The segment of every candidate, ``(P,)`` int64."""
        return np.repeat(np.arange(self.n_segments, dtype=np.int64), self.n_candidates)

    @classmethod
    def from_systems(
        cls,
        systems: Mapping[str, Sequence[str]],
        refs: Sequence[Sequence[str]],
        *,
        ref_names: Sequence[str] | None = None,
    ) -> CandidateLists:
        """One candidate per system and segment, in the order of ``systems``."""
        if not systems:
            raise UserInputError("no system outputs given")
        if not refs:
            raise UserInputError("no reference given")
        S = len(refs[0])
        for name, lines in systems.items():
            if len(lines) != S:
                raise UserInputError(
                    f"system {name!r} has {len(lines)} lines but the references have {S}"
                )
        columns = list(systems.values())
        texts = [col[s] for s in range(S) for col in columns]
        names = list(systems)
        M = len(columns)
        return cls(
            texts,
            np.arange(0, M * S + 1, M, dtype=np.int64),
            [list(r) for r in refs],
            names * S,
            list(ref_names) if ref_names else None,
            {"kind": "systems", "systems": names},
        )

    @classmethod
    def from_nbest(
        cls,
        nbest: NBestList,
        refs: Sequence[Sequence[str]],
        *,
        id_base: int = 0,
        ref_names: Sequence[str] | None = None,
    ) -> CandidateLists:
        """The hypotheses of an n-best file, grouped by segment id, each list in file order."""
        if not refs:
            raise UserInputError("no reference given")
        order, offsets = nbest.group(len(refs[0]), id_base=id_base)
        texts = [nbest.hyps[i] for i in order]
        rank = np.arange(len(order)) - np.repeat(offsets[:-1], np.diff(offsets))
        origins = [f"n-best #{r + 1}" for r in rank.tolist()]
        return cls(
            texts,
            offsets,
            [list(r) for r in refs],
            origins,
            list(ref_names) if ref_names else None,
            {"kind": "nbest", "path": nbest.path, "id_base": id_base},
        )

    def segments(self, lo: int, hi: int) -> CandidateLists:
        """The lists of segments ``lo`` to ``hi - 1`` (the same objects, no copy of a text).

        Examples
        --------
        >>> cl = CandidateLists(["a", "b", "c"], [0, 2, 3], [["x", "y"], ["x", "z"]])
        >>> part = cl.segments(1, 2)
        >>> part.texts, part.offsets.tolist(), part.refs
        (['c'], [0, 1], [['y'], ['z']])
        """
        a, b = int(self.offsets[lo]), int(self.offsets[hi])
        return CandidateLists(
            self.texts[a:b],
            self.offsets[lo : hi + 1] - a,
            [ref[lo:hi] for ref in self.refs],
            None if self.origins is None else self.origins[a:b],
            self.ref_names,
            self.info,
            None if self.srcs is None else self.srcs[lo:hi],
        )

    def head(self, n: int) -> CandidateLists:
        """The first ``n`` candidates of every list.

        Examples
        --------
        >>> cl = CandidateLists(["a", "b", "c"], [0, 2, 3], [["x", "y"], ["x", "z"]])
        >>> cl.head(1).texts
        ['a', 'c']
        """
        keep = np.minimum(self.n_candidates, n)
        offsets = np.zeros(self.n_segments + 1, dtype=np.int64)
        np.cumsum(keep, out=offsets[1:])
        idx = np.arange(offsets[-1], dtype=np.int64) + np.repeat(
            self.offsets[:-1] - offsets[:-1], keep
        )
        return CandidateLists(
            [self.texts[i] for i in idx],
            offsets,
            self.refs,
            None if self.origins is None else [self.origins[i] for i in idx],
            self.ref_names,
            dict(self.info),
            self.srcs,
        )


def _unique_candidates(lists: CandidateLists) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Distinct (segment, text) pairs: their texts, segments, and each candidate's index.

    Examples
    --------
    >>> cl = CandidateLists(["a", "b", "a", "a"], [0, 3, 4], [["x", "y"], ["x", "z"]])
    >>> texts, segs, inverse = _unique_candidates(cl)
    >>> texts, segs.tolist(), inverse.tolist()
    (['a', 'b', 'a'], [0, 0, 1], [0, 1, 0, 2])
    """
    seen: dict[tuple[int, str], int] = {}
    keys = list(zip(lists.segment_of_candidates().tolist(), lists.texts, strict=True))
    inverse = np.fromiter((seen.setdefault(k, len(seen)) for k in keys), dtype=np.int64,
                          count=len(keys))  # fmt: skip
    segs = np.fromiter((k[0] for k in seen), dtype=np.int64, count=len(seen))
    return [k[1] for k in seen], segs, inverse


def display_names(metrics: Sequence[Metric]) -> list[str]:
    """Each metric's spec, with its text view added where two specs would otherwise clash.

    Examples
    --------
    >>> from mtpalette.metrics import parse_specs
    >>> display_names(parse_specs(["bleus:4", "bleus:4,tok=intl", "bleus:2"]))
    ['bleus:4', 'bleus:4,tok=intl', 'bleus:2']
    """
    specs = [m.spec for m in metrics]
    out = []
    for m, spec in zip(metrics, specs, strict=True):
        if specs.count(spec) > 1:
            view = m.view()
            spec += f"[tok={view.tokenizer}{',lc' if view.lowercase else ''}]"
        out.append(spec)
    return out


def _groups(metrics: Sequence[Metric]) -> list[list[Metric]]:
    groups: dict[object, list[Metric]] = {}
    for m in metrics:
        groups.setdefault(m.group_key(), []).append(m)
    return list(groups.values())


class _Accumulator:
    """Per metric: comparison counts per candidate and, optionally, the scores the error
    analysis lists, block after block."""

    def __init__(self, n_comparisons: int, keep_scores: bool | int) -> None:
        self.counter = np.uint8 if n_comparisons < 256 else np.int32
        self.keep_scores = keep_scores
        self.better: list[np.ndarray] = []
        self.ties: list[np.ndarray] = []
        self.oracle_sum: list[np.ndarray] = []
        self.cand_mean: list[np.ndarray] = []
        self.cand_k: list[np.ndarray] = []
        self.ref_k: list[np.ndarray] = []
        self.scored: list[np.ndarray] = []

    def start(self, n_cand: int, n_seg: int) -> None:
        """A new block of ``n_cand`` candidates in ``n_seg`` segments."""
        self.better.append(np.zeros(n_cand, dtype=self.counter))
        self.ties.append(np.zeros(n_cand, dtype=self.counter))
        self.oracle_sum.append(np.zeros(n_seg, dtype=np.float64))
        self._cand_sum = np.zeros(n_cand, dtype=np.float32) if self.keep_scores else None
        self._cand_k: list[np.ndarray] = []
        self._ref_k: list[np.ndarray] = []

    def add_reference(self, scores: np.ndarray) -> None:
        """One reference's scores against the other references."""
        self.oracle_sum[-1] += scores
        if self.keep_scores:
            self._ref_k.append(np.asarray(scores, dtype=np.float64).copy())

    def add(
        self, cand: np.ndarray, oracle: np.ndarray, seg: np.ndarray, higher_is_better: bool
    ) -> None:
        better, tie = compare_with_oracle(cand, oracle[seg], higher_is_better=higher_is_better)
        self.better[-1] += better
        self.ties[-1] += tie
        if self._cand_sum is not None:
            self._cand_sum += cand.astype(np.float32)
            self._cand_k.append(cand.astype(np.float32))

    def finish(self, offsets: np.ndarray, first: int, n_comparisons: int, hib: bool) -> None:
        """Close the block whose candidates start at flat index ``first``: keep the scores
        of every candidate, or of the first ``keep_scores`` outranking ones per segment."""
        if self._cand_sum is None:
            return
        mean = self._cand_sum / np.float32(n_comparisons)
        cand_k = np.vstack(self._cand_k)
        if self.keep_scores is not True:
            beats = self.better[-1]
            keep = [
                lo + outranking_order(beats[lo:hi], mean[lo:hi], hib)[: int(self.keep_scores)]
                for lo, hi in itertools.pairwise(offsets.tolist())
            ]
            rows = np.sort(np.concatenate(keep)) if keep else np.zeros(0, dtype=np.int64)
            mean, cand_k = mean[rows], cand_k[:, rows]
            self.scored.append(rows + first)
        self.cand_mean.append(mean)
        self.cand_k.append(cand_k)
        self.ref_k.append(np.vstack(self._ref_k))
        self._cand_sum = None


def _scores(group: Sequence[Metric], pairs: TextPairs, *, leave_out: bool = False) -> dict:
    stats = compute_stats(group, pairs, leave_out=leave_out)
    if leave_out:
        return {m: [np.asarray(m.sentence_scores(x), np.float64) for x in stats.pop(m)]
                for m in group}  # fmt: skip
    return {m: np.asarray(m.sentence_scores(stats.pop(m)), dtype=np.float64) for m in group}


#: candidates per block of segments: a run's memory follows the block, not the run
BLOCK_CANDIDATES = 1 << 14


def blocks_of(sizes: np.ndarray, block_candidates: int) -> list[tuple[int, int]]:
    """Consecutive segment ranges ``(lo, hi)`` of about ``block_candidates`` candidates each
    (a segment is never split).

    Examples
    --------
    >>> blocks_of(np.array([3, 3, 3, 3, 1]), 6)
    [(0, 2), (2, 4), (4, 5)]
    """
    out, lo, total = [], 0, 0
    for s, n in enumerate(sizes.tolist()):
        if total and total + n > block_candidates:
            out.append((lo, s))
            lo, total = s, 0
        total += n
    if lo < len(sizes) or not out:
        out.append((lo, len(sizes)))
    return out


def _blockwise(metrics: Sequence[Metric]) -> bool:
    """Whether every metric scores a block of segments as it would in the whole run: the
    statistics of each candidate depend on its segment alone (``per_pair``), or draw their
    corpus-wide weights from ``corpus_refs`` (NIST)."""
    return all(type(m).per_pair or getattr(type(m), "corpus_refs", False) for m in metrics)


def compare_candidates(
    lists: CandidateLists,
    metrics: Sequence[Metric],
    *,
    oracle: str = "leave-one-out",
    keep_scores: bool | int = False,
    progress: Progress | None = None,
    block_candidates: int = BLOCK_CANDIDATES,
) -> list[Comparisons]:
    """Score candidates and references as ``oracle`` requires; one Comparisons per metric.

    The segments are scored a block at a time (about ``block_candidates`` candidates), and
    only what ORANGE needs is kept of each block, so memory follows the block, not the run.
    With leave-one-out, each block is one set of pairs, every candidate and reference against
    all ``R`` references; a family that reduces per-reference values (ROUGE) computes them
    once and reduces ``R`` times, the others score ``R`` times
    (:meth:`~mtpalette.metrics.base.Metric.compute_group_leaving_out`).

    Parameters
    ----------
    lists:
        The candidate lists with ``R >= 2`` references.
    metrics:
        Parsed metrics (:func:`mtpalette.metrics.parse_specs`).
    oracle:
        ``leave-one-out`` or ``average-score`` (see :mod:`mtpalette.metaeval.orange`).
    keep_scores:
        Keep candidates' scores (mean over the held-out references, float32, and each one)
        and each segment's oracle score, for error analysis: True for every candidate, a
        number ``n`` for the first ``n`` outranking candidates of each segment (what the
        error analysis lists with ``max_per_segment=n``).
    progress:
        Called as ``progress(done, total, what)`` after each metric group and block.
    block_candidates:
        Candidates per block (one block when a metric is not known to score blocks as the
        whole, e.g. a plugin).

    Examples
    --------
    >>> from mtpalette.metrics import parse_specs
    >>> cl = CandidateLists.from_systems({"A": ["a b c"], "B": ["x y z"]},
    ...                                  [["a b c"], ["a b d"]])
    >>> [c] = compare_candidates(cl, parse_specs(["bleus:1"], tokenize="none"))
    >>> c.better.tolist(), c.ties.tolist()  # "a b c" ties with r1 and beats r2; "x y z" loses
    ([1, 0], [1, 0])
    """
    check_oracle(oracle)
    R = lists.n_refs
    if R < 2:
        raise UserInputError(ONE_REFERENCE)
    if not metrics:  # external scores alone are a valid run
        return []
    if keep_scores is not True and keep_scores is not False and int(keep_scores) < 1:
        raise ValueError("keep_scores: True, False or a number >= 1")
    groups = _groups(metrics)
    n_comparisons = R if oracle == "leave-one-out" else 1
    acc = {m: _Accumulator(n_comparisons, keep_scores) for m in metrics}
    size = block_candidates if _blockwise(metrics) else max(int(lists.offsets[-1]), 1)
    blocks = blocks_of(lists.n_candidates, size)
    steps, done = len(blocks) * len(groups), 0
    for lo, hi in blocks:
        block = lists.segments(lo, hi)
        for m in metrics:
            acc[m].start(len(block.texts), block.n_segments)
        where = f" (segments {lo + 1}-{hi})" if len(blocks) > 1 else ""

        def step(group: Sequence[Metric], where: str = where) -> None:
            nonlocal done
            done += 1
            if progress is not None:
                progress(done, steps, f"{group[0].spec}{where}")

        corpus = lists.refs if len(blocks) > 1 else None
        _compare_block(block, groups, oracle, corpus, acc, step)
        first = int(lists.offsets[lo])
        for m in metrics:
            acc[m].finish(block.offsets, first, n_comparisons, m.higher_is_better)
    return [
        _comparisons(m, name, acc[m], lists, oracle, n_comparisons)
        for m, name in zip(metrics, display_names(metrics), strict=True)
    ]


def _compare_block(
    block: CandidateLists,
    groups: Sequence[Sequence[Metric]],
    oracle: str,
    corpus: list[list[str]] | None,
    acc: Mapping[Metric, _Accumulator],
    step: Callable[[Sequence[Metric]], None],
) -> None:
    """The comparisons of one block of segments, group by group (see compare_candidates)."""
    R, S = block.n_refs, block.n_segments
    seg = block.segment_of_candidates()
    u_texts, u_seg, inverse = _unique_candidates(block)
    U = len(u_texts)
    refs = [list(r) for r in block.refs]
    ref_rows = [r for ref in refs for r in ref]  # reference k of segment s at k * S + s
    ref_seg = np.tile(np.arange(S, dtype=np.int64), R)
    if oracle == "leave-one-out":  # candidates and references, each against all but one
        pairs = TextPairs(u_texts + ref_rows, np.concatenate([u_seg, ref_seg]), refs,
                          block.srcs, corpus)  # fmt: skip

        def score(group: Sequence[Metric]) -> dict:
            return _scores(group, pairs, leave_out=True)

        def add(group: Sequence[Metric], found: dict) -> None:
            for m, per_k in found.items():
                for k, sc in enumerate(per_k):
                    own = sc[U + k * S : U + (k + 1) * S]
                    acc[m].add(sc[:U][inverse], own, seg, m.higher_is_better)
                    acc[m].add_reference(own)

        _overlapped(groups, [pairs], score, add, step)
        return
    encoders: dict[TextView, Encoder] = {}
    own = TextPairs(ref_rows, ref_seg, refs, block.srcs, corpus, _encoders=encoders)
    cands = TextPairs(u_texts, u_seg, refs, block.srcs, corpus, _encoders=encoders)

    def score_both(group: Sequence[Metric]) -> dict:
        return {"refs": _scores(group, own, leave_out=True), "cands": _scores(group, cands)}

    def add_both(group: Sequence[Metric], found: dict) -> None:
        for m, per_k in found["refs"].items():
            for k, sc in enumerate(per_k):
                acc[m].add_reference(sc[k * S : (k + 1) * S])
        for m, sc in found["cands"].items():
            a = acc[m]
            a.add(sc[inverse], a.oracle_sum[-1] / R, seg, m.higher_is_better)

    _overlapped(groups, [own, cands], score_both, add_both, step)


def _overlapped(
    groups: Sequence[Sequence[Metric]],
    pairs: Sequence[TextPairs],
    score: Callable[[Sequence[Metric]], dict],
    add: Callable[[Sequence[Metric], dict], None],
    step: Callable[[Sequence[Metric]], None],
) -> None:
    """``add(group, score(group))`` for every group, in order; two groups are scored at once
    where the kernels have threads to spare (the compiled kernels release the GIL, so one
    group's Python and numpy work runs while the other's kernel does).

    Every view the groups read is encoded first, so that the threads only read the pairs.
    The numbers do not depend on the overlap: each metric's counts are added in the
    groups' order by this thread alone."""
    workers = min(2, len(groups), num_threads())
    only_builtin = all(not getattr(type(g[0]), "reads_text", False) for g in groups)
    if workers < 2 or not only_builtin:
        for group in groups:
            add(group, score(group))
            step(group)
        return
    for p in pairs:
        for group in groups:
            first = group[0]
            for view in (first.view(), *first.extra_views()):
                p.encoded(view)
                if type(first).per_pair:
                    p.distinct(view)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for group, found in zip(groups, pool.map(score, groups), strict=True):
            add(group, found)
            step(group)


def _comparisons(
    m: Metric, name: str, a: _Accumulator, lists: CandidateLists, oracle: str, K: int
) -> Comparisons:
    """The metric's comparisons, its blocks joined."""
    R = lists.n_refs
    if oracle == "leave-one-out":
        signature = m.signature(n_refs=R - 1)
    else:
        signature = m.signature(n_refs=R).with_fields(oracle_nrefs=R - 1)
    keep = bool(a.keep_scores)
    return Comparisons(
        name,
        m.higher_is_better,
        lists.offsets.copy(),
        np.concatenate(a.better),
        np.concatenate(a.ties),
        K,
        oracle,
        R,
        signature,
        np.concatenate(a.cand_mean) if keep else None,
        np.concatenate(a.oracle_sum) / R if keep else None,
        np.hstack(a.cand_k) if keep else None,
        np.hstack(a.ref_k) if keep else None,
        np.concatenate(a.scored) if a.scored else None,
    )
