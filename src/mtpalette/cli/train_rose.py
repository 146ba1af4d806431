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

from mtpalette.api.train_run import RoseTrainRun
from mtpalette.cli import options as o
from mtpalette.sources.inputs import JudgedInputs


@o.with_options(RoseTrainRun, JudgedInputs, o.QUIET)
def train_rose_cmd(**options) -> None:
    """Train ROSE on human judgments; the model file is a metric spec (rose:@FILE)."""
    from rich.console import Console

    from mtpalette.api.train_run import run_train_rose
    from mtpalette.cli.console import result_console
    from mtpalette.progress import ConsoleFeedback

    run = o.fill(RoseTrainRun, options, inputs=o.fill(JudgedInputs, options))
    feedback = ConsoleFeedback(Console(stderr=True, quiet=options["quiet"]))
    model = run_train_rose(run, feedback).model
    out = result_console()
    what = f"ROSE-{run.objective}{' + POS' if run.pos else ''} ({run.lang}; {model.kernel} kernel, "
    out.print(f"{what}{model.loss} loss) written to {run.output}")
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
