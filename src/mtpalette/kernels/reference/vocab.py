"""Slow twins of :mod:`mtpalette.kernels.vocab`: the hash written out in Python integers and
interning with a dict."""

from __future__ import annotations

from collections.abc import Sequence

_MASK64 = (1 << 64) - 1
_FNV_OFFSET = 0xCBF29CE484222325
_FNV_PRIME = 0x00000100000001B3
_MIX = 0xFF51AFD7ED558CCD


def hash_slow(codepoints: Sequence[int]) -> int:
    """FNV-1a over the code points, then ``h ^= h >> 33; h *= MIX; h ^= h >> 33`` (64 bits).

    Examples
    --------
    >>> hash_slow([97]) == hash_slow([97]) != hash_slow([98])
    True
    """
    h = _FNV_OFFSET
    for c in codepoints:
        h = ((h ^ c) * _FNV_PRIME) & _MASK64
    h ^= h >> 33
    h = (h * _MIX) & _MASK64
    return h ^ (h >> 33)


def rehash_slow(size: int, hashes: Sequence[int]) -> list[int]:
    """A table of ``size`` slots with id ``v`` at the first free slot from ``hashes[v] %
    size`` on, ids inserted in order (-1: free).

    Examples
    --------
    >>> rehash_slow(4, [5, 1])
    [-1, 0, 1, -1]
    """
    table = [-1] * size
    for v, h in enumerate(hashes):
        s = h % size
        while table[s] >= 0:
            s = (s + 1) % size
        table[s] = v
    return table


def intern_slow(tokens: Sequence[str], known: Sequence[str] = ()) -> tuple[list[int], list[str]]:
    """Consecutive ids in order of first occurrence, after the ``known`` tokens: ``(ids of
    tokens, the vocabulary)``.

    Examples
    --------
    >>> intern_slow(["b", "a", "b"], ["a"])
    ([1, 0, 1], ['a', 'b'])
    """
    index = {t: i for i, t in enumerate(known)}
    ids = [index.setdefault(t, len(index)) for t in tokens]
    return ids, list(index)


def first_occurrences_slow(items: Sequence) -> tuple[list[int], list[int]]:
    """``(rows, firsts)`` of :func:`mtpalette.kernels.vocab.first_occurrences` with a dict.

    Examples
    --------
    >>> first_occurrences_slow(["b", "a", "b"])
    ([0, 1, 0], [0, 1])
    """
    row_of: dict = {}
    firsts: list[int] = []
    rows = []
    for i, item in enumerate(items):
        if item not in row_of:
            row_of[item] = len(firsts)
            firsts.append(i)
        rows.append(row_of[item])
    return rows, firsts
