"""A trained ROSE model and the features it reads: what ``rose:@model.json`` needs to score.

:class:`RoseModel` holds the feature set, the feature scaler and either linear weights or a
kernel expansion (support vectors or Nystroem landmarks with their coefficients);
:class:`FeatureExtractor` turns (candidate, references) text into ROSE's feature rows
(:mod:`mtpalette.metrics.rose_features`). Training (:mod:`mtpalette.train.rose`) writes these
models; this module does not know how they were fitted, so ``metrics/`` never imports
``train/``.

References
----------
Song and Cohn (2011), Regression and ranking based optimisation for sentence level MT
evaluation, WMT, sections 3.2 and 4.2.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.io.jsonfile import read_json
from mtpalette.metrics.rose_features import FUNCTION_WORDS, feature_names, features
from mtpalette.text.tokenizers import get_tokenizer

KERNELS = ("linear", "poly", "rbf")


def kernel_matrix(Z: np.ndarray, V: np.ndarray, kernel: str, params: dict[str, Any]) -> np.ndarray:
    """``K(z_i, v_j)`` for rows of ``Z`` and ``V``.

    Examples
    --------
    >>> Z, V = np.array([[1.0, 0.0]]), np.array([[1.0, 0.0], [0.0, 2.0]])
    >>> kernel_matrix(Z, V, "poly", {"gamma": 0.5, "degree": 2, "coef0": 1.0}).tolist()
    [[2.25, 1.0]]
    >>> kernel_matrix(Z, V, "rbf", {"gamma": 0.5}).round(4).tolist()  # exp(-0.5 * 5)
    [[1.0, 0.0821]]
    """
    Z, V = np.asarray(Z, dtype=float), np.asarray(V, dtype=float)
    if kernel == "linear":
        return Z @ V.T
    gamma = float(params["gamma"])
    if kernel == "poly":
        return (gamma * (Z @ V.T) + float(params["coef0"])) ** int(params["degree"])
    if kernel == "rbf":
        d2 = (Z * Z).sum(1)[:, None] + (V * V).sum(1)[None, :] - 2 * (Z @ V.T)
        return np.exp(-gamma * np.maximum(d2, 0.0))
    raise UserInputError(f"unknown kernel {kernel!r}; expected {', '.join(KERNELS)}")


@dataclass
class RoseModel:
    """A ROSE model: its feature set, scaler, and either linear weights or a kernel expansion.

    ``loss``, ``kernel`` and ``function_words`` record how it was trained (model files written
    before they existed load as ``squared``, ``linear`` and ``stopwordsiso``).
    """

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
    loss: str = "squared"
    kernel: str = "linear"
    function_words: str = "stopwordsiso"
    kernel_params: dict[str, Any] = field(default_factory=dict)
    vectors: list[list[float]] = field(default_factory=list)
    coef: list[float] = field(default_factory=list)

    def standardise(self, X: np.ndarray) -> np.ndarray:
        return (np.asarray(X, dtype=float) - np.asarray(self.mean)) / np.asarray(self.scale)

    def score(self, X: np.ndarray) -> np.ndarray:
        """The model's value for each feature row of ``X``."""
        z = self.standardise(X)
        if self.kernel == "linear":
            return z @ np.asarray(self.weights) + self.bias
        V, coef = np.asarray(self.vectors, dtype=float), np.asarray(self.coef, dtype=float)
        out = np.empty(len(z))
        for lo in range(0, len(z), 2048):  # bounded memory for long inputs
            out[lo : lo + 2048] = (
                kernel_matrix(z[lo : lo + 2048], V, self.kernel, self.kernel_params) @ coef
            )
        return out + self.bias

    def to_dict(self) -> dict[str, Any]:
        from mtpalette._version import __version__

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
        for key in ("features", "mean", "scale", "weights", "vectors", "coef"):
            if not isinstance(getattr(model, key), list):
                raise UserInputError(f'"{key}" must be a list', path=str(p))
        if not all(isinstance(v, list) for v in model.vectors):
            raise UserInputError('"vectors" must be a list of lists', path=str(p))
        if model.features != feature_names(model.pos):
            raise UserInputError("the model's feature list is not this version's", path=str(p))
        if model.kernel not in KERNELS:
            raise UserInputError(f"unknown kernel {model.kernel!r} in the model", path=str(p))
        if model.function_words not in FUNCTION_WORDS:
            raise UserInputError(
                f"unknown function-word list {model.function_words!r} in the model", path=str(p)
            )
        n = len(model.features)
        if model.kernel == "linear":
            ok = len(model.weights) == n
        else:
            ok = len(model.vectors) == len(model.coef) > 0 and all(
                len(v) == n for v in model.vectors
            )
        if not ok or len(model.mean) != n or len(model.scale) != n:
            raise UserInputError(
                "the model's weights or vectors do not match its features", path=str(p)
            )
        numbers = {"mean": model.mean, "scale": model.scale, "weights": model.weights,
                   "coef": model.coef, "bias": [model.bias],
                   "vectors": [x for v in model.vectors for x in v]}  # fmt: skip
        for key, values in numbers.items():
            bad = next((v for v in values if not _finite_number(v)), _NONE)
            if bad is not _NONE:
                raise UserInputError(
                    f'"{key}" holds {json.dumps(bad)}; expected finite numbers', path=str(p)
                )
        if any(s == 0 for s in model.scale):
            raise UserInputError('"scale" holds 0: every feature would divide by 0', path=str(p))
        return model


_NONE = object()


def _finite_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


class FeatureExtractor:
    """ROSE features of (candidate, references) text, each distinct sentence tokenized and
    tagged once."""

    def __init__(
        self,
        *,
        lang: str = "en",
        pos: bool = False,
        tokenize: str = "13a",
        lowercase: bool = True,
        function_words: str = "fw100",
    ) -> None:
        from mtpalette.metrics.rose_features import function_words as fw_list

        fw_list(lang, function_words)  # an unknown list or language fails here, clearly
        self.lang, self.pos, self.lowercase = lang, pos, lowercase
        self.function_words = function_words
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
                function_words=self.function_words,
            )
            for h, rs in zip(hyps, refs, strict=True)
        ]
        return np.asarray(rows, dtype=float).reshape(len(hyps), len(feature_names(self.pos)))
