"""``mtpalette train-rose``: fit ROSE (SVM regression or ranking) to human judgments.

Examples::

    # ROSE-reg with POS features on the bundled MQM TED zh-en data, 30% of the talks held out
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

import numpy as np
import typer
from rich.console import Console

from mtpalette.cli.correlate import load_task
from mtpalette.cli.resampling import check_resampling
from mtpalette.errors import UserInputError
from mtpalette.metaeval.correlation import SegmentData
from mtpalette.train.rose import FeatureExtractor, fit_ranking, fit_regression
from mtpalette.train.split import holdout_split

Opt = typer.Option


def rated_features(data: SegmentData, ex: FeatureExtractor):
    """Features and human scores of every rated translation, with their (system, item)."""
    rated = ~np.isnan(data.human)
    s, i = np.nonzero(rated)
    X = ex(
        [data.hyps[a][b] for a, b in zip(s, i, strict=True)], [[r[b] for r in data.refs] for b in i]
    )
    return X, data.human[rated], s, i


def preference_pairs(y: np.ndarray, item: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Indices (better, worse) of every pair of translations of one item with different human
    scores.

    Examples
    --------
    >>> preference_pairs(np.array([1.0, 0.0, 0.0, 2.0]), np.array([0, 0, 0, 1]))
    (array([0, 0]), array([1, 2]))
    """
    better, worse = [], []
    for it in np.unique(item):
        idx = np.flatnonzero(item == it)
        for a in range(len(idx)):
            for b in range(a + 1, len(idx)):
                p, q = idx[a], idx[b]
                if y[p] != y[q]:
                    better.append(p if y[p] > y[q] else q)
                    worse.append(q if y[p] > y[q] else p)
    return np.asarray(better, dtype=np.int64), np.asarray(worse, dtype=np.int64)


def train_rose_cmd(
    objective: Annotated[str, Opt("--objective", help="reg (SVR) or rank (ranking SVM).")] = "reg",
    output: Annotated[Path, Opt("--output", "-o", help="Model file to write.")] = Path("rose.json"),
    bundled: Annotated[str | None, Opt("--bundled", help="Bundled MQM TED: zhen or ende.")] = None,
    judgments: Annotated[Path | None, Opt("--judgments", "-j", help="Judgment file.")] = None,
    fmt: Annotated[str, Opt("--format", help="Judgment file format (auto).")] = "auto",
    lp: Annotated[str | None, Opt("--lp", help="Language pair (WMT files).")] = None,
    refs: Annotated[list[Path] | None, Opt("--refs", "-r", help="Reference files.")] = None,
    systems: Annotated[list[Path] | None, Opt("--systems", help="System output files.")] = None,
    systems_dir: Annotated[Path | None, Opt("--systems-dir", help="Folder of outputs.")] = None,
    seg_ids: Annotated[Path | None, Opt("--seg-ids", help="Line -> segment id file.")] = None,
    lang: Annotated[str, Opt("--lang", help="Target language (function words).")] = "en",
    pos: Annotated[bool, Opt("--pos", help="Add the POS features (English).")] = False,
    holdout: Annotated[float, Opt("--holdout", help="Fraction held out for testing.")] = 0.0,
    C: Annotated[float, Opt("--C", help="SVM soft-margin cost.")] = 1.0,
    seed: Annotated[int, Opt("--seed", help="Seed of the SVM solver.")] = 0,
    tokenize: Annotated[str, Opt("--tokenize", "-tok", help="13a, intl, none, char, zh.")] = "13a",
    quiet: Annotated[bool, Opt("--quiet", "-q", help="No messages.")] = False,
) -> None:
    """Train ROSE on human judgments; the model file is a metric spec (rose:@FILE)."""
    check_resampling(seed=seed)
    if not C > 0 or C == float("inf"):
        raise UserInputError(f"--C must be a positive number (got {C})")
    if objective not in ("reg", "rank"):
        raise UserInputError(f"unknown objective {objective!r}; expected reg or rank")
    data, _, _ = load_task(
        bundled=bundled,
        judgments=judgments,
        fmt=fmt,
        refs=refs,
        systems=systems,
        systems_dir=systems_dir,
        seg_ids=seg_ids,
        lp=lp,
    )
    train, test = holdout_split(data, holdout)
    console = Console(stderr=True, quiet=quiet)
    ex = FeatureExtractor(lang=lang, pos=pos, tokenize=tokenize)
    console.print(f"features of {train.n_rated} rated translations", style="dim")
    X, y, _, item = rated_features(train, ex)
    info = {"trained_on": str(judgments or f"bundled MQM TED {bundled}"), "holdout": holdout}
    if objective == "reg":
        model = fit_regression(X, y, ex, C=C, seed=seed, info=info)
    else:
        b, w = preference_pairs(y, item)
        if not len(b):
            raise UserInputError("no pair of translations of one segment with different scores")
        model = fit_ranking(X[b], X[w], ex, C=C, seed=seed, info=info)
    if test is not None:
        from mtpalette.stats.correlation import pearson

        Xt, yt, _, _ = rated_features(test, ex)
        model.info["test_pearson"] = pearson(yt, model.score(Xt))
        model.info["test_items"] = test.n_items
    model.save(output)
    out = Console()
    out.print(f"ROSE-{objective}{' + POS' if pos else ''} ({lang}) written to {output}")
    if test is not None:
        out.print(
            f"  held-out segment Pearson: {model.info['test_pearson']:.4f} ({test.n_items} items)"
        )
