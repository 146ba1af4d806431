"""ROSE's features (Song and Cohn, 2011, Table 1), for one candidate and its references.

String matching, n = 1..4 (features 1-13):

* precision ``P_n``: the candidate's n-gram occurrences found in *any* reference over all its
  n-grams - no clipping, as the paper says (repeats raise precision, recall pays for them);
* recall ``R_n``: per reference, its n-gram occurrences found in the candidate over all its
  n-grams; the reference with the highest recall (the smallest error) is kept;
* ``F_n = 2 P_n R_n / (P_n + R_n)``; average n-gram precision ``(P_1 + .. + P_4) / 4``.

Word counts (14-17): for words, function words (a list per target language, chosen with
``function_words``: ``fw100``, 100 words per language as in the paper, bundled; or
``stopwordsiso``, that package's full list; see :func:`function_words`), punctuation (tokens
made only of Unicode punctuation, category P) and content words (the rest),
``1 + (count in candidate - count in reference) / reference length``: 1 when the counts
agree, normalised by the reference length as the paper does; over several references the
value closest to 1.

POS (18-33, ``pos=True``): the same precision, recall and F over n-grams of Universal POS tags
(:mod:`mtpalette.text.pos`; English only), and the string/POS mixed precision: a candidate
n-gram matches a reference n-gram when, position by position, the words or their tags agree
(the paper's Table 2: "A red car" vs "A red vehicle" matches as a 3-gram).

Empty denominators give 0. Features are computed in numpy per sentence pair; ROSE is trained
and applied on thousands of pairs, where this is fast enough (see bench notes).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import cache

import numpy as np

N = 4
CORE = (
    [f"P{n}" for n in range(1, N + 1)]
    + [f"R{n}" for n in range(1, N + 1)]
    + [f"F{n}" for n in range(1, N + 1)]
    + ["avgP", "words", "function", "punct", "content"]
)
POS = (
    [f"posP{n}" for n in range(1, N + 1)]
    + [f"posR{n}" for n in range(1, N + 1)]
    + [f"posF{n}" for n in range(1, N + 1)]
    + [f"mixP{n}" for n in range(1, N + 1)]
)


def feature_names(pos: bool) -> list[str]:
    return CORE + (POS if pos else [])


#: function-word resources: ``fw100`` (bundled, 100 words per language, as the paper's lists)
#: and ``stopwordsiso`` (the package's full lists, e.g. 1,298 English words)
FUNCTION_WORDS = ("fw100", "stopwordsiso")


@cache
def _fw100() -> dict[str, list[str]]:
    import json
    from importlib import resources

    ref = resources.files("mtpalette") / "data" / "lexical" / "function_words_100.json"
    return json.loads(ref.read_text(encoding="utf-8"))["words"]


@cache
def function_words(lang: str, source: str = "stopwordsiso") -> frozenset[str]:
    """The function words of ``lang`` (lower case) from ``source``.

    * ``fw100``: 100 words per language (cs, de, en, es, fr), the size of Song and Cohn
      (2011)'s lists: the stopwordsiso words most frequent in WMT12 newstest2012
      (``data/lexical/function_words_100.json``, ``scripts/build_function_words.py``; see
      ``data/NOTICE``);
    * ``stopwordsiso``: the whole stopwordsiso list of the language (any of its 50-odd
      languages; English has 1,298 words, many of them content words such as "know").

    Examples
    --------
    >>> len(function_words("en", "fw100")), len(function_words("en"))
    (100, 1298)
    >>> "know" in function_words("en"), "know" in function_words("en", "fw100")
    (True, False)
    """
    from mtpalette.errors import UserInputError

    if source == "fw100":
        words = _fw100()
        if lang not in words:
            raise UserInputError(
                f"no fw100 function-word list for language {lang!r} (it has "
                f"{', '.join(sorted(words))}); use function_words=stopwordsiso"
            )
        return frozenset(words[lang])
    if source != "stopwordsiso":
        raise UserInputError(
            f"unknown function-word list {source!r}; expected {' or '.join(FUNCTION_WORDS)}"
        )
    import stopwordsiso

    if not stopwordsiso.has_lang(lang):
        raise UserInputError(f"no function-word list for language {lang!r} in stopwordsiso")
    return frozenset(w.lower() for w in stopwordsiso.stopwords(lang))


def is_punct(token: str) -> bool:
    """A token made only of Unicode punctuation (categories P*).

    Examples
    --------
    >>> is_punct("."), is_punct("«"), is_punct("a."), is_punct("$")
    (True, True, False, False)
    """
    return bool(token) and all(unicodedata.category(ch).startswith("P") for ch in token)


def _grams(tokens: Sequence[str], n: int) -> list[tuple[str, ...]]:
    return [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]


def _ratio(a: float, b: float) -> float:
    return a / b if b else 0.0


def _f(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r else 0.0


def prf(cand: Sequence[str], refs: Sequence[Sequence[str]]) -> tuple[list, list, list]:
    """Precision (any reference), best recall, F for n = 1..4.

    Examples
    --------
    >>> p, r, f = prf("the the cat".split(), ["the cat sat".split()])
    >>> p[0], round(r[0], 4), p[1]  # unclipped: both "the" count
    (1.0, 0.6667, 0.5)
    """
    P, R, F = [], [], []
    for n in range(1, N + 1):
        cg = _grams(cand, n)
        ref_sets = [set(_grams(r, n)) for r in refs]
        union = set().union(*ref_sets) if ref_sets else set()
        p = _ratio(sum(g in union for g in cg), len(cg))
        cset = set(cg)
        r = max(
            (
                _ratio(
                    sum(g in cset for g in _grams(ref, n)), len(ref) - n + 1 if len(ref) >= n else 0
                )
                for ref in refs
            ),
            default=0.0,
        )
        P.append(p)
        R.append(r)
        F.append(_f(p, r))
    return P, R, F


def count_features(
    cand: Sequence[str],
    refs: Sequence[Sequence[str]],
    lang: str,
    function_words_source: str = "stopwordsiso",
) -> list[float]:
    """Words, function words, punctuation, content words: ``1 + (c - r) / |ref|``, the value
    closest to 1 over the references.

    Examples
    --------
    >>> count_features("the cat , sat".split(), ["a cat sat".split()], "en")
    [1.3333333333333333, 1.0, 1.3333333333333333, 1.0]
    """
    fw = function_words(lang, function_words_source)

    def counts(tokens: Sequence[str]) -> np.ndarray:
        punct = sum(is_punct(t) for t in tokens)
        func = sum(t.lower() in fw for t in tokens if not is_punct(t))
        return np.array([len(tokens), func, punct, len(tokens) - punct - func], dtype=float)

    c = counts(cand)
    best = None
    for ref in refs:
        values = 1.0 + (c - counts(ref)) / max(len(ref), 1)
        best = (
            values
            if best is None
            else np.where(np.abs(values - 1) < np.abs(best - 1), values, best)
        )
    return (best if best is not None else np.zeros(4)).tolist()


def mixed_precision(
    cand: Sequence[str],
    cand_tags: Sequence[str],
    refs: Sequence[tuple[Sequence[str], Sequence[str]]],
) -> list[float]:
    """String/POS mixed n-gram precision: a position matches if its word or its tag does.

    Examples
    --------
    >>> ref = ("a red vehicle".split(), ["DET", "ADJ", "NOUN"])
    >>> mixed_precision("a red car".split(), ["DET", "ADJ", "NOUN"], [ref])[:3]
    [1.0, 1.0, 1.0]
    >>> mixed_precision("a red red".split(), ["DET", "ADJ", "ADJ"], [ref])[:3]
    [1.0, 0.5, 0.0]
    """
    out = []
    cw, ct = np.array(cand, dtype=object), np.array(cand_tags, dtype=object)
    for n in range(1, N + 1):
        m = len(cand) - n + 1
        if m <= 0:
            out.append(0.0)
            continue
        hit = np.zeros(m, dtype=bool)
        for words, tags in refs:
            k = len(words) - n + 1
            if k <= 0:
                continue
            rw, rt = np.array(words, dtype=object), np.array(tags, dtype=object)
            ok = np.ones((m, k), dtype=bool)
            for j in range(n):
                ok &= (cw[j : j + m, None] == rw[None, j : j + k]) | (
                    ct[j : j + m, None] == rt[None, j : j + k]
                )
            hit |= ok.any(axis=1)
        out.append(float(hit.mean()))
    return out


def features(
    cand: Sequence[str],
    refs: Sequence[Sequence[str]],
    *,
    lang: str = "en",
    pos: bool = False,
    tagger=None,
    function_words: str = "stopwordsiso",
) -> list[float]:
    """Every feature of :func:`feature_names` for one candidate (tokens) and its references;
    ``function_words``: the list of :func:`function_words` (``fw100`` or ``stopwordsiso``)."""
    P, R, F = prf(cand, refs)
    row = P + R + F + [sum(P) / N] + count_features(cand, refs, lang, function_words)
    if pos:
        ctags = tagger.tag(list(cand))
        rtags = [tagger.tag(list(r)) for r in refs]
        pP, pR, pF = prf(ctags, rtags)
        row += pP + pR + pF + mixed_precision(cand, ctags, list(zip(refs, rtags, strict=True)))
    return row
