"""Length baselines (``len``, ``len:sign=-1``, ``lendiff``) on real sentences of the bundled
WMT21 TED zh-en data (see NOTICE), against plain Python counts of sacrebleu's 13a tokens."""

import numpy as np
import pytest
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from mtpalette import sentence_scores
from mtpalette.errors import UserInputError
from mtpalette.metrics.registry import parse_spec, parse_specs
from mtpalette.metrics.scoring import TextPairs, compute_stats

N = 300


@pytest.fixture(scope="module")
def sample(ted_zhen):
    systems, refs = ted_zhen
    return systems["NiuTrans"][:N], [r[:N] for r in refs]


def _words(text: str) -> int:
    return len(Tokenizer13a()(text).split())


def test_direction_and_baseline_metadata():
    length, minus, diff, mean = parse_specs(["len", "len:sign=-1", "lendiff", "lendiff:ref=mean"])
    assert [m.spec for m in (length, minus, diff, mean)] == [
        "len",
        "len:sign=-1",
        "lendiff",
        "lendiff:ref=mean",
    ]
    assert length.higher_is_better and minus.higher_is_better and not diff.higher_is_better
    assert all(m.baseline for m in (length, minus, diff, mean))
    assert not any(m.baseline for m in parse_specs(["bleu", "chrf", "wer", "rouge-w:1.2"]))
    assert "baseline:minus-hyp-words" in str(minus.signature(n_refs=2))
    assert "multiref:closest" in str(diff.signature(n_refs=2))


def test_hypothesis_length_counts_13a_words(sample):
    hyps, refs = sample
    out = sentence_scores(hyps, refs, ["len", "len:sign=-1"])
    expected = np.array([_words(h) for h in hyps], dtype=float)
    np.testing.assert_array_equal(out["len"], expected)
    np.testing.assert_array_equal(out["len:sign=-1"], -expected)
    # "in words under the run's tokenizer": characters with tok=char (no spaces)
    chars = sentence_scores(hyps[:20], [r[:20] for r in refs], ["len:tok=char"])
    assert chars["len:tok=char"].tolist() == [len(h.replace(" ", "")) for h in hyps[:20]]


def test_length_difference_against_closest_and_mean_reference(sample):
    hyps, refs = sample
    out = sentence_scores(hyps, refs, ["lendiff", "lendiff:ref=mean"])
    for i, h in enumerate(hyps):
        diffs = [abs(_words(h) - _words(r[i])) for r in refs]
        assert out["lendiff"][i] == min(diffs)
        assert out["lendiff:ref=mean"][i] == pytest.approx(sum(diffs) / len(diffs))
    # a missing reference is ignored: only the first reference of the odd segments
    holes = [r if i % 2 == 0 else None for i, r in enumerate(refs[1])]
    part = sentence_scores(hyps, [refs[0], holes], ["lendiff"])["lendiff"]
    one = sentence_scores(hyps, refs[:1], ["lendiff"])["lendiff"]
    np.testing.assert_array_equal(part[1::2], one[1::2])


def test_a_reference_against_itself_differs_by_nothing(sample):
    _, refs = sample
    out = sentence_scores(refs[0], refs[:1], ["lendiff", "lendiff:ref=mean"])
    assert (out["lendiff"] == 0).all() and (out["lendiff:ref=mean"] == 0).all()


def test_corpus_score_is_the_mean_over_segments(sample):
    hyps, refs = sample
    metrics = parse_specs(["len", "len:sign=-1", "lendiff"])
    stats = compute_stats(metrics, TextPairs.parallel(hyps, refs))
    for m in metrics:
        assert m.corpus_score(stats[m]) == pytest.approx(m.sentence_scores(stats[m]).mean())
    mean_words = np.mean([_words(h) for h in hyps])
    assert metrics[0].corpus_score(stats[metrics[0]]) == pytest.approx(mean_words)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("len:sign=2", "one of 1, -1"),
        ("lendiff:ref=max", "one of closest, mean"),
        ("len:3", "no positional argument"),
    ],
)
def test_out_of_domain_options_are_refused(spec, message):
    with pytest.raises(UserInputError, match=message):
        parse_spec(spec)
