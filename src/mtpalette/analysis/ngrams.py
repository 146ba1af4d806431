"""n-gram differences: the n-grams one system matches in the reference more often than another.

compare-mt's definition (Neubig et al., 2019; its ``compare_ngrams`` with ``compare_type=match``,
read, not copied): in each sentence an output n-gram (orders 1 to 4 by default) matches while
the reference has an unused copy of it, so an n-gram matches ``min(count in the output, count in
the reference)`` times per sentence; the counts are summed over the corpus. Each n-gram gets
the smoothed share ``(m_system + alpha) / (m_system + m_baseline + 2 alpha)`` (alpha = 1:
Laplace), high where the system matches it more often. The n-grams with the highest share are
listed as the system's gains, those with the lowest as its losses. compare-mt breaks ties by
the order of a Python set (it changes between runs); here by the larger total of matches, then
by the n-gram's text, so the lists are the same on every run.

The n-grams of the reference and of every system are numbered in one pass
(:func:`~mtpalette.kernels.interning.intern_ngrams`), so ids are shared; the matches of every
system and order are counted in one compiled pass
(:func:`~mtpalette.kernels.matches.clipped_matches`), which also gives the word analysis its
matches (order 1: the token ids).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

import numpy as np

from mtpalette.kernels.interning import intern_ngrams
from mtpalette.kernels.matches import clipped_matches
from mtpalette.records import Record, TwoSided, constant
from mtpalette.text.ragged import Ragged


@dataclass(frozen=True)
class NgramDifferences(Record, TwoSided):
    """The n-grams ``system`` matches more (``gains``) and less (``losses``) often than
    ``baseline``, each ``{"ngram", "order", "system", "baseline", "share"}``."""

    KIND = "ngram-differences"
    analysis = constant(KIND, first=True)
    SIDES = (("gain", "gains"), ("loss", "losses"))

    baseline: str
    system: str
    orders: tuple[int, int]
    alpha: float
    gains: list[dict[str, Any]]
    losses: list[dict[str, Any]]


@dataclass(frozen=True)
class NgramMatches:
    """Every system's matches of the n-grams of orders ``lo..hi`` that the reference holds
    (no other n-gram can match), counted in one compiled pass
    (:func:`~mtpalette.kernels.matches.clipped_matches`). They are numbered in one space,
    order ``lo``'s first; ``ids_of[k]`` gives each one's id among all n-grams of its order
    (:func:`~mtpalette.kernels.interning.intern_ngrams`: for order 1, the token id)."""

    #: per system, the matches of every reference n-gram
    matches: dict[str, np.ndarray]
    orders: tuple[int, int]
    #: the first number of each order, and the count of reference n-grams last
    base: np.ndarray
    #: per order, each reference n-gram's id among all the n-grams of that order
    ids_of: list[np.ndarray]
    #: a token position (in ``stacked``) where each reference n-gram starts
    starts: np.ndarray
    #: the rows of the reference and every system, stacked (reference first)
    stacked: Ragged

    def of_order(self, order: int, name: str, n_ids: int) -> np.ndarray:
        """``name``'s matches of every n-gram of ``order`` by its id (``n_ids`` of them: the
        vocabulary's size for order 1); 0 for those the reference lacks."""
        k = order - self.orders[0]
        out = np.zeros(n_ids, dtype=np.int64)
        out[self.ids_of[k]] = self.matches[name][self.base[k] : self.base[k + 1]]
        return out

    def texts(self, ids: Sequence[int], decode) -> list[tuple[int, str]]:
        """The order and the text of every reference n-gram of ``ids``, their tokens decoded
        in one call."""
        ids = np.asarray(ids, dtype=np.int64)
        orders = np.searchsorted(self.base, ids, side="right") - 1 + self.orders[0]
        ends = np.cumsum(orders)
        n_words = int(ends[-1]) if len(ids) else 0
        at = np.repeat(self.starts[ids] - (ends - orders), orders) + np.arange(n_words)
        words = iter(decode(self.stacked.ids[at].tolist()))
        return [(o, " ".join(islice(words, o))) for o in orders.tolist()]


def ngram_matches(
    systems: Mapping[str, Ragged], ref: Ragged, orders: tuple[int, int]
) -> NgramMatches:
    """Per system, the matches of every reference n-gram of ``orders`` (:class:`NgramMatches`).

    Examples
    --------
    >>> ref = Ragged.from_rows([[0, 1, 2]])
    >>> m = ngram_matches({"A": Ragged.from_rows([[0, 1, 3]])}, ref, (1, 2))
    >>> m.of_order(1, "A", 4).tolist(), m.matches["A"].tolist()  # 0 1 2, then 01 12
    ([1, 1, 0, 0], [1, 1, 0, 1, 0])
    >>> m.texts([4, 0], lambda ids: [str(i) for i in ids])
    [(2, '1 2'), (1, '0')]
    """
    lo, hi = orders
    stacked = Ragged.concat([ref, *systems.values()])
    in_ref = int(stacked.offsets[len(ref)])  # the reference's token positions come first
    layers, ids_of, starts = [], [], []
    for g in intern_ngrams(stacked, hi)[lo - 1 : hi]:
        held = np.zeros(g.n_ids + 1, dtype=bool)  # the last: the -1 of no n-gram
        held[g.ids[:in_ref]] = True
        held[-1] = False
        ids_of.append(np.flatnonzero(held[:-1]))
        number = np.full(g.n_ids + 1, -1, dtype=np.int64)
        number[ids_of[-1]] = np.arange(len(ids_of[-1]))
        layers.append(number[g.ids])  # -1: an n-gram the reference lacks, or none
        found = np.flatnonzero(layers[-1][:in_ref] >= 0)
        at = np.zeros(len(ids_of[-1]), dtype=np.int64)  # a position of each (any one reads
        at[layers[-1][found]] = found  # the same)
        starts.append(at)
    bounds = [len(x) for x in ids_of]
    base = np.cumsum([0, *bounds])
    counts = clipped_matches(np.stack(layers), stacked.offsets, len(ref), bounds)
    return NgramMatches(dict(zip(systems, counts, strict=True)), orders, base, ids_of,
                        np.concatenate(starts), stacked)  # fmt: skip


