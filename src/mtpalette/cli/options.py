"""Options of the meta-evaluation commands (``orange``, ``correlate``, ``agree``,
``audit``), each defined once, and the help sections (``rich_help_panel``) every command sorts its
options into, so that ``--help`` reads as a few short lists instead of one long one.

A command names an option by its type alias (``seed: SeedOpt = 12345``), or takes a whole
group of options at once with :func:`with_options` (``@with_options(RESAMPLING_OPTIONS)``):
the options of a group are defined once, here, with their defaults, and reach the command in
its ``**options``; :func:`fill` turns them into the part of the run description they describe.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import typing
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from mtpalette import flags
from mtpalette.cli.backend_opts import BackendOption
from mtpalette.io.judgment_formats import FORMATS

T = TypeVar("T")
#: a group of options: parameter name -> (annotated type, default)
Group = Mapping[str, tuple[Any, Any]]

#: help of ``--scores`` and ``--export-scores`` (see :mod:`mtpalette.sources.external`)
SCORES_HELP = "Metric scores from a file: NAME=PATH[,higher=no][,layout=mtme]."
EXPORT_HELP = "Write each metric's segment scores to DIR/<metric>.tsv (for --scores)."

#: help sections, in the order commands use them
INPUTS = "Inputs: references and candidates"
HUMANS = "Human judgments"
METRICS = "Metrics and text"
RESAMPLING = "Resampling and significance"
OUTPUTS = "Outputs"
RUNNING = "Running"
ORANGE = "ORANGE"
LIMITED = "Limited ORANGE (--pivot)"
CORRELATION = "Correlation"


#: output formats of ``mtpalette score`` (``latex``: corpus scores only; cli/render.py)
OUTPUT_FORMATS = ("text", "json", "jsonl", "tsv", "latex")


def opt(*names: str, panel: str, help: str, **kw) -> typer.models.OptionInfo:
    """An option in one of the help sections."""
    return typer.Option(*names, help=help, rich_help_panel=panel, **kw)


# ----- inputs ---------------------------------------------------------------------------
RefsOpt = Annotated[
    list[Path] | None, opt("--refs", "-r", panel=INPUTS, help="Reference files: -r A B.")
]
SystemsOpt = Annotated[
    list[Path] | None,
    opt(
        "--systems",
        "-s",
        "--input",
        "-i",
        panel=INPUTS,
        help="System output files or globs: -s A B C, -s 'outputs/*.txt'.",
    ),
]
SystemsDirOpt = Annotated[
    Path | None, opt("--systems-dir", panel=INPUTS, help="Folder of system outputs.")
]
SystemsGlobOpt = Annotated[
    str, opt("--systems-glob", panel=INPUTS, help="File pattern in the folder.")
]
ExcludeOpt = Annotated[
    list[str] | None, opt("--exclude", panel=INPUTS, help="File patterns to leave out.")
]
NbestOpt = Annotated[
    Path | None, opt("--nbest", panel=INPUTS, help="n-best file (Moses or JSONL).")
]
NbestFormatOpt = Annotated[str, opt("--nbest-format", panel=INPUTS, help="auto, moses or jsonl.")]
NbestIdBaseOpt = Annotated[
    int, opt("--id-base", panel=INPUTS, help="First segment id of the n-best.")
]
SourceOpt = Annotated[
    Path | None,
    opt("--source", panel=INPUTS, help="Source sentences (--pivot; plugins that read them)."),
]
TableOpt = Annotated[
    Path | None,
    opt(
        "--table",
        panel=INPUTS,
        help="One TSV/CSV/JSONL/Parquet row per system and segment (system, hyp, ref columns).",
    ),
]
TableFormatOpt = Annotated[
    str, opt("--table-format", panel=INPUTS, help="auto, tsv, csv, jsonl or parquet.")
]
HypColOpt = Annotated[str, opt("--hyp-col", panel=INPUTS, help="--table: the output column.")]
RefColsOpt = Annotated[
    list[str] | None, opt("--ref-col", panel=INPUTS, help="--table: reference column(s) (ref).")
]
SystemColOpt = Annotated[
    str, opt("--system-col", panel=INPUTS, help="--table: the system column (system).")
]
MaxItemsOpt = Annotated[
    int | None, opt("--max-items", panel=INPUTS, help="Use the first N segments only.")
]

# ----- human judgments ------------------------------------------------------------------
BundledOpt = Annotated[
    str | None,
    opt("--bundled", panel=HUMANS, help="The bundled example data (invented): zhen or ende."),
]
JudgmentsOpt = Annotated[Path | None, opt("--judgments", "-j", panel=HUMANS, help="Judgment file.")]
SegIdsOpt = Annotated[
    Path | None, opt("--seg-ids", panel=HUMANS, help="The judgments' id of each text line.")
]
LpOpt = Annotated[str | None, opt("--lp", panel=HUMANS, help="Language pair (WMT files).")]
RenameOpt = Annotated[
    str | None, opt("--rename", panel=HUMANS, help="Rename judged systems: A=a,B=b.")
]
IdBaseOpt = Annotated[
    int | None, opt("--id-base", panel=HUMANS, help="Id of the first line (ids = lines).")
]
MtmeOpt = Annotated[
    Path | None, opt("--mtme", panel=HUMANS, help="An mt-metrics-eval test set folder (with --lp).")
]
HumanOpt = Annotated[
    str | None,
    opt("--human", panel=HUMANS, help="--mtme: the human scores (default: the set's standard)."),
]
MtmeRefOpt = Annotated[
    str | None,
    opt("--mtme-ref", panel=HUMANS, help="--mtme: the reference (default: the set's standard)."),
]
MtmeMetricsOpt = Annotated[
    list[str] | None,
    opt(
        "--mtme-metrics",
        panel=HUMANS,
        help="--mtme: stored metric scores to add: names, globs (COMET*) or all.",
    ),
]
IncludeRefsOpt = Annotated[
    bool, opt("--include-refs", panel=HUMANS, help="--mtme: score the other references too.")
]
IncludeOutliersOpt = Annotated[
    bool, opt("--include-outliers", panel=HUMANS, help="--mtme: keep the outlier systems.")
]
HumanColOpt = Annotated[
    str, opt("--human-col", panel=HUMANS, help="--table: the human score column (score).")
]
StrictMtmeOpt = Annotated[
    bool,
    opt("--strict-mtme", panel=HUMANS, help="--mtme: refuse systems without human scores."),
]

# ----- ORANGE and Limited ORANGE ----------------------------------------------------------
OrangeRefsOpt = Annotated[
    list[Path] | None,
    opt("--refs", "-r", panel=INPUTS, help="Reference files, 2 or more: -r A B."),
]
MinCandidatesOpt = Annotated[
    int, opt("--min-candidates", panel=INPUTS, help="Leave out shorter lists.")
]
MaxCandidatesOpt = Annotated[
    int | None, opt("--max-candidates", panel=INPUTS, help="Keep the first N of each list.")
]
OracleOpt = Annotated[str, opt("--oracle", panel=ORANGE, help="leave-one-out or average-score.")]
TiesOpt = Annotated[str, opt("--ties", panel=ORANGE, help="mid, optimistic, pessimistic.")]
PivotOpt = Annotated[
    Path | None, opt("--pivot", panel=LIMITED, help="A pivot translation (one reference).")
]
FeaturesOpt = Annotated[str, opt("--features", panel=LIMITED, help="ade,flu,sim.")]
WeightsOpt = Annotated[
    str | None, opt("--feature-weights", panel=LIMITED, help="One weight per feature.")
]
FeatureModeOpt = Annotated[
    str, opt("--feature-mode", panel=LIMITED, help="pivot (paper) or direct.")
]
LmTextOpt = Annotated[list[Path] | None, opt("--lm-text", panel=LIMITED, help="LM training text.")]
TmSourceOpt = Annotated[
    list[Path] | None, opt("--tm-source", panel=LIMITED, help="TM source side.")
]
TmTargetOpt = Annotated[
    list[Path] | None, opt("--tm-target", panel=LIMITED, help="TM target side.")
]
SynonymsOpt = Annotated[
    str | None, opt("--synonyms", panel=LIMITED, help="Similarity: cilin, wordnet, @FILE.")
]
SourceTokenizeOpt = Annotated[
    str, opt("--source-tokenize", panel=LIMITED, help="Source tokenizer.")
]

# ----- correlation ----------------------------------------------------------------------
EpsilonOpt = Annotated[
    str | None, opt("--epsilon", panel=CORRELATION, help="acc-eq/tau-eq threshold, or 'cal'.")
]
GroupingOpt = Annotated[str, opt("--grouping", panel=CORRELATION, help="none, item or system.")]

# ----- metrics and text -----------------------------------------------------------------
MetricsOpt = Annotated[
    list[str] | None,
    opt("-m", "--metrics", panel=METRICS, help="Metric specs: -m 'bleus:1..9' chrf wer."),
]
ScoresOpt = Annotated[list[str] | None, opt("--scores", panel=METRICS, help=SCORES_HELP)]
TokenizeOpt = Annotated[
    str,
    opt(
        "--tokenize",
        "-tok",
        panel=METRICS,
        help="13a, intl, zh, ja-mecab, ko-mecab, jieba, char, none.",
    ),
]
LowercaseOpt = Annotated[bool, opt("--lowercase", "-lc", panel=METRICS, help="Lower-case first.")]

# ----- resampling -----------------------------------------------------------------------
BootstrapOpt = Annotated[
    int, opt("--bootstrap", panel=RESAMPLING, help="Bootstrap resamples (0: none).")
]
SeedOpt = Annotated[int, opt("--seed", panel=RESAMPLING, help="Seed of the resampling.")]
ConfidenceOpt = Annotated[
    float, opt("--confidence", panel=RESAMPLING, help="Interval coverage (0.95).")
]

# ----- outputs --------------------------------------------------------------------------
OutDirOpt = Annotated[
    Path | None, opt("--out-dir", panel=OUTPUTS, help="Write run.json and the tables here.")
]
JsonOpt = Annotated[Path | None, opt("--json", panel=OUTPUTS, help="Run file (JSON).")]
ExportScoresOpt = Annotated[Path | None, opt("--export-scores", panel=OUTPUTS, help=EXPORT_HELP)]
ExportMtmeOpt = Annotated[
    str | None,
    opt(
        "--export-mtme",
        panel=OUTPUTS,
        help="--export-scores in mt-metrics-eval's layout, for this language pair (zh-en).",
    ),
]
OverwriteOpt = Annotated[
    bool,
    opt("--overwrite", panel=OUTPUTS, help="--export-scores: replace scores stored there."),
]
ReportOpt = Annotated[
    Path | None, opt("--report", panel=OUTPUTS, help="Also write an HTML report.")
]
CsvOpt = Annotated[Path | None, opt("--csv", panel=OUTPUTS, help="Table(s) as CSV.")]
KeepScoresOpt = Annotated[
    bool, opt("--keep-scores", panel=OUTPUTS, help="Keep segment scores (for plots).")
]
CurveStepOpt = Annotated[int | None, opt("--curve-step", panel=OUTPUTS, help="ORANGE-vs-N step.")]
CurveCsvOpt = Annotated[Path | None, opt("--curve-csv", panel=OUTPUTS, help="Curve as CSV.")]
CurvePlotOpt = Annotated[Path | None, opt("--curve-plot", panel=OUTPUTS, help="Curve plot (.png).")]
ErrorsOpt = Annotated[Path | None, opt("--errors", panel=OUTPUTS, help="Error analysis (JSONL).")]
ErrorsMaxOpt = Annotated[
    int, opt("--errors-max", panel=OUTPUTS, help="Candidates kept per segment in errors.")
]

# ----- running --------------------------------------------------------------------------
QuietOpt = Annotated[bool, opt("--quiet", "-q", panel=RUNNING, help="No progress messages.")]
RunDirOpt = Annotated[
    Path | None, opt("--run-dir", panel=RUNNING, help="Chunked, resumable run folder.")
]
ResumeOpt = Annotated[bool, opt("--resume", panel=RUNNING, help="Continue the run in --run-dir.")]
ChunkSizeOpt = Annotated[int, opt("--chunk-size", panel=RUNNING, help="Segments per chunk.")]
WorkersOpt = Annotated[
    int,
    opt("--workers", panel=RUNNING, help="Local workers (processes, or a local Dask cluster)."),
]
SchedulerOpt = Annotated[
    str | None,
    opt(
        "--scheduler",
        panel=RUNNING,
        help="Dask scheduler (tcp://host:8786; default $DASK_SCHEDULER_ADDRESS with --backend "
        "dask).",
    ),
]
ThreadsPerWorkerOpt = Annotated[
    int | None,
    opt(
        "--threads-per-worker",
        panel=RUNNING,
        help="Kernel threads in each worker (default: a Dask worker's own thread count).",
    ),
]

# ----- groups ---------------------------------------------------------------------------
FormatOpt = Annotated[
    str, opt("--format", panel=HUMANS, help="auto, " + ", ".join(FORMATS) + ", wmt17-testset")
]
#: the candidates' files, shared by every meta-evaluation command
SYSTEM_FILES: Group = {
    "systems": (SystemsOpt, None),
    "systems_dir": (SystemsDirOpt, None),
    "systems_glob": (SystemsGlobOpt, "*"),
    "exclude": (ExcludeOpt, None),
    "table": (TableOpt, None),
    "table_format": (TableFormatOpt, "auto"),
    "hyp_col": (HypColOpt, "hyp"),
    "ref_cols": (RefColsOpt, None),
    "system_col": (SystemColOpt, "system"),
}
#: n-best lists as candidates
NBEST: Group = {
    "nbest": (NbestOpt, None),
    "nbest_format": (NbestFormatOpt, "auto"),
    "id_base": (NbestIdBaseOpt, 0),
}
#: human judgments and the texts they rate (with SYSTEM_FILES)
JUDGMENTS: Group = {
    "bundled": (BundledOpt, None),
    "mtme": (MtmeOpt, None),
    "human": (HumanOpt, None),
    "mtme_ref": (MtmeRefOpt, None),
    "mtme_metrics": (MtmeMetricsOpt, None),
    "include_refs": (IncludeRefsOpt, False),
    "include_outliers": (IncludeOutliersOpt, False),
    "strict_mtme": (StrictMtmeOpt, False),
    "judgments": (JudgmentsOpt, None),
    "fmt": (FormatOpt, "auto"),
    "seg_ids": (SegIdsOpt, None),
    "lp": (LpOpt, None),
    "rename": (RenameOpt, None),
    "refs": (RefsOpt, None),
    "human_col": (HumanColOpt, "score"),
}
#: the judgments' id of the first line
JUDGED_IDS: Group = {"id_base": (IdBaseOpt, None)}
#: metric specs and metrics read from score files
METRIC_SPECS: Group = {"metrics": (MetricsOpt, None), "scores": (ScoresOpt, None)}
#: run-wide text settings
TEXT: Group = {"tokenize": (TokenizeOpt, "13a"), "lowercase": (LowercaseOpt, False)}
#: the bootstrap of every interval
RESAMPLING_OPTIONS: Group = {
    "bootstrap": (BootstrapOpt, 1000),
    "seed": (SeedOpt, 12345),
    "confidence": (ConfidenceOpt, 0.95),
}
#: the run file and, optionally, a folder for every output
RUN_FILES: Group = {"out_dir": (OutDirOpt, None), "json": (JsonOpt, None)}
#: ORANGE's own settings (an OrangeRun's fields)
ORANGE_SETTINGS: Group = {
    "min_candidates": (MinCandidatesOpt, 1),
    "max_candidates": (MaxCandidatesOpt, None),
    "oracle": (OracleOpt, "leave-one-out"),
    "ties": (TiesOpt, "mid"),
    "source": (SourceOpt, None),
}
#: Limited ORANGE ranked by features (a LimitedFeatures)
LIMITED_OPTIONS: Group = {
    "pivot": (PivotOpt, None),
    "features": (FeaturesOpt, "ade,flu,sim"),
    "weights": (WeightsOpt, None),
    "mode": (FeatureModeOpt, "pivot"),
    "lm_text": (LmTextOpt, None),
    "tm_source": (TmSourceOpt, None),
    "tm_target": (TmTargetOpt, None),
    "synonyms": (SynonymsOpt, None),
    "source_tokenize": (SourceTokenizeOpt, "13a"),
}
#: chunked, resumable, distributed runs (a Chunking)
CHUNKING_OPTIONS: Group = {
    "run_dir": (RunDirOpt, None),
    "resume": (ResumeOpt, False),
    "chunk_size": (ChunkSizeOpt, 100),
    "backend": (BackendOption, "inproc"),
    "workers": (WorkersOpt, 1),
    "scheduler": (SchedulerOpt, None),
    "threads_per_worker": (ThreadsPerWorkerOpt, None),
}
#: the files every run writes: its run file, a table, exported scores, the HTML report
TABLE_OUTPUTS: Group = {
    **RUN_FILES,
    "csv": (CsvOpt, None),
    "export_scores": (ExportScoresOpt, None),
    "overwrite": (OverwriteOpt, False),
    "report": (ReportOpt, None),
}
#: the files of an ORANGE run (an OrangeOutputs)
ORANGE_OUTPUTS: Group = {
    **TABLE_OUTPUTS,
    "export_mtme": (ExportMtmeOpt, None),
    "curve_step": (CurveStepOpt, None),
    "curve_csv": (CurveCsvOpt, None),
    "curve_plot": (CurvePlotOpt, None),
    "errors": (ErrorsOpt, None),
    "errors_max": (ErrorsMaxOpt, 20),
}
#: the files of a correlation run (a CorrelationOutputs)
CORRELATION_OUTPUTS: Group = {
    **TABLE_OUTPUTS,
    "export_mtme": (ExportMtmeOpt, None),
    "keep_scores": (KeepScoresOpt, False),
}
#: progress and notes
QUIET: Group = {"quiet": (QuietOpt, False)}


def options_of(cls: type, *, skip: tuple[str, ...] = (), only: tuple[str, ...] = ()) -> Group:
    """The options of a run description ``cls``: one per field that carries a
    :class:`~mtpalette.flags.Flag`, typed and defaulted as the field (a list made per instance
    defaults to none given; see :func:`fill`), named and helped as the flag says.

    Examples
    --------
    >>> from mtpalette.api.chunked import Chunking
    >>> group = options_of(Chunking, only=("chunk_size",))
    >>> annotated, default = group["chunk_size"]
    >>> flag_of(annotated), default
    ('--chunk-size', 100)
    """
    hints = typing.get_type_hints(cls)
    group = {}
    for f in dataclasses.fields(cls):
        spec = f.metadata.get(flags.KEY)
        if spec is None or f.name in skip or (only and f.name not in only):
            continue
        kind = spec.cli if spec.cli is not None else hints[f.name]
        if f.default is not dataclasses.MISSING:
            default = f.default
        else:  # a list made per instance, or a required field: none given on the command line
            kind, default = kind | None, None
        if spec.cli_default is not None:
            default = spec.cli_default
        if spec.names:
            info = typer.Option(*spec.names, help=spec.help, rich_help_panel=spec.panel, **spec.kw)
        else:  # no name: an argument, required unless the field has a default
            info = typer.Argument(help=spec.help, **spec.kw)
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                kind, default = spec.cli or hints[f.name], ...
        group[f.name] = (Annotated[kind, info], default)
    return group


def with_options(*groups: Group | type) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Give a command the options of ``groups`` besides its own (its own win a name clash):
    a group, or a run description whose flagged fields are options (:func:`options_of`);
    typer reads them from the signature, the command gets them in its ``**options``.

    Examples
    --------
    >>> @with_options(QUIET)
    ... def cmd(n: int = 1, **options):
    ...     return n, options
    >>> list(inspect.signature(cmd).parameters), cmd(n=2, quiet=True)
    (['n', 'quiet'], (2, {'quiet': True}))
    """

    def wrap(fn: Callable[..., T]) -> Callable[..., T]:
        hints = typing.get_type_hints(fn, include_extras=True)
        params = [
            p.replace(annotation=hints.get(p.name, p.annotation), kind=p.KEYWORD_ONLY)
            for p in inspect.signature(fn).parameters.values()
            if p.kind is not p.VAR_KEYWORD
        ]
        taken = {p.name for p in params}
        for group in groups:
            if isinstance(group, type):
                group = options_of(group)
            for name, (annotation, default) in group.items():
                if name not in taken:
                    params.append(
                        inspect.Parameter(
                            name,
                            inspect.Parameter.KEYWORD_ONLY,
                            default=default,
                            annotation=annotation,
                        )  # fmt: skip
                    )
                    taken.add(name)

        @functools.wraps(fn)
        def command(**kwargs: Any) -> T:
            return fn(**kwargs)

        command.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
        command.__annotations__ = {p.name: p.annotation for p in params}
        del command.__wrapped__  # type: ignore[attr-defined]
        return command

    return wrap


