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

from mtpalette.api.chunked import Chunking
from mtpalette.api.orange_run import OrangeOutputs, OrangeRun
from mtpalette.cli import options as o
from mtpalette.sources.inputs import CandidateInputs
from mtpalette.sources.limited import LimitedFeatures


@o.with_options(CandidateInputs, OrangeRun, OrangeOutputs, LimitedFeatures, Chunking, o.QUIET)
def orange(**options) -> None:
    """Rank the references among candidate translations (ORANGE, Lin and Och 2004).

    Examples: `mtpalette orange -r refA.txt refB.txt --systems-dir outputs/ -m 'bleus:1..9' wer
    --out-dir run/` (a pool of systems; the paper's grid: add nist per rouge-l
    'rouge-w:1.1..2.0/0.1' 'rouge-s:0..9,*'); `mtpalette orange -r refA.txt refB.txt --nbest
    nbest.txt -m bleus:4 --curve-step 64 --out-dir run/` (n-best lists);
    `mtpalette orange -r refA.txt -s A.txt B.txt --pivot pivot.txt` (Limited ORANGE: one
    reference).
    """
    from rich.console import Console

    from mtpalette.api.orange_run import run_orange
    from mtpalette.cli.tables import show_orange
    from mtpalette.progress import ConsoleFeedback

    console = Console(stderr=True, quiet=options["quiet"])
    o.refuse_unless(options, o.options_of(LimitedFeatures), "pivot")
    limited = o.fill(LimitedFeatures, options) if options["pivot"] is not None else None
    chunked = options["run_dir"] is not None or options["resume"]
    run = o.fill(
        OrangeRun, options, candidates=o.fill(CandidateInputs, options),
        limited=limited, chunking=o.fill(Chunking, options) if chunked else None,
        outputs=o.fill(OrangeOutputs, options),
    )  # fmt: skip
    show_orange(run_orange(run, ConsoleFeedback(console)), console)
