"""The Python API: one scoring run gives corpus scores, sentence scores and statistics that
agree with each other, with the metrics used directly and with sacrebleu on real data; bad
arguments raise :class:`UserInputError` with a message that says what to do."""

import numpy as np
import pytest
import sacrebleu

from mtpalette import corpus_score, sentence_scores
from mtpalette.api import score_texts
from mtpalette.errors import UserInputError
from mtpalette.metrics import parse_specs
from mtpalette.metrics.scoring import TextPairs, compute_stats

SPECS = ["bleu", "bleus:1..2", "chrf", "wer"]


@pytest.fixture(scope="module")
def data(ted_zhen):
    systems, refs = ted_zhen
    return systems["NiuTrans"], refs


def test_score_texts_agrees_with_the_metrics_and_the_other_entry_points(data):
    hyps, refs = data
    out = score_texts(hyps, refs, SPECS)
    assert out.specs == ["bleu", "bleus:1", "bleus:2", "chrf", "wer"]
    assert (out.n_segments, out.n_refs) == (len(hyps), 2)
    metrics = parse_specs(SPECS)
    stats = compute_stats(metrics, TextPairs.parallel(hyps, refs))
    for m, score in zip(metrics, out.corpus, strict=True):
        np.testing.assert_array_equal(out.stats[m.spec], stats[m])
        assert out.stats[m.spec].shape[0] == len(hyps)
        assert score.value == m.corpus_score(stats[m])
        np.testing.assert_array_equal(out.sentence[m.spec], m.sentence_scores(stats[m]))
        assert score.higher_is_better is m.higher_is_better
        assert out.signatures[m.spec] == m.signature(n_refs=2)
    assert [s.value for s in corpus_score(hyps, refs, SPECS)] == [s.value for s in out.corpus]
    for spec, values in sentence_scores(hyps, refs, SPECS).items():
        np.testing.assert_array_equal(values, out.sentence[spec])


def test_reference_streams_as_sacrebleu(data):
    """The stream layout is sacrebleu's: the same call gives sacrebleu's corpus BLEU/chrF."""
    hyps, refs = data
    bleu, chrf = corpus_score(hyps, refs, ["bleu", "chrf"])
    assert bleu.value == pytest.approx(sacrebleu.corpus_bleu(hyps, refs).score, abs=1e-9)
    assert chrf.value == pytest.approx(sacrebleu.corpus_chrf(hyps, refs).score, abs=1e-9)
    assert str(bleu.signature).startswith("bleu|nrefs:2|")


def test_variable_number_of_references(data):
    """``None`` marks a missing reference: those segments score as with their one reference."""
    hyps, (ref_a, ref_b) = data
    holes = [None if i % 3 == 0 else r for i, r in enumerate(ref_b)]
    mixed = sentence_scores(hyps, [ref_a, holes], ["bleus:4", "chrf"])
    single = sentence_scores(hyps, [ref_a], ["bleus:4", "chrf"])
    double = sentence_scores(hyps, [ref_a, ref_b], ["bleus:4", "chrf"])
    for spec in mixed:
        np.testing.assert_allclose(mixed[spec][::3], single[spec][::3], rtol=1e-12)
        keep = np.arange(len(hyps)) % 3 != 0
        np.testing.assert_allclose(mixed[spec][keep], double[spec][keep], rtol=1e-12)


def test_options_and_conveniences(data):
    hyps, refs = data
    (lower,) = corpus_score(hyps, refs, "bleu", lowercase=True)
    assert lower.value == pytest.approx(
        sacrebleu.corpus_bleu(hyps, refs, lowercase=True).score, abs=1e-9
    )
    assert "case:lc" in str(lower.signature)
    (intl,) = corpus_score(hyps, refs, ["bleu"], tokenize="intl")
    assert intl.value == pytest.approx(
        sacrebleu.corpus_bleu(hyps, refs, tokenize="intl").score, abs=1e-9
    )
    (override,) = corpus_score(hyps, refs, ["bleu:tok=intl"])  # a spec keyword wins
    assert override.value == intl.value


@pytest.mark.parametrize(
    ("hyps", "refs", "metrics", "message"),
    [
        ("a b", [["a b"]], ["bleu"], "hyps must be a list of strings"),
        ([], [[]], ["bleu"], "no segments"),
        (["a", 3], [["a", "b"]], ["bleu"], "hyps[1] is int"),
        (["a b"], ["a b"], ["bleu"], "with one reference per segment write refs=[refs]"),
        (["a b"], [], ["bleu"], "non-empty list of reference streams"),
        (["a", "b"], [["a"]], ["bleu"], "reference stream 1 has 1 segments, the hypotheses 2"),
        (["a"], [[b"a"]], ["bleu"], "refs[0][0] is bytes"),
        (["a", "b"], [["a", None], [None, None]], ["bleu"], "segment 2 has no reference"),
        (["a"], [["a"]], [], "no metric given"),
        (["a"], [["a"]], ["blue"], "unknown metric 'blue'; known metrics: blanc, bleu, bleus"),
        (["a"], [["a"]], ["bleus:0..x"], "bad range '0..x'"),
        (["a"], [["a"]], ["rouge-l:smooth=1"], "has no option 'smooth'"),
    ],
)
def test_bad_arguments(hyps, refs, metrics, message):
    with pytest.raises(UserInputError) as info:
        corpus_score(hyps, refs, metrics)
    assert message in str(info.value)


def test_unknown_tokenizer_lists_the_known_ones():
    with pytest.raises(UserInputError, match=r"unknown tokenizer 'moses'; known tokenizers: 13a"):
        corpus_score(["a"], [["a"]], ["bleu"], tokenize="moses")


def test_public_functions_take_arrays_series_and_generators_and_refuse_the_rest():
    """numpy arrays, pandas Series and generators are lists of segments; None, a mapping, a
    ragged or an empty input is refused with the argument's name (once: numpy's "truth value
    of an array is ambiguous", a bare TypeError)."""
    import numpy as np
    import pandas as pd

    from mtpalette import corpus_score, sentence_scores
    from mtpalette.errors import UserInputError

    hyps = ["the cat sat on the mat", "a dog barked"]
    refs = ["the cat sat on a mat", "the dog barked loudly"]
    want = corpus_score(hyps, [refs], "bleu")[0].value
    assert corpus_score(np.array(hyps), np.array([refs]), "bleu")[0].value == want
    assert corpus_score(pd.Series(hyps), [pd.Series(refs)], "bleu")[0].value == want
    assert corpus_score((h for h in hyps), [iter(refs)], "bleu")[0].value == want
    cases = [
        ((None, [refs]), "hyps is None"),
        ((hyps, None), "refs is None"),
        ((hyps, [None]), r"refs\[0\] is None"),
        ((hyps, {"a": refs}), "refs is dict"),
        ((hyps, [refs[:1]]), "reference stream 1 has 1 segments, the hypotheses 2"),
        (([], [[]]), "no segments"),
        ((hyps, []), "non-empty list of reference streams"),
        ((hyps[0], [refs]), "not a string"),
        (([1, 2], [refs]), r"hyps\[0\] is int"),
    ]
    for (h, r), message in cases:
        with pytest.raises(UserInputError, match=message):
            sentence_scores(h, r, "bleu")
