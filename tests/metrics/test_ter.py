"""TER equals sacrebleu's TER on real data; the kernel equals sacrebleu's Tercom port."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import TER as SacreTER
from sacrebleu.metrics.lib_ter import translation_edit_rate

from mtpalette import corpus_score, sentence_scores
from mtpalette.kernels.ter import ter_edits


@pytest.mark.parametrize("nrefs", ["one_ref", "two_refs"])
def test_equals_sacrebleu(real_pairs, nrefs):
    hyps, refs = real_pairs[nrefs]
    hyps, refs = hyps[::2], [r[::2] for r in refs]  # TER in Python is slow: half the pairs
    assert len(hyps) >= 1000
    sacre = SacreTER()
    assert corpus_score(hyps, refs, ["ter"])[0].value == pytest.approx(
        sacre.corpus_score(hyps, refs).score, abs=1e-9
    )
    ours = sentence_scores(hyps, refs, ["ter"])["ter"]
    theirs = [sacre.sentence_score(h, [r[i] for r in refs]).score for i, h in enumerate(hyps)]
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-9)


def test_case_option(real_pairs):
    hyps, refs = real_pairs["one_ref"]
    hyps, refs = hyps[:300], [r[:300] for r in refs]
    ours = corpus_score(hyps, refs, ["ter:case=yes"])[0].value
    assert ours == pytest.approx(SacreTER(case_sensitive=True).corpus_score(hyps, refs).score)


words = st.lists(st.integers(0, 5), max_size=16)  # few distinct words: many shift candidates


@settings(max_examples=400, deadline=None)
@given(words, words)
def test_kernel_equals_tercom_port(h, r):
    ours = ter_edits(np.array(h, dtype=np.int32), np.array(r, dtype=np.int32))
    assert ours == translation_edit_rate([str(x) for x in h], [str(x) for x in r])[0]


def test_hand_case_and_empty():
    out = sentence_scores(["b c a", "", "x"], [["a b c", "a b", ""]], ["ter"])["ter"]
    # one shift of "a" to the front; an empty candidate needs |ref| insertions; a candidate
    # against an empty reference scores 100 (sacrebleu's rule).
    np.testing.assert_allclose(out, [100 / 3, 100.0, 100.0])
