"""A small offline part-of-speech tagger (Universal POS tags) for ROSE's POS features.

The tagger is a multinomial logistic regression over word, affix, shape and context-word
features (no tag history, so a sentence is tagged in one vectorised step). Its weights were
fitted with scikit-learn by ``scripts/train_pos_tagger.py`` on the Universal Dependencies
English-EWT dev set and ship in ``mtpalette/data/pos/en_ewt_upos.npz`` (CC BY-SA 4.0, see
``data/NOTICE``); accuracy on the held-out EWT test set is recorded in the model file
(:attr:`PosTagger.info`).

References
----------
Ratnaparkhi (1996), a maximum entropy model for part-of-speech tagging (the feature set);
Nivre et al. (2020), Universal Dependencies v2; Silveira et al. (2014), the English Web
Treebank in UD.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

from mtpalette.errors import UserInputError

#: the bundled models, by language
BUNDLED = {"en": "en_ewt_upos.npz"}


def _shape(word: str) -> str:
    out = []
    for ch in word:
        c = "X" if ch.isupper() else "x" if ch.islower() else "d" if ch.isdigit() else ch
        if not out or out[-1] != c:
            out.append(c)
    return "".join(out)[:6]


def token_features(words: Sequence[str], i: int) -> list[str]:
    """The feature strings of token ``i`` of a sentence.

    Examples
    --------
    >>> token_features(["The", "cats"], 1)[:4]
    ['b', 'w=cats', 's1=s', 's2=ts']
    """
    w = words[i]
    lw = w.lower()
    prev = words[i - 1].lower() if i > 0 else "<s>"
    prev2 = words[i - 2].lower() if i > 1 else "<s>"
    nxt = words[i + 1].lower() if i + 1 < len(words) else "</s>"
    nxt2 = words[i + 2].lower() if i + 2 < len(words) else "</s>"
    return [
        "b",
        f"w={lw}",
        f"s1={lw[-1:]}",
        f"s2={lw[-2:]}",
        f"s3={lw[-3:]}",
        f"p1={lw[:1]}",
        f"p2={lw[:2]}",
        f"sh={_shape(w)}",
        f"first={i == 0}",
        f"pw={prev}",
        f"nw={nxt}",
        f"pw2={prev2}",
        f"nw2={nxt2}",
        f"ps3={prev[-3:]}",
        f"ns3={nxt[-3:]}",
        f"pw,w={prev},{lw}",
        f"w,nw={lw},{nxt}",
    ]


class PosTagger:
    """Tag token lists with a linear model: ``tag = argmax_t sum_f W[f, t] + b[t]``.

    Examples
    --------
    >>> tagger = load_tagger("en")
    >>> tagger.tag("The committee approved the new budget on Tuesday .".split())
    ['DET', 'NOUN', 'VERB', 'DET', 'ADJ', 'NOUN', 'ADP', 'PROPN', 'PUNCT']
    """

    def __init__(
        self,
        features: Sequence[str],
        weights: np.ndarray,
        bias: np.ndarray,
        tags: Sequence[str],
        info: dict | None = None,
    ) -> None:
        self.index = {f: k for k, f in enumerate(features)}
        self.weights = np.asarray(weights, dtype=np.float32)
        self.bias = np.asarray(bias, dtype=np.float32)
        self.tags = list(tags)
        self.info = dict(info or {})

    def tag(self, words: Sequence[str]) -> list[str]:
        """One UPOS tag per token."""
        if not words:
            return []
        index = self.index
        rows, starts = [], []
        for i in range(len(words)):
            starts.append(len(rows))
            rows.extend(k for f in token_features(words, i) if (k := index.get(f)) is not None)
        scores = np.add.reduceat(self.weights[np.asarray(rows)], np.asarray(starts), axis=0)
        scores += self.bias
        return [self.tags[k] for k in scores.argmax(axis=1)]

    def save(self, path: str | Path, features: Sequence[str]) -> None:
        np.savez_compressed(
            path,
            features=np.asarray(features),
            weights=self.weights.astype(np.float16),
            bias=self.bias,
            tags=np.asarray(self.tags),
            info=np.asarray(json.dumps(self.info)),
        )


def read_tagger(path: str | Path) -> PosTagger:
    """A tagger saved by :meth:`PosTagger.save`."""
    with np.load(path, allow_pickle=False) as z:
        return PosTagger(
            z["features"].tolist(),
            z["weights"],
            z["bias"],
            z["tags"].tolist(),
            json.loads(str(z["info"])),
        )


@cache
def load_tagger(lang: str) -> PosTagger:
    """The bundled tagger of ``lang`` (only English: UD English-EWT)."""
    if lang not in BUNDLED:
        raise UserInputError(
            f"no POS tagger for language {lang!r}; bundled: {', '.join(sorted(BUNDLED))}"
        )
    ref = resources.files("mtpalette") / "data" / "pos" / BUNDLED[lang]
    with resources.as_file(ref) as path:
        return read_tagger(path)
