"""IBM Model 1 (Brown et al., 1993): lexical translation probabilities t(s | t) by EM.

P(S | T) = prod_j 1/(l+1) sum_{i=0..l} t(s_j | t_i), with t_0 the NULL word (the constant
length term is left out). EM starts from uniform t and never decreases the likelihood of the
training pairs (tested). Written here with numpy: each sentence pair's alignment posteriors are
one small matrix; no aligner (GIZA++, fast_align) installs from PyPI.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

NULL = "<null>"


class IBMModel1:
    """t(s | t) over the training vocabularies; unseen pairs get ``floor``."""

    def __init__(
        self,
        src_vocab: dict[str, int],
        tgt_vocab: dict[str, int],
        t: np.ndarray,
        floor: float = 1e-7,
    ) -> None:
        self.src, self.tgt, self.t, self.floor = src_vocab, tgt_vocab, t, floor

    @classmethod
    def train(
        cls, pairs: Sequence[tuple[Sequence[str], Sequence[str]]], *, iterations: int = 5
    ) -> tuple[IBMModel1, list[float]]:
        """Fit on (source, target) token lists; returns the model and the training
        log-likelihood before each EM iteration and after the last.

        Examples
        --------
        >>> pairs = [("das haus".split(), "the house".split()),
        ...          ("das buch".split(), "the book".split()),
        ...          ("ein buch".split(), "a book".split())]
        >>> model, ll = IBMModel1.train(pairs, iterations=10)
        >>> all(b >= a - 1e-9 for a, b in zip(ll, ll[1:]))
        True
        >>> round(model.prob("haus", "house"), 2) > round(model.prob("das", "house"), 2)
        True
        """
        src = {w: k for k, w in enumerate(sorted({w for s, _ in pairs for w in s}))}
        tgt = {w: k for k, w in enumerate([NULL, *sorted({w for _, t in pairs for w in t})])}
        encoded = [
            (np.array([src[w] for w in s]), np.array([0] + [tgt[w] for w in t]))
            for s, t in pairs
            if len(s)
        ]
        t = np.full((len(tgt), len(src)), 1.0 / max(len(src), 1))
        model = cls(src, tgt, t)
        history = [model.log_likelihood(encoded)]
        for _ in range(iterations):
            counts = np.zeros_like(t)
            for s_ids, t_ids in encoded:
                probs = t[np.ix_(t_ids, s_ids)]  # (l+1, m)
                post = probs / probs.sum(axis=0, keepdims=True)
                np.add.at(counts, (t_ids[:, None], s_ids[None, :]), post)
            totals = counts.sum(axis=1, keepdims=True)
            t = np.where(totals > 0, counts / np.where(totals > 0, totals, 1.0), t)
            model = cls(src, tgt, t)
            history.append(model.log_likelihood(encoded))
        return model, history

    def log_likelihood(self, encoded) -> float:
        out = 0.0
        for s_ids, t_ids in encoded:
            probs = self.t[np.ix_(t_ids, s_ids)]
            out += float(np.log(probs.mean(axis=0)).sum())
        return out

    def prob(self, s: str, t: str) -> float:
        i, j = self.tgt.get(t), self.src.get(s)
        if i is None or j is None:
            return self.floor
        return max(float(self.t[i, j]), self.floor)

    def logprob(self, source: Sequence[str], target: Sequence[str]) -> float:
        """log P(S | T) (without the length term), floored for unseen words."""
        targets = [NULL, *target]
        total = 0.0
        for s in source:
            total += math.log(sum(self.prob(s, t) for t in targets) / len(targets))
        return total

    def per_word_logprob(self, source: Sequence[str], target: Sequence[str]) -> float:
        return self.logprob(source, target) / max(len(source), 1)
