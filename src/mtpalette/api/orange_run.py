"""ORANGE (Lin and Och 2004) and Limited ORANGE runs: the mean rank of the references among
candidate translations, per metric, with bootstrap intervals.

Two doors, one engine: :func:`orange` takes texts as Python lists; :class:`OrangeRun` names
files (references, n-best lists or system outputs, a pivot for Limited ORANGE, a run folder
for chunked and distributed runs) and :func:`run_orange` runs it, writes its outputs and
returns an :class:`OrangeResult`. ``mtpalette orange`` is an :class:`OrangeRun` built from
its options.

Examples
--------
>>> systems = {"A": ["the cat sat on the mat today", "a dog ran"],
...            "B": ["cat the mat", "dog a ran far away"]}
>>> refs = [["the cat sat on the mat", "a dog ran"], ["the cat sat on a mat", "the dog ran"]]
>>> t = orange(refs, systems, ["bleus:2", "wer"], n_resamples=0)
>>> [(r.metric, round(r.orange.value, 4)) for r in t.rows]
[('bleus:2', 0.5417), ('wer', 0.5)]

A system whose every line is a reference's is left out, as the command leaves it out: it
would be ranked against itself (a note on stderr says so).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mtpalette import flags
from mtpalette.api.chunked import Chunking
from mtpalette.description import Description
from mtpalette.errors import UserInputError
from mtpalette.feedback import Feedback
from mtpalette.reporting.outputs import ERRORS_MAX, OrangeOutputs
from mtpalette.sources.checks import (
    SACREBLEU_SEED,
    check_resampling,
    checked,
)
from mtpalette.sources.inputs import CandidateInputs
from mtpalette.sources.limited import LimitedFeatures

if TYPE_CHECKING:
    from mtpalette.metaeval.orange import OrangeTable

if TYPE_CHECKING:
    from mtpalette.io.run_folder import StagedFolder
    from mtpalette.metaeval.candidates import CandidateLists
    from mtpalette.metaeval.orange import (
        Comparisons,
        OrangeCurve,
    )
    from mtpalette.metaeval.orange_runs import ChunkedLists
    from mtpalette.reporting.run_files import RunFiles

#: seed of every resampling unless given (sacrebleu's)
SEED = SACREBLEU_SEED


def orange(
    refs: Sequence[Sequence[str]],
    candidates: Mapping[str, Sequence[str]] | Sequence[Sequence[str]],
    metrics: Sequence[str] | str,
    *,
    oracle: str = "leave-one-out",
    ties: str = "mid",
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int | None = SEED,
    min_candidates: int = 1,
    tokenize: str = "13a",
    lowercase: bool = False,
    progress: bool | Feedback | None = None,
) -> OrangeTable:
    """ORANGE (Lin and Och 2004) of every metric: the mean rank of the references among the
    candidates, with bootstrap intervals and the metrics equivalent to the best.

    Parameters
    ----------
    refs:
        At least two reference streams (``refs[k][s]``).
    candidates:
        ``{system: outputs}`` (a pool of systems, Limited-ORANGE style) or one n-best list
        per segment.
    metrics:
        Metric specs.
    oracle, ties:
        ``leave-one-out`` or ``average-score``; ``mid``, ``optimistic`` or ``pessimistic``
        (see :mod:`mtpalette.metaeval.orange`).
    n_resamples, confidence, seed:
        Bootstrap over segments (0: no intervals).
    min_candidates:
        Leave out segments with fewer candidates.
    progress:
        ``None``: a bar while scoring when standard error is a terminal or in a notebook;
        ``True``: bars and notes; ``False``: silent; or a
        :class:`~mtpalette.feedback.Feedback`.

    Returns
    -------
    OrangeTable
        ``.rows`` in metric order; ``.to_pandas()`` one row per metric;
        :func:`mtpalette.report` shows it with its error analysis and reference agreement.

    References
    ----------
    Lin and Och (2004), "ORANGE: a Method for Evaluating Automatic Evaluation Metrics for
    Machine Translation".
    """
    from mtpalette.metaeval.candidates import compare_candidates
    from mtpalette.metaeval.of_texts import OrangeOfTexts, TextsRun
    from mtpalette.metaeval.orange import evaluate
    from mtpalette.progress import feedback_of
    from mtpalette.sources.candidates import lists_and_metrics

    check_resampling(bootstrap=n_resamples, confidence=confidence, seed=seed, least=0)
    lists, parsed = lists_and_metrics(refs, candidates, metrics, tokenize, lowercase)
    with feedback_of(progress).steps("scoring") as step:
        comparisons = compare_candidates(
            lists, parsed, oracle=oracle, keep_scores=ERRORS_MAX, progress=step
        )
    table = checked(
        evaluate,
        comparisons,
        ties=ties,
        n_resamples=n_resamples,
        confidence=confidence,
        seed=seed,
        min_candidates=min_candidates,
    )
    texts = TextsRun(lists, parsed, comparisons, tokenize, lowercase, min_candidates)
    return OrangeOfTexts.of(table, texts)


@dataclass
class OrangeRun(Description):
    """Everything an ORANGE or Limited ORANGE run needs, from files.

    ``limited`` makes it feature-ranked Limited ORANGE (one reference and a pivot);
    ``chunking`` scores it chunk by chunk in a resumable run folder, on any backend.

    Examples
    --------
    >>> run = OrangeRun(CandidateInputs([Path("A"), Path("B")], systems=[Path("s.txt")]))
    >>> run.validate(); run.specs
    ['bleus:4']
    >>> OrangeRun.from_dict(run.to_dict()) == run
    True
    """

    kind = "orange"
    candidates: CandidateInputs
    metrics: list[str] | None = flags.METRIC_SPECS.field(None)
    scores: list[str] | None = flags.SCORES.field(None)
    tokenize: str = flags.TOKENIZE.field("13a")
    lowercase: bool = flags.LOWERCASE.field(False)
    oracle: str = flags.ORACLE.field("leave-one-out")
    ties: str = flags.TIES.field("mid")
    bootstrap: int = flags.BOOTSTRAP.field(1000)
    seed: int = flags.SEED.field(SEED)
    confidence: float = flags.CONFIDENCE.field(0.95)
    min_candidates: int = flags.MIN_CANDIDATES.field(1)
    max_candidates: int | None = flags.MAX_CANDIDATES.field(None)
    source: Path | None = flags.SOURCE.field(None)
    limited: LimitedFeatures | None = None
    chunking: Chunking | None = None
    outputs: OrangeOutputs = field(default_factory=OrangeOutputs)

    @property
    def specs(self) -> list[str]:
        """The metric specs (``bleus:4`` when neither metrics nor score files are given)."""
        return list(self.metrics or ([] if self.scores else ["bleus:4"]))

    def validate(self) -> None:
        from mtpalette.metaeval.orange import check_oracle, tie_weight

        check_oracle(self.oracle)
        tie_weight(self.ties)
        check_resampling(bootstrap=self.bootstrap, confidence=self.confidence, seed=self.seed)
        if self.max_candidates is not None and self.max_candidates < 1:
            raise UserInputError(
                "--max-candidates and --curve-step must be positive, --errors-max 0 or more"
            )
        super().validate()
        if self.chunking is None:
            return
        export = self.outputs.export_scores
        if self.scores or export is not None or self.max_candidates is not None or self.source:
            raise UserInputError(
                "--run-dir does not combine with --scores, --export-scores, --max-candidates "
                "or --source"
            )
        if self.candidates.nbest is not None and self.candidates.nbest_format == "jsonl":
            raise UserInputError("--run-dir streams Moses n-best files; JSONL is not streamed")


@dataclass
class OrangeResult:
    """What an ORANGE run computed and wrote."""

    table: OrangeTable
    curve: OrangeCurve | None
    lists: CandidateLists | ChunkedLists
    oracle: str
    outputs: dict[str, Any]
    #: each reference scored against the others, beside the systems (two or more references)
    references: Any = None

    def to_pandas(self):
        """One row per metric of the ORANGE table (flat columns, intervals as ``*_low`` and
        ``*_high``)."""
        return self.table.to_pandas()

    def to_json(self) -> str:
        """The title, the table (without per-segment ranks), the reference agreement and the
        files written, as JSON."""
        from mtpalette.records import dumps

        refs = None if self.references is None else self.references.to_dict()
        table = self.table.to_dict(with_segment_ranks=False)
        return dumps(
            {"title": self.title, "table": table, "references": refs, "outputs": self.outputs}
        )

    @property
    def title(self) -> str:
        """One line on the data: segments, references, candidates per list."""
        n = self.lists.n_candidates
        lo, hi = int(n.min()), int(n.max())
        return (
            f"ORANGE ({self.oracle}): {self.lists.n_segments} segments, {self.lists.n_refs} "
            f"references, {lo if lo == hi else f'{lo}-{hi}'} candidates per list "
            f"({self.lists.info.get('kind', '')})"
        )


def run_orange(run: OrangeRun, progress: bool | Feedback | None = None) -> OrangeResult:
    """Run ORANGE as ``run`` describes, write its outputs and return the result.

    Every output's folder is checked before any work (a run that cannot write all its outputs
    writes none); the output folder is written beside itself and moved into place whole
    (:mod:`mtpalette.io.run_folder`): complete, or as it was.

    ``progress``: bars (and with ``True`` notes) on standard error, ``None`` (the default)
    bars alone when it is a terminal or in a notebook; ``False``: silent; or a
    :class:`~mtpalette.feedback.Feedback`.
    """
    from mtpalette.io.run_folder import check_out_dir, staged_folder
    from mtpalette.io.runfile import check_output_folders
    from mtpalette.metaeval.candidates import ONE_REFERENCE
    from mtpalette.metrics import parse_specs
    from mtpalette.progress import feedback_of
    from mtpalette.reporting.run_files import RunFiles
    from mtpalette.sources.external import check_exports

    run.validate()
    feedback = feedback_of(progress)
    chunking = run.chunking
    out = run.outputs.resolved(None if chunking is None else chunking.run_dir)
    check_output_folders(
        out.by_option(run.outputs, "json", "csv", "curve_csv", "curve_plot", "errors", "report"),
        made=[out.out_dir, None if chunking is None else chunking.run_dir],
    )
    if chunking is None or out.out_dir != chunking.run_dir:  # else --run-dir's own check
        check_out_dir(out.out_dir)
    ref_lines = run.candidates.read_refs()
    if len(ref_lines) < 2 and run.limited is None:
        raise UserInputError(ONE_REFERENCE)
    if run.limited is not None and len(ref_lines) != 1:
        raise UserInputError("--pivot (Limited ORANGE) takes exactly one reference")
    parsed = parse_specs(run.specs, tokenize=run.tokenize, lowercase=run.lowercase)
    check_exports(out.export_scores, parsed, mtme_lp=out.export_mtme, overwrite=out.overwrite)
    with staged_folder(out.out_dir) as stage:  # the folder complete, or as it was
        result = _staged_run(run, out, stage, ref_lines, parsed, feedback)
    RunFiles(result.outputs).report(out.json, out.report)  # from the run file in place
    return result


def _staged_run(
    run: OrangeRun,
    out: OrangeOutputs,
    stage: StagedFolder,
    ref_lines: list[list[str]],
    parsed: list,
    feedback: Feedback,
) -> OrangeResult:
    """The work of :func:`run_orange` once its inputs are checked
    (:mod:`mtpalette.metaeval.orange_runs`); the files of the output folder go to ``stage``."""
    from mtpalette.metaeval.orange_runs import compared, evaluated
    from mtpalette.reporting.run_files import RunFiles
    from mtpalette.sources.external import export_orange

    done = compared(run, out, ref_lines, parsed, feedback)
    if out.export_scores is not None:
        for path in export_orange(stage.path(out.export_scores), parsed, done.lists,
                                  mtme_lp=out.export_mtme):  # fmt: skip
            feedback.note(f"wrote {stage.final(path)}")
    table, curve, agreement = evaluated(run, out, done, parsed, feedback)
    result = OrangeResult(table, curve, done.lists, done.oracle, {}, agreement)
    _write(run, out, RunFiles(result.outputs, stage), result, done.comparisons, done.files)
    return result


def _write(
    run: OrangeRun,
    out: OrangeOutputs,
    files: RunFiles,
    result: OrangeResult,
    comparisons: list[Comparisons],
    read: list[Path],
) -> None:
    """Write the table, curve, error analysis and run record that ``out`` names."""
    from mtpalette.metaeval.orange_errors import error_records
    from mtpalette.reporting.curves import curve_bytes
    from mtpalette.reporting.run_records import orange_record

    table, curve, lists = result.table, result.curve, result.lists
    files.table("table_csv", "csv", out.csv, lambda: [row.to_dict() for row in table.rows])
    if curve is not None:
        files.table("curve_csv", "csv", out.curve_csv, curve.rows)
        # drawn on a worker of a Dask run (its client, perhaps a login node, never loads
        # matplotlib), else here
        where = run.chunking.dask_backend() if run.chunking is not None else None
        draw = lambda: curve_bytes(curve, out.curve_plot, where)  # noqa: E731
        files.table("curve_plot", "bytes", out.curve_plot, draw)
    n = files.table("errors_jsonl", "jsonl", out.errors, lambda: error_records(
        comparisons, lists, ties=run.ties, most=out.errors_max), plain=True)  # fmt: skip
    if out.errors is not None:
        files.outputs["errors_records"] = n
    files.record("run_json", out.json, lambda: orange_record(run, result, read))
