"""BLEU (corpus and sentence, sacrebleu's smoothing methods) and BLEU-S (Lin and Och, 2004).

Sufficient statistics per candidate, as in sacrebleu: ``[hyp_len, ref_len, correct_1..N,
total_1..N]``, where ``ref_len`` is the reference length closest to the candidate's (the
shorter one on a tie) and ``correct_n`` the n-gram matches clipped by the largest count in
any one reference (the n-gram kernel of :mod:`mtpalette.kernels.ngram`). The corpus score
applies the formula to the summed rows. The formula runs compiled over all rows at once
(:func:`bleu_scores`), performing sacrebleu's ``compute_bleu`` operations in the same order;
its plain-Python twin :func:`bleu_from_stats` is checked equal to it bit for bit, and both
equal sacrebleu's scores on real data (tests/metrics/test_bleu.py).

BLEU-S is sacrebleu's ``add-k`` smoothing with k = 1 and no effective order: the paper's
"add one to the hits and the totals for n > 1" (unigram precision unsmoothed; 0 when no
unigram matches), with BLEU's brevity penalty.

References
----------
Papineni et al. (2002), BLEU. Chen and Cherry (2014), smoothing methods 1-3 (``floor``,
``add-k``, ``exp``), as implemented by sacrebleu (Post, 2018). Lin and Och (2004), ORANGE,
section 4: BLEU-S adds one to the n-gram hits and totals for n > 1.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from mtpalette.kernels import scores as score_kernels
from mtpalette.kernels.ngram import bleu_text_stats, ngram_matches, ngram_totals
from mtpalette.metrics.base import Metric, Pairs
from mtpalette.metrics.domains import Choice, Integer, Real, YesNo
from mtpalette.metrics.registry import register
from mtpalette.text.bulk import MODES, char_flags
from mtpalette.text.encode import TextView

#: sacrebleu's floor for log(0): keeps a zero precision from raising while scoring ~0.
_LOG_ZERO = -9999999999.0
SMOOTH_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1.0, "exp": None}


def closest_ref_lengths(pairs: Pairs) -> np.ndarray:
    """Per candidate, the present reference length closest to its length (shorter on ties).

    As sacrebleu's ``BLEU._get_closest_ref_len``; a candidate without references gets 0.

    Examples
    --------
    >>> pairs = Pairs.of_segment([1, 2, 3], [[1, 2, 3, 4], [1, 2]])
    >>> closest_ref_lengths(pairs).tolist()  # 4 and 2 are both 1 away: the shorter
    [2]
    """
    return score_kernels.closest_ref_lengths(pairs)


def ngram_stats(pairs: Pairs, max_n: int) -> np.ndarray:
    """``[hyp_len, ref_len, correct_1..max_n, total_1..max_n]`` per candidate (float64).

    Examples
    --------
    >>> pairs = Pairs.of_segment([1, 2, 1], [[1, 2]])
    >>> ngram_stats(pairs, 2).tolist()
    [[3.0, 2.0, 2.0, 1.0, 3.0, 2.0]]
    """
    hyp_len = pairs.hyp.lengths()
    out = np.empty((len(hyp_len), 2 + 2 * max_n), dtype=np.float64)
    out[:, 0] = hyp_len
    out[:, 1] = closest_ref_lengths(pairs)
    out[:, 2 : 2 + max_n] = ngram_matches(pairs, max_n)[:, 0, :]
    out[:, 2 + max_n :] = ngram_totals(hyp_len, max_n)
    return out


#: the text route spreads over the kernel threads from this many lines on (about 8,000
#: pairs with one reference, ~15 ms of work): below it the threads' hand-offs cost more CPU
#: than they save (1,875 pairs on 2 shared cores: 13% more CPU in parallel, no wall time
#: gained; ``bench/bench_bleu_floor.py``, issue 55)
TEXT_PARALLEL_MIN_LINES = 16_384

#: the tokenizers the compiled text route of :func:`ngram_stats_from_text` takes
_WORD_KERNEL_TOKENIZERS = ("none", "13a", "intl")


def ngram_stats_from_text(pairs: Any, view: TextView, max_n: int) -> np.ndarray | None:
    """:func:`ngram_stats` of text pairs (:class:`~mtpalette.metrics.scoring.TextPairs`)
    tokenized for ``view``, straight from the text in one compiled call
    (:func:`~mtpalette.kernels.ngram.bleu_text_stats`): no vocabulary, no encoded rows, so
    nothing of the call is kept for other metrics. None where it does not apply: a tokenizer
    without a compiled word kernel, another tokenizer for the references, or a string with a
    lone surrogate (not UTF-8); the encoded route then takes it.

    Examples
    --------
    >>> from mtpalette.metrics.scoring import TextPairs
    >>> pairs = TextPairs.parallel(["Hi, you."], [["hi , you ."]])
    >>> ngram_stats_from_text(pairs, TextView("13a", lowercase=True), 2).tolist()
    [[4.0, 4.0, 4.0, 3.0, 4.0, 3.0]]
    """
    tokenizer = view.tokenizer
    if tokenizer not in _WORD_KERNEL_TOKENIZERS or view.ref_tokenizer is not None:
        return None
    hyps, refs = pairs.texts(view.lowercase)
    n_lines = len(hyps) + sum(map(len, refs))
    flags = char_flags(tokenizer == "intl")
    parallel = n_lines >= TEXT_PARALLEL_MIN_LINES
    try:
        return bleu_text_stats(hyps, pairs.seg, refs, MODES[tokenizer], flags, max_n, parallel)
    except UnicodeEncodeError:
        return None


def bleu_from_stats(
    row: np.ndarray,
    max_n: int,
    *,
    smooth: str = "exp",
    smooth_value: float | None = None,
    effective_order: bool = False,
) -> float:
    """BLEU (0-100) from one row of statistics, exactly as sacrebleu's ``compute_bleu``.

    The plain-Python twin of :func:`bleu_scores`.

    Examples
    --------
    >>> row = np.array([4, 4, 3, 1, 0, 0, 4, 3, 2, 1], dtype=float)
    >>> bleu_from_stats(row, 4, smooth="add-k")  # 100 * (3/4 * 2/4 * 1/3 * 1/2) ** (1/4)
    50.000000000000014
    """
    hyp_len, ref_len = row[0], row[1]
    correct = [float(c) for c in row[2 : 2 + max_n]]
    total = [float(t) for t in row[2 + max_n : 2 + 2 * max_n]]
    if smooth_value is None:
        smooth_value = SMOOTH_DEFAULTS[smooth]
    bp = 1.0
    if hyp_len < ref_len:
        bp = math.exp(1 - ref_len / hyp_len) if hyp_len > 0 else 0.0
    if not any(correct):
        return 0.0
    precisions = [0.0] * max_n
    mteval = 1.0
    eff_order = max_n
    for n in range(max_n):
        if smooth == "add-k" and n > 0:
            correct[n] += smooth_value
            total[n] += smooth_value
        if total[n] == 0:
            break
        if effective_order:
            eff_order = n + 1
        if correct[n] == 0:
            if smooth == "exp":
                mteval *= 2
                precisions[n] = 100.0 / (mteval * total[n])
            elif smooth == "floor":
                precisions[n] = 100.0 * smooth_value / total[n]
        else:
            precisions[n] = 100.0 * correct[n] / total[n]
    logs = [math.log(p) if p != 0.0 else _LOG_ZERO for p in precisions[:eff_order]]
    return bp * math.exp(sum(logs) / eff_order)


_SMOOTH_CODES = {"none": 0, "floor": 1, "add-k": 2, "exp": 3}


def bleu_scores(
    stats: np.ndarray,
    max_n: int,
    *,
    smooth: str = "exp",
    smooth_value: float | None = None,
    effective_order: bool = False,
) -> np.ndarray:
    """:func:`bleu_from_stats` for every row at once, compiled (same arithmetic, same order).

    Examples
    --------
    >>> rows = np.array([[4, 4, 3, 1, 0, 0, 4, 3, 2, 1], [0, 3, 0, 0, 0, 0, 0, 0, 0, 0]], float)
    >>> bleu_scores(rows, 4, smooth="add-k").tolist()
    [50.000000000000014, 0.0]
    """
    if smooth_value is None:
        smooth_value = SMOOTH_DEFAULTS[smooth]
    value = 0.0 if smooth_value is None else float(smooth_value)
    stats = np.ascontiguousarray(stats, dtype=np.float64)
    return score_kernels.bleu_rows(stats, max_n, _SMOOTH_CODES[smooth], value, effective_order)


#: an n-gram order (BLEU, BLEU-S)
ORDER = Integer(1, 20)


class _NgramFamily(Metric):
    """Shared pass: every BLEU-like metric of one text view reads one n-gram count table."""

    per_pair = True

    def group_key(self):
        return ("ngram-precision", self.view())

    @classmethod
    def compute_group(cls, metrics: Sequence[Metric], pairs: Pairs) -> list[np.ndarray]:
        top = max(m.n for m in metrics)
        full = ngram_stats(pairs, top)
        return [m.select(full, top) for m in metrics]

    @classmethod
    def compute_group_text(cls, metrics: Sequence[Metric], pairs: Any) -> list | None:
        """The group's statistics straight from the text (:func:`ngram_stats_from_text`);
        None when the pairs prefer counting ids (``TextPairs.prefer_encoded``: encoded for
        the view already, or sharing their encoders) or the text route does not apply."""
        view = metrics[0].view()
        if pairs.prefer_encoded(view):
            return None
        top = max(m.n for m in metrics)
        full = ngram_stats_from_text(pairs, view, top)
        if full is None:
            return None
        return [m.select(full, top) for m in metrics]

    @classmethod
    def compute_group_leaving_out(
        cls, metrics: Sequence[Metric], pairs: Pairs, *extra: Pairs
    ) -> list[list[np.ndarray]]:
        """One pass over the n-grams for every held-out reference (the clip by the largest
        and second largest count over the references); the closest reference length
        without each one."""
        top = max(m.n for m in metrics)
        hyp_len = pairs.hyp.lengths()
        matches = ngram_matches(pairs, top, leave_out=True)
        totals = ngram_totals(hyp_len, top)
        per_k = []
        for k in range(pairs.n_refs):
            full = np.empty((len(hyp_len), 2 + 2 * top), dtype=np.float64)
            full[:, 0] = hyp_len
            full[:, 1] = closest_ref_lengths(pairs.without_reference(k))
            full[:, 2 : 2 + top] = matches[:, k, :]
            full[:, 2 + top :] = totals
            per_k.append(full)
        return [[m.select(full, top) for full in per_k] for m in metrics]

    def compute(self, pairs: Pairs) -> np.ndarray:
        return ngram_stats(pairs, self.n)

    def select(self, full: np.ndarray, top: int) -> np.ndarray:
        """The columns of this metric's order out of a table computed up to order ``top``."""
        n = self.n
        if n == top:
            return full
        cols = [0, 1, *range(2, 2 + n), *range(2 + top, 2 + top + n)]
        return full[:, cols]


