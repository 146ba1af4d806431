"""The bad-input matrix of the public Python API: one case per call and input, each stating
its exact outcome, a ``UserInputError`` with a message fragment or a check of the result (the
command line's cases are in ``test_bad_input_matrix.py``). The inputs are 6 real segments of
the bundled WMT21 TED zh-en data.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from bad_input_files import check_api_case, lines

import mtpalette

# --------------------------------------------------------------------------------------------
# the public Python API: (id, call, expected) where expected is ("error", message fragment)
# or ("value", a check of the result); the inputs are 6 real segments
H = lines("SMU", 6)
H2, H3 = lines("MiSS", 6), lines("NiuTrans", 6)
R, RB = lines("ref", 6), lines("refB", 6)
S3 = {"a": H, "b": H2, "c": H3}
HUMAN = {s: [float((i * 7 + k * 3) % 5) for i in range(6)] for k, s in enumerate(S3)}
BLEU = mtpalette.corpus_score(H, [R], "bleu")[0].value
CHRF = mtpalette.sentence_scores(H, [R], "chrf")["chrf"]


def _same_bleu(value) -> bool:
    return value[0].value == BLEU


API_CASES = [
    # corpus_score / sentence_scores / score_texts: containers accepted, the rest refused
    (
        "corpus-numpy-arrays",
        lambda: mtpalette.corpus_score(np.array(H), np.array([R]), "bleu"),
        ("value", _same_bleu),
    ),
    (
        "corpus-pandas-series",
        lambda: mtpalette.corpus_score(pd.Series(H), [pd.Series(R)], "bleu"),
        ("value", _same_bleu),
    ),
    (
        "corpus-generator",
        lambda: mtpalette.corpus_score((h for h in H), [R], "bleu"),
        ("value", _same_bleu),
    ),
    (
        "corpus-tuple",
        lambda: mtpalette.corpus_score(tuple(H), (tuple(R),), "bleu"),
        ("value", _same_bleu),
    ),
    (
        "corpus-hyps-none",
        lambda: mtpalette.corpus_score(None, [R], "bleu"),
        ("error", "hyps is None; expected a list of strings (one per segment)"),
    ),
    (
        "corpus-refs-none",
        lambda: mtpalette.corpus_score(H, None, "bleu"),
        ("error", "refs is None; expected a list of reference streams"),
    ),
    (
        "corpus-metrics-none",
        lambda: mtpalette.corpus_score(H, [R], None),
        ("error", "metrics is None; expected a metric spec or a list of them"),
    ),
    (
        "corpus-metrics-int",
        lambda: mtpalette.corpus_score(H, [R], 3),
        ("error", "metrics is int; expected a list of specs"),
    ),
    (
        "corpus-metrics-empty",
        lambda: mtpalette.corpus_score(H, [R], []),
        ("error", "no metric given"),
    ),
    (
        "corpus-metric-not-str",
        lambda: mtpalette.corpus_score(H, [R], ["bleu", 1]),
        ("error", "a metric spec must be a string, got int"),
    ),
    (
        "corpus-hyps-string",
        lambda: mtpalette.corpus_score("a b c", [R], "bleu"),
        ("error", "hyps must be a list of strings (one per segment), not a string"),
    ),
    (
        "corpus-hyps-dict",
        lambda: mtpalette.corpus_score({"a": 1}, [R], "bleu"),
        ("error", "hyps is dict"),
    ),
    (
        "corpus-refs-flat",
        lambda: mtpalette.corpus_score(H, R, "bleu"),
        ("error", "refs[0] is a string; with one reference per segment write refs=[refs]"),
    ),
    (
        "corpus-refs-ragged",
        lambda: mtpalette.corpus_score(H, [R[:-1]], "bleu"),
        ("error", "reference stream 1 has 5 segments, the hypotheses 6"),
    ),
    (
        "corpus-second-ref-ragged",
        lambda: mtpalette.corpus_score(H, [R, RB[:3]], "bleu"),
        ("error", "reference stream 2 has 3 segments, the hypotheses 6"),
    ),
    (
        "corpus-empty",
        lambda: mtpalette.corpus_score([], [[]], "bleu"),
        ("error", "no segments: hyps is empty"),
    ),
    (
        "corpus-int-hyp",
        lambda: mtpalette.corpus_score([1] * 6, [R], "bleu"),
        ("error", "hyps[0] is int, expected a string"),
    ),
    (
        "corpus-none-hyp",
        lambda: mtpalette.corpus_score([None] * 6, [R], "bleu"),
        ("error", "hyps[0] is NoneType, expected a string"),
    ),
    (
        "corpus-nan-hyp",
        lambda: mtpalette.corpus_score(pd.Series([np.nan] * 6), [R], "bleu"),
        ("error", "hyps[0] is float, expected a string"),
    ),
    (
        "corpus-int-ref",
        lambda: mtpalette.corpus_score(H, [[1] * 6], "bleu"),
        ("error", "refs[0][0] is int, expected a string or None"),
    ),
    (
        "corpus-segment-without-ref",
        lambda: mtpalette.corpus_score(H, [[None] * 6], "bleu"),
        ("error", "segment 1 has no reference (every stream has None)"),
    ),
    (
        "corpus-unknown-metric",
        lambda: mtpalette.corpus_score(H, [R], "nosuch"),
        ("error", "unknown metric 'nosuch'; known metrics: blanc"),
    ),
    (
        "corpus-bad-parameter",
        lambda: mtpalette.corpus_score(H, [R], "bleu:smooth=add-k,value=-1"),
        ("error", "bad value '-1' for 'value'"),
    ),
    (
        "corpus-unknown-tokenizer",
        lambda: mtpalette.corpus_score(H, [R], "chrf", tokenize="nope"),
        ("error", "unknown tokenizer 'nope'"),
    ),
    (
        "sentence-numpy-arrays",
        lambda: mtpalette.sentence_scores(np.array(H), np.array([R]), "chrf")["chrf"],
        ("value", lambda v: np.array_equal(v, CHRF)),
    ),
    (
        "sentence-hyps-none",
        lambda: mtpalette.sentence_scores(None, [R], "chrf"),
        ("error", "hyps is None"),
    ),
    (
        "sentence-refs-ragged",
        lambda: mtpalette.sentence_scores(H, [R, RB[:3]], "chrf"),
        ("error", "reference stream 2 has 3 segments, the hypotheses 6"),
    ),
    (
        "sentence-chrf-beta-0",
        lambda: mtpalette.sentence_scores(H, [R], "chrf:beta=0"),
        ("error", "bad value '0' for 'beta' in 'chrf:beta=0': expected a number > 0"),
    ),
    (
        "sentence-rouge-l-beta-negative",
        lambda: mtpalette.sentence_scores(H, [R], "rouge-l:beta=-1"),
        ("error", "bad value '-1' for 'beta'"),
    ),
    (
        "score-texts-max-tokens-0",
        lambda: mtpalette.score_texts(H, [R], "bleu", max_tokens=0),
        ("error", "--max-tokens takes at most 0 tokens per sentence"),
    ),
    (
        "score-texts-srcs-short",
        lambda: mtpalette.score_texts(H, [R], "bleu", srcs=["a"]),
        ("error", "srcs must hold one string per segment (6), got 1"),
    ),
    (
        "score-texts-same-ref-twice",
        lambda: mtpalette.score_texts(H, [R, list(R)], "bleu"),
        ("error", "references refs[0] and refs[1] hold the same text"),
    ),
    # score_systems / paired_test
    (
        "systems-none",
        lambda: mtpalette.score_systems(None, [R], "bleu"),
        ("error", "systems must be a non-empty dict: system name -> its outputs"),
    ),
    (
        "systems-list",
        lambda: mtpalette.score_systems([H], [R], "bleu"),
        ("error", "systems must be a non-empty dict"),
    ),
    (
        "systems-empty",
        lambda: mtpalette.score_systems({}, [R], "bleu"),
        ("error", "systems must be a non-empty dict"),
    ),
    (
        "systems-ragged",
        lambda: mtpalette.score_systems({"a": H, "b": H2[:3]}, [R], "bleu"),
        ("error", "system 'b' has 3 segments, 'a' has 6"),
    ),
    (
        "systems-string-output",
        lambda: mtpalette.score_systems({"a": "x"}, [R], "bleu"),
        ("error", "system 'a': expected a list of outputs, got a string"),
    ),
    (
        "systems-numpy",
        lambda: mtpalette.score_systems({"a": np.array(H)}, [R], "bleu"),
        ("value", lambda v: v["a"].corpus[0].value == BLEU),
    ),
    (
        "paired-one-system",
        lambda: mtpalette.paired_test({"a": H}, [R], "bleu"),
        ("error", "a paired test needs at least two systems"),
    ),
    (
        "paired-unknown-baseline",
        lambda: mtpalette.paired_test({"a": H, "b": H2}, [R], "bleu", baseline="c"),
        ("error", "baseline 'c' is not one of the systems: a, b"),
    ),
    (
        "paired-unknown-test",
        lambda: mtpalette.paired_test({"a": H, "b": H2}, [R], "bleu", test="x"),
        ("error", "test must be one of bs, ar or None, got 'x'"),
    ),
    (
        "paired-negative-seed",
        lambda: mtpalette.paired_test({"a": H, "b": H2}, [R], "bleu", seed=-1),
        ("error", "seed must be a non-negative integer or a Generator, got -1"),
    ),
    (
        "paired-level-above-1",
        lambda: mtpalette.paired_test({"a": H, "b": H2}, [R], "bleu", level=1.5),
        ("error", "the interval level and alpha must be between 0 and 1"),
    ),
    (
        "paired-alpha-0",
        lambda: mtpalette.paired_test({"a": H, "b": H2}, [R], "bleu", alpha=0),
        ("error", "the interval level and alpha must be between 0 and 1"),
    ),
    # pairwise / mbr
    (
        "pairwise-none",
        lambda: mtpalette.pairwise(None),
        ("error", "candidates must be a list of lists of strings (one per segment)"),
    ),
    (
        "pairwise-string",
        lambda: mtpalette.pairwise("abc"),
        ("error", "candidates must be a list of lists of strings"),
    ),
    (
        "pairwise-references-string",
        lambda: mtpalette.pairwise([H[:2]], "abc"),
        ("error", "references must be a list of lists of strings"),
    ),
    (
        "pairwise-ragged",
        lambda: mtpalette.pairwise([H[:2], H2[:2]], [R[:1]]),
        ("error", "2 segments of candidates but 1 of references"),
    ),
    (
        "pairwise-segment-string",
        lambda: mtpalette.pairwise([H[0]]),
        ("error", "segment 1: expected a list of strings per segment, got a string"),
    ),
    (
        "pairwise-unknown-metric",
        lambda: mtpalette.pairwise([H[:2]], metric="nosuch"),
        ("error", "unknown metric 'nosuch'"),
    ),
    (
        "pairwise-grid-metric",
        lambda: mtpalette.pairwise([H[:2]], metric="bleus:1..2"),
        ("error", "pairwise takes one metric; 'bleus:1..2' names 2"),
    ),
    (
        "pairwise-numpy",
        lambda: mtpalette.pairwise(np.array([H[:2]]), metric="chrf"),
        ("value", lambda m: m.shape == (1, 2, 2) and m[0, 0, 0] == 100.0),
    ),
    ("mbr-none", lambda: mtpalette.mbr(None), ("error", "candidates must be a list of lists")),
    (
        "mbr-bad-metric",
        lambda: mtpalette.mbr([H[:3]], metric="chrf:n=99"),
        ("error", "bad value '99' for 'n'"),
    ),
    # orange / audit
    (
        "orange-refs-none",
        lambda: mtpalette.orange(None, S3, "bleu"),
        ("error", "refs is None; expected a list of reference streams"),
    ),
    (
        "orange-candidates-none",
        lambda: mtpalette.orange([R, RB], None, "bleu"),
        ("error", "candidates is None; expected {system: outputs} or n-best lists"),
    ),
    (
        "orange-metrics-none",
        lambda: mtpalette.orange([R, RB], S3, None, n_resamples=0),
        ("error", "no metric to evaluate"),
    ),
    (
        "orange-one-reference",
        lambda: mtpalette.orange([R], S3, "bleu"),
        ("error", "ORANGE needs at least 2 references per segment"),
    ),
    (
        "orange-same-reference-twice",
        lambda: mtpalette.orange([R, list(R)], S3, "bleu"),
        ("error", "references refs[0] and refs[1] hold the same text"),
    ),
    (
        "orange-flat-refs",
        lambda: mtpalette.orange(R, S3, "bleu"),
        ("error", "refs[0] is a string; refs is a list of reference streams"),
    ),
    (
        "orange-ragged-system",
        lambda: mtpalette.orange([R, RB], {"a": H, "b": H2[:3]}, "bleu"),
        ("error", "system 'b' has 3 lines but the references have 6"),
    ),
    (
        "orange-negative-resamples",
        lambda: mtpalette.orange([R, RB], S3, "bleu", n_resamples=-1),
        ("error", "--bootstrap must be 0 (no interval) or more (got -1)"),
    ),
    (
        "orange-float-resamples",
        lambda: mtpalette.orange([R, RB], S3, "bleu", n_resamples=1.5),
        ("error", "the number of resamples must be an integer, got 1.5"),
    ),
    (
        "orange-negative-seed",
        lambda: mtpalette.orange([R, RB], S3, "bleu", seed=-1),
        ("error", "--seed must be between 0 and 2**63 - 1 (got -1)"),
    ),
    (
        "orange-string-seed",
        lambda: mtpalette.orange([R, RB], S3, "bleu", seed="1"),
        ("error", "--seed must be an integer, got '1'"),
    ),
    (
        "orange-confidence-2",
        lambda: mtpalette.orange([R, RB], S3, "bleu", confidence=2),
        ("error", "--confidence must be between 0 and 1 (got 2)"),
    ),
    (
        "orange-unknown-oracle",
        lambda: mtpalette.orange([R, RB], S3, "bleu", oracle="x"),
        ("error", "unknown oracle definition 'x'"),
    ),
    (
        "orange-unknown-ties",
        lambda: mtpalette.orange([R, RB], S3, "bleu", ties="x"),
        ("error", "unknown tie policy 'x'"),
    ),
    (
        "orange-nbest-string",
        lambda: mtpalette.orange([R, RB], "abc", "bleu"),
        ("error", "candidates: a dict of system outputs or a list of n-best lists"),
    ),
    ("audit-refs-none", lambda: mtpalette.audit(None, S3, "bleu"), ("error", "refs is None")),
    (
        "audit-same-reference-twice",
        lambda: mtpalette.audit([R, list(R)], S3, "bleu"),
        ("error", "hold the same text"),
    ),
    (
        "audit-human-without-reference-human",
        lambda: mtpalette.audit([R, RB], S3, "bleu", candidate_human=[1.0] * 18, n_resamples=0),
        ("error", "candidate_human and reference_human go together: give both or neither"),
    ),
    (
        "audit-human-wrong-shape",
        lambda: mtpalette.audit(
            [R, RB],
            S3,
            "bleu",
            candidate_human=[1.0],
            reference_human=[[1.0] * 6] * 2,
            n_resamples=0,
        ),  # fmt: skip
        ("error", "candidate_human must be (P,) and reference_human (R, S)"),
    ),
    (
        "audit-negative-resamples",
        lambda: mtpalette.audit([R, RB], S3, "bleu", n_resamples=-2),
        ("error", "--bootstrap must be 0 (no interval) or more (got -2)"),
    ),
    # correlate
    (
        "correlate-human-none",
        lambda: mtpalette.correlate(S3, [R], None, "chrf"),
        ("error", "human is NoneType; expected {system: scores} or {system: score}"),
    ),
    (
        "correlate-human-list",
        lambda: mtpalette.correlate(S3, [R], [1.0, 2.0, 3.0], "chrf"),
        ("error", "human is list"),
    ),
    (
        "correlate-systems-none",
        lambda: mtpalette.correlate(None, [R], HUMAN, "chrf"),
        ("error", "systems must be a non-empty dict"),
    ),
    (
        "correlate-human-words",
        lambda: mtpalette.correlate(S3, [R], {**HUMAN, "a": ["x"] * 6}, "chrf", n_resamples=0),
        ("error", "human['a'][0] is 'x'; expected a number (None or NaN: unrated)"),
    ),
    (
        "correlate-human-inf",
        lambda: mtpalette.correlate(S3, [R], {**HUMAN, "a": [np.inf] + [1.0] * 5}, "chrf"),
        ("error", "human scores must be finite or NaN (unrated)"),
    ),
    (
        "correlate-human-short",
        lambda: mtpalette.correlate(S3, [R], {**HUMAN, "a": [1.0] * 5}, "chrf"),
        ("error", "system 'a': 6 outputs and 5 human scores for 6 segments"),
    ),
    (
        "correlate-human-missing-system",
        lambda: mtpalette.correlate(S3, [R], {"a": HUMAN["a"]}, "chrf"),
        ("error", "no human scores for system(s) 'b', 'c'"),
    ),
    (
        "correlate-constant-human",
        lambda: mtpalette.correlate(S3, [R], {s: [2.0] * 6 for s in S3}, "chrf"),
        ("error", "every human score is 2: no correlation is defined with constant human scores"),
    ),
    (
        "correlate-two-systems-system-level",
        lambda: mtpalette.correlate({"a": H, "b": H2}, [R], {"a": 1.0, "b": 2.0}, "chrf"),
        ("error", "system level needs at least 3 systems, got 2"),
    ),
    (
        "correlate-unknown-statistic",
        lambda: mtpalette.correlate(S3, [R], HUMAN, "chrf", statistic="x"),
        ("error", "unknown statistic 'x'"),
    ),
    (
        "correlate-unknown-level",
        lambda: mtpalette.correlate(S3, [R], HUMAN, "chrf", level="doc"),
        ("error", "unknown level 'doc'; expected one of segment, system"),
    ),
    (
        "correlate-unknown-grouping",
        lambda: mtpalette.correlate(S3, [R], HUMAN, "chrf", grouping="x"),
        ("error", "unknown grouping 'x'; expected one of none, item, system"),
    ),
    (
        "correlate-unknown-test",
        lambda: mtpalette.correlate(S3, [R], HUMAN, "chrf", test="x"),
        ("error", "unknown test 'x'"),
    ),
    (
        "correlate-alpha-0",
        lambda: mtpalette.correlate(S3, [R], HUMAN, "chrf", alpha=0),
        ("error", "alpha must be between 0 and 1 (got 0)"),
    ),
    (
        "correlate-alpha-1",
        lambda: mtpalette.correlate(S3, [R], HUMAN, "chrf", alpha=1.0),
        ("error", "alpha must be between 0 and 1 (got 1.0)"),
    ),
    (
        "correlate-negative-permutations",
        lambda: mtpalette.correlate(S3, [R], HUMAN, "chrf", n_permutations=-5),
        ("error", "the number of draws must be non-negative, got -5"),
    ),
    (
        "correlate-numpy-human",
        lambda: (
            mtpalette.correlate(
                S3,
                [R],
                {s: np.array(v) for s, v in HUMAN.items()},
                "chrf",
                n_resamples=0,
                n_permutations=0,
            ).rows
        ),  # fmt: skip
        (
            "value",
            lambda rows: (
                rows
                == mtpalette.correlate(S3, [R], HUMAN, "chrf", n_resamples=0, n_permutations=0).rows
            ),
        ),
    ),  # fmt: skip
    (
        "correlate-none-is-unrated",
        lambda: (
            mtpalette.correlate(
                S3,
                [R],
                {**HUMAN, "a": [None] + HUMAN["a"][1:]},
                "chrf",
                n_resamples=0,
                n_permutations=0,
            ).rows
        ),  # fmt: skip
        ("value", lambda rows: all(np.isfinite(r.ci.value) for r in rows)),
    ),
]


@pytest.mark.parametrize(("call", "expected"), [pytest.param(c, e, id=i) for i, c, e in API_CASES])
def test_python_api(call, expected):
    check_api_case(call, expected)
