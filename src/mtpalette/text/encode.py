"""Encode a corpus once into int32 ids shared by every metric.

A :class:`TextView` says how text becomes tokens (tokenizer and case); an :class:`Encoder`
holds one vocabulary per view and tokenizes each distinct line once, so a reference scored
against a thousand candidates, or the same line appearing in several files, costs one
tokenization.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import compress, repeat

import numpy as np

from mtpalette.kernels.vocab import first_occurrences
from mtpalette.text.bulk import encode_lines
from mtpalette.text.ragged import Ragged
from mtpalette.text.tokenizers import get_tokenizer
from mtpalette.text.vocab import Vocabulary


@dataclass(frozen=True)
class TextView:
    """How a metric wants its text: a tokenizer name and whether to lower-case first.

    Examples
    --------
    >>> TextView("13a", lowercase=True).tokens("Hello, World")
    ['hello', ',', 'world']
    """

    tokenizer: str = "13a"
    lowercase: bool = False
    #: another tokenizer for the references (same vocabulary), or None: the same
    ref_tokenizer: str | None = None

    def for_refs(self) -> TextView:
        """The view the references are encoded with."""
        if self.ref_tokenizer is None:
            return self
        return TextView(self.ref_tokenizer, self.lowercase)

    def tokens(self, line: str) -> list[str]:
        if self.lowercase:
            line = line.lower()
        return get_tokenizer(self.tokenizer)(line.rstrip())


class Encoder:
    """Tokenize and encode lines for one :class:`TextView`, each distinct line once.

    Distinct lines are kept as rows of one growing :class:`Ragged`; encoding a list of lines
    finds its distinct lines in one compiled pass, looks each of those up once and gathers
    the rows with one compiled take. New lines are tokenized together by the compiled
    tokenizers of :mod:`mtpalette.text.bulk` (13a, intl, none, char) or line by line for the
    others.

    Examples
    --------
    >>> enc = Encoder(TextView("none"))
    >>> r = enc.encode(["a b", "b c", "a b"])
    >>> r.ids.tolist(), r.offsets.tolist()
    ([0, 1, 1, 2, 0, 1], [0, 2, 4, 6])
    """

    def __init__(self, view: TextView, vocab: Vocabulary | None = None) -> None:
        self.view = view
        self.vocab = Vocabulary() if vocab is None else vocab
        self._row_of: dict[str | None, int] = {}
        #: lines with rows, in row order, not yet in ``_row_of``
        self._unindexed: list[str | None] = []
        self._rows = Ragged.from_rows([])

    def _add(self, lines: list[str]) -> None:
        """Tokenize, encode and append ``lines`` (all new) as rows."""
        view = self.view
        done = encode_lines(lines, view.tokenizer, view.lowercase, self.vocab)
        if done is None:
            ids, counts = self.vocab.ids_of_rows([view.tokens(line) for line in lines])
        else:
            ids, counts = done
        offsets = np.empty(len(counts) + 1, dtype=np.int64)
        offsets[0] = 0
        np.cumsum(counts, out=offsets[1:])
        if len(self._rows):  # else the first rows, kept as they are (no copy)
            offsets += self._rows.offsets[-1]
            ids = np.concatenate([self._rows.ids, ids])
            offsets = np.concatenate([self._rows.offsets[:-1], offsets])
        self._rows = Ragged(ids, offsets)

    def encode_line(self, line: str) -> list[int]:
        """The ids of one line."""
        return self.encode([line])[0].tolist()

    def encode(self, lines: Sequence[str | None]) -> Ragged:
        """The ids of every line, one row each; ``None`` gives an empty row."""
        return self.take(self.rows(lines))

    def take(self, rows: np.ndarray) -> Ragged:
        """The ids of the rows ``rows`` (numbers given by :meth:`rows`)."""
        return self._rows.take(rows)

    def rows(self, lines: Sequence[str | None]) -> np.ndarray:
        """The row number of every line, encoding the lines not seen before: equal lines
        share a row.

        Examples
        --------
        >>> Encoder(TextView("none")).rows(["a b", "c", "a b"]).tolist()
        [0, 1, 0]
        """
        # the batch's distinct lines in one compiled pass; only those meet the dict
        local, firsts = first_occurrences(lines)
        distinct = list(map(lines.__getitem__, firsts.tolist()))
        n_rows = len(self._rows)
        if n_rows:
            row_of = self._indexed()
            rows = np.fromiter(map(row_of.get, distinct, repeat(-1)), np.int64, len(distinct))
            unseen = rows < 0
            new = list(compress(distinct, unseen.tolist()))
            rows[unseen] = np.arange(n_rows, n_rows + len(new))
        else:
            new, rows = distinct, np.arange(len(distinct))
        if new:
            texts = new
            if type(None) in set(map(type, new)):  # compiled loops, no comparisons
                texts = ["" if line is None else line for line in new]
            self._add(texts)
            self._unindexed += new
        return rows[local]

    def _indexed(self) -> dict[str | None, int]:
        """The row of every line encoded so far (the dict is filled only when a later batch
        asks: a single batch, the common case, never builds it)."""
        if self._unindexed:
            first = len(self._row_of)
            self._row_of.update(zip(self._unindexed, range(first, len(self._rows)), strict=True))
            self._unindexed = []
        return self._row_of
