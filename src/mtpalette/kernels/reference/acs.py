"""Slow twins of :mod:`mtpalette.kernels.acs`: the paper's ACS step by step, and the
definition itself (every pair of skip-n-grams), with the POS node weights too.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np

from mtpalette.kernels.acs import AcsSettings, node_weight


def _node_table(a, b, tags, weights) -> list[list[float]]:
    if tags is None:
        return [[1.0 if wa == wb else 0.0 for wb in b] for wa in a]
    ta, tb = tags
    return [
        [node_weight(a[x], b[y], ta[x], tb[y], weights) for y in range(len(b))]
        for x in range(len(a))
    ]


def acs_counts_slow(
    a: Sequence[int],
    b: Sequence[int],
    settings: AcsSettings,
    tags: tuple[Sequence[int], Sequence[int]] | None = None,
) -> np.ndarray:
    """The paper's ACS (section 2.3), step by step: the slow twin of :func:`acs_counts`.

    1. every match ``(w, x, y)`` is a node (with ``tags``, every pair of positions with a
       non-zero :func:`node_weight`, the node carrying that weight);
    2. an edge ``N -> M`` joins matches with ``x_N < x_M`` and ``y_N < y_M``, carrying
       ``S_xy`` of the skip-bigram it forms;
    3. counts are propagated from the nodes of depth 1 upwards, ``v_M[i] += S(E) * v_N[i-1]``,
       and ``W_k`` is the sum of ``v_N[k]`` over the nodes (eq. 10).
    """
    node = _node_table(a, b, tags, settings.weights)
    nodes = [(x, y) for x in range(len(a)) for y in range(len(b)) if node[x][y] != 0]
    edges: dict[int, list[tuple[int, float]]] = {i: [] for i in range(len(nodes))}
    preds: dict[int, list[int]] = {i: [] for i in range(len(nodes))}
    for i, (x1, y1) in enumerate(nodes):
        for j, (x2, y2) in enumerate(nodes):
            if x1 < x2 and y1 < y2:
                s = settings.step(x2 - x1 - 1, y2 - y1 - 1) * node[x2][y2]
                edges[i].append((j, s))
                preds[j].append(i)
    depth: dict[int, int] = {}

    def node_depth(i: int) -> int:  # longest path from a node without predecessors
        if i not in depth:
            depth[i] = 1 + max((node_depth(p) for p in preds[i]), default=0)
        return depth[i]

    for i in range(len(nodes)):
        node_depth(i)
    v = np.zeros((len(nodes), settings.kmax + 1))
    v[:, 1] = [node[x][y] for x, y in nodes]
    for i in sorted(range(len(nodes)), key=depth.__getitem__):
        for j, s in edges[i]:
            for size in range(2, settings.kmax + 1):
                v[j, size] += s * v[i, size - 1]
    return v[:, 1:].sum(axis=0) if nodes else np.zeros(settings.kmax)


def acs_counts_brute(
    a: Sequence[int],
    b: Sequence[int],
    settings: AcsSettings,
    tags: tuple[Sequence[int], Sequence[int]] | None = None,
) -> np.ndarray:
    """Every skip-k-gram of ``a`` against every one of ``b``: the definition, exponential
    (with ``tags``, each matched position weighted by :func:`node_weight`)."""
    node = _node_table(a, b, tags, settings.weights)
    out = np.zeros(settings.kmax)
    for k in range(1, settings.kmax + 1):
        for xs in itertools.combinations(range(len(a)), k):
            for ys in itertools.combinations(range(len(b)), k):
                w = math.prod(node[x][y] for x, y in zip(xs, ys, strict=True))
                if w != 0:
                    for t in range(k - 1):
                        g_a = xs[t + 1] - xs[t] - 1
                        g_b = ys[t + 1] - ys[t] - 1
                        w *= settings.step(g_a, g_b)
                    out[k - 1] += w
    return out
