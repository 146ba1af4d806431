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


def test_mbr_selects_the_highest_expected_utility(lists):
    from mtpalette.metrics.mbr import mbr

    sel = mbr(lists)
    u = pairwise(lists)
    for s, seg in enumerate(lists):
        others = (u[s].sum(axis=1) - np.diagonal(u[s])) / (len(seg) - 1)
        assert sel.index[s] == int(np.argmax(others)) and sel.text[s] == seg[sel.index[s]]
        assert sel.utility[s] == others.max()
    rerank = mbr(lists, [seg[:1] for seg in lists], "bleus:4")
    assert (rerank.index == 0).all()  # the reference itself is among the candidates
    ter = mbr(lists, [seg[:1] for seg in lists], "ter")  # lower is better: negated
    assert (ter.index == 0).all()


def test_mbr_command(tmp_path, lists):
    from typer.testing import CliRunner

    from mtpalette.cli.app import app

    nbest = tmp_path / "samples.nbest"
    nbest.write_text(
        "".join(f"{s} ||| {c}\n" for s, seg in enumerate(lists) for c in seg), encoding="utf-8"
    )
    out = tmp_path / "sel.txt"
    args = ["mbr", str(nbest), "-o", str(out), "--scores", str(tmp_path / "s.tsv")]
    done = CliRunner().invoke(app, [*args, "--matrix", str(tmp_path / "m.npz")])
    assert done.exit_code == 0, done.output
    from mtpalette.metrics.mbr import mbr

    assert out.read_text(encoding="utf-8").splitlines() == mbr(lists).text
    saved = np.load(tmp_path / "m.npz")
    np.testing.assert_array_equal(saved["segment_3"], pairwise(lists)[3])
    bad = CliRunner().invoke(app, ["mbr", str(nbest), "-r", str(out), "--segments", "3"])
    assert isinstance(bad.exception, UserInputError)  # main() turns it into exit code 2
    assert "segment id 3 is outside 0..2" in str(bad.exception)
