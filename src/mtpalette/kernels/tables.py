"""Pieces the n-gram kernels share: an open-addressing hash-table probe and the split of the
candidates into chunks of about equal numbers of tokens for ``prange``."""

from __future__ import annotations

import numba as nb
import numpy as np


@nb.njit(cache=True, nogil=True, inline="always")
def slot(keys, key):
    """The slot of ``key`` in the open-addressing table ``keys`` (-1 marks an empty slot)."""
    mask = len(keys) - 1
    s = (key * 0x9E3779B1) & mask
    while keys[s] != -1 and keys[s] != key:
        s = (s + 1) & mask
    return s


@nb.njit(cache=True, nogil=True)
def vocab_bound(ids):
    """One more than the largest id (0 for no ids)."""
    vocab = 0
    for x in ids:
        if x >= vocab:
            vocab = x + 1
    return vocab


@nb.njit(cache=True, nogil=True)
def chunk_starts(offsets, n_chunks):
    """``n_chunks + 1`` row boundaries splitting the rows of ``offsets`` into chunks of about
    equal numbers of tokens."""
    P = len(offsets) - 1
    starts = np.zeros(n_chunks + 1, dtype=np.int64)
    starts[1:-1] = np.searchsorted(offsets, np.linspace(0, offsets[-1], n_chunks + 1)[1:-1])
    starts[-1] = P
    return starts
