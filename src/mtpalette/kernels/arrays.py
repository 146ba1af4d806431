"""The arrays the Rust core takes: C-contiguous, of the dtype its signature names (int32 token
ids, int64 offsets and indices, float64 values, bool masks); a copy only when needed."""

from __future__ import annotations

import numpy as np


def ids32(x) -> np.ndarray:
    """Token ids as the core takes them: contiguous int32.

    Examples
    --------
    >>> ids32([1, 2]).dtype, idx64([0, 2]).dtype, f64([1]).dtype, mask([1, 0]).tolist()
    (dtype('int32'), dtype('int64'), dtype('float64'), [True, False])
    """
    return np.ascontiguousarray(x, dtype=np.int32)


def idx64(x) -> np.ndarray:
    """Offsets, indices and counts: contiguous int64."""
    return np.ascontiguousarray(x, dtype=np.int64)


def f64(x) -> np.ndarray:
    """Values: contiguous float64."""
    return np.ascontiguousarray(x, dtype=np.float64)


def mask(x) -> np.ndarray:
    """Masks: contiguous bool."""
    return np.ascontiguousarray(x, dtype=np.bool_)
