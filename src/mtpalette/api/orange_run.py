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

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from mtpalette.api.chunked import ChunkedLists, Chunking
from mtpalette.description import Description, TableOutputs
from mtpalette.errors import UserInputError
from mtpalette.feedback import Feedback
from mtpalette.io.plain import read_matching
from mtpalette.io.run_folder import StagedFolder, check_out_dir, staged_folder
from mtpalette.io.runfile import Run, check_output_folders, figure_format, file_record
from mtpalette.io.writers import write
from mtpalette.metaeval.candidates import ONE_REFERENCE, CandidateLists, compare_candidates
from mtpalette.metaeval.external import (
    ExternalMetric,
    export_orange_scores,
    external_comparisons,
    reference_names,
)
from mtpalette.metaeval.orange import (
    Comparisons,
    OrangeCurve,
    OrangeTable,
    check_oracle,
    curve_cutoffs,
    evaluate,
    orange_curve,
    tie_weight,
)
from mtpalette.metaeval.orange_errors import error_records
from mtpalette.metaeval.references import reference_agreement_of
from mtpalette.metrics import parse_specs
from mtpalette.progress import feedback_of
from mtpalette.records import out
from mtpalette.sources.candidates import lists_and_metrics
from mtpalette.sources.checks import (
    SACREBLEU_SEED,
    bootstrap_of,
    check_resampling,
    checked,
)
from mtpalette.sources.external import (
    check_export_layout,
    check_exports,
    export_all,
    file_stem,
    parse_scores,
)
from mtpalette.sources.inputs import CandidateInputs
from mtpalette.sources.limited import LimitedFeatures

#: seed of every resampling unless given (sacrebleu's)
SEED = SACREBLEU_SEED
#: curve points when an output folder is given without a curve step
CURVE_POINTS = 64
#: the outranking candidates the error analysis lists per segment (``--errors-max``'s default)
ERRORS_MAX = 20


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
    return OrangeOfTexts(**{f.name: getattr(table, f.name) for f in fields(OrangeTable)},
                         texts=texts)  # fmt: skip


@dataclass(frozen=True)
class TextsRun:
    """What a run on texts (:func:`orange`, :func:`~mtpalette.api.audit_run.audit`) computed
    its table from, kept beside the table so that :func:`mtpalette.report` shows what the
    command's report shows (the error analysis, the reference agreement) with the same
    functions: :func:`error_records` and :func:`reference_agreement_of`."""

    lists: CandidateLists
    metrics: list
    #: the metrics' comparisons, each keeping :data:`ERRORS_MAX` outranking scores per segment
    comparisons: list[Comparisons] | None
    tokenize: str
    lowercase: bool
    min_candidates: int = 1


@dataclass(frozen=True)
class OrangeOfTexts(OrangeTable):
    """The :class:`~mtpalette.metaeval.orange.OrangeTable` :func:`orange` returns, with the
    texts and comparisons behind it (``texts``: not compared, not written)."""

    texts: TextsRun | None = field(default=None, repr=False, compare=False,
                                   metadata=out(skip=True))  # fmt: skip


@dataclass
class OrangeOutputs(TableOutputs):
    """Where an ORANGE run writes: a folder (``out_dir``) fills in every file not named."""

    kind = "orange-outputs"
    curve_step: int | None = None
    curve_csv: Path | None = None
    curve_plot: Path | None = None
    errors: Path | None = None
    errors_max: int = ERRORS_MAX
    #: write --export-scores in mt-metrics-eval's layout for this language pair
    export_mtme: str | None = None

    def validate(self) -> None:
        check_export_layout(self.export_scores, self.export_mtme)
        if self.curve_plot is not None:
            figure_format(self.curve_plot)  # before any work: an unknown suffix named
        if self.errors_max < 0 or (self.curve_step is not None and self.curve_step < 1):
            raise UserInputError(
                "--max-candidates and --curve-step must be positive, --errors-max 0 or more"
            )

    def resolved(self, run_dir: Path | None) -> OrangeOutputs:
        """Every file named: the folder's defaults filled in (a chunked run keeps no errors)."""
        out = dataclasses.replace(self)
        out.out_dir = out.out_dir or out.report_folder
        if run_dir is not None:
            out.out_dir = out.out_dir or run_dir
        out.in_folder()
        if out.out_dir is not None:
            out.curve_csv = out.curve_csv or out.out_dir / "curve.csv"
            out.curve_plot = out.curve_plot or out.out_dir / "curve.png"
            out.errors = out.errors or (out.out_dir / "errors.jsonl" if run_dir is None else None)
        return out

    @property
    def wants_curve(self) -> bool:
        return any(x is not None for x in (self.curve_step, self.curve_csv, self.curve_plot))


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
    metrics: list[str] | None = None
    scores: list[str] | None = None
    tokenize: str = "13a"
    lowercase: bool = False
    oracle: str = "leave-one-out"
    ties: str = "mid"
    bootstrap: int = 1000
    seed: int = SEED
    confidence: float = 0.95
    min_candidates: int = 1
    max_candidates: int | None = None
    source: Path | None = None
    limited: LimitedFeatures | None = None
    chunking: Chunking | None = None
    outputs: OrangeOutputs = field(default_factory=OrangeOutputs)

    @property
    def specs(self) -> list[str]:
        """The metric specs (``bleus:4`` when neither metrics nor score files are given)."""
        return list(self.metrics or ([] if self.scores else ["bleus:4"]))

    def validate(self) -> None:
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
    if out.report is not None and out.json is not None:  # built from the run file in place
        from mtpalette.reporting.html import write_report

        result.outputs["report"] = str(write_report([out.json], out.report))
    return result


