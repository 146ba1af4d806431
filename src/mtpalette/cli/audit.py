"""``mtpalette audit``: can ORANGE be trusted on this data? How often machine output outranks
the held-out reference, by each metric and, where the references were rated, by humans.

Examples::

    # the bundled MQM TED zh-en data: 13 systems, references ref and refB rated by MQM too
    mtpalette audit --bundled zhen -m bleus:4 chrf rouge-l wer

    # metric part only, on any system outputs with two or more references
    mtpalette audit --refs refA.txt refB.txt --systems-dir outputs/ -m bleus:4 chrf \\
        --scores comet=comet.tsv

See :mod:`mtpalette.metaeval.audit` for the definitions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import numpy as np
from rich.console import Console
from rich.table import Table

from mtpalette.cli.console import emit_note, emit_table, result_console
from mtpalette.cli.correlate import load_task
from mtpalette.cli.external_opts import parse_scores
from mtpalette.cli.options import (
    HUMANS,
    INPUTS,
    BootstrapOpt,
    BundledOpt,
    ConfidenceOpt,
    ExcludeOpt,
    JsonOpt,
    JudgmentsOpt,
    LowercaseOpt,
    LpOpt,
    MetricsOpt,
    QuietOpt,
    RefsOpt,
    ScoresOpt,
    SeedOpt,
    SegIdsOpt,
    SystemsDirOpt,
    SystemsGlobOpt,
    SystemsOpt,
    TokenizeOpt,
    opt,
)
from mtpalette.cli.orange import _load_lists
from mtpalette.cli.progress import track
from mtpalette.cli.resampling import check_resampling
from mtpalette.errors import UserInputError
from mtpalette.io.plain import read_lines
from mtpalette.io.runfile import Run
from mtpalette.metaeval.audit import Audit, audit
from mtpalette.metaeval.candidates import CandidateLists
from mtpalette.metaeval.external import reference_names
from mtpalette.metrics import parse_specs
from mtpalette.stats.bootstrap import BootstrapCI

DEFAULT_METRICS = ["bleus:4", "chrf", "rouge-l", "wer"]


def audit_cmd(
    metrics: MetricsOpt = None,
    scores: ScoresOpt = None,
    tokenize: TokenizeOpt = "13a",
    lowercase: LowercaseOpt = False,
    bundled: BundledOpt = None,
    judgments: JudgmentsOpt = None,
    fmt: Annotated[str, opt("--format", panel=HUMANS, help="Judgment file format (auto).")] = (
        "auto"
    ),
    seg_ids: SegIdsOpt = None,
    lp: LpOpt = None,
    refs: RefsOpt = None,
    systems: SystemsOpt = None,
    systems_dir: SystemsDirOpt = None,
    systems_glob: SystemsGlobOpt = "*",
    exclude: ExcludeOpt = None,
    nbest: Annotated[
        Path | None, opt("--nbest", panel=INPUTS, help="n-best file (no judgments).")
    ] = None,
    bootstrap: BootstrapOpt = 1000,
    seed: SeedOpt = 12345,
    confidence: ConfidenceOpt = 0.95,
    json_out: JsonOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Audit ORANGE's premise: how often candidates outrank the held-out reference.

    Examples: `mtpalette audit --bundled zhen -m bleus:4 chrf wer`; `mtpalette audit -r refA.txt
    refB.txt --nbest nbest.txt -m bleus:4` (no judgments: the metric part only).
    """
    check_resampling(bootstrap=bootstrap, confidence=confidence, seed=seed)
    console = Console(stderr=True, quiet=quiet)
    cand_human = ref_human = None
    if bundled is not None or judgments is not None:
        data, judged, inputs = load_task(
            bundled=bundled,
            judgments=judgments,
            fmt=fmt,
            refs=refs,
            systems=systems,
            systems_dir=systems_dir,
            seg_ids=seg_ids,
            lp=lp,
            systems_glob=systems_glob,
            exclude=exclude,
        )
        ref_files = [Path(r["path"]).name for r in inputs["refs"]]
        lists = CandidateLists.from_systems(
            {s: data.hyps[k] for k, s in enumerate(data.systems)}, data.refs, ref_names=ref_files
        )
        cand_human = data.human.T.ravel()
        ref_human = np.full((len(data.refs), data.n_items), np.nan)
        for k, name in enumerate(ref_files):
            stem = name[: -len(Path(name).suffix)] if Path(name).suffix else name
            if stem in judged.systems:
                ref_human[k] = judged.scores[judged.systems.index(stem)]
        if np.isnan(ref_human).all():
            console.print("note: the references were not rated; metric part only", style="yellow")
            cand_human = ref_human = None
    else:
        if not refs:
            raise UserInputError("give --bundled, --judgments ..., or --refs with the candidates")
        lists, _ = _load_lists(
            refs,
            [read_lines(p) for p in refs],
            nbest,
            "auto",
            0,
            systems,
            systems_dir,
            systems_glob,
            exclude or [],
        )
        inputs = {"refs": [str(p) for p in refs]}
    specs = list(metrics or ([] if scores else DEFAULT_METRICS))
    if lists.n_refs < 2:
        if metrics or scores:
            raise UserInputError(
                "the metric part of the audit needs at least 2 references; with one, give no "
                "-m/--scores for the human part alone"
            )
        specs = []
    parsed = parse_specs(specs, tokenize=tokenize, lowercase=lowercase)
    parsed += parse_scores(scores, reference_names(lists, lists.n_refs))
    console.print(
        f"auditing {lists.n_segments} segments, {lists.n_refs} reference(s), "
        f"{len(parsed)} metric(s)",
        style="dim",
    )
    result = audit(
        lists,
        parsed,
        candidate_human=cand_human,
        reference_human=ref_human,
        n_resamples=bootstrap,
        confidence=confidence,
        seed=seed,
        progress=lambda ms: track(ms, console, "scoring with each reference held out"),
    )
    print_audit(result_console(), result)
    if json_out is not None:
        Run(
            "audit",
            inputs=inputs,
            settings={
                "metric_specs": specs,
                "score_files": list(scores or []),
                "bootstrap": bootstrap,
                "confidence": confidence,
                "tokenize": tokenize,
                "lowercase": lowercase,
            },
            signatures={m.spec: str(m.signature(n_refs=max(lists.n_refs - 1, 1))) for m in parsed},
            seeds={"bootstrap": seed},
            results={"audit": result.to_dict()},
            outputs={"run_json": str(json_out)},
        ).save(json_out)
        console.print(f"wrote {json_out}", style="dim")


