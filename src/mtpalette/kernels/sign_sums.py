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


def spa_screen(partial, n_sys: int, above, below, odd):
    """SPA's screen of permuted differences: ``partial`` the ``(batches * n_sys, draws)``
    float32 product; ``above``, ``below`` (float32) and ``odd`` (bool) per ``(batch, pair)``,
    pairs ``i < j`` in row-major order. A draw's ``null = partial[b * n_sys + i, t] -
    partial[b * n_sys + j, t]`` (float32) is a sure hit when ``null > above``; a near-tie when
    ``null >= below`` and not a sure hit, or when ``odd``. Returns the sure hits per
    ``(batch, pair)`` (int64) and the near-ties' draw, batch and pair indices.

    Examples
    --------
    >>> partial = np.array([[3.0, 1.0], [1.0, 1.0]], dtype=np.float32)  # 2 systems, 2 draws
    >>> one = lambda v: np.array([[v]], dtype=np.float32)
    >>> hits, t, b, p = spa_screen(partial, 2, one(1.5), one(-0.5), np.array([False]))
    >>> hits.tolist(), t.tolist()  # draw 0: 2 > 1.5 sure; draw 1: 0 within [-0.5, 1.5]
    ([[1]], [1])
    """
    arrays = [np.ascontiguousarray(x, dtype=np.float32) for x in (partial, above, below)]
    flags = np.ascontiguousarray(odd, dtype=bool).ravel()
    return _core.spa_screen(arrays[0], int(n_sys), arrays[1], arrays[2], flags)