@register
class BLEU(_NgramFamily):
    """BLEU with sacrebleu's smoothing: ``bleu``, ``bleu:smooth=floor,value=0.1``, ``bleu:n=2``.

    ``eff`` (effective order) defaults to sacrebleu's convention: off for the corpus score,
    on for sentence scores (as ``sacrebleu.sentence_bleu``).
    """

    name = "bleu"
    scale = "0-100"
    options: ClassVar[dict[str, Any]] = {
        "n": ORDER,
        "smooth": Choice(tuple(SMOOTH_DEFAULTS)),
        "value": Real(low=0),  # sacrebleu accepts floor with 0 (every zero precision 0)
        "eff": YesNo(),
        "compat": Choice(("sacrebleu", "compare-mt")),
    }

    def __init__(
        self,
        *,
        n: int = 4,
        smooth: str = "exp",
        value: float | None = None,
        eff: bool | None = None,
        compat: str = "sacrebleu",
        **common: Any,
    ) -> None:
        super().__init__(**common)
        self.compat = Choice(("sacrebleu", "compare-mt")).parse(compat)
        if compat == "compare-mt" and (smooth != "exp" or value is not None or eff is not None):
            raise ValueError(
                "compat=compare-mt is compare-mt's own BLEU (an order without a match is left "
                "out, each sentence counts at least one n-gram of each order): it takes no "
                "smooth, value or eff"
            )
        if smooth not in SMOOTH_DEFAULTS:
            raise ValueError(f"smooth must be one of {', '.join(SMOOTH_DEFAULTS)}")
        if value is not None and SMOOTH_DEFAULTS[smooth] is None:
            raise ValueError(f"smooth={smooth} takes no value (only floor and add-k do)")
        if value is not None and not (math.isfinite(value) and value >= 0):
            raise ValueError(f"the smoothing value must be a number >= 0, got {value}")
        if smooth == "add-k" and value == 0:
            raise ValueError("add-k smoothing needs k > 0 (k = 0 is smooth=none)")
        self.n = n
        self.smooth = smooth
        self.value = value if value is not None else SMOOTH_DEFAULTS[smooth]
        self.eff = eff

    def params(self) -> dict[str, Any]:
        out = self.non_default(n=4, smooth="exp")
        if self.value is not None and self.value != SMOOTH_DEFAULTS[self.smooth]:
            out["value"] = self.value
        if self.eff is not None:
            out["eff"] = self.eff
        if self.compat != "sacrebleu":
            out["compat"] = self.compat
        return out

    def signature_fields(self) -> dict[str, Any]:
        if self.compat == "compare-mt":
            return {"order": self.n, "smooth": "skip-zero-orders", "compat": "compare-mt-0.2.10"}
        smooth = self.smooth if self.value is None else f"{self.smooth}[{self.value:.2f}]"
        eff = {None: "corpus:no,sentence:yes", True: "yes", False: "no"}[self.eff]
        return {"order": self.n, "smooth": smooth, "eff": eff, "multiref": "max-clip"}

    def select(self, full: np.ndarray, top: int) -> np.ndarray:
        out = super().select(full, top)
        if self.compat == "compare-mt":  # each sentence counts at least one n-gram per order
            out = out.copy()
            out[:, 2 + self.n :] = np.maximum(out[:, 2 + self.n :], 1)
        return out

    def compute(self, pairs: Pairs) -> np.ndarray:
        return self.select(ngram_stats(pairs, self.n), self.n)

    def _scores(self, stats: np.ndarray, effective: bool) -> np.ndarray:
        if self.compat == "compare-mt":
            return compare_mt_bleu(stats, self.n)
        return bleu_scores(
            stats, self.n, smooth=self.smooth, smooth_value=self.value, effective_order=effective
        )

    def sentence_scores(self, stats: np.ndarray) -> np.ndarray:
        return self._scores(stats, True if self.eff is None else self.eff)

    def corpus_scores_of_sums(self, sums: np.ndarray) -> np.ndarray:
        return self._scores(sums, False if self.eff is None else self.eff)

    def details(self, stats: np.ndarray) -> dict[str, Any]:
        return bleu_details(stats.sum(axis=0), self.n)


