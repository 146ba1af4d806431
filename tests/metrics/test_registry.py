"""Spec grids: what expands, and what is refused with a clear message instead of a silently
wrong or unbounded run."""

import pytest

from mtpalette.errors import UserInputError
from mtpalette.metrics.registry import MAX_GRID, expand_values, parse_spec, parse_specs


def test_ranges_and_lists_expand():
    assert expand_values("1..3") == ["1", "2", "3"]
    assert expand_values("1.1..1.5/0.2|*") == ["1.1", "1.3", "1.5", "*"]
    assert [m.spec for m in parse_spec("rouge-w:1.1..2.0/0.1")][-1] == "rouge-w:2.0"
    assert len(parse_spec("rouge-w:1.1..2.0/0.1")) == 10


@pytest.mark.parametrize(
    "spec, message",
    [
        # once scored only rouge-w:1.1 without a word
        ("rouge-w:1.1..2.0", "a decimal range needs a step"),
        ("rouge-w:nan", "not finite"),  # once scored 0.0
        ("gtm:inf", "not finite"),  # once scored 0.0368
        ("rouge-w:1.1..2.0/1e-9", "900,000,001 values"),  # once grew memory until killed
        (f"blanc:alpha=0..{MAX_GRID}", "at most"),
    ],
)
def test_bad_grids_are_refused(spec, message):
    with pytest.raises(UserInputError, match=message):
        parse_spec(spec)


def test_a_product_of_grids_past_the_limit_is_refused():
    with pytest.raises(UserInputError, match=r"expands to 1,000,000 metrics"):
        parse_spec("blanc:alpha=1..1000,beta=1..1000")


def test_file_specs_with_dots_in_the_path_are_paths(tmp_path):
    """``blanc:@../x/b.json`` was read as a range ("bad range")."""
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "b.json").write_text('{"alpha": 0.5}')
    (tmp_path / "y").mkdir()
    spec = f"blanc:@{tmp_path}/y/../x/b.json"
    (metric,) = parse_spec(spec)
    assert metric.blanc.alpha == 0.5


def test_a_tokenizer_named_in_the_spec_stays_in_it():
    """Two metrics that differ only by their tokenizer or case keep apart: their specs,
    scores and signatures (they were both called "bleu", one signature shown for both)."""
    from mtpalette import corpus_score

    hyps, refs = ["我们 在 北京 2022年", "a b c"], [["我们在北京 2022 年", "a b d"]]
    scores = corpus_score(hyps, refs, ["bleu:tok=zh", "bleu:tok=jieba", "bleu", "bleu:lc=yes"])
    assert [s.metric for s in scores] == ["bleu:tok=zh", "bleu:tok=jieba", "bleu", "bleu:lc=yes"]
    toks = [str(s.signature).split("|tok:")[1].split("|")[0] for s in scores]
    assert toks == ["zh", "jieba", "13a", "13a"] and "|case:lc|" in str(scores[3].signature)
    assert scores[0].value == corpus_score(hyps, refs, "bleu", tokenize="zh")[0].value
    assert [m.spec for m in parse_specs([s.metric for s in scores])] == [s.metric for s in scores]


@pytest.mark.parametrize("spec", ["rouge-l,beta=2,beta=3", "bleus:4,tok=zh,tok=13a"])
def test_a_keyword_given_twice_in_a_spec_is_refused(spec):
    """Which of the two values to take would be a guess (the last used to win unseen)."""
    key = spec.rsplit(",", 1)[1].split("=")[0]
    with pytest.raises(UserInputError, match=f"metric spec '{spec}': {key} is given twice"):
        parse_specs([spec])
