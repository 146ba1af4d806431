"""Properties every registered metric family must have, driven by the registry."""

import numpy as np
import pytest

from mtpalette.metrics.registry import known_metrics, parse_spec
from mtpalette.metrics.scoring import TextPairs, compute_stats


@pytest.fixture(scope="module")
def sample(real_pairs):
    hyps, refs = real_pairs["two_refs"]
    return hyps[:200], [r[:200] for r in refs]


def _stats(metric, hyps, refs):
    return compute_stats([metric], TextPairs.parallel(hyps, refs))[metric]


@pytest.mark.parametrize("name", known_metrics())
def test_identity_gets_the_best_score(name, sample):
    _, refs = sample
    metric = parse_spec(name)[0]
    refs_long = [r for r in refs[0] if len(r.split()) >= 10][:50]
    scores = metric.sentence_scores(_stats(metric, refs_long, [refs_long]))
    best = 0.0 if not metric.higher_is_better else {"0-100": 100.0, "0-1": 1.0}.get(metric.scale)
    if best is None:  # unbounded scores (NIST): identity must beat every other pairing
        other = metric.sentence_scores(_stats(metric, refs_long[1:] + refs_long[:1], [refs_long]))
        assert (scores > other).all()
    else:
        np.testing.assert_allclose(scores, best, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("name", known_metrics())
def test_shuffling_segments_keeps_the_corpus_score(name, sample):
    hyps, refs = sample
    metric = parse_spec(name)[0]
    order = np.random.default_rng(7).permutation(len(hyps))
    shuffled = [hyps[i] for i in order], [[r[i] for i in order] for r in refs]
    a = metric.corpus_score(_stats(metric, hyps, refs))
    b = metric.corpus_score(_stats(metric, *shuffled))
    assert a == pytest.approx(b, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("name", known_metrics())
def test_empty_hypothesis_and_shapes(name, sample):
    hyps, refs = sample
    metric = parse_spec(name)[0]
    hyps = ["", *hyps[1:]]
    stats = _stats(metric, hyps, refs)
    assert stats.shape[0] == len(hyps) and stats.dtype == np.float64
    scores = metric.sentence_scores(stats)
    assert scores.shape == (len(hyps),) and np.isfinite(scores).all()
    assert np.isfinite(metric.corpus_score(stats))
    assert isinstance(metric.higher_is_better, bool)
    sig = str(metric.signature(n_refs=2))
    assert sig.startswith(metric.spec + "|") and "nrefs:2" in sig and "version:" in sig
