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

Everything runs on encoded tokens: the matches of every system and word are counted in one
compiled pass over the sentences (:func:`~mtpalette.kernels.matches.clipped_matches`), no
Python loop over words or sentences.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mtpalette.analysis import buckets
from mtpalette.kernels.matches import clipped_matches
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


def token_matches(systems: Mapping[str, Ragged], ref: Ragged, vocab: int) -> dict[str, np.ndarray]:
    """Per system, the matches of every word id: ``min(count in the output, count in the
    reference)`` per sentence, summed; every system in one compiled pass.

    Examples
    --------
    >>> m = token_matches({"A": Ragged.from_rows([[1, 1, 2]])}, Ragged.from_rows([[1, 3]]), 4)
    >>> m["A"].tolist()
    [0, 1, 0, 0]
    """
    for name, rows in systems.items():
        if len(rows) != len(ref):
            raise ValueError(f"{name}: {len(rows)} sentences, the reference {len(ref)}")
    stacked = Ragged.concat([ref, *systems.values()])
    counts = clipped_matches(stacked.ids, stacked.offsets, len(ref), [vocab])
    return dict(zip(systems, counts, strict=True))


def word_accuracy(
    systems: dict[str, Ragged],
    ref: Ragged,
    vocab: int,
    *,
    edges: Sequence[float] = buckets.FREQUENCY_EDGES,
    frequency: np.ndarray | None = None,
    frequency_source: str = "reference",
    matches: Mapping[str, np.ndarray] | None = None,
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
    matches:
        Each system's matches of every word id (:func:`token_matches`; the order-1 counts of
        :func:`~mtpalette.analysis.ngrams.ngram_matches`), when counted already.

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

    def per_bucket(words: np.ndarray) -> list[int]:
        return [int(x) for x in np.bincount(word_bucket[words], minlength=n_buckets)]

    if matches is None:
        matches = token_matches(systems, ref, vocab)
    out_words, matched, prec, rec, fmeas = {}, {}, {}, {}, {}
    ref_words = per_bucket(ref.ids)
    for name, rows in systems.items():
        if len(rows) != len(ref):
            raise ValueError(f"{name}: {len(rows)} sentences, the reference {len(ref)}")
        m = matches[name]
        out_words[name] = per_bucket(rows.ids)
        found = np.bincount(word_bucket[: len(m)], weights=m, minlength=n_buckets)
        matched[name] = [int(x) for x in found]
        p = [_ratio(a, b) for a, b in zip(matched[name], out_words[name], strict=True)]
        r = [_ratio(a, b) for a, b in zip(matched[name], ref_words, strict=True)]
        prec[name], rec[name] = p, r
        fmeas[name] = [2 * x * y / (x + y) if x + y > 0 else 0.0 for x, y in zip(p, r, strict=True)]
    return WordAccuracy(
        buckets.labels(edges), edges, frequency_source, ref_words, list(systems), out_words,
        matched, prec, rec, fmeas,
    )  # fmt: skip


def _ratio(a: int, b: int) -> float:
    return a / b if b > 0 and a > 0 else 0.0
