"""``mtpalette orange``: ORANGE meta-evaluation of metrics, printed as the paper's tables.

Example (the whole grid of Lin and Och 2004 in one command)::

    mtpalette orange --refs refA.txt refB.txt --systems-dir outputs/ \\
        -m 'bleus:1..9' nist wer per rouge-l 'rouge-w:1.1..2.0/0.1' 'rouge-s:0..9,*' \\
        --out-dir orange-run/

``--refs``, ``--systems``, ``-m`` and ``--exclude`` take several values after one flag (or
the flag repeated). The options become an :class:`~mtpalette.api.orange_run.OrangeRun`;
:func:`~mtpalette.api.orange_run.run_orange` does the work.
"""

from __future__ import annotations

from rich.console import Console

from mtpalette.api.chunked import Chunking
from mtpalette.api.inputs import CandidateInputs
from mtpalette.api.limited import LimitedFeatures
from mtpalette.api.orange_run import OrangeOutputs, OrangeRun, run_orange
from mtpalette.cli import options as o
from mtpalette.cli.backend_opts import BackendOption
from mtpalette.cli.progress import ConsoleFeedback
from mtpalette.cli.tables import show_orange


@o.with_options(
    o.NBEST, o.SYSTEM_FILES, o.METRIC_SPECS, o.TEXT, o.RESAMPLING_OPTIONS, o.RUN_FILES, o.QUIET
)
def orange(
    refs: o.OrangeRefsOpt,
    min_candidates: o.MinCandidatesOpt = 1,
    max_candidates: o.MaxCandidatesOpt = None,
    oracle: o.OracleOpt = "leave-one-out",
    ties: o.TiesOpt = "mid",
    csv_out: o.CsvOpt = None,
    curve_step: o.CurveStepOpt = None,
    curve_csv: o.CurveCsvOpt = None,
    curve_plot: o.CurvePlotOpt = None,
    errors: o.ErrorsOpt = None,
    errors_max: o.ErrorsMaxOpt = 20,
    export_scores: o.ExportScoresOpt = None,
    report: o.ReportOpt = None,
    pivot: o.PivotOpt = None,
    source: o.SourceOpt = None,
    features: o.FeaturesOpt = "ade,flu,sim",
    feature_weights: o.WeightsOpt = None,
    feature_mode: o.FeatureModeOpt = "pivot",
    lm_text: o.LmTextOpt = None,
    tm_source: o.TmSourceOpt = None,
    tm_target: o.TmTargetOpt = None,
    synonyms: o.SynonymsOpt = None,
    source_tokenize: o.SourceTokenizeOpt = "13a",
    run_dir: o.RunDirOpt = None,
    resume: o.ResumeOpt = False,
    chunk_size: o.ChunkSizeOpt = 100,
    backend: BackendOption = "inproc",
    workers: o.WorkersOpt = 1,
    scheduler: o.SchedulerOpt = None,
    **options,
) -> None:
    """Rank the references among candidate translations (ORANGE, Lin and Och 2004).

    Examples: `mtpalette orange -r refA.txt refB.txt --systems-dir outputs/ -m 'bleus:1..9' wer
    --out-dir run/` (a pool of systems; the paper's grid: add nist per rouge-l
    'rouge-w:1.1..2.0/0.1' 'rouge-s:0..9,*'); `mtpalette orange -r refA.txt refB.txt --nbest
    nbest.txt -m bleus:4 --curve-step 64 --out-dir run/` (n-best lists);
    `mtpalette orange -r refA.txt refB.txt -s A.txt B.txt --pivot pivot.txt` (Limited ORANGE).
    """
    console = Console(stderr=True, quiet=options["quiet"])
    limited = chunking = None
    if pivot is not None:
        limited = LimitedFeatures(
            pivot, features, feature_weights, feature_mode, lm_text, tm_source, tm_target,
            synonyms, source_tokenize,
        )  # fmt: skip
    if run_dir is not None or resume:
        chunking = Chunking(run_dir, resume, chunk_size, backend, workers, scheduler)
    outputs = OrangeOutputs(
        options["out_dir"], options["json_out"], csv_out, curve_step, curve_csv, curve_plot,
        errors, errors_max, export_scores, report,
    )  # fmt: skip
    run = o.fill(
        OrangeRun, options, candidates=o.fill(CandidateInputs, options, refs=list(refs)),
        oracle=oracle, ties=ties, min_candidates=min_candidates, max_candidates=max_candidates,
        source=source, limited=limited, chunking=chunking, outputs=outputs,
    )  # fmt: skip
    show_orange(run_orange(run, ConsoleFeedback(console)), console)
