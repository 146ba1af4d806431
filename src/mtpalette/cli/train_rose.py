"""``mtpalette train-rose``: fit ROSE (SVM regression or ranking) to human judgments.

By default the paper's machines: epsilon-insensitive SVR (``--loss epsilon``) on standardised
human scores and a hinge-loss ranking SVM (``--loss hinge``), linear kernel; ``--kernel
poly|rbf`` gives the paper's other kernels (Table 3), exact or Nystroem-approximated
(``--approx``). C, epsilon and the kernel's gamma (and degree) are chosen by ``--folds``-fold
cross-validation on the training data, folds grouped by segment
(:mod:`mtpalette.train.rose_search`); each one given by hand (``--C``, ``--epsilon``,
``--gamma``, ``--degree``) is left out of the search. The model file records every setting's
cross-validated score.

Examples::

    # ROSE-rank with an RBF kernel on WMT12 relative rankings (de-en), the last 30% of the
    # segments held out and scored with WMT12's Kendall tau
    W=wmt12/wmt_data; P=$W/wmt12-data/plain
    mtpalette train-rose --objective rank --kernel rbf --rankings \
        $W/wmt12-manual-evaluation/wmt12.RNK_results.csv --lp de-en \
        --refs $P/references/newstest2012-ref.en \
        --systems-dir $P/system-outputs/newstest2012/de-en --holdout 0.3 -o rose-rbf.json

    # ROSE-reg with POS features on the bundled example zh-en data, 30% of the documents held out
    mtpalette train-rose --bundled zhen --pos --holdout 0.3 -o rose-zhen.json

    # ROSE-rank on the preference pairs implied by the scores (pairs with different scores)
    mtpalette train-rose --objective rank --judgments da.tsv --refs ref.txt \\
        --systems-dir outputs/ --lang de -o rose-de.json

    # then use it wherever a metric spec goes
    mtpalette score -r ref.txt -i hyp.txt -m rose:@rose-zhen.json
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mtpalette.cli import options as o

Opt = typer.Option


@o.with_options(o.TEXT, o.JUDGMENTS, o.SYSTEM_FILES, o.QUIET)
def train_rose_cmd(
    objective: Annotated[str, Opt("--objective", help="reg (SVR) or rank (ranking SVM).")] = "reg",
    output: Annotated[Path, Opt("--output", "-o", help="Model file to write.")] = Path("rose.json"),
    rankings: Annotated[
        Path | None, Opt("--rankings", help="WMT12 relative rankings (RNK_results.csv).")
    ] = None,
    lang: Annotated[str, Opt("--lang", help="Target language (function words).")] = "en",
    function_words: Annotated[
        str, Opt("--function-words", help="fw100 (100 words, the paper) or stopwordsiso.")
    ] = "fw100",
    pos: Annotated[bool, Opt("--pos", help="Add the POS features (English).")] = False,
    holdout: Annotated[float, Opt("--holdout", help="Fraction held out for testing.")] = 0.0,
    loss: Annotated[
        str | None, Opt("--loss", help="reg: epsilon (default) or squared; rank: hinge or squared.")
    ] = None,
    kernel: Annotated[str, Opt("--kernel", help="linear, poly or rbf.")] = "linear",
    epsilon: Annotated[
        float | None,
        Opt(
            "--epsilon",
            help="SVR tube in standard deviations of the human scores (default: chosen by "
            "cross-validation; 0 with --loss squared).",
        ),
    ] = None,
    degree: Annotated[
        int | None, Opt("--degree", help="Polynomial kernel degree (default: chosen by CV).")
    ] = None,
    gamma: Annotated[
        float | None, Opt("--gamma", help="Kernel gamma (default: chosen by CV).")
    ] = None,
    approx: Annotated[
        str, Opt("--approx", help="auto, exact or nystroem (kernel machines).")
    ] = "auto",
    components: Annotated[int, Opt("--components", help="Nystroem landmarks.")] = 300,
    C: Annotated[
        float | None, Opt("--C", help="SVM soft-margin cost (default: chosen by CV).")
    ] = None,
    folds: Annotated[
        int, Opt("--folds", help="Cross-validation folds (grouped by segment) of the search.")
    ] = 5,
    seed: Annotated[
        int, Opt("--seed", help="Seed of the SVM solver, sampling and the CV folds.")
    ] = 0,
    **options,
) -> None:
    """Train ROSE on human judgments; the model file is a metric spec (rose:@FILE)."""
    from rich.console import Console

    from mtpalette.api.train_run import RoseTrainRun, run_train_rose
    from mtpalette.cli.console import result_console
    from mtpalette.progress import ConsoleFeedback
    from mtpalette.sources.inputs import JudgedInputs

    run = o.fill(
        RoseTrainRun, options, objective=objective, inputs=o.fill(JudgedInputs, options),
        rankings=rankings, output=output, lang=lang, function_words=function_words, pos=pos,
        holdout=holdout, loss=loss, kernel=kernel, epsilon=epsilon, degree=degree, gamma=gamma,
        approx=approx, components=components, C=C, folds=folds, seed=seed,
    )  # fmt: skip
    feedback = ConsoleFeedback(Console(stderr=True, quiet=options["quiet"]))
    model = run_train_rose(run, feedback).model
    out = result_console()
    what = f"ROSE-{objective}{' + POS' if pos else ''} ({lang}; {model.kernel} kernel, "
    out.print(f"{what}{model.loss} loss) written to {output}")
    if "test_pearson" in model.info:
        out.print(
            f"  held-out segment Pearson: {model.info['test_pearson']:.4f} "
            f"({model.info['test_items']} items)"
        )
    if "test_wmt12_tau" in model.info:
        out.print(
            f"  held-out WMT12 Kendall tau: {model.info['test_wmt12_tau']:.4f} "
            f"({model.info['test_pairs']} pairs)"
        )
