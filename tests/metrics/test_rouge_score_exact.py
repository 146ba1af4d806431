"""rouge-score parity on real raw text: tokens, Porter stems, ROUGE-1/2/L/Lsum, bootstrap.

Every comparison is exact (``assert_array_equal``) against the installed rouge-score and
NLTK, on the bundled WMT21 TED texts (English, German, Chinese), plus property tests of each
compiled kernel against its plain-Python twin.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.stem import porter
from real_data import mqm_ted
from rouge_score import rouge_scorer, scoring, tokenize

from mtpalette import sentence_scores
from mtpalette.errors import UserInputError
from mtpalette.io.plain import read_lines
from mtpalette.kernels.rouge_score import (
    porter_stem,
    summary_lcs_slow,
    text_counts,
    text_counts_slow,
    tokenize_batch,
    tokenize_slow,
)
from mtpalette.metrics.rouge_aggregate import bootstrap_aggregate
from mtpalette.metrics.rouge_score_compat import rouge_score_batch, specs_for
from mtpalette.text.rouge_score_tok import LostLettersWarning
from mtpalette.text.vocab import from_codepoints

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def _bundled(lp: str, name: str) -> list[str]:
    return read_lines(str(mqm_ted(lp)["root"] / f"{name}.txt"))


@pytest.fixture(scope="module")
def texts():
    """Distinct real lines: English, German and Chinese."""
    names = [("zhen", "ref"), ("zhen", "refB"), ("zhen", "SMU"), ("ende", "ref"),
             ("ende", "UEdin"), ("zhen", "source")]  # fmt: skip
    return list(dict.fromkeys(line for lp, n in names for line in _bundled(lp, n)))


def _compiled_tokens(lines, stem):
    cp, start, length, counts, _, _ = tokenize_batch(lines, stem=stem)
    flat = [from_codepoints(cp[s : s + n]) for s, n in zip(start, length, strict=True)]
    ends = np.cumsum(counts).tolist()
    return [flat[b:e] for b, e in zip([0, *ends[:-1]], ends, strict=True)]


@pytest.mark.parametrize("stem", [False, True])
def test_tokens_equal_rouge_score(texts, stem):
    stemmer = porter.PorterStemmer() if stem else None
    expected = [tokenize.tokenize(t, stemmer) for t in texts]
    assert _compiled_tokens(texts, stem) == expected
    assert [tokenize_slow(t, stem=stem) for t in texts[:500]] == expected[:500]


def test_every_code_point_as_rouge_score():
    """One text with every code point (no surrogates) between two letters."""
    text = " ".join(f"q{chr(c)}z" for c in range(0x110000) if not 0xD800 <= c < 0xE000)
    assert _compiled_tokens([text], False) == [tokenize.tokenize(text, None)]


def test_porter_equals_nltk_on_real_words(texts):
    words = sorted({w for t in texts for w in tokenize.tokenize(t, None)})
    assert len(words) > 5000
    nltk = porter.PorterStemmer()
    assert porter_stem(words) == [nltk.stem(w) for w in words]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="abcdefilnorstuyz", min_size=1, max_size=14), max_size=30))
def test_porter_equals_nltk_generated(words):
    nltk = porter.PorterStemmer()
    assert porter_stem(words) == [nltk.stem(w) for w in words]


@pytest.fixture(scope="module")
def pairs():
    """1,058 real zh-en candidates with 2 references, and the same as 3-line documents."""
    hyps = _bundled("zhen", "SMU") + _bundled("zhen", "Online-W")
    refs = [_bundled("zhen", "ref") * 2, _bundled("zhen", "refB") * 2]
    docs = ["\n".join(hyps[i : i + 3]) for i in range(0, len(hyps), 3)]
    doc_refs = [["\n".join(r[i : i + 3]) for i in range(0, len(r), 3)] for r in refs]
    return (hyps, refs), (docs, doc_refs)


def _rouge_score(hyps, refs, stem):
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
    out = [scorer.score_multi([r[i] for r in refs], h) for i, h in enumerate(hyps)]
    return {t: np.array([tuple(o[t]) for o in out]) for t in TYPES}


@pytest.mark.parametrize("stem", [False, True])
@pytest.mark.parametrize("docs", [False, True], ids=["sentences", "documents"])
def test_scores_equal_rouge_score_on_raw_text(pairs, stem, docs):
    hyps, refs = pairs[1] if docs else pairs[0]
    expected = _rouge_score(hyps, refs, stem)
    fast = rouge_score_batch(hyps, [list(t) for t in zip(*refs, strict=True)], TYPES,
                             use_stemmer=stem)  # fmt: skip
    for t, spec in zip(TYPES, specs_for(TYPES, use_stemmer=stem), strict=True):
        np.testing.assert_array_equal(fast[t], expected[t], err_msg=t)
        got = sentence_scores(hyps, refs, [spec + ",score=p", spec + ",score=r", spec])
        np.testing.assert_array_equal(np.column_stack(list(got.values())), expected[t], t)
    if docs:  # the documents really have several sentences, and Lsum differs from L
        assert (expected["rougeLsum"][:, 2] != expected["rougeL"][:, 2]).mean() > 0.5


def test_one_target_each_equals_rouge_score(pairs):
    hyps, refs = pairs[0]
    types = ["rouge1", "rouge2", "rougeL"]
    fast = rouge_score_batch(hyps, list(refs[0]), types)  # one string each: no per-target loop
    scorer = rouge_scorer.RougeScorer(types)
    out = [scorer.score(t, h) for t, h in zip(refs[0], hyps, strict=True)]
    for t in types:
        np.testing.assert_array_equal(fast[t], np.array([tuple(o[t]) for o in out]), t)
    empty = rouge_score_batch([], [], types)
    assert [v.shape for v in empty.values()] == [(0, 3)] * 3


def test_bootstrap_draw_for_draw(pairs):
    hyps, refs = pairs[0]
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
    theirs = scoring.BootstrapAggregator(confidence_interval=0.9, n_samples=200)
    rows = {"rouge1": [], "rougeL": []}
    for i, h in enumerate(hyps[:300]):
        s = scorer.score(refs[0][i], h)
        theirs.add_scores(s)
        for t in rows:
            rows[t].append(tuple(s[t]))
    np.random.seed(7)  # rouge-score draws from numpy's global state
    expected = theirs.aggregate()
    ours = bootstrap_aggregate(
        {t: np.array(v) for t, v in rows.items()},
        confidence_interval=0.9,
        n_samples=200,
        rng=np.random.RandomState(7),
    )
    for t in rows:
        for bound in ("low", "mid", "high"):
            assert tuple(getattr(expected[t], bound)) == tuple(
                vars(getattr(ours[t], bound)).values()
            )


def test_bootstrap_refuses_bad_input():
    with pytest.raises(ValueError, match="confidence_interval"):
        bootstrap_aggregate({"r": np.ones((2, 3))}, confidence_interval=1.5)
    with pytest.raises(ValueError, match=r"\(n, 3\)"):
        bootstrap_aggregate({"r": np.ones((2, 2))}, rng=0)


_TEXT = st.text(alphabet="aAbBcé ,.\n-İ北ies", max_size=40)


@pytest.mark.filterwarnings("ignore::mtpalette.text.rouge_score_tok.LostLettersWarning")
@settings(max_examples=200, deadline=None)
@given(st.lists(_TEXT, min_size=1, max_size=6), st.booleans(), st.booleans())
def test_tokenize_kernel_equals_twin(lines, stem, sents):
    cp, start, length, counts, letters, dropped = tokenize_batch(lines, stem=stem, sents=sents)
    flat = [from_codepoints(cp[s : s + n]) for s, n in zip(start, length, strict=True)]
    assert flat == [t for line in lines for t in tokenize_slow(line, stem=stem, sents=sents)]
    assert letters.tolist() == [sum(c.isalpha() for c in line) for line in lines]
    kept = [sum(c.isascii() and c.isalpha() or c == "İ" for c in line) for line in lines]
    assert (letters - dropped).tolist() == kept


@pytest.mark.filterwarnings("ignore::mtpalette.text.rouge_score_tok.LostLettersWarning")
@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(_TEXT, _TEXT, st.one_of(st.none(), _TEXT)), min_size=1, max_size=8),
    st.booleans(),
)
def test_text_counts_equal_twin(rows, stem):
    hyps = [h for h, _, _ in rows]
    refs = [[r for _, r, _ in rows], [r for _, _, r in rows]]
    counts, _ = text_counts(hyps, refs, (1, 2, 3), lcs=True, stem=stem)
    np.testing.assert_array_equal(counts, text_counts_slow(hyps, refs, (1, 2, 3), stem=stem))


# long texts (tokens across the kernel's 64-byte blocks, tokens over 8 bytes) with the two
# non-ASCII characters that make rouge-score tokens (U+0130, U+212A KELVIN SIGN)
_LONG_TEXT = st.text(alphabet="aAbBZz09é ,“”İ\u212a北ings", max_size=300)


@pytest.mark.filterwarnings("ignore::mtpalette.text.rouge_score_tok.LostLettersWarning")
@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_LONG_TEXT, _LONG_TEXT), min_size=1, max_size=5), st.booleans())
def test_text_counts_equal_twin_long_texts(rows, stem):
    hyps = [h for h, _ in rows]
    refs = [[r for _, r in rows]]
    counts, letters = text_counts(hyps, refs, (1, 2, 4), lcs=True, stem=stem)
    np.testing.assert_array_equal(counts, text_counts_slow(hyps, refs, (1, 2, 4), stem=stem))
    texts = hyps + refs[0]
    assert letters[:, 0].tolist() == [sum(c.isalpha() for c in t) for t in texts]
    kept = [sum(c.isascii() and c.isalpha() or c in "İ\u212a" for c in t) for t in texts]
    assert (letters[:, 0] - letters[:, 1]).tolist() == kept


@pytest.mark.filterwarnings("ignore::mtpalette.text.rouge_score_tok.LostLettersWarning")
@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_TEXT, _TEXT), min_size=1, max_size=6))
def test_lsum_kernel_equals_twin(rows):
    hyps, refs = [h for h, _ in rows], [r for _, r in rows]
    (out,) = sentence_scores(hyps, [refs], ["rouge-lsum:tok=rouge-score,score=r"]).values()
    for (h, r), got in zip(rows, out, strict=True):
        sents = [[tokenize_slow(s) for s in x.split("\n")] for x in (h, r)]
        hits, _, m = summary_lcs_slow(*sents)
        assert got == (hits / m if m else 0.0)


def test_warns_when_letters_are_lost():
    zh = _bundled("zhen", "source")[:50]
    with pytest.warns(LostLettersWarning, match="tok=zh"):
        rouge_score_batch(zh, zh)
    with pytest.warns(LostLettersWarning, match="50 of 50 texts"):
        sentence_scores(zh, [zh], ["rouge-l:tok=rouge-score"])
    en = _bundled("zhen", "ref")[:50]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rouge_score_batch(en, en)
        sentence_scores(en, [en], ["rouge-l:tok=rouge-score"])


def test_stem_needs_the_rouge_score_tokenizer():
    with pytest.raises(UserInputError, match="tok=rouge-score"):
        sentence_scores(["a"], [["a"]], ["rouge-l:stem=yes"])
    out = sentence_scores(["Running dogs"], [["run dog"]], ["rouge-n:1,tok=rouge-score,stem=yes"])
    assert [v.tolist() for v in out.values()] == [[1.0]]
    assert list(out) == ["rouge-n:1,tok=rouge-score,stem=yes"]  # the name as given


_FUSED_SPECS = [
    "rouge-n:1,tok=rouge-score",
    "rouge-n:2,tok=rouge-score,stem=yes",
    "rouge-l:tok=rouge-score",
    "rouge-l:tok=rouge-score,stem=yes,multiref=avg",
    "rouge-n:2,tok=rouge-score,multiref=rouge155-a",
    "rouge-n:3,tok=rouge-score,multiref=rouge155-b,score=r",
]


def _fused_and_encoded(hyps, seg, refs):
    """The statistics of ``_FUSED_SPECS`` through the text-to-counts call and through the
    encoded path (the text encoded first, so that the call does not apply)."""
    from mtpalette.metrics.registry import parse_specs
    from mtpalette.metrics.scoring import TextPairs, compute_stats

    metrics = parse_specs(_FUSED_SPECS)
    fused = compute_stats(metrics, TextPairs(hyps, np.asarray(seg, dtype=np.int64), refs))
    encoded_first = TextPairs(hyps, np.asarray(seg, dtype=np.int64), refs)
    for m in metrics:
        encoded_first.encoded(m.view())
    return metrics, fused, compute_stats(metrics, encoded_first)


@pytest.mark.filterwarnings("ignore::mtpalette.text.rouge_score_tok.LostLettersWarning")
@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(_TEXT, _TEXT, st.one_of(st.none(), _TEXT)), min_size=1, max_size=6),
    st.integers(1, 3),
)
def test_rouge_from_text_equals_the_encoded_path(rows, per_segment):
    """ROUGE-N/L with rouge-score's tokens straight from the text (one compiled call) equal
    the encode-then-count path: several candidates per segment, missing references, every
    multi-reference policy."""
    refs = [[r for _, r, _ in rows], [r2 for _, _, r2 in rows]]
    refs[0] = [r if r.strip() else "x" for r in refs[0]]  # a segment needs one reference
    hyps = [h for h, _, _ in rows for _ in range(per_segment)]
    seg = [s for s in range(len(rows)) for _ in range(per_segment)]
    metrics, fused, encoded = _fused_and_encoded(hyps, seg, refs)
    for m in metrics:
        np.testing.assert_array_equal(fused[m], encoded[m], err_msg=m.spec)


def test_rouge_from_text_equals_the_encoded_path_on_real_text(pairs):
    (hyps, refs), _ = pairs
    metrics, fused, encoded = _fused_and_encoded(hyps, range(len(hyps)), refs)
    for m in metrics:
        np.testing.assert_array_equal(fused[m], encoded[m], err_msg=m.spec)
