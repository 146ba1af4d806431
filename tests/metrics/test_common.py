"""Properties every registered metric family must have, driven by the registry.

Each family is instantiated with its defaults (``parse_spec(name)``), so families added to
the registry are covered without touching this file. The best possible score is read from
what the metric declares: ``higher_is_better`` and ``scale`` (``"0-100"``, ``"0-1"``; an
unbounded scale such as ``"raw"`` has no best value, and the identity property becomes
"identity beats any other pairing"). Inputs are 200 real pairs of the bundled TED data.
"""

import re

import numpy as np
import pytest

from mtpalette.errors import UserInputError
from mtpalette.metrics.registry import known_metrics, parse_spec
from mtpalette.metrics.scoring import TextPairs, compute_stats

N_PAIRS = 200


def _default(name):
    try:
        (metric,) = parse_spec(name)
    except UserInputError as exc:  # pragma: no cover - depends on the families registered
        pytest.skip(f"{name} cannot be built with default parameters: {exc}")
    return metric


def _stats(metric, hyps, refs):
    return compute_stats([metric], TextPairs.parallel(hyps, refs))[metric]


def _skip_baseline(metric):
    """Length baselines count words and compare no word: another candidate of the same length
    is as good as the reference itself (``tests/metrics/test_length.py`` checks that a
    reference differs from itself by 0 words)."""
    if metric.baseline:
        pytest.skip(f"{metric.spec} is a length baseline: identity is not its best score")


def _best(metric):
    """The best score the metric's declared scale allows, or None when unbounded."""
    bounds = re.fullmatch(r"(-?\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)", metric.scale)
    if bounds is None:
        return None
    low, high = map(float, bounds.groups())
    return high if metric.higher_is_better else low


def _better(metric, a, b):
    return a > b if metric.higher_is_better else a < b


@pytest.fixture(scope="module")
def sample(ted_zhen):
    """200 real pairs: one system's output with both human references."""
    systems, refs = ted_zhen
    return systems["Online-W"][:N_PAIRS], [r[:N_PAIRS] for r in refs]


@pytest.fixture(scope="module")
def long_refs(sample):
    """References of 10 words or more: every n-gram order up to 4 has matches."""
    _, refs = sample
    return [r for r in refs[0] if len(r.split()) >= 10][:60]


@pytest.mark.parametrize("name", known_metrics())
def test_metadata_and_signature(name):
    metric = _default(name)
    assert isinstance(metric.higher_is_better, bool)
    assert parse_spec(metric.spec) == [metric]  # the canonical spec names the same metric
    sig = str(metric.signature(n_refs=2))
    assert sig.startswith(metric.spec + "|") and "|nrefs:2|" in sig
    assert f"|scale:{metric.scale}|" in sig and "|version:" in sig


