"""Encoding text to int32 ids: round trips, shared ids, blocks, the exact vocabulary."""


import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from real_data import mqm_ted

from mtpalette.kernels.tokenize import encode_text
from mtpalette.text import bulk
from mtpalette.text.encode import Encoder, TextView
from mtpalette.text.ragged import Ragged
from mtpalette.text.tokenizers import TOKENIZERS
from mtpalette.text.vocab import Vocabulary, from_codepoints, to_codepoints

VIEWS = [TextView(tok, lc) for tok in ("13a", "intl", "none", "char") for lc in (False, True)]


@pytest.fixture(scope="module")
def ted_lines():
    root = mqm_ted("zhen")["root"]
    lines = []
    for name in ("ref.txt", "refB.txt", "Online-W.txt", "source.txt"):
        lines += (root / name).read_text(encoding="utf-8").splitlines()
    return lines


@pytest.mark.parametrize("view", [*VIEWS, TextView("zh"), TextView("jieba")], ids=str)
def test_round_trip_on_real_text(ted_lines, view):
    enc = Encoder(view)
    rows = enc.encode(ted_lines)
    assert len(rows) == len(ted_lines)
    for i, line in enumerate(ted_lines):
        assert enc.vocab.decode(rows[i]) == view.tokens(line)


def test_equal_tokens_share_ids_and_lines_share_rows():
    enc = Encoder(TextView("13a", lowercase=True))
    lines = ["The cat, the hat.", "A hat!", "The cat, the hat."]
    ragged = enc.encode(lines)
    assert ragged[0].tolist() == ragged[2].tolist()
    assert ragged[0][0] == ragged[0][3]  # "the" lower-cased: one id
    assert ragged[0][4] == ragged[1][1]  # "hat"
    assert len(enc.vocab) == len({"the", "cat", ",", "hat", ".", "a", "!"})


def test_later_calls_reuse_ids_and_none_is_empty():
    enc = Encoder(TextView("13a"))
    first = enc.encode(["a b c", "b"])
    second = enc.encode([None, "c b a", "a b c", "d"])
    assert second[0].tolist() == []
    assert second[1].tolist() == first[0].tolist()[::-1]
    assert second[2].tolist() == first[0].tolist()
    assert second[3].tolist() == [3]  # the next new id
    assert enc.encode([]).offsets.tolist() == [0]
    assert enc.encode_line("b a") == [1, 0]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.text(alphabet="ab .,-1\n&;", max_size=30), min_size=1, max_size=30),
    st.sampled_from(VIEWS),
)
def test_blocks_and_parallel_path_give_the_same_ids(lines, view):
    """Cutting the lines into many compiled calls, in parallel or not, changes nothing."""
    expected = Encoder(view).encode(lines)
    saved = bulk._BLOCK_CHARS, bulk._PARALLEL_MIN_CHARS
    try:
        bulk._BLOCK_CHARS, bulk._PARALLEL_MIN_CHARS = 16, 0
        got = Encoder(view).encode(lines)
    finally:
        bulk._BLOCK_CHARS, bulk._PARALLEL_MIN_CHARS = saved
    np.testing.assert_array_equal(got.ids, expected.ids)
    np.testing.assert_array_equal(got.offsets, expected.offsets)


def test_line_by_line_path_for_other_tokenizers(monkeypatch):
    monkeypatch.setitem(TOKENIZERS, "test-commas", lambda line: line.split(","))
    enc = Encoder(TextView("test-commas"))
    rows = enc.encode(["a,b", "b,,c"])
    assert [enc.vocab.decode(rows[i]) for i in range(2)] == [["a", "b"], ["b", "", "c"]]


def test_vocabulary_is_exact_and_grows():
    v = Vocabulary()
    words = [f"w{i}" for i in range(20000)] + ["", "é", "😀", "\ud800", "a b"]
    ids = v.ids(words)
    assert ids == list(range(len(words)))  # consecutive, in order of first appearance
    assert v.ids(words[::-1]) == ids[::-1]  # found again after many table doublings
    assert v.decode([1, 20001, 20002, 20003]) == ["w1", "é", "😀", "\ud800"]
    assert v.token(20004) == "a b"
    with pytest.raises(IndexError):
        v.token(len(words))
    # distinct tokens interned with room made at once: the same ids, then found again
    d = Vocabulary()
    d.ids(words[:3])
    cp = to_codepoints("".join(words))
    lengths = np.array([len(w) for w in words], dtype=np.int64)
    starts = np.cumsum(lengths) - lengths
    got = d.intern_spans(cp, starts, lengths, None, distinct=True)
    assert got.tolist() == ids and d.ids(words[::-1]) == ids[::-1]


def test_codepoints_round_trip():
    text = "a€😀\ud800\x00"
    assert to_codepoints(text).tolist() == [ord(c) for c in text]
    assert from_codepoints(to_codepoints(text)) == text


def test_ragged_take_and_from_rows():
    r = Ragged.from_rows([[1, 2], [], [3]])
    assert r.take(np.array([2, 2, 1, 0])).ids.tolist() == [3, 3, 1, 2]
    assert r.take(np.array([2, 2, 1, 0])).offsets.tolist() == [0, 1, 2, 2, 4]
    assert len(r.take(np.array([], dtype=np.int64))) == 0
    with pytest.raises(IndexError):
        r.take(np.array([3]))
    with pytest.raises(TypeError):
        Ragged(np.zeros(2, np.int64), np.array([0, 2]))


def test_a_lone_surrogate_takes_the_code_point_route():
    """Python strings may hold a lone surrogate, which is not UTF-8: such a batch is
    tokenized from code points, with the same tokens as the per-line tokenizer."""
    lines = ["a \ud800b, c", "3.5 x"]
    with pytest.raises(UnicodeEncodeError):  # the Python strings route refuses it
        encode_text(lines, bulk.MODES["13a"], bulk.char_flags(False), False)
    enc = Encoder(TextView("13a"))
    rows = enc.encode(lines)
    assert [enc.vocab.decode(rows[i]) for i in range(2)] == [
        TextView("13a").tokens(line) for line in lines
    ]
