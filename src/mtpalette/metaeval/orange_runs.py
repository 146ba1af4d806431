"""An ORANGE run from files, step by step: the candidates compared (chunk by chunk in a
resumable run folder, by Limited ORANGE's features against a pivot, or whole), then the table,
the ORANGE-vs-N curve and the reference agreement. The run's description (``OrangeRun``,
:mod:`mtpalette.api.orange_run`) says what to read and how; its outputs are written by the
API through :mod:`mtpalette.reporting.run_files`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.feedback import SILENT, Feedback
from mtpalette.io.plain import read_matching
from mtpalette.metaeval.candidates import CandidateLists, compare_candidates
from mtpalette.metaeval.chunked import (
    MANIFEST,
    chunk_path,
    chunk_stamp,
    combine,
    lock_run_dir,
    manifest_hash,
    nbest_chunks,
    nbest_slices,
    prepare_run_dir,
    run_chunks,
    run_folder_faults,
    sha256_of,
    system_chunks,
)
from mtpalette.metaeval.external import external_comparisons, reference_names
from mtpalette.metaeval.orange import (
    Comparisons,
    OrangeCurve,
    OrangeTable,
    curve_cutoffs,
    evaluate,
    orange_curve,
)
from mtpalette.metaeval.references import reference_agreement_of
from mtpalette.metrics import Metric
from mtpalette.parallel import chunk_ranges
from mtpalette.sources.checks import bootstrap_of
from mtpalette.sources.external import parse_scores
from mtpalette.sources.inputs import CandidateInputs

#: curve points when an output folder is given without a curve step
CURVE_POINTS = 64


@dataclass
class ChunkedLists:
    """What the table and the run record need to know of lists scored in chunks (the texts
    themselves were never all in memory)."""

    n_candidates: np.ndarray
    n_refs: int
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def n_segments(self) -> int:
        return len(self.n_candidates)


@dataclass
class OrangeCompared:
    """The candidates of an ORANGE run compared with the references, per metric: the
    ``comparisons``, the ``lists`` (a chunked run's :class:`ChunkedLists`), the lists read
    whole (``whole``: None for a streamed n-best file), the candidate ``files`` and the
    ``oracle`` that ranked them (``limited-features`` for Limited ORANGE)."""

    comparisons: list[Comparisons]
    lists: CandidateLists | ChunkedLists
    whole: CandidateLists | None
    files: list[Path]
    oracle: str


def curve_step(out: Any, longest: int) -> int:
    """The curve's step: the one asked (``out.curve_step``), else about
    :data:`CURVE_POINTS` points.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> curve_step(SimpleNamespace(curve_step=None), 640)
    10
    """
    return out.curve_step or max(1, math.ceil(longest / CURVE_POINTS))


def compared(run: Any, out: Any, ref_lines: list[list[str]], parsed: list[Metric],
             feedback: Feedback) -> OrangeCompared:  # fmt: skip
    """The candidates ``run`` (an ORANGE run's description) names, compared with the
    references under every metric: chunk by chunk with ``run.chunking``, by Limited ORANGE's
    features with ``run.limited`` (no error analysis: ``out.errors`` cleared), else whole,
    with the score files' comparisons after the computed metrics'; ``out`` the run's outputs,
    their error analysis deciding how many outranking scores are kept."""
    chunking, oracle = run.chunking, run.oracle
    text = dict(tokenize=run.tokenize, lowercase=run.lowercase)
    if chunking is not None:
        comparisons, files, whole = chunked_comparisons(
            chunking, run.candidates, ref_lines, parsed, oracle=oracle, feedback=feedback,
            cutoffs_for=lambda longest: curve_cutoffs(longest, curve_step(out, longest)),
            **text,
        )  # fmt: skip
        kind = "nbest" if run.candidates.nbest is not None else "systems"
        lists = ChunkedLists(np.diff(comparisons[0].offsets), len(ref_lines), {"kind": kind})
        return OrangeCompared(comparisons, lists, whole, files, oracle)
    lists, files = read_lists(run, ref_lines)
    if run.limited is not None:
        comparisons = run.limited.comparisons(
            lists, parsed, source=run.source, tokenize=run.tokenize, feedback=feedback
        )
        out.errors = None
        # the reference ranked by features against the pivot
        return OrangeCompared(comparisons, lists, lists, files, "limited-features")
    external = parse_scores(run.scores, reference_names(lists, lists.n_refs), beside=parsed)
    with feedback.steps("scoring") as progress:
        # the error analysis lists errors_max candidates per segment: their scores
        keep = max(out.errors_max, 1) if out.errors is not None else False
        comparisons = compare_candidates(
            lists, parsed, oracle=oracle, keep_scores=keep, progress=progress
        )
    comparisons += [external_comparisons(lists, m, oracle=oracle) for m in external]
    return OrangeCompared(comparisons, lists, lists, files, oracle)


def read_lists(run: Any, ref_lines: list[list[str]]) -> tuple[CandidateLists, list[Path]]:
    """The candidate lists ``run`` names, read whole, with its source lines (not Limited
    ORANGE's: its pivot takes them) and at most its ``max_candidates`` per list."""
    lists, files = run.candidates.load(ref_lines)
    if run.source is not None and run.limited is None:
        lists.srcs = read_matching(run.source, lists.n_segments, "the candidate lists have")
    if run.max_candidates is not None:
        lists = lists.head(run.max_candidates)
    return lists, files


def evaluated(run: Any, out: Any, done: OrangeCompared, parsed: list[Metric],
              feedback: Feedback) -> tuple[OrangeTable, OrangeCurve | None, Any]:  # fmt: skip
    """The ORANGE table of the comparisons, the curve where ``out`` asks for one (a folder's
    default curve only where the candidates' order is a ranking: ``out``'s curve files
    cleared, with a note, for system outputs), and the reference agreement (None for Limited
    ORANGE and a streamed n-best file)."""
    lists, comparisons = done.lists, done.comparisons
    common = dict(ties=run.ties, min_candidates=run.min_candidates)
    table = evaluate(comparisons, **bootstrap_of(run), **common)
    curve = None
    if lists.info.get("kind") == "systems" and not run.outputs.wants_curve:
        out.curve_csv = out.curve_plot = None
        feedback.note(
            "no ORANGE-vs-N curve: the candidates are system outputs, in the systems' order, "
            "which ranks nothing (--curve-step draws it anyway)"
        )
    if out.wants_curve:
        step = curve_step(out, int(lists.n_candidates.max()))
        curve = orange_curve(comparisons, step=step, **common)
    agreement = None
    if done.whole is not None and run.limited is None:  # a chunked run's too (same values)
        agreement = reference_agreement_of(done.whole, parsed, run, feedback)
    return table, curve, agreement


def chunked_comparisons(
    chunking: Any,
    candidates: CandidateInputs,
    ref_lines: list[list[str]],
    parsed: list[Metric],
    *,
    oracle: str,
    tokenize: str,
    lowercase: bool,
    feedback: Feedback = SILENT,
    cutoffs_for: Callable[[int], Sequence[int]] | None = None,
) -> tuple[list[Comparisons], list[Path], CandidateLists | None]:
    """Score every missing chunk, then combine all chunks into comparisons: in the compact
    form, with the ranks at the cutoffs ``cutoffs_for(longest list)`` (the curve's) and at
    the whole lists (see :func:`~mtpalette.metaeval.chunked.combine`). Returns them, the
    candidate files, and the candidate lists when they were read whole (systems' outputs,
    which the reference agreement compares; an n-best file is streamed: None). ``chunking``:
    where and how (:class:`~mtpalette.api.chunked.Chunking`: its run folder, chunk size,
    backend and ``resume``)."""
    if chunking.resume and not (chunking.run_dir / MANIFEST).is_file():
        raise UserInputError(
            "--resume: there is no run here to continue (no manifest.json); leave out "
            "--resume to start one",
            path=str(chunking.run_dir),
        )
    refs = list(candidates.refs)
    S = len(ref_lines[0])
    names = [p.name for p in refs]
    backend = chunking.backend_choice()
    shared: list[str] = []
    if candidates.nbest is not None:
        # on a cluster the workers read their part of the n-best file themselves (it is on
        # shared storage, checked): its text never passes through this machine or the
        # scheduler
        by_slice = backend.name == "dask"
        chunks = (nbest_slices if by_slice else nbest_chunks)(
            candidates.nbest, ref_lines, chunking.chunk_size, id_base=candidates.id_base,
            ref_names=names,
        )  # fmt: skip
        files = [candidates.nbest]
        shared = [str(Path(candidates.nbest).resolve())] if by_slice else []
        lists = None
    else:
        lists, files = candidates.load(ref_lines)
        chunks = system_chunks(lists, chunking.chunk_size)
    specs = [m.spec for m in parsed]
    manifest = {
        "kind": "orange-chunked",
        "references": [{"name": p.name, "sha256": sha256_of(p)} for p in refs],
        "candidates": [{"name": Path(p).name, "sha256": sha256_of(p)} for p in files],
        "id_base": candidates.id_base,
        "metric_specs": specs,
        "oracle": oracle,
        "tokenize": tokenize,
        "lowercase": lowercase,
        "chunk_size": chunking.chunk_size,
        "n_segments": S,
    }
    ranges = chunk_ranges(S, chunking.chunk_size)  # checked before the folder is made
    if chunking.run_dir.exists() and not chunking.run_dir.is_dir():
        raise UserInputError("is a file; --run-dir needs a folder", path=str(chunking.run_dir))
    # the lock first: only the run that holds it may write the manifest (a second run on
    # this folder is refused before it touches anything)
    with run_folder_faults(chunking.run_dir, candidates.nbest), lock_run_dir(chunking.run_dir):
        prepare_run_dir(chunking.run_dir, manifest, resume=chunking.resume)
        stamp = manifest_hash(manifest)
        have = sum(
            chunk_stamp(chunk_path(chunking.run_dir, i)) == (stamp, lo, hi - lo)
            for i, (lo, hi) in enumerate(ranges)
        )
        if have:
            feedback.note(f"resuming: {have} of {len(ranges)} chunks already done")
        with feedback.counter("scoring chunks", total=len(ranges), completed=have) as done:
            run_chunks(
                chunks,
                chunking.run_dir.resolve(),  # workers may run elsewhere: an absolute path
                specs=specs,
                tokenize=tokenize,
                lowercase=lowercase,
                oracle=oracle,
                backend=backend,
                stamp=stamp,
                shared_files=shared,
                on_done=lambda _: done(),
                on_note=lambda text: feedback.warn(f"note: {text}"),
            )
        comparisons = combine(
            chunking.run_dir,
            len(ranges),
            specs,
            [m.higher_is_better for m in parsed],
            n_segments=S,
            oracle=oracle,
            n_refs=len(refs),
            signatures=[m.signature(n_refs=max(len(refs) - 1, 1)) for m in parsed],
            stamp=stamp,
            chunk_size=chunking.chunk_size,
            cutoffs_for=cutoffs_for,
        )
    return comparisons, files, lists
