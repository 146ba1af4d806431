"""sacrebleu's own BLEU test cases (``test/test_bleu.py``), run through mtpalette.

Only the cases' inputs and expected values are taken from sacrebleu, as data; the checks are
written here. Source: github.com/mjpost/sacrebleu, ``test/test_bleu.py`` at commit
``f615c7286d4d813370efb824d94fc2bfcd3a6b94``.

Each case is scored by mtpalette through a metric spec (text cases: :func:`mtpalette.corpus_score`
or :func:`mtpalette.score_texts`; the cases given as sufficient statistics, which no text
produces, through the parsed metric's ``corpus_score`` on one row of statistics) and compared
with sacrebleu's expected value, to the tolerance sacrebleu's test uses, and with the
installed sacrebleu's value computed live.

sacrebleu's ``raw_corpus_bleu(hyps, refs, v)`` is ``floor`` smoothing with value ``v``, no
tokenization and effective order: in mtpalette ``bleu:smooth=floor,value=v,eff=yes,tok=none``.
"""

from __future__ import annotations

import logging

import numpy as np
import pytest
import sacrebleu
from sacrebleu.metrics import BLEU as SacreBLEU

import mtpalette
from mtpalette.metrics import parse_specs

logging.getLogger("sacrebleu").setLevel(logging.ERROR)

SACREBLEU_COMMIT = "f615c7286d4d813370efb824d94fc2bfcd3a6b94"
#: the tolerance of sacrebleu's test on BLEU / 100
EPSILON = 1e-8


def raw_spec(value: float | None) -> str:
    """mtpalette's spec of ``sacrebleu.raw_corpus_bleu`` with smoothing value ``value``."""
    smooth = "smooth=floor" if value is None else f"smooth=floor,value={value}"
    return f"bleu:{smooth},eff=yes,tok=none"


def corpus_value(hyps, refs, spec: str) -> float:
    (score,) = mtpalette.corpus_score(list(hyps), refs, spec)
    return float(score.value)


def stats_value(spec: str, correct, total, sys_len, ref_len) -> float:
    """mtpalette's corpus BLEU of one row ``[sys_len, ref_len, correct..., total...]``."""
    (metric,) = parse_specs([spec])
    row = np.array([[sys_len, ref_len, *correct, *total]], dtype=np.float64)
    return metric.corpus_score(row)


# The README example of sacrebleu's test: three hypotheses, two reference streams.
README_REFS = [
    ["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
    ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."],
]
README_HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]


# sacrebleu test/test_bleu.py, test_raw_bleu (test_raw_bleu_cases), commit f615c72
# (hypotheses, references, expected BLEU / 100), raw_corpus_bleu with smoothing value 0.01
RAW_CASES = [
    (["this is a test", "another test"], [["ref1", "ref2"]], 0.0),
    (["this is a test"], [["this is a test"]], 1.0),
    (["this is a fest"], [["this is a test"]], 0.223606797749979),
]


@pytest.mark.parametrize("hyps, refs, expected", RAW_CASES)
def test_raw_bleu(hyps, refs, expected):
    ours = corpus_value(hyps, refs, raw_spec(0.01)) / 100
    live = sacrebleu.raw_corpus_bleu(hyps, refs, 0.01).score / 100
    assert abs(ours - expected) < EPSILON
    assert abs(ours - live) < EPSILON


# sacrebleu test/test_bleu.py, test_corpus_bleu (test_corpus_bleu_cases), commit f615c72
# (hypotheses, sacrebleu's corpus_bleu keyword arguments, mtpalette's spec, expected BLEU);
# the references are README_REFS
CORPUS_CASES = [
    (README_HYPS, {}, "bleu", 48.530827),
    (("", "", ""), {}, "bleu", 0.0),  # empty hypotheses are kept
    (README_HYPS, {"tokenize": "none"}, "bleu:tok=none", 49.1919566),
    (README_HYPS, {"tokenize": "13a"}, "bleu:tok=13a", 48.530827),
    (README_HYPS, {"tokenize": "intl"}, "bleu:tok=intl", 43.91623493),
    (README_HYPS, {"smooth_method": "none"}, "bleu:smooth=none", 48.530827),
]


@pytest.mark.parametrize("hyps, kwargs, spec, expected", CORPUS_CASES)
def test_corpus_bleu(hyps, kwargs, spec, expected):
    ours = corpus_value(hyps, README_REFS, spec)
    live = sacrebleu.corpus_bleu(hyps, README_REFS, **kwargs).score
    assert abs(ours - expected) < EPSILON
    assert abs(ours - live) < EPSILON


# sacrebleu test/test_bleu.py, test_effective_order (test_case_effective_order), commit
# f615c72: (hypotheses, references, expected BLEU / 100), raw_corpus_bleu with value 0.01
EFFECTIVE_ORDER_CASES = [
    (["test"], [["a test"]], 0.3678794411714425),
    (["a test"], [["a test"]], 1.0),
    (["a little test"], [["a test"]], 0.03218297948685433),
]


@pytest.mark.parametrize("hyps, refs, expected", EFFECTIVE_ORDER_CASES)
def test_effective_order(hyps, refs, expected):
    ours = corpus_value(hyps, refs, raw_spec(0.01)) / 100
    live = sacrebleu.raw_corpus_bleu(hyps, refs, 0.01).score / 100
    assert abs(ours - expected) < EPSILON
    assert abs(ours - live) < EPSILON


