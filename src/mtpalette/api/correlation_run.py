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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mtpalette import flags
from mtpalette.description import Description
from mtpalette.errors import UserInputError
from mtpalette.feedback import Feedback
from mtpalette.flags import (
    CORRELATION,
    RESAMPLING,
    Switch,
    flag,
    is_on,
    parse_epsilon,
    split_list,
)
from mtpalette.metaeval.correlation import SYSTEM_SCORES
from mtpalette.reporting.outputs import CorrelationOutputs
from mtpalette.sources.checks import (
    SACREBLEU_SEED,
    bootstrap_of,
    check_resampling,
    checked,
    count_argument,
    probability_argument,
)
from mtpalette.sources.inputs import JudgedInputs, UnalignedJudgments
from mtpalette.stats import catalogue
from mtpalette.stats.significance import LEVELS, TESTS

if TYPE_CHECKING:
    from mtpalette.io.run_folder import StagedFolder
    from mtpalette.metaeval.correlation import CorrelationTable

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
    from mtpalette.metaeval.correlation_tables import table_title
    from mtpalette.progress import feedback_of
    from mtpalette.sources.correlation import texts_tables
    from mtpalette.stats.permutation import P_CONVENTIONS

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
    table = texts_tables(
        systems, refs, human, metrics, levels, tokenize, lowercase, baselines, grouping, common,
        feedback, system_score=system_score, threshold=threshold,
    )  # fmt: skip
    pairs = [(lv, st) for lv in levels for st in statistics]
    tables = [table(lv, st) for lv, st in feedback.track(pairs, "correlation tables")]
    if single:
        return tables[0]
    titles = [table_title(t) for t in tables]
    signatures = {r.metric: r.signature for t in tables for r in t.rows}
    return CorrelationResult(tables, titles, signatures, {})


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
    metrics: list[str] | None = flags.METRIC_SPECS.field(None)
    scores: list[str] | None = flags.SCORES.field(None)
    tokenize: str = flags.TOKENIZE.field("13a")
    lowercase: bool = flags.LOWERCASE.field(False)
    max_items: int | None = flags.MAX_ITEMS.field(None)
    source: Path | None = flags.SOURCE.field(None)
    statistics: list[str] = flags.STATISTICS.but(
        help="Comma-separated: " + ", ".join(catalogue.names()), cli_default="pearson"
    ).field(factory=lambda: ["pearson"])
    grouping: str = flags.GROUPING.field("none")
    #: ``segment``, ``system``, or several (``"segment,system"`` or a list): one table each
    level: str | list[str] = flag(
        "--level", panel=CORRELATION, help="Comma-separated: " + ", ".join(LEVELS), cli=str
    ).field("segment")
    system_score: str = flag(
        "--system-score", panel=CORRELATION, help="System level: " + " or ".join(SYSTEM_SCORES)
    ).field("corpus")
    epsilon: float | None = flags.EPSILON.field(None)
    threshold: float = flag(
        "--threshold", panel=CORRELATION, help="kendall-like: min human difference."
    ).field(25.0)
    bootstrap: int = flags.BOOTSTRAP.field(1000)
    seed: int = flags.SEED.field(SEED)
    confidence: float = flags.CONFIDENCE.field(0.95)
    test: str = flag(
        "--test", panel=RESAMPLING, help="Clusters: " + ", ".join(TESTS)
    ).field("permutation")
    permutations: int = flag(
        "--permutations", panel=RESAMPLING, help="Permutation test draws."
    ).field(1000)
    alpha: float = flag(
        "--alpha", panel=RESAMPLING, help="Significance level of clusters."
    ).field(0.05)
    p_convention: str = flags.P_CONVENTION.field("plus-one")
    baselines: bool = flag(
        "--baselines/--no-baselines", panel=CORRELATION,
        help="Segment level: length baselines beside the metrics, each metric tested against "
        "the best.",
    ).field(True)  # fmt: skip
    #: pairwise statistics: the chance level under each table (a simulation with tie
    #: calibration, to :data:`mtpalette.stats.chance.TOLERANCE`); False: not computed
    chance: bool = flag(
        "--chance", panel=CORRELATION, cli=Switch, parse=is_on, cli_default=Switch.on,
        help="Pairwise statistics: the chance level under the table (on; a simulation under "
        "tie calibration) or off.",
    ).field(True)  # fmt: skip
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

        super().validate()  # the options' choices first
        if not self.levels:
            raise UserInputError("no level given; expected segment, system or both")
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
    from mtpalette.io.run_folder import check_out_dir, staged_folder
    from mtpalette.io.runfile import check_output_folders
    from mtpalette.metrics import parse_specs
    from mtpalette.progress import feedback_of
    from mtpalette.reporting.run_files import RunFiles
    from mtpalette.sources.external import check_exports

    run.validate()
    feedback = feedback_of(progress)
    out = run.outputs.resolved()
    check_out_dir(out.out_dir)
    check_output_folders(out.by_option(run.outputs, "json", "csv", "report"), made=[out.out_dir])
    parsed = parse_specs(run.specs, tokenize=run.tokenize, lowercase=run.lowercase)
    check_exports(out.export_scores, parsed, mtme_lp=out.export_mtme, overwrite=out.overwrite)
    with staged_folder(out.out_dir) as stage:  # the folder complete, or as it was
        result = _staged_run(run, out, stage, parsed, feedback)
    RunFiles(result.outputs).report(out.json, out.report)  # from the run file in place
    return result