def fill(cls: type[T], options: Mapping[str, Any], **given: Any) -> T:
    """``cls`` (a dataclass) from the options named as its fields, and ``given``: a flagged
    field's value goes through its flag's ``parse``, and a list made per instance keeps its
    default when the option is not given.

    Examples
    --------
    >>> from mtpalette.sources.inputs import JudgedInputs
    >>> fill(JudgedInputs, {"bundled": "zhen", "quiet": True}).bundled
    'zhen'
    """
    values = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if f.name not in options or f.name in given:
            continue
        value, spec = options[f.name], f.metadata.get(flags.KEY)
        if value is None and f.default_factory is not dataclasses.MISSING:
            continue
        values[f.name] = spec.parse(value) if spec and spec.parse and value is not None else value
    return cls(**values | given)


def flag_of(annotated: Any) -> str:
    """The long flag of an ``Annotated[..., opt(...)]`` option.

    Examples
    --------
    >>> flag_of(FeatureModeOpt)
    '--feature-mode'
    """
    info = typing.get_args(annotated)[1]
    names = (info.default, *info.param_decls)  # typer keeps the first name as the default
    return next(n for n in names if isinstance(n, str) and n.startswith("--"))


def refuse_unless(options: Mapping[str, Any], group: Group, key: str) -> None:
    """Refuse options of ``group`` set away from their defaults while ``key`` is not given:
    they would be ignored without a word (``--features`` without ``--pivot``).

    Examples
    --------
    >>> refuse_unless({"pivot": None, "features": "sim"}, LIMITED_OPTIONS, "pivot")
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: --features needs --pivot (without it, it would be ignored)
    """
    if options.get(key) is not None:
        return
    given = [
        flag_of(annotated)
        for name, (annotated, default) in group.items()
        if name != key and name in options and options[name] != default
    ]
    if given:
        from mtpalette.errors import UserInputError

        needs = "need" if len(given) > 1 else "needs"
        raise UserInputError(
            f"{', '.join(given)} {needs} {flag_of(group[key][0])} "
            f"(without it, {'they' if len(given) > 1 else 'it'} would be ignored)"
        )
