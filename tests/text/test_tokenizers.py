"""Tokenizers: 13a and intl give exactly sacrebleu's tokens; the others behave as documented.

Both our implementations are checked: the per-line Python tokenizers
(:mod:`mtpalette.text.tokenizers`) and the compiled bulk tokenizers that the encoder uses
(:mod:`mtpalette.text.bulk`), on every line of the bundled data and on generated text.
"""


import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from real_data import mqm_ted_root
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International

from mtpalette.errors import UserInputError
from mtpalette.text.bulk import SPACE, char_flags
from mtpalette.text.encode import Encoder, TextView
from mtpalette.text.tokenizers import get_tokenizer, tokenize_char, tokenize_jieba, tokenize_none

SACRE = {
    "13a": Tokenizer13a(),
    "intl": TokenizerV14International(),
    "none": lambda line: line,  # sacrebleu's "none": BLEU then splits on whitespace
    "char": lambda line: " ".join(line),  # sacrebleu's TokenizerChar
}


def sacre_tokens(name: str, line: str, lowercase: bool = False) -> list[str]:
    """The tokens sacrebleu's BLEU scores: lower-case, rstrip, tokenize, split."""
    if lowercase:
        line = line.lower()
    return SACRE[name](line.rstrip()).split()


def _bundled_lines():
    root = mqm_ted_root()
    for lp in ("ende", "zhen"):
        for path in sorted((root / lp).iterdir(), key=lambda p: p.name):
            if path.name.endswith(".txt") and path.name != "seg_ids.txt":
                yield from path.read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def bundled_lines():
    lines = list(dict.fromkeys(_bundled_lines()))  # all systems, references, sources (zh too)
    assert len(lines) > 10000
    assert any("\u4e00" <= c <= "\u9fff" for c in lines[-1] + "".join(lines[:2000]))
    return lines


@pytest.mark.parametrize("name", ["13a", "intl"])
def test_python_tokenizers_equal_sacrebleu_on_bundled_data(bundled_lines, name):
    ours = get_tokenizer(name)
    bad = [line for line in bundled_lines if ours(line) != SACRE[name](line).split()]
    assert bad == []


@pytest.mark.parametrize("name", ["13a", "intl", "none", "char"])
@pytest.mark.parametrize("lowercase", [False, True])
def test_compiled_tokenizers_equal_sacrebleu_on_bundled_data(bundled_lines, name, lowercase):
    enc = Encoder(TextView(name, lowercase))
    rows = enc.encode(bundled_lines)
    bad = [
        line
        for i, line in enumerate(bundled_lines)
        if enc.vocab.decode(rows[i]) != sacre_tokens(name, line, lowercase)
    ]
    assert bad == []


# Pieces that exercise every rule: the 13a class, period/comma/dash next to digits (ASCII and
# other scripts), runs of punctuation, HTML entities (also nested), <skipped>, newlines and
# "-\n", Unicode punctuation, symbols, numbers and whitespace, letters whose lower case
# differs in length or context (İ, final sigma), astral characters, NUL.
PIECES = [*"aZ09 .,-'\"&;<>$%/\\{}[]^_`~!?()*+:=@#|\n\t\r\x0b\x0c\x1c\x1f\x85"] + [
    "&quot;",
    "&amp;",
    "&lt;",
    "&gt;",
    "&amp;quot;",
    "<skipped>",
    "<skip<skipped>ped>",
    "-\n",
    "...",
    ",,",
    "5.",
    ".5",
    "3,50",
    "1-2",
    "€",
    "«",
    "»",
    "—",
    "。",
    "、",
    "٣",
    "½",
    "Ⅻ",
    "é",
    "ß",
    "中",
    "İ",
    "ΣΑΣ",
    "\u00a0",
    "\u2009",
    "\u2028",
    "\u3000",
    "\x00",
    "𝟘",
    "😀",
]
tricky = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


@settings(max_examples=300, deadline=None)
@given(tricky)
@pytest.mark.parametrize("name", ["13a", "intl"])
def test_python_tokenizers_equal_sacrebleu_on_generated_text(name, text):
    assert get_tokenizer(name)(text) == SACRE[name](text).split()


@settings(max_examples=300, deadline=None)
@given(st.lists(tricky, min_size=1, max_size=8), st.booleans())
@pytest.mark.parametrize("name", ["13a", "intl", "none", "char"])
def test_compiled_tokenizers_equal_sacrebleu_on_generated_text(name, lines, lowercase):
    """Several lines at once: nothing leaks from one line into the next."""
    enc = Encoder(TextView(name, lowercase))
    rows = enc.encode(lines)
    for i, line in enumerate(lines):
        assert enc.vocab.decode(rows[i]) == sacre_tokens(name, line, lowercase)


@pytest.mark.parametrize("unicode_classes", [False, True])
def test_whitespace_table_is_str_isspace(unicode_classes):
    """Every code point is checked (the table checks those below U+3001 only)."""
    flags = char_flags(unicode_classes)
    spaces = [c for c in range(0x110000) if chr(c).isspace()]
    assert np.flatnonzero(flags & SPACE).tolist() == spaces


def test_13a_examples():
    tok = get_tokenizer("13a")
    # period and comma stay inside numbers; a dash after a digit is split off
    assert tok("It costs $3,500.50 - or 3-4 euros.") == [
        "It", "costs", "$", "3,500.50", "-", "or", "3", "-", "4", "euros", ".",
    ]  # fmt: skip
    # entities are unescaped first; <skipped> disappears; "-\n" joins
    assert tok("say &quot;hi&quot; <skipped>to-\nday") == ["say", '"', "hi", '"', "today"]


def test_intl_keeps_number_punctuation():
    # mteval-v14: punctuation between digits stays, a number's final period stays attached
    assert get_tokenizer("intl")("Pi is 3.14, in 2021.") == ["Pi", "is", "3.14", ",", "in", "2021."]


def test_char_none_and_jieba():
    assert tokenize_char("a b\tc") == ["a", "b", "c"]
    assert tokenize_none(" a  b\tc ") == ["a", "b", "c"]
    words = tokenize_jieba("我们在北京工作")
    assert "".join(words) == "我们在北京工作"  # nothing dropped
    assert 1 < len(words) < 7  # words, not characters
    assert tokenize_jieba("北京 欢迎 you") == ["北京", "欢迎", "you"]  # whitespace is dropped
    assert get_tokenizer("jieba") is tokenize_jieba


def test_unknown_tokenizer_lists_known():
    with pytest.raises(UserInputError, match="13a.*intl"):
        get_tokenizer("moses")
    with pytest.raises(UserInputError, match="unknown tokenizer"):
        Encoder(TextView("moses")).encode(["a b"])
