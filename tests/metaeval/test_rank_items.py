"""Rankings that compare like with like (issue 51): the items rule for systems scored on
different items, one name per meaning of a score, every setting in the signature, and a
property test that a system worse on every shared item is never ranked significantly above.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtpalette.api import rank
from mtpalette.errors import UserInputError
from mtpalette.metaeval.system_ranking import rank_systems


def _uneven(seed: int = 0) -> dict[str, list[float | None]]:
    """The issue's design: A rated on items 1-30 only (the easy ones), B and C on 1-60; on
    every shared item A is about 2 points below B."""
    rng = np.random.default_rng(seed)
    difficulty = np.r_[np.full(30, 90.0), np.full(30, 50.0)] + rng.normal(0, 3, 60)
    b = difficulty + rng.normal(0, 0.3, 60)
    a = [float(v) if k < 30 else None for k, v in enumerate(b - 2.0 + rng.normal(0, 0.3, 60))]
    c = difficulty - 5.0 + rng.normal(0, 0.3, 60)
    return {"A": a, "B": b.tolist(), "C": c.tolist()}


@pytest.mark.parametrize("protocol", ["wilcoxon", "ttest"])
def test_paired_protocols_refuse_different_items_by_default(protocol):
    with pytest.raises(UserInputError, match=r"not scored on the same 60 items \(scored "
                       r"items: A \(30\)\).*--missing common.*--missing mark"):  # fmt: skip
        rank(_uneven(), protocol=protocol)


@pytest.mark.parametrize("protocol", ["wilcoxon", "ttest"])
def test_mark_never_calls_the_reversed_pair_significant(protocol):
    r = rank(_uneven(), protocol=protocol, missing="mark")
    assert r.missing == "mark" and "missing:mark" in r.signature
    assert [s.system for s in r.systems][0] == "A"  # its mean over its own (easy) items
    ab = r.pair("A", "B")
    assert (ab.a, ab.b, ab.n_items) == ("A", "B", 30)
    assert ab.difference > 0 > ab.shared_difference  # the order and the shared items disagree
    assert ab.p_value < 1e-6 and not ab.significant
    assert any("A is above B" in n and "30 items they share B is ahead" in n for n in r.notes)
    a = r.system("A")
    assert (a.rank_top, a.cluster) == (1, 1) and r.system("B").cluster == 1


@pytest.mark.parametrize("protocol", ["wilcoxon", "ttest"])
def test_common_ranks_on_the_shared_items(protocol):
    r = rank(_uneven(), protocol=protocol, missing="common")
    assert r.missing == "common" and r.n_items == 30
    assert [s.system for s in r.systems] == ["B", "A", "C"]
    assert all(s.n_items == 30 for s in r.systems)
    ba = r.pair("A", "B")
    assert (ba.a, ba.significant) == ("B", True)
    assert ba.difference == pytest.approx(ba.shared_difference)
    assert any("30 of 60 items left out" in n for n in r.notes)


def test_complete_designs_say_so():
    r = rank({"A": [3.0, 2.0, 5.0], "B": [1.0, 1.0, 2.0]})
    assert r.missing == "none" and "missing:none" in r.signature
    assert r.pairs[0].shared_difference == pytest.approx(r.pairs[0].difference)


def test_items_no_system_has_are_left_out_with_a_note():
    r = rank({"A": [3.0, None, 5.0, 4.0], "B": [1.0, None, 2.0, 2.0]}, protocol="ttest")
    assert r.missing == "none" and r.n_items == 3
    assert "1 item(s) without a score from any system left out" in r.notes


def test_wmt24_marks_by_default_and_weights_the_shared_difference_by_domain():
    x = _uneven()
    r = rank(x, protocol="wmt24", domains=["d1", "d2"] * 30)
    assert r.missing == "mark" and not r.pair("A", "B").significant


# --------------------------------------------------------------------------------------------
# a system worse on every shared item is never ranked significantly above the other


@st.composite
def designs(draw):
    """Random systems x items with missing scores and items of very different difficulty,
    where system 1 is below system 0 on every item they share."""
    n_sys = draw(st.integers(2, 4))
    n_items = draw(st.integers(6, 40))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    difficulty = rng.choice([10.0, 50.0, 90.0], size=n_items) + rng.normal(0, 1, n_items)
    x = difficulty + rng.normal(0, 2, (n_sys, n_items))
    x[1] = x[0] - rng.uniform(0.1, 3.0, n_items)  # worse on every item
    keep = rng.random((n_sys, n_items)) < draw(st.floats(0.4, 1.0))
    keep[:, rng.integers(n_items)] = True  # one item every system has
    return np.where(keep, x, np.nan), [f"d{k % 2}" for k in range(n_items)]


def _never_above(r, worse: str, better: str) -> None:
    p = r.pair(worse, better)
    assert not (p.a == worse and p.significant), (p, r.notes)


@settings(max_examples=60, deadline=None)
@given(designs(), st.sampled_from(["wilcoxon", "ttest", "wmt24"]),
       st.sampled_from(["mark", "common"]))  # fmt: skip
def test_a_dominated_system_is_never_significantly_above(design, protocol, missing):
    x, domains = design
    names = [f"S{k}" for k in range(x.shape[0])]
    try:
        r = rank_systems(x, names, protocol=protocol, missing=missing,
                         domains=domains if protocol == "wmt24" else None)  # fmt: skip
    except UserInputError:
        return  # too few shared items for a test: refused, never ranked
    _never_above(r, "S1", "S0")
    a = r.system("S1")
    if r.pair("S0", "S1").significant:
        assert a.rank_top >= 2


# --------------------------------------------------------------------------------------------
# one name per meaning; every setting in the signature


HYPS = {
    "A": ["the cat sat on the mat", "a dog barked loudly at night", "it rains today"],
    "B": ["cat the mat on", "dog a barked night", "rain it today is"],
    "C": ["the cat sat on a mat", "a dog barked at night", "it is raining today"],
}
REFS = [["the cat sat on the mat", "a dog barked loudly at night", "it is raining today"]]


def test_a_mean_of_sentence_scores_never_wears_the_corpus_name():
    import sacrebleu

    item = rank(systems=HYPS, refs=REFS, metric="bleu", protocol="ttest")
    corpus = rank(systems=HYPS, refs=REFS, metric="bleu", protocol="bootstrap", n_resamples=100)
    assert item.name == "mean(sentence bleu)" and corpus.name == "bleu"
    assert item.system_score == "mean" and corpus.system_score == "corpus"
    assert "system-score:mean" in item.signature and "system-score:corpus" in corpus.signature
    for s in item.systems:
        sent = [sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(HYPS[s.system], REFS[0],
                                                                      strict=True)]  # fmt: skip
        assert s.score == pytest.approx(np.mean(sent), abs=1e-9)
    for s in corpus.systems:
        assert s.score == pytest.approx(sacrebleu.corpus_bleu(HYPS[s.system], REFS).score,
                                        abs=1e-9)  # fmt: skip
    rouge = rank(systems=HYPS, refs=REFS, metric="rouge-l", protocol="ttest")
    assert rouge.name == "rouge-l"  # its corpus score is the mean of its sentence scores


def test_direction_and_alpha_are_in_the_signature_as_used():
    x = {"A": [3.0, 2.0, 5.0, 4.0], "B": [1.0, 1.0, 2.0, 3.5]}
    up, down = rank(x), rank(x, higher_is_better=False)
    assert "higher-is-better:yes" in up.signature and "higher-is-better:no" in down.signature
    assert [s.system for s in up.systems] == ["A", "B"] == [s.system for s in down.systems][::-1]
    assert "alpha:0.9999999|" in rank(x, alpha=0.9999999).signature
    with pytest.raises(UserInputError, match="alpha"):
        rank(x, alpha=1.0)


@pytest.mark.parametrize("value", [float("inf"), -np.inf, True, np.bool_(False), "high"])
def test_scores_that_are_not_numbers_are_refused(value):
    with pytest.raises(UserInputError, match=r"score of 'A' on item 2 is .*expected a"):
        rank({"A": [1.0, value, 3.0], "B": [2.0, 2.0, 2.0]})


def test_infinite_scores_from_arrays_are_refused():
    with pytest.raises(UserInputError, match="score of 'B' on item 3 is inf.*finite"):
        rank_systems([[1.0, 2.0, 3.0], [1.0, 2.0, np.inf]], ["A", "B"])


@pytest.mark.parametrize(("n", "need"), [(20, 60), (100, 60)])
def test_holm_with_too_few_resamples_is_refused(n, need):
    x = {s: [float(k + j) for j in range(8)] for k, s in enumerate("ABCD")}  # 6 pairs
    with pytest.raises(UserInputError, match=rf"with {n} resamples.*6 pairs.*--resamples "
                       rf"{int(6 / 0.05)}"):  # fmt: skip
        rank(x, protocol="bootstrap", correction="holm", n_resamples=n)
    assert rank(x, protocol="bootstrap", correction="holm", n_resamples=120).n_resamples == 120
    assert rank(x, protocol="bootstrap", correction="bh", n_resamples=n).n_resamples == n


def test_latex_escapes_every_special_character():
    r = rank({"sys~1^b": [3.0, 2.0, 5.0, 4.0], "x_&%$#{}\\": [1.0, 1.0, 2.0, 3.5]})
    tex = r.to_latex()
    assert "sys\\textasciitilde{}1\\textasciicircum{}b" in tex
    assert "x\\_\\&\\%\\$\\#\\{\\}\\textbackslash{}" in tex
