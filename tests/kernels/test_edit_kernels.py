"""The bit-parallel edit distance and the bag-of-words matches equal their slow twins."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein

from mtpalette.kernels.edit import bag_matches, edit_distances
from mtpalette.kernels.reference.edit import bag_matches_slow, levenshtein_slow
from mtpalette.metrics.base import Pairs
from mtpalette.text.ragged import Ragged


def _pairs(hyps, refs):
    """One segment per candidate; ``refs[k][s]`` may be None (missing)."""
    mask = np.array([[r is not None for r in ref] for ref in refs])
    rows = [r if r is not None else [] for ref in refs for r in ref]
    return Pairs(
        Ragged.from_rows(hyps), np.arange(len(hyps), dtype=np.int64), Ragged.from_rows(rows), mask
    )


def _cases(sentence):
    return st.integers(1, 4).flatmap(
        lambda n: st.tuples(
            st.lists(sentence, min_size=n, max_size=n),
            st.lists(
                st.lists(st.one_of(st.none(), sentence), min_size=n, max_size=n),
                min_size=1,
                max_size=3,
            ),
        )
    )


short = st.lists(st.integers(0, 3), max_size=12)  # few distinct words: many repeats
# lengths around the 64-word limit of one machine word, and beyond it on both sides
long = st.lists(st.integers(0, 5), min_size=55, max_size=100)
huge_ids = st.lists(st.integers(0, 200_000), max_size=20)  # a large vocabulary
cases = _cases(st.one_of(short, long, huge_ids))


def _check(case, kernel, slow):
    hyps, refs = case
    out = kernel(_pairs(hyps, refs))
    assert out.shape == (len(hyps), len(refs))
    for p, h in enumerate(hyps):
        for k, ref in enumerate(refs):
            if ref[p] is None:
                assert np.isnan(out[p, k])
            else:
                assert out[p, k] == slow(h, ref[p])


@settings(max_examples=100, deadline=None)
@given(cases)
def test_edit_distance_equals_the_table(case):
    _check(case, edit_distances, levenshtein_slow)


@settings(max_examples=100, deadline=None)
@given(cases)
def test_bag_matches_equal_counters(case):
    _check(case, bag_matches, bag_matches_slow)


def test_every_length_up_to_and_past_64_words():
    # the pattern fills exactly 1..70 bits, against candidates shorter, equal and longer
    rng = np.random.default_rng(3)
    hyps, refs = [], []
    for m in range(1, 71):
        for n in (m - 1, m, m + 5, 130):
            refs.append(rng.integers(0, 4, m).tolist())
            hyps.append(rng.integers(0, 4, max(n, 0)).tolist())
    out = edit_distances(_pairs(hyps, [refs]))[:, 0]
    expected = [Levenshtein.distance(h, r) for h, r in zip(hyps, refs, strict=True)]
    np.testing.assert_array_equal(out, expected)


def test_slow_twins_on_known_values():
    assert levenshtein_slow("kitten", "sitting") == 3
    assert levenshtein_slow([], [1, 2]) == 2
    assert bag_matches_slow([1, 1, 2, 3], [1, 2, 2]) == 2
