"""Slow twin of :mod:`mtpalette.kernels.legacy_draws`: numpy's own doubles."""

from __future__ import annotations

import numpy as np


def pair_swaps(
    stream: np.random.RandomState, n_perm: int, n_draws: int, upper: np.ndarray
) -> np.ndarray:
    """``stream.random_sample((n_perm, n_draws))[:, upper] > 0.5``."""
    return np.take(stream.random_sample((n_perm, n_draws)) > 0.5, upper, axis=1)