def compare_mt_bleu(stats: np.ndarray, n: int) -> np.ndarray:
    """compare-mt 0.2.10's corpus BLEU (``BleuScorer``) of each row of summed statistics
    ``[hyp_len, ref_len, correct_1..n, total_1..n]``, 0-100: uniform weights, an order with no
    match left out of the geometric mean (not zero), 0 when no unigram matches, brevity
    penalty ``min(1, exp(1 - r / c))``. The statistics count at least one n-gram of each order
    per sentence (``bleu:compat=compare-mt`` makes them so).

    Examples
    --------
    >>> # 4 of 5 unigrams, no bigram of 4: the bigram order is left out; c = 5 >= r = 4
    >>> compare_mt_bleu(np.array([[5, 4, 4, 0, 5, 4]], float), 2).round(4).tolist()
    [89.4427]
    """
    stats = np.atleast_2d(np.asarray(stats, dtype=np.float64))
    hyp_len, ref_len = stats[:, 0], stats[:, 1]
    correct, total = stats[:, 2 : 2 + n], stats[:, 2 + n : 2 + 2 * n]
    weight = 1.0 / n
    log_mean = np.zeros(len(stats))
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(n):  # in compare-mt's order, order by order
            p = np.where(
                total[:, i] != 0, correct[:, i] / np.where(total[:, i] != 0, total[:, i], 1), 0.0
            )
            log_mean = log_mean + np.where(p > 0, np.log(np.where(p > 0, p, 1.0)), 0.0) * weight
        bp = np.where(
            hyp_len != 0,
            np.minimum(1.0, np.exp(1.0 - ref_len / np.where(hyp_len != 0, hyp_len, 1.0))),
            0.0,
        )
    return np.where(correct[:, 0] == 0, 0.0, 100.0 * bp * np.exp(log_mean))


