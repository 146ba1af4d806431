"""Paragraphs of WMT25/26 documents and WMT26's merge/split alignment: hand cases, the
organisers' own outputs (tests/data/wmt26_alignment/golden.json, made by
scripts/wmt26_alignment_golden.py running their unmodified functions) and the merge rule's
brute force (every grouping tried, the first strictly best kept, as the organisers do)."""

from __future__ import annotations

import itertools
import json
import statistics
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtpalette.text.paragraphs import (
    align_paragraphs,
    join_paragraphs,
    merge_paragraphs,
    sentences,
    split_paragraphs,
    split_paragraphs_to,
    strip_html,
)

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "wmt26_alignment" / "golden.json"


def test_split_is_the_organisers_split():
    assert split_paragraphs("a\n\nb\n\nc") == ["a", "b", "c"]
    assert split_paragraphs("a\nb") == ["a\nb"]
    assert split_paragraphs("a\n\n\n\nb") == ["a", "", "b"]
    assert join_paragraphs(split_paragraphs("x\n\n\ny")) == "x\n\n\ny"


def test_strip_html_keeps_text():
    assert strip_html('<p class="x">A &amp; B</p>') == "A &amp; B"
    assert strip_html("3 < 4 > 2") == "3 < 4 > 2"


def test_merge_by_hand():
    # fertility 1: groups of lengths (4+1+4)=9 vs 9 and 4 vs 4 beat (4) vs 9 and (9) vs 4
    assert merge_paragraphs(["123456789", "1234"], ["abcd", "efgh", "ijkl"]) == [
        "abcd\nefgh",
        "ijkl",
    ]
    assert merge_paragraphs(["1234", "123456789"], ["abcd", "efgh", "ijkl"]) == [
        "abcd",
        "efgh\nijkl",
    ]
    # a tie: the organisers keep the earliest merges
    assert merge_paragraphs(["aa", "aa"], ["x", "x", "x", "x"]) == ["x\nx", "x\nx"]
    assert merge_paragraphs(["a", "b"], ["x", "y", "z"]) == ["x\ny", "z"]
    with pytest.raises(ValueError):
        merge_paragraphs(["a", "b"], ["x"])


def test_split_by_hand():
    # fertility 1: 'Aaaa. Bb.' (9) is longer than 'Xxxx.' (5) expected: cut after 'Aaaa.'
    assert split_paragraphs_to(["Xxxx.", "Yy.", "Zz."], ["Aaaa. Bb.", "Cc."]) == [
        "Aaaa.",
        "Bb.",
        "Cc.",
    ]
    # the cut nearest the expected length, sentences rejoined with one space
    assert split_paragraphs_to(["One two three.", "Four."], ["A b c.\nD e f. G."]) == [
        "A b c. D e f.",
        "G.",
    ]
    assert split_paragraphs_to(["甲。", "乙。"], ["你好。再见。"]) == ["你好。", "再见。"]
    assert split_paragraphs_to(["a.", "b."], ["one sentence only."]) is None
    assert align_paragraphs(["", ""], ["x"]) is None  # no source characters


def test_sentences():
    assert sentences("A. B! C? D") == ["A.", "B!", "C?", "D"]
    assert sentences("3.5 is a number. Yes.") == ["3.5 is a number.", "Yes."]
    assert sentences("(Yes.) No.") == ["(Yes.)", "No."]


def test_equals_the_organisers_outputs():
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    cases = golden["cases"]
    assert len(cases) >= 100
    assert any(c["aligned"] is None for c in cases)
    for case in cases:
        assert align_paragraphs(case["source"], case["target"]) == case["aligned"], case


def _brute_merge(source: list[str], target: list[str]) -> list[str]:
    """The organisers' rule written out plainly: every set of merge points in
    itertools.combinations order, the first strictly least mean kept."""
    fert = sum(map(len, target)) / sum(map(len, source))
    best, best_value = None, float("inf")
    for points in itertools.combinations(range(len(target) - 1), len(target) - len(source)):
        groups = list(target)
        for k in sorted(points, reverse=True):
            groups[k] += "\n" + groups.pop(k + 1)
        value = statistics.mean(
            abs(len(a) * fert - len(b)) for a, b in zip(source, groups, strict=True)
        )
        if value < best_value:
            best, best_value = groups, value
    return best


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text("ab ", min_size=1, max_size=9), min_size=1, max_size=4),
    st.lists(st.text("xy", min_size=0, max_size=6), min_size=1, max_size=8),
)
def test_merge_equals_brute_force(source, target):
    if len(target) < len(source) or not "".join(source):
        return
    assert merge_paragraphs(source, target) == _brute_merge(source, target)
