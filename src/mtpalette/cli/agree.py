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

from rich.console import Console
from rich.table import Table

from mtpalette.cli.console import emit_note, emit_table, result_console
from mtpalette.cli.correlate import LABELS, load_task, parse_epsilon
from mtpalette.cli.options import (
    HUMANS,
    INPUTS,
    METRICS,
    BootstrapOpt,
    BundledOpt,
    ConfidenceOpt,
    ExcludeOpt,
    JsonOpt,
    JudgmentsOpt,
    LowercaseOpt,
    LpOpt,
    OutDirOpt,
    QuietOpt,
    RefsOpt,
    RenameOpt,
    SeedOpt,
    SegIdsOpt,
    SystemsDirOpt,
    SystemsGlobOpt,
    SystemsOpt,
    TokenizeOpt,
    opt,
)
from mtpalette.cli.resampling import check_resampling
from mtpalette.errors import UserInputError
from mtpalette.io.judgments import FORMATS
from mtpalette.io.runfile import Run
from mtpalette.metaeval.agreement import Agreement, agreement
from mtpalette.metaeval.correlation import require_varied, score_segments
from mtpalette.metaeval.orange import ORACLES, TIE_POLICIES
from mtpalette.metrics import known_metrics, parse_specs
from mtpalette.stats.correlation import GROUPINGS, STATISTICS

#: help section of the ORANGE and correlation settings
SETTINGS = "ORANGE and correlation"
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
        list[str] | None,
        opt("-m", "--metrics", panel=METRICS, help="Metric specs (default: the seeds')."),
    ] = None,
    tokenize: TokenizeOpt = "13a",
    lowercase: LowercaseOpt = False,
    bundled: BundledOpt = None,
    judgments: JudgmentsOpt = None,
    fmt: Annotated[str, opt("--format", panel=HUMANS, help="auto, " + ", ".join(FORMATS))] = (
        "auto"
    ),
    seg_ids: SegIdsOpt = None,
    id_base: Annotated[
        int | None, opt("--id-base", panel=HUMANS, help="Id of the first line.")
    ] = None,
    lp: LpOpt = None,
    rename: RenameOpt = None,
    refs: RefsOpt = None,
    systems: SystemsOpt = None,
    systems_dir: SystemsDirOpt = None,
    systems_glob: SystemsGlobOpt = "*",
    exclude: ExcludeOpt = None,
    max_items: Annotated[
        int | None, opt("--max-items", panel=INPUTS, help="First N segments only.")
    ] = None,
    stat: Annotated[str, opt("--stat", panel=SETTINGS, help=", ".join(STATISTICS))] = "kendall",
    grouping: Annotated[str, opt("--grouping", panel=SETTINGS, help=", ".join(GROUPINGS))] = "none",
    epsilon: Annotated[
        str | None, opt("--epsilon", panel=SETTINGS, help="acc-eq/tau-eq threshold or 'cal'.")
    ] = None,
    oracle: Annotated[str, opt("--oracle", panel=SETTINGS, help=" or ".join(ORACLES))] = (
        "leave-one-out"
    ),
    ties: Annotated[str, opt("--ties", panel=SETTINGS, help=", ".join(TIE_POLICIES))] = "mid",
    bootstrap: BootstrapOpt = 1000,
    seed: SeedOpt = 12345,
    confidence: ConfidenceOpt = 0.95,
    out_dir: OutDirOpt = None,
    json_out: JsonOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Rank metrics by ORANGE and by human correlation; Kendall tau between the orderings.

    Example: `mtpalette agree --bundled zhen -m 'bleus:1..4' chrf wer rouge-l --stat kendall`.
    """
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
