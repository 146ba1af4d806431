"""NIST (Doddington, 2002): information-weighted n-gram precision with NIST's length penalty.

Equal to NLTK's ``corpus_nist`` (corpus score) and ``sentence_nist`` (sentence scores), raw
(not 0-100), on the tokens of the run's tokenizer (13a by default).

Information weights. The weight of an n-gram, ``log2(count(prefix) / count(n-gram))`` (for a
unigram, ``log2(reference words / count)``), is estimated from the references being scored:

* the corpus score uses the reference n-gram counts of the whole call: every segment's
  references counted once, however many candidates share the segment (with one candidate per
  segment, a system output, this is exactly what ``corpus_nist`` sees). **A corpus score is
  therefore defined relative to the references given with it**: scoring a subset re-estimates
  the weights. They are computed once per call and each row stores its weighted sums, so rows
  of one call may be summed (and resampled by the bootstrap, which keeps the weights of the
  full call);
* a sentence score uses the counts of that segment's references alone, as ``sentence_nist``
  (NLTK defines it as a corpus of one segment).

Per order, the reference with the highest information-weighted precision is kept (ties broken
by the weighted matches, then by the longer reference: NLTK's ``max`` over tuples). The length
penalty compares ``n`` times the candidate length with the sum over orders of the kept
reference's length (NLTK's docstring speaks of the average reference length; its code does
this, and we follow the code). An order the candidate is too short for contributes 0 to the
precision (NLTK divides by zero there).

Statistics per candidate, blocks of ``n`` columns (order 1..n each): matches weighted with
corpus weights, the kept reference's length, the same two with the segment's weights, the
number of candidate n-grams; then the candidate length.

References
----------
Doddington (2002), Automatic evaluation of machine translation quality using n-gram
co-occurrence statistics. NLTK ``nltk/translate/nist_score.py``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from mtpalette.kernels.interning import intern_ngrams
from mtpalette.kernels.nist import corpus_information, nist_kernel
from mtpalette.kernels.scores import nist_rows
from mtpalette.metrics.base import Metric, Pairs
from mtpalette.metrics.domains import Integer
from mtpalette.metrics.registry import register
from mtpalette.text.ragged import Ragged


def _counts(ids: np.ndarray, n_ids: int) -> np.ndarray:
    return np.bincount(ids[ids >= 0], minlength=n_ids)


def _information(grams, counts: list[np.ndarray], words: float) -> tuple[np.ndarray, np.ndarray]:
    """``(info, prefix)`` tables ``(n, width)`` of every interned n-gram, from its count and
    its prefix's count in the references (a unigram's "prefix count" is ``words``, the number
    of reference words)."""
    n = len(grams)
    width = max(g.n_ids for g in grams)
    prefix = np.full((n, width), -1, dtype=np.int64)
    info = np.zeros((n, width), dtype=np.float64)
    for k, g in enumerate(grams):
        if k == 0:
            numer = np.full(g.n_ids, words)
        else:
            numer = counts[k - 1][g.prefix].astype(np.float64)
            prefix[k, : g.n_ids] = g.prefix
        info[k, : g.n_ids] = corpus_information(counts[k], numer)
    return info, prefix


def length_penalty(ref_len: float, hyp_len: float) -> float:
    """NIST's brevity penalty: 0.5 when the candidate is 2/3 of the reference length.

    Examples
    --------
    >>> round(length_penalty(3.0, 2.0), 6), length_penalty(3.0, 4.0)
    (0.5, 1.0)
    """
    ratio = hyp_len / ref_len if ref_len > 0 else 0.0
    if 0 < ratio < 1:
        beta = math.log(0.5) / math.log(1.5) ** 2
        return math.exp(beta * math.log(ratio) ** 2)
    return max(min(ratio, 1.0), 0.0)


@register
class NIST(Metric):
    """NIST score (raw, not 0-100): ``nist``, ``nist:n=4``; see the module notes.

    Parameters
    ----------
    n:
        The highest n-gram order (5, as NLTK's default).

    Examples
    --------
    >>> from mtpalette import sentence_scores
    >>> out = sentence_scores(["a b"], [["a b c"]], ["nist:n=2"])["nist:n=2"]
    >>> round(float(out[0]), 6)  # (2 log2(3) / 2 + 0 / 1) * penalty 0.5 at 2/3 the length
    0.792481
    """

    name = "nist"
    scale = "raw"
    #: the information weights come from ``Pairs.corpus_refs`` when given (a block of the
    #: corpus scores as the whole corpus would)
    corpus_refs: ClassVar[bool] = True
    options: ClassVar[dict[str, Any]] = {"n": Integer(1, 20)}

    def __init__(self, *, n: int = 5, **common: Any) -> None:
        super().__init__(**common)
        if not 1 <= n <= 20:
            raise ValueError("the n-gram order must be between 1 and 20")
        self.n = n

    def params(self) -> dict[str, Any]:
        return {"n": self.n} if self.n != 5 else {}

    def signature_fields(self) -> dict[str, Any]:
        return {"order": self.n, "info": "from-refs", "multiref": "best-precision"}

    def compute(self, pairs: Pairs) -> np.ndarray:
        return self._stats(pairs, leave_out=False)[0]

    @classmethod
    def compute_group_leaving_out(
        cls, metrics: Sequence[Metric], pairs: Pairs, *extra: Pairs
    ) -> list[list[np.ndarray]]:
        """One pass for every held-out reference: the n-grams interned and counted once,
        the information once per held-out reference, and the kernel's matches once (the same
        numbers as a pass per reference)."""
        return [m._stats(pairs, leave_out=True) for m in metrics]  # type: ignore[attr-defined]

    def _stats(self, pairs: Pairs, *, leave_out: bool) -> list[np.ndarray]:
        """The statistics against every reference (one array), or, with ``leave_out``,
        against every reference but ``k`` for each ``k``; the information comes from the
        corpus's references (but ``k``'s)."""
        n, R = self.n, pairs.n_refs
        rows = Ragged.concat([pairs.hyp, pairs.refs])
        n_hyp = len(pairs.hyp)
        corpus, first = pairs.refs, n_hyp  # the information comes from the corpus's references
        if pairs.corpus_refs is not None:  # a block of the corpus: from the whole one
            corpus, first = pairs.corpus_refs, len(rows)
            rows = Ragged.concat([rows, corpus])
        grams = intern_ngrams(rows, n)
        per_ref = len(corpus) // max(R, 1)
        bounds = rows.offsets[first + np.arange(R + 1) * per_ref]
        counts_of = [  # counts_of[j][k]: order k + 1's counts in the corpus's reference j
            [_counts(g.ids[bounds[j] : bounds[j + 1]], g.n_ids) for g in grams] for j in range(R)
        ]
        words = corpus.lengths().reshape(R, per_ref).sum(axis=1)
        infos = []
        for drop in range(R) if leave_out else [None]:
            keep = [j for j in range(R) if j != drop]
            counts = [sum(counts_of[j][k] for j in keep) for k in range(n)]
            info, prefix = _information(grams, counts, float(words[keep].sum()))
            infos.append(info)
        offsets = rows.offsets[: n_hyp + len(pairs.refs) + 1]  # not the corpus's rows
        ids = np.stack([g.ids[: int(offsets[-1])] for g in grams])
        found = nist_kernel(
            ids, prefix, np.vstack(infos), offsets, pairs.seg, pairs.ref_mask, n_hyp,
            leave_out=leave_out,
        )  # fmt: skip
        per_k = [found[:, k, :] for k in range(R)] if leave_out else [found]
        out = []
        for matches in per_k:
            stats = np.empty((n_hyp, 5 * n + 1))
            stats[:, : 5 * n] = matches
            stats[:, 5 * n] = pairs.hyp.lengths()
            out.append(stats)
        return out

    def score_row(self, row: np.ndarray, *, corpus: bool) -> float:
        """The NIST score of one row (plain Python): with the corpus information weights
        (``corpus=True``, for summed rows) or with the segment's own (a sentence score)."""
        n = self.n
        num = row[(0 if corpus else 2) * n : (1 if corpus else 3) * n]
        refl = row[(1 if corpus else 3) * n : (2 if corpus else 4) * n]
        den = row[4 * n : 5 * n]
        precision = sum(a / b for a, b in zip(num, den, strict=True) if b > 0)
        return precision * length_penalty(float(refl.sum()), float(row[5 * n]) * n)

    def _scores(self, stats: np.ndarray, which: int) -> np.ndarray:
        return nist_rows(stats, self.n, which)

    def sentence_scores(self, stats: np.ndarray) -> np.ndarray:
        return self._scores(stats, 1)

    def corpus_scores_of_sums(self, sums: np.ndarray) -> np.ndarray:
        return self._scores(sums, 0)
