"""Paired bootstrap, approximate randomization and bootstrap intervals of systems, against
sacrebleu's own tests on the bundled real systems (WMT21 TED zh-en) and against a plain
re-implementation of the procedures."""

from __future__ import annotations

import numpy as np
import pytest

from mtpalette.api import score_texts
from mtpalette.metrics import parse_specs
from mtpalette.stats.paired import bootstrap_indices, compare_systems, interval_rank

N_SEG = 200  # sacrebleu's tests take ~1 s per system and metric on the full 529 segments


@pytest.fixture(scope="module")
def ted(ted_zhen):
    systems, refs = ted_zhen
    names = sorted(systems)
    return {n: systems[n][:N_SEG] for n in names}, [r[:N_SEG] for r in refs]


def _ours(systems, refs, specs, **kwargs):
    metrics = parse_specs(specs)
    stats = []
    for hyps in systems.values():
        scored = score_texts(hyps, refs, specs)
        stats.append([scored.stats[m.spec] for m in metrics])
    return compare_systems(metrics, stats, list(systems), **kwargs)


def _sacrebleu(systems, refs, names, test, **kwargs):
    from sacrebleu.metrics import BLEU, CHRF, TER
    from sacrebleu.significance import PairedTest

    known = {"BLEU": BLEU, "chrF2": CHRF, "TER": TER}
    metrics = {name: known[name](references=refs) for name in names}
    _, scores = PairedTest(list(systems.items()), metrics, None, test_type=test, **kwargs)()
    return scores


def _assert_same(ours, theirs, keys, p_exact=True):
    for m, key in enumerate(keys):
        for s, result in enumerate(theirs[key]):
            assert ours.score[s, m] == pytest.approx(result.score, abs=1e-9)
            if result.mean is not None:
                # sacrebleu sums statistics in float32: the 7th digit may differ
                assert ours.mean[s, m] == pytest.approx(result.mean, abs=2e-4)
                assert ours.ci[s, m] == pytest.approx(result.ci, abs=2e-4)
            if result.p_value is None:
                assert np.isnan(ours.p_value[s, m])
            elif p_exact:
                assert ours.p_value[s, m] == pytest.approx(result.p_value, rel=1e-12)


def test_paired_bootstrap_equals_sacrebleu_on_13_real_systems(ted):
    systems, refs = ted
    ours = _ours(systems, refs, ["bleu", "chrf"], test="bs")
    theirs = _sacrebleu(systems, refs, ["BLEU", "chrF2"], "bs")
    _assert_same(ours, theirs, ["BLEU", "chrF2"])
    calls = ours.significant[1:]
    assert calls.any() and not calls.all()  # the set has both kinds of pairs


def test_approximate_randomization_equals_sacrebleu(ted):
    systems, refs = ted
    four = dict(list(systems.items())[4:8])
    ours = _ours(four, refs, ["bleu", "ter"], test="ar", n_trials=1000, n_resamples=300)
    theirs = _sacrebleu(four, refs, ["BLEU", "TER"], "ar", n_samples=1000, n_ar_confidence=300)
    _assert_same(ours, theirs, ["BLEU", "TER"])


def test_single_system_interval_equals_sacrebleu(ted):
    from sacrebleu.metrics import BLEU

    systems, refs = ted
    hyps = systems["Online-W"]
    ours = _ours({"Online-W": hyps}, refs, ["bleu"], test=None)
    theirs = BLEU(references=refs).corpus_score(hyps, None, n_bootstrap=1000)
    assert ours.score[0, 0] == pytest.approx(theirs.score, abs=1e-9)
    assert ours.mean[0, 0] == pytest.approx(theirs._mean, abs=2e-4)  # float32 sums
    assert ours.ci[0, 0] == pytest.approx(theirs._ci, abs=2e-4)


