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


def spa_screen(partial, n_sys, above, below, odd):
    """numpy's comparisons, pair by pair: sure hits ``(batches, pairs)`` and the near-ties'
    draw, batch and pair indices, sorted by batch, pair and draw."""
    partial = np.asarray(partial, dtype=np.float32)
    n_batch = partial.shape[0] // n_sys
    x = partial.reshape(n_batch, n_sys, -1)
    iu, ju = np.triu_indices(n_sys, 1)
    odd = np.asarray(odd, dtype=bool).reshape(n_batch, iu.size)
    hits = np.zeros((n_batch, iu.size), dtype=np.int64)
    near = []
    with np.errstate(over="ignore", invalid="ignore"):
        for p, (i, j) in enumerate(zip(iu, ju, strict=True)):
            null = x[:, i] - x[:, j]  # (B, draws)
            sure = null > np.asarray(above)[:, p : p + 1]
            maybe = null >= np.asarray(below)[:, p : p + 1]
            hits[:, p] = sure.sum(axis=1)
            band = (maybe & ~sure) | odd[:, p : p + 1]
            b, t = np.nonzero(band)
            near.append((b, np.full(b.size, p), t))
    if not near:
        e = np.zeros(0, dtype=np.int64)
        return hits, e, e, e
    b, p, t = (np.concatenate(a).astype(np.int64) for a in zip(*near, strict=True))
    order = np.lexsort((t, p, b))
    return hits, t[order], b[order], p[order]
