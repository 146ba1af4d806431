"""``mtpalette audit``: can ORANGE be trusted on this data? How often machine output outranks
the held-out reference, by each metric and, where the references were rated, by humans.

Examples::

    # the bundled MQM TED zh-en data: 13 systems, references ref and refB rated by MQM too
    mtpalette audit --bundled zhen -m bleus:4 chrf rouge-l wer

    # metric part only, on any system outputs with two or more references
    mtpalette audit --refs refA.txt refB.txt --systems-dir outputs/ -m bleus:4 chrf \\
        --scores comet=comet.tsv

See :mod:`mtpalette.metaeval.audit` for the definitions; the options become an
:class:`~mtpalette.api.audit_run.AuditRun`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from rich.console import Console

from mtpalette.api.audit_run import AuditRun, run_audit
from mtpalette.api.inputs import CandidateInputs, JudgedInputs
from mtpalette.cli import options as o
from mtpalette.cli.console import result_console
from mtpalette.cli.progress import ConsoleFeedback
from mtpalette.cli.tables import print_audit, show_written

FormatOpt = Annotated[str, o.opt("--format", panel=o.HUMANS, help="Judgment file format (auto).")]
NbestOpt = Annotated[
    Path | None, o.opt("--nbest", panel=o.INPUTS, help="n-best file (no judgments).")
]


def audit_cmd(
    metrics: o.MetricsOpt = None,
    scores: o.ScoresOpt = None,
    tokenize: o.TokenizeOpt = "13a",
    lowercase: o.LowercaseOpt = False,
    bundled: o.BundledOpt = None,
    mtme: o.MtmeOpt = None,
    human: o.HumanOpt = "mqm",
    mtme_ref: o.MtmeRefOpt = "refA",
    judgments: o.JudgmentsOpt = None,
    fmt: FormatOpt = "auto",
    seg_ids: o.SegIdsOpt = None,
    lp: o.LpOpt = None,
    refs: o.RefsOpt = None,
    systems: o.SystemsOpt = None,
    systems_dir: o.SystemsDirOpt = None,
    systems_glob: o.SystemsGlobOpt = "*",
    exclude: o.ExcludeOpt = None,
    nbest: NbestOpt = None,
    bootstrap: o.BootstrapOpt = 1000,
    seed: o.SeedOpt = 12345,
    confidence: o.ConfidenceOpt = 0.95,
    json_out: o.JsonOpt = None,
    quiet: o.QuietOpt = False,
) -> None:
    """Audit ORANGE's premise: how often candidates outrank the held-out reference.

    Examples: `mtpalette audit --bundled zhen -m bleus:4 chrf wer`; `mtpalette audit -r refA.txt
    refB.txt --nbest nbest.txt -m bleus:4` (no judgments: the metric part only).
    """
    console = Console(stderr=True, quiet=quiet)
    judged = JudgedInputs(
        bundled, judgments, fmt, refs, systems, systems_dir, systems_glob, exclude, seg_ids,
        lp=lp, mtme=mtme, human=human, mtme_ref=mtme_ref,
    )  # fmt: skip
    candidates = CandidateInputs(
        list(refs or []), nbest, "auto", 0, systems, systems_dir, systems_glob, exclude or []
    )
    run = AuditRun(
        judged, candidates, metrics, scores, tokenize, lowercase, bootstrap, seed, confidence,
        json_out,
    )  # fmt: skip
    result = run_audit(run, ConsoleFeedback(console))
    print_audit(result_console(), result.audit)
    show_written(console, result.outputs)
