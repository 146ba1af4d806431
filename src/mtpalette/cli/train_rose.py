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

from mtpalette.api.inputs import load_task
from mtpalette.cli.options import TokenizeOpt
from mtpalette.cli.resampling import check_resampling
from mtpalette.errors import UserInputError
from mtpalette.metaeval.correlation import SegmentData
from mtpalette.train.rose import FeatureExtractor, SvmSettings, fit_ranking, fit_regression
from mtpalette.train.rose_search import grid, search_ranking, search_regression
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


def rankings_task(
    path: Path, lp: str, refs: list[Path], systems_dir: Path
) -> tuple[SegmentData, tuple[np.ndarray, list[str], list[str]]]:
    """WMT12 relative rankings of ``lp`` with the judged translations: a
    :class:`SegmentData` whose human score of a translation is the share of its strict
    pairwise comparisons it won (ties left out; ROSE-reg's target), and the preference pairs
    ``(line, better, worse)`` themselves (ROSE-rank's training data)."""
    from mtpalette.io.judgments import read_wmt12_rankings
    from mtpalette.io.plain import read_lines

    rr = read_wmt12_rankings(path, lp)
    pairs = rr.pairs()
    if not len(pairs.line):
        raise UserInputError(f"no strict preference in the {lp} rankings", path=str(path))
    if not systems_dir.is_dir():
        raise UserInputError(f"--systems-dir {systems_dir} is not a folder")
    files = {f.name: f for f in systems_dir.iterdir() if f.is_file()}
    systems = sorted(set(pairs.better) | set(pairs.worse))
    found: dict[str, Path] = {}
    for name in systems:
        hits = [f for n, f in files.items() if n == name or n.endswith("." + name)]
        if len(hits) == 1:
            found[name] = hits[0]
    missing = [x for x in systems if x not in found]
    if missing:
        raise UserInputError(
            f"no single output file in {systems_dir} for the judged system(s) "
            f"{', '.join(missing)} (expected a name ending in .SYSTEM)"
        )
    ref_lines = [read_lines(p) for p in refs]
    outs = {x: read_lines(found[x]) for x in systems}
    lines = sorted(set(pairs.line.tolist()))
    n_lines = len(ref_lines[0])
    if lines[-1] >= n_lines or any(len(o) != n_lines for o in outs.values()):
        raise UserInputError(
            f"the rankings reach line {lines[-1] + 1}; references and outputs must all have "
            f"the same number of lines (the reference has {n_lines})"
        )
    row = {x: k for k, x in enumerate(systems)}
    col = {line: k for k, line in enumerate(lines)}
    wins = np.zeros((len(systems), len(lines)))
    seen = np.zeros((len(systems), len(lines)))
    for line, b, w in zip(pairs.line.tolist(), pairs.better, pairs.worse, strict=True):
        wins[row[b], col[line]] += 1
        seen[row[b], col[line]] += 1
        seen[row[w], col[line]] += 1
    human = np.where(seen > 0, wins / np.where(seen > 0, seen, 1), np.nan)
    data = SegmentData(
        systems,
        human,
        [[outs[x][i] for i in lines] for x in systems],
        [[r[i] for i in lines] for r in ref_lines],
        lines,
        {"format": "wmt12-rr"},
    )
    return data, (pairs.line, pairs.better, pairs.worse)


def _pairs_in(data: SegmentData, prefs) -> tuple[np.ndarray, np.ndarray]:
    """Flat indices (into :func:`rated_features` rows) of the better and worse translation of
    every preference pair whose segment is in ``data``."""
    rated = ~np.isnan(data.human)
    s, i = np.nonzero(rated)
    index = {(int(a), int(b)): k for k, (a, b) in enumerate(zip(s, i, strict=True))}
    row = {x: k for k, x in enumerate(data.systems)}
    col = {int(line): k for k, line in enumerate(data.items)}
    better, worse = [], []
    for line, b, w in zip(*prefs, strict=True):
        c = col.get(int(line))
        if c is not None:
            better.append(index[(row[b], c)])
            worse.append(index[(row[w], c)])
    return np.asarray(better, dtype=np.int64), np.asarray(worse, dtype=np.int64)


def _searched(settings: SvmSettings, objective: str, fixed: list[str]) -> str:
    names = list(grid(settings, objective, 1, fixed)[0])
    return ", ".join(names) if names else "nothing (every parameter given)"


def _print_setting(console: Console, row: dict) -> None:
    params = " ".join(f"{k}={v:.4g}" for k, v in row["params"].items())
    console.print(f"  {params}: {row['mean']:.4f} ± {row['sd']:.4f}", style="dim")


