"""``mtpalette correlate``: correlation of metrics with human judgments, with 95% intervals and
significance clusters.

Examples::

    # the bundled WMT21 TED MQM data (zh-en: references ref and refB, 13 systems)
    mtpalette correlate --bundled zhen -m bleus:4 chrf wer rouge-l --stat pearson,kendall

    # any judgments aligned with system output files
    mtpalette correlate --judgments mqm_ted_zhen.tsv --seg-ids seg_ids.txt \\
        --refs ref.txt refB.txt --systems-dir outputs/ -m bleus:4 nist wer \\
        --stat acc-eq --grouping item --out-dir corr-run/

Error metrics (WER, PER, TER) are negated before correlating, so a good metric always has a
positive correlation. ``--refs``, ``--systems``, ``-m`` and ``--exclude`` take several values
after one flag; ``--stat`` takes a comma-separated list (one table each).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import typer
from rich.console import Console
from rich.table import Table

from mtpalette.cli.console import emit_note, emit_signatures, emit_table, result_console
from mtpalette.cli.external_opts import export_all, parse_scores
from mtpalette.cli.options import (
    HUMANS,
    INPUTS,
    OUTPUTS,
    RESAMPLING,
    BootstrapOpt,
    BundledOpt,
    ConfidenceOpt,
    ExcludeOpt,
    ExportScoresOpt,
    JsonOpt,
    JudgmentsOpt,
    LowercaseOpt,
    LpOpt,
    MetricsOpt,
    OutDirOpt,
    QuietOpt,
    RefsOpt,
    RenameOpt,
    ReportOpt,
    ScoresOpt,
    SeedOpt,
    SegIdsOpt,
    SystemsDirOpt,
    SystemsGlobOpt,
    SystemsOpt,
    TokenizeOpt,
    opt,
)
from mtpalette.cli.progress import shown, track
from mtpalette.cli.resampling import check_resampling
from mtpalette.errors import UserInputError
from mtpalette.io.judgments import (
    FORMATS,
    Judgments,
    bundled_mqm_ted,
    guess_format,
    read_judgments,
    read_wmt17_testset,
)
from mtpalette.io.nbest import (
    read_systems,
    report_system_files,
    select_system_files,
    system_names,
)
from mtpalette.io.plain import read_lines
from mtpalette.io.runfile import Run, file_record, write_csv
from mtpalette.metaeval.correlation import (
    SYSTEM_SCORES,
    CorrelationTable,
    SegmentData,
    correlation_table,
    score_segments,
    system_table,
)
from mtpalette.metaeval.external import (
    export_segment_scores,
    external_segment_scores,
    reference_names,
)
from mtpalette.metrics import parse_specs
from mtpalette.stats.correlation import GROUPINGS, STATISTICS
from mtpalette.stats.significance import LEVELS, TESTS

#: help section of the correlation settings
CORRELATION = "Correlation"
#: how each statistic is labelled in tables
LABELS = {
    "pearson": "Pearson r",
    "spearman": "Spearman rho",
    "kendall": "Kendall tau-b",
    "kendall-b": "Kendall tau-b",
    "kendall-c": "Kendall tau-c",
    "kendall-like": "WMT Kendall-like tau",
    "acc-eq": "acc-eq",
    "tau-eq": "tau-eq",
    "pairwise-accuracy": "pairwise accuracy",
    "rr-kendall": "WMT RR tau",
}


def parse_rename(text: str | None) -> dict[str, str]:
    """``"ref-A=ref,ref-B=refB"`` as a mapping.

    Examples
    --------
    >>> parse_rename("ref-A=ref, ref-B=refB")
    {'ref-A': 'ref', 'ref-B': 'refB'}
    """
    out: dict[str, str] = {}
    for part in (text or "").split(","):
        if not part.strip():
            continue
        old, eq, new = part.partition("=")
        if not eq or not old.strip() or not new.strip():
            raise UserInputError(f"bad --rename entry {part.strip()!r}; expected OLD=NEW")
        out[old.strip()] = new.strip()
    return out


def parse_epsilon(text: str | None) -> float | None:
    """``None`` or ``cal`` -> calibrate; a number -> a fixed metric tie threshold."""
    if text is None or text.strip().lower() in ("cal", "calibrate", "auto"):
        return None
    try:
        value = float(text)
    except ValueError:
        raise UserInputError(f"--epsilon must be a number or 'cal', got {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise UserInputError("--epsilon must be 0 or more")
    return value


def load_task(
    *,
    bundled: str | None = None,
    judgments: Path | None = None,
    fmt: str = "auto",
    refs: list[Path] | None = None,
    systems: list[Path] | None = None,
    systems_dir: Path | None = None,
    systems_glob: str = "*",
    exclude: list[str] | None = None,
    seg_ids: Path | None = None,
    id_base: int | None = None,
    lp: str | None = None,
    rename: str | None = None,
) -> tuple[SegmentData, Judgments, dict[str, Any]]:
    """The judgments aligned with their texts, from the command-line options."""
    if (
        judgments is not None
        and bundled is None
        and (
            fmt == "wmt17-testset" or (fmt == "auto" and guess_format(judgments) == "wmt17-testset")
        )
    ):
        if refs or systems or systems_dir is not None or seg_ids is not None:
            raise UserInputError(
                "a WMT17 test-set file holds its own translations and "
                "references: give no --refs, --systems or --seg-ids"
            )
        st = read_wmt17_testset(judgments)
        if lp is not None or len(set(st.lps)) > 1:
            if lp is None:
                raise UserInputError(
                    "the file has several language pairs; choose one (--lp)", path=str(judgments)
                )
            st = st.select_lp(lp)
        data = SegmentData.from_scored_texts(st)
        judged = Judgments(
            ["all"], data.items, data.human, "wmt17-testset", str(judgments), item_base=1
        )
        return (
            data,
            judged,
            {
                "judgments": file_record(judgments),
                "format": "wmt17-testset",
                "refs": [],
                "systems": [],
                "seg_ids": None,
                "bundled": None,
                "unscored_judged_systems": [],
            },
        )
    if bundled is not None:
        if any(x for x in (judgments, refs, systems, systems_dir, seg_ids)):
            raise UserInputError(
                "--bundled replaces --judgments, --refs, --systems and "
                "--seg-ids; give one or the other"
            )
        paths = bundled_mqm_ted(bundled)
        judgments, refs, seg_ids = paths["judgments"], paths["refs"], paths["seg_ids"]
        files = paths["systems"]
    else:
        if judgments is None or not refs:
            raise UserInputError(
                "give --judgments FILE and --refs FILE... (or --bundled zhen|ende)"
            )
        given = sum(x is not None and x != [] for x in (systems, systems_dir))
        if given != 1:
            raise UserInputError(
                "give the system outputs once: --systems FILE... or --systems-dir DIR"
            )
        if systems_dir is not None:
            others = [p for p in (*refs, judgments, seg_ids) if p is not None]
            files, notes = select_system_files(
                systems_dir,
                pattern=systems_glob,
                exclude=exclude or [],
                inputs_=others,
                n_lines=len(read_lines(refs[0])),
            )
            report_system_files(systems_dir, files, notes)
        else:
            files = list(systems)
    if not files:
        raise UserInputError("no system file left once the references are set aside")
    judged = read_judgments(judgments, fmt, lp=lp, id_base=id_base).rename(parse_rename(rename))
    ref_lines = [read_lines(p) for p in refs]
    outputs = read_systems(files, system_names(files))
    inputs = {
        "judgments": file_record(judgments),
        "format": judged.kind,
        "refs": [file_record(p) for p in refs],
        "systems": [file_record(p) for p in files],
        "seg_ids": None if seg_ids is None else file_record(seg_ids),
        "bundled": bundled,
    }
    if judged.unaligned is not None:
        raise UnalignedJudgments(judged, outputs, ref_lines, inputs)
    ids = read_lines(seg_ids) if seg_ids is not None else None
    data = SegmentData.from_judgments(
        judged,
        outputs,
        ref_lines,
        seg_ids=ids,
        id_base=id_base,
        ref_names=[Path(p).name for p in refs],
    )
    if data.info["unscored_systems"]:  # said, not silently dropped
        typer.echo(
            f"note: judged systems without an output file, left out: "
            f"{', '.join(data.info['unscored_systems'])}",
            err=True,
        )
    inputs["unscored_judged_systems"] = data.info["unscored_systems"]
    return data, judged, inputs


class UnalignedJudgments(UserInputError):
    """Judgments whose segment ids are not lines of the texts (WMT ``ad-seg-scores``): usable
    at system level only, from system means and whole-output corpus scores."""

    def __init__(self, judged: Judgments, outputs, refs, inputs) -> None:
        super().__init__(judged.unaligned, path=judged.path)
        self.judged, self.outputs, self.refs, self.inputs = judged, outputs, refs, inputs


def correlate(
    metrics: MetricsOpt = None,
    scores_from: ScoresOpt = None,
    tokenize: TokenizeOpt = "13a",
    lowercase: LowercaseOpt = False,
    bundled: BundledOpt = None,
    mtme: Annotated[
        Path | None,
        opt("--mtme", panel=HUMANS, help="An mt-metrics-eval test set folder (with --lp)."),
    ] = None,
    human: Annotated[
        str, opt("--human", panel=HUMANS, help="--mtme: the human scores (mqm, wmt-z...).")
    ] = "mqm",
    mtme_ref: Annotated[
        str, opt("--mtme-ref", panel=HUMANS, help="--mtme: the reference (refA...).")
    ] = "refA",
    judgments: JudgmentsOpt = None,
    fmt: Annotated[
        str, opt("--format", panel=HUMANS, help="auto, " + ", ".join(FORMATS) + ", wmt17-testset")
    ] = "auto",
    seg_ids: SegIdsOpt = None,
    id_base: Annotated[
        int | None, opt("--id-base", panel=HUMANS, help="Id of the first line (ids = lines).")
    ] = None,
    lp: LpOpt = None,
    rename: RenameOpt = None,
    refs: RefsOpt = None,
    systems: SystemsOpt = None,
    systems_dir: SystemsDirOpt = None,
    systems_glob: SystemsGlobOpt = "*",
    exclude: ExcludeOpt = None,
    max_items: Annotated[
        int | None, opt("--max-items", panel=INPUTS, help="Use the first N segments only.")
    ] = None,
    source: Annotated[
        Path | None,
        opt("--source", panel=INPUTS, help="Source sentences, for plugins that read them."),
    ] = None,
    stat: Annotated[
        str, opt("--stat", panel=CORRELATION, help="Comma-separated: " + ", ".join(STATISTICS))
    ] = "pearson",
    grouping: Annotated[
        str, opt("--grouping", panel=CORRELATION, help=", ".join(GROUPINGS))
    ] = "none",
    level: Annotated[str, opt("--level", panel=CORRELATION, help=", ".join(LEVELS))] = "segment",
    system_score: Annotated[
        str,
        opt(
            "--system-score", panel=CORRELATION, help="System level: " + " or ".join(SYSTEM_SCORES)
        ),
    ] = "corpus",
    epsilon: Annotated[
        str | None, opt("--epsilon", panel=CORRELATION, help="acc-eq/tau-eq threshold, or 'cal'.")
    ] = None,
    threshold: Annotated[
        float, opt("--threshold", panel=CORRELATION, help="kendall-like: min human difference.")
    ] = 25.0,
    bootstrap: BootstrapOpt = 1000,
    seed: SeedOpt = 12345,
    confidence: ConfidenceOpt = 0.95,
    test: Annotated[
        str, opt("--test", panel=RESAMPLING, help="Clusters: " + ", ".join(TESTS))
    ] = "permutation",
    permutations: Annotated[
        int, opt("--permutations", panel=RESAMPLING, help="Permutation test draws.")
    ] = 1000,
    alpha: Annotated[
        float, opt("--alpha", panel=RESAMPLING, help="Significance level of clusters.")
    ] = 0.05,
    out_dir: OutDirOpt = None,
    json_out: JsonOpt = None,
    csv_out: Annotated[Path | None, opt("--csv", panel=OUTPUTS, help="Tables as CSV.")] = None,
    export_scores: ExportScoresOpt = None,
    keep_scores: Annotated[
        bool, opt("--keep-scores", panel=OUTPUTS, help="Keep segment scores (for plots).")
    ] = False,
    report: ReportOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Correlate metrics with human judgments (MQM, DA): table with CI and clusters.

    Examples: `mtpalette correlate --bundled zhen -m bleus:4 chrf wer --stat pearson,kendall`;
    `mtpalette correlate -j mqm.tsv -r ref.txt --systems-dir outputs/ -m bleu chrf --level
    system --out-dir run/`; `mtpalette correlate -j scores.jsonl -r ref.txt -s A.txt B.txt
    --scores comet=comet.tsv -m bleu --grouping item --stat kendall`.
    """
    stats = [s.strip() for s in stat.split(",") if s.strip()]
    for s in stats:
        if s not in STATISTICS:
            raise UserInputError(
                f"unknown statistic {s!r}; expected one of {', '.join(STATISTICS)}"
            )
    check_resampling(
        bootstrap=bootstrap, confidence=confidence, seed=seed, permutations=permutations
    )
    if not 0.0 < alpha < 1.0:
        raise UserInputError("--alpha must be between 0 and 1")
    if max_items is not None and max_items < 2:
        raise UserInputError("--max-items must be at least 2")
    eps = parse_epsilon(epsilon)
    if report is not None:
        keep_scores = True
        if out_dir is None and json_out is None:
            out_dir = report.parent / (report.stem + "-run")
    if out_dir is not None:
        json_out = json_out or out_dir / "run.json"
        csv_out = csv_out or out_dir / "table.csv"
    console = Console(stderr=True, quiet=quiet)
    if mtme is not None:
        judgments, fmt, refs, systems = _mtme_inputs(
            mtme, lp, human, mtme_ref, (bundled, judgments, refs, systems, systems_dir)
        )
    task = dict(bundled=bundled, judgments=judgments, fmt=fmt, refs=refs, systems=systems)
    task |= dict(systems_dir=systems_dir, systems_glob=systems_glob, exclude=exclude)
    task |= dict(seg_ids=seg_ids, id_base=id_base, lp=lp, rename=rename)
    specs = list(metrics or ([] if scores_from else ["bleus:4"]))
    parsed = parse_specs(specs, tokenize=tokenize, lowercase=lowercase)
    common = dict(n_resamples=bootstrap, confidence=confidence, seed=seed, test=test)
    common |= dict(n_permutations=permutations, alpha=alpha, epsilon=eps)
    try:
        data, judged, inputs = load_task(**task)
    except UnalignedJudgments as unaligned:
        if level != "system" or scores_from:
            raise UserInputError(
                f"{unaligned}; give --level system (and no --scores)", path=unaligned.path
            ) from None
        tables, signatures, summary = _unaligned_system_level(unaligned, parsed, stats, common)
        data, judged, inputs, scores = None, unaligned.judged, unaligned.inputs, []
        titles = [_unaligned_title(t, summary, judged) for t in tables]
    else:
        if source is not None:
            data = data.with_sources(read_lines(source), str(source))
        if max_items is not None:
            data = data.select_items(range(min(max_items, data.n_items)))
        ref_names = [Path(r["path"]).name for r in inputs["refs"]] or None
        external = parse_scores(scores_from, reference_names(ref_names, len(data.refs)))
        console.print(
            f"scoring {data.n_rated} rated translations with {len(parsed)} metric(s)",
            style="dim",
        )
        scores = (score_segments(data, parsed) if parsed else []) + [
            external_segment_scores(data, m) for m in external
        ]
        if export_scores is not None:
            exported = export_all(export_scores, parsed, lambda m: export_segment_scores(data, m))
            for path in exported:
                console.print(f"wrote {path}", style="dim")
        tables = []
        for s in track(stats, console, f"bootstrap and {test} test"):
            if not shown(console):
                console.print(f"{s}: bootstrap and {test} test", style="dim")
            tables.append(
                correlation_table(
                    data,
                    scores,
                    statistic=s,
                    grouping=grouping,
                    level=level,
                    system_score=system_score,
                    threshold=threshold,
                    **common,
                )
            )
        signatures = {sc.name: sc.signature for sc in scores}
        summary = {
            "n_systems": data.n_systems,
            "n_items": data.n_items,
            "n_rated": data.n_rated,
            "systems": data.systems,
        }
        titles = [_title(t, data, judged) for t in tables]
    out = result_console()
    if out_dir is not None:  # made only now: a failed run leaves nothing behind
        out_dir.mkdir(parents=True, exist_ok=True)
    for table, title in zip(tables, titles, strict=True):
        print_table(out, table, title=title)
    emit_signatures(out, signatures)
    outputs: dict[str, Any] = {}
    if csv_out is not None:
        rows = [
            {"statistic": t.statistic, "grouping": t.grouping, "level": t.level, **r.to_dict()}
            for t in tables
            for r in t.rows
        ]
        write_csv(csv_out, rows)
        outputs["table_csv"] = str(csv_out)
    if json_out is not None:
        outputs["run_json"] = str(json_out)
        Run(
            "correlate",
            inputs={**inputs, **summary},
            settings={
                "metric_specs": specs,
                "score_files": list(scores_from or []),
                "statistics": stats,
                "grouping": grouping,
                "level": level,
                "system_score": system_score,
                "epsilon": "calibrated" if eps is None else eps,
                "threshold": threshold,
                "bootstrap": bootstrap,
                "confidence": confidence,
                "test": test,
                "permutations": permutations,
                "alpha": alpha,
                "max_items": max_items,
                "tokenize": tokenize,
                "lowercase": lowercase,
            },
            signatures=signatures,
            seeds={"bootstrap": seed, "permutation": [seed, 1]},
            results={
                "tables": [t.to_dict() for t in tables],
                **(
                    {"segment_scores": segment_scores(data, scores)} if keep_scores and data else {}
                ),
            },
            outputs=outputs,
        ).save(json_out)
    if report is not None and json_out is not None:
        from mtpalette.report.html import write_report

        outputs["report"] = str(write_report([json_out], report))
    for value in outputs.values():
        console.print(f"wrote {value}", style="dim")