def _staged_run(run, out, stage: StagedFolder, parsed, feedback: Feedback) -> CorrelationResult:
    """The work of :func:`run_correlation`; the files of the output folder go to ``stage``."""
    from mtpalette.metaeval.correlation_tables import (
        baselines_noted,
        correlation_tables,
        table_title,
    )
    from mtpalette.sources.correlation import judged_pair, unaligned_tables

    try:
        loaded = run.inputs.load(note=feedback.warn)
    except UnalignedJudgments as unaligned:
        if run.levels != ["system"] or run.scores:
            raise UserInputError(
                f"{unaligned}; give --level system (and no --scores)", path=unaligned.path
            ) from None
        tables, signatures, summary = unaligned_tables(
            unaligned, parsed, run.statistics, run.common(), feedback
        )
        data, judged, inputs, scores = None, unaligned.judged, unaligned.inputs, []
        where = (f"{summary['n_systems']} systems, human score = mean of {summary['n_rated']} "
                 f"judged segments ({judged.kind}); metric score = corpus score of the whole "
                 "output")  # fmt: skip
    else:
        data, lp, scores, base_scores, pair, files = judged_pair(
            run, loaded, parsed, out, stage, feedback
        )
        judged, inputs = loaded.judged, loaded.inputs
        names = ([sc.name for sc in scores], [sc.name for sc in base_scores])
        tables = correlation_tables(run, lp, names, feedback, pair, files)
        baselines_noted(run, tables, lp, names, feedback)
        signatures = {sc.name: sc.signature for sc in scores + base_scores}
        signatures |= {r.metric: r.signature for t in tables for r in t.rows}
        summary = {"n_systems": data.n_systems, "n_items": data.n_items,
                   "n_rated": data.n_rated, "systems": data.systems}  # fmt: skip
        where = (f"{data.n_systems} systems x {data.n_items} segments, {data.n_rated} rated "
                 f"translations ({judged.kind})")  # fmt: skip
    result = CorrelationResult(tables, [table_title(t, where) for t in tables], signatures, {})
    _write(run, out, stage, result, {**inputs, **summary}, data, scores)
    return result


def _write(run, out: CorrelationOutputs, stage: StagedFolder, result, inputs, data, scores):
    from mtpalette.reporting.run_files import RunFiles
    from mtpalette.reporting.run_records import correlation_record
    from mtpalette.sources.correlation import segment_scores

    files = RunFiles(result.outputs, stage)
    # the table's degenerate groups said on each of its rows (note)
    files.table("table_csv", "csv", out.csv, lambda: [
        {"statistic": t.statistic, "grouping": t.grouping, "level": t.level, **r.to_dict(),
         "note": "; ".join(t.info.get("degenerate", {}).get("notes", []))}
        for t in result.tables
        for r in t.rows
    ])  # fmt: skip
    kept = {"segment_scores": segment_scores(data, scores)} if out.keep_scores and data else {}
    files.record("run_json", out.json, lambda: correlation_record(run, result, inputs, kept))