def train_rose_cmd(
    objective: Annotated[str, Opt("--objective", help="reg (SVR) or rank (ranking SVM).")] = "reg",
    output: Annotated[Path, Opt("--output", "-o", help="Model file to write.")] = Path("rose.json"),
    bundled: Annotated[str | None, Opt("--bundled", help="Bundled MQM TED: zhen or ende.")] = None,
    judgments: Annotated[Path | None, Opt("--judgments", "-j", help="Judgment file.")] = None,
    rankings: Annotated[
        Path | None, Opt("--rankings", help="WMT12 relative rankings (RNK_results.csv).")
    ] = None,
    fmt: Annotated[str, Opt("--format", help="Judgment file format (auto).")] = "auto",
    lp: Annotated[str | None, Opt("--lp", help="Language pair (WMT files).")] = None,
    refs: Annotated[list[Path] | None, Opt("--refs", "-r", help="Reference files.")] = None,
    systems: Annotated[list[Path] | None, Opt("--systems", help="System output files.")] = None,
    systems_dir: Annotated[Path | None, Opt("--systems-dir", help="Folder of outputs.")] = None,
    seg_ids: Annotated[Path | None, Opt("--seg-ids", help="Line -> segment id file.")] = None,
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
    tokenize: TokenizeOpt = "13a",
    quiet: Annotated[bool, Opt("--quiet", "-q", help="No messages.")] = False,
) -> None:
    """Train ROSE on human judgments; the model file is a metric spec (rose:@FILE)."""
    check_resampling(seed=seed)
    if C is not None and (not C > 0 or C == float("inf")):
        raise UserInputError(f"--C must be a positive number (got {C})")
    if objective not in ("reg", "rank"):
        raise UserInputError(f"unknown objective {objective!r}; expected reg or rank")
    given = {"C": C, "epsilon": epsilon, "gamma": gamma, "degree": degree}
    fixed = [k for k, v in given.items() if v is not None]
    settings = SvmSettings(
        loss=loss,
        kernel=kernel,
        C=1.0 if C is None else C,
        epsilon=epsilon,
        degree=2 if degree is None else degree,
        gamma=gamma,
        approx=approx,
        components=components,
        seed=seed,
    ).checked(objective)
    prefs = None
    if rankings is not None:
        if bundled or judgments or systems:
            raise UserInputError("--rankings replaces --bundled, --judgments and --systems")
        if lp is None or not refs or systems_dir is None:
            raise UserInputError("--rankings needs --lp, --refs and --systems-dir")
        data, prefs = rankings_task(rankings, lp, refs, systems_dir)
    else:
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
    ex = FeatureExtractor(lang=lang, pos=pos, tokenize=tokenize, function_words=function_words)
    console.print(f"features of {train.n_rated} rated translations", style="dim")
    X, y, _, item = rated_features(train, ex)
    source = rankings or judgments or f"bundled MQM TED {bundled}"
    info = {"trained_on": str(source) + (f" ({lp})" if lp else ""), "holdout": holdout}
    search_kw = dict(
        fixed=fixed, folds=folds, seed=seed, on_setting=lambda row: _print_setting(console, row)
    )
    if objective == "reg":
        console.print(
            f"choosing {_searched(settings, objective, fixed)} by {folds}-fold CV", style="dim"
        )
        found = search_regression(X, y, item, ex, settings, **search_kw)
    else:
        b, w = preference_pairs(y, item) if prefs is None else _pairs_in(train, prefs)
        if not len(b):
            raise UserInputError("no pair of translations of one segment with different scores")
        console.print(
            f"choosing {_searched(settings, objective, fixed)} by {folds}-fold CV", style="dim"
        )
        found = search_ranking(X, b, w, item, ex, settings, **search_kw)
    if found is not None:
        settings = found.settings
        info.update(found.to_info())
    else:
        info["cv"] = {"skipped": "every searched parameter given by hand"}
    if objective == "reg":
        model = fit_regression(X, y, ex, settings=settings, info=info)
    else:
        model = fit_ranking(X[b], X[w], ex, settings=settings, info=info)
    if test is not None:
        from mtpalette.stats.correlation import pearson, rr_kendall

        Xt, yt, _, _ = rated_features(test, ex)
        scores = model.score(Xt)
        model.info["test_pearson"] = pearson(yt, scores)
        model.info["test_items"] = test.n_items
        if prefs is not None:
            tb, tw = _pairs_in(test, prefs)
            model.info["test_wmt12_tau"] = rr_kendall(scores[tb], scores[tw])
            model.info["test_pairs"] = int(len(tb))
    model.save(output)
    out = Console()
    what = f"ROSE-{objective}{' + POS' if pos else ''} ({lang}; {model.kernel} kernel, "
    out.print(f"{what}{model.loss} loss) written to {output}")
    if test is not None:
        out.print(
            f"  held-out segment Pearson: {model.info['test_pearson']:.4f} ({test.n_items} items)"
        )
        if "test_wmt12_tau" in model.info:
            out.print(
                f"  held-out WMT12 Kendall tau: {model.info['test_wmt12_tau']:.4f} "
                f"({model.info['test_pairs']} pairs)"
            )
