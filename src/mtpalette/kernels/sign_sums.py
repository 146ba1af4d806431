"""SPA's permuted system totals in a fixed float32 order, for the few draws where the order
decides a hit (:func:`mtpalette.stats.pairwise.sign_products`): ``signs[rows[n]] .
values[cols[n]]``, the items added one after the other within each block (from +0.0, one
float32 rounding per addition), the block sums added to the total in order. Twin:
:func:`mtpalette.kernels.reference.sign_sums.sign_products`.
"""

from __future__ import annotations

import numpy as np

from mtpalette import _core


def sign_products(signs, values, rows, cols, bounds) -> np.ndarray:
    """float32 sums of the products ``(rows[n], cols[n])`` of two float32 ``(., items)``
    matrices; ``bounds``: the block boundaries ``[0, b1, ..., items]``.

    Examples
    --------
    >>> v = np.array([[1e8, 1.0, -1e8, 1.0]], dtype=np.float32)
    >>> sign_products(np.ones_like(v), v, [0], [0], [0, 4]).tolist()  # the first 1 is lost
    [1.0]
    """
    s = np.ascontiguousarray(signs, dtype=np.float32)
    v = np.ascontiguousarray(values, dtype=np.float32)
    if s.ndim != 2 or v.ndim != 2:
        raise ValueError("signs and values: 2-d arrays expected")
    ints = [np.ascontiguousarray(x, dtype=np.int64).ravel() for x in (rows, cols, bounds)]
    return _core.sign_products(s, v, *ints)