def _pct(ci: BootstrapCI | None) -> str:
    if ci is None:
        return "-"
    if ci.low != ci.low:
        return f"{100 * ci.value:.1f}%"
    return f"{100 * ci.value:.1f}% [{100 * ci.low:.1f}, {100 * ci.high:.1f}]"


def print_audit(console: Console, a: Audit) -> None:
    title = (
        f"ORANGE premise audit: {a.n_segments} segments, {a.n_refs} reference(s) "
        f"({', '.join(a.ref_names)}), {a.n_candidates} candidates"
    )
    table = Table(title=title)
    cols = ("Metric", "outranked", "outranking cands", "humans >=", "humans >", "rated pairs")
    for col in cols:
        table.add_column(col, justify="left" if col == "Metric" else "right")
    for r in a.rows:
        table.add_row(
            r.metric,
            _pct(r.outranked),
            _pct(r.outranking_candidates),
            _pct(r.humans_agree),
            _pct(r.humans_prefer),
            str(r.n_outranking_rated) if r.humans_agree is not None else "-",
        )
    if a.human_outranked is not None:
        table.add_row("humans: some system >=", _pct(a.human_outranked), "-", "-", "-", "-")
        table.add_row("humans: some system >", _pct(a.human_outranked_strict), "-", "-", "-", "-")
    emit_table(console, table)
    emit_note(
        console,
        "outranked: share of (segment, held-out reference) cases where some candidate scores "
        "strictly better than the reference, both against the other references; humans >= "
        "(>): share of those outranking (candidate, reference) pairs that humans rate at least "
        f"as good as (better than) the reference; {a.n_resamples} bootstrap resamples over "
        f"segments (seed {a.seed}), {100 * a.confidence:g}% percentile intervals.",
    )