def segment_scores(data: SegmentData, scores) -> dict[str, Any]:
    """Every rated translation's human score and metric scores, for scatter plots."""
    rated = ~np.isnan(data.human)
    return {
        "human": [round(float(x), 6) for x in data.human[rated]],
        "metrics": {s.name: [round(float(x), 6) for x in s.seg[rated]] for s in scores},
    }


def _mtme_inputs(root, lp, human, ref, others):
    """``--judgments``, ``--format``, ``--refs`` and ``--systems`` of one language pair of an
    mt-metrics-eval folder (see :mod:`mtpalette.io.mtme`)."""
    from mtpalette.io.mtme import mtme_paths

    if any(x for x in others):
        raise UserInputError(
            "--mtme replaces --bundled, --judgments, --refs, --systems and --systems-dir"
        )
    paths = mtme_paths(root, lp, human, ref)
    return paths["judgments"], "mtme-seg", paths["refs"], paths["systems"]


def _unaligned_system_level(unaligned: UnalignedJudgments, metrics, stats, common):
    """System-level tables from judgments that cannot be aligned with lines: each system's
    human score is the mean of its judged segments, its metric score the corpus score of its
    whole output (the judged segments cannot be told apart)."""
    from mtpalette.api import score_systems

    if not metrics:
        raise UserInputError("no metric given (-m)")
    judged = unaligned.judged
    names = [s for s in unaligned.outputs if s in judged.systems]
    left_out = [s for s in judged.systems if s not in unaligned.outputs]
    if left_out:
        typer.echo(
            f"note: judged systems without an output file, left out: {', '.join(left_out)}",
            err=True,
        )
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
        {s: unaligned.outputs[s] for s in names}, unaligned.refs, [m.spec for m in metrics]
    )
    specs = next(iter(scored.values())).specs
    parsed = {m.spec: m for m in metrics}
    metric_scores = {
        spec: {s: scored[s].corpus[k].value for s in names} for k, spec in enumerate(specs)
    }
    signatures = {spec: str(sig) for spec, sig in next(iter(scored.values())).signatures.items()}
    tables = [
        system_table(
            human,
            metric_scores,
            directions={spec: parsed[spec].higher_is_better for spec in specs},
            signatures=signatures,
            statistic=stat,
            **common,
        )
        for stat in stats
    ]
    summary = {
        "n_systems": len(names),
        "n_items": len(judged.items),
        "n_rated": judged.n_rated,
        "systems": names,
    }
    return tables, signatures, summary


