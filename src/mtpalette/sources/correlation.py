"""The scored data object of a correlation: texts and human scores checked, every metric
scored once, the length baselines beside them.

Both doors of :mod:`mtpalette.api.correlation_run` build their data object here: the Python
lists of :func:`~mtpalette.api.correlation_run.correlate` (:func:`segment_data_of`) and the
files of a :class:`~mtpalette.api.correlation_run.CorrelationRun`; :func:`scored_pair` then
turns either into the one :class:`~mtpalette.metaeval.tasks.LanguagePairData` every table is
taken from. Judgments that cannot be aligned with lines (:func:`unaligned_tables`) and human
scores given per system (:func:`corpus_system_table`) correlate the corpus scores instead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.feedback import Feedback
from mtpalette.metaeval.correlation import CorrelationTable, system_table
from mtpalette.metaeval.external import external_segment_scores
from mtpalette.metaeval.segments import SegmentData, rated_view, score_segments
from mtpalette.metrics import Metric, parse_specs
from mtpalette.sources.checks import (
    as_list,
    as_systems,
    check_not_degenerate,
    checked,
    metric_specs,
    probability_argument,
    reference_streams,
    system_outputs,
)
from mtpalette.sources.external import distinct_names
from mtpalette.sources.scoring import score_systems

#: the trivial baselines every segment-level correlation is shown with (metrics/length.py):
#: MQM counts errors and longer segments have more, so minus the length can beat real metrics
BASELINE_SPECS = ("len:sign=-1", "len", "lendiff")


def baseline_metrics(parsed: list[Metric], tokenize: str, lowercase: bool) -> list[Metric]:
    """The baseline metrics not already among the run's metrics."""
    given = {m.spec for m in parsed}
    specs = [s for s in BASELINE_SPECS if s not in given]
    return parse_specs(specs, tokenize=tokenize, lowercase=lowercase)


def scored_pair(
    data: SegmentData, parsed: list[Metric], *, tokenize: str, lowercase: bool,
    baselines: bool, system_score: str, external: Sequence[Any] = (),
    full: Mapping[str, Any] | None = None, feedback: Feedback | None = None,
):  # fmt: skip
    """Score every metric once on ``data`` and return ``(pair, scores, baseline_scores)``:
    the data object of the correlation, the metrics' :class:`MetricScores` (computed, then
    the ``external`` stored ones) and the length baselines' (when ``baselines``); two of them
    under one name are refused first (:func:`~mtpalette.sources.external.distinct_names`).

    ``full``: a folder's scores of every segment (system to scores), whose rated rows are
    taken instead of scoring again."""
    base = baseline_metrics(parsed, tokenize, lowercase) if baselines else []
    distinct_names([*parsed, *external], baselines=base)
    if full is not None:  # scored once: the rated rows of every segment's statistics
        stats = [[full[s].stats[m.spec] for s in full] for m in parsed]
        scores = rated_view(data, parsed, stats)
    else:
        if feedback is not None:
            feedback.note(f"scoring {data.n_rated} rated translations with {len(parsed)} metric(s)")
        scores = score_segments(data, parsed) if parsed else []
    scores += [external_segment_scores(data, m) for m in external]
    base_scores = score_segments(data, base) if base else []
    return data.pair_data(scores + base_scores, system_score=system_score), scores, base_scores


def segment_data_of(
    systems, refs, human: Mapping[str, Any], names: list[str], levels
) -> SegmentData:
    """The :class:`SegmentData` of Python lists: ``systems`` (name to outputs), reference
    streams and ``human`` (name to one score per segment, ``None`` or NaN where unrated),
    checked as a :class:`UserInputError` naming the system and the segment."""
    n = len(refs[0]) if refs else 0
    rows = []
    for name in names:
        scores = human_row(name, human[name])
        if len(scores) != n or len(systems[name]) != n:
            raise UserInputError(
                f"system {name!r}: {len(systems[name])} outputs and {len(scores)} human scores "
                f"for {n} segments"
            )
        rows.append(scores)
    for level in levels:
        check_not_degenerate(rows, level)
    return SegmentData(
        names,
        np.array(rows),
        [list(systems[s]) for s in names],
        [list(r) for r in refs],
        list(range(1, n + 1)),
    )


