"""Candidate lists of Python texts: systems' outputs (one candidate per system and segment)
or n-best lists, checked (a system that copies a reference left out, with a note), with the
run's metrics parsed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.feedback import Feedback, note_on_stderr
from mtpalette.metaeval.candidates import CandidateLists
from mtpalette.metrics import parse_specs
from mtpalette.sources.checks import (
    as_systems,
    drop_reference_copies,
    metric_specs,
    reference_streams,
)


def candidate_lists(
    refs: Sequence[Sequence[str]], candidates: Mapping[str, Sequence[str]] | Sequence[Any]
) -> CandidateLists:
    """Candidate lists from systems (``{name: outputs}``, one candidate per system and
    segment) or from n-best lists (one list of candidates per segment).

    Examples
    --------
    >>> cl = candidate_lists([["r1", "r2"], ["q1", "q2"]], [["a", "b", "c"], ["d"]])
    >>> cl.offsets.tolist(), cl.origins
    ([0, 3, 4], ['n-best #1', 'n-best #2', 'n-best #3', 'n-best #1'])
    """
    refs, candidates = reference_streams(refs), as_systems(candidates)
    if candidates is None:
        raise UserInputError("candidates is None; expected {system: outputs} or n-best lists")
    if isinstance(candidates, Mapping):
        names = [f"refs[{k}]" for k in range(len(refs))]
        kept = drop_reference_copies(candidates, refs, names, note_on_stderr)
        if candidates and not kept:
            raise UserInputError("every system is a copy of a reference")
        return CandidateLists.from_systems(kept, refs)
    if isinstance(candidates, str) or not candidates:
        raise UserInputError("candidates: a dict of system outputs or a list of n-best lists")
    lists = [list(c) for c in candidates]
    if any(isinstance(c, str) for c in candidates):
        raise UserInputError("an n-best list must be a list of strings, not a string")
    offsets = np.concatenate([[0], np.cumsum([len(c) for c in lists])])
    origins = [f"n-best #{j + 1}" for c in lists for j in range(len(c))]
    texts = [t for c in lists for t in c]
    return CandidateLists(texts, offsets, refs, origins, None, {"kind": "nbest"})


def lists_and_metrics(
    refs: Sequence[Sequence[str]],
    candidates: Mapping[str, Sequence[str]] | Sequence[Any],
    metrics: Sequence[str] | str,
    tokenize: str,
    lowercase: bool,
) -> tuple[CandidateLists, dict]:
    """The :func:`candidate_lists` of a run on texts and its metrics parsed (spec to
    :class:`~mtpalette.metrics.Metric`; none is allowed, for scores given from outside)."""
    lists = candidate_lists(refs, candidates)
    specs = metric_specs(metrics, required=False)
    return lists, parse_specs(specs, tokenize=tokenize, lowercase=lowercase)


def judged_lists(judged: Any, feedback: Feedback):
    """The candidate lists of judged systems (``judged``: a :class:`JudgedInputs`), with the
    human scores of candidates and rated references (``None`` when no reference was rated:
    the metric part only) and the inputs' record."""
    loaded = judged.load(note=feedback.warn)
    data, judgments, inputs = loaded.data, loaded.judged, loaded.inputs
    ref_files = [Path(r["path"]).name for r in inputs["refs"]]
    lists = CandidateLists.from_systems(
        {s: data.hyps[k] for k, s in enumerate(data.systems)}, data.refs, ref_names=ref_files
    )
    cand_human = data.human.T.ravel()
    ref_human = np.full((len(data.refs), data.n_items), np.nan)
    for k, name in enumerate(ref_files):
        stem = name[: -len(Path(name).suffix)] if Path(name).suffix else name
        if stem in judgments.systems:
            ref_human[k] = judgments.scores[judgments.systems.index(stem)]
    if np.isnan(ref_human).all():
        feedback.note("note: the references were not rated; metric part only", style="yellow")
        return lists, None, None, inputs
    return lists, cand_human, ref_human, inputs
