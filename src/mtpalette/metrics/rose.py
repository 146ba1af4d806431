"""ROSE as a metric: ``rose:@model.json``, a trained model over ROSE's features
(:mod:`mtpalette.metrics.rose_model`, :mod:`mtpalette.metrics.rose_features`; trained by
:mod:`mtpalette.train.rose`): linear weights, or a
kernel expansion (polynomial or RBF; support vectors or Nystroem landmarks).

The model file fixes the language and its function-word list, the POS features, the tokenizer
and the case; its content hash, kernel, loss and function-word list are in the signature.
The sentence score is the model's value; the corpus score is the mean of the sentence scores.
Train one with ``mtpalette train-rose``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.metrics.base import Metric, TextMetric
from mtpalette.metrics.domains import Text
from mtpalette.metrics.registry import register


@register
class Rose(TextMetric):
    """A trained ROSE model (``rose:@model.json``)."""

    name = "rose"
    positional = "model"
    options: ClassVar[dict[str, Any]] = {"model": Text("a trained model file (@model.json)")}
    scale = "model"

    def __init__(self, *, model: str = "", **common: Any) -> None:
        from mtpalette.metrics.rose_model import FeatureExtractor, RoseModel

        super().__init__(**common)
        if not model.startswith("@"):
            raise ValueError("name the trained model file: rose:@model.json")
        self.path = model[1:]
        self.model = RoseModel.load(self.path)
        m = self.model
        try:
            self.extractor = FeatureExtractor(
                lang=m.lang,
                pos=m.pos,
                tokenize=m.tokenize,
                lowercase=m.lowercase,
                function_words=m.function_words,
            )
        except UserInputError as exc:
            raise UserInputError(f"{exc.message} (in the model)", path=self.path) from None

    def params(self) -> dict[str, Any]:
        return {"model": "@" + Path(self.path).name}

    @property
    def spec(self) -> str:
        return f"rose:@{Path(self.path).name}"

    def signature_fields(self) -> dict[str, Any]:
        m = self.model
        return {
            "kind": m.kind,
            "lang": m.lang,
            "pos": m.pos,
            "kernel": m.kernel,
            "loss": m.loss,
            "fw": m.function_words,
            "model_sha": self.model.digest(),
            "rose_tok": m.tokenize,
            "rose_lc": m.lowercase,
        }

    def group_key(self) -> Hashable:
        return ("rose", self.path, self.model.digest())

    @classmethod
    def compute_text(cls, metrics: Sequence[Metric], pairs: Any) -> list[np.ndarray]:
        seg = np.asarray(pairs.seg, dtype=np.int64)
        refs_of = [[r[s] for r in pairs.refs if r[s] is not None] for s in range(pairs.n_segments)]
        out = []
        for m in metrics:
            assert isinstance(m, Rose)
            X = m.extractor(list(pairs.hyps), [refs_of[s] for s in seg])
            with np.errstate(over="ignore", invalid="ignore"):  # refused below, in one line
                scores = m.model.score(X)
            m.check_finite(scores, seg)
            out.append(scores[:, None])
        return out

    def check_finite(self, scores: np.ndarray, seg: np.ndarray) -> None:
        """Refuse a score the model's arithmetic took past a float's range (inf, NaN): its
        fields are each finite (checked when it was read), their products need not be."""
        bad = np.flatnonzero(~np.isfinite(scores))
        if len(bad):
            i = int(bad[0])
            raise UserInputError(
                f"the model's value for segment {int(seg[i]) + 1} is {float(scores[i])}: its "
                f"weights, kernel parameters or scaler overflow a float ({len(bad)} of "
                f"{len(scores)} scores); expected a finite score",
                path=self.path,
            )
