"""Swap draws of the ``pairs`` permutation test from numpy's legacy stream, as
mt-metrics-eval draws them (``np.random.random_sample((k, n_draws))``, an ``n x n`` matrix per
group of which only the upper triangle is used), without building the doubles: the compiled
kernel advances the MT19937 state over the unused draws and decides a used one from its two
32-bit words (``u > 0.5`` iff ``a >> 5 > 2^26``, or ``a >> 5 == 2^26`` and ``b >> 6 > 0``).
The stream is left where numpy's own draw would leave it. Twin:
:func:`mtpalette.kernels.reference.legacy_draws.pair_swaps`.
"""

from __future__ import annotations

import numpy as np

from mtpalette import _core


def pair_swaps(
    stream: np.random.RandomState, n_perm: int, n_draws: int, upper: np.ndarray
) -> np.ndarray:
    """``(n_perm, len(upper))`` bool: ``stream.random_sample((n_perm, n_draws))[:, upper] >
    0.5`` for strictly increasing positions ``upper``, drawn from (and advancing) ``stream``.

    Examples
    --------
    >>> a, b = np.random.RandomState(3), np.random.RandomState(3)
    >>> up = np.array([1, 2, 5])
    >>> bool((pair_swaps(a, 4, 9, up) == (b.random_sample((4, 9))[:, up] > 0.5)).all())
    True
    >>> bool(a.random_sample() == b.random_sample())
    True
    """
    name, key, pos, has_gauss, gauss = stream.get_state(legacy=True)
    if name != "MT19937":
        raise ValueError(f"a legacy MT19937 stream expected, not {name}")
    key = np.array(key, dtype=np.uint32)  # a copy, advanced by the kernel
    up = np.ascontiguousarray(upper, dtype=np.int64)
    out, pos = _core.legacy_pair_swaps(key, int(pos), int(n_perm), int(n_draws), up)
    stream.set_state((name, key, pos, has_gauss, gauss))
    return out.view(bool)
