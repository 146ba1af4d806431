"""Subsampling of items, uniform or stratified by document (mt-metrics-eval's ``stats.Sample``).

``stratify`` splits the sample over bins (documents) in proportion to their sizes: each bin
gets the integer part of its share, the remaining items go to the bins with the largest
fractional parts (ties broken by a random shuffle of the bins), and a bin never gets more
items than it has (the excess is redistributed over the other bins in proportion). Inside
each bin the items are drawn uniformly without replacement.

Draws: the items come from ``numpy.random.default_rng(seed)`` as in mt-metrics-eval (a seed
of 0 or None draws fresh entropy there; here None does, 0 is a seed); the bin shuffle comes
from a legacy ``RandomState`` (``shuffle_seed``), which mt-metrics-eval takes from numpy's
global state (``np.random.seed``). mt-metrics-eval fails when a bin is too small for its
share (it calls a method that does not exist); the redistribution here does what its
comment describes.

References
----------
Reference implementation: google-research/mt-metrics-eval at 68a481a,
``mt_metrics_eval/stats.py`` (``Sample``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class ItemSample:
    """Indices of the sampled items, in bin order (``stratify``) or draw order (``uniform``)."""

    indices: np.ndarray
    total_size: int
    method: str

    def select(self, values: Sequence[float] | np.ndarray) -> np.ndarray:
        """The sampled entries of a vector over all items (last axis of an array)."""
        v = np.asarray(values)
        if v.shape[-1] != self.total_size:
            raise ValueError(f"expected {self.total_size} items, got {v.shape[-1]}")
        return v[..., self.indices]


def _bin_shuffle(stream: np.random.RandomState, n: int) -> np.ndarray:
    return stream.permutation(n)


def subsample_sizes(
    proportions: np.ndarray,
    size: int,
    bin_sizes: np.ndarray,
    stream: np.random.RandomState,
) -> np.ndarray:
    """Items per bin: proportional shares, largest remainders first, capped by bin sizes.

    Examples
    --------
    >>> subsample_sizes(np.array([1 / 3, 2 / 3]), 4, np.array([3, 6]), np.random.RandomState(0))
    array([1, 3])
    """
    shuffled = _bin_shuffle(stream, len(proportions))
    props = np.asarray(proportions, dtype=np.float64)[shuffled]
    bins = np.asarray(bin_sizes, dtype=np.int64)[shuffled]
    ideal = props * size
    sizes = ideal.astype(int)
    residuals = sizes - ideal  # most negative = largest fractional part
    missing = size - int(sizes.sum())
    if missing > 0:
        order = np.argpartition(residuals, missing)
        sizes[order[:missing]] += 1
    if (bins < sizes).any():
        if bins.sum() < size:
            raise ValueError(f"cannot draw {size} items from bins of {int(bins.sum())} in all")
        # bins over their size keep their size; the others share what is left
        full = sizes >= bins
        sizes = np.minimum(sizes, bins)
        room = np.flatnonzero(~full)
        rest = size - int(sizes[full].sum())
        share = props[room] / props[room].sum()
        sizes[room] = subsample_sizes(share, rest, bins[room], stream)
    assert sizes.sum() == size and (sizes <= bins).all()
    return sizes[np.argsort(shuffled)]


def sample_items(
    total_size: int,
    size: int,
    method: str = "uniform",
    *,
    bin_sizes: Sequence[int] | None = None,
    seed: int | None = None,
    shuffle_seed: int | np.random.RandomState | None = None,
) -> ItemSample:
    """Draw ``size`` of ``total_size`` items, ``uniform`` or ``stratify`` (over ``bin_sizes``).

    ``size`` 0 or larger than ``total_size`` keeps every item.

    Examples
    --------
    >>> s = sample_items(8, 4, "stratify", bin_sizes=[2, 2, 2, 2], seed=1)
    >>> [int(i) // 2 for i in s.indices]  # one item from each bin of 2
    [0, 1, 2, 3]
    >>> a, b = sample_items(10, 5, seed=11), sample_items(10, 5, seed=11)
    >>> a.indices.tolist() == b.indices.tolist()
    True
    """
    rng = np.random.default_rng(seed)
    if size == 0 or size > total_size:
        size = total_size
    if method == "uniform":
        idx = rng.choice(total_size, size, replace=False)
    elif method == "stratify":
        if bin_sizes is None or int(np.sum(bin_sizes)) != total_size:
            raise ValueError("stratify needs bin_sizes that add up to total_size")
        bins = np.asarray(bin_sizes, dtype=np.int64)
        stream = (
            shuffle_seed
            if isinstance(shuffle_seed, np.random.RandomState)
            else np.random.RandomState(shuffle_seed)
        )
        per_bin = subsample_sizes(bins / total_size, size, bins, stream)
        parts, beg = [], 0
        for n, s in zip(bins, per_bin, strict=True):
            parts.append(rng.choice(int(n), int(s), replace=False) + beg)
            beg += int(n)
        idx = np.concatenate(parts) if parts else np.zeros(0, np.int64)
    else:
        raise ValueError(f"unknown sampling method {method!r}; expected uniform or stratify")
    return ItemSample(np.asarray(idx, dtype=np.int64), total_size, method)
