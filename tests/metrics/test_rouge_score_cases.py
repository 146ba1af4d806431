"""rouge-score's own test cases, run against mtpalette by an adapter.

The inputs and expected values of rouge-score's ``rouge_scorer_test.py``, ``scoring_test.py``,
``tokenize_test.py`` and ``tokenizers_test.py`` are data in
``tests/data/rouge_score/cases.json`` (its ``source`` field cites the release and commits).
Each ROUGE case runs through both of mtpalette's paths: the compiled text-to-scores batch
(:func:`~mtpalette.metrics.rouge_score_compat.rouge_score_batch`) and the metric registry
(:func:`mtpalette.sentence_scores` with the specs of
:func:`~mtpalette.metrics.rouge_score_compat.specs_for`). The bootstrap cases run
:func:`~mtpalette.metrics.rouge_aggregate.bootstrap_aggregate` with rouge-score's seed
convention (``np.random.seed(123)`` before the test: a ``RandomState(123)`` drawing for the
types in order). The whole ``target_large.txt`` / ``prediction_large.txt`` of rouge-score's
testdata are bundled, so its ROUGE-1.5.5 checks run: ROUGE-Lsum of the two files as one
summary each (``testRougeLsumLarge``), and the bootstrap intervals over their 1,000 line pairs
and over the 250 four-line texts pyrouge's ``*_multi.{0..249}.txt`` files hold (cut here from
the two files as ``create_pyrouge_files.py`` cut them). ``split_summaries`` (rouge-lsum's
``split=nltk``) runs where NLTK's punkt model is installed and is skipped, naming the
download, where it is not: nothing installable here ships the model.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from real_data import shared

from mtpalette import sentence_scores
from mtpalette.errors import UserInputError
from mtpalette.kernels.rouge_score import _lcs_indices, summary_lcs_slow, tokenize_batch
from mtpalette.metrics.rouge_aggregate import bootstrap_aggregate
from mtpalette.metrics.rouge_score_compat import rouge_score_batch, specs_for
from mtpalette.text.tokenizers import get_tokenizer
from mtpalette.text.vocab import from_codepoints

#: the golden values, computed here by rouge-score (the project's own)
DATA = Path(__file__).parent.parent / "data" / "rouge_score"
CASES = json.loads((DATA / "cases.json").read_text(encoding="utf-8"))["cases"]
#: rouge-score's own test texts, read where the shared data keeps them (never copied here)
TEXTS = ("rouge-score", "rouge", "testdata")


def _path(name: str) -> Path:
    """A test text of rouge-score (``*_multi.*`` in its ``pyrouge_files``), or a skip that
    says where it was looked for (``tests/real_data.py``)."""
    parts = (*TEXTS, "pyrouge_files", name) if "_multi." in name else (*TEXTS, name)
    return shared(*parts, what="rouge-score's test text")


def _text(x) -> str:
    if isinstance(x, str):
        return x
    with open(_path(x["file"]), encoding="utf-8") as f:
        lines = f.readlines() if "line" in x else [f.read()]
    return lines[x.get("line", 0)]


def _lines(name: str) -> list[str]:
    with open(_path(name), encoding="utf-8") as f:
        return f.readlines()


def _texts(case: dict, key: str) -> list[str]:
    """The texts of a case's ``targets`` / ``predictions`` file: its first ``lines`` lines,
    each a text, or (``lines_per_text``) consecutive runs of that many lines joined, as
    rouge-score's ``create_pyrouge_files.py`` wrote its ``*_multi.{i}.txt`` files."""
    lines = _lines(case[key]["file"])[: case.get("lines")]
    k = case.get("lines_per_text", 1)
    return ["".join(lines[i : i + k]) for i in range(0, len(lines), k)]


def _registry_rows(predictions: list[str], targets: list[str], types, stem: bool) -> dict:
    """``{type: (n, 3) [P, R, F]}`` through :func:`mtpalette.sentence_scores`."""
    specs = specs_for(types, use_stemmer=stem)
    return {
        t: np.column_stack([
            sentence_scores(predictions, [targets], [f"{s},score={c}"]).popitem()[1]
            for c in "prf"
        ])
        for t, s in zip(types, specs, strict=True)
    }  # fmt: skip


