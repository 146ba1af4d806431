"""Correlation of metrics with human judgments (MQM, DA, relative rankings), at segment and
system level, with bootstrap intervals and significance clusters (mt-metrics-eval's
conventions; see :mod:`mtpalette.stats`).

Two doors, one engine: :func:`correlate` takes texts and human scores as Python lists and
dicts; :class:`CorrelationRun` names files (or the bundled data, or an mt-metrics-eval folder)
and :func:`run_correlation` runs it, writes its outputs and returns a
:class:`CorrelationResult`. ``mtpalette correlate`` is a :class:`CorrelationRun` built from
its options.

Error metrics (WER, PER, TER) are negated before correlating, so a good metric always has a
positive correlation.

Examples
--------
>>> systems = {"A": ["a b c d", "a b"], "B": ["a b x y", "x y"], "C": ["x y z w", "a x"]}
>>> human = {"A": [1.0, 0.9], "B": [0.5, 0.1], "C": [0.0, 0.3]}
>>> t = correlate(systems, [["a b c d", "a b"]], human, ["bleus:1", "wer"], n_resamples=0)
>>> sorted((r.metric, round(r.value, 4)) for r in t.rows if not r.baseline)
[('bleus:1', 0.9743), ('wer', 0.9743)]
>>> sorted(r.metric for r in t.rows if r.baseline)  # the length baselines, shown beside them
['len', 'len:sign=-1', 'lendiff']
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mtpalette.description import Description, TableOutputs
from mtpalette.errors import UserInputError
from mtpalette.feedback import Feedback
from mtpalette.io.judgments import Judgments
from mtpalette.io.plain import read_lines
from mtpalette.io.run_folder import StagedFolder, check_out_dir, staged_folder
from mtpalette.io.runfile import Run, check_output_folders, write_csv
from mtpalette.metaeval.correlation import CorrelationTable
from mtpalette.metaeval.external import reference_names
from mtpalette.metaeval.pair_tables import against_baselines, table_of
from mtpalette.metaeval.segments import SegmentData
from mtpalette.metrics import parse_specs
from mtpalette.progress import feedback_of
from mtpalette.sources.checks import (
    SACREBLEU_SEED,
    as_systems,
    bootstrap_of,
    check_not_degenerate,
    check_resampling,
    checked,
    count_argument,
    metric_specs,
    probability_argument,
    reference_streams,
    system_outputs,
)
from mtpalette.sources.correlation import (
    corpus_system_table,
    scored_pair,
    segment_data_of,
    segment_scores,
    unaligned_tables,
)
from mtpalette.sources.external import check_exports, export_judged, parse_scores
from mtpalette.sources.inputs import JudgedInputs, UnalignedJudgments
from mtpalette.sources.scoring import score_systems
from mtpalette.sources.system_scores import (
    add_segment_means,
    add_system_files,
    folder_scores,
    stored_system_scores,
)
from mtpalette.stats import catalogue
from mtpalette.stats.permutation import P_CONVENTIONS

#: seed of every resampling unless given (sacrebleu's)
SEED = SACREBLEU_SEED


def correlate(
    systems: Mapping[str, Sequence[str]],
    refs: Sequence[Sequence[str]],
    human: Mapping[str, Sequence[float | None]],
    metrics: Sequence[str] | str,
    *,
    level: str | Sequence[str] = "segment",
    statistic: str | Sequence[str] = "pearson",
    grouping: str = "none",
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int | None = SEED,
    test: str = "permutation",
    n_permutations: int = 1000,
    alpha: float = 0.05,
    p_convention: str = "plus-one",
    lang: str = "",
    epsilon: float | None = None,
    threshold: float = 25.0,
    system_score: str = "corpus",
    tokenize: str = "13a",
    lowercase: bool = False,
    baselines: bool = True,
    progress: bool | Feedback | None = None,
) -> CorrelationTable | CorrelationResult:
    """Correlation of every metric with human scores, with bootstrap intervals and
    significance clusters.

    One level and one statistic give a :class:`CorrelationTable`; lists of them (or
    comma-separated strings) give a :class:`CorrelationResult` with one table per (level,
    statistic), in that order, whose ``to_pandas()`` is one table.

    Parameters
    ----------
    systems:
        ``{system: outputs}``, one line per segment.
    refs:
        Reference streams.
    human:
        ``{system: scores}``, one per segment (``None`` or NaN where unrated), higher is
        better; every system of ``systems`` needs its scores. ``{system: score}`` (one number
        per system, e.g. WMT's system-level DA) correlates the metrics' corpus scores at
        system level, the intervals resampling systems.
    level, statistic, grouping:
        ``segment`` or ``system``; ``pearson``, ``spearman``, ``kendall``...; ``none``,
        ``item`` or ``system`` (segment level).
    n_resamples, confidence, seed, test, n_permutations, alpha:
        Intervals and the test behind the clusters.
    p_convention:
        The permutation test's p-value: ``plus-one`` (``(count + 1) / (k + 1)``, never 0) or
        ``mtme`` (mt-metrics-eval's ``count / k``); with ``wmt``'s independent draws and the
        same convention, a ``wmt`` task asking the same question gives the same p-value.
    lang:
        The language pair, which keys the permutation draws as it keys those of a ``wmt``
        task (``correlate --lp``): with it, the same question gives the same draws.
    epsilon, threshold:
        acc-eq/tau-eq's metric tie threshold (``None``, the default as in the command:
        calibrated) and the kendall-like statistics' minimum human difference.
    system_score:
        At system level from segment scores: each metric's ``corpus`` score of the rated
        segments, or the ``mean`` of its segment scores.
    baselines:
        At segment level, add the trivial length baselines (rows marked ``baseline``) as the
        command does.
    progress:
        ``None``: a bar per table when standard error is a terminal or in a notebook; ``True``:
        bars and notes; ``False``: silent; or a :class:`~mtpalette.feedback.Feedback`.

    Examples
    --------
    >>> systems = {"A": ["a b c d", "a b"], "B": ["a b x y", "x y"], "C": ["x y z w", "a x"]}
    >>> by_system = {"A": 0.95, "B": 0.3, "C": 0.15}
    >>> t = correlate(systems, [["a b c d", "a b"]], by_system, "bleu", n_resamples=0)
    >>> t.level, round(t.rows[0].value, 4)
    ('system', 0.9995)
    >>> human = {"A": [1.0, 0.9], "B": [0.5, 0.1], "C": [0.0, 0.3]}
    >>> r = correlate(systems, [["a b c d", "a b"]], human, "bleus:1", n_resamples=0,
    ...               level=["segment", "system"], statistic=["pearson", "kendall"])
    >>> [(t.level, t.statistic) for t in r.tables]  # doctest: +NORMALIZE_WHITESPACE
    [('segment', 'pearson'), ('segment', 'kendall-b'), ('system', 'pearson'),
     ('system', 'kendall-b')]
    >>> list(r.to_pandas().columns[:4])
    ['level', 'statistic', 'grouping', 'metric']
    """
    levels, statistics = split_list(level), split_list(statistic)
    single = isinstance(level, str) and isinstance(statistic, str) and "," not in level + statistic
    if not levels or not statistics:
        raise UserInputError("give at least one level and one statistic")
    # checked once here; the tables take the canonical names
    statistics = [checked(catalogue.statistic, s).name for s in statistics]
    whole = dict(allow_none=False, sign_later=True)  # a negative count: refused below
    if p_convention not in P_CONVENTIONS:
        raise UserInputError(f"p_convention must be one of {', '.join(P_CONVENTIONS)} (got "
                             f"{p_convention!r})")  # fmt: skip
    common = dict(confidence=confidence, seed=seed, test=test, alpha=alpha,
                  p_convention=p_convention, lang=lang, epsilon=epsilon)  # fmt: skip
    common["n_resamples"] = count_argument(n_resamples, "n_resamples", **whole)
    common["n_permutations"] = count_argument(n_permutations, "n_permutations", **whole)
    feedback = feedback_of(progress)
    feedback.note("scoring every metric")
    table = _scored_once(
        systems, refs, human, metrics, levels, tokenize, lowercase, baselines, grouping, common,
        feedback, system_score=system_score, threshold=threshold,
    )  # fmt: skip
    pairs = [(lv, st) for lv in levels for st in statistics]
    tables = [table(lv, st) for lv, st in feedback.track(pairs, "correlation tables")]
    if single:
        return tables[0]
    titles = [
        f"{t.level.capitalize()}-level {catalogue.label(t.statistic)}"
        + (f", grouping {t.grouping}" if t.level == "segment" else "")
        for t in tables
    ]
    signatures = {r.metric: r.signature for t in tables for r in t.rows}
    return CorrelationResult(tables, titles, signatures, {})


def _scored_once(
    systems, refs, human, metrics, levels, tokenize, lowercase, baselines, grouping, common,
    feedback, *, system_score: str, threshold: float,
) -> Callable[[str, str], CorrelationTable]:  # fmt: skip
    """Check the inputs and score every metric once; returns the maker of the table of one
    (level, statistic) from those scores."""
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


def parse_epsilon(text: str | None) -> float | None:
    """``None`` or ``cal`` -> calibrate; a number -> a fixed metric tie threshold.

    Examples
    --------
    >>> parse_epsilon("cal"), parse_epsilon("0.5")
    (None, 0.5)
    """
    if text is None or text.strip().lower() in ("cal", "calibrate", "auto"):
        return None
    try:
        value = float(text)
    except ValueError:
        raise UserInputError(f"--epsilon must be a number or 'cal', got {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise UserInputError("--epsilon must be 0 or more")
    return value


@dataclass
class CorrelationOutputs(TableOutputs):
    """Where a correlation run writes: a folder (``out_dir``) fills in every file not named."""

    kind = "correlation-outputs"
    keep_scores: bool = False
    #: write --export-scores in mt-metrics-eval's layout for this language pair
    export_mtme: str | None = None

    def resolved(self) -> CorrelationOutputs:
        out = CorrelationOutputs(**vars(self))
        if out.report is not None:
            out.keep_scores = True
            if out.out_dir is None and out.json is None:
                out.out_dir = out.report_folder
        out.in_folder()
        return out


@dataclass
class CorrelationRun(Description):
    """Everything a correlation run needs: judged inputs, metrics, statistics, resampling.

    Examples
    --------
    >>> run = CorrelationRun(JudgedInputs(bundled="zhen"), statistics=["pearson", "kendall"])
    >>> run.validate(); run.specs
    ['bleus:4']
    """

    kind = "correlate"
    inputs: JudgedInputs
    metrics: list[str] | None = None
    scores: list[str] | None = None
    tokenize: str = "13a"
    lowercase: bool = False
    max_items: int | None = None
    source: Path | None = None
    statistics: list[str] = field(default_factory=lambda: ["pearson"])
    grouping: str = "none"
    #: ``segment``, ``system``, or several (``"segment,system"`` or a list): one table each
    level: str | list[str] = "segment"
    system_score: str = "corpus"
    epsilon: float | None = None
    threshold: float = 25.0
    bootstrap: int = 1000
    seed: int = SEED
    confidence: float = 0.95
    test: str = "permutation"
    permutations: int = 1000
    alpha: float = 0.05
    p_convention: str = "plus-one"
    baselines: bool = True
    #: pairwise statistics: the chance level under each table (a simulation with tie
    #: calibration, to :data:`mtpalette.stats.chance.TOLERANCE`); False: not computed
    chance: bool = True
    outputs: CorrelationOutputs = field(default_factory=CorrelationOutputs)

    @property
    def specs(self) -> list[str]:
        """The metric specs (``bleus:4`` when neither metrics nor score files nor an
        mt-metrics-eval folder's stored metrics are given)."""
        given = self.scores or self.inputs.mtme_metrics
        return list(self.metrics or ([] if given else ["bleus:4"]))

    @property
    def levels(self) -> list[str]:
        """The levels of the run, in order (``level`` as a list)."""
        return split_list(self.level)

    def validate(self) -> None:
        from mtpalette.stats.significance import LEVELS

        if not self.levels:
            raise UserInputError("no level given; expected segment, system or both")
        if self.p_convention not in P_CONVENTIONS:
            raise UserInputError(f"--p-convention must be one of {', '.join(P_CONVENTIONS)} "
                                 f"(got {self.p_convention!r})")  # fmt: skip
        for level in self.levels:
            if level not in LEVELS:
                raise UserInputError(
                    f"unknown level {level!r}; expected one of {', '.join(LEVELS)}"
                )
        for s in self.statistics:
            entry = checked(catalogue.statistic, s)
            if any(level not in entry.levels for level in self.levels):
                source = " (from the segment scores)" if entry.from_segments else ""
                raise UserInputError(
                    f"{s} is a {' and '.join(entry.levels)}-level statistic{source}: give "
                    f"--level {','.join(entry.levels)}"
                )
        check_resampling(
            bootstrap=self.bootstrap,
            confidence=self.confidence,
            seed=self.seed,
            permutations=self.permutations,
        )
        probability_argument(self.alpha, "--alpha")
        if self.max_items is not None and self.max_items < 2:
            raise UserInputError("--max-items must be at least 2")
        if self.epsilon is not None:
            parse_epsilon(str(self.epsilon))
        if not self.threshold >= 0.0:  # NaN too
            raise UserInputError(
                f"--threshold must be a human score difference >= 0 (got {self.threshold})"
            )
        super().validate()

    def common(self) -> dict[str, Any]:
        """The resampling and test settings of every table."""
        tests = dict(test=self.test, n_permutations=self.permutations, alpha=self.alpha,
                     p_convention=self.p_convention, lang=self.inputs.lp or "")  # fmt: skip
        return bootstrap_of(self) | tests | {"epsilon": self.epsilon}


@dataclass
class CorrelationResult:
    """What a correlation run computed and wrote: one table per statistic, with its title."""

    tables: list[CorrelationTable]
    titles: list[str]
    signatures: dict[str, str]
    outputs: dict[str, Any]

    def to_pandas(self):
        """Every table in one: one row per (level, statistic, metric), with the columns
        ``level``, ``statistic``, ``grouping`` and those of :meth:`CorrelationTable.to_pandas`."""
        from mtpalette.records import frame

        return frame(
            {"level": t.level, "statistic": t.statistic, "grouping": t.grouping, **r.to_dict()}
            for t in self.tables
            for r in t.rows
        )

    def to_json(self) -> str:
        """The tables (with their titles), the signatures and the files written, as JSON."""
        from mtpalette.records import dumps

        tables = [
            {"title": title, **t.to_dict()}
            for t, title in zip(self.tables, self.titles, strict=True)
        ]
        return dumps({"tables": tables, "signatures": self.signatures, "outputs": self.outputs})


def run_correlation(
    run: CorrelationRun, progress: bool | Feedback | None = None
) -> CorrelationResult:
    """Run the correlation ``run`` describes, write its outputs and return the result.

    ``progress``: bars (and with ``True`` notes) on standard error, ``None`` (the default)
    bars alone when it is a terminal or in a notebook; ``False``: silent; or a
    :class:`~mtpalette.feedback.Feedback`.
    """
    run.validate()
    feedback = feedback_of(progress)
    out = run.outputs.resolved()
    check_out_dir(out.out_dir)
    check_output_folders(out.by_option(run.outputs, "json", "csv", "report"), made=[out.out_dir])
    parsed = parse_specs(run.specs, tokenize=run.tokenize, lowercase=run.lowercase)
    check_exports(out.export_scores, parsed, mtme_lp=out.export_mtme, overwrite=out.overwrite)
    with staged_folder(out.out_dir) as stage:  # the folder complete, or as it was
        result = _staged_run(run, out, stage, parsed, feedback)
    if out.report is not None and out.json is not None:  # built from the run file in place
        from mtpalette.reporting.html import write_report

        result.outputs["report"] = str(write_report([out.json], out.report))
    return result


def _staged_run(run, out, stage: StagedFolder, parsed, feedback: Feedback) -> CorrelationResult:
    """The work of :func:`run_correlation`; the files of the output folder go to ``stage``."""
    try:
        loaded = run.inputs.load(note=feedback.warn)
        data, judged, inputs = loaded.data, loaded.judged, loaded.inputs
    except UnalignedJudgments as unaligned:
        if run.levels != ["system"] or run.scores:
            raise UserInputError(
                f"{unaligned}; give --level system (and no --scores)", path=unaligned.path
            ) from None
        tables, signatures, summary = unaligned_tables(
            unaligned, parsed, run.statistics, run.common(), feedback
        )
        data, judged, inputs, scores = None, unaligned.judged, unaligned.inputs, []
        titles = [_unaligned_title(t, summary, judged) for t in tables]
    else:
        for level in run.levels:
            check_not_degenerate(data.human, level)
        if run.source is not None:
            data = data.with_sources(read_lines(run.source), str(run.source))
        if run.max_items is not None:
            data = data.select_items(range(min(run.max_items, data.n_items)))
        ref_names = [Path(r["path"]).name for r in inputs["refs"]] or None
        # a system-level file (one score per system) serves a system-level run only
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
        names = ([sc.name for sc in scores], [sc.name for sc in base_scores])
        tables = _tables(run, lp, names, feedback, pair, files)
        with feedback.steps("each metric against the best length baseline") as progress:
            for k, table in enumerate(tables):
                if progress is not None:
                    what = f"{table.level} {table.statistic}: metrics against the best baseline"
                    progress(k, len(tables), what)
                for sentence in against_baselines(table, lp, *names, test=run.test,
                                                  n_permutations=run.permutations,
                                                  alpha=run.alpha, seed=run.seed,
                                                  epsilon=run.epsilon,
                                                  chance=run.chance):  # fmt: skip
                    feedback.warn(f"note: {sentence}")
        signatures = {sc.name: sc.signature for sc in scores + base_scores}
        signatures |= {r.metric: r.signature for t in tables for r in t.rows}
        summary = {
            "n_systems": data.n_systems,
            "n_items": data.n_items,
            "n_rated": data.n_rated,
            "systems": data.systems,
        }
        titles = [_title(t, data, judged) for t in tables]
    result = CorrelationResult(tables, titles, signatures, {})
    _write(run, out, stage, result, {**inputs, **summary}, data, scores)
    return result


def split_list(value: str | Sequence[str]) -> list[str]:
    """A comma-separated string or a list as a list of stripped, non-empty names.

    Examples
    --------
    >>> split_list("segment, system"), split_list(["pearson", "kendall"])
    (['segment', 'system'], ['pearson', 'kendall'])
    """
    parts = value.split(",") if isinstance(value, str) else list(value)
    return [p.strip() for p in parts if p.strip()]


def _tables(run, lp, names, feedback: Feedback, pair=None, files=None) -> list[CorrelationTable]:
    """One table per (level, statistic) of the data object ``lp`` (``names``: its metrics
    and its length baselines); at system level, ``pair`` (an mt-metrics-eval folder's data
    object) gives the stored system scores. The progress bar counts the real work as it is
    done: bootstrap resamples times metrics, then the permutation draws of each pair of
    metrics the clusters compare (expected: one pair per metric but one; the total grows
    when the clusters compare more)."""
    metrics, baselines = names

    def work(level: str) -> int:
        m = len(metrics) + (len(baselines) if level == "segment" else 0)
        perms = run.permutations if run.test == "permutation" else 0
        return run.bootstrap * m + perms * max(m - 1, 0)

    total = sum(work(level) for level in run.levels) * len(run.statistics)
    tables: list[CorrelationTable] = []
    gold = run.inputs.human if run.inputs.mtme is not None else None
    with feedback.steps(f"bootstrap and {run.test} test") as progress:
        state = {"done": 0, "total": max(total, 1), "what": ""}

        def advance(n: int) -> None:
            state["done"] += n
            state["total"] = max(state["total"], state["done"])
            progress(state["done"], state["total"], state["what"])

        for level in run.levels:
            for s in run.statistics:
                if progress is None:
                    feedback.note(f"{level} level, {s}: bootstrap and {run.test} test")
                state["what"] = f"{level} {s}: resamples x metrics"
                tables.append(table_of(
                    lp, metrics, baselines, level, s, grouping=run.grouping,
                    system_score=run.system_score, threshold=run.threshold, common=run.common(),
                    pair=pair, files=files, gold=gold,
                    progress=advance if progress is not None else None,
                ))  # fmt: skip
    return tables


def _write(run, out: CorrelationOutputs, stage: StagedFolder, result, inputs, data, scores):
    tables, outputs = result.tables, result.outputs
    if out.csv is not None:
        rows = [  # the table's degenerate groups said on each of its rows (note)
            {"statistic": t.statistic, "grouping": t.grouping, "level": t.level, **r.to_dict(),
             "note": "; ".join(t.info.get("degenerate", {}).get("notes", []))}
            for t in tables
            for r in t.rows
        ]  # fmt: skip
        write_csv(stage.path(out.csv), rows)
        outputs["table_csv"] = str(out.csv)
    if out.json is not None:
        outputs["run_json"] = str(out.json)
        kept = {"segment_scores": segment_scores(data, scores)} if out.keep_scores and data else {}
        Run(
            "correlate",
            inputs=inputs,
            settings={
                "metric_specs": run.specs,
                "score_files": list(run.scores or []),
                "statistics": run.statistics,
                "grouping": run.grouping,
                "level": run.level if isinstance(run.level, str) else ",".join(run.levels),
                "system_score": run.system_score,
                "epsilon": "calibrated" if run.epsilon is None else run.epsilon,
                "threshold": run.threshold,
                "bootstrap": run.bootstrap,
                "confidence": run.confidence,
                "test": run.test,
                "permutations": run.permutations,
                "alpha": run.alpha,
                "max_items": run.max_items,
                "tokenize": run.tokenize,
                "lowercase": run.lowercase,
            },
            signatures=result.signatures,
            seeds={"bootstrap": run.seed, "permutation": [run.seed, 1]},
            results={"tables": [t.to_dict() for t in tables], **kept},
            outputs=outputs,
        ).save(stage.path(out.json))


def _unaligned_title(table: CorrelationTable, summary, judged: Judgments) -> str:
    return (
        f"System-level {catalogue.label(table.statistic)} with human scores: "
        f"{summary['n_systems']} "
        f"systems, human score = mean of {summary['n_rated']} judged segments ({judged.kind}); "
        "metric score = corpus score of the whole output"
    )


def _title(table: CorrelationTable, data: SegmentData, judged: Judgments) -> str:
    where = (
        f"{data.n_systems} systems x {data.n_items} segments, {data.n_rated} rated "
        f"translations ({judged.kind})"
    )
    if table.level == "system":
        return f"System-level {catalogue.label(table.statistic)} with human scores: {where}"
    return (
        f"Segment-level {catalogue.label(table.statistic)} with human scores, grouping "
        f"{table.grouping}: {where}"
    )
