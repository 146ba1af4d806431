"""Choosing ROSE's SVM settings by k-fold cross-validation on the training data.

Song and Cohn (2011) do not say how their SVMs' parameters were chosen; fixed defaults (C =
1, epsilon = 0.1) fit almost nothing on zero-inflated MQM penalties.
:func:`search_regression` and :func:`search_ranking` try a small grid - C, the SVR's epsilon
(on standardised targets), the kernel's gamma (and a polynomial's degree) - each setting
fitted on k - 1 folds and scored on the fold left out, the folds grouped by segment (scikit-
learn's ``GroupKFold``, shuffled with a seed) so that the translations of one segment never
sit on both sides. The score of a fold is the Pearson correlation of the model with the
human scores (regression) or the WMT12 Kendall tau of its preference pairs (ranking); a
setting's score is the mean over the folds. The best setting (the first of equals, in grid
order: small C first) is then fitted on all the training data by the caller. Settings given
by hand are left out of the grid.

References
----------
Hsu, Chang and Lin (2003), A practical guide to support vector classification (grid search by
cross-validation). Song and Cohn (2011) compare kernels (section 4.2, Table 3) but give no
tuning procedure.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.metrics.rose_model import FeatureExtractor, RoseModel
from mtpalette.stats.correlation import pearson, rr_kendall
from mtpalette.train.rose import SvmSettings, fit_ranking, fit_regression

#: the SVR's grid: C and epsilon (in standard deviations of the human scores)
REG_GRID: dict[str, tuple[float, ...]] = {
    "C": (0.001, 0.01, 0.1, 1.0),
    "epsilon": (0.1, 0.5, 1.0),
}
#: the ranking SVM's C
RANK_GRID: dict[str, tuple[float, ...]] = {"C": (0.001, 0.01, 0.1, 1.0)}
#: kernel gamma as multiples of 1 / n_features; polynomial degrees
GAMMA_FACTORS = (0.5, 1.0, 2.0)
DEGREES = (2, 3)
SEARCHED = ("C", "epsilon", "gamma", "degree")


@dataclass
class SearchResult:
    """The chosen settings and the cross-validated score of every setting tried."""

    settings: SvmSettings
    table: list[dict[str, Any]]
    folds: int
    seed: int
    statistic: str

    def to_info(self) -> dict[str, Any]:
        """What the model file records: ``{"cv": {...}}``."""
        best = {k: getattr(self.settings, k) for k in SEARCHED if k in self.table[0]["params"]}
        return {
            "cv": {
                "folds": self.folds,
                "grouped_by": "segment",
                "seed": self.seed,
                "statistic": self.statistic,
                "chosen": best,
                "grid": self.table,
            }
        }


def grid(
    settings: SvmSettings, kind: str, n_features: int, fixed: Iterable[str] = ()
) -> list[dict[str, Any]]:
    """The settings to try: every combination of the searched parameters not in ``fixed``.

    Examples
    --------
    >>> len(grid(SvmSettings(loss="epsilon"), "reg", 10))
    12
    >>> grid(SvmSettings(loss="squared"), "reg", 10, fixed=["C"])
    [{}]
    >>> [g["gamma"] for g in grid(SvmSettings(kernel="rbf"), "rank", 10, fixed=["C"])]
    [0.05, 0.1, 0.2]
    """
    fixed = set(fixed)
    unknown = fixed - set(SEARCHED)
    if unknown:
        raise ValueError(f"unknown searched parameter(s): {', '.join(sorted(unknown))}")
    axes: dict[str, tuple[Any, ...]] = {}
    base = REG_GRID if kind == "reg" else RANK_GRID
    if "C" not in fixed:
        axes["C"] = base["C"]
    if kind == "reg" and settings.loss in (None, "epsilon") and "epsilon" not in fixed:
        axes["epsilon"] = REG_GRID["epsilon"]
    if settings.kernel != "linear" and "gamma" not in fixed:
        axes["gamma"] = tuple(f / n_features for f in GAMMA_FACTORS)
    if settings.kernel == "poly" and "degree" not in fixed:
        axes["degree"] = DEGREES
    return [dict(zip(axes, combo, strict=True)) for combo in itertools.product(*axes.values())]


@dataclass(frozen=True)
class CrossValidation:
    """How the settings are chosen: ``folds`` folds of the rows, grouped by ``groups`` (the
    segment of each row, so that a segment's translations stay on one side) and shuffled with
    ``seed``; the parameters in ``fixed`` are not searched; ``on_setting`` is called with the
    row of each setting as it is scored."""

    groups: np.ndarray
    folds: int = 5
    seed: int = 0
    fixed: Iterable[str] = ()
    on_setting: Callable[[dict[str, Any]], None] | None = None

    def splits(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """Train/test row indices of the folds, whole groups on one side."""
        from sklearn.model_selection import GroupKFold

        n_groups = len(np.unique(self.groups))
        if self.folds < 2 or n_groups < self.folds:
            raise UserInputError(
                f"cross-validation needs at least 2 folds and a segment per fold "
                f"({self.folds} folds, {n_groups} segments)"
            )
        splitter = GroupKFold(n_splits=self.folds, shuffle=True, random_state=self.seed)
        return list(splitter.split(np.zeros(len(self.groups)), groups=self.groups))


def _search(
    kind: str,
    n_features: int,
    settings: SvmSettings,
    fit_and_score: Callable[[SvmSettings, np.ndarray, np.ndarray], float],
    cv: CrossValidation,
    statistic: str,
) -> SearchResult | None:
    """Every setting of :func:`grid` scored on every fold; None when nothing is searched."""
    candidates = grid(settings, kind, n_features, cv.fixed)
    if candidates == [{}]:
        return None
    splits = cv.splits()
    table = []
    for params in candidates:
        s = replace(settings, **params)
        scores = [fit_and_score(s, tr, te) for tr, te in splits]
        row = {
            "params": params,
            "mean": float(np.nanmean(scores)),
            "sd": float(np.nanstd(scores)),
            "folds": [float(x) for x in scores],
        }
        table.append(row)
        if cv.on_setting is not None:
            cv.on_setting(row)
    means = np.array([row["mean"] for row in table])
    if np.isnan(means).all():
        raise UserInputError("no setting gave a correlation on the held-out folds")
    best = table[int(np.nanargmax(means))]["params"]
    return SearchResult(replace(settings, **best), table, len(splits), cv.seed, statistic)


def search_regression(
    X: np.ndarray,
    y: np.ndarray,
    extractor: FeatureExtractor,
    settings: SvmSettings,
    cv: CrossValidation,
) -> SearchResult | None:
    """Cross-validated Pearson of ROSE-reg for each setting of :func:`grid`; None when every
    searched parameter is fixed.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((120, 30))
    >>> y = X[:, 0] + 0.5 * rng.standard_normal(120)
    >>> ex = FeatureExtractor()
    >>> cv = CrossValidation(groups=np.arange(120) // 4, folds=3)
    >>> res = search_regression(X, y, ex, SvmSettings(), cv)
    >>> len(res.table), res.statistic, res.table[-1]["mean"] > 0.5
    (12, 'pearson', True)
    """
    X, y = np.asarray(X, float), np.asarray(y, float)

    def fit_and_score(s: SvmSettings, tr: np.ndarray, te: np.ndarray) -> float:
        if np.ptp(y[tr]) == 0:
            return float("nan")
        model: RoseModel = fit_regression(X[tr], y[tr], extractor, settings=s)
        return pearson(y[te], model.score(X[te]))

    return _search("reg", X.shape[1], settings, fit_and_score, cv, "pearson")


def search_ranking(
    X: np.ndarray,
    pairs: tuple[np.ndarray, np.ndarray],
    extractor: FeatureExtractor,
    settings: SvmSettings,
    cv: CrossValidation,
) -> SearchResult | None:
    """Cross-validated WMT12 Kendall tau of ROSE-rank for each setting of :func:`grid`.

    ``X`` holds one row per translation, ``cv.groups`` its segment, and ``pairs`` =
    ``(better, worse)`` index the preference pairs (both translations of a pair belong to one
    segment, so a pair is on the side of its segment). None when every searched parameter is
    fixed.
    """
    X, groups = np.asarray(X, float), np.asarray(cv.groups)
    better, worse = (np.asarray(side) for side in pairs)
    if np.any(groups[better] != groups[worse]):
        raise UserInputError("a preference pair spans two segments")

    def fit_and_score(s: SvmSettings, tr: np.ndarray, te: np.ndarray) -> float:
        in_test = np.zeros(len(X), dtype=bool)
        in_test[te] = True
        train_pairs = ~in_test[better]
        test_pairs = in_test[better]
        if not train_pairs.any() or not test_pairs.any():
            return float("nan")
        model = fit_ranking(X[better[train_pairs]], X[worse[train_pairs]], extractor, settings=s)
        scores = model.score(X)
        return rr_kendall(scores[better[test_pairs]], scores[worse[test_pairs]])

    return _search("rank", X.shape[1], settings, fit_and_score, cv, "wmt12-kendall")