def _close(got: float, want: float | None, places: int) -> None:
    if want is not None:  # assertAlmostEqual(want, got, places)
        assert round(abs(got - want), places) == 0, (got, want)


def _needs_punkt() -> None:
    """Skip, naming the download, where NLTK's punkt model (rouge-score's
    ``split_summaries``) is not installed: nothing installable here ships it."""
    nltk = pytest.importorskip("nltk")
    try:
        nltk.sent_tokenize("One. Two.")
    except LookupError:
        pytest.skip("NLTK's punkt model is not installed (python -m nltk.downloader punkt_tab)")


def _check_scores(case: dict, targets: list, prediction: str) -> None:
    types, stem = case["types"], case.get("stem", False)
    split = case.get("split_summaries", False)
    if split:
        _needs_punkt()
    places = case.get("places", 7)
    fast = rouge_score_batch(
        [prediction], [targets], types, use_stemmer=stem, split_summaries=split
    )
    specs = specs_for(types, use_stemmer=stem, split_summaries=split)
    refs = [[t] for t in targets]
    by_spec = {
        t: np.array([sentence_scores([prediction], refs, [f"{s},score={c}"]).popitem()[1][0]
                     for c in "prf"])
        for t, s in zip(types, specs, strict=True)
    }  # fmt: skip
    assert set(fast) == set(types)
    for t in types:
        np.testing.assert_array_equal(fast[t][0], by_spec[t])
        for got, want in zip(fast[t][0], case["expected"].get(t, [None] * 3), strict=True):
            _close(float(got), want, places)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_rouge_score_case(case):
    kind = case["kind"]
    if kind == "unsupported":
        pytest.skip(case["reason"])
    if kind == "score":
        _check_scores(case, [_text(case["target"])], _text(case["prediction"]))
    elif kind == "score_multi":
        _check_scores(case, case["targets"], case["prediction"])
    elif kind == "invalid_type":
        with pytest.raises(UserInputError, match="invalid rouge type"):
            specs_for([case["type"]])
    elif kind == "tokenize":
        name = "rouge-score-stem" if case["stem"] else "rouge-score"
        assert get_tokenizer(name)(case["text"]) == case["tokens"]
        cp, start, length, counts, _, _ = tokenize_batch([case["text"]], stem=case["stem"])
        got = [from_codepoints(cp[s : s + n]) for s, n in zip(start, length, strict=True)]
        assert got == case["tokens"] and counts.tolist() == [len(got)]
    elif kind == "lcs":
        ref, can = case["ref"], case["can"]
        assert sorted(_lcs_indices(ref, can)) == case["indices"]
        hits = sentence_scores(
            [" ".join(map(str, can))], [[" ".join(map(str, ref))]], ["rouge-l:score=r"],
            tokenize="none",
        )["rouge-l:score=r"][0] * len(ref)  # fmt: skip
        assert round(hits) == case["length"]
    elif kind == "union_lcs":
        ref = case["ref"]
        union = set().union(*(_lcs_indices(ref, c) for c in case["cans"]))
        assert [ref[i] for i in sorted(union)] == case["union"]
    elif kind == "summary_lcs":
        hits, n, m = summary_lcs_slow(case["cans"], case["refs"])
        p, r = (hits / n if n else 0.0), (hits / m if m else 0.0)
        want = case["expected"]
        for got, w in zip((p, r, 2 * p * r / (p + r) if p + r else 0.0), want, strict=True):
            _close(got, w, case["places"])
        hyp = "\n".join(" ".join(map(str, s)) for s in case["cans"])
        ref = "\n".join(" ".join(map(str, s)) for s in case["refs"])
        out = sentence_scores([hyp], [[ref]], ["rouge-lsum:score=r"], tokenize="none")
        assert out["rouge-lsum:score=r"][0] == r
    elif kind == "aggregate_types":
        targets, predictions = _texts(case, "targets"), _texts(case, "predictions")
        assert len(targets) == len(predictions) == case["lines"]
        rows = rouge_score_batch(predictions, targets, case["types"], use_stemmer=case["stem"])
        agg = bootstrap_aggregate(rows, rng=np.random.RandomState(123))
        assert sorted(agg) == sorted(case["types"])
        for name, a in agg.items():
            assert a.low.fmeasure <= a.mid.fmeasure <= a.high.fmeasure
            assert a.low.fmeasure <= rows[name][:, 2].mean() <= a.high.fmeasure
    elif kind == "aggregate_rouge155":
        targets, predictions = _texts(case, "targets"), _texts(case, "predictions")
        assert len(targets) == len(predictions) == 1000 // case["lines_per_text"]
        types, stem = case["types"], case["stem"]
        rows = rouge_score_batch(predictions, targets, types, use_stemmer=stem)
        by_spec = _registry_rows(predictions, targets, types, stem)
        for t in types:
            np.testing.assert_array_equal(rows[t], by_spec[t])
        agg = bootstrap_aggregate(rows, rng=np.random.RandomState(123))  # _RANDOM_SEED
        for name, want in case["expected"].items():
            for measure, expected in want.items():
                got = [getattr(getattr(agg[name], b), measure) for b in ("low", "mid", "high")]
                np.testing.assert_allclose(got, expected, rtol=0, atol=case["delta"])
    elif kind == "bootstrap":
        rows = np.array(case["rows"], dtype=float)
        agg = bootstrap_aggregate(
            {"rouge1": rows},
            confidence_interval=case["confidence_interval"],
            rng=np.random.RandomState(123),  # scoring_test.py's _RANDOM_SEED
        )["rouge1"]
        for measure, (low, mid, high) in case["expected"].items():
            got = [getattr(getattr(agg, b), measure) for b in ("low", "mid", "high")]
            np.testing.assert_allclose(got, [low, mid, high], rtol=0, atol=case["delta"])
    else:
        raise AssertionError(f"unknown case kind {kind!r}")