def _unaligned_title(table: CorrelationTable, summary, judged: Judgments) -> str:
    return (
        f"System-level {LABELS[table.statistic]} with human scores: {summary['n_systems']} "
        f"systems, human score = mean of {summary['n_rated']} judged segments ({judged.kind}); "
        "metric score = corpus score of the whole output"
    )


def _title(table: CorrelationTable, data: SegmentData, judged: Judgments) -> str:
    where = (
        f"{data.n_systems} systems x {data.n_items} segments, {data.n_rated} rated "
        f"translations ({judged.kind})"
    )
    if table.level == "system":
        return f"System-level {LABELS[table.statistic]} with human scores: {where}"
    return (
        f"Segment-level {LABELS[table.statistic]} with human scores, grouping "
        f"{table.grouping}: {where}"
    )


def print_table(console: Console, table: CorrelationTable, *, title: str = "") -> None:
    """Metrics by decreasing correlation, with the interval, cluster and direction."""
    conf = f"{100 * table.confidence:g}%"
    if title:
        emit_note(console, title)
    t = Table()
    t.add_column("Metric")
    t.add_column(LABELS.get(table.statistic, table.statistic), justify="right")
    t.add_column(f"{conf} CI", justify="right")
    t.add_column("Cluster", justify="right")
    t.add_column("Dir", justify="center")
    if any(r.epsilon is not None for r in table.rows):
        t.add_column("epsilon", justify="right")
    for r in table.rows:
        ci = "-" if math.isnan(r.ci.low) else f"[{r.ci.low:.4f}, {r.ci.high:.4f}]"
        cells = [
            r.metric,
            f"{r.value:.4f}",
            ci,
            "-" if r.cluster is None else str(r.cluster),
            "+" if r.higher_is_better else "-",
        ]
        if r.epsilon is not None:
            cells.append(f"{r.epsilon:.4g}")
        t.add_row(*cells, style="bold green" if r.cluster == 1 else None)
    emit_table(console, t)
    test = {
        "permutation": f"PERM-BOTH permutation test ({table.n_permutations} draws)",
        "bootstrap": "paired bootstrap on the interval's resamples",
        "williams": "Williams' test",
        "none": "no test",
    }[table.test]
    emit_note(
        console,
        f"interval: percentile bootstrap over {table.unit} ({table.n_units}), "
        f"{table.n_resamples} resamples, seed {table.seed}; clusters: {test}, alpha "
        f"{table.alpha:g} (1 = best; a new cluster starts when a better-ranked metric of the "
        "current one is significantly better); Dir '-': an error metric, negated before "
        "correlating",
    )