def human_row(system: str, values: Any) -> list[float]:
    """One system's human scores as floats (None: unrated), or a :class:`UserInputError`
    naming the system and the segment."""
    values = as_list(values, f"human[{system!r}]", "a list of numbers (one per segment)")
    row = []
    for i, v in enumerate(values):
        try:
            row.append(np.nan if v is None else float(v))
        except (TypeError, ValueError):
            raise UserInputError(
                f"human[{system!r}][{i}] is {v!r}; expected a number (None or NaN: unrated)"
            ) from None
    return row


def corpus_system_table(
    scored, human: dict[str, float], parsed: list[Metric], **kw
) -> CorrelationTable:
    """Corpus scores of every metric (``scored``: system to scores), correlated across
    systems with their human scores."""
    names = list(human)
    first = next(iter(scored.values()))
    return system_table(
        human,
        {m.spec: {s: scored[s].corpus[k].value for s in names} for k, m in enumerate(parsed)},
        directions={m.spec: m.higher_is_better for m in parsed},
        signatures={score.spec: score.signature for score in first.corpus},
        **kw,
    )


def segment_scores(data: SegmentData, scores) -> dict[str, Any]:
    """Every rated translation's human score and metric scores, for scatter plots."""
    rated = ~np.isnan(data.human)
    return {
        "human": [round(float(x), 6) for x in data.human[rated]],
        "metrics": {s.name: [round(float(x), 6) for x in s.seg[rated]] for s in scores},
    }


def unaligned_tables(unaligned, metrics: list[Metric], statistics: list[str],
                     common: dict[str, Any], feedback: Feedback):  # fmt: skip
    """System-level tables from judgments that cannot be aligned with lines
    (:class:`~mtpalette.sources.inputs.UnalignedJudgments`): each system's human score is the
    mean of its judged segments, its metric score the corpus score of its whole output (the
    judged segments cannot be told apart). Returns ``(tables, signatures, summary)``."""
    if not metrics:
        raise UserInputError("no metric given (-m)")
    judged = unaligned.judged
    names = [s for s in unaligned.outputs if s in judged.systems]
    left_out = [s for s in judged.systems if s not in unaligned.outputs]
    if left_out:
        left = ", ".join(left_out)
        feedback.warn(f"note: judged systems without an output file, left out: {left}")
    unjudged = [s for s in unaligned.outputs if s not in judged.systems]
    if unjudged:
        raise UserInputError(f"no judgments for system(s) {', '.join(unjudged)}", path=judged.path)
    human = judged.select(names).system_means()
    empty = [s for s, v in human.items() if v != v]
    if empty:
        raise UserInputError(
            f"no judged segment for system(s) {', '.join(empty)}", path=judged.path
        )
    scored = score_systems(
        {s: unaligned.outputs[s] for s in names}, unaligned.refs, [m.spec for m in metrics],
        progress=feedback,
    )  # fmt: skip
    parsed = {m.spec: m for m in metrics}
    parsed_in_order = [parsed[spec] for spec in next(iter(scored.values())).specs]
    tables = [
        corpus_system_table(scored, human, parsed_in_order, statistic=stat, **common)
        for stat in statistics
    ]
    summary = {
        "n_systems": len(names),
        "n_items": len(judged.items),
        "n_rated": judged.n_rated,
        "systems": names,
    }
    first = next(iter(scored.values()))
    return tables, dict(first.signatures), summary


