"""The ``rouge-score`` tokenizers: rouge-score's own word splitting, for exact parity.

``rouge-score`` gives the tokens of rouge-score's ``tokenize.tokenize`` (google-research
``rouge/tokenize.py``, rouge-score 0.1.2): the text lower-cased, every run of characters
outside ``[a-z0-9]`` a separator. ``rouge-score-stem`` adds its ``use_stemmer=True``: NLTK's
Porter stemmer on every token longer than 3 characters. Any tokenizer name with ``+sents``
appended (``rouge-score+sents``, ``13a+sents``) splits the text into sentences at ``\\n``
first and puts a marker token ``"\\n"`` between sentences: ``rouge-lsum`` reads it.

rouge-score keeps only ``[a-z0-9]``: accented letters are cut out of their words and
Chinese, Japanese, Thai, Cyrillic or Arabic text loses every letter, so its scores fall to
about 0 without an error. Encoding with these tokenizers warns (:class:`LostLettersWarning`)
when a text lost most of its letters (and at least 2), and names the tokenizers that keep
them.

Whole corpora are tokenized in one compiled call (:func:`encode_rouge_score`); the per-line
functions registered in :mod:`mtpalette.text.tokenizers` are the plain-Python twins.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np

#: tokenizer name -> (stem, sents)
ROUGE_SCORE_MODES = {
    "rouge-score": (False, False),
    "rouge-score-stem": (True, False),
    "rouge-score+sents": (False, True),
    "rouge-score-stem+sents": (True, True),
}
SENTS_SUFFIX = "+sents"


class LostLettersWarning(UserWarning):
    """rouge-score's tokenizer dropped most of the letters of some texts."""


def tokenize_rouge_score(line: str) -> list[str]:
    """rouge-score's tokens of one line (``tokenize.tokenize(line, None)``).

    Examples
    --------
    >>> tokenize_rouge_score("It's 3:45, Café İzmir!")
    ['it', 's', '3', '45', 'caf', 'i', 'zmir']
    """
    from mtpalette.kernels.rouge_score import tokenize_slow

    return tokenize_slow(line)


def tokenize_rouge_score_stem(line: str) -> list[str]:
    """rouge-score's tokens with ``use_stemmer=True`` (NLTK's Porter stemmer).

    Examples
    --------
    >>> tokenize_rouge_score_stem("the friends had a meeting")
    ['the', 'friend', 'had', 'a', 'meet']
    """
    from mtpalette.kernels.rouge_score import tokenize_slow

    return tokenize_slow(line, stem=True)


def with_sentences(tokenizer):
    """``tokenizer`` applied to each ``\\n``-separated sentence, a ``"\\n"`` marker token
    between two sentences that have tokens (rouge-score's sentence split for ``rougeLsum``).

    Examples
    --------
    >>> with_sentences(str.split)("a b\\n\\nc")
    ['a', 'b', '\\n', 'c']
    """

    def split(line: str) -> list[str]:
        out: list[str] = []
        for sentence in line.split("\n"):
            tokens = tokenizer(sentence)
            if tokens and out:
                out.append("\n")
            out.extend(tokens)
        return out

    return split


def warn_lost_letters(
    lines: Sequence[str | None], letters: np.ndarray, dropped: np.ndarray
) -> None:
    """One warning naming how many texts lost most of their letters, with an example; a
    text given several times (a reference shared by several candidates) counts once, and a
    missing one (None) not at all."""
    if not np.any((2 * dropped > letters) & (dropped >= 2)):
        return  # the usual case: no pass over the texts
    first: dict[str, int] = {}
    for i, line in enumerate(lines):
        if line is not None:
            first.setdefault(line, i)
    idx = np.fromiter(first.values(), dtype=np.int64, count=len(first))
    lines, letters, dropped = [lines[i] for i in idx], letters[idx], dropped[idx]
    lost = np.flatnonzero((2 * dropped > letters) & (dropped >= 2))
    example = lines[int(lost[0])].strip()
    example = example if len(example) <= 40 else example[:40] + "..."
    warnings.warn(
        f"the rouge-score tokenizer keeps only a-z and 0-9: {len(lost):,} of {len(lines):,} "
        f"texts lost most of their letters ({int(dropped.sum()):,} of {int(letters.sum()):,} "
        f"letters in all; e.g. {example!r}), so their ROUGE is near 0. Use tok=intl (words "
        "in every script), tok=zh or tok=char (Chinese, Japanese, Thai), or tok=jieba "
        "(Chinese words) instead.",
        LostLettersWarning,
        stacklevel=4,
    )


def encode_rouge_score(
    lines: Sequence[str], tokenizer: str, vocab
) -> tuple[np.ndarray, np.ndarray]:
    """Tokenize ``lines`` with a rouge-score tokenizer in one compiled call and intern the
    tokens in ``vocab``: ``(int32 ids, int64 tokens per line)``; warns when texts lost most
    of their letters (:class:`LostLettersWarning`).

    Examples
    --------
    >>> from mtpalette.text.vocab import Vocabulary
    >>> v = Vocabulary()
    >>> ids, counts = encode_rouge_score(["Cats and dogs", "cat"], "rouge-score-stem", v)
    >>> v.decode(ids), counts.tolist()
    (['cat', 'and', 'dog', 'cat'], [3, 1])
    """
    from mtpalette.kernels.rouge_score import tokenize_batch

    stem, sents = ROUGE_SCORE_MODES[tokenizer]
    cp, start, length, counts, letters, dropped = tokenize_batch(lines, stem=stem, sents=sents)
    warn_lost_letters(lines, letters, dropped)
    return vocab.intern_spans(cp, start, length, None), counts
