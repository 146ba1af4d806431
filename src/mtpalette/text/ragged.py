"""Ragged (CSR) arrays of int32 token ids: one row per segment."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mtpalette.kernels.ragged import gather


@dataclass(frozen=True)
class Ragged:
    """Rows of int32 ids stored as one flat array plus offsets.

    Row ``i`` is ``ids[offsets[i]:offsets[i + 1]]``. Kernels take ``ids`` and ``offsets``
    directly; Python code may index a :class:`Ragged` like a list.

    Examples
    --------
    >>> r = Ragged.from_rows([[1, 2], [], [3]])
    >>> len(r), r[0].tolist(), r.lengths().tolist()
    (3, [1, 2], [2, 0, 1])
    """

    ids: np.ndarray
    offsets: np.ndarray

    def __post_init__(self) -> None:
        if self.ids.dtype != np.int32 or self.offsets.dtype != np.int64:
            raise TypeError("Ragged needs int32 ids and int64 offsets")

    @classmethod
    def from_rows(cls, rows) -> Ragged:
        rows = list(rows)
        lengths = np.fromiter((len(r) for r in rows), dtype=np.int64, count=len(rows))
        offsets = np.zeros(len(rows) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        ids = np.fromiter((t for r in rows for t in r), dtype=np.int32, count=int(offsets[-1]))
        return cls(ids, offsets)

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def __getitem__(self, i: int) -> np.ndarray:
        return self.ids[self.offsets[i] : self.offsets[i + 1]]

    def lengths(self) -> np.ndarray:
        return np.diff(self.offsets)

    def span(self, lo: int, hi: int) -> Ragged:
        """Rows ``lo..hi-1`` (the ids are a view, the offsets rebased).

        Examples
        --------
        >>> Ragged.from_rows([[1, 2], [], [3]]).span(1, 3).offsets.tolist()
        [0, 0, 1]
        """
        offsets = self.offsets[lo : hi + 1]
        return Ragged(self.ids[offsets[0] : offsets[-1]], offsets - offsets[0])

    @classmethod
    def concat(cls, parts: Sequence[Ragged]) -> Ragged:
        """The rows of every part, one part after the other.

        Examples
        --------
        >>> r = Ragged.concat([Ragged.from_rows([[1], [2, 3]]), Ragged.from_rows([[4]])])
        >>> r.ids.tolist(), r.offsets.tolist()
        ([1, 2, 3, 4], [0, 1, 3, 4])
        """
        lengths = np.concatenate([p.lengths() for p in parts])
        offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        return cls(np.concatenate([p.ids for p in parts]), offsets)

    def take(self, rows: np.ndarray) -> Ragged:
        """A new :class:`Ragged` holding ``rows`` (an int array of row numbers) in order.

        Examples
        --------
        >>> Ragged.from_rows([[1, 2], [], [3]]).take(np.array([2, 0, 2])).ids.tolist()
        [3, 1, 2, 3]
        """
        rows = np.asarray(rows, dtype=np.int64)
        if len(rows) and (rows.min() < 0 or rows.max() >= len(self)):
            raise IndexError("row number out of range")
        ids, offsets = gather(self.ids, self.offsets, rows)
        return Ragged(ids, offsets)
