"""Encode a corpus once into int32 ids shared by every metric.

A :class:`TextView` says how text becomes tokens (tokenizer and case); an :class:`Encoder`
holds one vocabulary per view and tokenizes each distinct line once, so a reference scored
against a thousand candidates, or the same line appearing in several files, costs one
tokenization.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from mtpalette.text.ragged import Ragged
from mtpalette.text.tokenizers import get_tokenizer


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

    def tokens(self, line: str) -> list[str]:
        if self.lowercase:
            line = line.lower()
        return get_tokenizer(self.tokenizer)(line.rstrip())


class Vocabulary:
    """A growing map from token strings to consecutive int32 ids.

    Examples
    --------
    >>> v = Vocabulary()
    >>> v.ids(["a", "b", "a"]), v.token(1), len(v)
    ([0, 1, 0], 'b', 2)
    """

    def __init__(self) -> None:
        self._index: dict[str, int] = {}
        self._tokens: list[str] = []

    def __len__(self) -> int:
        return len(self._tokens)

    def ids(self, tokens: Iterable[str]) -> list[int]:
        index = self._index
        out = []
        for tok in tokens:
            i = index.get(tok)
            if i is None:
                i = index[tok] = len(self._tokens)
                self._tokens.append(tok)
            out.append(i)
        return out

    def token(self, i: int) -> str:
        return self._tokens[i]

    def decode(self, ids: Iterable[int]) -> list[str]:
        return [self._tokens[i] for i in ids]


class Encoder:
    """Tokenize and encode lines for one :class:`TextView`, each distinct line once.

    Distinct lines are kept as rows of one growing :class:`Ragged`; encoding a list of lines
    looks each line up once and gathers its row with one vectorised take.

    Examples
    --------
    >>> enc = Encoder(TextView("none"))
    >>> r = enc.encode(["a b", "b c", "a b"])
    >>> r.ids.tolist(), r.offsets.tolist()
    ([0, 1, 1, 2, 0, 1], [0, 2, 4, 6])
    """

    def __init__(self, view: TextView) -> None:
        self.view = view
        self.vocab = Vocabulary()
        self._row_of: dict[str, int] = {}
        self._pending: list[list[int]] = []
        self._rows = Ragged.from_rows([])

    def _row(self, line: str) -> int:
        row = self._row_of.get(line)
        if row is None:
            row = self._row_of[line] = len(self._row_of)
            self._pending.append(self.vocab.ids(self.view.tokens(line)))
        return row

    def _distinct(self) -> Ragged:
        if self._pending:
            new = Ragged.from_rows(self._pending)
            self._pending = []
            offsets = np.concatenate([self._rows.offsets, new.offsets[1:] + self._rows.offsets[-1]])
            self._rows = Ragged(np.concatenate([self._rows.ids, new.ids]), offsets)
        return self._rows

    def encode_line(self, line: str) -> list[int]:
        """The ids of one line."""
        return self._distinct()[self._row(line)].tolist()

    def encode(self, lines: Sequence[str | None]) -> Ragged:
        """The ids of every line, one row each; ``None`` gives an empty row."""
        rows = np.fromiter(
            (self._row(line if line is not None else "") for line in lines),
            dtype=np.int64,
            count=len(lines),
        )
        return self._distinct().take(rows)
