"""Word accuracy by frequency bucket: which words each system gets right, rare or common.

compare-mt's definition (Neubig et al., 2019; its ``word_accuracy`` analysis, read, not
copied): a word's frequency is its number of occurrences in the references (or in a given
training corpus); every reference token goes to the bucket of its frequency (recall's
denominator), every output token too (precision's; a word absent from the references has
frequency 0). In each sentence a word matches ``min(count in the output, count in the
reference)`` times, with no alignment. Per bucket: precision = matches / output words,
recall = matches / reference words, F = 2PR / (P + R), each 0 where it has no match.
(compare-mt 0.2.10 prints the precision table under the title "word rec" and the recall table
under "word prec"; the values here are named by what they are.)

Everything runs on encoded tokens: the (sentence, word) pairs of each side are counted with
one ``np.unique`` and matched by a sorted intersection, no Python loop over words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mtpalette.analysis import buckets
from mtpalette.records import Record, RowsFrame, constant
from mtpalette.text.ragged import Ragged


@dataclass(frozen=True)
class WordAccuracy(Record, RowsFrame):
    """Per frequency bucket: reference words, and per system output words, matches and
    precision, recall and F-measure."""

    KIND = "word-accuracy"
    analysis = constant(KIND, first=True)

    labels: list[str]
    edges: tuple[float, ...]
    frequency_source: str
    ref_words: list[int]
    systems: list[str]
    out_words: dict[str, list[int]]
    matches: dict[str, list[int]]
    precision: dict[str, list[float]]
    recall: dict[str, list[float]]
    fmeasure: dict[str, list[float]]

    def rows(self) -> list[dict[str, Any]]:
        """One row per (bucket, system), for tables and pandas."""
        return [
            {
                "bucket": label,
                "system": name,
                "ref_words": self.ref_words[b],
                "out_words": self.out_words[name][b],
                "matches": self.matches[name][b],
                "precision": self.precision[name][b],
                "recall": self.recall[name][b],
                "fmeasure": self.fmeasure[name][b],
            }
            for b, label in enumerate(self.labels)
            for name in self.systems
        ]


def _pair_counts(rows: Ragged, vocab: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct (sentence, word) keys of ``rows`` and how often each occurs."""
    sent = np.repeat(np.arange(len(rows), dtype=np.int64), rows.lengths())
    keys = sent * vocab + rows.ids.astype(np.int64)
    return np.unique(keys, return_counts=True)


def clipped_matches(out: Ragged, ref: Ragged, vocab: int) -> tuple[np.ndarray, np.ndarray]:
    """``(words, matches)``: per (sentence, word) in common, the word and
    ``min(count in out, count in ref)``.

    Examples
    --------
    >>> w, m = clipped_matches(Ragged.from_rows([[1, 1, 2]]), Ragged.from_rows([[1, 3]]), 4)
    >>> w.tolist(), m.tolist()
    ([1], [1])
    """
    k_out, c_out = _pair_counts(out, vocab)
    k_ref, c_ref = _pair_counts(ref, vocab)
    common, i_out, i_ref = np.intersect1d(k_out, k_ref, assume_unique=True, return_indices=True)
    return common % vocab, np.minimum(c_out[i_out], c_ref[i_ref])


def word_accuracy(
    systems: dict[str, Ragged],
    ref: Ragged,
    vocab: int,
    *,
    edges: Sequence[float] = buckets.FREQUENCY_EDGES,
    frequency: np.ndarray | None = None,
    frequency_source: str = "reference",
) -> WordAccuracy:
    """Word precision, recall and F-measure of every system by frequency bucket.

    Parameters
    ----------
    systems:
        Each system's encoded output, one row per sentence.
    ref:
        The encoded reference, the same sentences.
    vocab:
        One more than the largest word id.
    frequency:
        Each word id's frequency (default: its count in ``ref``).

    Examples
    --------
    >>> ref = Ragged.from_rows([[0, 1], [0, 2]])  # word 0 twice, words 1 and 2 once
    >>> acc = word_accuracy({"A": Ragged.from_rows([[0, 3], [0, 2]])}, ref, 4, edges=(1, 2))
    >>> acc.labels, acc.ref_words, acc.out_words["A"], acc.matches["A"]
    (['<1', '1', '>=2'], [0, 2, 2], [1, 1, 2], [0, 1, 2])
    """
    edges = buckets.check_edges(edges, "frequency bucket edges")
    n_buckets = len(edges) + 1
    if frequency is None:
        frequency = np.bincount(ref.ids, minlength=vocab)
    freq = np.zeros(vocab, dtype=np.int64)
    freq[: min(vocab, len(frequency))] = frequency[:vocab]
    word_bucket = buckets.assign(freq, edges)

    def per_bucket(words: np.ndarray, weights: np.ndarray | None = None) -> list[int]:
        found = np.bincount(word_bucket[words], weights=weights, minlength=n_buckets)
        return [int(x) for x in found]

    out_words, matches, prec, rec, fmeas = {}, {}, {}, {}, {}
    ref_words = per_bucket(ref.ids)
    for name, rows in systems.items():
        if len(rows) != len(ref):
            raise ValueError(f"{name}: {len(rows)} sentences, the reference {len(ref)}")
        words, m = clipped_matches(rows, ref, vocab)
        out_words[name] = per_bucket(rows.ids)
        matches[name] = per_bucket(words, m.astype(np.float64))
        p = [_ratio(a, b) for a, b in zip(matches[name], out_words[name], strict=True)]
        r = [_ratio(a, b) for a, b in zip(matches[name], ref_words, strict=True)]
        prec[name], rec[name] = p, r
        fmeas[name] = [2 * x * y / (x + y) if x + y > 0 else 0.0 for x, y in zip(p, r, strict=True)]
    return WordAccuracy(
        buckets.labels(edges), edges, frequency_source, ref_words, list(systems), out_words,
        matches, prec, rec, fmeas,
    )  # fmt: skip


def _ratio(a: int, b: int) -> float:
    return a / b if b > 0 and a > 0 else 0.0
