"""``mtpalette audit``: can ORANGE be trusted on this data? How often machine output outranks
the held-out reference, by each metric and, where the references were rated, by humans.

Examples::

    # the bundled example zh-en data (invented): 8 systems, references ref and refB rated too
    mtpalette audit --bundled zhen -m bleus:4 chrf rouge-l wer

    # metric part only, on any system outputs with two or more references
    mtpalette audit --refs refA.txt refB.txt --systems-dir outputs/ -m bleus:4 chrf \\
        --scores comet=comet.tsv

See :mod:`mtpalette.metaeval.audit` for the definitions; the options become an
:class:`~mtpalette.api.audit_run.AuditRun`.
"""

from __future__ import annotations

from mtpalette.api.audit_run import AuditRun
from mtpalette.cli import options as o
from mtpalette.sources.inputs import CandidateInputs, JudgedInputs


@o.with_options(
    AuditRun, o.options_of(JudgedInputs, skip=("id_base",)), CandidateInputs, o.QUIET
)
def audit_cmd(**options) -> None:
    """Audit ORANGE's premise: how often candidates outrank the held-out reference.

    Examples: `mtpalette audit --bundled zhen -m bleus:4 chrf wer`; `mtpalette audit -r refA.txt
    refB.txt --nbest nbest.txt -m bleus:4` (no judgments: the metric part only).
    """
    from rich.console import Console

    from mtpalette.api.audit_run import run_audit
    from mtpalette.cli.console import result_console, show_written
    from mtpalette.cli.tables import print_audit, print_reference_agreement
    from mtpalette.progress import ConsoleFeedback

    console = Console(stderr=True, quiet=options["quiet"])
    judged = o.fill(JudgedInputs, options, id_base=None)
    candidates = o.fill(CandidateInputs, options, refs=list(options["refs"] or []))
    run = o.fill(AuditRun, options, judged=judged, candidates=candidates)
    result = run_audit(run, ConsoleFeedback(console))
    out = result_console()
    print_audit(out, result.audit)
    if result.references is not None:
        print_reference_agreement(out, result.references)
    show_written(console, result.outputs)
