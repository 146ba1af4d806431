"""Tercom's tokenizer, as sacrebleu's TER applies it (``TercomTokenizer``).

Four switches, sacrebleu's defaults in brackets: lower-casing [on; ``case_sensitive`` turns it
off: here the :class:`~mtpalette.text.encode.TextView` lower-cases], ``normalized`` [off]:
split punctuation and possessives, undo XML escapes; ``asian_support`` [off]: with
``normalized``, also split CJK ideographs, strokes, compatibility forms and CJK / full-width
punctuation into single characters; ``no_punct`` [off]: delete ``. , ? : ; ! " ( )`` (and, with
``asian_support``, CJK and full-width punctuation). The result is split on whitespace.

With every switch off the tokenizer is a whitespace split, and the metric uses the compiled
``none`` tokenizer instead. The variants register as ``tercom``, ``tercom+norm``,
``tercom+nopunct``, ``tercom+norm+asian``, ... (switches in that order); with normalisation,
``...+twice`` applies the tokenizer to its own output, as sacrebleu does to references.

sacrebleu's Asian normalisation also holds three substitutions meant to split hiragana,
katakana and katakana phonetic extensions; their patterns can only match a line that consists
of those characters alone, and the line is padded with spaces before them, so they never
change a line. They are left out here.

References
----------
Snover et al. (2006); Tercom ``Normalizer.java``; sacrebleu ``tokenizers/tokenizer_ter.py``.
"""

from __future__ import annotations

import re
from functools import partial

from mtpalette.text.tokenizers import register_tokenizer

# the same character class as mteval-v13a: ASCII punctuation but ' , - . and the space
_WESTERN_PUNCT = re.compile(r"([{-~\[-` -&(-+:-@/])")
_POSSESSIVE_MID = re.compile(r"'s ")
_POSSESSIVE_END = re.compile(r"'s$")
_PERIOD_COMMA_AFTER = re.compile(r"([^0-9])([\.,])")
_PERIOD_COMMA_BEFORE = re.compile(r"([\.,])([^0-9])")
_DASH_AFTER_DIGIT = re.compile(r"([0-9])(-)")

_CJK_GROUPS = [
    re.compile("([\u4e00-\u9fff\u3400-\u4dbf])"),
    re.compile("([\u31c0-\u31ef\u2e80-\u2eff])"),
    re.compile("([\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f])"),
    re.compile("([\u3200-\u3f22])"),
]
_ASIAN_PUNCT = re.compile("([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])")
_FULL_WIDTH_PUNCT = re.compile("([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])")
_PUNCT = re.compile(r"[\.,\?:;!\"\(\)]")


def _normalize(line: str, asian: bool) -> str:
    for old, new in (("\n-", ""), ("\n", " ")):
        line = line.replace(old, new)
    for old, new in (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">")):
        line = line.replace(old, new)
    line = f" {line} "
    line = _WESTERN_PUNCT.sub(r" \1 ", line)
    line = _POSSESSIVE_MID.sub(" 's ", line)
    line = _POSSESSIVE_END.sub(" 's", line)
    line = _PERIOD_COMMA_AFTER.sub(r"\1 \2 ", line)
    line = _PERIOD_COMMA_BEFORE.sub(r" \1 \2", line)
    line = _DASH_AFTER_DIGIT.sub(r"\1 \2 ", line)
    if asian:
        # one pass per range group, in Tercom's order (overlapping groups pad a character
        # twice, which the final split does not see)
        for pattern in _CJK_GROUPS:
            line = pattern.sub(r" \1 ", line)
        line = _ASIAN_PUNCT.sub(r" \1 ", line)
        line = _FULL_WIDTH_PUNCT.sub(r" \1 ", line)
    return line


def tokenize_tercom(
    line: str, *, normalized: bool = False, no_punct: bool = False, asian_support: bool = False
) -> list[str]:
    """Tokens of ``line`` as sacrebleu's ``TercomTokenizer`` makes them (case is left alone).

    Examples
    --------
    >>> tokenize_tercom("It's John's car, isn't it?", normalized=True)
    ['It', "'s", 'John', "'s", 'car', ',', "isn't", 'it', '?']
    >>> tokenize_tercom("Yes, (really).", no_punct=True)
    ['Yes', 'really']
    >>> tokenize_tercom("我们在北京。", normalized=True, asian_support=True)
    ['我', '们', '在', '北', '京', '。']
    """
    if not line:
        return []
    if normalized:
        line = _normalize(line, asian_support)
    if no_punct:
        line = _PUNCT.sub("", line)
        if asian_support:
            line = _FULL_WIDTH_PUNCT.sub("", _ASIAN_PUNCT.sub("", line))
    return line.split()


def tercom_name(*, normalized: bool, no_punct: bool, asian_support: bool) -> str:
    """The registered tokenizer name of one switch setting.

    Examples
    --------
    >>> tercom_name(normalized=True, no_punct=False, asian_support=True)
    'tercom+norm+asian'
    """
    flags = [("+norm", normalized), ("+nopunct", no_punct), ("+asian", asian_support)]
    return "tercom" + "".join(text for text, on in flags if on)


def tokenize_tercom_twice(line: str, **flags: bool) -> list[str]:
    """:func:`tokenize_tercom` applied to its own output, as sacrebleu 2.x's TER does to every
    reference (``_preprocess_segment`` when the references are cached, then again in
    ``_extract_reference_info``). Normalisation is not idempotent: a possessive before
    punctuation splits only the second time.

    Examples
    --------
    >>> tokenize_tercom("agreement's,", normalized=True)
    ["agreement's", ',']
    >>> tokenize_tercom_twice("agreement's,", normalized=True)
    ['agreement', "'s", ',']
    """
    return tokenize_tercom(" ".join(tokenize_tercom(line, **flags)), **flags)


for _norm in (False, True):
    for _nopunct in (False, True):
        for _asian in (False, True):
            _flags = {"normalized": _norm, "no_punct": _nopunct, "asian_support": _asian}
            register_tokenizer(tercom_name(**_flags), partial(tokenize_tercom, **_flags))
            if _norm:  # the other switches are idempotent
                register_tokenizer(
                    tercom_name(**_flags) + "+twice", partial(tokenize_tercom_twice, **_flags)
                )
