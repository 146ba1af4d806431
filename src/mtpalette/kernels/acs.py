"""ACS, all common skip-n-grams (Lita, Rogati and Lavie, 2005), over int ids.

A *common skip-n-gram* of a candidate ``a`` and a reference ``b`` is a chain of ``k`` word
matches ``(x_1, y_1), ..., (x_k, y_k)`` with ``a[x_i] == b[y_i]`` and both positions strictly
increasing. Each step of a chain has a gap in each sentence, ``g_a = x_{i+1} - x_i - 1`` and
``g_b = y_{i+1} - y_i - 1``, and the chain weighs the product over its steps of

    S(g_a, g_b) = exp(-alpha * G) * exp(-beta * |g_a - g_b|)           (paper, eqs. 1-6)

where the gap decay ``G`` is, by ``gap`` mode:

* ``max`` (mode 0): ``max(g_a, g_b)``. With alpha large only chains contiguous in both
  sentences keep weight (common n-grams, paper section 3); on one sentence matched with itself
  it is that sentence's own gap, as in the paper's "machine translated automatically" example.
* ``cand`` (mode 1): ``g_a``, the candidate's gap only, as the example is worded; then only the
  candidate side must be contiguous for alpha large.

``acs_counts`` returns, for every pair and every size ``k = 1..kmax``, the weighted number of
common skip-k-grams ``W_k`` (paper eq. 10).

Features of the matched positions (our instance of the paper's eq. 6, whose features it leaves
open; POS is named in its section 6 as future work): with POS tags
aligned with the words (``tags=``), a match is a pair of positions whose words or whose tags
agree, and each matched position weighs ``exp(-lw * [words differ] - lt * [tags differ])``:
1 where both agree, ``exp(-lw)`` where only the tags agree, ``exp(-lt)`` where only the words
do (:func:`node_weight`). A chain weighs the product of its steps and of its positions, which
is the paper's exponential model ``S = prod_j exp(lambda_j f_j)`` with two features counting
the chain's positions whose words, and whose tags, differ. ``lw = inf`` (tag-only positions
never match) and ``lt = 0`` is plain ACS.

The fast algorithm
------------------
The paper propagates counts along every edge of the match graph, O(m^2 n^2 l) in the worst
case. The step weight factorises along a lattice path: write the displacement from one match
to the gap end of the next as ``min(g_a, g_b)`` diagonal moves and ``|g_a - g_b|`` straight
moves; then ``S = d^min * h^(g_a - g_b)+ * v^(g_b - g_a)+`` with

* ``max``: ``d = exp(-alpha)``, ``h = v = exp(-(alpha + beta))``;
* ``cand``: ``d = exp(-alpha)``, ``h = exp(-(alpha + beta))``, ``v = exp(-beta)``.

Taking every path in the canonical order "straight moves first, then diagonal ones" gives one
path per source, so the sum over all earlier matches of ``count * S`` obeys a recurrence over
the grid (``H`` and ``V`` are the decayed straight sums, ``U`` the total)::

    H[i, j] = f[i, j] + h * H[i - 1, j]
    V[i, j] = f[i, j] + v * V[i, j - 1]
    U[i, j] = H[i, j] + V[i, j] - f[i, j] + d * U[i - 1, j - 1]
    count_k[x, y] = node[x, y] * U_{k-1}[x - 1, y - 1]

so each size costs O(m n): O(m n l) in all, exact (no approximation), with only decaying
factors (no overflow). The slow twins (:mod:`mtpalette.kernels.reference.acs`) are the
paper's three steps (matches, dependency edges, propagation by depth) and the skip-n-grams
enumerated themselves; the tests check that all three agree.

References
----------
Lita, Rogati and Lavie (2005), BLANC: Learning Evaluation Metrics for MT, HLT/EMNLP,
sections 2.1 and 2.3.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mtpalette import _core
from mtpalette.kernels.arrays import ids32, idx64

GAP_MODES = {"max": 0, "cand": 1}


def step_factors(alpha: float, beta: float, gap: str = "max") -> tuple[float, float, float]:
    """The diagonal, candidate-only and reference-only move factors ``(d, h, v)``.

    Examples
    --------
    >>> step_factors(0.0, 0.0)
    (1.0, 1.0, 1.0)
    >>> [round(x, 4) for x in step_factors(1.0, 0.5, "cand")]
    [0.3679, 0.2231, 0.6065]
    """
    if alpha < 0 or beta < 0:
        raise ValueError("alpha and beta must be >= 0")
    if gap not in GAP_MODES:
        raise ValueError(f"unknown gap mode {gap!r}; expected one of {', '.join(GAP_MODES)}")
    d = math.exp(-alpha)
    h = math.exp(-(alpha + beta))
    v = h if gap == "max" else math.exp(-beta)
    return d, h, v


def node_weights(lw: float | None, lt: float) -> tuple[float, float]:
    """``(tag_only, word_only)``: the weight of a position where only the tags agree,
    ``exp(-lw)`` (0 when ``lw`` is None: such positions do not match), and of one where only
    the words agree, ``exp(-lt)``.

    Examples
    --------
    >>> node_weights(None, 0.0)
    (0.0, 1.0)
    >>> [round(x, 4) for x in node_weights(1.0, 2.0)]
    [0.3679, 0.1353]
    """
    if (lw is not None and not lw >= 0) or not lt >= 0:
        raise ValueError("lw and lt (the POS feature weights) must be >= 0")
    return (0.0 if lw is None or math.isinf(lw) else math.exp(-lw)), math.exp(-lt)


@dataclass(frozen=True)
class AcsSettings:
    """What the counts of a pair depend on besides its words: the gap decay ``alpha``, the gap
    difference ``beta``, the largest chain size ``kmax``, the ``gap`` mode, and with POS tags
    the weights ``(tag_only, word_only)`` of a matched position (:func:`node_weights`).

    Examples
    --------
    >>> s = AcsSettings(alpha=1.0, beta=0.5, kmax=3, gap="cand")
    >>> [round(x, 4) for x in s.factors()]
    [0.3679, 0.2231, 0.6065]
    """

    alpha: float
    beta: float
    kmax: int
    gap: str = "max"
    weights: tuple[float, float] = (0.0, 1.0)

    def factors(self) -> tuple[float, float, float]:
        """:func:`step_factors` of these settings (checked)."""
        return step_factors(self.alpha, self.beta, self.gap)

    def step(self, g_a: int, g_b: int) -> float:
        """:func:`step_weight` of one step with these settings."""
        return step_weight(g_a, g_b, self.alpha, self.beta, self.gap)


def node_weight(w_a: int, w_b: int, t_a: int, t_b: int, weights: tuple[float, float]) -> float:
    """The weight of matching a position with words ``w_a, w_b`` and tags ``t_a, t_b``.

    Examples
    --------
    >>> node_weight(1, 1, 5, 5, (0.25, 0.5)), node_weight(1, 2, 5, 5, (0.25, 0.5))
    (1.0, 0.25)
    >>> node_weight(1, 1, 5, 6, (0.25, 0.5)), node_weight(1, 2, 5, 6, (0.25, 0.5))
    (0.5, 0.0)
    """
    tag_only, word_only = weights
    if w_a == w_b:
        return 1.0 if t_a == t_b else word_only
    return tag_only if t_a == t_b else 0.0


def step_weight(g_a: int, g_b: int, alpha: float, beta: float, gap: str = "max") -> float:
    """``S`` of one step with gaps ``g_a`` (candidate) and ``g_b`` (reference), eqs. 1-6."""
    G = max(g_a, g_b) if gap == "max" else g_a
    return math.exp(-alpha * G - beta * abs(g_a - g_b))


def skip_ngram_weight(positions: Sequence[int], alpha: float) -> float:
    """phi of one skip-n-gram occurrence: ``exp(-alpha * total gap)`` (eqs. 1-3).

    Examples
    --------
    >>> # "machine translated automatically" in K_1 of the paper: one gap of 3 words
    >>> skip_ngram_weight([0, 1, 5], 1.0) == math.exp(-3)
    True
    """
    gaps = sum(b - a - 1 for a, b in itertools.pairwise(positions))
    return math.exp(-alpha * gaps)


def acs_counts(
    a_ids: np.ndarray,
    a_off: np.ndarray,
    b_ids: np.ndarray,
    b_off: np.ndarray,
    pa: np.ndarray,
    pb: np.ndarray,
    settings: AcsSettings,
    tags: tuple[np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """``(P, kmax)`` weighted common skip-k-gram counts of rows ``pa[p]`` of ``a`` (the
    candidate side) and ``pb[p]`` of ``b`` (ragged arrays: ids and offsets).

    ``tags``: the POS tag ids of ``a`` and of ``b``, aligned with ``a_ids`` and ``b_ids``;
    then the matches are weighted by ``settings.weights = (tag_only, word_only)``
    (:func:`node_weights`). The fast kernel is ``mtpalette._core.acs_counts`` (Rust).

    Examples
    --------
    >>> x = np.array([1, 2, 3, 4, 1, 2], dtype=np.int32)  # to be or not to be
    >>> y = np.array([1, 5, 3, 4, 2], dtype=np.int32)     # to exist or not be
    >>> off = lambda t: np.array([0, len(t)])
    >>> one = np.zeros(1, dtype=np.int64)
    >>> acs_counts(x, off(x), y, off(y), one, one, AcsSettings(0, 0, kmax=5)).tolist()
    [[6.0, 8.0, 4.0, 1.0, 0.0]]
    """
    return _core.acs_counts(
        ids32(a_ids),
        idx64(a_off),
        ids32(b_ids),
        idx64(b_off),
        idx64(pa),
        idx64(pb),
        settings.factors(),
        int(settings.kmax),
        None if tags is None else (*(ids32(t) for t in tags), tuple(map(float, settings.weights))),
    )


def acs_pair(
    a: Sequence[int],
    b: Sequence[int],
    settings: AcsSettings,
    tags: tuple[Sequence[int], Sequence[int]] | None = None,
) -> np.ndarray:
    """:func:`acs_counts` of one pair of id sequences (convenience for tests and examples).

    Examples
    --------
    >>> # "the cat sat" / "a dog sat", tags DET NOUN VERB in both: tag-only matches weigh 0.5
    >>> acs_pair([1, 2, 3], [4, 5, 3], AcsSettings(0, 0, kmax=3)).tolist()
    [1.0, 0.0, 0.0]
    >>> tagged = AcsSettings(0, 0, kmax=3, weights=(0.5, 1.0))
    >>> acs_pair([1, 2, 3], [4, 5, 3], tagged, tags=([7, 8, 9], [7, 8, 9])).tolist()
    [2.0, 1.25, 0.25]
    """
    x = np.asarray(a, dtype=np.int64)
    y = np.asarray(b, dtype=np.int64)
    zero = np.zeros(1, dtype=np.int64)
    return acs_counts(
        x,
        np.array([0, len(x)]),
        y,
        np.array([0, len(y)]),
        zero,
        zero,
        settings,
        tags=None if tags is None else (np.asarray(tags[0]), np.asarray(tags[1])),
    )[0]


def skip_ngram_counts(tokens: Sequence[int], *, alpha: float, kmax: int) -> np.ndarray:
    """The weighted number of skip-k-grams of one sentence, ``sum over k-subsets of phi``.

    It is ACS of the sentence against itself with only the identity matches, which distinct
    ids give. With ``alpha = 0`` it is ``C(len, k)``.

    Examples
    --------
    >>> skip_ngram_counts([1, 2, 3, 4, 1, 2], alpha=0, kmax=6).tolist()  # to be or not to be
    [6.0, 15.0, 20.0, 15.0, 6.0, 1.0]
    """
    ids = np.arange(len(tokens))
    return acs_pair(ids, ids, AcsSettings(alpha, 0.0, kmax))


def clipped_skip_counts(
    a_ids: np.ndarray,
    a_off: np.ndarray,
    b_ids: np.ndarray,
    b_off: np.ndarray,
    pa: np.ndarray,
    pb: np.ndarray,
    kmax: int,
) -> np.ndarray:
    """``(P, kmax)`` common skip-k-grams of rows ``pa[p]`` of ``a`` and ``pb[p]`` of ``b``
    with redundant matches disregarded: per skip-k-gram (any gaps), ``min(count in a, count
    in b)`` summed over the distinct ones, the clipping of ROUGE-S.

    BLANC's section 3 with alpha = beta = 0: :func:`acs_counts` counts every pair of
    occurrences, this counts each occurrence at most once. It enumerates the ``C(len, k)``
    skip-k-grams of each sentence, so it is meant for small ``kmax`` (BLANC allows 4).

    Examples
    --------
    >>> x = np.array([1, 2, 3, 4, 1, 2], dtype=np.int32)  # to be or not to be
    >>> y = np.array([1, 5, 3, 4, 2], dtype=np.int32)     # to exist or not be
    >>> off = lambda t: np.array([0, len(t)])
    >>> one = np.zeros(1, dtype=np.int64)
    >>> clipped_skip_counts(x, off(x), y, off(y), one, one, 3).tolist()  # acs: 6, 8, 4
    [[4.0, 6.0, 4.0]]
    """
    out = np.zeros((len(pa), kmax))
    cache: dict[tuple[int, int], list[Counter]] = {}

    def grams(ids: np.ndarray, off: np.ndarray, row: int, side: int) -> list[Counter]:
        key = (side, row)
        if key not in cache:
            words = tuple(ids[off[row] : off[row + 1]].tolist())
            cache[key] = [Counter(itertools.combinations(words, k)) for k in range(1, kmax + 1)]
        return cache[key]

    for p, (i, j) in enumerate(zip(pa.tolist(), pb.tolist(), strict=True)):
        mine, theirs = grams(a_ids, a_off, i, 0), grams(b_ids, b_off, j, 1)
        for k in range(kmax):
            a, b = mine[k], theirs[k]
            if len(b) < len(a):
                a, b = b, a
            out[p, k] = sum(min(n, b[g]) for g, n in a.items() if g in b)
    return out
