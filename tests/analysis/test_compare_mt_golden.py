"""``analyze`` equals compare-mt 0.2.10 (Neubig et al., 2019) on real WMT21 TED en-de outputs
of 3 systems, whitespace tokens: word precision, recall and F by frequency bucket with their
counts, BLEU by reference-length bucket and by length difference, and corpus BLEU (golden
values: scripts/compare_mt_golden.py, tests/data/compare_mt/golden.json)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from real_data import mqm_ted

import mtpalette
from mtpalette.api.analyze_run import analyze

GOLDEN = json.loads(
    (Path(__file__).parents[1] / "data" / "compare_mt" / "golden.json").read_text("utf-8")
)
DATA = mqm_ted("ende")["root"]
SYSTEMS = GOLDEN["data"]["systems"]


def _lines(name: str) -> list[str]:
    return (DATA / f"{name}.txt").read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def result():
    systems = {name: _lines(name) for name in SYSTEMS}
    return analyze(
        systems, [_lines("ref")], analyses=["words", "length", "lengthdiff"], compat="compare-mt"
    )


def test_word_accuracy_by_frequency_equals_compare_mt(result):
    words = result.analyses[0]
    want = GOLDEN["word_accuracy"]
    assert words.labels == want["bucket_labels"]
    assert words.ref_words == want["ref_words_per_bucket"]
    for name in SYSTEMS:
        counts = want["derived_counts"][name]
        assert words.matches[name] == counts["matches"]
        assert words.out_words[name] == counts["hyp_words"]
        for key in ("precision", "recall", "fmeasure"):
            np.testing.assert_allclose(getattr(words, key)[name], want[key][name], rtol=1e-12)


@pytest.mark.parametrize("by, index", [("length", 1), ("lengthdiff", 2)])
def test_bleu_by_sentence_bucket_equals_compare_mt(result, by, index):
    buckets = result.analyses[index]
    want = GOLDEN["sentence_buckets"][by]
    assert buckets.labels == want["bucket_labels"]
    for name in SYSTEMS:
        counts = want["sentence_counts"]
        counts = counts[name] if isinstance(counts, dict) else counts
        assert buckets.counts[name] == counts
        got = [0.0 if v is None else v for v in buckets.scores[name]]  # compare-mt prints 0
        np.testing.assert_allclose(got, want["bleu"][name], rtol=1e-12, atol=1e-12)


def test_corpus_bleu_equals_compare_mt():
    ref = [_lines("ref")]
    for name in SYSTEMS:
        [score] = mtpalette.corpus_score(
            _lines(name), ref, "bleu:compat=compare-mt", tokenize="none"
        )
        assert score.value == pytest.approx(GOLDEN["aggregate"]["bleu"][name], rel=1e-13)


def test_intervals_count_and_cover(result):
    systems = {name: _lines(name) for name in SYSTEMS[:2]}
    out = analyze(systems, [_lines("ref")], analyses=["length"], confidence=0.95,
                  n_resamples=200, seed=3)  # fmt: skip
    b = out.analyses[0]
    for name in systems:
        for score, lo, hi, n in zip(b.scores[name], b.low[name], b.high[name], b.counts[name],
                                    strict=True):  # fmt: skip
            if n == 0:
                assert score is None and lo is None and hi is None
            else:
                assert lo <= score <= hi or n < 5  # a bucket of a few sentences may not
    again = analyze(systems, [_lines("ref")], analyses=["length"], confidence=0.95,
                    n_resamples=200, seed=3)  # fmt: skip
    assert again.analyses[0].low == b.low  # seeded


def test_several_references_and_unknown_analyses_refused():
    with pytest.raises(mtpalette.errors.UserInputError, match="one reference"):
        analyze({"A": ["a"]}, [["a"], ["b"]])
    with pytest.raises(mtpalette.errors.UserInputError, match="unknown analysis"):
        analyze({"A": ["a"]}, [["a"]], analyses=["wordz"])
