"""ROSE trained as a run describes it: the rated translations (or WMT12's relative rankings)
read, a part held out, the features extracted, the SVM's settings chosen by grouped
cross-validation (:mod:`mtpalette.train.rose_search`), the model fitted
(:mod:`mtpalette.train.rose`) and evaluated on the held-out part."""

from __future__ import annotations

from typing import Any

from mtpalette.errors import UserInputError
from mtpalette.feedback import Feedback
from mtpalette.metrics.rose_model import FeatureExtractor, RoseModel
from mtpalette.train.rose import fit_ranking, fit_regression
from mtpalette.train.rose_data import pairs_in, preference_pairs, rankings_task, rated_features
from mtpalette.train.rose_search import CrossValidation, grid, search_ranking, search_regression


def searched(run: Any) -> str:
    """The settings the cross-validated search of ``run`` (a ROSE training run's
    description) chooses, in words (see :func:`mtpalette.api.train_run.searched`)."""
    names = list(grid(run.settings(), run.objective, 1, run.fixed())[0])
    return ", ".join(names) if names else "nothing (every parameter given)"


def trained_rose(run: Any, feedback: Feedback) -> RoseModel:
    """The model ``run`` (a ROSE training run's description) trains, its ``info`` holding
    the search and any held-out evaluation; a bar counts the settings cross-validated (with
    notes, each setting's score)."""
    from mtpalette.metaeval.segments import require_varied
    from mtpalette.train.split import holdout_split

    settings = run.settings()
    prefs = None
    if run.rankings is not None:
        i = run.inputs
        assert i.lp is not None and i.refs and i.systems_dir is not None  # validate() checked
        data, prefs = rankings_task(run.rankings, i.lp, i.refs, i.systems_dir)
    else:
        data = run.inputs.load(note=feedback.warn).data
        require_varied(data.human)  # a regression on constant scores learns nothing
    train, test = holdout_split(data, run.holdout)
    ex = FeatureExtractor(
        lang=run.lang, pos=run.pos, tokenize=run.tokenize, function_words=run.function_words
    )
    feedback.note(f"features of {train.n_rated} rated translations")
    with feedback.stage("features"):
        X, y, _, item = rated_features(train, ex)
    info: dict[str, Any] = {"trained_on": run.source(), "holdout": run.holdout}
    if run.objective == "rank":
        b, w = preference_pairs(y, item) if prefs is None else pairs_in(train, prefs)
        if not len(b):
            raise UserInputError("no pair of translations of one segment with different scores")
    feedback.note(f"choosing {searched(run)} by {run.folds}-fold CV")
    n_settings = len(grid(settings, run.objective, 1, run.fixed()))
    with feedback.counter(f"{run.folds}-fold CV", total=n_settings) as advance:

        def show(row: dict[str, Any]) -> None:
            params = " ".join(f"{k}={v:.4g}" for k, v in row["params"].items())
            feedback.note(f"  {params}: {row['mean']:.4f} ± {row['sd']:.4f}")
            advance()

        cv = CrossValidation(item, run.folds, run.seed, run.fixed(), show)
        if run.objective == "reg":
            found = search_regression(X, y, ex, settings, cv)
        else:
            found = search_ranking(X, (b, w), ex, settings, cv)
    if found is not None:
        settings = found.settings
        info.update(found.to_info())
    else:
        info["cv"] = {"skipped": "every searched parameter given by hand"}
    if run.objective == "reg":
        model = fit_regression(X, y, ex, settings=settings, info=info)
    else:
        model = fit_ranking(X[b], X[w], ex, settings=settings, info=info)
    if test is not None:
        held_out(model, test, ex, prefs)
    return model


def held_out(model: RoseModel, test, ex: FeatureExtractor, prefs) -> None:
    """The held-out segment Pearson (and WMT12 Kendall tau on rankings) in ``model.info``."""
    from mtpalette.stats.correlation import pearson, rr_kendall

    Xt, yt, _, _ = rated_features(test, ex)
    scores = model.score(Xt)
    model.info["test_pearson"] = pearson(yt, scores)
    model.info["test_items"] = test.n_items
    if prefs is not None:
        tb, tw = pairs_in(test, prefs)
        model.info["test_wmt12_tau"] = rr_kendall(scores[tb], scores[tw])
        model.info["test_pairs"] = int(len(tb))
