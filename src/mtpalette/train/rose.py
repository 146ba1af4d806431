"""Training ROSE (Song and Cohn, 2011): a linear metric over the features of
:mod:`mtpalette.metrics.rose_features`, fitted by a support vector machine.

* ROSE-reg: linear support vector regression on absolute human scores (DA, MQM);
* ROSE-rank: a ranking SVM (Joachims, 2002) - a linear SVM classifying the feature differences
  of human preference pairs (better minus worse, and the reverse as the other class).

Features are standardised (mean 0, scale 1 on the training data) and the model stores the
scaler with the weights, so a saved model scores new text by one dot product
(``rose:@model.json``). scikit-learn's ``LinearSVR``/``LinearSVC`` replace SVM-light.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.io.runfile import read_json
from mtpalette.metrics.rose_features import feature_names, features
from mtpalette.text.tokenizers import get_tokenizer


@dataclass
class RoseModel:
    """A linear ROSE model with its feature set and scaler."""

    kind: str
    lang: str
    pos: bool
    tokenize: str
    lowercase: bool
    features: list[str]
    mean: list[float]
    scale: list[float]
    weights: list[float]
    bias: float = 0.0
    info: dict[str, Any] = field(default_factory=dict)

    def score(self, X: np.ndarray) -> np.ndarray:
        z = (np.asarray(X, dtype=float) - np.asarray(self.mean)) / np.asarray(self.scale)
        return z @ np.asarray(self.weights) + self.bias

    def to_dict(self) -> dict[str, Any]:
        from mtpalette import __version__

        return {"metric": "rose", "version": __version__, **asdict(self)}

    def save(self, path: str | Path) -> None:
        from mtpalette.io.runfile import write_json

        write_json(path, self.to_dict())

    def digest(self) -> str:
        return hashlib.sha256(json.dumps(asdict(self), sort_keys=True).encode()).hexdigest()[:16]

    @classmethod
    def load(cls, path: str | Path) -> RoseModel:
        p = Path(path)
        obj = read_json(p, "a ROSE model (JSON)")
        if not isinstance(obj, dict) or obj.get("metric") != "rose":
            raise UserInputError('not a ROSE model (expected "metric": "rose")', path=str(p))
        fields = {k: obj[k] for k in cls.__dataclass_fields__ if k in obj}
        try:
            model = cls(**fields)
        except TypeError as exc:
            raise UserInputError(f"incomplete ROSE model: {exc}", path=str(p)) from None
        if model.features != feature_names(model.pos):
            raise UserInputError("the model's feature list is not this version's", path=str(p))
        return model


class FeatureExtractor:
    """ROSE features of (candidate, references) text, each distinct sentence tokenized and
    tagged once."""

    def __init__(
        self, *, lang: str = "en", pos: bool = False, tokenize: str = "13a", lowercase: bool = True
    ) -> None:
        self.lang, self.pos, self.lowercase = lang, pos, lowercase
        self.tokenize = tokenize
        self._tok = get_tokenizer(tokenize)
        self._cache: dict[str, list[str]] = {}
        self.tagger = None
        if pos:
            from mtpalette.text.pos import load_tagger

            self.tagger = load_tagger(lang)

    def tokens(self, text: str) -> list[str]:
        out = self._cache.get(text)
        if out is None:
            out = self._tok(text.lower() if self.lowercase else text)
            self._cache[text] = out
        return out

    def __call__(self, hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> np.ndarray:
        """``(len(hyps), n_features)``; ``refs[i]``: the references of ``hyps[i]``."""
        rows = [
            features(
                self.tokens(h),
                [self.tokens(r) for r in rs],
                lang=self.lang,
                pos=self.pos,
                tagger=self.tagger,
            )
            for h, rs in zip(hyps, refs, strict=True)
        ]
        return np.asarray(rows, dtype=float).reshape(len(hyps), len(feature_names(self.pos)))


def _scaler(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    mean = X.mean(axis=0)
    scale = X.std(axis=0)
    return mean, np.where(scale > 0, scale, 1.0)


def fit_regression(
    X: np.ndarray,
    y: np.ndarray,
    extractor: FeatureExtractor,
    *,
    C: float = 1.0,
    seed: int = 0,
    info: dict[str, Any] | None = None,
) -> RoseModel:
    """ROSE-reg: linear SVR of the human scores on the standardised features."""
    from sklearn.svm import LinearSVR

    mean, scale = _scaler(X)
    svr = LinearSVR(
        C=C,
        epsilon=0.0,
        loss="squared_epsilon_insensitive",
        dual=False,
        max_iter=20000,
        random_state=seed,
    )
    svr.fit((X - mean) / scale, y)
    return _model(
        "reg",
        extractor,
        mean,
        scale,
        svr.coef_,
        float(svr.intercept_[0]),
        {"C": C, "seed": seed, "n_train": int(len(y)), **(info or {})},
    )


def fit_ranking(
    X_better: np.ndarray,
    X_worse: np.ndarray,
    extractor: FeatureExtractor,
    *,
    C: float = 1.0,
    seed: int = 0,
    info: dict[str, Any] | None = None,
) -> RoseModel:
    """ROSE-rank: a linear SVM separating better-minus-worse feature differences from their
    negations (no intercept); the score is the learned direction."""
    from sklearn.svm import LinearSVC

    mean, scale = _scaler(np.vstack([X_better, X_worse]))
    d = (X_better - X_worse) / scale
    Xd = np.vstack([d, -d])
    yd = np.r_[np.ones(len(d)), -np.ones(len(d))]
    svc = LinearSVC(C=C, fit_intercept=False, dual=False, max_iter=20000, random_state=seed)
    svc.fit(Xd, yd)
    return _model(
        "rank",
        extractor,
        mean,
        scale,
        svc.coef_[0],
        0.0,
        {"C": C, "seed": seed, "n_pairs": int(len(d)), **(info or {})},
    )


def _model(kind, ex: FeatureExtractor, mean, scale, w, b, info) -> RoseModel:
    return RoseModel(
        kind,
        ex.lang,
        ex.pos,
        ex.tokenize,
        ex.lowercase,
        feature_names(ex.pos),
        mean.tolist(),
        scale.tolist(),
        np.asarray(w).tolist(),
        b,
        info,
    )
