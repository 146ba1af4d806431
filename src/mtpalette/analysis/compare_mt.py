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
from itertools import compress

import numpy as np

from mtpalette.kernels.matches import nltk_sentence_bleu
from mtpalette.text.bulk import encode_lines
from mtpalette.text.encode import Encoder
from mtpalette.text.ragged import Ragged
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


class SplitEncoder(Encoder):
    """An :class:`~mtpalette.text.encode.Encoder` of compare-mt's words that tokenizes in bulk:
    a line whose stripped text is non-empty, printable and without two spaces in a row has
    single spaces as its only whitespace, so the compiled whitespace tokenizer (``none``) reads
    exactly its words; the other lines (empty, tabs, runs of spaces, no-break spaces, or any
    unprintable character) are split by :func:`split_words` line by line. The rows equal
    :class:`~mtpalette.text.encode.Encoder`'s with the ``compare-mt`` tokenizer (a test checks
    it); only the numbering of the words may differ.

    Examples
    --------
    >>> from mtpalette.text.encode import TextView
    >>> enc = SplitEncoder(TextView(TOKENIZER))
    >>> rows = enc.encode(["a b", " a  b", "", "a\\tb"])
    >>> [enc.vocab.decode(rows[k].tolist()) for k in range(len(rows))]
    [['a', 'b'], ['a', '', 'b'], [''], ['a\\tb']]
    """

    def _add(self, lines: list[str]) -> None:
        if self.view.tokenizer != TOKENIZER:
            raise ValueError(f"SplitEncoder splits as compare-mt does, not {self.view.tokenizer}")
        is_slow = np.fromiter(map(_apart, lines), dtype=bool, count=len(lines))
        fast = list(compress(lines, (~is_slow).tolist()))
        new = _rows(*encode_lines(fast, "none", self.view.lowercase, self.vocab))
        if is_slow.any():  # the rows of both kinds, back in the lines' order
            tokens = [self.view.tokens(line) for line in compress(lines, is_slow.tolist())]
            both = Ragged.concat([new, _rows(*self.vocab.ids_of_rows(tokens))])
            order = np.empty(len(lines), dtype=np.int64)
            order[~is_slow] = np.arange(len(fast))
            order[is_slow] = np.arange(len(fast), len(lines))
            new = both.take(order)
        self._rows = Ragged.concat([self._rows, new]) if len(self._rows) else new


def _rows(ids: np.ndarray, counts: np.ndarray) -> Ragged:
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    return Ragged(np.asarray(ids, dtype=np.int32), offsets)


def _apart(line: str) -> bool:
    """Whether whitespace splitting may read ``line`` otherwise than compare-mt: its stripped
    text is empty, has two spaces in a row, or a character that is not printable (every
    whitespace character but the space is not)."""
    text = line.strip()
    return not text or "  " in text or not text.isprintable()


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
