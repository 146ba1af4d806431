"""BLANC's section 3 special case: alpha = beta = 0, size 2, redundant matches disregarded, is
ROUGE-S (Lita, Rogati and Lavie, 2005, section 3), checked on real sentences with repeated
words; and the clipped counts against a slow count of skip-n-gram multisets."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from real_data import mqm_ted

from mtpalette.kernels.acs import clipped_skip_counts
from mtpalette.metrics.registry import parse_spec
from mtpalette.metrics.scoring import TextPairs, compute_stats

DATA = mqm_ted("ende")["root"]
SPECIAL = "blanc:alpha=0,beta=0,n=2,gamma=60,redundant=drop"


def _stats(spec: str, hyps: list[str], refs: list[list[str]]) -> np.ndarray:
    [m] = parse_spec(spec, tokenize="none")
    return compute_stats([m], TextPairs.parallel(hyps, refs))[m]


def _repeated_word_pairs(limit: int = 200) -> tuple[list[str], list[str]]:
    hyps = (DATA / "Facebook-AI.txt").read_text(encoding="utf-8").splitlines()
    refs = (DATA / "ref.txt").read_text(encoding="utf-8").splitlines()
    keep = [
        (h, r)
        for h, r in zip(hyps, refs, strict=True)
        if len(h.split()) >= 2
        and len(r.split()) >= 2
        and len(set(h.split())) < len(h.split())
        and len(set(r.split())) < len(r.split())
    ]
    return [h for h, _ in keep[:limit]], [r for _, r in keep[:limit]]


def test_section3_special_case_is_rouge_s_on_real_pairs_with_repeated_words():
    hyps, refs = _repeated_word_pairs()
    assert len(hyps) >= 100  # real sentences where both sides repeat a word
    blanc = _stats(SPECIAL, hyps, [refs])
    rouge = _stats("rouge-s:*", hyps, [refs])
    np.testing.assert_allclose(blanc[:, :2], rouge[:, :2], rtol=0, atol=1e-12)
    # without dropping redundant matches the counts differ, as the issue found
    acs = _stats("blanc:alpha=0,beta=0,n=2,gamma=60", hyps, [refs])
    assert (np.abs(acs[:, :2] - rouge[:, :2]).max(axis=1) > 1e-9).sum() > len(hyps) // 4


def _slow(a: list[int], b: list[int], kmax: int) -> list[float]:
    out = []
    for k in range(1, kmax + 1):
        ca, cb = Counter(itertools.combinations(a, k)), Counter(itertools.combinations(b, k))
        out.append(float(sum((ca & cb).values())))
    return out


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 4), min_size=0, max_size=9),
    st.lists(st.integers(0, 4), min_size=0, max_size=9),
    st.integers(1, 4),
)
def test_clipped_counts_equal_multiset_intersection(a, b, kmax):
    x, y = np.array(a, dtype=np.int32), np.array(b, dtype=np.int32)
    zero = np.zeros(1, dtype=np.int64)
    got = clipped_skip_counts(x, np.array([0, len(x)]), y, np.array([0, len(y)]), zero, zero, kmax)
    assert got[0].tolist() == _slow(a, b, kmax)


def test_identity_scores_one_and_no_ratio_above_one():
    out = _stats(
        "blanc:alpha=0,beta=0,n=4,redundant=drop", ["a a b a", "a b"], [["a a b a", "a a a"]]
    )
    assert out[0].tolist() == [1.0, 1.0, 1.0]
    assert (out <= 1.0).all()


@pytest.mark.parametrize(
    "spec, needle",
    [
        ("blanc:alpha=1,redundant=drop", "needs alpha=0 and beta=0"),
        ("blanc:n=*,alpha=0,redundant=drop", "n must be 1 to 4"),
        ("blanc:redundant=maybe", "keep"),
    ],
)
def test_drop_refused_where_it_has_no_meaning(spec, needle):
    with pytest.raises(Exception, match=needle):
        parse_spec(spec)


def test_signature_names_the_choice():
    [m] = parse_spec(SPECIAL)
    assert "redundant=drop" in m.spec
    [plain] = parse_spec("blanc:n=2")
    assert "redundant" not in plain.spec
