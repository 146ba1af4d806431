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
(:func:`~mtpalette.kernels.interning.intern_ngrams`), so ids are shared; the matches are
counted with ``np.unique`` on (sentence, n-gram) keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from mtpalette.analysis.words import clipped_matches
from mtpalette.kernels.interning import intern_ngrams
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


def ngram_matches(
    systems: Mapping[str, Ragged], ref: Ragged, orders: tuple[int, int]
) -> tuple[dict[str, np.ndarray], list[tuple[int, int]], Ragged]:
    """Per system, the matches of every n-gram id (all orders, one id space); the ``(order,
    first position)`` of every id in the stacked rows; those rows (reference first)."""
    lo, hi = orders
    parts = [ref, *systems.values()]
    stacked = Ragged.concat(parts)
    grams = intern_ngrams(stacked, hi)
    starts = np.cumsum([0] + [len(p.ids) for p in parts])
    base = np.cumsum([0] + [g.n_ids for g in grams[lo - 1 : hi]])
    out = {name: np.zeros(int(base[-1]), dtype=np.int64) for name in systems}
    where: list[tuple[int, int]] = []
    for k, g in enumerate(grams[lo - 1 : hi]):
        order = lo + k
        first = np.full(g.n_ids, -1, dtype=np.int64)
        valid = np.flatnonzero(g.ids >= 0)
        first_ids, at = np.unique(g.ids[valid], return_index=True)
        first[first_ids] = valid[at]
        where += [(order, int(p)) for p in first]
        ref_rows = _as_rows(g.ids[starts[0] : starts[1]], ref)
        for j, (name, rows) in enumerate(systems.items(), start=1):
            sys_rows = _as_rows(g.ids[starts[j] : starts[j + 1]], rows)
            ids, m = clipped_matches(sys_rows, ref_rows, g.n_ids + 1)
            np.add.at(out[name], base[k] + ids - 1, m)
    return out, where, stacked


def _as_rows(gram_ids: np.ndarray, rows: Ragged) -> Ragged:
    """The n-grams of ``rows`` as rows of ids shifted by one (id 0 unused), the positions
    where no n-gram starts dropped."""
    keep = gram_ids >= 0
    lengths = np.add.reduceat(keep, rows.offsets[:-1]) if len(keep) else np.zeros(len(rows))
    lengths = np.where(rows.lengths() > 0, lengths, 0)
    offsets = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return Ragged((gram_ids[keep] + 1).astype(np.int32), offsets)


def ngram_differences(
    systems: Mapping[str, Ragged],
    ref: Ragged,
    decode,
    *,
    baseline: str,
    orders: tuple[int, int] = (1, 4),
    alpha: float = 1.0,
    top: int = 50,
) -> list[NgramDifferences]:
    """Every other system against ``baseline``: its ``top`` gains and losses.

    ``decode`` maps token ids to their strings (the encoder's vocabulary).

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
    matches, where, stacked = ngram_matches(systems, ref, orders)
    texts_of: dict[int, str] = {}  # each n-gram's text once, whatever the pairs it is in
    out = []
    for name in systems:
        if name == baseline:
            continue
        a, b = matches[name], matches[baseline]
        seen = np.flatnonzero(a + b > 0)
        share = (a[seen] + alpha) / (a[seen] + b[seen] + 2 * alpha)
        total = a[seen] + b[seen]

        def row(j: int, a=a, b=b, seen=seen, share=share) -> dict[str, Any]:
            i = int(seen[j])
            return {"ngram": texts_of[i], "order": where[i][0], "system": int(a[i]),
                    "baseline": int(b[i]), "share": float(share[j])}  # fmt: skip

        def first(sign: float, seen=seen, share=share, total=total) -> list[int]:
            picked = _first(sign * share, total, top)
            for i in seen[picked].tolist():
                if i not in texts_of:
                    texts_of[i] = _text(stacked, where[i], decode)
            picked = picked.tolist()
            keys = {j: (sign * share[j], -total[j], texts_of[int(seen[j])]) for j in picked}
            return sorted(keys, key=keys.__getitem__)[:top]

        gains = [row(j) for j in first(-1.0) if share[j] > 0.5]
        losses = [row(j) for j in first(1.0) if share[j] < 0.5]
        out.append(NgramDifferences(baseline, name, orders, alpha, gains, losses))
    return out


def _first(key: np.ndarray, total: np.ndarray, top: int) -> np.ndarray:
    """The positions that can be among the ``top`` first by ``(key, -total, text)``: the
    ``top`` first by ``(key, -total)`` and every one tied with the last of them (the text
    breaks those ties, decoded only for these)."""
    order = np.lexsort((-total, key))
    if len(order) <= top:
        return order
    last = order[top - 1]
    tied = (key == key[last]) & (total == total[last])
    return np.union1d(order[:top], np.flatnonzero(tied))


def _text(stacked: Ragged, at: tuple[int, int], decode) -> str:
    order, pos = at
    return " ".join(decode(stacked.ids[pos : pos + order].tolist()))
