"""ROUGE-N, ROUGE-L, ROUGE-W-a, ROUGE-S-d / ROUGE-S*, ROUGE-SU-d (Lin, 2004; Lin and Och, 2004).

Every variant computes a precision P and a recall R against each reference, and the
F-measure F = (1 + beta^2) P R / (R + beta^2 P) (beta = 1 by default, as in the papers'
examples). Several references: ``multiref=max`` (default) keeps the reference with the
highest F, as rouge-score's ``score_multi``; ``multiref=avg`` averages P, R and F over the
references; ``multiref=rouge155-a`` and ``rouge155-b`` are ROUGE-1.5.5's ``-f A`` (hits and
counts summed over the references) and ``-f B`` (the reference with the highest recall as the
script prints it, 5 decimals except for ROUGE-L, the first on ties). The statistics row of a
candidate is ``[P, R, F]``; the sentence score is one of them (``score=f|p|r``) and the corpus
score is the mean of the sentence scores. In the ROUGE-1.5.5 modes (``rouge155-a|b``, and
ROUGE-W's ``compat=rouge155``) P, R and F are the numbers the script prints per pair: P and R
rounded to 5 decimals, F computed from the rounded values and rounded. (The script's printed
``Average_*`` is the mean of 1,000 bootstrap resample means of those per-pair values, not
their plain mean: it differs from the corpus score here by about 1e-3.)

* ROUGE-N (``rouge-n:2``): clipped n-gram matches over candidate / reference n-grams.
* ROUGE-L (``rouge-l``): LCS length over candidate / reference length (paper eqs. 1-3).
* ROUGE-Lsum (``rouge-lsum``): summary-level LCS over newline-separated sentences, as
  rouge-score's ``rougeLsum`` (see :class:`RougeLsum`).
* ``tok=rouge-score`` and ``stem=yes`` (with it): rouge-score's tokens and its Porter
  stemming, for rouge-score's numbers exactly (:mod:`mtpalette.text.rouge_score_tok`).
* ROUGE-W-a (``rouge-w:1.2``): weighted LCS with f(k) = k^a, R = f^-1(WLCS / f(m)),
  P = f^-1(WLCS / f(n)) (eqs. 4-6); a = 1 is ROUGE-L. The paper's other weight function,
  f(k) = a k - b with f^-1(y) = (y + b) / a: ``rouge-w:f=linear,a=2,b=1`` (see
  :class:`RougeW`). ``compat=rouge155`` reproduces the
  ROUGE-1.5.5 script exactly: its recall divides by f(f(m)) instead of f(m), and its hit is
  not the WLCS value but f summed over the runs of reference positions, consecutive in the
  reference only, that one traceback of the table matches (ties going "up").
* ROUGE-S-d (``rouge-s:4``, ``rouge-s:*``): skip-bigrams with at most d words in between
  (S0 = bigrams), clipped counts, over the number of such skip-bigrams in each sentence
  (C(n, 2) for S*). On "police killed the gunman" vs "police kill the gunman": S0 = 0.333,
  S1 = 0.4, S4 = 0.5.
* ROUGE-SU-d (``rouge-su:4``): ROUGE-S-d plus unigrams counted as ROUGE-1.5.5 does, every
  word but a sentence's last (the value on the example above is 0.556 = 5/9).

Grids share work: all ROUGE-S/SU of one text view are one skip-bigram pass, all ROUGE-W of
one view one table pass per exponent.

References
----------
Lin (2004), ROUGE: a package for automatic evaluation of summaries. Lin and Och (2004),
ORANGE, section 3. rouge-score (Google Research) ``rouge_scorer.py`` for ROUGE-N/L.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.kernels.ngram import ngram_matches
from mtpalette.kernels.rouge_score import text_counts
from mtpalette.kernels.scores import best_of_references
from mtpalette.kernels.skipbigram import skip_matches_kernel, skip_pair_totals
from mtpalette.kernels.subsequence import (
    lcs_per_ref,
    wlcs_increments_per_ref,
    wlcs_per_ref,
    wlcs_rouge155_per_ref,
)
from mtpalette.metrics.base import Metric, Pairs
from mtpalette.metrics.domains import Choice, Integer, Real, YesNo
from mtpalette.metrics.registry import register
from mtpalette.text.encode import TextView
from mtpalette.text.ragged import Ragged
from mtpalette.text.rouge_score_tok import warn_lost_letters

_SCORE_COLUMN = {"p": 0, "r": 1, "f": 2}
#: multi-reference policies; the rouge155 ones are ROUGE-1.5.5's ``-f A`` and ``-f B``
MULTIREF = ("max", "avg", "rouge155-a", "rouge155-b")


def _round5(x: np.ndarray) -> np.ndarray:
    """``float("%.5f" % x)`` element by element: ROUGE-1.5.5's ``%07.5f`` (sprintf rounds the
    exact binary value, which ``np.round`` does not always do)."""
    return np.array([float(f"{v:.5f}") for v in np.ravel(x)]).reshape(np.shape(x))


def f_measure(p: np.ndarray, r: np.ndarray, beta: float) -> np.ndarray:
    """(1 + beta^2) P R / (R + beta^2 P), 0 where P = R = 0.

    Examples
    --------
    >>> f_measure(np.array([0.5, 0.0]), np.array([1.0, 0.0]), 1.0).tolist()
    [0.6666666666666666, 0.0]

    A beta whose square overflows (> 1.3e154) gives F's limit as beta grows, R (the same
    formula divided through by beta^2), not inf / inf:

    >>> f_measure(np.array([0.5, 0.0]), np.array([0.25, 0.5]), 1e200).tolist()
    [0.25, 0.0]
    """
    b2 = beta * beta
    if b2 == float("inf"):
        denom = np.asarray(p, dtype=float)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(denom > 0, p * r / np.where(denom > 0, denom, 1.0), 0.0)
    denom = r + b2 * p
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denom > 0, (1 + b2) * p * r / np.where(denom > 0, denom, 1.0), 0.0)


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), 0.0)


class _Rouge(Metric):
    """Shared options and the per-reference -> per-candidate reduction."""

    per_pair = True

    options: ClassVar[dict[str, Any]] = {
        "beta": Real(low=0),
        "score": Choice(("f", "p", "r")),
        "multiref": Choice(MULTIREF),
        "stem": YesNo(),
    }

    def __init__(
        self,
        *,
        beta: float = 1.0,
        score: str = "f",
        multiref: str = "max",
        stem: bool = False,
        **common: Any,
    ) -> None:
        super().__init__(**common)
        for key, value in (("beta", beta), ("score", score), ("multiref", multiref)):
            _Rouge.options[key].parse(value)
        self.beta, self.score, self.multiref, self.stem = beta, score, multiref, stem
        if stem and self.tokenize not in ("rouge-score", "rouge-score-stem"):
            raise UserInputError(
                f"stem=yes is rouge-score's Porter stemming of its own tokens: it needs "
                f"tok=rouge-score (the tokenizer here is {self.tokenize!r})"
            )

    def view(self) -> TextView:
        """The text view; ``stem=yes`` reads rouge-score's stemmed tokens."""
        view = super().view()
        return TextView("rouge-score-stem", view.lowercase) if self.stem else view

    def _common_params(self) -> dict[str, Any]:
        out = self.non_default(beta=1.0, score="f", multiref="max")
        if self.stem:
            out["stem"] = "yes"
        return out

    def signature_fields(self) -> dict[str, Any]:
        return {
            "beta": self.beta,
            "score": self.score,
            "multiref": self.multiref,
            "corpus": "mean-of-sentences",
        }

    #: ROUGE-1.5.5 ranks references by recall rounded to 5 decimals (not for ROUGE-L)
    rank_rounded: ClassVar[bool] = True

    def reduce(
        self,
        hit: np.ndarray,
        hyp_count: np.ndarray,
        ref_count: np.ndarray,
        present: np.ndarray,
        *,
        root: float = 1.0,
        inverse=None,
        rank: np.ndarray | None = None,
    ) -> np.ndarray:
        """Per-reference hits and counts ``(P, R)`` -> ``[P, R, F]`` per candidate.

        P = (hit / hyp_count)^(1/root), R = (hit / ref_count)^(1/root) per reference (root is
        ROUGE-W's a; ``inverse``, when given, replaces ``x^(1/root)``: ROUGE-W's f^-1 of its
        linear form, applied where the count is positive, 0 elsewhere), then the
        multi-reference policy:

        * ``max``: the reference with the best F; ``avg``: the mean of P, R and F;
        * ``rouge155-a`` (ROUGE-1.5.5 ``-f A``): hits and counts summed over the references;
        * ``rouge155-b`` (``-f B``): the reference with the highest ``rank`` (default: R,
          rounded to 5 decimals as the script prints it), the first one on ties.
        """
        present = np.asarray(present)
        reduce = self.reducer(
            hit, hyp_count, ref_count, root=root, inverse=inverse, rank=rank, shape=present.shape
        )
        return reduce(present)

    def reducer(
        self,
        hit: np.ndarray,
        hyp_count: np.ndarray,
        ref_count: np.ndarray,
        *,
        root: float = 1.0,
        inverse=None,
        rank: np.ndarray | None = None,
        shape: tuple[int, ...] | None = None,
    ) -> _Reduction:
        """:meth:`reduce` in two steps: each reference's P, R and F now, then a function of
        the ``(P, R)`` mask of the references to reduce over (leave-one-out reduces the same
        values ``R`` times)."""
        if shape is None:
            shape = np.broadcast_shapes(np.shape(hit), np.shape(hyp_count), np.shape(ref_count))
        hit = np.broadcast_to(hit, shape)
        hyp_count = np.broadcast_to(hyp_count, shape)
        ref_count = np.broadcast_to(ref_count, shape)

        def norm(num: np.ndarray, den: np.ndarray) -> np.ndarray:
            if inverse is None:
                return _ratio(num, den) ** (1 / root)
            return np.where(den > 0, inverse(_ratio(num, den)), 0.0)

        if self.multiref == "rouge155-a":

            def summed(present: np.ndarray) -> np.ndarray:
                total = [np.where(present, x, 0.0).sum(axis=1) for x in (hit, hyp_count, ref_count)]
                p = norm(total[0], total[1])
                r = norm(total[0], total[2])
                return self._as_printed(np.column_stack([p, r, f_measure(p, r, self.beta)]))

            return _Reduction(summed)
        p = norm(hit, hyp_count)
        r = norm(hit, ref_count)
        f = f_measure(p, r, self.beta)
        if self.multiref in ("max", "rouge155-b"):
            if self.multiref == "max":
                key = f
            else:
                key = r if rank is None else rank
                key = _round5(key) if self.rank_rounded else key

            return _Best(self, p, r, f, key)

        def mean(present: np.ndarray) -> np.ndarray:
            count = np.maximum(present.sum(axis=1), 1)
            return np.column_stack(
                [np.where(present, x, 0.0).sum(axis=1) / count for x in (p, r, f)]
            )

        return _Reduction(mean)

    @classmethod
    def per_reference(cls, metrics: Sequence[Metric], pairs: Pairs) -> list[_Reduction] | None:
        """Per metric, its statistics as a function of the ``(P, R)`` mask of the
        references to reduce over, from per-reference values computed once here (hits and
        counts); None where the family has no such split."""
        return None

    @classmethod
    def compute_group(
        cls, metrics: Sequence[Metric], pairs: Pairs, *extra: Pairs
    ) -> list[np.ndarray]:
        finish = cls.per_reference(metrics, pairs)
        if finish is None:
            return [m.compute(pairs, *extra) for m in metrics]
        present = pairs.present()
        return [f(present) for f in finish]

    @classmethod
    def compute_group_leaving_out(
        cls, metrics: Sequence[Metric], pairs: Pairs, *extra: Pairs
    ) -> list[list[np.ndarray]]:
        """The per-reference values once, reduced ``R`` times, each time without one
        reference (the same numbers as ``R`` passes: the reduction keeps the references'
        order)."""
        finish = cls.per_reference(metrics, pairs)
        if finish is None:
            return super().compute_group_leaving_out(metrics, pairs, *extra)
        present = pairs.present()
        return [f.held_out(present) for f in finish]

    def compute(self, pairs: Pairs, *extra: Pairs) -> np.ndarray:
        return self.compute_group([self], pairs, *extra)[0]

    @property
    def script_rounding(self) -> bool:
        """Whether this metric reproduces ROUGE-1.5.5's printed numbers (its multi-reference
        modes, or ROUGE-W's ``compat=rouge155``)."""
        return self.multiref.startswith("rouge155") or getattr(self, "compat", "") == "rouge155"

    def _as_printed(self, prf: np.ndarray) -> np.ndarray:
        """``[P, R, F]`` as ROUGE-1.5.5 prints them, when :attr:`script_rounding`: P and R
        rounded to 5 decimals (its ``sprintf("%7.5f")``), F computed from the rounded values
        with its alpha = 1 / (1 + beta^2), then rounded too."""
        if not self.script_rounding:
            return prf
        p, r = _round5(prf[:, 0]), _round5(prf[:, 1])
        alpha = 1.0 / (1.0 + self.beta * self.beta)
        f = _ratio(p * r, (1 - alpha) * p + alpha * r)
        return np.column_stack([p, r, _round5(f)])

    def sentence_scores(self, stats: np.ndarray) -> np.ndarray:
        return stats[:, _SCORE_COLUMN[self.score]]

    corpus_combine = "mean"

    def corpus_score(self, stats: np.ndarray) -> float:
        return float(self.sentence_scores(stats).mean()) if len(stats) else 0.0

    @staticmethod
    def _counts_from_text(
        metrics: Sequence[Metric], pairs: Any, orders: Sequence[int], lcs: bool
    ) -> tuple[np.ndarray, np.ndarray] | None:
        """ROUGE-N (``orders``) and ROUGE-L hits and counts of rouge-score's tokens straight
        from the text of ``pairs`` in one compiled call
        (:func:`~mtpalette.kernels.rouge_score.text_counts`, the counts the encoded path
        gives), with the present references; None where that call does not apply: another
        tokenizer, or pairs that prefer counting ids (``TextPairs.prefer_encoded``)."""
        view = metrics[0].view()
        if view.tokenizer not in _ROUGE_SCORE_STEM or view.ref_tokenizer is not None:
            return None
        if pairs.prefer_encoded(view):
            return None
        seg = np.asarray(pairs.seg)
        refs = [[row[s] for s in seg] for row in pairs.refs]  # each candidate's references
        counts, letters = text_counts(
            pairs.hyps, refs, orders, lcs=lcs, stem=_ROUGE_SCORE_STEM[view.tokenizer]
        )
        texts = [*pairs.hyps, *(r for row in refs for r in row)]
        warn_lost_letters(texts, letters[:, 0], letters[:, 1])
        present = np.array([[r is not None for r in row] for row in refs], dtype=bool).T
        return counts, present.reshape(len(pairs.hyps), len(refs))


