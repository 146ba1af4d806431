"""chrF and chrF++ (Popović, 2015, 2017), exactly as sacrebleu computes them.

Character n-grams are taken over the line with all whitespace removed; chrF++ adds word
n-grams over words split as sacrebleu does (one leading or trailing ASCII punctuation mark is
split off a word). Statistics per order are ``[hyp n-grams, ref n-grams, matches]`` against
the reference that gives the best sentence F-score (the first on ties); the corpus score is the
F-score of the summed statistics. The run's tokenizer is not used (sacrebleu applies none).

References
----------
Popović (2015), chrF: character n-gram F-score for automatic MT evaluation; Popović (2017),
chrF++: words helping character n-grams. sacrebleu ``metrics/chrf.py`` (Post, 2018).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from mtpalette.kernels.ngram import ngram_matches
from mtpalette.metrics.base import Metric, Pairs
from mtpalette.metrics.registry import register
from mtpalette.text.encode import TextView
from mtpalette.text.tokenizers import register_tokenizer

_PUNCTS = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_EPS = 1e-16


def chrf_words(line: str) -> list[str]:
    """Words for chrF++: whitespace split, then one edge punctuation mark split off.

    Examples
    --------
    >>> chrf_words('"Hello, world." (x)')
    ['"Hello', ',', 'world.', '"', '(x', ')']
    """
    out: list[str] = []
    for word in line.split():
        if len(word) > 1 and word[-1] in _PUNCTS:
            out += [word[:-1], word[-1]]
        elif len(word) > 1 and word[0] in _PUNCTS:
            out += [word[0], word[1:]]
        else:
            out.append(word)
    return out


register_tokenizer("chrf-words", chrf_words)


def order_stats(pairs: Pairs, max_n: int) -> np.ndarray:
    """``(P, R, max_n, 3)`` array of [hyp count, ref count, matches] per reference and order.

    As sacrebleu, the hypothesis count is 0 for an order the reference has no n-gram of.
    """
    matches = ngram_matches(pairs, max_n, per_ref=True)  # (P, R, n)
    orders = np.arange(1, max_n + 1)
    hyp = np.maximum(pairs.hyp.lengths()[:, None] - orders[None, :] + 1, 0)  # (P, n)
    ref_len = pairs.ref_lengths().T
    ref = np.maximum(ref_len.T[:, :, None] - orders[None, None, :] + 1, 0)  # (P, R, n)
    hyp = np.where(ref > 0, hyp[:, None, :], 0)
    return np.stack([hyp, ref, matches], axis=-1).astype(np.float64)


def f_scores(stats: np.ndarray, beta: float, eps_smoothing: bool) -> np.ndarray:
    """sacrebleu's chrF F-score (0-100) for ``stats[..., order, 3]``, same arithmetic order.

    Examples
    --------
    >>> s = np.array([[[4, 4, 2], [3, 3, 1]]], dtype=float)  # 2 orders
    >>> round(float(f_scores(s, 2.0, False)[0]), 6)  # P = R = (2/4 + 1/3) / 2
    41.666667
    """
    n_hyp, n_ref, n_match = stats[..., 0], stats[..., 1], stats[..., 2]
    factor = beta**2
    order = stats.shape[-2]
    shape = stats.shape[:-2]
    score = np.zeros(shape)
    avg_prec = np.zeros(shape)
    avg_rec = np.zeros(shape)
    effective = np.zeros(shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(order):
            h, r, m = n_hyp[..., i], n_ref[..., i], n_match[..., i]
            prec = np.where(h > 0, m / h, _EPS)
            rec = np.where(r > 0, m / r, _EPS)
            denom = factor * prec + rec
            score += np.where(denom > 0, (1 + factor) * prec * rec / denom, _EPS)
            both = (h > 0) & (r > 0)
            avg_prec += np.where(both, prec, 0.0)
            avg_rec += np.where(both, rec, 0.0)
            effective += both
        if eps_smoothing:
            return 100 * score / order
        avg_prec = np.where(effective > 0, avg_prec / effective, 0.0)
        avg_rec = np.where(effective > 0, avg_rec / effective, 0.0)
        total = avg_prec + avg_rec
        out = (1 + factor) * avg_prec * avg_rec / (factor * avg_prec + avg_rec)
    return np.where(total != 0, 100 * out, 0.0)


def _yes_no(text: str) -> bool:
    if text.lower() in {"yes", "true", "1"}:
        return True
    if text.lower() in {"no", "false", "0"}:
        return False
    raise ValueError("expected yes or no")


@register
class ChrF(Metric):
    """chrF (``chrf``) and chrF++ (``chrf:w=2``); options ``n`` (character order, 6), ``w``
    (word order, 0), ``beta`` (2), ``eps`` (sacrebleu's ``eps_smoothing``, no).

    Examples
    --------
    >>> from mtpalette import corpus_score
    >>> round(corpus_score(["the cat sat"], [["the cat sat"]], ["chrf"])[0].value, 6)
    100.0
    """

    name = "chrf"
    scale = "0-100"
    options: ClassVar[dict[str, Any]] = {"n": int, "w": int, "beta": float, "eps": _yes_no}

    def __init__(
        self, *, n: int = 6, w: int = 0, beta: float = 2.0, eps: bool = False, **common: Any
    ) -> None:
        super().__init__(**common)
        if n < 1 or w < 0:
            raise ValueError("need a character order n >= 1 and a word order w >= 0")
        self.n, self.w, self.beta, self.eps = n, w, beta, eps

    def params(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.n != 6:
            out["n"] = self.n
        if self.w != 0:
            out["w"] = self.w
        if self.beta != 2.0:
            out["beta"] = self.beta
        if self.eps:
            out["eps"] = True
        return out

    def view(self) -> TextView:
        return TextView("char", self.lowercase)

    def extra_views(self) -> tuple[TextView, ...]:
        return (TextView("chrf-words", self.lowercase),) if self.w else ()

    def signature(self, *, n_refs: int):
        sig = super().signature(n_refs=n_refs)
        return sig.with_fields(tok="none(chars)")

    def signature_fields(self) -> dict[str, Any]:
        return {
            "nc": self.n,
            "nw": self.w,
            "beta": self.beta,
            "space": False,
            "eff": not self.eps,
            "multiref": "best-f",
        }

    def compute(self, pairs: Pairs, *extra: Pairs) -> np.ndarray:
        stats = order_stats(pairs, self.n)
        if self.w:
            stats = np.concatenate([stats, order_stats(extra[0], self.w)], axis=2)
        f = f_scores(stats, self.beta, self.eps)  # (P, R)
        present = pairs.present()
        best = np.argmax(np.where(present, f, -np.inf), axis=1)
        chosen = stats[np.arange(len(best)), best]  # (P, order, 3)
        return chosen.reshape(len(best), -1)

    def sentence_scores(self, stats: np.ndarray) -> np.ndarray:
        return f_scores(stats.reshape(len(stats), -1, 3), self.beta, self.eps)

    def corpus_score(self, stats: np.ndarray) -> float:
        return float(self.sentence_scores(stats.sum(axis=0, keepdims=True))[0])