def _curve_step(out: OrangeOutputs, longest: int) -> int:
    """The curve's step: the one asked, else about :data:`CURVE_POINTS` points."""
    return out.curve_step or max(1, math.ceil(longest / CURVE_POINTS))


def _staged_run(
    run: OrangeRun,
    out: OrangeOutputs,
    stage: StagedFolder,
    ref_lines: list[list[str]],
    parsed: list,
    feedback: Feedback,
) -> OrangeResult:
    """The work of :func:`run_orange` once its inputs are checked; the files of the output
    folder go to ``stage``."""
    chunking, refs = run.chunking, ref_lines
    oracle = run.oracle
    text = dict(tokenize=run.tokenize, lowercase=run.lowercase)
    if chunking is not None:
        comparisons, files, whole = chunking.comparisons(
            run.candidates, ref_lines, parsed, oracle=oracle, feedback=feedback,
            cutoffs_for=lambda longest: curve_cutoffs(longest, _curve_step(out, longest)),
            **text,
        )  # fmt: skip
        kind = "nbest" if run.candidates.nbest is not None else "systems"
        lists = ChunkedLists(np.diff(comparisons[0].offsets), len(refs), {"kind": kind})
    else:
        lists, files = _lists(run, ref_lines)
        whole = lists
        if run.limited is not None:
            comparisons = run.limited.comparisons(
                lists, parsed, source=run.source, tokenize=run.tokenize, feedback=feedback
            )
            out.errors = None
            oracle = "limited-features"  # the reference ranked by features against the pivot
        else:
            external = parse_scores(run.scores, reference_names(lists, lists.n_refs))
            with feedback.steps("scoring") as progress:
                # the error analysis lists errors_max candidates per segment: their scores
                keep = max(out.errors_max, 1) if out.errors is not None else False
                comparisons = compare_candidates(
                    lists, parsed, oracle=oracle, keep_scores=keep, progress=progress
                )
            comparisons += [external_comparisons(lists, m, oracle=oracle) for m in external]
    if out.export_scores is not None:
        rows = lambda m: export_orange_scores(lists, m)  # noqa: E731
        if out.export_mtme is not None:
            from mtpalette.io.mtme_write import write_mtme_rows

            names = reference_names(lists, lists.n_refs)
            export = [
                path
                for m in parsed
                if not isinstance(m, ExternalMetric)
                # stored files are replaced only with --overwrite (check_exports)
                for path in write_mtme_rows(
                    stage.path(out.export_scores),
                    out.export_mtme,
                    file_stem(m.spec, mtme=True),
                    rows(m),
                    names,
                    overwrite=True,
                )  # fmt: skip
            ]
        else:
            export = export_all(stage.path(out.export_scores), parsed, rows)
        for path in export:
            feedback.note(f"wrote {stage.final(path)}")
    common = dict(ties=run.ties, min_candidates=run.min_candidates)
    table = evaluate(comparisons, **bootstrap_of(run), **common)
    curve = None
    if lists.info.get("kind") == "systems" and not run.outputs.wants_curve:
        # the folder's default curve only where the candidates' order is a ranking
        out.curve_csv = out.curve_plot = None
        feedback.note(
            "no ORANGE-vs-N curve: the candidates are system outputs, in the systems' order, "
            "which ranks nothing (--curve-step draws it anyway)"
        )
    if out.wants_curve:
        step = _curve_step(out, int(lists.n_candidates.max()))
        curve = orange_curve(comparisons, step=step, **common)
    agreement = None
    if whole is not None and run.limited is None:  # a chunked run's too (same values)
        agreement = reference_agreement_of(whole, parsed, run, feedback)
    result = OrangeResult(table, curve, lists, oracle, {}, agreement)
    _write(run, out, stage, result, comparisons, files)
    return result