@pytest.mark.parametrize("name", known_metrics())
def test_identity_gets_the_best_score(name, long_refs):
    metric = _default(name)
    _skip_baseline(metric)
    scores = metric.sentence_scores(_stats(metric, long_refs, [long_refs]))
    corpus = metric.corpus_score(_stats(metric, long_refs, [long_refs]))
    best = _best(metric)
    if best is None:  # unbounded (NIST): identity must beat every other pairing
        shifted = long_refs[1:] + long_refs[:1]
        other = metric.sentence_scores(_stats(metric, shifted, [long_refs]))
        assert _better(metric, scores, other).all()
    else:
        np.testing.assert_allclose(scores, best, rtol=1e-9, atol=1e-9)
        assert corpus == pytest.approx(best, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("name", known_metrics())
def test_matching_one_of_several_references_is_enough(name, sample):
    """A candidate equal to one of its two references gets the best score (or, unbounded,
    beats every other pairing), unless the metric declares that it pools its references."""
    metric = _default(name)
    _skip_baseline(metric)
    if metric.signature_fields().get("multiref") == "joint":
        pytest.skip(f"{name} matches the references jointly: one exact reference is not 1.0")
    _, (ref_a, ref_b) = sample
    keep = [i for i, r in enumerate(ref_a) if len(r.split()) >= 10][:60]
    hyps, refs = [ref_a[i] for i in keep], [[ref_b[i] for i in keep], [ref_a[i] for i in keep]]
    both = metric.sentence_scores(_stats(metric, hyps, refs))
    if _best(metric) is None:
        shifted = hyps[7:] + hyps[:7]
        other = metric.sentence_scores(_stats(metric, shifted, refs))
        assert _better(metric, both, other).all()
    else:
        np.testing.assert_allclose(both, _best(metric), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("name", known_metrics())
def test_shuffling_segments_permutes_the_rows_and_keeps_the_corpus_score(name, sample):
    hyps, refs = sample
    metric = _default(name)
    order = np.random.default_rng(7).permutation(len(hyps))
    shuffled = [hyps[i] for i in order], [[r[i] for i in order] for r in refs]
    stats = _stats(metric, hyps, refs)
    stats_shuffled = _stats(metric, *shuffled)
    np.testing.assert_allclose(stats_shuffled, stats[order], rtol=1e-12, atol=1e-12)
    a = metric.corpus_score(stats)
    b = metric.corpus_score(stats_shuffled)
    assert a == pytest.approx(b, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("name", known_metrics())
def test_rows_shapes_and_finite_scores(name, sample):
    hyps, refs = sample
    metric = _default(name)
    stats = _stats(metric, hyps, refs)
    assert stats.ndim == 2 and stats.shape[0] == len(hyps) and stats.dtype == np.float64
    scores = metric.sentence_scores(stats)
    assert scores.shape == (len(hyps),) and np.isfinite(scores).all()
    assert np.isfinite(metric.corpus_score(stats))
    # a sentence score is a function of its own row
    np.testing.assert_allclose(metric.sentence_scores(stats[5:9]), scores[5:9], rtol=1e-12)


@pytest.mark.parametrize("name", known_metrics())
def test_empty_hypotheses_are_defined(name, sample):
    hyps, refs = sample
    metric = _default(name)
    one_empty = _stats(metric, ["", *hyps[1:]], refs)
    assert np.isfinite(metric.sentence_scores(one_empty)).all()
    assert np.isfinite(metric.corpus_score(one_empty))
    all_empty = _stats(metric, [""] * len(hyps), refs)
    scores = metric.sentence_scores(all_empty)
    assert np.isfinite(scores).all() and np.isfinite(metric.corpus_score(all_empty))
    best = _best(metric)
    if best is not None:  # an empty candidate is never as good as a perfect one
        assert not np.isclose(scores, best).any()


@pytest.mark.parametrize("name", known_metrics())
def test_a_missing_reference_is_ignored(name, sample):
    """``None`` in a reference stream behaves as if that stream were absent."""
    hyps, refs = sample
    metric = _default(name)
    alone = _stats(metric, hyps, refs[:1])
    with_none = _stats(metric, hyps, [refs[0], [None] * len(hyps)])
    np.testing.assert_allclose(
        metric.sentence_scores(with_none), metric.sentence_scores(alone), rtol=1e-12
    )


@pytest.mark.parametrize("name", known_metrics())
def test_a_candidate_row_does_not_depend_on_the_other_candidates(name, sample):
    """Rows are per (candidate, references) pair: scoring a few candidates, twice each, against
    the same segments' references gives the rows of the full run."""
    hyps, refs = sample
    metric = _default(name)
    full = _stats(metric, hyps, refs)
    seg = np.tile(np.arange(10, 30, dtype=np.int64), 2)
    part = compute_stats([metric], TextPairs([hyps[s] for s in seg], seg, refs))[metric]
    np.testing.assert_allclose(part, full[seg], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", known_metrics())
def test_repeated_pairs_are_computed_once(name, sample, monkeypatch):
    """A family that declares ``per_pair`` (the property above) computes each distinct
    (candidate, segment) pair once when pairs repeat, as several systems giving the same
    output make them; the rows are those of the full run. (On the encoded route: a route
    straight from text, taken when the view is not encoded yet, tokenizes each string once
    and counts every pair.)"""
    hyps, refs = sample
    metric = _default(name)
    cls = type(metric)
    if not cls.per_pair or getattr(cls, "reads_text", False):
        pytest.skip(f"{name} does not declare per-pair statistics, or scores raw text")
    sizes = []
    group = cls.compute_group
    monkeypatch.setattr(
        cls,
        "compute_group",
        classmethod(lambda c, ms, p, *e: sizes.append(len(p)) or group(ms, p, *e)),
    )
    seg = np.tile(np.arange(10, 30, dtype=np.int64), 3)
    pairs = TextPairs([hyps[s] for s in seg], seg, refs)
    pairs.encoded(metric.view())
    rows = compute_stats([metric], pairs)[metric]
    assert sizes == [20]
    monkeypatch.undo()
    np.testing.assert_array_equal(rows, _stats(metric, hyps, refs)[seg])


def test_lazy_family_table_matches_the_modules():
    """Every built-in family loads from the module the lazy table names, and the modules
    register no family the table lacks."""
    import importlib

    from mtpalette.metrics import registry

    for name, module in registry.BUILTIN_FAMILIES.items():
        cls = registry.metric_class(name)
        assert cls.__module__ == f"mtpalette.metrics.{module}" and cls.name == name
    importlib.import_module("mtpalette.metrics.families")
    assert set(registry._REGISTRY) <= set(registry.BUILTIN_FAMILIES)
