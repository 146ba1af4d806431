"""Corpus scores of reweighted samples (what bootstrap and approximate randomization compute)
equal the corpus score of the sample built by repeating rows, for every registered family."""

from __future__ import annotations

import numpy as np
import pytest

from mtpalette.api import score_texts
from mtpalette.metrics import known_metrics, parse_specs
from mtpalette.metrics.base import Metric, TextMetric
from mtpalette.metrics.registry import metric_class

#: a spec of every family that needs no external file; the test fails when a family is added
#: without one here
SPECS = {
    "blanc": ["blanc", "blanc:n=*"],
    "bleu": ["bleu", "bleu:smooth=floor", "bleu:eff=yes"],
    "bleus": ["bleus:4"],
    "bleus-syn": ["bleus-syn:2"],
    "chrf": ["chrf", "chrf:w=2"],
    "gtm": ["gtm", "gtm:2"],
    "nist": ["nist"],
    "per": ["per"],
    "rouge-l": ["rouge-l"],
    "rouge-lsum": ["rouge-lsum", "rouge-lsum:tok=rouge-score,stem=yes"],
    "rouge-l-syn": ["rouge-l-syn"],
    "rouge-n": ["rouge-n:2"],
    "rouge-s": ["rouge-s:4"],
    "rouge-s-syn": ["rouge-s-syn:4"],
    "rouge-su": ["rouge-su:4"],
    "rouge-w": ["rouge-w:1.2"],
    "ter": ["ter", "ter:norm=yes"],
    "wer": ["wer", "wer:best=rate"],
    "len": ["len", "len:sign=-1"],
    "lendiff": ["lendiff", "lendiff:ref=mean"],
}
#: families scored from files or modules: text metrics whose corpus score is the mean
TEXT_FAMILIES = {"rose", "plugin"}


def test_every_family_is_covered():
    assert set(known_metrics()) == set(SPECS) | TEXT_FAMILIES
    for name in TEXT_FAMILIES:
        cls = metric_class(name)
        assert issubclass(cls, TextMetric) and cls.corpus_combine == "mean"
        assert cls.corpus_score is TextMetric.corpus_score


@pytest.fixture(scope="module")
def scored(ted_zhen):
    systems, refs = ted_zhen
    hyps = systems["Online-W"][:60]
    specs = [spec for family in SPECS.values() for spec in family]
    return score_texts(hyps, [r[:60] for r in refs], specs)


def test_reweighted_corpus_scores_equal_repeated_rows(scored):
    rng = np.random.default_rng(5)
    n = scored.n_segments
    weights = np.vstack(
        [
            np.ones(n, dtype=np.int64),
            rng.integers(0, 3, n),
            np.bincount(rng.integers(0, n, n), minlength=n),
        ]
    )
    weights[1, 0] += 1  # no empty sample
    for metric in parse_specs(scored.specs):
        stats = scored.stats[metric.spec]
        fast = metric.corpus_scores(stats, weights)
        slow = [metric.corpus_score(np.repeat(stats, w, axis=0)) for w in weights]
        np.testing.assert_allclose(fast, slow, rtol=1e-12, atol=1e-12, err_msg=metric.spec)
        assert fast[0] == pytest.approx(scored.corpus[scored.specs.index(metric.spec)].value)


def test_combine_is_declared_where_corpus_score_is_overridden():
    """A class that overrides corpus_score must say how it combines segments ("mean"), or
    express its corpus formula through corpus_scores_of_sums instead."""
    for name in SPECS:
        cls = metric_class(name)
        if cls.corpus_score is not Metric.corpus_score:
            assert cls.corpus_combine == "mean", name
        else:
            assert cls.corpus_combine == "sum", name
