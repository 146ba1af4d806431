"""Score matrices and their groups: the shapes the correlation statistics take, and the split
of a ``(S systems, I items)`` matrix into the groups of a grouping.

``grouping`` is ``none`` (one group: the flattened matrix), ``item`` (the systems' scores of
each item) or ``system`` (each system's scores over items); a NaN *human* score marks an
unrated entry, dropped with its metric score. How the statistics of the groups are averaged
is described in :mod:`mtpalette.stats.correlation`; :func:`system_means` gives the vectors of
a system-level correlation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mtpalette.kernels.ragged import Delimited

GROUPINGS = ("none", "item", "system")


def as_vectors(gold: Any, metric: Any) -> tuple[np.ndarray, np.ndarray]:
    """``gold`` and ``metric`` as flat float64 vectors of one length, every score finite."""
    g = np.asarray(gold, dtype=np.float64).ravel()
    m = np.asarray(metric, dtype=np.float64).ravel()
    if g.shape != m.shape:
        raise ValueError(f"gold and metric need the same length, got {g.size} and {m.size}")
    if not (np.isfinite(g).all() and np.isfinite(m).all()):
        raise ValueError("scores must be finite (drop unrated entries first)")
    return g, m


@dataclass(frozen=True)
class Groups(Delimited):
    """The rated entries of a ``(S, I)`` matrix, group after group.

    ``gold[offsets[k]:offsets[k + 1]]`` and ``metric[...]`` are group ``k``; ``labels[k]`` is
    its row (``system``) or column (``item``) index, or 0 (``none``); ``entries`` holds each
    value's flat index in the matrix.
    """

    gold: np.ndarray
    metric: np.ndarray
    offsets: np.ndarray
    labels: np.ndarray
    entries: np.ndarray
    grouping: str

    def group(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        lo, hi = self.offsets[k], self.offsets[k + 1]
        return self.gold[lo:hi], self.metric[lo:hi]


def check_grouping(grouping: str) -> str:
    if grouping not in GROUPINGS:
        raise ValueError(f"unknown grouping {grouping!r}; expected one of {', '.join(GROUPINGS)}")
    return grouping


def as_matrix(x: Any) -> np.ndarray:
    """A float64 2-D matrix; a vector becomes one row (a single system / system level)."""
    a = np.asarray(x, dtype=np.float64)
    if a.ndim == 1:
        a = a[None, :]
    if a.ndim != 2:
        raise ValueError("scores must be a vector or a (systems, items) matrix")
    return a


def as_matrices(human: Any, *metrics: Any) -> tuple[np.ndarray, ...]:
    """``human`` and each of ``metrics`` by :func:`as_matrix`, all of one shape.

    Examples
    --------
    >>> [m.shape for m in as_matrices([1, 2, 3], [3, 2, 1], [0, 0, 1])]
    [(1, 3), (1, 3), (1, 3)]
    """
    out = tuple(as_matrix(x) for x in (human, *metrics))
    if any(m.shape != out[0].shape for m in out[1:]):
        raise ValueError("human and metric scores must have the same shape")
    return out


def make_groups(human: Any, metric: Any, grouping: str = "none", *, min_size: int = 2) -> Groups:
    """Split matrices into the groups of ``grouping``, dropping unrated (NaN human) entries.

    Groups with fewer than ``min_size`` entries are dropped.

    Examples
    --------
    >>> h = [[1.0, 2.0, np.nan], [3.0, 1.0, 2.0]]
    >>> m = [[0.1, 0.2, 0.3], [0.3, 0.1, 0.2]]
    >>> g = make_groups(h, m, "item")
    >>> g.labels.tolist(), g.sizes.tolist()  # item 2 has one rating: dropped
    ([0, 1], [2, 2])
    """
    check_grouping(grouping)
    h = as_matrix(human)
    m = as_matrix(metric)
    if h.shape != m.shape:
        raise ValueError(f"human {h.shape} and metric {m.shape} shapes differ")
    rated = ~np.isnan(h)
    if not np.isfinite(m[rated]).all():
        raise ValueError("the metric has a NaN or infinite score where a human score exists")
    if np.isinf(h).any():
        raise ValueError("human scores must be finite or NaN (unrated)")
    flat = np.arange(h.size, dtype=np.int64).reshape(h.shape)
    if grouping == "item":
        h, m, rated, flat = h.T, m.T, rated.T, flat.T
    if grouping == "none":
        h, m, rated, flat = (a.reshape(1, -1) for a in (h, m, rated, flat))
    sizes = rated.sum(axis=1)
    keep = sizes >= min_size
    h, m, rated, flat = h[keep], m[keep], rated[keep], flat[keep]
    labels = np.flatnonzero(keep)
    offsets = np.zeros(len(labels) + 1, dtype=np.int64)
    np.cumsum(sizes[keep], out=offsets[1:])
    return Groups(h[rated], m[rated], offsets, labels, flat[rated], grouping)


def system_means(scores: Any, weights: Any | None = None) -> np.ndarray:
    """Each system's mean over its rated items (NaN ignored); ``weights`` per item.

    Examples
    --------
    >>> system_means([[1.0, 3.0, np.nan], [2.0, 2.0, 5.0]]).tolist()
    [2.0, 3.0]
    """
    s = as_matrix(scores)
    rated = ~np.isnan(s)
    w = np.ones(s.shape[1]) if weights is None else np.asarray(weights, dtype=np.float64)
    num = np.where(rated, s, 0.0) @ w
    den = rated.astype(np.float64) @ w
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / den, np.nan)
