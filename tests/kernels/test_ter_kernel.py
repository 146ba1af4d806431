"""The TER kernel equals sacrebleu's Tercom port and its own slow twin."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import lib_ter
from sacrebleu.metrics.lib_ter import translation_edit_rate

from mtpalette.kernels.reference.ter import ter_edits_slow
from mtpalette.kernels.ter import ter_edits


def _sacrebleu(h, r):
    return translation_edit_rate([str(x) for x in h], [str(x) for x in r])[0]


def _ours(h, r):
    return ter_edits(np.array(h, dtype=np.int32), np.array(r, dtype=np.int32))


words = st.lists(st.integers(0, 5), max_size=16)  # few distinct words: many shift candidates


@settings(max_examples=400, deadline=None)
@given(words, words)
def test_kernel_equals_sacrebleu(h, r):
    assert _ours(h, r) == _sacrebleu(h, r)


@settings(max_examples=60, deadline=None)
@given(words, words)
def test_slow_twin_equals_sacrebleu(h, r):
    assert ter_edits_slow(h, r) == _sacrebleu(h, r)


def test_candidate_limit_long_and_unbalanced_sentences(monkeypatch):
    """Long repetitive pairs reach sacrebleu's 1,000-candidate limit; very unequal lengths
    widen the beam. Both rules must be followed exactly."""
    limit_hits = []
    shift = lib_ter._shift

    def spy(*args):
        out = shift(*args)
        limit_hits.append(out[2] >= lib_ter._MAX_SHIFT_CANDIDATES)
        return out

    monkeypatch.setattr(lib_ter, "_shift", spy)
    rng = np.random.default_rng(11)
    cases = []
    for _ in range(6):
        v = int(rng.integers(2, 5))
        cases.append((rng.integers(0, v, rng.integers(30, 60)), rng.integers(0, v, 45)))
    cases.append((rng.integers(0, 9, 2), rng.integers(0, 9, 120)))  # ratio > 50: wider beam
    cases.append((rng.integers(0, 9, 120), rng.integers(0, 9, 2)))
    ref = np.arange(80)
    moved = np.concatenate([ref[40:70], ref[:40], ref[70:]])  # blocks far apart
    cases.append((moved, ref))
    for h, r in cases:
        assert _ours(h.tolist(), r.tolist()) == _sacrebleu(h.tolist(), r.tolist())
    assert any(limit_hits)


@pytest.mark.parametrize(
    ("h", "r", "edits"),
    [
        ("b c a", "a b c", 1),  # one shift of "a" to the front
        ("a b c", "a b c", 0),
        ("", "a b", 2),  # insertions only
        ("a b", "", 2),  # an empty reference: every candidate word is an edit
        ("x a b c", "a b c y", 2),
    ],
)
def test_hand_cases(h, r, edits):
    ids = {w: i for i, w in enumerate(sorted(set(h.split()) | set(r.split())))}
    hi, ri = [ids[w] for w in h.split()], [ids[w] for w in r.split()]
    assert _ours(hi, ri) == ter_edits_slow(hi, ri) == _sacrebleu(hi, ri) == edits
