"""The Rust core (``mtpalette._core``) and its binding: score rows against the metrics' Python
definitions, bounded skip-bigram gaps, and bad arrays refused with a Python exception, never a
crash. (Wrappers against their slow twins: ``test_wrappers.py`` and the per-family tests.)"""

import math
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtpalette import _core
from mtpalette.kernels.skipbigram import skip_matches_kernel
from mtpalette.metrics.base import Pairs
from mtpalette.metrics.bleu import bleu_from_stats, bleu_scores
from mtpalette.metrics.nist import NIST
from mtpalette.text.ragged import Ragged

token = st.integers(0, 5)
sentence = st.lists(token, max_size=12)


@st.composite
def segments(draw):
    n_refs = draw(st.integers(1, 3))
    n_seg = draw(st.integers(1, 3))
    refs = [[draw(sentence) for _ in range(n_seg)] for _ in range(n_refs)]
    mask = np.array([[draw(st.booleans()) for _ in range(n_seg)] for _ in range(n_refs)])
    mask[0, :] = True
    hyps = draw(st.lists(st.tuples(st.integers(0, n_seg - 1), sentence), min_size=1, max_size=5))
    rows = [r for ref in refs for r in ref]
    pairs = Pairs(
        Ragged.from_rows([h for _, h in hyps]),
        np.array([s for s, _ in hyps], dtype=np.int64),
        Ragged.from_rows(rows),
        mask,
    )
    return refs, mask, hyps, pairs


stat_row = st.lists(st.integers(0, 30), min_size=10, max_size=10)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(stat_row, min_size=1, max_size=5),
    st.sampled_from(["none", "floor", "add-k", "exp"]),
    st.booleans(),
)
def test_bleu_rows_equal_the_python_formula(rows, smooth, effective):
    stats = np.array(rows, dtype=np.float64)
    got = bleu_scores(stats, 4, smooth=smooth, effective_order=effective)
    for row, value in zip(stats, got, strict=True):
        want = bleu_from_stats(row.copy(), 4, smooth=smooth, effective_order=effective)
        assert value == want  # the same operations in the same order: bit for bit


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.lists(st.integers(0, 50).map(float), min_size=11, max_size=11), min_size=1, max_size=4
    )
)
def test_nist_rows_equal_the_python_formula(rows):
    metric = NIST(n=2)
    stats = np.array(rows)
    for which, corpus in ((0, True), (1, False)):
        got = metric._scores(stats, which)
        want = [metric.score_row(r, corpus=corpus) for r in stats]
        np.testing.assert_array_equal(got, want)


def _pairs_arrays():
    pairs = Pairs(
        Ragged.from_rows([[1, 2, 3]]),
        np.array([0]),
        Ragged.from_rows([[1, 2]]),
        np.ones((1, 1), bool),
    )
    return list(pairs.arrays())


@pytest.mark.parametrize(
    "index, bad, message",
    [
        (1, np.array([0, 5], dtype=np.int64), "offsets"),  # past the ids
        (1, np.array([0, 2, 1, 3], dtype=np.int64), "offsets"),  # start not 0 / decreasing
        (2, np.array([3], dtype=np.int64), "segment"),  # no such segment
        (0, np.array([1, -2, 3], dtype=np.int32), "non-negative"),
        (5, np.ones((2, 1), bool), "R \\* S rows"),
    ],
)
def test_bad_arrays_raise_value_errors(index, bad, message):
    args = _pairs_arrays()
    args[index] = bad
    for call in (
        lambda a: _core.ngram_matches(a, 4, "best"),
        lambda a: _core.chrf_stats(a, 6, 1 << 18),
        lambda a: _core.edit_per_ref(a, False),
        lambda a: _core.ter_per_ref(a),
        lambda a: _core.gtm_mms(a, np.ones(1)),
        lambda a: _core.dp_per_ref("lcs", a, np.zeros(1)),
    ):
        with pytest.raises(ValueError, match=message):
            call(tuple(args))


def test_wrong_dtype_and_layout_raise_type_or_value_errors():
    args = _pairs_arrays()
    args[0] = args[0].astype(np.int64)
    with pytest.raises(TypeError):
        _core.ngram_matches(tuple(args), 4, "best")
    args = _pairs_arrays()
    args[0] = np.arange(6, dtype=np.int32)[::2]  # not contiguous
    with pytest.raises(ValueError, match="contiguous"):
        _core.ngram_matches(tuple(args), 4, "best")
    with pytest.raises(ValueError, match="unknown programme"):
        _core.dp_per_ref("nope", tuple(_pairs_arrays()), np.zeros(1))
    for bad in (np.zeros(0), np.array([1.0, np.nan])):
        with pytest.raises(ValueError, match="non-empty table of finite increments"):
            _core.dp_per_ref("wlcs-table", tuple(_pairs_arrays()), bad)


def test_acs_rows_out_of_range_raise():
    ids = np.array([1, 2], dtype=np.int32)
    off = np.array([0, 2], dtype=np.int64)
    with pytest.raises(ValueError, match="out of range"):
        _core.acs_counts(ids, off, ids, off, np.array([1]), np.array([0]), (1.0, 1.0, 1.0), 2)


def test_no_compiler_at_run_time():
    """The package imports without numba or any JIT: the kernels are ahead-of-time code."""
    code = (
        "import sys, mtpalette.kernels.ngram, mtpalette.text.bulk, mtpalette.stats.correlation;"
        "print(any(m.split('.')[0] in ('numba', 'llvmlite') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
    assert _core.num_threads() >= 1
    assert math.isfinite(float(_core.ter_edits(np.array([2, 3, 1], np.int32),
                                               np.array([1, 2, 3], np.int32))))  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(segments(), st.integers(0, 4))
def test_bounded_gaps_equal_the_full_enumeration(case, max_gap):
    """ROUGE-S-d lists only the pairs of gaps up to d (O(n d)); columns 0..d are unchanged."""
    _, _, _, pairs = case
    full = skip_matches_kernel(*pairs.arrays(), 6, max_gap + 2)
    bounded = skip_matches_kernel(*pairs.arrays(), 6, max_gap + 2, any_gap=False)
    np.testing.assert_array_equal(full[:, :, :-1], bounded[:, :, :-1])
