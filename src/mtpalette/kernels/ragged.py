"""Rows of a ragged array of token ids gathered into a new one (one compiled copy)."""

from __future__ import annotations

import numpy as np

from mtpalette import _core


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
        np.ascontiguousarray(ids, dtype=np.int32),
        np.ascontiguousarray(offsets, dtype=np.int64),
        np.ascontiguousarray(rows, dtype=np.int64),
    )
