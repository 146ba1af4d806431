"""``mtpalette agree``: does ORANGE rank metrics the way human judgments do?

Example (the bundled MQM TED zh-en data: references ``ref`` and ``refB``, 13 systems)::

    mtpalette agree --bundled zhen -m bleus:4 nist wer per rouge-l rouge-w:1.2 rouge-s:4 chrf

prints each metric's ORANGE and human correlation with their 95% intervals and ranks, Kendall's
tau-b between the two orderings with a bootstrap interval over segments, and, for rated
references, how humans rank them among the systems (their "human ORANGE").
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from mtpalette.cli.console import emit_note, emit_table, result_console
from mtpalette.cli.correlate import LABELS, load_task, parse_epsilon
from mtpalette.cli.resampling import check_resampling
from mtpalette.errors import UserInputError
from mtpalette.io.judgments import FORMATS
from mtpalette.io.runfile import Run
from mtpalette.metaeval.agreement import Agreement, agreement
from mtpalette.metaeval.correlation import require_varied, score_segments
from mtpalette.metaeval.orange import ORACLES, TIE_POLICIES
from mtpalette.metrics import known_metrics, parse_specs
from mtpalette.stats.correlation import GROUPINGS, STATISTICS

Opt = typer.Option
#: the metrics of Lin and Och (2004)'s tables and chrF/TER, where registered
SEED_METRICS = [
    "bleus:4",
    "nist",
    "wer",
    "per",
    "rouge-l",
    "rouge-w:1.2",
    "rouge-s:4",
    "chrf",
    "ter",
]


def available(specs: list[str]) -> tuple[list[str], list[str]]:
    """The specs whose family is registered, and the others.

    Examples
    --------
    >>> available(["bleus:4", "no-such-metric:2"])
    (['bleus:4'], ['no-such-metric:2'])
    """
    known = set(known_metrics())
    ok = [s for s in specs if s.split(":")[0].split(",")[0].strip().lower() in known]
    return ok, [s for s in specs if s not in ok]


def agree(
    metrics: Annotated[
        list[str] | None, Opt("-m", "--metrics", help="Metric specs (default: the seeds').")
    ] = None,
    bundled: Annotated[str | None, Opt("--bundled", help="Bundled MQM TED data: zhen.")] = None,
    judgments: Annotated[Path | None, Opt("--judgments", "-j", help="Judgment file.")] = None,
    fmt: Annotated[str, Opt("--format", help="auto, " + ", ".join(FORMATS))] = "auto",
    refs: Annotated[list[Path] | None, Opt("--refs", "-r", help="2 or more references.")] = None,
    systems: Annotated[
        list[Path] | None, Opt("--systems", "-s", help="System output files.")
    ] = None,
    systems_dir: Annotated[
        Path | None, Opt("--systems-dir", help="Folder of system outputs.")
    ] = None,
    systems_glob: Annotated[str, Opt("--systems-glob", help="File pattern in the folder.")] = "*",
    exclude: Annotated[
        list[str] | None, Opt("--exclude", help="File patterns to leave out.")
    ] = None,
    seg_ids: Annotated[
        Path | None, Opt("--seg-ids", help="The judgments' id of each text line.")
    ] = None,
    id_base: Annotated[int | None, Opt("--id-base", help="Id of the first line.")] = None,
    lp: Annotated[str | None, Opt("--lp", help="Language pair (WMT files).")] = None,
    rename: Annotated[str | None, Opt("--rename", help="Rename judged systems: A=a,B=b.")] = None,
    stat: Annotated[str, Opt("--stat", help=", ".join(STATISTICS))] = "kendall",
    grouping: Annotated[str, Opt("--grouping", help=", ".join(GROUPINGS))] = "none",
    epsilon: Annotated[
        str | None, Opt("--epsilon", help="acc-eq/tau-eq threshold or 'cal'.")
    ] = None,
    oracle: Annotated[str, Opt("--oracle", help=" or ".join(ORACLES))] = "leave-one-out",
    ties: Annotated[str, Opt("--ties", help=", ".join(TIE_POLICIES))] = "mid",
    bootstrap: Annotated[int, Opt("--bootstrap", help="Resamples (0: none).")] = 1000,
    seed: Annotated[int, Opt("--seed", help="Seed of the bootstrap.")] = 12345,
    confidence: Annotated[float, Opt("--confidence", help="Interval coverage.")] = 0.95,
    max_items: Annotated[int | None, Opt("--max-items", help="First N segments only.")] = None,
    out_dir: Annotated[Path | None, Opt("--out-dir", help="Write run.json here.")] = None,
    json_out: Annotated[Path | None, Opt("--json", help="Run file (JSON).")] = None,
    tokenize: Annotated[str, Opt("--tokenize", "-tok", help="13a, intl, none, char, zh.")] = "13a",
    lowercase: Annotated[bool, Opt("--lowercase", "-lc", help="Lower-case first.")] = False,
    quiet: Annotated[bool, Opt("--quiet", "-q", help="No progress messages.")] = False,
) -> None:
    """Rank metrics by ORANGE and by human correlation; Kendall tau between the orderings."""
    check_resampling(bootstrap=bootstrap, confidence=confidence, seed=seed)
    if stat not in STATISTICS:
        raise UserInputError(f"unknown statistic {stat!r}; expected one of {', '.join(STATISTICS)}")
    if max_items is not None and max_items < 2:
        raise UserInputError("--max-items must be at least 2")
    eps = parse_epsilon(epsilon)
    console = Console(stderr=True, quiet=quiet)
    specs, skipped = available(list(metrics or SEED_METRICS))
    if metrics and skipped:
        raise UserInputError(
            f"unknown metric(s) {', '.join(skipped)}; known: {', '.join(known_metrics())}"
        )
    for s in skipped:
        console.print(f"note: {s} is not available yet; left out", style="yellow")
    if bundled is None and judgments is None:
        bundled = "zhen"
    data, judged, inputs = load_task(
        bundled=bundled,
        judgments=judgments,
        fmt=fmt,
        refs=refs,
        systems=systems,
        systems_dir=systems_dir,
        systems_glob=systems_glob,
        exclude=exclude,
        seg_ids=seg_ids,
        id_base=id_base,
        lp=lp,
        rename=rename,
    )
    ref_paths = [Path(r["path"]) for r in inputs["refs"]]
    if len(ref_paths) < 2:
        raise UserInputError("ORANGE needs at least 2 references (--refs A B)")
    keep = (
        list(range(data.n_items))
        if max_items is None
        else list(range(min(max_items, data.n_items)))
    )
    data = data.select_items(keep)
    rated_refs = {}
    for p in ref_paths:
        name = p.name[: -len(p.suffix)] if p.suffix else p.name
        if name in judged.systems:
            rated_refs[name] = judged.scores[judged.systems.index(name)][keep]
    parsed = parse_specs(specs, tokenize=tokenize, lowercase=lowercase)
    require_varied(data.human)
    console.print(
        f"ORANGE ({oracle}) and {stat} of {len(parsed)} metrics on {data.n_items} segments",
        style="dim",
    )
    scores = score_segments(data, parsed)
    result = agreement(
        data,
        parsed,
        statistic=stat,
        grouping=grouping,
        oracle=oracle,
        ties=ties,
        n_resamples=bootstrap,
        confidence=confidence,
        seed=seed,
        epsilon=eps,
        reference_scores=rated_refs,
        scores=scores,
    )
    print_agreement(result_console(), result)
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        json_out = json_out or out_dir / "run.json"
    if json_out is not None:
        Run(
            "agree",
            inputs={**inputs, "n_segments": data.n_items, "systems": data.systems},
            settings={
                "metric_specs": specs,
                "skipped_specs": skipped,
                "statistic": stat,
                "grouping": grouping,
                "epsilon": "calibrated" if eps is None else eps,
                "oracle": oracle,
                "ties": ties,
                "bootstrap": bootstrap,
                "confidence": confidence,
                "max_items": max_items,
                "tokenize": tokenize,
                "lowercase": lowercase,
            },
            signatures={s.name: s.signature for s in scores},
            seeds={"bootstrap": seed},
            results={"agreement": result.to_dict()},
            outputs={"run_json": str(json_out)},
        ).save(json_out)
        console.print(f"wrote {json_out}", style="dim")


def print_agreement(console: Console, a: Agreement) -> None:
    """Both orderings side by side and the tau between them."""
    conf = f"{100 * a.confidence:g}%"
    label = LABELS.get(a.statistic, a.statistic)
    emit_note(
        console,
        f"ORANGE ({a.oracle}, ties {a.ties}; %, lower is better; # = rank) vs human "
        f"{label} (grouping {a.grouping}): "
        f"{a.n_systems} systems x {a.n_segments} segments, {a.n_refs} references",
    )
    t = Table()
    short = {"Kendall tau-b": "tau-b", "Pearson r": "r", "Spearman rho": "rho"}.get(label, label)
    for name in ("Metric", "ORANGE %", f"{conf} CI", "#", short, f"{conf} CI ", "# "):
        t.add_column(name, justify="left" if name == "Metric" else "right", no_wrap=True)
    for r in a.rows:
        t.add_row(
            r.metric,
            f"{100 * r.orange.value:.2f}",
            _ci(100 * r.orange.low, 100 * r.orange.high, 2),
            f"{r.orange_rank:g}",
            f"{r.correlation.value:.4f}",
            _ci(r.correlation.low, r.correlation.high, 3),
            f"{r.human_rank:g}",
        )
    emit_table(console, t)
    emit_note(
        console,
        f"Kendall tau-b between the two orderings: {a.tau.value:.3f} "
        f"[{_ci(a.tau.low, a.tau.high, 3)}] ({conf} percentile bootstrap over segments, "
        f"{a.n_resamples} resamples, seed {a.seed}; +1: ORANGE orders the metrics as humans do)",
    )
    for name, value in a.reference_orange.items():
        emit_note(
            console,
            f"human ORANGE of reference {name}: {100 * value:.2f}% (its mean rank by human "
            "score among the systems, / (N+1); 50% = no better than a system)",
        )


def _ci(lo: float, hi: float, digits: int) -> str:
    if lo != lo:
        return "-"
    return f"{lo:.{digits}f} - {hi:.{digits}f}"
