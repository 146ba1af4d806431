"""Tokenizers: 13a and intl give exactly sacrebleu's tokens; the others behave as documented."""

from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International

from mtpalette.errors import UserInputError
from mtpalette.text.encode import Encoder, TextView
from mtpalette.text.tokenizers import get_tokenizer, tokenize_char, tokenize_zh

SACRE = {"13a": Tokenizer13a(), "intl": TokenizerV14International()}


def _bundled_lines():
    root = resources.files("mtpalette") / "data" / "mqm_ted"
    for lp in ("ende", "zhen"):
        for path in sorted((root / lp).iterdir(), key=lambda p: p.name):
            if path.name.endswith(".txt") and path.name != "seg_ids.txt":
                yield from path.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("name", ["13a", "intl"])
def test_identical_to_sacrebleu_on_bundled_data(name):
    ours, theirs = get_tokenizer(name), SACRE[name]
    lines = list(dict.fromkeys(_bundled_lines()))
    assert len(lines) > 10000
    bad = [line for line in lines if ours(line) != theirs(line).split()]
    assert bad == []


# Characters that exercise every rule: the 13a class, period/comma/dash next to digits,
# HTML entities, Unicode punctuation and symbols, digits of other scripts, newlines.
tricky = st.lists(
    st.sampled_from(
        list("aZ09 .,-'\"&;<>$%/\\{}[]^_`~!?()*+:=@#|\n\t")
        + [
            "&quot;",
            "&amp;",
            "&lt;",
            "&gt;",
            "<skipped>",
            "-\n",
            "€",
            "«",
            "»",
            "—",
            "。",
            "、",
            "٣",
            "½",
            "é",
            "ß",
            "中",
            "\u00a0",
            "\u2009",
        ]
    ),
    max_size=40,
).map("".join)


@settings(max_examples=500, deadline=None)
@given(tricky)
@pytest.mark.parametrize("name", ["13a", "intl"])
def test_identical_to_sacrebleu_on_generated_text(name, text):
    assert get_tokenizer(name)(text) == SACRE[name](text).split()


def test_char_and_zh():
    assert tokenize_char("a b\tc") == ["a", "b", "c"]
    assert "".join(tokenize_zh("我们在北京工作")) == "我们在北京工作"
    assert len(tokenize_zh("我们在北京工作")) < 7  # words, not characters


def test_unknown_tokenizer_lists_known():
    with pytest.raises(UserInputError, match="13a.*intl"):
        get_tokenizer("moses")


def test_encoding_round_trip_and_shared_ids():
    enc = Encoder(TextView("13a", lowercase=True))
    lines = ["The cat, the hat.", "A hat!", "The cat, the hat."]
    ragged = enc.encode(lines)
    for i, line in enumerate(lines):
        assert enc.vocab.decode(ragged[i].tolist()) == TextView("13a", True).tokens(line)
    assert ragged[0].tolist() == ragged[2].tolist()
    assert ragged[0][0] == ragged[0][3]  # "the" lower-cased shares one id
