"""WER equals jiwer; PER follows its definition; both pick the best reference."""

from collections import Counter

import jiwer
import numpy as np
import pytest

from mtpalette import corpus_score, sentence_scores


def test_wer_equals_jiwer(real_pairs):
    hyps, (refs,) = real_pairs["one_ref"]
    assert len(hyps) >= 2000
    keep = [i for i, r in enumerate(refs) if r.split()]
    hyps, refs = [hyps[i] for i in keep], [refs[i] for i in keep]
    ours = sentence_scores(hyps, [refs], ["wer"], tokenize="none")["wer"]
    theirs = [jiwer.wer(r, h) if h.strip() else 1.0 for h, r in zip(hyps, refs, strict=True)]
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)
    corpus = corpus_score(hyps, [refs], ["wer"], tokenize="none")[0]
    assert corpus.value == pytest.approx(jiwer.wer(refs, hyps), abs=1e-12)
    assert corpus.higher_is_better is False


def _per_slow(hyp, ref):
    h, r = hyp.split(), ref.split()
    matches = sum((Counter(h) & Counter(r)).values())
    return 1 - (matches - max(0, len(h) - len(r))) / max(len(r), 1)


def test_per_definition_and_best_reference(real_pairs):
    hyps, refs = real_pairs["two_refs"]
    ours = sentence_scores(hyps, refs, ["per"], tokenize="none")["per"]
    expected = [min(_per_slow(h, r[i]) for r in refs) for i, h in enumerate(hyps)]
    np.testing.assert_allclose(ours, expected, rtol=0, atol=1e-12)


def test_hand_cases():
    refs = [["a b c d"], ["a b"]]
    # WER: "a c d" vs "a b c d" = 1 deletion / 4; vs "a b" = 2 edits / 2: the first is best.
    out = sentence_scores(["a c d"], refs, ["wer", "per"], tokenize="none")
    assert out["wer"].tolist() == [0.25]
    # PER: vs "a b c d": matches 3, |c| < |r| -> 1 - 3/4; vs "a b": matches 1, excess 1 ->
    # 1 - (1 - 1) / 2 = 1.
    assert out["per"].tolist() == [0.25]
    same = sentence_scores(["x y z"], [["x y z"]], ["wer", "per"])
    assert same["wer"].tolist() == [0.0] and same["per"].tolist() == [0.0]
