"""The system-level vectors of a correlation run (:mod:`mtpalette.api.correlation_run`), as
the engine's data object holds them: an mt-metrics-eval folder's stored system scores (as
``wmt`` reads them), the system scores of system-level ``--scores`` files, the mean of a
segment file's scores beside a folder's, and the table of that data object.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.feedback import Feedback
from mtpalette.metaeval.candidates import display_names
from mtpalette.metrics import parse_specs
from mtpalette.sources.folders import mtme_pair_data


def folder_scores(run, evs, data, feedback: Feedback):
    """The one scoring of a run on an mt-metrics-eval folder's pair ``evs`` (``data``: its
    judged texts) that has a system level: :func:`~mtpalette.sources.scoring.score_systems` of
    the run's metrics on every system's texts of all segments, of which the segment tables
    take the rated rows (:func:`~mtpalette.metaeval.segments.rated_view`) and the system
    vectors the corpus scores (:func:`stored_system_scores`); None when the run has no such
    level or metric, or its texts are not the folder's whole (``--max-items``, ``--source``:
    the rated segments are scored alone)."""
    if evs is None or "system" not in run.levels or not run.specs or run.max_items is not None:
        return None
    systems = list(evs.systems)
    if data.srcs is not None or data.n_systems != len(systems) or data.n_items != evs.n_segments:
        return None
    from mtpalette.sources.scoring import score_systems

    feedback.note(f"scoring {len(systems)} systems' {evs.n_segments} segments with "
                  f"{len(run.specs)} metric spec(s), once for every level")  # fmt: skip
    texts = dict(zip(systems, evs.texts(systems), strict=True))
    text = dict(tokenize=run.tokenize, lowercase=run.lowercase)
    return score_systems(texts, [evs.reference()], list(run.specs), progress=False, **text)


def stored_system_scores(run, evs, feedback: Feedback, computed=None):
    """The engine's data object of the mt-metrics-eval folder's pair ``evs`` (None: the
    judgments are not a folder) when a system-level table is asked for (its stored system
    scores, as ``wmt`` reads them), else None; ``computed``: the run's :func:`folder_scores`
    (None: the folder's texts are scored here)."""
    if evs is None or "system" not in run.levels:
        return None
    if run.max_items is not None:
        raise UserInputError(
            "--max-items with --mtme at system level: the folder's system scores cover every "
            "segment; leave out --max-items or use --level segment"
        )
    pair, _ = mtme_pair_data(
        evs, specs=run.specs, tokenize=run.tokenize, lowercase=run.lowercase, note=feedback.note,
        computed=computed,
    )  # fmt: skip
    # the computed metrics under the names of the segment tables (``chrf:w=2``, not the
    # ``chrf++`` typed), so that one metric is one row at every level
    parsed = parse_specs(run.specs, tokenize=run.tokenize, lowercase=run.lowercase)
    for typed, shown in zip(run.specs, display_names(parsed), strict=True):
        if typed != shown and typed in pair.metrics:
            if shown in pair.metrics:
                raise UserInputError(f"-m {typed} and -m {shown} are the same metric")
            pair.metrics[shown] = pair.metrics.pop(typed)
            pair.origins[shown] = pair.origins.pop(typed)
    return pair


def add_system_files(pair, files, n_refs: int) -> None:
    """``pair`` with the system scores of system-level ``--scores`` files (oriented, as
    every vector of the engine's data object)."""
    from mtpalette.metaeval.external import external_system_scores

    for m in files:
        if m.label in pair.metrics:
            raise UserInputError(f"--scores {m.label}: a metric of this run has that name")
        pair.metrics[m.label] = {"sys": external_system_scores(pair.systems, m)}
        pair.origins[m.label] = {"sys": f"system scores of {Path(m.source.path).name}"}


def add_segment_means(pair, metrics, n_segments: int) -> None:
    """``pair`` with the system scores of ``--scores`` segment files beside a folder's: each
    system's mean score over all the folder's segments (as the folder's own system scores
    cover every segment), oriented."""
    for m in metrics:
        sign = 1.0 if m.higher_is_better else -1.0
        means = [np.mean([m.source.get(s, i) for i in range(1, n_segments + 1)])
                 for s in pair.systems]  # fmt: skip
        pair.metrics[m.label] = {"sys": sign * np.asarray(means, dtype=np.float64)}
        pair.origins[m.label] = {"sys": f"mean of all segment scores of {Path(m.source.path).name}"}
