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

from pathlib import Path
from typing import Annotated

import typer

from mtpalette.cli import options as o

Opt = typer.Option


@o.with_options(o.TEXT, o.JUDGMENTS, o.SYSTEM_FILES, o.QUIET)
def train_blanc_cmd(
    objective: Annotated[str, Opt("--objective", help="human or orange.")] = "human",
    output: Annotated[Path, Opt("--output", "-o", help="Parameter file to write (JSON).")] = Path(
        "blanc.json"
    ),
    nbest: Annotated[Path | None, Opt("--nbest", help="n-best file (orange).")] = None,
    stat: Annotated[str, Opt("--stat", help="Correlation statistic.")] = "pearson",
    level: Annotated[str, Opt("--level", help="segment or system.")] = "segment",
    grouping: Annotated[str, Opt("--grouping", help="none, item or system.")] = "none",
    holdout: Annotated[float, Opt("--holdout", help="Fraction held out for testing.")] = 0.0,
    holdout_by: Annotated[
        str, Opt("--holdout-by", help="docs (whole documents, when known) or items.")
    ] = "docs",
    n: Annotated[int, Opt("--n", help="Largest skip-n-gram size (0: every size).")] = 4,
    gap: Annotated[str, Opt("--gap", help="Gap decay on max or cand gaps.")] = "max",
    pos: Annotated[
        bool, Opt("--pos", help="Train the POS weights inside each match, lw and lt (English).")
    ] = False,
    posmix: Annotated[
        bool, Opt("--posmix", help="Train the weight of the POS-tag scores mixed into P and R.")
    ] = False,
    positive_only: Annotated[
        bool, Opt("--positive-only", help="Correlate only strictly positive BLANC scores.")
    ] = False,
    restarts: Annotated[int, Opt("--restarts", help="Hill-climbing starts.")] = 4,
    seed: Annotated[int, Opt("--seed", help="Seed of the random restarts.")] = 0,
    max_evals: Annotated[int, Opt("--max-evals", help="Evaluation budget.")] = 600,
    **options,
) -> None:
    """Train BLANC (alpha, beta, gamma, bf) by hill-climbing with seeded restarts."""
    from rich.console import Console

    from mtpalette.api.train_run import BlancTrainRun, run_train_blanc
    from mtpalette.cli.console import result_console
    from mtpalette.progress import ConsoleFeedback
    from mtpalette.sources.inputs import CandidateInputs, JudgedInputs

    candidates = None
    if objective == "orange":
        candidates = o.fill(CandidateInputs, options, refs=options["refs"] or [], nbest=nbest)
    run = o.fill(
        BlancTrainRun, options, objective=objective, inputs=o.fill(JudgedInputs, options),
        candidates=candidates, output=output, statistic=stat, level=level, grouping=grouping,
        holdout=holdout, holdout_by=holdout_by, n=n, gap=gap, pos=pos, posmix=posmix,
        positive_only=positive_only, restarts=restarts, seed=seed, max_evals=max_evals,
    )  # fmt: skip
    result = run_train_blanc(run, ConsoleFeedback(Console(stderr=True, quiet=options["quiet"])))
    what = f"{stat} ({level})" if objective == "human" else "ORANGE (lower is better)"
    p = result.params
    out = result_console()
    out.print(
        f"BLANC trained on {what}: alpha={p.alpha:.4g} beta={p.beta:.4g} gamma={p.gamma:.4g} "
        f"bf={p.bf:.4g} n={p.n or '*'} gap={p.gap}"
        + (
            (f" lw={p.lw:.4g} lt={p.lt:.4g}" if p.tagged else " lw=off (tags did not help)")
            if pos
            else ""
        )
        + (f" posmix={p.posmix:.4g}" if posmix else "")
    )
    train, default = result.training.value, result.default_value
    out.print(f"  train: {train:.4f} (default parameters {default:.4f})")
    if result.test is not None:
        t = result.test
        out.print(f"  held-out: {t['value']:.4f} (default parameters {t['default_value']:.4f})")
    evaluations = result.training.climb.n_evaluations
    out.print(f"  {evaluations} evaluations, seed {seed}; written to {output}")