#: rouge-score's tokenizers, with or without Porter stemming
_ROUGE_SCORE_STEM = {"rouge-score": False, "rouge-score-stem": True}


@register
class RougeN(_Rouge):
    """ROUGE-N: ``rouge-n:1``, ``rouge-n:2`` (clipped n-gram matches); the order is required
    (a bare ``rouge-n`` names no metric of the papers or of rouge-score)."""

    name = "rouge-n"
    positional = "n"
    options: ClassVar[dict[str, Any]] = {**_Rouge.options, "n": Integer(1, 20)}

    def __init__(self, *, n: int | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        if n is None:
            raise ValueError("rouge-n needs its order: rouge-n:1, rouge-n:2, ...")
        if n < 1:
            raise ValueError("n must be at least 1")
        self.n = n

    def params(self) -> dict[str, Any]:
        return {"n": self.n, **self._common_params()}

    @classmethod
    def compute_group_text(cls, metrics: Sequence[Metric], pairs: Any) -> list | None:
        """The statistics of every ROUGE-N of the group straight from the text, with
        rouge-score's tokenizer (see :meth:`_Rouge._counts_from_text`)."""
        orders = sorted({m.n for m in metrics})  # type: ignore[attr-defined]
        found = cls._counts_from_text(metrics, pairs, orders, lcs=False)
        if found is None:
            return None
        counts, present = found
        out = []
        for m in metrics:
            c = counts[:, :, orders.index(m.n)]  # type: ignore[attr-defined]
            out.append(m.reduce(c[:, :, 0], c[:, :1, 1], c[:, :, 2], present))  # type: ignore[attr-defined]
        return out

    @classmethod
    def per_reference(cls, metrics: Sequence[Metric], pairs: Pairs) -> list:
        top = max(m.n for m in metrics)  # type: ignore[attr-defined]
        matches = ngram_matches(pairs, top, per_ref=True)  # every order in one pass
        out = []
        for m in metrics:
            n = m.n  # type: ignore[attr-defined]
            hits = matches[:, :, n - 1].astype(float)
            hyp_total = np.maximum(pairs.hyp.lengths() - n + 1, 0)[:, None]
            ref_total = np.maximum(pairs.ref_lengths() - n + 1, 0)
            out.append(m.reducer(hits, hyp_total, ref_total))  # type: ignore[attr-defined]
        return out


@register
class RougeL(_Rouge):
    """ROUGE-L: LCS-based F-measure (ORANGE paper eqs. 1-3).

    Examples
    --------
    >>> from mtpalette import sentence_scores
    >>> out = sentence_scores(["police kill the gunman", "the gunman kill police"],
    ...                       [["police killed the gunman"] * 2], ["rouge-l"])
    >>> out["rouge-l"].tolist()
    [0.75, 0.5]
    """

    name = "rouge-l"
    rank_rounded = False

    def params(self) -> dict[str, Any]:
        return self._common_params()

    @classmethod
    def compute_group_text(cls, metrics: Sequence[Metric], pairs: Any) -> list | None:
        """The statistics of every ROUGE-L of the group straight from the text, with
        rouge-score's tokenizer (see :meth:`_Rouge._counts_from_text`)."""
        found = cls._counts_from_text(metrics, pairs, (), lcs=True)
        if found is None:
            return None
        counts, present = found
        c = counts[:, :, 0]
        return [m.reduce(c[:, :, 0], c[:, :1, 1], c[:, :, 2], present) for m in metrics]  # type: ignore[attr-defined]

    @classmethod
    def per_reference(cls, metrics: Sequence[Metric], pairs: Pairs) -> list:
        lcs = lcs_per_ref(pairs)
        hyp, ref = pairs.hyp.lengths()[:, None], pairs.ref_lengths()
        return [m.reducer(lcs, hyp, ref) for m in metrics]  # type: ignore[attr-defined]


@register
class RougeW(_Rouge):
    """ROUGE-W: ``rouge-w:1.2`` (f(k) = k^a), grid ``rouge-w:1.1..2.0/0.1``;
    ``compat=rouge155``; the paper's other weight function f(k) = a k - b:
    ``rouge-w:f=linear,a=2,b=1``.

    Examples
    --------
    >>> from mtpalette import sentence_scores
    >>> (out,) = sentence_scores(["A B C D H I K", "A H B K C I D"], [["A B C D E F G"] * 2],
    ...                          ["rouge-w:2"], tokenize="none").values()
    >>> out.round(3).tolist()
    [0.571, 0.286]
    >>> (out,) = sentence_scores(["A B C D H I K", "A H B K C I D"], [["A B C D E F G"] * 2],
    ...                          ["rouge-w:f=linear,a=2,b=1"], tokenize="none").values()
    >>> out.round(4).tolist()  # f^-1(7/13) = 10/13, f^-1(4/13) = 17/26
    [0.7692, 0.6538]
    >>> (out,) = sentence_scores(["A B C D E F G", "H I K"], [["A B C D E F G"] * 2],
    ...                          ["rouge-w:f=linear,a=3,b=1"], tokenize="none").values()
    >>> out.round(4).tolist()  # identity: (1 + b) / a; no common word: 0
    [0.6667, 0.0]

    Notes
    -----
    The linear form (Lin and Och, 2004, section 3.2: f(k) = alpha k - beta, alpha, beta > 0,
    "a gap penalty of -beta for each non-consecutive n-gram sequence") weighs a run of k
    consecutive matches f(k) = a k - b, so WLCS = a * (matched words) - b * (runs): the
    recurrence's increments are f(1) - 0 = a - b for a run's first match and a after it (an
    empty run weighs 0; with f(0) = -b literally every increment would be a and WLCS would be
    a * LCS, with no gap penalty at all). Recall and precision are the paper's eqs. 4-5 with
    the inverse f^-1(y) = (y + b) / a: R = f^-1(WLCS / f(m)), P = f^-1(WLCS / f(n)), where
    WLCS > 0; a pair with no common word has WLCS = 0 = f(0), and its R, P and F are 0 (f maps
    0 to 0, so f^-1 does too; the formula alone would give b / a). a > b is required, so that
    f(1) > 0 and f increases.

    The scale is not 0-1: WLCS / f(m) lies in (0, 1], so a candidate with some match scores
    in (b / a, (1 + b) / a], the maximum (1 + b) / a for a candidate equal to its reference
    (1 when a = b + 1, as with the defaults a = 2, b = 1); the signature's ``scale`` field
    states this range. ``unit=yes`` divides R and P (hence F) by that maximum, mapping the
    scores onto 0-1 (0 for no match, above b / (1 + b) for any match, 1 for identity)
    without changing their order. ``compat=rouge155`` exists for the polynomial form only
    (the script has no other).
    """

    name = "rouge-w"

    def token_limit(self) -> int | None:
        """``compat=rouge155`` keeps the script's full table for its traceback (17 bytes per
        cell, 0.43 GB at 5,000 tokens); the paper's WLCS needs one row."""
        return 5000 if self.compat == "rouge155" else None

    positional = "a"
    options: ClassVar[dict[str, Any]] = {
        **_Rouge.options,
        "a": Real(low=0, low_open=True),
        "b": Real(low=0, low_open=True),
        "f": Choice(("poly", "linear")),
        "compat": Choice(("paper", "rouge155")),
        "unit": YesNo(),
    }

    def __init__(
        self,
        *,
        a: float | None = None,
        b: float | None = None,
        f: str = "poly",
        compat: str = "paper",
        unit: bool = False,
        **kw: Any,
    ) -> None:
        super().__init__(**kw)
        self.options["f"].parse(f)
        if f == "poly":
            a = 1.2 if a is None else a
            if a < 1:
                raise ValueError("the weight exponent a must be at least 1")
            if b is not None:
                raise ValueError("b is the gap penalty of f=linear (f(k) = a k - b)")
            if unit:
                raise ValueError("unit=yes is for f=linear (f(k) = k^a is already on 0-1)")
        else:
            a = 2.0 if a is None else a
            b = 1.0 if b is None else b
            if not (a > 0 and b > 0):
                raise ValueError("f=linear (f(k) = a k - b) needs a > 0 and b > 0")
            if not a > b:
                raise ValueError(
                    f"f=linear (f(k) = a k - b) needs a > b, so that a single match weighs "
                    f"f(1) = a - b > 0 (got a={a:g}, b={b:g})"
                )
            if compat != "paper":
                raise ValueError("compat=rouge155 exists for the polynomial form only")
        self.a, self.b, self.f, self.compat, self.unit = a, b, f, compat, unit

    @property
    def scale(self) -> str:  # type: ignore[override]
        """ "0-1", or for the linear form the range its scores take (see the class notes)."""
        if self.f == "poly" or self.unit:
            return "0-1"
        return f"0 or ({self.b / self.a:.4g}-{self.top:.4g}]"

    @property
    def top(self) -> float:
        """The score of a candidate equal to its reference: 1, or (1 + b) / a (linear form).

        Examples
        --------
        >>> RougeW(f="linear", a=3, b=1).top
        0.6666666666666666
        """
        return 1.0 if self.f == "poly" else (1 + self.b) / self.a

    def params(self) -> dict[str, Any]:
        out: dict[str, Any] = {"a": self.a}
        if self.f == "linear":
            out.update(f="linear", b=self.b)
            if self.unit:
                out["unit"] = True
        out.update(self._common_params())
        if self.compat != "paper":
            out["compat"] = self.compat
        return out

    def signature_fields(self) -> dict[str, Any]:
        fields = super().signature_fields()
        if self.f == "linear":
            fields["weight"] = f"{self.a:g}k-{self.b:g}"
            if self.unit:
                fields["unit"] = f"divided by (1+b)/a = {self.top:.4g}"
        return fields

    def group_key(self):
        return ("rouge-w", self.view())

    def increments(self, longest: int) -> np.ndarray:
        """f(k + 1) - f(k), k = 0..longest - 1, with f(0) = 0 (see the class notes).

        Examples
        --------
        >>> RougeW(f="linear", a=2, b=0.5).increments(3).tolist()
        [1.5, 2.0, 2.0]
        """
        k = np.arange(max(longest, 1) + 1, dtype=np.float64)
        fk = self.weight(k)
        return np.diff(fk)

    def weight(self, k: np.ndarray) -> np.ndarray:
        """f(k), with f(0) = 0."""
        k = np.asarray(k, dtype=np.float64)
        if self.f == "poly":
            return k**self.a
        return np.where(k > 0, self.a * k - self.b, 0.0)

    def inverse(self, y: np.ndarray) -> np.ndarray:
        """f^-1 (the linear form; the polynomial one goes through ``root``), with f^-1(0) = 0
        (no common word: f(0) = 0), divided by :attr:`top` when ``unit=yes``.

        Examples
        --------
        >>> RougeW(f="linear", a=2, b=1).inverse(np.array([0.0, 0.5, 1.0])).tolist()
        [0.0, 0.75, 1.0]
        >>> RougeW(f="linear", a=3, b=1, unit=True).inverse(np.array([0.0, 1.0])).tolist()
        [0.0, 1.0]
        """
        y = np.asarray(y, dtype=np.float64)
        out = np.where(y > 0, (y + self.b) / self.a, 0.0)
        return out / self.top if self.unit else out

    @classmethod
    def per_reference(cls, metrics: Sequence[Metric], pairs: Pairs) -> list:
        out = []
        poly = [m for m in metrics if m.f == "poly"]
        for compat, kernel in (("paper", wlcs_per_ref), ("rouge155", wlcs_rouge155_per_ref)):
            alphas = sorted({m.a for m in poly if m.compat == compat})
            if alphas:
                table = kernel(pairs, alphas)
                out += [
                    (m, m._from_wlcs(table[:, :, alphas.index(m.a)], pairs))
                    for m in poly
                    if m.compat == compat
                ]
        longest = max(
            int(pairs.hyp.lengths().max(initial=0)), int(pairs.refs.lengths().max(initial=0))
        )
        done: dict[tuple[float, float], np.ndarray] = {}
        for m in metrics:
            if m.f == "linear":
                key = (m.a, m.b)
                if key not in done:
                    done[key] = wlcs_increments_per_ref(pairs, m.increments(longest))
                out.append((m, m._from_wlcs(done[key], pairs)))
        found = {id(m): stats for m, stats in out}
        return [found[id(m)] for m in metrics]

    def _from_wlcs(self, hit: np.ndarray, pairs: Pairs) -> _Reduction:
        a = self.a
        m = pairs.ref_lengths().astype(float)
        n = pairs.hyp.lengths().astype(float)[:, None]
        if self.f == "linear":
            return self.reducer(hit, self.weight(n), self.weight(m), inverse=self.inverse)
        f_m = m**a if self.compat == "paper" else (m**a) ** a
        rank = None
        if self.multiref == "rouge155-b":  # ROUGE-1.5.5 -f B ranks with a single weight
            rank = _ratio(hit, m**a) ** (1 / a)
        return self.reducer(hit, n**a, f_m, root=a, rank=rank)


class _Reduction:
    """Statistics from per-reference values computed once: for a ``(P, R)`` mask of the
    references to reduce over, or for every held-out reference in turn (``held_out``)."""

    def __init__(self, reduce: Callable[[np.ndarray], np.ndarray]) -> None:
        self.reduce = reduce

    def __call__(self, present: np.ndarray) -> np.ndarray:
        return self.reduce(present)

    def held_out(self, present: np.ndarray) -> list[np.ndarray]:
        """The statistics without each reference in turn."""
        refs = np.arange(present.shape[1])
        return [self(present & (refs != k)) for k in range(present.shape[1])]


class _Best(_Reduction):
    """The reduction to the reference with the best key (``max``, ``rouge155-b``): for one
    mask of present references, or for every held-out reference at once, in one compiled
    pass (:func:`~mtpalette.kernels.scores.best_of_references`)."""

    def __init__(self, metric: _Rouge, p, r, f, key) -> None:
        self.metric, self.prf, self.key = metric, (p, r, f), key

    def __call__(self, present: np.ndarray) -> np.ndarray:
        out = best_of_references(*self.prf, self.key, present)[0]
        return self.metric._as_printed(out)

    def held_out(self, present: np.ndarray) -> list[np.ndarray]:
        """The statistics without each reference in turn."""
        out = best_of_references(*self.prf, self.key, present, leave_out=True)
        return [self.metric._as_printed(block) for block in out]


def _drop_last(r: Ragged) -> Ragged:
    lengths = np.maximum(r.lengths() - 1, 0)
    keep = np.ones(len(r.ids), dtype=bool)
    ends = r.offsets[1:][r.lengths() > 0] - 1
    keep[ends] = False
    offsets = np.zeros(len(r) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return Ragged(r.ids[keep], offsets)


class _SkipFamily(_Rouge):
    """ROUGE-S and ROUGE-SU share one skip-bigram pass per text view."""

    positional = "d"
    unigrams: ClassVar[bool] = False

    def token_limit(self) -> int | None:
        """ROUGE-S* lists every skip-bigram (8 bytes each: 0.26 GB at 8,000 tokens); a finite
        d lists only those of gaps up to d (O(n d))."""
        return 8000 if self.d is None else None

    options: ClassVar[dict[str, Any]] = {
        **_Rouge.options,
        "d": Integer(0, 1000, special={"*": None}),
    }

    def __init__(self, *, d: int | None = 4, **kw: Any) -> None:
        super().__init__(**kw)
        if d is not None and d < 0:
            raise ValueError("the skip distance d must be >= 0 or *")
        self.d = d

    def params(self) -> dict[str, Any]:
        return {"d": "*" if self.d is None else self.d, **self._common_params()}

    def group_key(self):
        return ("rouge-skip", self.view())

    @classmethod
    def per_reference(cls, metrics: Sequence[Metric], pairs: Pairs) -> list:
        return _skip_group(metrics, pairs)  # type: ignore[arg-type]


def _skip_group(metrics: Sequence[_SkipFamily], pairs: Pairs) -> list:
    finite = [m.d for m in metrics if m.d is not None]
    n_buckets = (max(finite) if finite else 0) + 2  # gaps 0..max, then "any gap"
    vocab = int(max(pairs.hyp.ids.max(initial=0), pairs.refs.ids.max(initial=0))) + 1
    matches = skip_matches_kernel(
        *pairs.arrays(), vocab, n_buckets, any_gap=any(m.d is None for m in metrics)
    )
    hyp_total = skip_pair_totals(pairs.hyp.lengths(), n_buckets)  # (P, B)
    ref_len = pairs.ref_lengths()
    ref_total = skip_pair_totals(ref_len.ravel(), n_buckets).reshape(*ref_len.shape, n_buckets)
    uni = None
    if any(m.unigrams for m in metrics):
        short = Pairs(_drop_last(pairs.hyp), pairs.seg, _drop_last(pairs.refs), pairs.ref_mask)
        uni = ngram_matches(short, 1, per_ref=True)[:, :, 0].astype(float)
    out = []
    for m in metrics:
        b = n_buckets - 1 if m.d is None else m.d
        num = matches[:, :, b]
        h_den = hyp_total[:, b][:, None]
        r_den = ref_total[:, :, b]
        if m.unigrams:
            num = num + uni
            h_den = h_den + np.maximum(pairs.hyp.lengths() - 1, 0)[:, None]
            r_den = r_den + np.maximum(ref_len - 1, 0)
        out.append(m.reducer(num, h_den, r_den))
    return out


@register
class RougeS(_SkipFamily):
    """ROUGE-S-d: ``rouge-s:4``, ``rouge-s:*``, grid ``rouge-s:0..9,*``.

    Examples
    --------
    >>> from mtpalette import sentence_scores
    >>> cands = ["police kill the gunman", "the gunman kill police", "the gunman police killed"]
    >>> out = sentence_scores(cands, [["police killed the gunman"] * 3], ["rouge-s:*"])
    >>> out["rouge-s:*"].round(3).tolist()
    [0.5, 0.167, 0.333]
    """

    name = "rouge-s"


@register
class RougeSU(_SkipFamily):
    """ROUGE-SU-d: ROUGE-S-d plus unigrams (``rouge-su:4``)."""

    name = "rouge-su"
    unigrams = True
