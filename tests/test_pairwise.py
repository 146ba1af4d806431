"""mtpalette.pairwise: every candidate against every reference of its segment.

The chrF kernel is checked against its Counter twin (hypothesis), the matrices against the
metrics' own sentence scores (which equal sacrebleu's) on real candidate lists, and against
fastchrf's pairwise_chrf when it is installed.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtpalette import pairwise, sentence_scores
from mtpalette.errors import UserInputError
from mtpalette.kernels.pairwise import pairwise_ngram_stats, pairwise_ngram_stats_slow
from mtpalette.text.ragged import Ragged


@pytest.fixture(scope="module")
def lists(ted_zhen):
    """12 segments of 13 real system outputs each (bundled TED zh-en)."""
    systems, _ = ted_zhen
    outputs = [systems[n] for n in sorted(systems)]
    return [[o[s] for o in outputs] for s in range(40, 52)]


_ROWS = st.lists(st.lists(st.integers(0, 4), max_size=9), max_size=4)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_ROWS, _ROWS), min_size=1, max_size=4), st.integers(1, 5))
def test_kernel_equals_counting(segments, max_n):
    hyp = Ragged.from_rows([r for h, _ in segments for r in h])
    ref = Ragged.from_rows([r for _, rr in segments for r in rr])
    h_seg = np.cumsum([0] + [len(h) for h, _ in segments])
    r_seg = np.cumsum([0] + [len(r) for _, r in segments])
    out = pairwise_ngram_stats(hyp, h_seg, ref, r_seg, max_n)
    for (h, r), got in zip(segments, out, strict=True):
        np.testing.assert_array_equal(got, pairwise_ngram_stats_slow(h, r, max_n))


@pytest.mark.parametrize("spec", ["chrf", "chrf++", "chrf:beta=1,eps=yes", "bleus:4", "rouge-l"])
def test_equals_sentence_scores(lists, spec):
    refs = [seg[:5] for seg in lists]
    out = pairwise(lists, refs, spec)
    assert out.shape == (12, 13, 5)
    for s in (0, 7, 11):
        for j in range(5):
            expected = sentence_scores(lists[s], [[refs[s][j]] * 13], [spec]).popitem()[1]
            np.testing.assert_array_equal(out[s, :, j], expected)


def test_mbr_self_and_ragged_segments(lists):
    mbr = pairwise(lists)  # the candidates are their own pseudo-references
    assert mbr.shape == (12, 13, 13)
    np.testing.assert_array_equal(np.diagonal(mbr, axis1=1, axis2=2), 100.0)
    ragged = pairwise([lists[0][:3], lists[1][:5], []], [lists[0][:2], lists[1][:1], ["x"]])
    assert [m.shape for m in ragged] == [(3, 2), (5, 1), (0, 1)]
    np.testing.assert_array_equal(ragged[1][:, 0], mbr[1, :5, 0])


def test_blocks_do_not_change_values(lists):
    whole = pairwise(lists, metric="chrf++")
    np.testing.assert_array_equal(pairwise(lists, metric="chrf++", block_cells=100), whole)
    np.testing.assert_array_equal(pairwise(lists, metric="rouge-l", block_cells=10),
                                  pairwise(lists, metric="rouge-l"))  # fmt: skip


def test_equals_fastchrf(lists):
    fastchrf = pytest.importorskip("fastchrf")
    theirs = np.asarray(fastchrf.pairwise_chrf(lists, lists))
    np.testing.assert_allclose(pairwise(lists), theirs, rtol=0, atol=1e-9)


def test_refuses_mismatched_input():
    with pytest.raises(UserInputError, match="segments"):
        pairwise([["a"]], [["a"], ["b"]])
    with pytest.raises(UserInputError, match="list of strings"):
        pairwise(["a b"])