def bleu_details(sums: np.ndarray, n: int) -> dict[str, Any]:
    """sacrebleu's verbose BLEU: n-gram precisions (0-100), brevity penalty, length ratio
    and lengths, from summed ``[hyp_len, ref_len, correct_1..n, total_1..n]``.

    Examples
    --------
    >>> d = bleu_details(np.array([9, 10, 6, 3, 9, 8], float), 2)
    >>> [round(p, 2) for p in d["precisions"]], round(d["bp"], 4), d["ratio"], d["hyp_len"]
    ([66.67, 37.5], 0.8948, 0.9, 9)
    """
    hyp_len, ref_len = float(sums[0]), float(sums[1])
    correct, total = sums[2 : 2 + n], sums[2 + n : 2 + 2 * n]
    precisions = [100.0 * c / t if t > 0 else 0.0 for c, t in zip(correct, total, strict=True)]
    if hyp_len >= ref_len:
        bp = 1.0
    else:
        bp = math.exp(1.0 - ref_len / hyp_len) if hyp_len > 0 else 0.0
    return {
        "precisions": [float(p) for p in precisions],
        "bp": bp,
        "ratio": hyp_len / ref_len if ref_len > 0 else 0.0,
        "hyp_len": int(hyp_len),
        "ref_len": int(ref_len),
    }