def texts_tables(
    systems, refs, human, metrics, levels, tokenize, lowercase, baselines, grouping, common,
    feedback, *, system_score: str, threshold: float,
) -> Callable[[str, str], CorrelationTable]:  # fmt: skip
    """The Python lists of :func:`~mtpalette.api.correlation_run.correlate` checked and every
    metric scored once; returns the maker of the table of one (level, statistic) from those
    scores (``human`` per system: the corpus scores correlated across systems)."""
    from mtpalette.metaeval.pair_tables import table_of

    names, _ = system_outputs(systems)
    systems, refs = as_systems(systems), reference_streams(refs)
    if not isinstance(human, Mapping):
        raise UserInputError(
            f"human is {type(human).__name__}; expected {{system: scores}} or {{system: score}}"
        )
    probability_argument(common["alpha"], "alpha")
    missing = [s for s in names if s not in human]
    if missing:
        raise UserInputError(f"no human scores for system(s) {', '.join(map(repr, missing))}")
    specs = metric_specs(metrics, required=False)
    if all(isinstance(human[s], int | float | np.number) for s in names):
        text = dict(tokenize=tokenize, lowercase=lowercase)
        scored = score_systems(systems, refs, specs, progress=feedback, **text)
        parsed = parse_specs(next(iter(scored.values())).specs)
        human_by_system = {s: float(human[s]) for s in systems}  # type: ignore[arg-type]
        check_not_degenerate(list(human_by_system.values()), "system")
        return lambda _level, statistic: checked(
            corpus_system_table, scored, human_by_system, parsed, statistic=statistic, **common
        )
    data = segment_data_of(systems, refs, human, names, levels)
    parsed = parse_specs(specs, tokenize=tokenize, lowercase=lowercase)
    lp, scores, base_scores = checked(
        scored_pair, data, parsed, tokenize=tokenize, lowercase=lowercase,
        baselines=baselines and "segment" in levels, system_score=system_score,
    )  # fmt: skip
    names, base_names = [sc.name for sc in scores], [sc.name for sc in base_scores]

    def table(level: str, statistic: str) -> CorrelationTable:
        return checked(table_of, lp, names, base_names, level, statistic, grouping=grouping,
                       system_score=system_score, threshold=threshold, common=common)  # fmt: skip

    return table


def judged_pair(run, loaded, parsed: list[Metric], out, stage, feedback: Feedback):
    """The data object of a correlation run's judged inputs (``loaded``): the run's source
    lines and item limit applied, its score files read (a system-level file serves a
    system-level run only), every metric scored once (a folder's segments scored whole), the
    scores exported when ``out`` asks (into ``stage``), and the stored system scores beside
    them. Returns ``(data, lp, scores, base_scores, pair, files)``: ``pair`` the system-level
    data object (None: none stored or given), ``files`` the system-level files' directions
    and signatures."""
    import dataclasses
    from pathlib import Path

    from mtpalette.io.plain import read_lines
    from mtpalette.metaeval.external import reference_names
    from mtpalette.sources.external import export_judged, parse_scores
    from mtpalette.sources.system_scores import (
        add_segment_means,
        add_system_files,
        folder_scores,
        stored_system_scores,
    )

    data, inputs = loaded.data, loaded.inputs
    for level in run.levels:
        check_not_degenerate(data.human, level)
    if run.source is not None:
        data = data.with_sources(read_lines(run.source), str(run.source))
    if run.max_items is not None:
        data = data.select_items(range(min(run.max_items, data.n_items)))
    ref_names = [Path(r["path"]).name for r in inputs["refs"]] or None
    external = parse_scores(
        run.scores,
        reference_names(ref_names, len(data.refs)),
        levels=("seg", "sys") if run.levels == ["system"] else ("seg",),
    )
    per_system = [m for m in external if m.source.level == "sys"]
    external = [m for m in external if m.source.level == "seg"] + loaded.stored
    full = folder_scores(run, loaded.mtme_set, data, feedback)  # None: rated rows alone
    segment = "segment" in run.levels and run.baselines
    lp, scores, base_scores = scored_pair(
        data, parsed, tokenize=run.tokenize, lowercase=run.lowercase, baselines=segment,
        system_score=run.system_score, external=external, full=full, feedback=feedback,
    )  # fmt: skip
    if out.export_scores is not None:  # the mtpalette layout, or MTME's (--export-mtme)
        mtme = dict(mtme_lp=out.export_mtme, mtme_set=loaded.mtme_set, ref_names=ref_names,
                    computed=full)  # fmt: skip
        for path in export_judged(stage.path(out.export_scores), data, parsed, **mtme,
                                  tokenize=run.tokenize, lowercase=run.lowercase):  # fmt: skip
            feedback.note(f"wrote {stage.final(path)}")
    pair = stored_system_scores(run, loaded.mtme_set, feedback, computed=full)
    if pair is not None:  # the --scores segment files' system scores beside the folder's
        add_segment_means(pair, [m for m in external if m not in loaded.stored],
                           loaded.mtme_set.n_segments)  # fmt: skip
    if per_system:  # the system-level files beside the folder's or the texts' scores
        pair = pair or dataclasses.replace(lp, metrics=dict(lp.metrics),
                                           origins=dict(lp.origins))  # fmt: skip
        add_system_files(pair, per_system, len(data.refs))
    files = {m.label: (bool(m.higher_is_better), m.signature(n_refs=len(data.refs)))
             for m in per_system}  # fmt: skip
    return data, lp, scores, base_scores, pair, files
