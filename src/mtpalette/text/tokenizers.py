"""Tokenizers, named as in sacrebleu where the name exists there.

``13a`` and ``intl`` give exactly the tokens of sacrebleu 2.x (``tokenize='13a'`` and
``'intl'``), which follow mteval-v13a.pl and mteval-v14.pl; ``none`` splits on whitespace;
``char`` gives every non-space character; ``zh`` segments Chinese into words with jieba
(unlike sacrebleu's ``zh``, which splits every CJK character: use ``char`` for that).

Every tokenizer maps one line to a list of tokens. These per-line functions are the reference
implementations; the encoder (:mod:`mtpalette.text.encode`) tokenizes whole corpora with the
compiled twins of ``13a``, ``intl``, ``none`` and ``char`` (:mod:`mtpalette.text.bulk`), each
distinct line once, and tests check that both give the same tokens as sacrebleu.

References
----------
mteval-v13a.pl and mteval-v14.pl (NIST); sacrebleu ``tokenizers/tokenizer_13a.py``,
``tokenizer_intl.py`` (Post, 2018).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from mtpalette.errors import UserInputError

Tokenizer = Callable[[str], list[str]]

# mteval-v13a: the single-character class that is always split off. Splitting a character
# off needs no context, so str.translate does it exactly and much faster than re.sub.
_13A_ALWAYS = '{|}~[\\]^_` !"#$%&()*+:;<=>?@/'
_13A_TABLE = str.maketrans({c: f" {c} " for c in _13A_ALWAYS})
_13A_PERIOD_COMMA_AFTER = re.compile(r"([^0-9])([\.,])")
_13A_PERIOD_COMMA_BEFORE = re.compile(r"([\.,])([^0-9])")
_13A_DASH_AFTER_DIGIT = re.compile(r"([0-9])(-)")


def tokenize_13a(line: str) -> list[str]:
    """Tokenize like mteval-v13a (sacrebleu ``13a``).

    Examples
    --------
    >>> tokenize_13a("It costs $3.50, isn't it?")
    ['It', 'costs', '$', '3.50', ',', "isn't", 'it', '?']
    """
    line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        line = (
            line.replace("&quot;", '"')
            .replace("&amp;", "&")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
        )
    line = f" {line} ".translate(_13A_TABLE)
    if "." in line or "," in line:
        line = _13A_PERIOD_COMMA_AFTER.sub(r"\1 \2 ", line)
        line = _13A_PERIOD_COMMA_BEFORE.sub(r" \1 \2", line)
    if "-" in line:
        line = _13A_DASH_AFTER_DIGIT.sub(r"\1 \2 ", line)
    return line.split()


@lru_cache(maxsize=1)
def _intl_patterns():
    """The ``regex`` patterns of intl, compiled on first use (importing ``regex`` costs a
    command-line start 25 ms)."""
    import regex

    return (
        regex.compile(r"(\P{N})(\p{P})"),
        regex.compile(r"(\p{P})(\P{N})"),
        regex.compile(r"(\p{S})"),
    )


def tokenize_intl(line: str) -> list[str]:
    """Tokenize like mteval-v14 ``--international-tokenization`` (sacrebleu ``intl``).

    Examples
    --------
    >>> tokenize_intl("Preis: 3,50 €!")
    ['Preis', ':', '3,50', '€', '!']
    """
    punct_after, punct_before, symbol = _intl_patterns()
    line = punct_after.sub(r"\1 \2 ", line)
    line = punct_before.sub(r" \1 \2", line)
    line = symbol.sub(r" \1 ", line)
    return line.split()


def tokenize_none(line: str) -> list[str]:
    """Split on whitespace only.

    Examples
    --------
    >>> tokenize_none(" a  b\\tc ")
    ['a', 'b', 'c']
    """
    return line.split()


def tokenize_char(line: str) -> list[str]:
    """Every character that is not whitespace is a token.

    Examples
    --------
    >>> tokenize_char("新 年好")
    ['新', '年', '好']
    """
    return [c for c in line if not c.isspace()]


def tokenize_zh(line: str) -> list[str]:
    """Chinese word segmentation with jieba (precise mode); whitespace is dropped.

    Examples
    --------
    >>> tokenize_zh("我们在北京")
    ['我们', '在', '北京']
    """
    return [t for t in _jieba().lcut(line) if not t.isspace()]


@lru_cache(maxsize=1)
def _jieba():
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)
    return jieba


TOKENIZERS: dict[str, Tokenizer] = {
    "13a": tokenize_13a,
    "intl": tokenize_intl,
    "none": tokenize_none,
    "char": tokenize_char,
    "zh": tokenize_zh,
}


def register_tokenizer(name: str, tokenizer: Tokenizer) -> None:
    """Make ``tokenizer`` available as ``name`` (a metric family's own word splitting)."""
    if TOKENIZERS.get(name, tokenizer) is not tokenizer:
        raise ValueError(f"tokenizer {name!r} registered twice")
    TOKENIZERS[name] = tokenizer


def get_tokenizer(name: str) -> Tokenizer:
    """The tokenizer registered as ``name``; unknown names list the known ones.

    Examples
    --------
    >>> get_tokenizer("13a")("Hello, world!")
    ['Hello', ',', 'world', '!']
    """
    try:
        return TOKENIZERS[name]
    except KeyError:
        known = ", ".join(sorted(TOKENIZERS))
        raise UserInputError(f"unknown tokenizer {name!r}; known tokenizers: {known}") from None
