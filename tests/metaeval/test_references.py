"""Reference agreement on real references: a reference derived from a real one by light edits
is flagged; independent human references (WMT21 TED zh-en ``ref``/``refB``; WMT21 newstest
references A and B; both from the shared data, ``tests/real_data.py``) are not."""


import numpy as np
import pytest
from real_data import shared

from mtpalette.errors import UserInputError
from mtpalette.metaeval.references import clear_margin, reference_agreement

METRICS = ["bleu", "chrf", "wer"]


def lightly_edited(lines):
    """A reference *derived* from a real one by light, deterministic edits (not a real
    translation): the last word of every second sentence dropped, the first two words of
    every third swapped, "the" turned into "a" in every fifth."""
    out = []
    for i, line in enumerate(lines):
        words = line.split()
        if i % 2 == 0 and len(words) > 3:
            words = words[:-1]
        if i % 3 == 0 and len(words) > 3:
            words[0], words[1] = words[1], words[0]
        if i % 5 == 0:
            words = ["a" if w == "the" else w for w in words]
        out.append(" ".join(words))
    return out


def test_a_reference_derived_by_light_edits_is_flagged(ted_zhen):
    systems, (ref, _) = ted_zhen
    out = reference_agreement(
        [ref, lightly_edited(ref)], systems, METRICS, ref_names=["ref", "ref-edited"]
    )
    flagged = out.flagged()
    assert set(flagged) == {"ref", "ref-edited"}
    assert [r.metric for r in flagged["ref-edited"]] == ["bleu", "chrf", "wer"]
    bleu = next(r for r in out.rows if r.reference == "ref-edited" and r.metric == "bleu")
    assert bleu.reference_score > 60 and bleu.best_score < 45 and bleu.n_systems == 13
    assert bleu.excess > bleu.margin == pytest.approx(bleu.best_score - bleu.median_score)
    warning = out.warnings()[1]
    assert warning.startswith("reference 'ref-edited' is closer to the other reference(s)")
    assert "not an independent translation" in warning and "ORANGE" in warning
    # a third, independent reference does not hide the derived one
    _, (_, ref_b) = ted_zhen
    three = reference_agreement(
        [ref, ref_b, lightly_edited(ref)], systems, ["bleu"], ref_names=["A", "B", "A'"]
    )
    assert set(three.flagged()) == {"A", "A'"}


def test_the_bundled_independent_references_are_not_flagged(ted_zhen):
    systems, refs = ted_zhen
    out = reference_agreement(refs, systems, METRICS, ref_names=["ref", "refB"])
    assert out.warnings() == [] and not out.flagged()
    for r in out.rows:  # each reference scores below the best system
        assert r.excess < 0
    table = out.to_pandas()
    assert len(table) == 6 and set(table["reference"]) == {"ref", "refB"}
    assert table.loc[0, "against"] == "refB"


@pytest.mark.parametrize("lp", ["de-en", "cs-en", "ru-en", "en-cs", "en-ru"])
def test_wmt21_independent_references_are_not_flagged(lp):
    from mtpalette.io.plain import read_lines

    wmt21 = shared("wmt21", "txt", what="the WMT21 news data")
    tgt = lp.split("-")[1]
    refs = [read_lines(wmt21 / "references" / f"newstest2021.{lp}.ref.{k}.{tgt}") for k in "AB"]
    files = sorted((wmt21 / "system-outputs").glob(f"newstest2021.{lp}.hyp.*"))
    systems = {f.name.split(".hyp.")[1]: read_lines(f) for f in files}
    out = reference_agreement(refs, systems, ["bleu", "chrf"], ref_names=["A", "B"])
    assert out.warnings() == []
    bleu = next(r for r in out.rows if r.reference == "B" and r.metric == "bleu")
    # the figures: B against A scores BLEU 18-36, below the pair's median system
    assert 17 < bleu.reference_score < 36 and bleu.reference_score < bleu.median_score


def test_margin_and_bad_calls():
    assert clear_margin(np.array([-0.4, -0.5, -0.6])) == pytest.approx(0.1)  # WER negated
    assert clear_margin(np.array([50.0])) == pytest.approx(1.0)  # one system: the floor
    with pytest.raises(UserInputError, match="at least two references"):
        reference_agreement([["a"]], {"S": ["a"]}, ["bleu"])
    with pytest.raises(UserInputError, match=r"has 1 line\(s\), .ref1. has 2"):
        reference_agreement([["a", "b"], ["a"]], {"S": ["a", "b"]}, ["bleu"])
    with pytest.raises(UserInputError, match="distinct names"):
        reference_agreement([["a"], ["b"]], {"S": ["a"]}, ["bleu"], ref_names=["r", "r"])
