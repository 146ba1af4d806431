"""Ragged layouts: rows of a ragged array gathered into a new one (one compiled copy), and
:class:`Delimited`, the groups of anything laid out by an offsets array."""

from __future__ import annotations

import numpy as np

from mtpalette import _core
from mtpalette.kernels.arrays import ids32, idx64


class Delimited:
    """Mixin for a class whose ``offsets`` attribute (int ``(G + 1,)``, rising from 0) splits
    a flat array into groups: group ``k`` is ``offsets[k]:offsets[k + 1]``, the layout the
    kernels take.

    Examples
    --------
    >>> class Rows(Delimited):
    ...     offsets = np.array([0, 2, 2, 5])
    >>> Rows().n_groups, Rows().sizes.tolist()
    (3, [2, 0, 3])
    """

    offsets: np.ndarray

    @property
    def n_groups(self) -> int:
        return len(self.offsets) - 1

    @property
    def sizes(self) -> np.ndarray:
        return np.diff(self.offsets)


def gather(ids, offsets, rows) -> tuple[np.ndarray, np.ndarray]:
    """Rows ``rows`` of the ragged array ``(ids, offsets)``, concatenated in that order:
    the new ``(int32 ids, int64 offsets)``.

    Examples
    --------
    >>> ids, off = gather(np.array([1, 2, 3]), np.array([0, 2, 2, 3]), np.array([2, 0, 2]))
    >>> ids.tolist(), off.tolist()
    ([3, 1, 2, 3], [0, 1, 3, 4])
    """
    return _core.gather(
        ids32(ids),
        idx64(offsets),
        idx64(rows),
    )
