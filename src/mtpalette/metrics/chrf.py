"""chrF and chrF++ (Popović, 2015, 2017), exactly as sacrebleu computes them.

Character n-grams are taken over the line with all whitespace removed (``ws=yes`` keeps every
character, whitespace included, and strips nothing); chrF++ adds word n-grams over words split
as sacrebleu does (whitespace split, then one leading or trailing ASCII punctuation mark split
off a word). Lower-casing (``lc=yes`` or the run's ``--lowercase``) is Python's ``str.lower``
as sacrebleu's. The run's tokenizer is not used: sacrebleu applies none.

Sufficient statistics per candidate, in sacrebleu's layout: ``[hyp n-grams, ref n-grams,
matches]`` for each character order 1..n, then each word order 1..w, against the reference
that gives the best sentence F-score (the first one on ties, as sacrebleu). The sentence score
is the F-score of a row, the corpus score the F-score of the summed rows.

References
----------
Popović (2015), chrF: character n-gram F-score for automatic MT evaluation; Popović (2017),
chrF++: words helping character n-grams. sacrebleu ``metrics/chrf.py`` and
``metrics/helpers.py`` (Post, 2018).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from mtpalette.kernels.chrf import chrf_ngram_stats, chrf_text_stats
from mtpalette.metrics.base import Metric, Pairs
from mtpalette.metrics.domains import Integer, Real, YesNo
from mtpalette.metrics.registry import register
from mtpalette.text.bulk import PARALLEL_MIN_LINES, char_flags
from mtpalette.text.encode import TextView
from mtpalette.text.tokenizers import register_tokenizer

#: sacrebleu's ``CHRF._PUNCTS``: the marks split off the edge of a word for chrF++
PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
#: sacrebleu's stand-in for an undefined precision or recall
_EPS = 1e-16


def chrf_words(line: str) -> list[str]:
    """Words for chrF++: whitespace split, then one edge punctuation mark split off.

    A word of two or more characters ending in a mark loses that mark; otherwise one starting
    with a mark loses that one (sacrebleu's ``CHRF._remove_punctuation``).

    Examples
    --------
    >>> chrf_words('"Hello, world." (x)')
    ['"Hello', ',', 'world.', '"', '(x', ')']
    """
    out: list[str] = []
    for word in line.split():
        if len(word) > 1:
            if word[-1] in PUNCTUATION:
                out += (word[:-1], word[-1])
                continue
            if word[0] in PUNCTUATION:
                out += (word[0], word[1:])
                continue
        out.append(word)
    return out


register_tokenizer("chrf-words", chrf_words)


@dataclass(frozen=True)
class CharsWithSpaceView(TextView):
    """Every character of the line, whitespace included and nothing stripped (``ws=yes``).

    Examples
    --------
    >>> CharsWithSpaceView(lowercase=True).tokens(" A b ")
    [' ', 'a', ' ', 'b', ' ']
    """

    tokenizer: str = "chars+space"

    def tokens(self, line: str) -> list[str]:
        return list(line.lower() if self.lowercase else line)


def f_scores(stats: np.ndarray, beta: float, eps_smoothing: bool) -> np.ndarray:
    """sacrebleu's chrF F-score (0-100) of ``stats[..., order, 3]``, in its arithmetic order.

    Parameters
    ----------
    stats:
        ``[hyp n-grams, ref n-grams, matches]`` per order on the last two axes.
    beta:
        Recall is ``beta`` times as important as precision.
    eps_smoothing:
        sacrebleu's ``eps_smoothing``: average the per-order F-scores (an undefined precision
        or recall counts as 1e-16). Otherwise (sacrebleu's default) the F-score of the
        precision and recall averaged over the orders where both are defined.

    Returns
    -------
    numpy.ndarray
        The scores, shape ``stats.shape[:-2]``.

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


def best_reference_stats(
    per_ref: np.ndarray, present: np.ndarray, beta: float, eps_smoothing: bool
) -> np.ndarray:
    """The statistics of each candidate's best reference, flattened to sacrebleu's layout.

    Parameters
    ----------
    per_ref:
        ``(P, R, orders, 3)`` statistics against each reference.
    present:
        ``(P, R)`` bool: which references exist.
    beta, eps_smoothing:
        As :func:`f_scores`; the best reference has the highest sentence F-score (the first
        one on ties, as sacrebleu's strict ``>``).

    Returns
    -------
    numpy.ndarray
        float64 ``(P, 3 * orders)``.

    Examples
    --------
    >>> per_ref = np.array([[[[3, 3, 0]], [[3, 2, 2]]]], dtype=float)  # 1 order, 2 refs
    >>> best_reference_stats(per_ref, np.ones((1, 2), bool), 2.0, False).tolist()
    [[3.0, 2.0, 2.0]]
    """
    if per_ref.shape[1] == 1:  # one reference: nothing to choose
        return per_ref.reshape(len(per_ref), -1).astype(np.float64)
    f = np.where(present, f_scores(per_ref, beta, eps_smoothing), -np.inf)
    best = np.argmax(f, axis=1)
    chosen = per_ref[np.arange(len(best)), best]
    return chosen.reshape(len(best), -1).astype(np.float64)


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else float(value)


@register
class ChrF(Metric):
    """chrF (``chrf``) and chrF++ (``chrf:w=2``), equal to sacrebleu's ``CHRF``.

    Spec options: ``n`` character order (6), ``w`` word order (0; 2 is chrF++), ``beta``
    (2), ``ws`` keep whitespace in character n-grams (no), ``eps`` sacrebleu's
    ``eps_smoothing`` (no), ``lc`` lower-case (the run's setting). The run's tokenizer is
    ignored. Scale 0-100.

    Parameters
    ----------
    n:
        Character n-gram order (0 leaves word n-grams only).
    w:
        Word n-gram order.
    beta:
        Weight of recall against precision.
    ws:
        Keep whitespace characters in the character n-grams.
    eps:
        sacrebleu's ``eps_smoothing``; see :func:`f_scores`.

    Examples
    --------
    >>> from mtpalette import corpus_score
    >>> hyp, ref = ["the cat sat"], [["the cat sat down"]]
    >>> [round(s.value, 4) for s in corpus_score(hyp, ref, ["chrf", "chrf:w=2"])]
    [66.0176, 68.3557]

    (chrF: precision 1 at every order, recall ``(10 - n) / (14 - n)``: 9 characters against
    13; averaged over n = 1..6, F2 = 5 P R / (4 P + R).)
    """

    per_pair = True

    name = "chrf"
    scale = "0-100"
    options: ClassVar[dict[str, Any]] = {
        "n": Integer(0, 20),
        "w": Integer(0, 20),
        "beta": Real(low=0, low_open=True),
        "ws": YesNo(),
        "eps": YesNo(),
    }

    def __init__(
        self,
        *,
        n: int = 6,
        w: int = 0,
        beta: float = 2.0,
        ws: bool = False,
        eps: bool = False,
        **common: Any,
    ) -> None:
        super().__init__(**common)
        if n < 0 or w < 0 or n + w < 1:
            raise ValueError("need orders n >= 0 and w >= 0, at least one of them positive")
        if not beta > 0:
            raise ValueError("beta must be positive")
        self.n, self.w, self.beta, self.ws, self.eps = n, w, _number(beta), ws, eps

    def params(self) -> dict[str, Any]:
        out = self.non_default(n=6, w=0, beta=2)
        if self.ws:
            out["ws"] = True
        if self.eps:
            out["eps"] = True
        return out

    def view(self) -> TextView:
        if self.ws:
            return CharsWithSpaceView(lowercase=self.lowercase)
        return TextView("char", self.lowercase)

    def extra_views(self) -> tuple[TextView, ...]:
        return (TextView("chrf-words", self.lowercase),) if self.w else ()

    def signature(self, *, n_refs: int):
        sig = super().signature(n_refs=n_refs)
        return sig.with_fields(tok="none")

    def signature_fields(self) -> dict[str, Any]:
        return {
            "nc": self.n,
            "nw": self.w,
            "beta": self.beta,
            "space": self.ws,
            "eff": not self.eps,
            "multiref": "best-f",
        }

    def group_key(self):
        # every chrF variant reading the same texts shares one pass per kind of n-gram
        return ("chrf", self.view(), self.extra_views())

    @classmethod
    def compute_group(
        cls, metrics: Sequence[Metric], pairs: Pairs, *extra: Pairs
    ) -> list[np.ndarray]:
        top_n = max(m.n for m in metrics)
        top_w = max(m.w for m in metrics)
        chars = chrf_ngram_stats(pairs, top_n) if top_n else None
        words = chrf_ngram_stats(extra[0], top_w) if top_w else None
        return cls._best_of(metrics, chars, words, pairs.present())

    @classmethod
    def compute_group_text(cls, metrics: Sequence[Metric], pairs: Any) -> list | None:
        """The group's statistics straight from the text of ``pairs``
        (:class:`~mtpalette.metrics.scoring.TextPairs`) in one compiled call
        (:func:`~mtpalette.kernels.chrf.chrf_text_stats`), characters and chrF++'s words
        alike; None when the pairs prefer counting ids (``TextPairs.prefer_encoded``) for a
        view of the group, or a string has a lone surrogate (not UTF-8): the encoded route
        then takes it."""
        first = metrics[0]
        if any(pairs.prefer_encoded(v) for v in (first.view(), *first.extra_views())):
            return None
        top_n = max(m.n for m in metrics)
        top_w = max(m.w for m in metrics)
        hyps, refs = pairs.texts(first.lowercase)
        n_lines = len(hyps) + sum(map(len, refs))
        try:
            per_ref = chrf_text_stats(
                hyps, pairs.seg, refs, char_flags(False), top_n, top_w,
                keep_space=first.ws, parallel=n_lines >= PARALLEL_MIN_LINES,
            )  # fmt: skip
        except UnicodeEncodeError:
            return None
        chars, words = per_ref[:, :, :top_n], per_ref[:, :, top_n:]
        return cls._best_of(metrics, chars, words, pairs.present())

    @staticmethod
    def _best_of(
        metrics: Sequence[Metric],
        chars: np.ndarray | None,
        words: np.ndarray | None,
        present: np.ndarray,
    ) -> list[np.ndarray]:
        """Each metric's rows: its orders of the group's character and word statistics
        ``(P, R, orders, 3)``, against the best reference."""
        out = []
        for m in metrics:
            parts = [] if chars is None else [chars[:, :, : m.n]]
            if m.w:
                parts.append(words[:, :, : m.w])
            per_ref = np.concatenate(parts, axis=2) if len(parts) > 1 else parts[0]
            out.append(best_reference_stats(per_ref, present, m.beta, m.eps))
        return out

    def compute(self, pairs: Pairs, *extra: Pairs) -> np.ndarray:
        return self.compute_group([self], pairs, *extra)[0]

    def sentence_scores(self, stats: np.ndarray) -> np.ndarray:
        return f_scores(stats.reshape(len(stats), -1, 3), self.beta, self.eps)

    def details(self, stats: np.ndarray) -> dict[str, Any]:
        """Precision and recall (0-100) of each character order, then each word order, from
        the summed ``[hyp n-grams, ref n-grams, matches]``."""
        hyp, ref, match = stats.sum(axis=0).reshape(-1, 3).T
        prec = [100.0 * m / h if h > 0 else 0.0 for m, h in zip(match, hyp, strict=True)]
        rec = [100.0 * m / r if r > 0 else 0.0 for m, r in zip(match, ref, strict=True)]
        out = {"char_prec": prec[: self.n], "char_rec": rec[: self.n]}
        if self.w:
            out |= {"word_prec": prec[self.n :], "word_rec": rec[self.n :]}
        return {k: [float(x) for x in v] for k, v in out.items()}
