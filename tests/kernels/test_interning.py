"""n-gram interning: the Rust hash map and the numpy sort number n-grams differently but
must partition them identically (same n-gram, same id; prefixes consistent)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mtpalette.kernels.interning import intern_ngrams
from mtpalette.kernels.reference.interning import intern_ngrams_slow
from mtpalette.text.ragged import Ragged


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.integers(0, 4), max_size=12), min_size=1, max_size=6),
       st.integers(1, 5))  # fmt: skip
def test_fast_and_slow_interning_agree(rows, max_n):
    r = Ragged.from_rows(rows)
    fast, slow = intern_ngrams(r, max_n), intern_ngrams_slow(r, max_n)
    tokens = r.ids.tolist()
    starts = np.repeat(r.offsets[:-1], r.lengths())
    ends = np.repeat(r.offsets[1:], r.lengths())
    for k, (f, s) in enumerate(zip(fast, slow, strict=True), start=1):
        assert f.order == s.order == k and f.n_ids == s.n_ids
        np.testing.assert_array_equal(f.ids < 0, s.ids < 0)
        pairs = {(a, b) for a, b in zip(f.ids.tolist(), s.ids.tolist(), strict=True) if a >= 0}
        assert len({a for a, _ in pairs}) == len(pairs) == len({b for _, b in pairs})
        for t, g in enumerate(f.ids.tolist()):
            if g < 0:
                assert t + k > ends[t]
                continue
            assert t >= starts[t]
            if k > 1:  # the prefix of this n-gram is the (k-1)-gram at the same position
                assert f.prefix[g] == fast[k - 2].ids[t]
            # the same n-gram gets the same id everywhere
            same = [u for u in range(len(tokens)) if f.ids[u] == g]
            assert len({tuple(tokens[u : u + k]) for u in same}) == 1