#: reference agreement is computed with at most this many of the run's metrics (the first)
def _lists(run: OrangeRun, ref_lines: list[list[str]]) -> tuple[CandidateLists, list[Path]]:
    lists, files = run.candidates.load(ref_lines)
    if run.source is not None and run.limited is None:
        lists.srcs = read_matching(run.source, lists.n_segments, "the candidate lists have")
    if run.max_candidates is not None:
        lists = lists.head(run.max_candidates)
    return lists, files


def _write(
    run: OrangeRun,
    out: OrangeOutputs,
    stage: StagedFolder,
    result: OrangeResult,
    comparisons: list[Comparisons],
    files: list[Path],
) -> None:
    """Write the table, curve, error analysis and run record that ``out`` names (the files of
    the output folder into ``stage``; the record names them where they will be)."""
    table, curve, lists, outputs = result.table, result.curve, result.lists, result.outputs
    if out.csv is not None:
        write("csv", [row.to_dict() for row in table.rows], stage.path(out.csv))
        outputs["table_csv"] = str(out.csv)
    if curve is not None and out.curve_csv is not None:
        write("csv", curve.rows(), stage.path(out.curve_csv))
        outputs["curve_csv"] = str(out.curve_csv)
    if curve is not None and out.curve_plot is not None:
        from mtpalette.parallel import run_tasks
        from mtpalette.reporting.curves import curve_image

        # drawn on a worker of a Dask run (its client, perhaps a login node, never loads
        # matplotlib), else here
        where = run.chunking.dask_backend() if run.chunking is not None else None
        task = (curve, figure_format(out.curve_plot))
        ((_, image),) = run_tasks(curve_image, [task], where)
        write("bytes", image, stage.path(out.curve_plot))
        outputs["curve_plot"] = str(out.curve_plot)
    if out.errors is not None:
        records = error_records(comparisons, lists, ties=run.ties, most=out.errors_max)
        n = write("jsonl", records, stage.path(out.errors), plain=True)
        outputs["errors_jsonl"] = str(out.errors)
        outputs["errors_records"] = n
    if out.json is not None:
        outputs["run_json"] = str(out.json)
        _record(run, result, files).save(stage.path(out.json))


def _record(run: OrangeRun, result: OrangeResult, files: list[Path]) -> Run:
    """The run record (``run.json``) the report and later comparisons read."""
    table, lists = result.table, result.lists
    n = lists.n_candidates
    return Run(
        "orange",
        inputs={
            "refs": [file_record(p) for p in run.candidates.refs] or run.candidates.ref_names(),
            "candidates": {
                "kind": lists.info.get("kind"),
                "files": [file_record(p) for p in files],
                "systems": lists.info.get("systems"),
            },
            "n_segments": lists.n_segments,
            "n_candidates": {"total": int(n.sum()), "min": int(n.min()), "max": int(n.max())},
        },
        settings={
            "oracle": table.oracle,
            "ties": table.ties,
            "bootstrap": table.n_resamples,
            "confidence": table.confidence,
            "metric_specs": run.specs,
            "metrics": [row.metric for row in table.rows],
            "tokenize": run.tokenize,
            "lowercase": run.lowercase,
            "id_base": run.candidates.id_base,
            "min_candidates": run.min_candidates,
            "max_candidates": run.max_candidates,
            "errors_max": run.outputs.errors_max,
        },
        signatures={row.metric: row.signature for row in table.rows},
        seeds={"bootstrap": table.seed},
        results={
            "table": table.to_dict(),
            "curve": None if result.curve is None else result.curve.to_dict(),
            "reference_agreement": None
            if result.references is None
            else result.references.to_dict(),
        },
        outputs={k: v for k, v in result.outputs.items() if k != "run_json"}
        | {"run_json": result.outputs["run_json"]},
    )
