"""rouge-score's tokenizer, NLTK's Porter stemmer and summary-level LCS, in the Rust core.

Compiled kernels (:mod:`mtpalette._core`) and their plain-Python twins, which the tests
compare with the kernels and with rouge-score itself:

* :func:`tokenize_batch` / :func:`tokenize_slow`: rouge-score's tokens (``str.lower()``,
  every run outside ``[a-z0-9]`` a separator, Porter stemming of tokens longer than 3
  characters when asked), optionally with a ``"\\n"`` marker token between sentences;
* :func:`porter_stem`: NLTK's ``PorterStemmer()`` (mode ``NLTK_EXTENSIONS``), written in
  Rust (``rust/src/porter.rs``); its twin is NLTK itself, in the tests;
* :func:`lsum_per_ref` / :func:`summary_lcs_slow`: rouge-score's ``rougeLsum`` hits;
* :func:`text_counts` / :func:`text_counts_slow`: ROUGE-N and ROUGE-L counts straight from
  raw text, each string object tokenized once (a string passed several times is one text),
  pairs in parallel.

References
----------
google-research/google-research ``rouge/tokenize.py``, ``rouge/rouge_scorer.py``
(rouge-score 0.1.2); NLTK ``nltk/stem/porter.py``; Lin (2004), section 3.2.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

import numpy as np

from mtpalette import _core

#: the sentence-break marker token of the ``+sents`` tokenizers (never a rouge-score token)
MARKER = "\n"
_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def tokenize_batch(
    texts: Sequence[str], *, stem: bool = False, sents: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """rouge-score's tokens of every text, in one compiled call.

    Returns ``(cp, start, length, counts, letters, dropped)``: token ``t`` is
    ``cp[start[t]:start[t] + length[t]]`` (uint32 code points), text ``i`` has ``counts[i]``
    tokens, ``letters[i]`` alphabetic characters and ``dropped[i]`` of them not kept.

    Examples
    --------
    >>> cp, start, length, counts, letters, dropped = tokenize_batch(["Cats, café!"], stem=True)
    >>> counts.tolist(), letters.tolist(), dropped.tolist()
    ([2], [8], [1])
    """
    return _core.rouge_score_tokenize(list(texts), stem, sents)


def tokenize_slow(text: str, *, stem: bool = False, sents: bool = False) -> list[str]:
    """The plain-Python twin of :func:`tokenize_batch` for one text (stemming by the
    compiled :func:`porter_stem`; the tests check that against NLTK).

    Examples
    --------
    >>> tokenize_slow("The friends had a meeting.\\nOK", stem=True, sents=True)
    ['the', 'friend', 'had', 'a', 'meet', '\\n', 'ok']
    """
    pieces = text.split("\n") if sents else [text]
    out: list[str] = []
    for piece in pieces:
        tokens = _NON_ALNUM.sub(" ", piece.lower()).split()
        if stem:
            long = [t for t in tokens if len(t) > 3]
            stems = dict(zip(long, porter_stem(long), strict=True))
            tokens = [stems.get(t, t) for t in tokens]
        if tokens and out:
            out.append(MARKER)
        out.extend(tokens)
    return out


def porter_stem(words: Sequence[str]) -> list[str]:
    """NLTK's ``PorterStemmer().stem`` of each lower-case ASCII word (compiled).

    Examples
    --------
    >>> porter_stem(["running", "skies", "generously", "happy"])
    ['run', 'sky', 'gener', 'happi']
    """
    return _core.porter_stem(list(words))


def lsum_per_ref(pairs, marker: int) -> np.ndarray:
    """Summary-level LCS of every candidate with each reference: ``(P, R, 3)`` float64 of
    ``[hits, candidate tokens, reference tokens]``, sentences split at token id ``marker``
    (zeros where the reference is missing)."""
    return _core.rouge_lsum_per_ref(pairs.arrays(), int(marker))


def _lcs_indices(r: Sequence, c: Sequence) -> set[int]:
    """Indices into ``r`` of one LCS with ``c``, read back as rouge-score does."""
    t = [[0] * (len(c) + 1) for _ in range(len(r) + 1)]
    for i in range(1, len(r) + 1):
        for j in range(1, len(c) + 1):
            if r[i - 1] == c[j - 1]:
                t[i][j] = t[i - 1][j - 1] + 1
            else:
                t[i][j] = max(t[i - 1][j], t[i][j - 1])
    out, i, j = set(), len(r), len(c)
    while i > 0 and j > 0:
        if r[i - 1] == c[j - 1]:
            out.add(i - 1)
            i, j = i - 1, j - 1
        elif t[i][j - 1] > t[i - 1][j]:
            j -= 1
        else:
            i -= 1
    return out


def summary_lcs_slow(hyp_sents: Sequence[Sequence], ref_sents: Sequence[Sequence]) -> tuple:
    """The twin of :func:`lsum_per_ref` for one pair of sentence lists:
    ``(hits, candidate tokens, reference tokens)``.

    Examples
    --------
    >>> summary_lcs_slow([[1, 2, 6, 7, 8], [1, 3, 8, 9, 5]], [[1, 2, 3, 4, 5]])
    (4, 10, 5)
    """
    hyp_sents = [s for s in hyp_sents if s]
    ref_sents = [s for s in ref_sents if s]
    n, m = sum(map(len, hyp_sents)), sum(map(len, ref_sents))
    if not n or not m:
        return 0, 0, 0
    left_c = Counter(t for s in hyp_sents for t in s)
    left_r = Counter(t for s in ref_sents for t in s)
    hits = 0
    for r in ref_sents:
        union = set().union(*(_lcs_indices(r, c) for c in hyp_sents))
        for k in sorted(union):
            if left_c[r[k]] > 0 and left_r[r[k]] > 0:
                hits += 1
                left_c[r[k]] -= 1
                left_r[r[k]] -= 1
    return hits, n, m


def text_counts(
    hyps: Sequence[str],
    refs: Sequence[Sequence[str | None]],
    orders: Sequence[int] = (1, 2),
    *,
    lcs: bool = True,
    stem: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """ROUGE-N (each order) and ROUGE-L counts from raw text with rouge-score's tokens.

    ``refs[k][p]`` is the ``k``-th reference of candidate ``p`` (None: missing). Returns
    ``(counts, letters)``: counts ``(P, R, len(orders) + lcs, 3)`` of ``[hits, candidate
    total, reference total]`` and letters ``(P + R * P, 2)`` of ``[letters, dropped]`` for
    every candidate, then every reference.

    Examples
    --------
    >>> counts, _ = text_counts(["testing one"], [["testing one two"]], (1, 2))
    >>> counts[0, 0].tolist()
    [[2.0, 2.0, 3.0], [1.0, 1.0, 2.0], [2.0, 2.0, 3.0]]
    """
    refs = [list(r) for r in refs]
    return _core.rouge_text_counts(list(hyps), refs, [int(n) for n in orders], lcs, stem)


def _lcs_len(a: Sequence, b: Sequence) -> int:
    row = [0] * (len(b) + 1)
    for x in a:
        diag = 0
        for j in range(1, len(b) + 1):
            up = row[j]
            row[j] = diag + 1 if b[j - 1] == x else max(up, row[j - 1])
            diag = up
    return row[-1]


def text_counts_slow(
    hyps: Sequence[str],
    refs: Sequence[Sequence[str | None]],
    orders: Sequence[int] = (1, 2),
    *,
    lcs: bool = True,
    stem: bool = False,
) -> np.ndarray:
    """The plain-Python twin of :func:`text_counts` (counts only)."""
    width = len(orders) + int(lcs)
    out = np.zeros((len(hyps), len(refs), width, 3))
    for p, h in enumerate(hyps):
        a = tokenize_slow(h, stem=stem)
        for k, row in enumerate(refs):
            if row[p] is None:
                continue
            b = tokenize_slow(row[p], stem=stem)
            for q, n in enumerate(orders):
                ca = Counter(tuple(a[i : i + n]) for i in range(len(a) - n + 1))
                cb = Counter(tuple(b[i : i + n]) for i in range(len(b) - n + 1))
                hits = sum(min(c, cb[g]) for g, c in ca.items())
                out[p, k, q] = hits, max(len(a) - n + 1, 0), max(len(b) - n + 1, 0)
            if lcs:
                out[p, k, width - 1] = _lcs_len(a, b), len(a), len(b)
    return out
