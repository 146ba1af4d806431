"""``mtpalette orange``: ORANGE meta-evaluation of metrics, printed as the paper's tables.

Example (the whole grid of Lin and Och 2004 in one command)::

    mtpalette orange --refs refA.txt refB.txt --systems-dir outputs/ \\
        -m 'bleus:1..9' nist wer per rouge-l 'rouge-w:1.1..2.0/0.1' 'rouge-s:0..9,*' \\
        --out-dir orange-run/

``--refs``, ``--systems``, ``-m`` and ``--exclude`` take several values after one flag (or
the flag repeated).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Any

import numpy as np
from rich.console import Console
from rich.table import Table

from mtpalette.cli.backend_opts import BackendOption
from mtpalette.cli.console import emit_note, emit_signatures, emit_table, result_console
from mtpalette.cli.external_opts import export_all, parse_scores
from mtpalette.cli.limited import run_limited
from mtpalette.cli.options import (
    INPUTS,
    OUTPUTS,
    RUNNING,
    BootstrapOpt,
    ConfidenceOpt,
    ExcludeOpt,
    ExportScoresOpt,
    JsonOpt,
    LowercaseOpt,
    MetricsOpt,
    OutDirOpt,
    QuietOpt,
    ReportOpt,
    ScoresOpt,
    SeedOpt,
    SystemsDirOpt,
    SystemsGlobOpt,
    SystemsOpt,
    TokenizeOpt,
    opt,
)
from mtpalette.cli.orange_chunked import ChunkedLists, run_chunked
from mtpalette.cli.resampling import check_resampling
from mtpalette.errors import UserInputError
from mtpalette.io.nbest import (
    read_nbest,
    read_systems,
    report_system_files,
    select_system_files,
    system_names,
)
from mtpalette.io.plain import read_lines, read_matching
from mtpalette.io.runfile import Run, check_output_folders, file_record, write_csv, write_jsonl
from mtpalette.metaeval.candidates import ONE_REFERENCE, CandidateLists, compare_candidates
from mtpalette.metaeval.external import (
    export_orange_scores,
    external_comparisons,
    reference_names,
)
from mtpalette.metaeval.orange import (
    ORACLES,
    TIE_POLICIES,
    OrangeCurve,
    OrangeTable,
    check_oracle,
    error_analysis,
    evaluate,
    orange_curve,
    tie_weight,
)
from mtpalette.metrics import parse_specs
from mtpalette.parallel import Backend

#: help sections of the command's own options
ORANGE = "ORANGE"
LIMITED = "Limited ORANGE (--pivot)"
#: curve points when --out-dir is used without --curve-step
CURVE_POINTS = 64


def orange(
    refs: Annotated[
        list[Path], opt("--refs", "-r", panel=INPUTS, help="Reference files, 2 or more: -r A B.")
    ],
    nbest: Annotated[
        Path | None, opt("--nbest", panel=INPUTS, help="n-best file (Moses or JSONL).")
    ] = None,
    nbest_format: Annotated[
        str, opt("--nbest-format", panel=INPUTS, help="auto, moses or jsonl.")
    ] = "auto",
    id_base: Annotated[
        int, opt("--id-base", panel=INPUTS, help="First segment id of the n-best.")
    ] = 0,
    systems: SystemsOpt = None,
    systems_dir: SystemsDirOpt = None,
    systems_glob: SystemsGlobOpt = "*",
    exclude: ExcludeOpt = None,
    min_candidates: Annotated[
        int, opt("--min-candidates", panel=INPUTS, help="Leave out shorter lists.")
    ] = 1,
    max_candidates: Annotated[
        int | None, opt("--max-candidates", panel=INPUTS, help="Keep the first N of each list.")
    ] = None,
    metrics: MetricsOpt = None,
    scores: ScoresOpt = None,
    tokenize: TokenizeOpt = "13a",
    lowercase: LowercaseOpt = False,
    oracle: Annotated[str, opt("--oracle", panel=ORANGE, help=" or ".join(ORACLES))] = (
        "leave-one-out"
    ),
    ties: Annotated[str, opt("--ties", panel=ORANGE, help=", ".join(TIE_POLICIES))] = "mid",
    bootstrap: BootstrapOpt = 1000,
    seed: SeedOpt = 12345,
    confidence: ConfidenceOpt = 0.95,
    out_dir: OutDirOpt = None,
    json_out: JsonOpt = None,
    csv_out: Annotated[Path | None, opt("--csv", panel=OUTPUTS, help="Table as CSV.")] = None,
    curve_step: Annotated[
        int | None, opt("--curve-step", panel=OUTPUTS, help="ORANGE-vs-N step.")
    ] = None,
    curve_csv: Annotated[
        Path | None, opt("--curve-csv", panel=OUTPUTS, help="Curve as CSV.")
    ] = None,
    curve_plot: Annotated[
        Path | None, opt("--curve-plot", panel=OUTPUTS, help="Curve plot (.png).")
    ] = None,
    errors: Annotated[
        Path | None, opt("--errors", panel=OUTPUTS, help="Error analysis (JSONL).")
    ] = None,
    errors_max: Annotated[
        int, opt("--errors-max", panel=OUTPUTS, help="Candidates kept per segment in errors.")
    ] = 20,
    export_scores: ExportScoresOpt = None,
    report: ReportOpt = None,
    pivot: Annotated[
        Path | None, opt("--pivot", panel=LIMITED, help="A pivot translation (one reference).")
    ] = None,
    source: Annotated[
        Path | None,
        opt("--source", panel=INPUTS, help="Source sentences (--pivot; plugins that read them)."),
    ] = None,
    features: Annotated[str, opt("--features", panel=LIMITED, help="ade,flu,sim.")] = (
        "ade,flu,sim"
    ),
    feature_weights: Annotated[
        str | None, opt("--feature-weights", panel=LIMITED, help="One weight per feature.")
    ] = None,
    feature_mode: Annotated[
        str, opt("--feature-mode", panel=LIMITED, help="pivot (paper) or direct.")
    ] = "pivot",
    lm_text: Annotated[
        list[Path] | None, opt("--lm-text", panel=LIMITED, help="LM training text.")
    ] = None,
    tm_source: Annotated[
        list[Path] | None, opt("--tm-source", panel=LIMITED, help="TM source side.")
    ] = None,
    tm_target: Annotated[
        list[Path] | None, opt("--tm-target", panel=LIMITED, help="TM target side.")
    ] = None,
    synonyms: Annotated[
        str | None, opt("--synonyms", panel=LIMITED, help="Similarity: cilin, wordnet, @FILE.")
    ] = None,
    source_tokenize: Annotated[
        str, opt("--source-tokenize", panel=LIMITED, help="Source tokenizer.")
    ] = "13a",
    run_dir: Annotated[
        Path | None, opt("--run-dir", panel=RUNNING, help="Chunked, resumable run folder.")
    ] = None,
    resume: Annotated[
        bool, opt("--resume", panel=RUNNING, help="Continue the run in --run-dir.")
    ] = False,
    chunk_size: Annotated[
        int, opt("--chunk-size", panel=RUNNING, help="Segments per chunk.")
    ] = 100,
    backend: BackendOption = "inproc",
    workers: Annotated[
        int, opt("--workers", panel=RUNNING, help="Local workers (processes, dask).")
    ] = 1,
    scheduler: Annotated[
        str | None, opt("--scheduler", panel=RUNNING, help="Dask scheduler (tcp://host:8786).")
    ] = None,
    quiet: QuietOpt = False,
) -> None:
    """Rank the references among candidate translations (ORANGE, Lin and Och 2004).

    Examples: `mtpalette orange -r refA.txt refB.txt --systems-dir outputs/ -m 'bleus:1..9' wer
    --out-dir run/` (a pool of systems; the paper's grid: add nist per rouge-l
    'rouge-w:1.1..2.0/0.1' 'rouge-s:0..9,*'); `mtpalette orange -r refA.txt refB.txt --nbest
    nbest.txt -m bleus:4 --curve-step 64 --out-dir run/` (n-best lists);
    `mtpalette orange -r refA.txt refB.txt -s A.txt B.txt --pivot pivot.txt` (Limited ORANGE).
    """
    check_oracle(oracle)
    tie_weight(ties)
    metrics = metrics or ([] if scores else ["bleus:4"])
    exclude = exclude or []
    check_resampling(bootstrap=bootstrap, confidence=confidence, seed=seed)
    if (
        (max_candidates is not None and max_candidates < 1)
        or errors_max < 0
        or (curve_step is not None and curve_step < 1)
    ):
        raise UserInputError(
            "--max-candidates and --curve-step must be positive, --errors-max 0 or more"
        )
    if report is not None and out_dir is None:
        out_dir = report.parent / (report.stem + "-run")
    if resume and run_dir is None:
        raise UserInputError("--resume needs --run-dir (the folder of the run to continue)")
    if run_dir is not None:
        out_dir = out_dir or run_dir
    if out_dir is not None:
        json_out = json_out or out_dir / "run.json"
        csv_out = csv_out or out_dir / "table.csv"
        curve_csv = curve_csv or out_dir / "curve.csv"
        curve_plot = curve_plot or out_dir / "curve.png"
        errors = errors or (out_dir / "errors.jsonl" if run_dir is None else None)
    # every output's folder is checked before any work: a run that cannot write all its
    # outputs writes none
    check_output_folders(
        [json_out, csv_out, curve_csv, curve_plot, errors, report], made=[out_dir, run_dir]
    )

    ref_lines = [read_lines(p) for p in refs]
    for path, lines in zip(refs[1:], ref_lines[1:], strict=True):
        if len(lines) != len(ref_lines[0]):
            raise UserInputError(
                f"has {len(lines)} lines but {refs[0]} has {len(ref_lines[0])}",
                path=str(path),
                line=min(len(lines), len(ref_lines[0])) + 1,
            )
    if len(refs) < 2 and pivot is None:
        raise UserInputError(ONE_REFERENCE)
    if pivot is not None and len(refs) != 1:
        raise UserInputError("--pivot (Limited ORANGE) takes exactly one reference")
    parsed = parse_specs(list(metrics), tokenize=tokenize, lowercase=lowercase)
    console = Console(stderr=True, quiet=quiet)

    def load():
        lists, files = _load_lists(
            refs,
            ref_lines,
            nbest,
            nbest_format,
            id_base,
            systems,
            systems_dir,
            systems_glob,
            exclude,
        )
        if source is not None and pivot is None:
            lists.srcs = read_matching(source, lists.n_segments, "the candidate lists have")
        return (lists.head(max_candidates) if max_candidates is not None else lists), files

    if run_dir is not None:
        if scores or export_scores is not None or max_candidates is not None or source:
            raise UserInputError(
                "--run-dir does not combine with --scores, --export-scores, --max-candidates "
                "or --source"
            )
        if nbest is not None and nbest_format == "jsonl":
            raise UserInputError("--run-dir streams Moses n-best files; JSONL is not streamed")
        comparisons, candidate_files = run_chunked(
            console,
            run_dir=run_dir,
            resume=resume,
            chunk_size=chunk_size,
            backend=Backend(backend, workers, scheduler),
            refs=list(refs),
            ref_lines=ref_lines,
            nbest=nbest,
            id_base=id_base,
            load_lists=load,
            parsed=parsed,
            oracle=oracle,
            tokenize=tokenize,
            lowercase=lowercase,
        )
        kind = "nbest" if nbest is not None else "systems"
        lists = ChunkedLists(np.diff(comparisons[0].offsets), len(refs), {"kind": kind})
    elif pivot is not None:
        lists, candidate_files = load()
        comparisons = run_limited(
            console,
            lists,
            parsed,
            pivot=pivot,
            source=source,
            features=features,
            weights=feature_weights,
            mode=feature_mode,
            lm_text=lm_text,
            tm_source=tm_source,
            tm_target=tm_target,
            synonyms=synonyms,
            tokenize=tokenize,
            source_tokenize=source_tokenize,
        )
        errors = None
        oracle = "limited-features"  # the reference ranked by features against the pivot
    else:
        lists, candidate_files = load()
        external = parse_scores(scores, reference_names(lists, lists.n_refs))
        comparisons = _score(console, lists, parsed, oracle, keep_scores=errors is not None)
        comparisons += [external_comparisons(lists, m, oracle=oracle) for m in external]
    if export_scores is not None:
        for path in export_all(export_scores, parsed, lambda m: export_orange_scores(lists, m)):
            console.print(f"wrote {path}", style="dim")
    table = evaluate(
        comparisons,
        ties=ties,
        n_resamples=bootstrap,
        confidence=confidence,
        seed=seed,
        min_candidates=min_candidates,
    )
    curve = None
    if curve_step is not None or curve_csv is not None or curve_plot is not None:
        max_n = int(lists.n_candidates.max())
        step = curve_step or max(1, math.ceil(max_n / CURVE_POINTS))
        curve = orange_curve(comparisons, step=step, ties=ties, min_candidates=min_candidates)

    print_table(result_console(), table, title=_title(lists, oracle))
    if out_dir is not None:  # made only now: a failed run leaves nothing behind
        out_dir.mkdir(parents=True, exist_ok=True)
    outputs: dict[str, Any] = {}
    if csv_out is not None:
        write_csv(csv_out, [row.to_dict() for row in table.rows])
        outputs["table_csv"] = str(csv_out)
    if curve is not None and curve_csv is not None:
        write_csv(curve_csv, curve.rows())
        outputs["curve_csv"] = str(curve_csv)
    if curve is not None and curve_plot is not None:
        from mtpalette.report.curves import plot_orange_curve

        plot_orange_curve(curve, curve_plot)
        outputs["curve_plot"] = str(curve_plot)
    if errors is not None:
        n = write_jsonl(
            errors,
            (
                record
                for c in comparisons
                for record in error_analysis(
                    c,
                    ties=ties,
                    texts=lists.texts,
                    origins=lists.origins,
                    references=lists.refs,
                    max_per_segment=errors_max,
                )
            ),
        )
        outputs["errors_jsonl"] = str(errors)
        outputs["errors_records"] = n
    if json_out is not None:
        run = _run_record(
            table,
            curve,
            lists,
            refs,
            candidate_files,
            metrics,
            tokenize=tokenize,
            lowercase=lowercase,
            id_base=id_base,
            min_candidates=min_candidates,
            max_candidates=max_candidates,
            errors_max=errors_max,
            outputs=outputs,
        )
        run.outputs["run_json"] = str(json_out)
        run.save(json_out)
    if report is not None and json_out is not None:
        from mtpalette.report.html import write_report

        outputs["report"] = str(write_report([json_out], report))
    for key, value in outputs.items():
        if key != "errors_records":
            console.print(f"wrote {value}", style="dim")


def _load_lists(
    refs, ref_lines, nbest, nbest_format, id_base, systems, systems_dir, systems_glob, exclude
) -> tuple[CandidateLists, list[Path]]:
    """The candidate lists from exactly one of --nbest, --systems, --systems-dir."""
    given = sum(x is not None and x != [] for x in (nbest, systems, systems_dir))
    if given != 1:
        raise UserInputError(
            "give the candidates once: --nbest FILE, --systems FILE... or --systems-dir DIR"
        )
    names = [Path(p).name for p in refs]
    if nbest is not None:
        lists = CandidateLists.from_nbest(
            read_nbest(nbest, fmt=nbest_format), ref_lines, id_base=id_base, ref_names=names
        )
        return lists, [nbest]
    if systems_dir is not None:
        files, notes = select_system_files(
            systems_dir,
            pattern=systems_glob,
            exclude=exclude,
            inputs_=refs,
            n_lines=len(ref_lines[0]),
        )
        report_system_files(systems_dir, files, notes)
    else:
        files = list(systems)
    if not files:
        raise UserInputError("no system file left once the references are set aside")
    outputs = read_systems(files, system_names(files))
    return CandidateLists.from_systems(outputs, ref_lines, ref_names=names), files


def _score(console: Console, lists, parsed, oracle, *, keep_scores: bool):
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    if console.quiet or not console.is_terminal:
        return compare_candidates(lists, parsed, oracle=oracle, keep_scores=keep_scores)
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task("scoring", total=None)

        def progress(done: int, total: int, what: str) -> None:
            bar.update(task, completed=done, total=total, description=what[:60])

        return compare_candidates(
            lists, parsed, oracle=oracle, keep_scores=keep_scores, progress=progress
        )


def _title(lists: CandidateLists, oracle: str) -> str:
    n = lists.n_candidates
    kind = lists.info.get("kind", "")
    return (
        f"ORANGE ({oracle}): {lists.n_segments} segments, {lists.n_refs} references, "
        f"{int(n.min())}-{int(n.max())} candidates per list ({kind})"
    )


def print_table(console: Console, table: OrangeTable, *, title: str = "") -> None:
    """The table in the paper's layout: Method, ORANGE, Avg Rank, 95% interval of the average
    rank, and a mark for the best metric and those statistically equivalent to it."""
    conf = f"{100 * table.confidence:g}%"
    if title:
        emit_note(console, title)
    t = Table()
    t.add_column("Method")
    t.add_column("ORANGE", justify="right")
    t.add_column("Avg Rank", justify="right")
    t.add_column(f"{conf}-CI-L", justify="right")
    t.add_column(f"{conf}-CI-U", justify="right")
    t.add_column("", justify="left")
    digits = 1 if table.n_candidates["max"] >= 100 else 2
    for row in table.rows:
        mark, style = "", None
        if row.best:
            mark, style = "best", "bold green"
        elif row.equivalent and table.n_resamples:
            mark, style = "= best", "yellow"
        t.add_row(
            row.metric,
            f"{100 * row.orange.value:.2f}%",
            f"{row.avg_rank.value:.{digits}f}",
            _num(row.avg_rank.low, digits),
            _num(row.avg_rank.high, digits),
            mark,
            style=style,
        )
    emit_table(console, t)
    skipped = f", {table.n_skipped} left out (too few candidates)" if table.n_skipped else ""
    emit_note(
        console,
        f"oracle: {table.oracle}; ties: {table.ties}; ORANGE = mean of rank/(N_i+1) over "
        f"{table.n_segments} segments{skipped}; bootstrap: {table.n_resamples} resamples, "
        f"seed {table.seed}",
    )
    if table.test:
        emit_note(console, f"'= best': {table.test}")
    emit_signatures(console, {row.metric: row.signature for row in table.rows})


def _num(x: float, digits: int) -> str:
    return "-" if math.isnan(x) else f"{x:.{digits}f}"


def _run_record(
    table: OrangeTable,
    curve: OrangeCurve | None,
    lists: CandidateLists,
    refs,
    candidate_files,
    specs,
    **settings: Any,
) -> Run:
    outputs = settings.pop("outputs")
    return Run(
        "orange",
        inputs={
            "refs": [file_record(p) for p in refs],
            "candidates": {
                "kind": lists.info.get("kind"),
                "files": [file_record(p) for p in candidate_files],
                "systems": lists.info.get("systems"),
            },
            "n_segments": lists.n_segments,
            "n_candidates": {
                "total": int(lists.n_candidates.sum()),
                "min": int(lists.n_candidates.min()),
                "max": int(lists.n_candidates.max()),
            },
        },
        settings={
            "oracle": table.oracle,
            "ties": table.ties,
            "bootstrap": table.n_resamples,
            "confidence": table.confidence,
            "metric_specs": list(specs),
            "metrics": [row.metric for row in table.rows],
            **settings,
        },
        signatures={row.metric: row.signature for row in table.rows},
        seeds={"bootstrap": table.seed},
        results={"table": table.to_dict(), "curve": None if curve is None else curve.to_dict()},
        outputs=outputs,
    )