#: BLEU-S's smoothing: Lin and Och (2004) add one for n > 1; Yu et al.'s equation 2 for
#: every n, unigrams included
BLEUS_SMOOTHING = ("lin-och", "yu")


@register
class BLEUS(_NgramFamily):
    """Smoothed sentence BLEU of the ORANGE paper: ``bleus:4``, grid ``bleus:1..9``.

    Precision of order 1 is unsmoothed; for n > 1 one is added to the hits and to the total.
    A candidate with no unigram match scores 0. Brevity penalty and closest reference length
    as in BLEU. Equal to sacrebleu's ``add-k`` smoothing with k = 1 and no effective order.

    Examples
    --------
    >>> m = BLEUS(n=2)
    >>> row = np.array([[3, 4, 2, 0, 3, 2]], dtype=float)  # 2/3 unigrams, 0/2 bigrams
    >>> round(float(m.sentence_scores(row)[0]), 6)  # 100 * exp(1-4/3) * sqrt(2/3 * 1/3)
    33.77761
    """

    name = "bleus"
    scale = "0-100"
    positional = "n"
    options: ClassVar[dict[str, Any]] = {"n": ORDER, "smooth": Choice(BLEUS_SMOOTHING)}

    def __init__(self, *, n: int = 4, smooth: str = "lin-och", **common: Any) -> None:
        super().__init__(**common)
        if smooth not in BLEUS_SMOOTHING:
            raise ValueError(f"smooth must be one of {', '.join(BLEUS_SMOOTHING)}")
        self.n = n
        self.smooth = smooth

    def params(self) -> dict[str, Any]:
        return {"n": self.n} | ({"smooth": self.smooth} if self.smooth != "lin-och" else {})

    def signature_fields(self) -> dict[str, Any]:
        every = "add-one(n>1)" if self.smooth == "lin-och" else "add-one(every n)"
        return {"smooth": every, "multiref": "max-clip"}

    def sentence_scores(self, stats: np.ndarray) -> np.ndarray:
        return bleus_scores(stats, self.n, smooth=self.smooth)


def bleus_scores(stats: np.ndarray, n: int, *, smooth: str = "lin-och") -> np.ndarray:
    """BLEU-S (0-100) for every row of ``[hyp_len, ref_len, correct_1..n, total_1..n]``.

    ``lin-och`` (the default): Lin and Och (2004), section 4: one is added to the hits and to
    the total of every order n > 1; a candidate without any matching unigram scores 0. That
    is sacrebleu's ``add-k`` smoothing with k = 1 and without effective order, computed by
    the same kernel. ``yu``: Yu et al.'s equation 2 adds one to every order, unigrams
    included, so a candidate without a matching word still scores above 0.

    Examples
    --------
    >>> row = np.array([[3, 4, 2, 0, 3, 2]], dtype=float)  # 2/3 unigrams, 0/2 bigrams
    >>> round(float(bleus_scores(row, 2)[0]), 6)  # 100 * exp(1-4/3) * sqrt(2/3 * 1/3)
    33.77761
    >>> dog = np.array([[1, 2, 0, 0, 0, 0, 1, 0, 0, 0]], dtype=float)  # "dog" vs "the cat"
    >>> float(bleus_scores(dog, 4)[0]), round(float(bleus_scores(dog, 4, smooth="yu")[0]), 2)
    (0.0, 30.93)
    """
    if smooth == "yu":
        stats = np.array(stats, dtype=np.float64)
        stats[:, 2] += 1.0  # the unigram hits and total; the kernel adds one for n > 1
        stats[:, 2 + n] += 1.0
    elif smooth != "lin-och":
        raise ValueError(f"smooth must be one of {', '.join(BLEUS_SMOOTHING)}")
    return bleu_scores(stats, n, smooth="add-k", smooth_value=1.0, effective_order=False)