def test_case_counts():
    """The cases as counted in the report: every one is supported (``split_summaries`` runs
    where NLTK's punkt model is installed)."""
    assert len(CASES) == 53
    assert [c["id"] for c in CASES if c["kind"] == "unsupported"] == []
    assert [c["id"] for c in CASES if c.get("split_summaries")] == [
        "rouge_scorer_test.testRougeLSumSentenceSplitting[split_summaries]"
    ]


def test_split_summaries_resplits_every_text_with_nltk(monkeypatch):
    """``split=nltk`` hands each text to ``nltk.sent_tokenize`` and scores its sentences as
    lines (here a stand-in splitter at ". ", since the punkt model is a separate download);
    without the model, the error names the download."""
    nltk = pytest.importorskip("nltk")
    seen = []

    def fake(text):
        seen.append(text)
        return text.split(". ")

    monkeypatch.setattr(nltk, "sent_tokenize", fake)
    target, prediction = "First sentence. Second Sentence.", "Second sentence. First Sentence."
    for split, want in ((True, 1.0), (False, 0.5)):
        out = rouge_score_batch([prediction], [target], ["rougeLsum"], split_summaries=split)
        assert out["rougeLsum"][0, 2] == want
    assert sorted(seen) == sorted([target, prediction])

    def missing(text):
        raise LookupError("Resource punkt_tab not found.")

    monkeypatch.setattr(nltk, "sent_tokenize", missing)
    with pytest.raises(UserInputError, match="punkt sentence model.*punkt_tab"):
        rouge_score_batch([prediction], [target], ["rougeLsum"], split_summaries=True)


def test_large_files_hold_the_pyrouge_files():
    """The bundled large files are what rouge-score's pyrouge files were cut from: 1,000 lines
    each, and their first 4-line texts are the bundled ``*_multi.0.txt`` files."""
    for name in ("target", "prediction"):
        texts = _texts({"f": {"file": f"{name}_large.txt"}, "lines_per_text": 4}, "f")
        assert len(texts) == 250 and sum(t.count("\n") for t in texts) == 1000
        assert texts[0] == _text({"file": f"{name}_multi.0.txt"})
