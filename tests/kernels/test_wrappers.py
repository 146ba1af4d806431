"""The wrappers of the kernels that serve text, ragged arrays and correlations equal their
slow twins (:mod:`mtpalette.kernels.reference`) on generated inputs."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtpalette.kernels.concordance import (
    grouped_pair_counts,
    inversions_per_element,
    pairwise_counts,
)
from mtpalette.kernels.ragged import gather
from mtpalette.kernels.reference.concordance import inversions_slow, pair_counts_slow
from mtpalette.kernels.reference.ragged import gather_slow
from mtpalette.kernels.reference.scores import closest_ref_length_slow
from mtpalette.kernels.reference.vocab import (
    first_occurrences_slow,
    hash_slow,
    intern_slow,
    rehash_slow,
)
from mtpalette.kernels.scores import bleu_rows, closest_ref_lengths, nist_rows
from mtpalette.kernels.threads import num_threads
from mtpalette.kernels.tokenize import tokenize_lines
from mtpalette.kernels.vocab import first_occurrences, hash_spans, vocab_intern, vocab_rehash
from mtpalette.metrics.base import Pairs
from mtpalette.text.bulk import MODES, char_flags
from mtpalette.text.ragged import Ragged
from mtpalette.text.tokenizers import get_tokenizer

sentence = st.lists(st.integers(0, 5), max_size=12)
# few distinct values: many ties in gold, in the metric and in both
score = st.integers(0, 3).map(float)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-5, 5, allow_nan=False), max_size=40))
def test_inversions(values):
    assert inversions_per_element(values).tolist() == inversions_slow(values)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(st.tuples(score, score), max_size=9), min_size=1, max_size=4),
    st.sampled_from([0.0, 0.5, 1.0]),
    st.data(),
)
def test_pair_counts_of_groups(groups, epsilon, data):
    gold = [g for group in groups for g, _ in group]
    metric = [m for group in groups for _, m in group]
    offsets = np.cumsum([0] + [len(group) for group in groups])
    use = data.draw(st.lists(st.booleans(), min_size=len(groups), max_size=len(groups)))
    want = [
        pair_counts_slow([g for g, _ in group], [m for _, m in group], epsilon) if flag else [0] * 5
        for group, flag in zip(groups, use, strict=True)
    ]
    assert pairwise_counts(gold, metric, offsets, use, epsilon).tolist() == want
    # merge counting needs each group sorted by gold, then metric; exact ties only
    ordered = [sorted(group) for group in groups]
    got = grouped_pair_counts(
        [g for group in ordered for g, _ in group],
        [m for group in ordered for _, m in group],
        offsets,
    )
    want = [
        pair_counts_slow([g for g, _ in group], [m for _, m in group], 0.0) for group in ordered
    ]
    assert got.tolist() == want


@settings(max_examples=200, deadline=None)
@given(st.lists(sentence, min_size=1, max_size=6), st.data())
def test_gather(rows, data):
    r = Ragged.from_rows(rows)
    take = data.draw(st.lists(st.integers(0, len(rows) - 1), max_size=8))
    ids, offsets = gather(r.ids, r.offsets, take)
    got = [ids[offsets[i] : offsets[i + 1]].tolist() for i in range(len(take))]
    assert got == gather_slow(rows, take)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 2), sentence), min_size=1, max_size=5),
    st.lists(st.lists(st.one_of(st.none(), sentence), min_size=3, max_size=3), min_size=1,
             max_size=3),
)  # fmt: skip
def test_closest_reference_lengths(hyps, refs):
    mask = np.array([[r is not None for r in ref] for ref in refs])
    pairs = Pairs(
        Ragged.from_rows([h for _, h in hyps]),
        np.array([s for s, _ in hyps]),
        Ragged.from_rows([r or [] for ref in refs for r in ref]),
        mask,
    )
    want = [
        closest_ref_length_slow(len(h), [len(ref[s]) for ref in refs if ref[s] is not None])
        for s, h in hyps
    ]
    assert closest_ref_lengths(pairs).tolist() == want


words = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=6)


@settings(max_examples=200, deadline=None)
@given(st.lists(words, max_size=12))
def test_hashes_and_the_table(tokens):
    text = "".join(tokens)
    cp = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    lengths = np.array([len(t) for t in tokens], dtype=np.int64)
    starts = np.cumsum(lengths) - lengths
    got = hash_spans(cp, starts, lengths).tolist()
    assert got == [hash_slow(map(ord, t)) for t in tokens]
    distinct = list(dict.fromkeys(got))
    size = 1 << max(1, (2 * len(distinct)).bit_length())
    table = vocab_rehash(size, np.array(distinct, dtype=np.uint64), len(distinct))
    assert table.tolist() == rehash_slow(size, distinct)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.none(), words, st.integers(-3, 3)), max_size=40))
def test_first_occurrences_number_items_as_a_dict(items):
    """Equal lines that are distinct objects, None, and keys of equal hash (-1 and -2 share
    one in CPython) are numbered as dict keys are."""
    copies = [x.encode().decode() if isinstance(x, str) else x for x in items]  # equal copies
    rows, firsts = first_occurrences(items + copies)
    assert (rows.tolist(), firsts.tolist()) == first_occurrences_slow(items + copies)


@settings(max_examples=100, deadline=None)
@given(st.lists(words, max_size=30), st.lists(words, max_size=5))
def test_intern_grows_and_numbers_as_a_dict(tokens, more):
    """Interning the tokens in chunks, growing the arrays when it stops, as
    ``Vocabulary.intern_spans`` does, gives the ids of a dict in first-occurrence order."""
    table = np.full(4, -1, np.int32)
    v_hash, v_start, v_len = np.zeros(1, np.uint64), np.zeros(1, np.int64), np.zeros(1, np.int64)
    v_cp, n, n_cp = np.zeros(1, np.uint32), 0, 0
    ids_all = []
    for chunk in (tokens, more):
        cp = np.frombuffer("".join(chunk).encode("utf-32-le"), dtype=np.uint32)
        lengths = np.array([len(t) for t in chunk], dtype=np.int64)
        starts = np.cumsum(lengths) - lengths
        hashes = hash_spans(cp, starts, lengths)
        ids = np.zeros(len(chunk), dtype=np.int32)
        t = 0
        while True:
            t, n, n_cp = vocab_intern(
                cp, starts, lengths, hashes, t, ids, table, v_hash, v_start, v_len, v_cp, n, n_cp
            )
            if t == len(chunk):
                break
            if 2 * (n + 1) > len(table):
                table = vocab_rehash(2 * len(table), v_hash, n)
            v_hash, v_start, v_len = (
                np.resize(a, 2 * len(a) + 1) for a in (v_hash, v_start, v_len)
            )
            v_cp = np.resize(v_cp, 2 * len(v_cp) + int(lengths[t]))
        ids_all.append(ids.tolist())
    want, vocab = intern_slow(tokens)
    assert ids_all[0] == want
    assert ids_all[1] == intern_slow(more, vocab)[0]
    assert n == len(intern_slow(tokens + more)[1])


lines = st.lists(
    st.text(st.sampled_from(list("ab1,.-&;<>!? \t\u00e9\u4e2d\u3000")), max_size=20), max_size=6
)


@settings(max_examples=200, deadline=None)
@given(lines, st.sampled_from(sorted(MODES)), st.booleans())
def test_tokenize_lines_equals_the_per_line_tokenizers(text, name, parallel):
    """The bulk kernel's tokens (and their hashes) are the per-line tokenizers' tokens."""
    text = [line.rstrip() for line in text]  # as text.bulk prepares the lines
    cp = np.frombuffer(bytearray("".join(text).encode("utf-32-le")), dtype=np.uint32)
    line_off = np.cumsum([0] + [len(line) for line in text])
    counts, start, length, hashes = tokenize_lines(
        cp, line_off, MODES[name], char_flags(name == "intl"), parallel
    )
    tokens = ["".join(map(chr, cp[s : s + n])) for s, n in zip(start, length, strict=True)]
    split = np.cumsum([0] + counts.tolist())
    tokenize = get_tokenizer(name)
    for i, line in enumerate(text):
        assert tokens[split[i] : split[i + 1]] == tokenize(line)
    assert hashes.tolist() == [hash_slow(map(ord, t)) for t in tokens]


def test_wrappers_refuse_bad_arguments():
    with pytest.raises(ValueError, match="writable uint32"):
        tokenize_lines(np.zeros(2, np.int32), [0, 2], 0, char_flags(False), False)
    with pytest.raises(ValueError, match="mode"):
        tokenize_lines(np.zeros(2, np.uint32), [0, 2], 7, char_flags(False), False)
    with pytest.raises(ValueError, match="smooth"):
        bleu_rows(np.zeros((1, 10)), 4, 9, 0.0, False)
    with pytest.raises(ValueError, match="which"):
        nist_rows(np.zeros((1, 11)), 2, 2)
    with pytest.raises(ValueError, match="epsilon"):
        pairwise_counts([1.0], [1.0], [0, 1], [True], -1.0)
    with pytest.raises(ValueError, match="out of range"):
        gather(np.array([1]), np.array([0, 1]), np.array([1]))
    assert num_threads() >= 1