def ngram_differences(
    systems: Mapping[str, Ragged],
    ref: Ragged,
    decode,
    *,
    baseline: str,
    orders: tuple[int, int] = (1, 4),
    alpha: float = 1.0,
    top: int = 50,
    counted: NgramMatches | None = None,
) -> list[NgramDifferences]:
    """Every other system against ``baseline``: its ``top`` gains and losses.

    ``decode`` maps token ids to their strings (the encoder's vocabulary); ``counted``: the
    matches of these orders or wider ones, counted already (:func:`ngram_matches`).

    Examples
    --------
    >>> ref = Ragged.from_rows([[0, 1, 2]])
    >>> sys = {"A": Ragged.from_rows([[0, 1, 3]]), "B": Ragged.from_rows([[0, 3, 2]])}
    >>> [d] = ngram_differences(sys, ref, lambda ids: [str(i) for i in ids], baseline="A",
    ...                         orders=(1, 2), top=2)
    >>> [(g["ngram"], g["system"], g["baseline"]) for g in d.gains]  # B's against A's
    [('2', 1, 0)]
    >>> [(g["ngram"], g["system"], g["baseline"]) for g in d.losses]
    [('0 1', 0, 1), ('1', 0, 1)]
    """
    lo, hi = orders
    if not 1 <= lo <= hi:
        raise ValueError("orders: 1 <= lowest <= highest")
    if baseline not in systems:
        raise ValueError(f"baseline {baseline!r} is not among the systems")
    if counted is None or not counted.orders[0] <= lo <= hi <= counted.orders[1]:
        counted = ngram_matches(systems, ref, orders)
    first_id = int(counted.base[lo - counted.orders[0]])
    last_id = int(counted.base[hi - counted.orders[0] + 1])
    texts_of: dict[int, tuple[int, str]] = {}  # each n-gram's order and text, once
    out = []
    for name in systems:
        if name == baseline:
            continue
        a = counted.matches[name][first_id:last_id]
        b = counted.matches[baseline][first_id:last_id]
        seen = np.flatnonzero(a + b > 0)
        share = (a[seen] + alpha) / (a[seen] + b[seen] + 2 * alpha)
        total = a[seen] + b[seen]

        def row(j: int, a=a, b=b, seen=seen, share=share) -> dict[str, Any]:
            i = int(seen[j])
            order, text = texts_of[i]
            return {"ngram": text, "order": order, "system": int(a[i]),
                    "baseline": int(b[i]), "share": float(share[j])}  # fmt: skip

        def first(sign: float, seen=seen, share=share, total=total) -> list[int]:
            picked = _first(sign * share, total, top)
            new = [i for i in dict.fromkeys(seen[picked].tolist()) if i not in texts_of]
            texts_of.update(zip(new, counted.texts(np.add(new, first_id), decode), strict=True))
            ids = seen[picked].tolist()
            keys = zip((sign * share[picked]).tolist(), (-total[picked]).tolist(),
                       [texts_of[i][1] for i in ids], picked.tolist(), strict=True)  # fmt: skip
            return [j for *_, j in sorted(keys)][:top]

        gains = [row(j) for j in first(-1.0) if share[j] > 0.5]
        losses = [row(j) for j in first(1.0) if share[j] < 0.5]
        out.append(NgramDifferences(baseline, name, orders, alpha, gains, losses))
    return out


def _first(key: np.ndarray, total: np.ndarray, top: int) -> np.ndarray:
    """The positions that can be among the ``top`` first by ``(key, -total, text)``: the
    ``top`` first by ``(key, -total)`` and every one tied with the last of them (the text
    breaks those ties, decoded only for these). Only the positions whose key is at most the
    ``top``-th smallest (found by a partition) are sorted.

    Examples
    --------
    >>> _first(np.array([0.5, 0.1, 0.5, 0.9, 0.5]), np.array([2, 1, 2, 5, 1]), 2).tolist()
    [0, 1, 2]
    """
    if len(key) <= top:
        return np.lexsort((-total, key))
    near = np.flatnonzero(key <= np.partition(key, top - 1)[top - 1])
    order = near[np.lexsort((-total[near], key[near]))]
    last = order[top - 1]
    tied = (key == key[last]) & (total == total[last])
    return np.union1d(order[:top], np.flatnonzero(tied))
