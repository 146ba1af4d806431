"""Slow twin of :mod:`mtpalette.kernels.ragged`: rows copied one by one."""

from __future__ import annotations

from collections.abc import Sequence


def gather_slow(rows_of_ids: Sequence[Sequence[int]], rows: Sequence[int]) -> list[list[int]]:
    """The rows ``rows`` of a list of rows, in that order.

    Examples
    --------
    >>> gather_slow([[1, 2], [], [3]], [2, 0, 2])
    [[3], [1, 2], [3]]
    """
    return [list(rows_of_ids[r]) for r in rows]
