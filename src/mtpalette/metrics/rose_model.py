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
from collections.abc import Sequence
from dataclasses import MISSING, asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError, did_you_mean
from mtpalette.io.jsonfile import read_json
from mtpalette.metrics.domains import Choice, Integer, Real, Text, YesNo
from mtpalette.metrics.fields import ListOf, Object, fields, shown
from mtpalette.metrics.rose_features import (
    FUNCTION_WORDS,
    feature_names,
    features,
    function_words,
)
from mtpalette.text.tokenizers import get_tokenizer

KERNELS = ("linear", "poly", "rbf")
#: ROSE-reg and ROSE-rank, and the losses each is trained with (the first is the default)
LOSSES = {"reg": ("epsilon", "squared"), "rank": ("hinge", "squared")}
KINDS = tuple(LOSSES)


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
        """A model from its JSON file, every field checked (:mod:`mtpalette.metrics.fields`):
        its type, its range, finite; a missing or unknown field is refused, as is a kernel
        parameter outside the kernel's formula (an RBF gamma of -5 or NaN)."""
        p = Path(path)
        where = str(p)
        obj = read_json(p, "a ROSE model (JSON)")
        if not isinstance(obj, dict) or obj.get("metric") != "rose":
            raise UserInputError('not a ROSE model (expected "metric": "rose")', path=where)
        required = [k for k, f in cls.__dataclass_fields__.items() if _no_default(f)]
        fields(obj, MODEL_FIELDS, path=where, noun="ROSE model field", required=required)
        # the file's own values (checked, not converted: the model's hash is of what it holds)
        model = cls(**{k: v for k, v in obj.items() if k in cls.__dataclass_fields__})
        model._check(where)
        return model

    def _check(self, where: str) -> None:
        """What the field types leave: names known, lengths matching, the kernel's own
        parameters, standard deviations > 0."""
        if self.loss not in LOSSES[self.kind]:
            raise UserInputError(
                f'"loss" is {shown(self.loss)}; expected {" or ".join(LOSSES[self.kind])} for '
                f"ROSE-{self.kind}",
                path=where,
            )
        if self.kernel not in KERNELS:
            hint = did_you_mean(str(self.kernel), KERNELS)
            raise UserInputError(
                f"unknown kernel {self.kernel!r} in the model; expected {', '.join(KERNELS)}"
                + (f".{hint}" if hint else ""),
                path=where,
            )
        if self.function_words not in FUNCTION_WORDS:
            raise UserInputError(
                f"unknown function-word list {self.function_words!r} in the model; expected "
                f"{' or '.join(FUNCTION_WORDS)}",
                path=where,
            )
        try:
            get_tokenizer(self.tokenize)
            function_words(self.lang, self.function_words)
        except UserInputError as exc:
            raise UserInputError(f"{exc.message} (in the model)", path=where) from None
        if self.features != feature_names(self.pos):
            raise UserInputError("the model's feature list is not this version's", path=where)
        rules = KERNEL_PARAMS[self.kernel]
        fields(
            self.kernel_params, rules, path=where, noun="kernel parameter", required=list(rules),
            prefix="kernel_params.",
        )  # fmt: skip
        n = len(self.features)
        if self.kernel == "linear":
            ok = len(self.weights) == n
        else:
            ok = len(self.vectors) == len(self.coef) > 0 and all(len(v) == n for v in self.vectors)
        if not ok or len(self.mean) != n or len(self.scale) != n:
            raise UserInputError(
                "the model's weights or vectors do not match its features", path=where
            )
        if any(s == 0 for s in self.scale):
            raise UserInputError('"scale" holds 0: every feature would divide by 0', path=where)
        bad = next((s for s in self.scale if s < 0), None)
        if bad is not None:
            raise UserInputError(
                f'"scale" holds {shown(bad)}; expected numbers > 0 (standard deviations)',
                path=where,
            )


def _no_default(f: Any) -> bool:
    return f.default is MISSING and f.default_factory is MISSING


_NUMBERS = ListOf(Real(), "finite numbers")
#: every field of a model file and what it holds (the version that wrote it, and the rest)
MODEL_FIELDS: dict[str, Any] = {
    "metric": Text(), "version": Text("a version"), "kind": Choice(KINDS),
    "lang": Text("a language code"), "pos": YesNo(), "tokenize": Text("a tokenizer name"),
    "lowercase": YesNo(), "features": ListOf(Text(), "feature names"), "mean": _NUMBERS,
    "scale": _NUMBERS, "weights": _NUMBERS, "bias": Real(), "info": Object(),
    "loss": Text("a loss"), "kernel": Text("a kernel"), "function_words": Text("a list name"),
    "kernel_params": Object(), "vectors": ListOf(_NUMBERS, "lists of finite numbers"),
    "coef": _NUMBERS,
}  # fmt: skip
#: each kernel's parameters, all required, in the ranges that keep its formula finite:
#: exp(-gamma |z - v|^2) needs gamma > 0 (<= 0 grows with the distance, NaN is NaN), and the
#: polynomial's (gamma z.v + coef0)^degree a whole degree >= 1 (the trainer's ranges)
KERNEL_PARAMS: dict[str, dict[str, Any]] = {
    "linear": {},
    "poly": {"gamma": Real(low=0, low_open=True), "degree": Integer(low=1), "coef0": Real()},
    "rbf": {"gamma": Real(low=0, low_open=True)},
}


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
