"""``analyze --compat compare-mt`` equals compare-mt 0.2.10 on text with double spaces, tabs,
spaces at the ends and empty lines: project-written text (tests/data/compare_mt/spaces) and
WMT21 newstest en-de from the shared data (reference A has 43 lines with runs of spaces);
golden values: scripts/compare_mt_spaces_golden.py, tests/data/compare_mt/spaces_golden.json
and wmt21_ende_golden.json. Its sentence BLEU equals NLTK's; without the compat the folded
lines are counted in a note."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.bleu_score import SmoothingFunction
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu
from real_data import shared

import mtpalette
from mtpalette.analysis import compare_mt
from mtpalette.api.analyze_run import analyze
from mtpalette.sources.scoring import score_systems

REPO = Path(__file__).parents[2]
HERE = REPO / "tests" / "data" / "compare_mt"
GOLDEN = json.loads((HERE / "spaces_golden.json").read_text("utf-8"))
SYSTEMS = ["A", "B", "C"]
SETS = {"spaces": GOLDEN, "wmt21": json.loads((HERE / "wmt21_ende_golden.json").read_text())}


def _lines(name: str, which: str = "spaces") -> list[str]:
    # compare-mt iterates the file's lines; a no-break space or a tab is not a line break
    path = SETS[which]["files"][name]["path"]
    full = REPO / path if which == "spaces" else shared(path, what="WMT21 en-de texts")
    return full.read_text(encoding="utf-8").split("\n")[:-1]


@pytest.fixture(scope="module", params=list(SETS))
def run(request):
    which = request.param
    names = [n for n in SETS[which]["files"] if n != "ref"]
    systems = {name: _lines(name, which) for name in names}
    out = analyze(systems, [_lines("ref", which)], compat="compare-mt",
                  analyses=["words", "length", "lengthdiff", "score"])  # fmt: skip
    return which, names, out


def test_the_files_are_the_golden_runs(run):
    which, _, _ = run
    for name, info in SETS[which]["files"].items():
        lines = _lines(name, which)
        assert (
            len(lines) == info["lines"] and compare_mt.folded_lines(lines) == info["folded_lines"]
        )
    assert SETS[which]["files"]["ref"]["folded_lines"] > 20  # the traps are there


def test_word_accuracy_equals_compare_mt(run):
    which, names, result = run
    words, want = result.analyses[0], SETS[which]["word_accuracy"]
    assert words.labels == want["labels"] and words.ref_words == want["ref_words"]
    for name in names:
        for key in ("precision", "recall", "fmeasure"):
            np.testing.assert_allclose(getattr(words, key)[name], want[key][name], rtol=1e-12,
                                       atol=0)  # fmt: skip


@pytest.mark.parametrize("index, key, what", [(1, "length_bleu", "scores"),
                                              (2, "lengthdiff_count", "counts"),
                                              (2, "lengthdiff_bleu", "scores"),
                                              (3, "score_count", "counts")])  # fmt: skip
def test_sentence_buckets_equal_compare_mt(run, index, key, what):
    which, names, result = run
    buckets, want = result.analyses[index], SETS[which]["sentence_buckets"][key]["values"]
    for name in names:
        got = [0.0 if v is None else v for v in getattr(buckets, what)[name]]  # compare-mt: 0
        np.testing.assert_allclose(got, want[name], rtol=1e-12, atol=1e-12)


def test_corpus_and_sentence_bleu_equal_compare_mt(run):
    which, names, _ = run
    ref = _lines("ref", which)
    systems = {name: _lines(name, which) for name in names}
    scored = score_systems(systems, [ref], [compare_mt.SENTENCE_BLEU_STATS], progress=False,
                           tokenize=compare_mt.TOKENIZER)  # fmt: skip
    want = SETS[which]["sentence_buckets"]["score_sentbleu"]["values"]
    for name in names:
        [score] = mtpalette.corpus_score(systems[name], [ref], "bleu:compat=compare-mt",
                                         tokenize=compare_mt.TOKENIZER)  # fmt: skip
        assert score.value == pytest.approx(SETS[which]["bleu"][name], rel=1e-13)
        sent = compare_mt.sentence_bleu(next(iter(scored[name].stats.values())))
        bucket = np.searchsorted(np.arange(10.0, 100.0, 10.0), sent, side="right")
        means = [float(sent[bucket == b].mean()) if (bucket == b).any() else 0.0
                 for b in range(10)]  # fmt: skip
        np.testing.assert_allclose(means, want[name], rtol=1e-12, atol=1e-12)


def test_without_compat_the_folded_lines_are_counted():
    ref = _lines("ref")
    systems = {name: _lines(name) for name in SYSTEMS}
    folded = sum(compare_mt.folded_lines(x) for x in [ref, *systems.values()])
    out = analyze(systems, [ref], analyses=["words"], tokenize="none")
    [note] = out.notes
    assert note.startswith(f"{folded} of {4 * len(ref)} lines") and "--compat compare-mt" in note
    assert out.analyses[0].ref_words != GOLDEN["word_accuracy"]["ref_words"]  # it matters here
    assert analyze({"A": ["a b"]}, [["a b"]], analyses=["words"]).notes == []
    with pytest.raises(mtpalette.errors.UserInputError, match="--tokenize 13a is not taken"):
        analyze(systems, [ref], compat="compare-mt", tokenize="13a")
    with pytest.raises(mtpalette.errors.UserInputError, match="expected one of compare-mt"):
        analyze(systems, [ref], compat="sacrebleu")


WORDS = st.lists(st.sampled_from(["a", "b", "c", "d", ""]), max_size=9)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(WORDS, WORDS), min_size=1, max_size=8))
def test_sentence_bleu_equals_nltks_method2(pairs):
    """compare-mt's sentbleu is 100 x NLTK's sentence_bleu with method2, on compare-mt's
    words (an empty word is a word)."""
    refs = [" ".join(r) for r, _ in pairs]
    hyps = [" ".join(h) for _, h in pairs]
    scored = score_systems({"A": hyps}, [refs], [compare_mt.SENTENCE_BLEU_STATS],
                           progress=False, tokenize=compare_mt.TOKENIZER)  # fmt: skip
    got = compare_mt.sentence_bleu(next(iter(scored["A"].stats.values())))
    smooth = SmoothingFunction().method2
    want = [100 * nltk_sentence_bleu([compare_mt.split_words(r)], compare_mt.split_words(h),
                                     smoothing_function=smooth)
            for r, h in zip(refs, hyps, strict=True)]  # fmt: skip
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
