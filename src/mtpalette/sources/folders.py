"""Test-set folders as run inputs: the one door of the mt-metrics-eval folder (``--mtme DIR
--lp``) into every run, the ``score`` command's included.

The folder loader is :func:`mtpalette.io.mtme.read_mtme` (read as mt-metrics-eval's
``EvalSet`` reads a folder); every run reaches it through this module.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from mtpalette.errors import UserInputError

if TYPE_CHECKING:
    from mtpalette.io.mtme import MtmeSet
    from mtpalette.metaeval.tasks import LanguagePairData


def read_mtme_set(root: Path, lp: str, **options: Any) -> MtmeSet:
    """One language pair of an mt-metrics-eval folder, as :func:`mtpalette.io.mtme.read_mtme`
    reads it (the judged systems; the others listed in ``left_out``)."""
    from mtpalette.io.mtme import read_mtme

    return read_mtme(root, lp, **options)


def mtme_pair_data(
    evs: MtmeSet,
    *,
    specs: list[str] | None = None,
    tokenize: str = "13a",
    lowercase: bool = False,
    primary: bool = False,
    note: Callable[[str], None] | None = None,
    computed: Mapping[str, Any] | None = None,
) -> tuple[LanguagePairData, dict[str, str]]:
    """One language pair of a folder as the meta-evaluation engine takes it, and the
    signatures of the metrics computed here: the one builder behind ``wmt``, ``correlate
    --mtme``, ``rank --mtme`` and the Python API, so that they see the same numbers.

    Human scores and stored metrics at every level they are stored at (a system level MTME
    ships is used as stored; a human score without one gets the mean of each system's rated
    segments, and says so). Stored metrics are keyed by base name (``BLEU``, not
    ``BLEU-refA``: one metric across language pairs whose standard references differ), as
    mt-metrics-eval's tasks name them; a metric computed here (``specs``) is scored against
    the pair's reference, at segment level (sentence scores) and system level (its corpus
    score of all segments, as a stored ``.sys.score`` is). Error metrics are negated, as
    mt-metrics-eval expects higher to be better. ``origins`` records how every vector was
    made. ``computed``: the :func:`~mtpalette.sources.scoring.score_systems` of ``specs`` on every
    system's texts of all segments against the pair's reference, scored already (a run
    that also needs the rated segments' scores scores once): viewed here, not scored again.
    """
    from mtpalette.metaeval.tasks import LanguagePairData
    from mtpalette.stats.grouping import system_means

    systems = list(evs.systems)
    human: dict[str, dict[str, Any]] = {}
    origins: dict[str, dict[str, str]] = {}
    for level, by_name in evs.human_scores.items():
        for name in by_name:
            human.setdefault(name, {})[level] = _vector(evs.human_matrix(level, name), level)
            origins.setdefault(f"human:{name}", {})[level] = f"stored {name}.{level}.score"
    for name, levels in human.items():
        if "seg" in levels and "sys" not in levels:
            levels["sys"] = system_means(levels["seg"])
            origins[f"human:{name}"]["sys"] = "mean of each system's rated segments"
    keep = evs.meta.primary_metrics | (evs.meta.baseline_metrics or frozenset())
    metrics: dict[str, dict[str, Any]] = {}
    for stored in evs.metrics.values():
        if primary and evs.meta.primary_metrics and stored.basename not in keep:
            continue
        name = stored.basename + ("" if stored.refs else "[noref]")
        metrics[name] = {
            level: _vector(evs.metric_matrix(stored.name, level), level) for level in stored.scores
        }
        origins[name] = {level: f"stored {Path(path).name}" for level, path in stored.paths.items()}
    signatures: dict[str, str] = {}
    if specs:
        if computed is not None:
            computed, signatures = oriented_view(computed, systems)
        else:
            computed, signatures = _computed(evs, systems, specs, tokenize, lowercase, note)
        clash = sorted(set(computed) & set(metrics))
        if clash:
            raise UserInputError(
                f"computed and stored metrics share the name(s) {', '.join(clash)}; "
                "leave one out (-m or --mtme-metrics)"
            )
        metrics.update(computed)
        for name in computed:
            origins[name] = {
                "seg": "sentence scores (mtpalette)",
                "sys": "corpus score of all segments (mtpalette)",
            }
    refs = frozenset(set(systems) & set(evs.human_systems))
    data = LanguagePairData(systems, human, metrics, dict(evs.meta.std_gold), origins, refs)
    return data, signatures


def _vector(matrix: np.ndarray, level: str) -> np.ndarray:
    """A level's ``(systems, items)`` matrix as the task engine takes it: one number per
    system at ``sys`` level."""
    return matrix[:, 0] if level == "sys" else matrix


def _computed(evs: MtmeSet, systems, specs, tokenize, lowercase, note):
    if note is not None:
        note(f"{evs.lp}: scoring {len(systems)} systems with {len(specs)} spec(s)")
    texts = dict(zip(systems, evs.texts(systems), strict=True))
    return oriented_scores(texts, [evs.reference()], specs, tokenize=tokenize, lowercase=lowercase)


def oriented_scores(
    outputs: Mapping[str, Sequence[str]],
    refs: Sequence[Sequence[str | None]],
    specs: Sequence[str],
    *,
    tokenize: str = "13a",
    lowercase: bool = False,
    srcs: Sequence[str] | None = None,
) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, str]]:
    """Metrics computed here as a folder stores them: ``{name: {"seg": (systems, segments)
    sentence scores, "sys": each system's corpus score of all segments}}`` in the order of
    ``outputs``, oriented (error metrics negated: mt-metrics-eval takes higher as better),
    and their signatures. What ``wmt`` and ``correlate --mtme`` correlate for a computed
    metric, and what ``correlate --export-mtme`` writes.

    Examples
    --------
    >>> m, _ = oriented_scores({"A": ["a b", "c d"], "B": ["a", "d"]}, [["a b x", "c"]], ["wer"])
    >>> m["wer"]["sys"].tolist(), m["wer"]["seg"][1].tolist()  # WER negated
    ([-0.5, -0.75], [-0.6666666666666666, -1.0])
    """
    from mtpalette.sources.scoring import score_systems

    text = dict(tokenize=tokenize, lowercase=lowercase)
    # silent: this runs inside a run's own bar (load_wmt's pairs)
    scored = score_systems(outputs, refs, list(specs), srcs=srcs, progress=False, **text)
    return oriented_view(scored, list(outputs))


def oriented_view(
    scored: Mapping[str, Any], systems: Sequence[str]
) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, str]]:
    """:func:`oriented_scores` of scores computed already (``scored``: system to its
    :class:`~mtpalette.sources.scoring.Scores` of all segments), in the order of ``systems``."""
    first = scored[systems[0]]
    metrics: dict[str, dict[str, Any]] = {}
    signatures: dict[str, str] = {}
    for k, score in enumerate(first.corpus):
        sign = 1.0 if score.higher_is_better else -1.0
        seg = np.stack([sign * scored[s].sentence[score.metric] for s in systems])
        sys_ = np.array([sign * scored[s].corpus[k].value for s in systems])
        metrics[score.metric] = {"seg": seg, "sys": sys_}
        signatures[score.metric] = score.signature
    return metrics, signatures


def wmt_pairs(
    root: str | Path, lps: Sequence[str], *, mtme_metrics: list[str] | None,
    metrics: list[str] | None, primary: bool, tokenize: str, lowercase: bool, feedback: Any,
) -> tuple[dict[str, Any], dict[str, dict[str, str]], dict[str, str]]:  # fmt: skip
    """The language pairs ``lps`` of an mt-metrics-eval folder as a task set takes them
    (references kept as systems), with a bar counting them: each pair's data object, what its
    reading left out and why, and the signatures of the metrics computed here (see
    :func:`mtpalette.api.wmt_run.load_wmt`)."""
    data: dict[str, Any] = {}
    left_out: dict[str, dict[str, str]] = {}
    signatures: dict[str, str] = {}
    for lp in feedback.track(lps, "reading language pairs"):
        evs = read_mtme_set(
            root, lp, metrics=mtme_metrics or None, include_refs=True, judged_only=False
        )
        for line in evs.notes:
            feedback.note(f"note: {line}")
        left_out[lp] = dict(evs.left_out)
        data[lp], sigs = mtme_pair_data(
            evs,
            specs=metrics,
            tokenize=tokenize,
            lowercase=lowercase,
            primary=primary,
            note=feedback.note,
        )
        signatures.update(sigs)
    return data, left_out, signatures

