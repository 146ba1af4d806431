"""Long sentences: metrics whose time or memory grows with the square of the length refuse a
sentence past their documented limit, naming the segment; the others have no limit and a
run-wide ``max_tokens`` guard. (Once a pair of 20,000-token lines took BLANC 402 s / 7.5 GB,
TER 212 s / 3.7 GB, ROUGE-S4 88 s / 3.9 GB.) The long lines repeat the tokens of real
bundled sentences."""

import itertools

import pytest

from mtpalette import sentence_scores
from mtpalette.api import score_texts
from mtpalette.errors import UserInputError
from mtpalette.metrics.registry import parse_spec


def _line(sentences, n):
    words = " ".join(sentences).split()
    return " ".join(itertools.islice(itertools.cycle(words), n))


@pytest.mark.parametrize(
    "spec, limit",
    [("ter", 5000), ("gtm", 10000), ("blanc", 4000), ("rouge-s:*", 8000),
     ("rouge-w:1.2,compat=rouge155", 5000)],
)  # fmt: skip
def test_quadratic_metrics_refuse_past_their_limit(ted_zhen, spec, limit):
    systems, (ref, _) = ted_zhen
    (metric,) = parse_spec(spec, tokenize="none")
    assert metric.token_limit() == limit
    hyp, long_ref = _line(systems["SMU"], 20), _line(ref, limit + 1)
    with pytest.raises(UserInputError, match=rf"segment 2: a reference of {limit + 1:,} tokens"):
        sentence_scores(["a b", hyp], [["a b", long_ref]], [spec], tokenize="none")


def test_linear_metrics_take_long_lines_and_the_guard_applies(ted_zhen):
    systems, (ref, _) = ted_zhen
    hyp, long_ref = _line(systems["SMU"], 20000), _line(ref, 20000)
    specs = ["bleu", "rouge-l", "rouge-s:4", "wer"]
    out = sentence_scores([hyp], [[long_ref]], specs, tokenize="none")
    assert all(0 < out[s][0] < 100 for s in specs)
    with pytest.raises(UserInputError, match="segment 1: a candidate of 20,000 tokens"):
        score_texts([hyp], [[long_ref]], ["bleu"], tokenize="none", max_tokens=10000)
