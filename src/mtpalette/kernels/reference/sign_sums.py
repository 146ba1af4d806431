"""Slow twin of :mod:`mtpalette.kernels.sign_sums`: numpy, one item at a time for all the
products, in float32."""

from __future__ import annotations

import numpy as np


def sign_products(signs, values, rows, cols, bounds) -> np.ndarray:
    signs_t = np.ascontiguousarray(np.asarray(signs, dtype=np.float32).T)  # (items, k)
    values_t = np.ascontiguousarray(np.asarray(values, dtype=np.float32).T)  # (items, cols)
    rows, cols = np.asarray(rows, dtype=np.intp), np.asarray(cols, dtype=np.intp)
    total = np.zeros(len(rows), dtype=np.float32)
    acc = np.empty_like(total)
    term = np.empty_like(total)
    other = np.empty_like(total)
    with np.errstate(over="ignore", invalid="ignore"):
        for start, stop in zip(bounds[:-1], bounds[1:], strict=True):
            acc.fill(0.0)
            for k in range(start, stop):
                np.take(signs_t[k], rows, out=term)
                np.take(values_t[k], cols, out=other)
                term *= other
                acc += term
            total += acc
    return total