def test_matches_a_plain_reimplementation():
    """ROUGE-L (a mean metric) and WER, resampled by hand from the same indices."""
    rng = np.random.default_rng(3)
    (wer,) = parse_specs(["wer"])
    n = 40
    a = np.column_stack([rng.integers(0, 5, n), rng.integers(5, 10, n)]).astype(float)
    b = np.column_stack([rng.integers(0, 6, n), a[:, 1]]).astype(float)
    out = compare_systems([wer], [[a], [b]], ["a", "b"], n_trials=500, seed=9)
    idx = bootstrap_indices(n, 500, np.random.default_rng(9))
    da = np.array([a[i, 0].sum() / a[i, 1].sum() for i in idx])
    db = np.array([b[i, 0].sum() / b[i, 1].sum() for i in idx])
    lo = interval_rank(500, 0.95)
    assert out.low[1, 0] == pytest.approx(np.sort(db)[lo])
    assert out.high[1, 0] == pytest.approx(np.sort(db)[500 - lo - 1])
    observed = abs(out.score[1, 0] - out.score[0, 0])
    sample = np.abs(db - da)
    expected = (1 + np.sum(sample - sample.mean() > observed)) / 501
    assert out.p_value[1, 0] == pytest.approx(expected)
    assert out.mean[0, 0] == pytest.approx(da.mean())


def test_identical_systems_are_never_significant():
    (wer,) = parse_specs(["wer"])
    a = np.array([[1.0, 4.0], [0.0, 3.0], [2.0, 5.0]])
    for test in ("bs", "ar"):
        out = compare_systems([wer], [[a], [a.copy()]], ["a", "a2"], test=test, n_trials=99)
        assert out.p_value[1, 0] == 1.0 and not out.significant[1, 0]
        assert out.diff[1, 0] == 0.0


def test_records_and_pandas():
    (wer,) = parse_specs(["wer"])
    a = np.array([[1.0, 4.0], [0.0, 3.0], [2.0, 5.0]])
    b = a + [[1.0, 0.0]]
    out = compare_systems([wer], [[a], [b]], ["base", "other"], baseline=1, n_trials=50)
    frame = out.to_pandas()
    assert frame["system"].tolist() == ["base", "other"]
    assert frame["baseline"].tolist() == [False, True]
    assert frame.loc[0, "diff"] == pytest.approx(3 / 12 - 6 / 12)
    assert out.settings()["baseline"] == "other" and out.settings()["seed"] == 12345


def test_bad_arguments():
    (wer,) = parse_specs(["wer"])
    a = np.array([[1.0, 4.0]])
    with pytest.raises(ValueError, match="at least two systems"):
        compare_systems([wer], [[a]], ["a"], test="bs")
    with pytest.raises(ValueError, match="test must be"):
        compare_systems([wer], [[a], [a]], ["a", "b"], test="perm")
    with pytest.raises(ValueError, match="baseline index"):
        compare_systems([wer], [[a], [a]], ["a", "b"], baseline=2)


def test_counts_too_small_for_what_is_reported_are_refused():
    (wer,) = parse_specs(["wer"])
    a = np.array([[1.0, 4.0], [0.0, 3.0], [2.0, 5.0]])
    with pytest.raises(ValueError, match="cannot give a 95% interval; use at least 40"):
        compare_systems([wer], [[a], [a + 1]], ["a", "b"], n_trials=30)
    with pytest.raises(ValueError, match="smallest p-value is 1/11, above alpha 0.05"):
        compare_systems([wer], [[a], [a + 1]], ["a", "b"], test="ar", n_trials=10)
    with pytest.raises(ValueError, match="cannot give a 99% interval; use at least 200"):
        compare_systems([wer], [[a]], ["a"], test=None, n_resamples=100, level=0.99)


def test_the_seed_is_sacrebleus_in_both_places():
    """The command line's default seed lives in ``sources.checks`` too (``score`` imports no
    statistics module at start): both copies are sacrebleu's own default (its
    ``significance.py`` reads ``SACREBLEU_SEED`` from the environment, default 12345)."""
    from mtpalette.sources.checks import SACREBLEU_SEED as api_seed
    from mtpalette.stats.paired import SACREBLEU_SEED

    assert api_seed == SACREBLEU_SEED == 12345
