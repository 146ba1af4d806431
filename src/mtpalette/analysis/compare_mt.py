"""compare-mt 0.2.10's own word splitting and sentence BLEU, for ``analyze --compat compare-mt``.

compare-mt (Neubig et al., 2019; its ``corpus_utils.py`` and ``scorers.py``, read, not
copied) reads every line as ``line.strip().split(' ')``: the ends are stripped of any
whitespace, then the line is cut at every single space. Two spaces in a row make an empty
word, a tab or another space character stays inside a word, and an empty line is one empty
word. mtpalette's tokenizers split on runs of whitespace instead; on text without those cases
the two agree (:func:`folded_lines` counts the lines where they do not).

Its sentence BLEU (``sentbleu``: the bucketing ``bucket_type=score`` and the sentence
examples) is NLTK's ``sentence_bleu`` with ``SmoothingFunction().method2``, times 100: the
unigram precision ``c_1 / max(1, t_1)`` as it is, every higher order ``(c_n + 1) /
(max(1, t_n) + 1)`` (Lin and Och's add-one), uniform weights, 0 when no unigram matches, and
the brevity penalty 1 when the output is longer than the reference, 0 when it is empty,
``exp(1 - r / c)`` otherwise. :func:`sentence_bleu` computes it from the statistics of
``bleu:compat=compare-mt`` (totals already at least 1 per order), so the buckets and the
sentence scores come from one scoring.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mtpalette.kernels.matches import nltk_sentence_bleu
from mtpalette.text.tokenizers import TOKENIZERS, register_tokenizer

#: the tokenizer name of compare-mt's word splitting
TOKENIZER = "compare-mt"
#: the spec of compare-mt's sentence BLEU (``--sentence-metric sentbleu``)
SENTENCE_BLEU = "sentbleu"
#: the metric whose statistics :func:`sentence_bleu` reads
SENTENCE_BLEU_STATS = "bleu:compat=compare-mt"
#: what the signatures say of the sentence BLEU
SENTENCE_BLEU_SIGNATURE = (
    "sentbleu|nltk:sentence_bleu|smooth:method2|order:4|compat:compare-mt-0.2.10"
)


def split_words(line: str) -> list[str]:
    """compare-mt's words of a line: ``line.strip().split(' ')``.

    Examples
    --------
    >>> split_words(" a  b\\tc "), split_words("")
    (['a', '', 'b\\tc'], [''])
    """
    return line.strip().split(" ")


if TOKENIZERS.get(TOKENIZER) is not split_words:
    register_tokenizer(TOKENIZER, split_words)


def folded_lines(lines: Sequence[str]) -> int:
    """How many lines a whitespace split (``str.split()``) reads otherwise than compare-mt:
    runs of spaces, tabs or other whitespace inside the line, or an empty line.

    Examples
    --------
    >>> folded_lines(["a b", "a  b", "", "a\\tb", " a b "])
    3
    """
    return sum(1 for line in lines if line.split() != split_words(line))


def sentence_bleu(stats: np.ndarray, n: int = 4) -> np.ndarray:
    """NLTK's smoothed sentence BLEU (method2) as compare-mt 0.2.10 calls it, 0-100, from
    rows ``[hyp_len, ref_len, correct_1..n, total_1..n]`` of ``bleu:compat=compare-mt``, in
    NLTK's arithmetic (``math.log`` of each precision, ``math.fsum`` of the weighted logs,
    ``math.exp``: numpy's vectorised log and sum may differ in the last bit, and a score of
    exactly 50 would change bucket), every row in one compiled loop
    (:func:`~mtpalette.kernels.matches.nltk_sentence_bleu`).

    Examples
    --------
    >>> # 3 of 4 unigrams, 1 of 3 bigrams; output 4 words, reference 5
    >>> row = np.array([[4, 5, 3, 1, 4, 3]], dtype=float)
    >>> round(float(sentence_bleu(row, 2)[0]), 6)  # 100 * exp(1 - 5/4) * sqrt(3/4 * 2/4)
    47.691613
    """
    return nltk_sentence_bleu(np.atleast_2d(np.asarray(stats, dtype=np.float64)), n)
