"""``mtpalette train-blanc``: fit BLANC's parameters to human judgments or to ORANGE.

Examples::

    # segment-level Pearson with the MQM-style scores of the bundled example zh-en data,
    # the last 30% of the segments held out
    mtpalette train-blanc --bundled zhen --stat pearson --holdout 0.3 -o blanc-zhen.json

    # minimise ORANGE (leave-one-out) on system outputs with two references
    mtpalette train-blanc --objective orange --refs ref.txt refB.txt --systems-dir outputs/ \\
        -o blanc-orange.json

    # then use it wherever a metric spec goes
    mtpalette score -r ref.txt -i hyp.txt -m blanc:@blanc-zhen.json

    # with the part-of-speech feature inside each skip-n-gram match (our instance of eq. 6,
    # English; --posmix: the simpler mix of word and tag scores) and Lita et al.'s rule of
    # correlating only the strictly positive scores
    mtpalette train-blanc --bundled ende ... ; mtpalette train-blanc --judgments da.tsv \
        --refs ref.en --systems-dir outputs/ --pos --positive-only -o blanc-pos.json

The parameter file holds the parameters, the objective, the search seed and every evaluation.
"""

from __future__ import annotations

from mtpalette.api.train_run import BlancTrainRun
from mtpalette.cli import options as o
from mtpalette.sources.inputs import CandidateInputs, JudgedInputs


@o.with_options(
    BlancTrainRun, JudgedInputs, o.options_of(CandidateInputs, only=("nbest",)), o.QUIET
)
def train_blanc_cmd(**options) -> None:
    """Train BLANC (alpha, beta, gamma, bf) by hill-climbing with seeded restarts."""
    from rich.console import Console

    from mtpalette.api.train_run import run_train_blanc
    from mtpalette.cli.console import result_console
    from mtpalette.progress import ConsoleFeedback

    candidates = None
    if options["objective"] == "orange":
        candidates = o.fill(CandidateInputs, options, refs=options["refs"] or [])
    run = o.fill(
        BlancTrainRun, options, inputs=o.fill(JudgedInputs, options), candidates=candidates
    )
    result = run_train_blanc(run, ConsoleFeedback(Console(stderr=True, quiet=options["quiet"])))
    human = f"{run.statistic} ({run.level})"
    what = human if run.objective == "human" else "ORANGE (lower is better)"
    p = result.params
    out = result_console()
    out.print(
        f"BLANC trained on {what}: alpha={p.alpha:.4g} beta={p.beta:.4g} gamma={p.gamma:.4g} "
        f"bf={p.bf:.4g} n={p.n or '*'} gap={p.gap}"
        + (
            (f" lw={p.lw:.4g} lt={p.lt:.4g}" if p.tagged else " lw=off (tags did not help)")
            if run.pos
            else ""
        )
        + (f" posmix={p.posmix:.4g}" if run.posmix else "")
    )
    train, default = result.training.value, result.default_value
    out.print(f"  train: {train:.4f} (default parameters {default:.4f})")
    if result.test is not None:
        t = result.test
        out.print(f"  held-out: {t['value']:.4f} (default parameters {t['default_value']:.4f})")
    evaluations = result.training.climb.n_evaluations
    out.print(f"  {evaluations} evaluations, seed {run.seed}; written to {run.output}")
