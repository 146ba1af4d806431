"""WER equals jiwer; PER follows its definition; both choose the best reference as documented."""

from collections import Counter

import jiwer
import numpy as np
import pytest

from mtpalette import corpus_score, sentence_scores
from mtpalette.errors import UserInputError
from mtpalette.metrics import parse_specs


def test_wer_equals_jiwer_on_one_reference(real_pairs):
    hyps, (refs,) = real_pairs["one_ref"]
    assert len(hyps) >= 2000
    ours = sentence_scores(hyps, [refs], ["wer"], tokenize="none")["wer"]
    theirs = [jiwer.wer(r, h) for h, r in zip(hyps, refs, strict=True)]
    assert np.abs(ours - theirs).max() <= 1e-12
    corpus = corpus_score(hyps, [refs], ["wer"], tokenize="none")[0]
    assert corpus.value == pytest.approx(jiwer.wer(refs, hyps), abs=1e-12)
    assert corpus.higher_is_better is False


def _jiwer_errors(hyp, ref):
    out = jiwer.process_words(ref, hyp)
    return out.substitutions + out.deletions + out.insertions


def test_wer_best_reference_rules(real_pairs):
    hyps, refs = real_pairs["two_refs"]
    hyps, refs = hyps[:1500], [r[:1500] for r in refs]
    out = sentence_scores(hyps, refs, ["wer", "wer:best=rate"], tokenize="none")
    fewest, lowest = [], []
    for i, h in enumerate(hyps):
        options = [(_jiwer_errors(h, r[i]), len(r[i].split())) for r in refs]
        rates = [e / max(n, 1) for e, n in options]
        e_min = min(e for e, _ in options)
        # fewest errors, ties to the lower rate
        fewest.append(min(rate for (e, _), rate in zip(options, rates, strict=True) if e == e_min))
        lowest.append(min(rates))
    np.testing.assert_allclose(out["wer"], fewest, rtol=0, atol=1e-12)
    np.testing.assert_allclose(out["wer:best=rate"], lowest, rtol=0, atol=1e-12)
    # the two rules disagree on real data, so the choice is visible
    assert (out["wer"] > out["wer:best=rate"]).sum() > 0


def _per_slow(hyp, ref):
    h, r = hyp.split(), ref.split()
    matches = sum((Counter(h) & Counter(r)).values())
    # Popović and Ney (2007): errors = (|N_r - N_h| + sum_w |n_h(w) - n_r(w)|) / 2
    words = set(h) | set(r)
    errors = (abs(len(r) - len(h)) + sum(abs(h.count(w) - r.count(w)) for w in words)) / 2
    assert errors == max(len(h), len(r)) - matches
    return errors, 1 - (matches - max(0, len(h) - len(r))) / max(len(r), 1), len(r)


def test_per_definition_and_best_reference(real_pairs):
    hyps, refs = real_pairs["two_refs"]
    hyps, refs = hyps[:1500], [r[:1500] for r in refs]
    out = sentence_scores(hyps, refs, ["per", "per:best=errors"], tokenize="none")
    rate, errors = [], []
    for i, h in enumerate(hyps):
        options = [_per_slow(h, r[i]) for r in refs]
        rate.append(min(o[1] for o in options))
        e_min = min(o[0] for o in options)
        errors.append(min(o[1] for o in options if o[0] == e_min))
    np.testing.assert_allclose(out["per"], rate, rtol=0, atol=1e-12)
    np.testing.assert_allclose(out["per:best=errors"], errors, rtol=0, atol=1e-12)


def test_hand_cases():
    refs = [["a b c d"], ["a b"]]
    # WER: "a c d" vs "a b c d" = 1 deletion / 4; vs "a b" = 2 edits / 2: the first is best.
    out = sentence_scores(["a c d"], refs, ["wer", "per"], tokenize="none")
    assert out["wer"].tolist() == [0.25]
    # PER: vs "a b c d": matches 3, |c| < |r| -> 1 - 3/4; vs "a b": matches 1, excess 1 ->
    # 1 - (1 - 1) / 2 = 1.
    assert out["per"].tolist() == [0.25]
    # 3 insertions into a 10-word reference (rate 0.3) or 2 deletions from a 5-word one (0.4)
    hyp, long, short = "a b c d e f g", "a b c d e f g h i j", "a b c d e"
    out = sentence_scores([hyp], [[long], [short]], ["wer", "wer:best=rate"], tokenize="none")
    assert out["wer"].tolist() == [0.4] and out["wer:best=rate"].tolist() == [0.3]
    same = sentence_scores(["x y z"], [["x y z"]], ["wer", "per"])
    assert same["wer"].tolist() == [0.0] and same["per"].tolist() == [0.0]


def test_empty_sides_are_defined_as_jiwer_does():
    hyps, refs = ["a b c", "", ""], ["", "a b", ""]
    ours = sentence_scores(hyps, [refs], ["wer"], tokenize="none")["wer"]
    assert ours.tolist() == [3.0, 1.0, 0.0]  # errors / max(1, reference length)
    assert ours.tolist() == [jiwer.wer(r, h) for h, r in zip(hyps, refs, strict=True)]
    corpus = corpus_score(hyps, [refs], ["wer"], tokenize="none")[0].value
    assert corpus == jiwer.wer(refs, hyps) == 2.5


def test_spec_and_signature():
    (wer,) = parse_specs(["wer:best=rate"])
    assert wer.spec == "wer:best=rate" and parse_specs(["wer"])[0].spec == "wer"
    assert "multiref:lowest-rate" in str(wer.signature(n_refs=2))
    assert parse_specs(["per:best=rate"])[0].spec == "per"
    with pytest.raises(UserInputError):
        parse_specs(["wer:best=closest"])