# sacrebleu test/test_bleu.py, test_statistics (test_case_statistics), commit f615c72:
# (hypotheses, references, expected n-gram matches, expected n-gram totals)
STATISTICS_CASES = [
    (
        ["am I am a character sequence"],
        [["I am a symbol string sequence a a"]],
        [4, 2, 1, 0],
        [6, 5, 4, 3],
    ),
]


@pytest.mark.parametrize("hyps, refs, counts, totals", STATISTICS_CASES)
def test_statistics(hyps, refs, counts, totals):
    spec = raw_spec(0.01)
    sums = mtpalette.score_texts(hyps, refs, spec).stats[spec].sum(axis=0)
    ours_counts, ours_totals = sums[2:6].tolist(), sums[6:10].tolist()
    live = sacrebleu.raw_corpus_bleu(hyps, refs, 0.01)
    assert (ours_counts, ours_totals) == (counts, totals)
    assert (ours_counts, ours_totals) == (list(live.counts), list(live.totals))


# sacrebleu test/test_bleu.py, test_scoring (test_case_scoring), commit f615c72:
# (correct, total, sys_len, ref_len, expected BLEU / 100); compute_bleu's default smoothing
# is "none" and effective order off. Statistics only (11 words with 10 unigrams: no text).
SCORING_CASES = [([9, 7, 5, 3], [10, 8, 6, 4], 11, 11, 0.8375922397)]


@pytest.mark.parametrize("correct, total, sys_len, ref_len, expected", SCORING_CASES)
def test_scoring(correct, total, sys_len, ref_len, expected):
    ours = stats_value("bleu:smooth=none", correct, total, sys_len, ref_len) / 100
    live = SacreBLEU.compute_bleu(list(correct), list(total), sys_len, ref_len).score / 100
    assert abs(ours - expected) < EPSILON
    assert abs(ours - live) < EPSILON


# sacrebleu test/test_bleu.py, test_offset (test_case_offset), commit f615c72: one case,
# checked three ways: raw_corpus_bleu with value 0.0 (expected 0), with None and with the
# value omitted (both floor's default 0.1, expected 0.1555722182)
OFFSET_HYPS = ["am I am a character sequence"]
OFFSET_REFS = [["I am a symbol string sequence a a"]]
OFFSET_CASES = [
    ("value 0.0", raw_spec(0.0), (0.0,), 0.0),
    ("value None", raw_spec(None), (None,), 0.1555722182),
    ("value omitted", raw_spec(None), (), 0.1555722182),
]


@pytest.mark.parametrize("label, spec, args, expected", OFFSET_CASES, ids=lambda x: str(x))
def test_offset(label, spec, args, expected):
    ours = corpus_value(OFFSET_HYPS, OFFSET_REFS, spec) / 100
    live = sacrebleu.raw_corpus_bleu(OFFSET_HYPS, OFFSET_REFS, *args).score / 100
    assert abs(ours - expected) < EPSILON, label
    assert abs(ours - live) < EPSILON, label


# sacrebleu test/test_bleu.py, test_degenerate_statistics (test_case_degenerate_stats),
# commit f615c72: (correct, total, sys_len, ref_len, floor value, expected BLEU / 100),
# compute_bleu with smooth_method="floor"; the score must be exactly 0. Statistics only.
DEGENERATE_CASES = [
    ([0, 0, 0, 0], [4, 4, 2, 1], 0, 1, 0.0, 0.0),
    ([0, 0, 0, 0], [10, 11, 12, 0], 14, 10, 0.0, 0.0),
    ([0, 0, 0, 0], [0, 0, 0, 0], 0, 0, 0.0, 0.0),
    ([6, 5, 4, 0], [6, 5, 4, 3], 6, 6, 0.0, 0.0),
    ([0, 0, 0, 0], [0, 0, 0, 0], 0, 0, 0.1, 0.0),
    ([0, 0, 0, 0], [0, 0, 0, 0], 1, 5, 0.01, 0.0),
]


@pytest.mark.parametrize("correct, total, sys_len, ref_len, value, expected", DEGENERATE_CASES)
def test_degenerate_statistics(correct, total, sys_len, ref_len, value, expected):
    spec = f"bleu:smooth=floor,value={value}"
    ours = stats_value(spec, correct, total, sys_len, ref_len) / 100
    live = SacreBLEU.compute_bleu(
        list(correct),
        list(total),
        sys_len,
        ref_len,
        smooth_method="floor",
        smooth_value=value,
    )
    assert ours == expected
    assert ours == live.score / 100


# sacrebleu test/test_bleu.py, test_max_ngram_order (test_bleu_max_order), commit f615c72:
# (max n-gram order, expected BLEU to two decimals) on README_HYPS / README_REFS, defaults
MAX_ORDER_CASES = [
    (1, "77.65"),
    (2, "60.50"),
    (3, "53.93"),
    (4, "48.53"),
    (5, "46.14"),
    (6, "43.28"),
]


@pytest.mark.parametrize("order, expected", MAX_ORDER_CASES)
def test_max_ngram_order(order, expected):
    ours = corpus_value(README_HYPS, README_REFS, f"bleu:n={order}")
    live = SacreBLEU(max_ngram_order=order).corpus_score(README_HYPS, README_REFS).score
    assert f"{ours:.2f}" == expected
    assert f"{ours:.2f}" == f"{live:.2f}"
